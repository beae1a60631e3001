"""The game record: one game as a JSON object a player can keep and another server can replay.

In: the store's games row, seats, states, accepted orders rows (orders, closes, draws,
takebacks) and GM-made states (state_overrides, recorded as "set" moves).  Out: a dict of the
form gm/present/record.schema.json describes (docs/records.md).  A viewer who is not the GM
never gets what the service keeps from them in reports: another seat's sealed order of a turn
not yet closed, a Pivot Pawns solution that was never tried (the move is there, withheld: what
everyone was told of it, and where the game has one a stand-in that replays the same), the
state of a GM's "set" move while the game runs, nor the position hash of any state holding
one of these (a hash of a known position with one unknown claim is a guess away from it).
"""

from __future__ import annotations

import hashlib
import json
from games.text import Text
from gm.core.value import field, valueclass
from typing import Any, Callable

from gm.core.model import GameView, ServiceError, Status
from gm.core.version import gm_version
from gm.service.table import games
from gm.store import Store
from gm.store.gamerows import OrderRow, OverrideRow

FORMAT = "gm-game-record"
VERSION = 1


class RunningGameRecord(ServiceError):
    """The public record of a game still under way: refused (only a seat or the GM may have one)."""


def position_hash(rules: Any, state: Any) -> str:
    """sha256 (hex) of the canonical JSON of ``rules.dump(state)``: a record's position."""
    return data_hash(rules.dump(state))


def data_hash(data: dict[str, Any]) -> str:
    """sha256 (hex) of a dumped state's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))  # non-ASCII as \u escapes
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@valueclass
class Sources:
    """What a record is made of, read once: the game, its states as stored (each loaded by the
    rules only when asked: a long game's states are many) and what made each."""

    view: GameView
    data: dict[int, dict[str, Any]]  # seq -> the state as the rules dumped it
    created: dict[int, float]  # seq -> when the state was stored
    orders: dict[int, OrderRow]
    overrides: dict[int, OverrideRow]
    loaded: dict[int, Any] = field(default_factory=dict)

    @property
    def running(self) -> bool:
        return self.view.status != Status.FINISHED and not self.view.rules.is_over(self.view.state)

    def state(self, seq: int) -> Any:
        """State ``seq`` as the rules load it."""
        if seq not in self.loaded:
            self.loaded[seq] = self.view.rules.load(self.data[seq])
        return self.loaded[seq]

    def position(self, seq: int) -> str:
        """The position hash of state ``seq``: of the stored data itself where the rules dump
        their states in the version stored (what they dump again), else of the state loaded."""
        rules, data = self.view.rules, self.data[seq]
        if data.get("version") == rules.state_version:
            return data_hash(data)
        return position_hash(rules, self.state(seq))


def build(store: Store, game_id: str, viewer: str | None = None, *, gm: bool = False) -> dict[str, Any]:
    """The record of ``game_id`` as ``viewer`` may see it: None is the public view (a finished
    game only: RunningGameRecord otherwise), a seat's name that seat's view; ``gm`` everything."""
    src = read_sources(store, game_id)
    view = src.view
    if viewer is not None and not gm:
        seat = view.player(viewer)
        if seat is None:
            raise ServiceError(Text("game {game} has no seat called {name}", game=view.id, name=repr(viewer)))
        viewer = seat.name
    if not gm and viewer is None and src.running:
        raise RunningGameRecord(Text("game {game} is still under way: its public record is made when it ends",
                                     game=view.id))
    rules = view.rules
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game_facts(view),
        "players": [{"seat": i, "name": p.name} for i, p in enumerate(sorted(view.players, key=lambda p: p.seat))],
        "moves": Moves(src, None if gm else viewer, gm).all(),
        "start_position": src.position(0),
        "result": result_of(store, view),
        "standings": standings(view),
        "trail": rules.full_trail(view.state),  # Proximity's trail tables (PX10), whole; else None
        "view": "gm" if gm else "public" if viewer is None else f"seat:{viewer}",
    }


def read_sources(store: Store, game_id: str) -> Sources:
    """The game as stored: every state's data, the order row or override behind each."""
    view = games.load(store, game_id)
    gid = view.id
    data = {r.seq: store.turns.state_data(r) for r in store.turns.states_of(gid)}
    created = {r.seq: r.created for r in store.turns.turn_states_desc(gid)}
    orders = {r.seq: r for r in store.turns.accepted_orders(gid) if r.seq is not None}
    overrides = {r.seq: r for r in store.turns.overrides_of(gid)}
    return Sources(view, data, created, orders, overrides, {view.seq: view.state})


