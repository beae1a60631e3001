"""States and orders: the positions a game went through and what produced them.

Every change stores the whole state, so that replay (gm verify) and rollback
are exact and loading a game reads one row.  A long game's states grow with
its history (Proximity's trail: 19 KB of JSON after 975 moves, 9.6 MB in all),
so a state longer than COMPRESS_OVER (gm.store.packing) is kept zlib-compressed (7x smaller on
Proximity's trail): a 2,000-move game then stores about 6 MB of states, not 40.
"""

from __future__ import annotations

import json
import time
from typing import Any, Generator

from gm.store import games as games_sql
from gm.store import service as service_sql
from gm.store.gamerows import OrderId, OrderRow, OverrideRow, StateRow, StateTurn, StoredState, TurnState
from gm.store.packing import STATE_LEVEL, pack_text, unpack_text
from gm.store.repository import Repository
from gm.store.sql import Row, inserting, prepared, single, whole_rows

STATE_COLUMNS = ("game_id", "seq", "turn", "state", "state_packing", "created")
STATE_ROWS = inserting("states", STATE_COLUMNS, returning=False)  # add_state's, deferred (gm.store.deferred)
ORDER_COLUMNS = ("game_id", "action", "player", "turn", "text", "canonical", "accepted", "error", "message_row",
                 "origin", "at", "seq")
ORDER_ROWS = inserting("orders", ORDER_COLUMNS, returning=False)  # add_order's, deferred (gm.store.deferred)

LATEST_STATE = prepared(lambda sa, t: whole_rows(sa, t.states).where(
    t.states.c.game_id == sa.bindparam("game")).order_by(t.states.c.seq.desc()).limit(1))
STATE_AT = prepared(lambda sa, t: whole_rows(sa, t.states).where(
    t.states.c.game_id == sa.bindparam("game"), t.states.c.seq == sa.bindparam("seq")))
STATES = prepared(lambda sa, t: sa.select(t.states.c.seq, t.states.c.state, t.states.c.state_packing).where(
    t.states.c.game_id == sa.bindparam("game")).order_by(t.states.c.seq))
LAST_STATE_TIME = prepared(lambda sa, t: sa.select(sa.func.max(t.states.c.created).label("at")).where(
    t.states.c.game_id == sa.bindparam("game")))
STATE_TURNS = prepared(lambda sa, t: sa.select(t.states.c.seq, t.states.c.turn).where(
    t.states.c.game_id == sa.bindparam("game")).order_by(t.states.c.seq))
TURN_STATES_DESC = prepared(lambda sa, t: sa.select(
    t.states.c.seq, t.states.c.turn, t.states.c.created, sa.exists().where(
        t.state_overrides.c.game_id == t.states.c.game_id,
        t.state_overrides.c.seq == t.states.c.seq).label("overridden"),
).where(t.states.c.game_id == sa.bindparam("game")).order_by(t.states.c.seq.desc()))
ACCEPTED_PLAYERS_SINCE = prepared(lambda sa, t: sa.select(t.orders.c.player).distinct().where(
    t.orders.c.game_id == sa.bindparam("game"), t.orders.c.action == "order", t.orders.c.accepted == 1,
    t.orders.c.seq >= sa.bindparam("seq")))
ACCEPTED_AFTER = prepared(lambda sa, t: sa.select(t.orders.c.id).where(
    t.orders.c.game_id == sa.bindparam("game"), t.orders.c.accepted == 1, t.orders.c.seq > sa.bindparam("seq")))
LATER_ORDERS = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).where(
    t.orders.c.game_id == sa.bindparam("game"), t.orders.c.player == sa.bindparam("seat"),
    t.orders.c.turn == sa.bindparam("turn"), t.orders.c.action == "order", t.orders.c.accepted == 1,
    t.orders.c.at > sa.bindparam("at")))
ACCEPTED_ORDERS = prepared(lambda sa, t: whole_rows(sa, t.orders).where(
    t.orders.c.game_id == sa.bindparam("game"), t.orders.c.accepted == 1, t.orders.c.seq.is_not(None)).order_by(
    t.orders.c.id))

ORDER_AT = prepared(lambda sa, t: whole_rows(sa, t.orders).where(
    t.orders.c.game_id == sa.bindparam("game"), t.orders.c.accepted == 1, t.orders.c.seq == sa.bindparam("seq")))


def encode_state(state: dict[str, Any]) -> tuple[bytes, str]:
    """A dumped state as stored, and its packing: its JSON, compressed when long (gm.store.packing)."""
    return pack_text(json.dumps(state, sort_keys=True), STATE_LEVEL)


def decode_state(value: Any, packing: str) -> dict[str, Any]:
    """A stored state (by the packing recorded beside it) as the rules dumped it."""
    state: dict[str, Any] = json.loads(unpack_text(value, packing))
    return state


