"""What players change by mail themselves: open games, observers, address codes, token generations."""

from __future__ import annotations

import sqlite3


class SelfServiceQueries:
    """Mixed into Store: ``open_games``, ``observers``, ``address_codes``, ``players.generation``."""

    # --- open games ---------------------------------------------------------------
    def open_game(self, game_id: str) -> sqlite3.Row | None:
        """The open_games row (seats, min_seats, created_by) of a game waiting for players."""
        return self.one("SELECT * FROM open_games WHERE game_id = ?", game_id)

    def add_open_game(self, game_id: str, seats: int, min_seats: int, created_by: str) -> None:
        self.insert("open_games", game_id=game_id, seats=seats, min_seats=min_seats,
                    created_by=created_by)

    def open_games_created_by(self, created_by: str) -> int:
        """How many games still waiting for players were opened by ``created_by`` (CREATE)."""
        return int(self.one("SELECT count(*) AS n FROM open_games WHERE created_by = ?", created_by)["n"])

    def close_open_game(self, game_id: str) -> None:
        """The game has started: it no longer waits for players."""
        self._require_tx()
        self.db.execute("DELETE FROM open_games WHERE game_id = ?", (game_id,))

    def remove_player(self, game_id: str, name: str) -> None:
        """Free a seat of a game that has not started (LEAVE)."""
        self._require_tx()
        self.db.execute("DELETE FROM players WHERE game_id = ? AND name = ?", (game_id, name))

    def renumber_seats(self, game_id: str) -> None:
        """Seats 0, 1, 2... in the order joined (after a LEAVE left a gap)."""
        for seat, row in enumerate(self.players(game_id)):
            self.update("players", {"game_id": game_id, "name": row["name"]}, seat=seat)

    # --- seats --------------------------------------------------------------------
    def players_at(self, game_id: str, email: str) -> list[sqlite3.Row]:
        """The seats of a game registered to ``email`` (compared lower-cased)."""
        if self.in_transaction and email.isascii():
            # From the game's seats, most often read already in this transaction; where every
            # address is ASCII, Python's lower() is SQL's on either back end.
            seats = self.players(game_id)
            if all(p["email"].isascii() for p in seats):
                return [p for p in seats if p["email"].lower() == email.lower()]
        return self.remembered("players", ("at", game_id, email), lambda: self.all(
            "SELECT * FROM players WHERE game_id = ? AND lower(email) = lower(?) ORDER BY seat", game_id, email))

    def set_seat_password(self, game_id: str, name: str, pw_hash: str) -> None:
        """A new password for a seat; its reply tokens made before stop working."""
        self._require_tx()
        self.db.execute("UPDATE players SET pw_hash = ?, generation = generation + 1 "
                        "WHERE game_id = ? AND name = ?", (pw_hash, game_id, name))

    def set_seat_address(self, game_id: str, name: str, email: str) -> None:
        """A seat moves to a new address; its reply tokens made before stop working."""
        self._require_tx()
        self.db.execute("UPDATE players SET email = ?, generation = generation + 1 "
                        "WHERE game_id = ? AND name = ?", (email, game_id, name))

    def bump_generation(self, game_id: str, name: str) -> None:
        """Revoke a seat's reply tokens (a new player took it)."""
        self._require_tx()
        self.db.execute("UPDATE players SET generation = generation + 1 WHERE game_id = ? AND name = ?",
                        (game_id, name))

    # --- observers ----------------------------------------------------------------
    def observer(self, game_id: str, email: str) -> sqlite3.Row | None:
        return self.one("SELECT * FROM observers WHERE game_id = ? AND email = lower(?)", game_id, email)

    def add_observer(self, game_id: str, email: str, approved: bool, now: float) -> None:
        self.insert("observers", game_id=game_id, email=email.lower(), approved=int(approved), since=now)

    def approve_observer(self, game_id: str, email: str) -> int:
        return self.update("observers", {"game_id": game_id, "email": email.lower()}, approved=1)

    def remove_observer(self, game_id: str, email: str) -> int:
        self._require_tx()
        return self.db.execute("DELETE FROM observers WHERE game_id = ? AND email = lower(?)",
                               (game_id, email)).rowcount

    def observers_of(self, game_id: str, approved: bool = True) -> list[str]:
        """The addresses following a game (approved ones, or those waiting for the GM)."""
        return self.remembered("observers", ("of", game_id, bool(approved)), lambda: [
            r["email"] for r in self.all("SELECT email FROM observers WHERE game_id = ? AND "
                                         "approved = ? ORDER BY since, email", game_id, int(approved))])

    def game_ids_observed_by(self, email: str, limit: int) -> list[str]:
        """The games (newest first) this address follows as an approved observer (SUMMARY)."""
        rows = self.all("SELECT o.game_id FROM observers o JOIN games g ON g.id = o.game_id "
                        "WHERE o.email = lower(?) AND o.approved = 1 ORDER BY g.created DESC, g.id DESC "
                        "LIMIT ?", email, limit)
        return [r["game_id"] for r in rows]

    # --- codes waiting for an answer (written by gm.store.credentials) ----------------
    def address_code(self, code_hash: str) -> sqlite3.Row | None:
        return self.one("SELECT * FROM address_codes WHERE code_hash = ?", code_hash)
