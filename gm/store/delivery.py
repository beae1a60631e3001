"""Delivery: what became of each message after it left (refusals, bounces) and each address's state."""

from __future__ import annotations

import sqlite3

MAX_WORDS = 500  # characters of a server's words kept per event


class DeliveryQueries:
    """Mixed into Store: ``delivery_events``, ``addresses``, and the outbox rows they touch."""

    # --- events -------------------------------------------------------------------
    def add_delivery_event(self, address: str, outbox_id: int | None, at: float, permanent: bool,
                           source: str, words: str, message_row: int | None = None) -> int:
        return self.insert("delivery_events", address=address.lower(), outbox_id=outbox_id, at=at,
                           permanent=int(permanent), source=source, message_row=message_row,
                           words=words[:MAX_WORDS])

    def record_refusal(self, outbox_id: int, address: str, attempts: int, words: str, at: float) -> None:
        """The SMTP server refused a message for good as it was sent (a 5xx): the sender thread
        marks it bounced and leaves the event for the service to settle (gm.service.outgoing.delivery_state)."""
        self.update("outbox", {"id": outbox_id}, status="bounced", attempts=attempts,
                    last_error=words[:MAX_WORDS])
        self.add_delivery_event(address, outbox_id, at, True, "smtp", words)

    def unsettled_events(self, limit: int = 100, address: str | None = None) -> list[sqlite3.Row]:
        """The failures not yet taken into their address's state (``address``: of that one only)."""
        if address is not None:
            return self.all("SELECT * FROM delivery_events WHERE settled = 0 AND address = ? ORDER BY id LIMIT ?",
                            address.lower(), limit)
        return self.all("SELECT * FROM delivery_events WHERE settled = 0 ORDER BY id LIMIT ?", limit)

    def settle_event(self, event_id: int) -> None:
        self.update("delivery_events", {"id": event_id}, settled=1)

    def delivery_events(self, address: str, limit: int = 100) -> list[sqlite3.Row]:
        """An address's events, newest first, each with its message's subject and game."""
        return self.all("SELECT e.*, o.subject, o.game_id, o.status FROM delivery_events e "
                        "LEFT JOIN outbox o ON o.id = e.outbox_id WHERE e.address = ? "
                        "ORDER BY e.at DESC, e.id DESC LIMIT ?", address.lower(), limit)

    def temporary_failure_days(self, address: str, since: float) -> set[int]:
        """The UTC days (as day numbers) with a temporary failure of ``address`` since ``since``."""
        rows = self.all("SELECT DISTINCT CAST(at / 86400 AS INTEGER) AS day FROM delivery_events "
                        "WHERE address = ? AND permanent = 0 AND at >= ?", address.lower(), since)
        return {r["day"] for r in rows}

    # --- the state of an address ------------------------------------------------------
    def address_state(self, address: str) -> sqlite3.Row | None:
        return self.remembered("addresses", ("address", address.lower()), lambda: self.one(
            "SELECT * FROM addresses WHERE address = ?", address.lower()))

    def read_address_states(self, addresses: list[str]) -> None:
        """Read the states of these addresses in one statement, remembered for address_state in
        this write transaction (a game's mail goes to several: gm.store.reads)."""
        if not self.depth:
            return  # nothing is remembered outside a write transaction
        wanted = sorted(a for a in {a.lower() for a in addresses if a}
                        if not self.already_read("addresses", ("address", a))[0])
        if not wanted:
            return
        marks = ", ".join("?" for _ in wanted)
        found = {r["address"]: r for r in self.all(f"SELECT * FROM addresses WHERE address IN ({marks})", *wanted)}
        for address in wanted:
            self.remember_written("addresses", ("address", address), found.get(address))

    def set_address_state(self, address: str, state: str, since: float, reason: str | None) -> None:
        self.db.execute("INSERT INTO addresses(address, state, since, reason) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT(address) DO UPDATE SET state = excluded.state, since = excluded.since, "
                        "reason = excluded.reason, last_probe = NULL",
                        (address.lower(), state, since, reason))

    def set_last_probe(self, address: str, at: float) -> None:
        self.update("addresses", {"address": address.lower()}, last_probe=at)

    def addresses_in_state(self, state: str) -> list[sqlite3.Row]:
        return self.all("SELECT * FROM addresses WHERE state = ? ORDER BY since", state)

    def player_seats_at(self, address: str) -> list[sqlite3.Row]:
        """(game_id, name, status) of every seat still in a game registered to ``address``."""
        return self.all("SELECT p.game_id, p.name, g.status FROM players p JOIN games g ON g.id = p.game_id "
                        "WHERE p.active = 1 AND lower(p.email) = ? ORDER BY p.game_id, p.seat",
                        address.lower())

    # --- the outbox rows -------------------------------------------------------------------
    def outbox_row(self, outbox_id: int) -> sqlite3.Row | None:
        return self.one("SELECT id, message_id, game_id, turn, kind, recipient, subject, status, sent "
                        "FROM outbox WHERE id = ?", outbox_id)

    def outbox_by_message_id(self, message_id: str) -> sqlite3.Row | None:
        return self.one("SELECT id, message_id, game_id, turn, kind, recipient, subject, status, sent "
                        "FROM outbox WHERE message_id = ?", message_id)

    def mark_bounced(self, outbox_id: int, words: str) -> None:
        """A message refused for good, at send time or by a bounce that came back."""
        self.update("outbox", {"id": outbox_id}, status="bounced", last_error=words[:MAX_WORDS])

    def hold_queued(self, address: str) -> int:
        """Hold every queued message to ``address`` (any case; it bounces); returns how many."""
        # By status first (the outbox_queue index): few rows are queued or held at any time.
        return self.db.execute("UPDATE outbox SET status = 'held' WHERE status = 'queued' AND lower(recipient) = ?",
                               (address.lower(),)).rowcount

    def release_held(self, address: str, now: float) -> int:
        """Queue again every held message to ``address`` (any case), due now; returns how many."""
        return self.db.execute("UPDATE outbox SET status = 'queued', next_attempt = ? "
                               "WHERE status = 'held' AND lower(recipient) = ?",
                               (now, address.lower())).rowcount

    # --- holds: the server refuses gm, not a recipient (gm.service.outgoing.holding) ----------------------
    def hold(self, scope: str) -> sqlite3.Row | None:
        return self.one("SELECT * FROM holds WHERE scope = ?", scope)

    def holds(self) -> list[sqlite3.Row]:
        return self.all("SELECT * FROM holds ORDER BY since, scope")

    def add_hold(self, scope: str, since: float, reason: str, words: str, refusal: str,
                 next_probe: float) -> bool:
        """Start holding ``scope``; False (nothing changed) if it is held already."""
        if self.hold(scope) is not None:
            return False
        self.insert("holds", scope=scope, since=since, reason=reason[:MAX_WORDS], words=words[:MAX_WORDS],
                    refusal=refusal, next_probe=next_probe)
        return True

    def probe_refused(self, scope: str, probes: int, next_probe: float, words: str) -> None:
        self.update("holds", {"scope": scope}, probes=probes, next_probe=next_probe, words=words[:MAX_WORDS])

    def hold_told(self, scope: str) -> None:
        self.update("holds", {"scope": scope}, told=1)

    def end_hold(self, scope: str) -> bool:
        return self.db.execute("DELETE FROM holds WHERE scope = ?", (scope,)).rowcount > 0

    def release_scope(self, scope: str, now: float) -> int:
        """Make the queued mail a hold kept waiting due now (scope 'sender': all of it)."""
        if scope == "sender":
            return self.db.execute("UPDATE outbox SET next_attempt = ? WHERE status = 'queued' AND next_attempt > ?",
                                   (now, now)).rowcount
        pattern = "%@" + scope.partition(":")[2].lower()
        return self.db.execute("UPDATE outbox SET next_attempt = ? WHERE status = 'queued' AND next_attempt > ? "
                               "AND lower(recipient) LIKE ?", (now, now, pattern)).rowcount