def game_facts(view: GameView) -> dict[str, Any]:
    """The record's "game": kind, options as stored, seed, when made, status; never rated."""
    row = view.row
    return {"id": row.id, "kind": row.kind, "title": view.rules.title, "options": json.loads(row.options or "{}"),
            "seed": row.seed, "created": row.created, "status": row.status, "gm_version": gm_version(),
            "rated": False}


def result_of(store: Store, view: GameView) -> dict[str, Any]:
    """Over or not, the winners (the GM's declared ones when gm end named them), drawn, why."""
    rules, state = view.rules, view.state
    over = rules.is_over(state) or view.status == Status.FINISHED
    winners = rules.winners(state) if over else []
    reason = None
    declared = store.results.result_of(view.id)
    if declared is not None:
        reason = declared.reason
        if declared.winners:
            winners = json.loads(declared.winners)
    return {"over": over, "winners": list(winners), "drawn": rules.is_drawn(state), "reason": reason}


def standings(view: GameView) -> list[dict[str, Any]]:
    """Every player by score as the final standings rank them (players still in first, best
    first, then seat order; those who left last, unranked); ranks only once the game is over."""
    rules, state = view.rules, view.state
    scores = rules.scores(state)
    gone = rules.removed(state)
    players = rules.players(state)
    ranked = sorted(players, key=lambda p: (p in gone, -scores.get(p, 0), players.index(p)))
    over = rules.is_over(state) or view.status == Status.FINISHED
    out = []
    for name in ranked:
        rank = None
        if over and name not in gone:
            rank = 1 + sum(1 for p in players if p not in gone and scores.get(p, 0) > scores.get(name, 0))
        out.append({"name": name, "score": scores.get(name), "rank": rank, "left": name in gone})
    return out


