"""States and orders: the positions a game went through and what produced them.

Every change stores the whole state, so that replay (gm verify) and rollback
are exact and loading a game reads one row.  A long game's states grow with
its history (Proximity's trail: 19 KB of JSON after 975 moves, 9.6 MB in all),
so a state longer than COMPRESS_OVER (gm.store.packing) is kept zlib-compressed (7x smaller on
Proximity's trail): a 2,000-move game then stores about 6 MB of states, not 40.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any, Iterator

from gm.store.packing import STATE_LEVEL, pack_text, unpack_text


def encode_state(state: dict) -> tuple[bytes, str]:
    """A dumped state as stored, and its packing: its JSON, compressed when long (gm.store.packing)."""
    return pack_text(json.dumps(state, sort_keys=True), STATE_LEVEL)


def decode_state(value: Any, packing: str) -> dict:
    """A stored state (by the packing recorded beside it) as the rules dumped it."""
    return json.loads(unpack_text(value, packing))


class TurnQueries:
    """Mixed into Store: reads and writes of ``states`` and ``orders``."""

    # --- states -----------------------------------------------------------------
    def latest_state(self, game_id: str) -> sqlite3.Row | None:
        """The newest states row of a game."""
        return self.remembered("states", ("latest", game_id), lambda: self.one(
            "SELECT * FROM states WHERE game_id = ? ORDER BY seq DESC LIMIT 1", game_id))

    @staticmethod
    def state_data(row: sqlite3.Row) -> dict:
        """The state of a states row, as the rules dumped it (see decode_state)."""
        return decode_state(row["state"], row["state_packing"])

    def state_at(self, game_id: str, seq: int) -> sqlite3.Row | None:
        """The states row ``seq`` of a game."""
        return self.one("SELECT * FROM states WHERE game_id = ? AND seq = ?", game_id, seq)

    def states_of(self, game_id: str) -> list[sqlite3.Row]:
        """(seq, state, state_packing) of every state of a game, in order (read with state_data)."""
        return self.all("SELECT seq, state, state_packing FROM states WHERE game_id = ? ORDER BY seq", game_id)

    def last_state_time(self, game_id: str) -> float | None:
        """When a game's newest state was made (its last change of position)."""
        row = self.one("SELECT MAX(created) AS at FROM states WHERE game_id = ?", game_id)
        return None if row is None else row["at"]

    def state_turns(self, game_id: str) -> list[sqlite3.Row]:
        """(seq, turn) of every state of a game, in order."""
        return self.all("SELECT seq, turn FROM states WHERE game_id = ? ORDER BY seq", game_id)

    def turn_states_desc(self, game_id: str) -> Iterator[sqlite3.Row]:
        """(seq, turn, created, overridden) of a game's states, newest first, read lazily;
        ``overridden``: the GM made the state (a rollback or edit: state_overrides), not the rules.

        Stop iterating as soon as you have gone back far enough: a long game's
        history is then not loaded.
        """
        cur = self.db.execute(
            "SELECT seq, turn, created, EXISTS (SELECT 1 FROM state_overrides o WHERE o.game_id = s.game_id "
            "AND o.seq = s.seq) AS overridden FROM states s WHERE game_id = ? ORDER BY seq DESC", (game_id,))
        try:
            yield from cur
        finally:
            cur.close()

    def add_state(self, game_id: str, turn: int, state: dict, now: float | None = None) -> int:
        """Store the next state of a game (``state`` as the rules dumped it); returns its seq."""
        last = self.latest_state(game_id)  # most often read already in this transaction
        seq = 0 if last is None else last["seq"] + 1
        packed, packing = encode_state(state)
        self.insert("states", game_id=game_id, seq=seq, turn=turn, state=packed, state_packing=packing,
                    created=now or time.time())
        return seq

    # --- orders -----------------------------------------------------------------
    def add_order(self, game_id: str, action: str, player: str | None, turn: int, text: str, *,
                  accepted: bool, origin: str, at: float, canonical: str | None = None,
                  error: str | None = None, message_row: int | None = None,
                  seq: int | None = None) -> None:
        """Record an order (action 'order') or a turn close (action 'close'), with the transaction's
        other writes at its end (gm.store.deferred)."""
        self.defer_insert("orders", dict(game_id=game_id, action=action, player=player, turn=turn, text=text,
                                         canonical=canonical, accepted=int(bool(accepted)), error=error,
                                         message_row=message_row, origin=origin, at=at, seq=seq))

    def accepted_players_since(self, game_id: str, seq: int) -> set[str]:
        """Players with an accepted order that produced state ``seq`` or a later one."""
        rows = self.all(
            "SELECT DISTINCT player FROM orders WHERE game_id = ? AND action = 'order' "
            "AND accepted = 1 AND seq >= ?", game_id, seq)
        return {r["player"] for r in rows}

    def accepted_orders_after(self, game_id: str, seq: int) -> list[sqlite3.Row]:
        """The ids of the accepted orders (and closes) that produced a state after ``seq``."""
        return self.all("SELECT id FROM orders WHERE game_id = ? AND accepted = 1 AND seq > ?",
                        game_id, seq)

    def accepted_orders(self, game_id: str) -> list[sqlite3.Row]:
        """Every accepted order and close of a game that produced a state, in order (replay)."""
        return self.all("SELECT * FROM orders WHERE game_id = ? AND accepted = 1 "
                        "AND seq IS NOT NULL ORDER BY id", game_id)
