"""The conditional lines standing in each game (RULINGS G8; gm.service.people.lines plays them).

A line is one row: its sender, the state (``seq``) whose next move its first step names, and the
steps still to come as JSON [[player, move], ...]; the line sent later has the larger id.
"""

from __future__ import annotations

import json

from gm.store.record import Record, record
from gm.store.repository import Repository
from gm.store.sql import inserting, prepared, updating, whole_rows

ADD_LINE = inserting("conditional_lines", ("game_id", "player", "seq", "steps", "written", "made"))
LINES = prepared(lambda sa, t: whole_rows(sa, t.conditional_lines).where(
    t.conditional_lines.c.game_id == sa.bindparam("game")).order_by(t.conditional_lines.c.id))
MOVE_LINE = updating("conditional_lines", where=("id",), set=("seq", "steps"))
DROP_LINE = prepared(lambda sa, t: sa.delete(t.conditional_lines).where(
    t.conditional_lines.c.id == sa.bindparam("id")))
CLEAR_LINES = prepared(lambda sa, t: sa.delete(t.conditional_lines).where(
    t.conditional_lines.c.game_id == sa.bindparam("game"), t.conditional_lines.c.player == sa.bindparam("player")))


@record
class LineRow(Record):
    """A conditional_lines row; ``steps`` JSON [[player, move], ...]."""

    id: int
    game_id: str
    player: str
    seq: int
    steps: str
    written: str
    made: float

    @property
    def moves(self) -> list[tuple[str, str]]:
        """The steps still to come: (player, move in the game's canonical notation)."""
        return [(who, move) for who, move in json.loads(self.steps)]


class Lines(Repository):
    """The conditional lines of games: added, followed a step, dropped, cleared."""

    def of_game(self, game_id: str) -> list[LineRow]:
        """Every line standing in a game, oldest first."""
        return self.store.remembered("conditional_lines", ("game", game_id),  # read with the game
                                     lambda: LineRow.every(LINES.run(self.store, game=game_id).fetchall()))

    def add(self, game_id: str, player: str, seq: int, moves: list[tuple[str, str]], written: str,
            at: float) -> int:
        """Store a line of ``player`` meeting state ``seq``; returns its id."""
        return self.store.insert_row(ADD_LINE, game_id=game_id, player=player, seq=seq,
                                     steps=json.dumps([list(m) for m in moves]), written=written, made=at)

    def follow(self, line_id: int, seq: int, moves: list[tuple[str, str]]) -> None:
        """A line went one step on: it now meets state ``seq`` with ``moves`` still to come."""
        self.store.update_rows(MOVE_LINE, id=line_id, seq=seq, steps=json.dumps([list(m) for m in moves]))

    def drop(self, line_id: int) -> None:
        """Forget one line."""
        self._require_tx()
        DROP_LINE.run(self.store, id=line_id)

    def clear(self, game_id: str, player: str) -> int:
        """Forget every line of a player in a game; how many went."""
        self._require_tx()
        return CLEAR_LINES.run(self.store, game=game_id, player=player).rowcount
