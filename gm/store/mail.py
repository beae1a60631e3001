"""Mail: inbound messages, the outbox, and the archive of what was sent (reports)."""

from __future__ import annotations

import sqlite3
import time
from typing import Iterable

from gm.store.packing import has_pictures, pack_mail, pack_text, repack_mail, unpack_mail, unpack_text


SEEN = "source_key = ? OR (message_id = ? AND outcome != 'duplicate')"  # a message stored before


class MailQueries:
    """Mixed into Store: reads and writes of ``messages``, ``outbox`` and ``reports``."""

    @staticmethod
    def report_body(row: sqlite3.Row) -> str:
        """The text of a reports row as sent (its body, by the packing recorded beside it)."""
        return unpack_text(row["body"], row["body_packing"])

    def _unpacked(self, rows: list[sqlite3.Row]) -> list[dict]:
        """Reports rows as dicts whose body is the text as sent (stored compressed when long)."""
        return [{**dict(row), "body": self.report_body(row)} for row in rows]

    # --- inbound ----------------------------------------------------------------
    def message_seen(self, source_key: str, message_id: str | None) -> sqlite3.Row | None:
        """The stored message with this source key, else with this Message-ID (not a duplicate)."""
        if not message_id:
            return self.one("SELECT * FROM messages WHERE source_key = ?", source_key)
        # One statement for both: the source key's row first, else the first by this Message-ID.
        return self.one(f"SELECT * FROM messages WHERE {SEEN} ORDER BY CASE WHEN source_key = ? THEN 0 ELSE 1 END, "
                        "id LIMIT 1", source_key, message_id, source_key)

    def add_new_message(self, source_key: str, message_id: str | None, sender: str | None,
                        subject: str | None, raw: bytes, received: float, outcome: str, detail: str = "",
                        read_game: tuple[str, str] | None = None) -> int | None:
        """add_message, unless message_seen would find one (then None, and nothing is stored): one
        statement for the look-up and the insert, the common case of a mail never seen.
        ``read_game``: (game, sender), Store.read_game's, done too (on PostgreSQL in the same statement)."""
        values = dict(source_key=source_key, message_id=message_id, sender=sender, subject=subject, raw=raw,
                      received=received, game_id=None, outcome=outcome, detail=detail, auth=None)
        return self.insert_unless("messages", values, f"SELECT 1 FROM messages WHERE {SEEN}",
                                  (source_key, message_id or None), read_game)

    def stored_source_keys(self, keys: list[str]) -> set[str]:
        """Which of these source keys a stored message has (judged, by this daemon or another)."""
        if not keys:
            return set()
        marks = ", ".join("?" for _ in keys)
        return {r["source_key"] for r in self.all(f"SELECT source_key FROM messages WHERE source_key IN ({marks})",
                                                  *keys)}

    def add_message(self, source_key: str, message_id: str | None, sender: str | None,
                    subject: str | None, raw: bytes, received: float, outcome: str,
                    detail: str = "", game_id: str | None = None, auth: str | None = None) -> int:
        """Store an inbound message; returns its row id.  ``raw``: the copy to keep (its secrets
        masked, gm.mail.redact); ``auth``: a mail set aside, the seat it authenticated as."""
        return self.insert("messages", source_key=source_key, message_id=message_id,
                           sender=sender, subject=subject, raw=raw, received=received,
                           game_id=game_id, outcome=outcome, detail=detail, auth=auth)

    def set_message_outcome(self, row_id: int, outcome: str, detail: str,
                            game_id: str | None) -> None:
        """Record what became of an inbound message (at the transaction's end: gm.store.deferred)."""
        self.defer("messages", "outcome", lambda rows: [  # a row's last outcome only: one statement may not
            ("UPDATE messages SET outcome = ?, detail = ?, game_id = ? WHERE id = ?", row)  # change it twice
            for row in {r[3]: r for r in rows}.values()], (outcome, detail, game_id, row_id))

    def message(self, row_id: int) -> sqlite3.Row | None:
        """One stored inbound message by its row id."""
        return self.one("SELECT * FROM messages WHERE id = ?", row_id)

    def inbox_listing(self, only_failed: bool = False, limit: int = 50) -> list[sqlite3.Row]:
        """Received mail, newest first, for ``gm inbox``; ``only_failed``: the ones set aside."""
        where = "WHERE outcome = 'error' " if only_failed else ""
        return self.all("SELECT id, sender, subject, received, outcome, detail, game_id FROM messages "
                        + where + "ORDER BY id DESC LIMIT ?", limit)

    # --- outbox -----------------------------------------------------------------
    def queue_outbox(self, message_id: str, recipient: str, subject: str, raw: bytes, *,
                     kind: str, now: float, game_id: str | None = None,
                     turn: int | None = None, not_before: float | None = None,
                     status: str = "queued", secret: bool = False) -> int:
        """Queue a composed mail for sending now (or from ``not_before``); returns its outbox id.

        ``status`` 'held': kept, not sent, while its address bounces (gm.service.outgoing.holding).
        ``secret``: it carries a password or a code (outbox.secret)."""
        return self.add_outbox_row(dict(message_id=message_id, game_id=game_id, turn=turn, kind=kind,
                                        recipient=recipient, subject=subject, raw=pack_mail(raw), status=status,
                                        next_attempt=max(now, not_before or now), created=now,
                                        trimmed=0 if has_pictures(raw) else 1, secret=int(secret)))

    def add_outbox_row(self, values: dict) -> int:
        """Insert an outbox row; its id.  (PostgreSQL: with an id drawn ahead, at the commit.)"""
        return self.insert("outbox", **values)

    def sent_untrimmed(self, before: float, limit: int) -> list[dict]:
        """(id, raw, archived) of mail sent before ``before`` that may still hold pictures, oldest
        first; ``archived``: its words are kept in ``reports`` too (the rows naming its id)."""
        rows = self.all("SELECT id, raw, EXISTS (SELECT 1 FROM reports WHERE reports.outbox_id = outbox.id) "
                        "AS archived FROM outbox WHERE trimmed = 0 AND status = 'sent' AND sent < ? "
                        "ORDER BY sent LIMIT ?", before, limit)
        return [{"id": row["id"], "raw": unpack_mail(row["raw"]), "archived": bool(row["archived"])}
                for row in rows]

    def keep_trimmed(self, outbox_id: int, raw: bytes) -> None:
        """Keep ``raw`` as the stored copy of a sent mail, with nothing more to leave out."""
        self._require_tx()
        self.db.execute("UPDATE outbox SET raw = ?, trimmed = 1 WHERE id = ? AND status = 'sent' AND trimmed = 0",
                        (pack_mail(raw), outbox_id))

    def outbox_due(self, now: float, limit: int, skip: Iterable[int] = ()) -> list[dict]:
        """(id, recipient, raw, attempts, secret) of the queued mail due by ``now``, oldest first,
        but the rows ``skip`` names; ``packed``: raw as stored (for mark_sent_keeping)."""
        skip = sorted(skip)
        others = f"AND id NOT IN ({', '.join('?' * len(skip))}) " if skip else ""
        rows = self.all("SELECT id, recipient, raw, attempts, secret FROM outbox WHERE status = 'queued' "
                        f"AND next_attempt <= ? {others}ORDER BY id LIMIT ?", now, *skip, limit)
        return [{**dict(row), "raw": unpack_mail(row["raw"]), "packed": row["raw"]} for row in rows]

    def claim_outbox(self, now: float, limit: int) -> list[sqlite3.Row]:
        """The mail due by ``now`` (as outbox_due) that this sender, and no other, may send now.

        Give every claimed row back with release_outbox() once it is marked (or not
        tried).  SQLite: one host, one sender, so every due row this connection has not
        claimed already (a sender claims more while it sends: gm.runtime.delivery.flush); a
        store shared by several daemons (gm.store.postgres) holds each row for the claiming session.
        """
        rows = self.outbox_due(now, limit, self.claimed)
        self.claimed |= {row["id"] for row in rows}
        return rows

    claimant: str | None = None  # the daemon (daemons.daemon_id) whose sender claims, if one does

    def release_outbox(self, rows: list) -> None:
        """Claimed rows are done with (marked sent or failed, or not tried): others may take them."""
        self.claimed -= {row["id"] for row in rows}

    def mark_sent(self, outbox_id: int, at: float, attempts: int) -> None:
        """A mail went out at ``at`` (``attempts``: the count including this one)."""
        self.update("outbox", {"id": outbox_id}, status="sent", sent=at, attempts=attempts,
                    last_error=None)

    def mark_sent_keeping(self, outbox_id: int, at: float, attempts: int, raw: bytes,
                          due: dict | None = None) -> None:
        """mark_sent and keep_sent_copy in one statement, with the other rows marked so in this
        transaction (deferred: gm.store.deferred); ``due``: the row as outbox_due gave it, when
        ``raw`` differs from it in the header alone (its packed body is reused: repack_mail)."""
        packed = pack_mail(raw) if due is None else repack_mail(due["packed"], due["raw"], raw)
        self.defer("outbox", "sent", self.sent_statements, (outbox_id, at, attempts, packed))

    def sent_statements(self, rows: list[tuple]) -> list[tuple[str, tuple]]:
        """The statements marking (id, sent, attempts, packed raw) outbox rows sent (mark_sent_keeping)."""
        return [("UPDATE outbox SET status = 'sent', sent = ?, attempts = ?, last_error = NULL, raw = ? WHERE id = ?",
                 (at, attempts, raw, oid)) for oid, at, attempts, raw in rows]

    def blank_secret(self, outbox_id: int, raw: bytes, subject: str) -> None:
        """Keep ``raw`` (its body blanked, gm.mail.redact.blank) as the copy of a sent mail that
        carried a secret; only a row marked secret is ever blanked."""
        self._require_tx()
        self.db.execute("UPDATE outbox SET raw = ?, subject = ?, trimmed = 1 WHERE id = ? AND secret = 1",
                        (pack_mail(raw), subject, outbox_id))

    def keep_sent_copy(self, outbox_id: int, raw: bytes) -> None:
        """Keep ``raw`` (its reply token masked) as the copy of a mail just sent."""
        self._require_tx()
        self.db.execute("UPDATE outbox SET raw = ? WHERE id = ? AND status = 'sent'", (pack_mail(raw), outbox_id))

    def mark_failed(self, outbox_id: int, attempts: int, error: str) -> None:
        """The server refused a mail for good: it is not tried again."""
        self.update("outbox", {"id": outbox_id}, status="failed", attempts=attempts,
                    last_error=error)

    def note_attempt(self, outbox_id: int, attempts: int, error: str,
                     next_attempt: float | None = None) -> None:
        """A mail was not sent this time; it stays queued (retried at ``next_attempt`` if given)."""
        values = {"attempts": attempts, "last_error": error}
        if next_attempt is not None:
            values["next_attempt"] = next_attempt
        self.update("outbox", {"id": outbox_id}, **values)

    def outbox_listing(self, include_delivered: bool = False) -> list[sqlite3.Row]:
        """The outbox for ``gm outbox``: unsent mail and mail sent in the last day (or all)."""
        if include_delivered:
            return self.all("SELECT * FROM outbox ORDER BY id")
        return self.all("SELECT * FROM outbox WHERE status != 'sent' OR sent >= ? ORDER BY id",
                        time.time() - 86400)

    def sent_count(self, game_id: str) -> int:
        """How many mails of a game have been sent."""
        return self.one("SELECT COUNT(*) AS n FROM outbox WHERE game_id = ? AND status = 'sent'",
                        game_id)["n"]

    def error_replies_since(self, address: str, since: float) -> int:
        """How many error replies were queued to ``address`` since ``since`` (rate limit)."""
        return self.one("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'error' AND recipient = ? "
                        "AND created >= ?", address, since)["n"]

    def replies_since(self, kinds: tuple[str, ...], since: float, address: str | None = None) -> int:
        """How many mails of these kinds were queued since ``since`` (to ``address``, if given)."""
        marks = ", ".join("?" for _ in kinds)
        sql = f"SELECT COUNT(*) AS n FROM outbox WHERE kind IN ({marks}) AND created >= ?"
        args: list = [*kinds, since]
        if address is not None:
            sql, args = sql + " AND recipient = ?", args + [address]
        return self.one(sql, *args)["n"]

    # --- the archive of what was sent -------------------------------------------
    def add_report(self, game_id: str, turn: int, seq: int, player: str | None, kind: str,
                   body: str, outbox_id: int | None, created: float, audience: str | None = None,
                   gm_version: str | None = None, digest: str | None = None) -> int:
        """Archive a text sent to ``player`` (None: the GM's copy); returns its id.  ``audience``:
        who a press message went to (gm.service.play.press: all, players or gm); ``gm_version``
        and ``digest``: the version that rendered a report and what it shows (gm.core.digest)."""
        return self.insert("reports", **report_values(game_id, turn, seq, player, kind, body, outbox_id, created,
                                                      audience, gm_version, digest))

    def archive_report(self, game_id: str, turn: int, seq: int, player: str | None, kind: str,
                       body: str, outbox_id: int | None, created: float, audience: str | None = None,
                       gm_version: str | None = None, digest: str | None = None) -> None:
        """add_report, its id not wanted: written with the transaction's other reports, in one
        statement at its end (gm.store.deferred)."""
        values = report_values(game_id, turn, seq, player, kind, body, outbox_id, created, audience, gm_version, digest)
        self.defer_insert("reports", values)

    def reports_of(self, game_id: str, turn: int | None = None,
                   kind: str | None = None) -> list[dict]:
        """A game's archived texts in the order sent, of one turn and/or kind if given."""
        sql, args = "SELECT * FROM reports WHERE game_id = ?", [game_id]
        if turn is not None:
            sql, args = sql + " AND turn = ?", args + [turn]
        if kind is not None:
            sql, args = sql + " AND kind = ?", args + [kind]
        return self._unpacked(self.all(sql + " ORDER BY id", *args))

    def turn_reports(self, game_id: str) -> list[sqlite3.Row]:
        """A game's turn reports (kind 'report') by state seq, then as sent (the site)."""
        return self._unpacked(self.all("SELECT * FROM reports WHERE game_id = ? AND kind = 'report' "
                                  "ORDER BY seq, id", game_id))

    def gm_press(self, game_id: str) -> list[sqlite3.Row]:
        """The GM's copies of a game's press, in the order sent."""
        return self._unpacked(self.all("SELECT * FROM reports WHERE game_id = ? AND kind = 'press' "
                                  "AND player IS NULL ORDER BY id", game_id))

    def archive_marks(self) -> list[sqlite3.Row]:
        """Every game (oldest first) with what its archive page and index line show changed by:
        status, newest state seq, newest report, press or notice archived, seats taken (an
        open game's seats fill with no state or report).  The live archive renders again only
        the games whose marks differ from those it rendered."""
        return self.all(
            "SELECT g.id, g.status, "
            "(SELECT MAX(s.seq) FROM states s WHERE s.game_id = g.id) AS last_seq, "
            "(SELECT MAX(r.id) FROM reports r WHERE r.game_id = g.id "
            "AND r.kind IN ('report', 'press', 'notice')) AS last_report, "
            "(SELECT COUNT(*) FROM players p WHERE p.game_id = g.id) AS seats_taken "
            "FROM games g ORDER BY g.created, g.id")

    def public_press(self, game_id: str, first_turn: int = 0) -> list[dict]:
        """The archive's copies of a game's press to everyone (audience 'all') from turn
        ``first_turn`` on, in the order sent: what public views show."""
        known, since = self.already_read("reports", ("public_press", game_id))  # (turn, rows): Store.read_game's
        if known and since[0] <= first_turn:
            return self._unpacked([row for row in since[1] if row["turn"] >= first_turn])
        return self._unpacked(self.all("SELECT * FROM reports WHERE game_id = ? AND kind = 'press' "
                                  "AND player IS NULL AND audience = 'all' AND turn >= ? ORDER BY id",
                                  game_id, first_turn))

    def player_reports(self, game_id: str, player: str) -> list[sqlite3.Row]:
        """The reports and press a player was sent, by turn (a player's history)."""
        return self._unpacked(self.all("SELECT * FROM reports WHERE game_id = ? AND player = ? "
                                  "AND kind IN ('report', 'press') ORDER BY turn, id", game_id, player))


def report_values(game_id: str, turn: int, seq: int, player: str | None, kind: str, body: str,
                  outbox_id: int | None, created: float, audience: str | None, gm_version: str | None,
                  digest: str | None) -> dict:
    """A reports row's columns, its body packed (gm.store.packing)."""
    # named only when given, so the words of an earlier gm (tests) still fit its schema
    rendered = {"gm_version": gm_version, "digest": digest} if gm_version or digest else {}
    packed, packing = pack_text(body)
    return dict(game_id=game_id, turn=turn, seq=seq, player=player, kind=kind, body=packed, body_packing=packing,
                outbox_id=outbox_id, created=created, audience=audience, **rendered)