class Moves:
    """The record's moves in seq order, with what ``viewer`` (None: public; the GM sees all when
    ``gm``) may not see withheld."""

    def __init__(self, src: Sources, viewer: str | None, gm: bool):
        self.src, self.viewer, self.gm = src, viewer, gm
        self.rules = src.view.rules
        self.open_from = self.open_turn_start()
        self.hiding = False  # a withheld order is sealed in the states until its turn closes
        self.standing: dict[str, str] = {}  # player -> the stand-in of their withheld order now sealed
        self.clocked = self.rules.clock_of(src.view.state) is not None

    def all(self) -> list[dict[str, Any]]:
        return [self.move(seq) for seq in sorted(self.src.data) if seq > 0]

    def open_turn_start(self) -> int | None:
        """The first seq after the last close or draw of a running simultaneous game: its orders
        are sealed; None when nothing is sealed now."""
        if not self.rules.simultaneous or not self.src.running:
            return None
        ends = [seq for seq, row in self.src.orders.items() if row.action in ("close", "draw")]
        return max(ends, default=0) + 1

    def move(self, seq: int) -> dict[str, Any]:
        row = self.src.orders.get(seq)
        item = self.set_move(seq) if row is None else self.order_move(row)
        item["turn"] = row.turn if row is not None else self.rules.turn(self.src.state(seq))
        item["at"] = row.at if row is not None else self.src.created.get(seq, 0.0)
        self.note_sealed(item, row)
        item["position"] = None if self.hiding else self.src.position(seq)
        if self.hiding and item["action"] == "set" and item["state"] is not None:
            item["state"] = self.state_stand_in(item["state"])
        if self.clocked:
            state = self.src.state(seq)
            clock = self.rules.clock_of(state)
            item["clock"] = {} if clock is None else \
                {name: clock.banks.get(name, 0.0) for name in self.rules.players(state)}
        return {"seq": seq, **item}

    def note_sealed(self, item: dict[str, Any], row: OrderRow | None) -> None:
        """Keep track of what the states hold that this viewer may not see: from a withheld
        order on (``hiding``), until a close or a draw empties the turn."""
        if item.get("withheld"):
            self.hiding = True
            self.standing[item["player"]] = item["text"]
        elif row is not None and row.action == "order" and row.player:
            self.standing.pop(row.player, None)  # its latest order replaces a withheld one
        elif row is not None and row.action in ("close", "draw"):
            self.hiding, self.standing = False, {}

    def state_stand_in(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """A GM's state that holds withheld orders, with the stand-ins in their place (the state
        the record's own moves replay to), or None where the game has no stand-ins."""
        stand_in = STATE_STAND_INS.get(self.rules.kind)
        return None if stand_in is None else stand_in(data, self.standing)

    def order_move(self, row: OrderRow) -> dict[str, Any]:
        text = row.canonical if row.canonical is not None and row.action == "order" else row.text
        item: dict[str, Any] = {"action": row.action, "player": row.player, "text": text,
                                "origin": row.origin}
        if row.action == "order" and not self.gm and self.withheld(row):
            stand_in = STAND_INS.get(self.rules.kind)
            item.update(text=stand_in(self.src, row) if stand_in else "", withheld=True,
                        public=self.public_lines(row))
        return item

    def set_move(self, seq: int) -> dict[str, Any]:
        over = self.src.overrides.get(seq)
        item: dict[str, Any] = {"action": "set", "player": None, "origin": "gm",
                                "text": (over.detail or over.action) if over else "a state with no recorded cause",
                                "set": {"kind": over.action if over else "unknown",
                                        "from": over.source_seq if over else None}}
        shown = self.gm or not self.src.running
        item["state"] = self.rules.dump(self.src.state(seq)) if shown else None
        return item

    def withheld(self, row: OrderRow) -> bool:
        """Another seat's order sealed in the open turn, or an order its rules never played."""
        if self.open_from is not None and row.seq is not None and row.seq >= self.open_from:
            return row.player != self.viewer
        never = NEVER_PLAYED.get(self.rules.kind)
        return never is not None and never(self.src, row)

    def public_lines(self, row: OrderRow) -> list[str]:
        """What everyone was told of the order: the public events of its step, as the rules
        made them (the same events the service announced)."""
        assert row.seq is not None
        before, player = self.src.state(row.seq - 1), row.player or ""
        try:
            order = self.rules.parse_order(before, player, row.text)
            result = self.rules.submit(before, player, order, row.at)
        except Exception:  # a state the rules no longer take: tell nothing rather than guess
            return []
        return [event.text for event in result.events if event.to is None]


def pivot_order(src: Sources, row: OrderRow) -> Any:
    """A Pivot Pawns order row's order, as the rules read it on the state before it (or None)."""
    try:
        return src.view.rules.read_order(src.state((row.seq or 1) - 1), row.player or "", row.text)
    except Exception:  # a row the rules no longer read: treated as withheld
        return None


def pivot_solution_untried(src: Sources, row: OrderRow) -> bool:
    """Pivot Pawns: a bid whose solution was not tried when its round closed (a lower bid won
    first, the bid was replaced, or the round never closed)."""
    order = pivot_order(src, row)
    solution = getattr(order, "solution", None)
    if order is not None and not solution:
        return False  # PASS or BID 0: nothing sealed
    for record in getattr(src.view.state, "history", []):
        if order is not None and record.round == row.turn:
            return not any(a.player == row.player and a.pivots == order.pivots and a.solution == solution
                           for a in record.attempts)
    return True


def pivot_stand_in(src: Sources, row: OrderRow) -> str:
    """Pivot Pawns: a bid of the same number with a made-up one-pivot solution.  The rules take
    it in the withheld bid's place; the position after its round closes is the same, since an
    untried solution leaves no trace in it (and an open round's states are withheld anyway)."""
    order = pivot_order(src, row)
    pivots = getattr(order, "pivots", None)
    if pivots is None:
        return ""  # a row the rules no longer read: nothing of it
    return f"BID {pivots}" + (": red/blue" if pivots else "")


def pivot_state_stand_in(data: dict[str, Any], standing: dict[str, str]) -> dict[str, Any]:
    """Pivot Pawns: a dumped state whose sealed bids of withheld orders carry their stand-ins'
    solution (the bid's number, time and place in the tie order are the bid's own)."""
    bids = {player: dict(bid) for player, bid in data.get("bids", {}).items()}
    for player, text in standing.items():
        if player in bids:
            bids[player]["solution"] = text.partition(":")[2].strip()
    return {**data, "bids": bids}


# kind -> whether an accepted order of a closed turn holds a text its rules never played
NEVER_PLAYED: dict[str, Callable[[Sources, OrderRow], bool]] = {"pivot-pawns": pivot_solution_untried}
# kind -> the text a record gives in place of a withheld order, that replays the same
STAND_INS: dict[str, Callable[[Sources, OrderRow], str]] = {"pivot-pawns": pivot_stand_in}
# kind -> a GM's dumped state with the stand-ins of the withheld orders it holds in their place
STATE_STAND_INS: dict[str, Callable[[dict[str, Any], dict[str, str]], dict[str, Any]]] = {
    "pivot-pawns": pivot_state_stand_in}