class Turns(Repository):
    """States, orders and state overrides."""

    def latest_state(self, game_id: str) -> StateRow | None:
        """The newest states row of a game."""
        return self.store.remembered("states", ("latest", game_id), lambda: StateRow.maybe(LATEST_STATE.run(
            self.store, game=game_id).fetchone()))

    @staticmethod
    def state_data(row: StateRow | StoredState | Row) -> dict[str, Any]:
        """The state of a states row, as the rules dumped it (see decode_state); a row read by
        a statement of one's own (its state and state_packing) is read too."""
        if isinstance(row, (StateRow, StoredState)):
            return decode_state(row.state, row.state_packing)
        return decode_state(row["state"], row["state_packing"])

    def state_at(self, game_id: str, seq: int) -> StateRow | None:
        """The states row ``seq`` of a game."""
        return StateRow.maybe(STATE_AT.run(self.store, game=game_id, seq=seq).fetchone())

    def states_of(self, game_id: str) -> list[StoredState]:
        """(seq, state, state_packing) of every state of a game, in order (read with state_data)."""
        return StoredState.every(STATES.run(self.store, game=game_id).fetchall())

    def last_state_time(self, game_id: str) -> float | None:
        """When a game's newest state was made (its last change of position)."""
        row = LAST_STATE_TIME.run(self.store, game=game_id).fetchone()
        return None if row is None else row["at"]

    def state_turns(self, game_id: str) -> list[StateTurn]:
        """(seq, turn) of every state of a game, in order."""
        return StateTurn.every(STATE_TURNS.run(self.store, game=game_id).fetchall())

    def turn_states_desc(self, game_id: str) -> Generator[TurnState, None, None]:
        """(seq, turn, created, overridden) of a game's states, newest first, read lazily;
        ``overridden``: the GM made the state (a rollback or edit: state_overrides), not the rules.

        Stop iterating as soon as you have gone back far enough: a long game's
        history is then not loaded.
        """
        cur = TURN_STATES_DESC.run(self.store, game=game_id)
        try:
            yield from map(TurnState.of, cur)
        finally:
            cur.close()

    def add_state(self, game_id: str, turn: int, state: dict[str, Any], now: float | None = None) -> int:
        """Store the next state of a game (``state`` as the rules dumped it); returns its seq.  Written
        with the transaction's other writes at its end (gm.store.deferred), or before a read that
        names the states: judging an order reads none after it, once the turn's start is known
        (gm.service.table.deadlines.state_added)."""
        last = self.latest_state(game_id)  # most often read already in this transaction
        seq = 0 if last is None else last.seq + 1
        packed, packing = encode_state(state)
        values = dict(game_id=game_id, seq=seq, turn=turn, state=packed, state_packing=packing,
                      created=now or time.time())
        self.store.defer_insert("states", {column: values[column] for column in STATE_COLUMNS})
        return seq

    def add_order(self, game_id: str, action: str, player: str | None, turn: int, text: str, *,
                  accepted: bool, origin: str, at: float, canonical: str | None = None,
                  error: str | None = None, message_row: int | None = None,
                  seq: int | None = None) -> None:
        """Record an order (action 'order') or a turn close (action 'close'), with the transaction's
        other writes at its end (gm.store.deferred)."""
        self.store.defer_insert("orders", dict(game_id=game_id, action=action, player=player, turn=turn, text=text,
                                               canonical=canonical, accepted=int(bool(accepted)), error=error,
                                               message_row=message_row, origin=origin, at=at, seq=seq))

    def accepted_players_since(self, game_id: str, seq: int) -> set[str]:
        """Players with an accepted order that produced state ``seq`` or a later one."""
        return {r["player"] for r in ACCEPTED_PLAYERS_SINCE.run(self.store, game=game_id, seq=seq).fetchall()}

    def accepted_orders_after(self, game_id: str, seq: int) -> list[OrderId]:
        """The ids of the accepted orders (and closes) that produced a state after ``seq``."""
        return OrderId.every(ACCEPTED_AFTER.run(self.store, game=game_id, seq=seq).fetchall())

    def accepted_orders_later(self, game_id: str, name: str, turn: int, at: float) -> int:
        """How many orders of the seat for ``turn`` were accepted as made after ``at``."""
        return int(single(LATER_ORDERS.run(self.store, game=game_id, seat=name, turn=turn, at=at))["n"])

    def accepted_orders(self, game_id: str) -> list[OrderRow]:
        """Every accepted order and close of a game that produced a state, in order (replay)."""
        return OrderRow.every(ACCEPTED_ORDERS.run(self.store, game=game_id).fetchall())

    def order_at(self, game_id: str, seq: int) -> OrderRow | None:
        """The accepted order, close, draw or takeback that made state ``seq``; None if the GM made it."""
        return OrderRow.maybe(ORDER_AT.run(self.store, game=game_id, seq=seq).fetchone())

    def accepted_order_count(self, game_id: str) -> int:
        """How many players' orders of a game went through the rules (turn closes not counted)."""
        return int(single(games_sql.ACCEPTED_ORDER_COUNT.run(self.store, game=game_id))["n"])

    def order_origins_since(self, game_id: str, seq: int) -> dict[str, str]:
        """Each player's latest accepted order that made state ``seq`` or a later one: its origin."""
        rows = games_sql.ORDER_ORIGINS_SINCE.run(self.store, game=game_id, seq=seq).fetchall()
        return {r["player"]: r["origin"] for r in rows}

    def override_seqs(self, game_id: str) -> set[int]:
        """The seqs of a game's states made by the GM (rollback, edit), not by the rules."""
        return self.store.remembered("state_overrides", ("seqs", game_id), lambda: {r["seq"] for r in
                               service_sql.OVERRIDE_SEQS.run(self.store, game=game_id).fetchall()})

    def overrides_of(self, game_id: str) -> list[OverrideRow]:
        """The state_overrides rows of a game."""
        return OverrideRow.every(service_sql.OVERRIDES.run(self.store, game=game_id).fetchall())

    def add_override(self, game_id: str, seq: int, action: str, source_seq: int | None,
                     detail: str) -> None:
        """Mark state ``seq`` as made by the GM (``action``: rollback | edit)."""
        self.store.insert_row(service_sql.ADD_OVERRIDE, game_id=game_id, seq=seq, action=action,
                              source_seq=source_seq, detail=detail)
