"""A seat's credentials at rest: its codes waiting for an answer, wrong passwords, lock-outs.

Only gm.service.people.credentials writes these (and players.pw_hash, generation, email).
"""

from __future__ import annotations

import sqlite3


class CredentialQueries:
    """Mixed into Store: ``address_codes`` (every purpose), ``credential_failures``, ``credential_locks``."""

    # --- codes ----------------------------------------------------------------------
    def add_credential_code(self, code_hash: str, game_id: str, player: str, purpose: str, email: str,
                            created: float, expires: float) -> None:
        """A code mailed to ``email``: 'address' (the new address), 'revert' (the old one) or 'reset'."""
        self.insert("address_codes", code_hash=code_hash, game_id=game_id, player=player,
                    new_email=email, expires=expires, purpose=purpose, created=created)

    def pending_codes(self, game_id: str, name: str, purposes: tuple[str, ...], now: float) -> list[sqlite3.Row]:
        """A seat's codes of these purposes still waiting (unused, unexpired), oldest first."""
        marks = ", ".join("?" for _ in purposes)
        return self.all(f"SELECT * FROM address_codes WHERE game_id = ? AND lower(player) = lower(?) "
                        f"AND purpose IN ({marks}) AND used = 0 AND expires > ? ORDER BY created, code_hash",
                        game_id, name, *purposes, now)

    def last_code_at(self, game_id: str, name: str, purpose: str) -> float | None:
        """When the seat's latest code of ``purpose`` was made (None: never)."""
        row = self.one("SELECT max(created) AS at FROM address_codes WHERE game_id = ? AND "
                       "lower(player) = lower(?) AND purpose = ?", game_id, name, purpose)
        return row["at"] if row is not None else None

    def end_code(self, code_hash: str, why: str) -> None:
        """The code no longer works: ``why`` is confirmed, superseded, revoked..."""
        self.update("address_codes", {"code_hash": code_hash}, used=1, ended=why)

    # --- wrong passwords and lock-outs ----------------------------------------------------
    def add_credential_failure(self, game_id: str, player: str, sender: str, at: float) -> None:
        self.insert("credential_failures", game_id=game_id, player=player, sender=sender, at=at)

    def seat_failures_since(self, game_id: str, name: str, since: float) -> int:
        """Wrong passwords aimed at this seat since ``since`` (from its address or a stranger's)."""
        row = self.one("SELECT count(*) AS n FROM credential_failures WHERE game_id = ? AND "
                       "(lower(player) = lower(?) OR player = '') AND at > ?", game_id, name, since)
        return int(row["n"])

    def sender_failures_since(self, sender: str, since: float) -> int:
        row = self.one("SELECT count(*) AS n FROM credential_failures WHERE sender = ? AND at > ?",
                       sender, since)
        return int(row["n"])

    def add_credential_lock(self, game_id: str, player: str, sender: str, since: float,
                            until: float) -> None:
        self.insert("credential_locks", game_id=game_id, player=player, sender=sender, since=since,
                    until=until)

    def seat_lock_until(self, game_id: str, name: str) -> float | None:
        """The end of the seat's latest lock (None: never locked)."""
        row = self.remembered("credential_locks", ("seat", game_id, name), lambda: self.one(
            "SELECT max(until) AS until FROM credential_locks WHERE game_id = ? AND lower(player) = lower(?) "
            "AND sender = ''", game_id, name))
        return row["until"] if row is not None else None

    def locks_until(self, game_id: str, sender: str) -> tuple[float | None, dict[str, float | None]]:
        """sender_lock_until(sender), and seat_lock_until of every seat of the game by its name,
        in one statement."""
        rows = self.remembered(("players", "credential_locks"), ("locks_until", game_id, sender), lambda: self.all(
            "SELECT p.name AS name, (SELECT max(c.until) FROM credential_locks c WHERE "
            "c.game_id = p.game_id AND lower(c.player) = lower(p.name) AND c.sender = '') AS until "
            "FROM players p WHERE p.game_id = ? UNION ALL SELECT NULL AS name, (SELECT max(until) "
            "FROM credential_locks WHERE sender = ? AND player = '') AS until", game_id, sender))
        seats = {r["name"]: r["until"] for r in rows if r["name"] is not None}
        return next(r["until"] for r in rows if r["name"] is None), seats

    def sender_lock_until(self, sender: str) -> float | None:
        row = self.one("SELECT max(until) AS until FROM credential_locks WHERE sender = ? AND "
                       "player = ''", sender)
        return row["until"] if row is not None else None

    def end_seat_locks(self, game_id: str, name: str, now: float) -> None:
        """A reset confirmed from the registered address: the seat's lock ends now."""
        self._require_tx()
        self.db.execute("UPDATE credential_locks SET until = ? WHERE game_id = ? AND lower(player) = "
                        "lower(?) AND sender = '' AND until > ?", (now, game_id, name, now))

    # --- the seat's password hash --------------------------------------------------
    def rehash_seat_password(self, game_id: str, name: str, pw_hash: str) -> None:
        """The same password under a stronger hash: its reply tokens stay valid."""
        self.update("players", {"game_id": game_id, "name": name}, pw_hash=pw_hash)
