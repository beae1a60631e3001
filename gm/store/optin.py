"""Requests waiting for their address to confirm them (OBSERVE, JOIN, CREATE: gm.service.people.optin)."""

from __future__ import annotations

import sqlite3


class OptInQueries:
    """Mixed into Store: ``pending_requests``."""

    def add_pending_request(self, code_hash: str, address: str, mailbox: str, actions: list[str],
                            created: float, expires: float) -> None:
        self.insert("pending_requests", code_hash=code_hash, address=address.lower(),
                    mailbox=mailbox.lower(), actions="\n".join(actions), created=created,
                    expires=expires)

    def pending_request(self, code_hash: str) -> sqlite3.Row | None:
        return self.one("SELECT * FROM pending_requests WHERE code_hash = ?", code_hash)

    def confirm_pending_request(self, code_hash: str, now: float) -> int:
        """Mark a request confirmed (once: 0 when it was already)."""
        self._require_tx()
        return self.db.execute("UPDATE pending_requests SET confirmed = ? WHERE code_hash = ? AND "
                               "confirmed IS NULL", (now, code_hash)).rowcount

    def pending_requests_since(self, since: float, mailbox: str | None = None,
                               unconfirmed: bool = False) -> int:
        """How many requests were made since ``since`` (to ``mailbox``; only unconfirmed ones)."""
        sql, args = "SELECT count(*) AS n FROM pending_requests WHERE created >= ?", [since]
        if mailbox is not None:
            sql, args = sql + " AND mailbox = ?", args + [mailbox.lower()]
        if unconfirmed:
            sql += " AND confirmed IS NULL"
        return int(self.one(sql, *args)["n"])
