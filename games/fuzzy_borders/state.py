"""The Fuzzy Borders game state, its options and its JSON form.

The state stores only what cannot be recomputed: the players, the options,
the seed, the claimed cells in the order they were placed, this turn's sealed
claims and the record of the last turn.  Leaders, values and scores are
derived from the claims (games.fuzzy_borders.board) and cached per state.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from games.base import OptionError, StateError, duration_seconds
from games.hexgrid import Cell, CellNameError

from .board import Board, cells_by_name, grid

STATE_VERSION = 1
MAX_SIDE = 13  # games.hexgrid: one letter per diagonal and boards within 72 columns


def parse_duration(name: str, value: Any) -> int:
    """Seconds from text like 24h, 90m, 2d or 1h30m; a bare number is already seconds.

    Text without a unit is refused ("24" could mean hours or seconds), so a
    typed value (int seconds) passes through check_options a second time
    unchanged.
    """
    if isinstance(value, bool):
        raise OptionError(f"option {name}: expected a duration like 24h, got {value!r}")
    if isinstance(value, (int, float)):
        seconds = int(value)
    else:
        try:
            seconds = int(duration_seconds(str(value), unit_required=True))
        except ValueError:
            raise OptionError(
                f"option {name}: {value!r} is not a duration like 24h, 90m, 2d or 1h30m"
            ) from None
    if seconds <= 0:
        raise OptionError(f"option {name}: the duration must be longer than nothing")
    return seconds


def format_duration(seconds: int) -> str:
    """The shortest text parse_duration reads back; a day stays "24h" as GMs write it."""
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if unit == "d" and seconds < 2 * size:
            continue
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts) or "0s"


def max_radius(side: int) -> int:
    # Influence beyond the board's diameter would reach no cell at all.
    return max(1, 2 * (side - 1))


@dataclass
class FBState:
    players: list[str]
    side: int
    radius: int
    max_turns: int | None
    reopen: int  # seconds a re-opened turn stays open (FB6)
    seed: int
    turn: int = 1  # the turn being played; once over, the last turn played
    # Placed claims per player, oldest first: (turn placed, cell name).
    claims: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    # This turn's sealed claims, player -> cell name (FB5).
    sealed: dict[str, str] = field(default_factory=dict)
    reopened: bool = False  # this turn was re-opened after a two-player clash
    reopen_until: float | None = None
    # The last adjudicated (or re-opened) turn, for the report:
    # {"turn": n, "orders": {player: cell|None}, "placed": {player: cell|None},
    #  "outcome": "placed" | "reopened"}
    last: dict | None = None
    over: bool = False
    _board: Board | None = field(default=None, compare=False, repr=False)

    # --- derived ------------------------------------------------------------
    def board(self) -> Board:
        """The analysed board; cached, since the claims of a state never change."""
        if self._board is None:
            # Stored names are canonical (load_state and the rules write them so).
            by_name = cells_by_name(self.side)
            cells = {
                player: [by_name[name] for _, name in self.claims.get(player, ())]
                for player in self.players
            }
            self._board = Board(self.side, self.radius, cells, self.players)
        return self._board

    def copy(self, keep_board: bool = False) -> "FBState":
        """A deep copy to change; ``keep_board`` when the claims will stay as they are."""
        last = self.last
        if last is not None:
            last = {k: dict(v) if isinstance(v, dict) else v for k, v in last.items()}
        new = FBState(
            players=list(self.players), side=self.side, radius=self.radius,
            max_turns=self.max_turns, reopen=self.reopen, seed=self.seed, turn=self.turn,
            claims={p: list(cs) for p, cs in self.claims.items()},  # tuples stay shared
            sealed=dict(self.sealed), reopened=self.reopened,
            reopen_until=self.reopen_until, last=last, over=self.over,
        )
        if keep_board:
            new._board = self._board
        return new

    def cell(self, name: str) -> Cell:
        return grid(self.side).parse(name)

    def name(self, cell: Cell) -> str:
        return grid(self.side).name(cell)

    # --- JSON ---------------------------------------------------------------
    def dump(self) -> dict:
        return {
            "version": STATE_VERSION,
            "players": list(self.players),
            "options": {
                "side": self.side,
                "radius": self.radius,
                "max_turns": self.max_turns,
                "reopen": self.reopen,
            },
            "seed": self.seed,
            "turn": self.turn,
            "claims": {
                p: [{"turn": t, "cell": c} for t, c in self.claims.get(p, ())]
                for p in self.players
            },
            "sealed": dict(self.sealed),
            "reopened": self.reopened,
            "reopen_until": self.reopen_until,
            "last": copy.deepcopy(self.last),
            "over": self.over,
        }


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise StateError(message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cell_name(side: int, value: Any, where: str) -> str:
    _need(isinstance(value, str), f"{where}: a cell name must be text, not {value!r}")
    try:
        return grid(side).name(grid(side).parse(value))
    except CellNameError as exc:
        raise StateError(f"{where}: {exc}") from None


def load_state(data: Any) -> FBState:
    """Check a dumped state thoroughly (the GM may have edited it) and rebuild it."""
    _need(isinstance(data, dict), "a state must be a JSON object")
    expected = {"version", "players", "options", "seed", "turn", "claims", "sealed",
                "reopened", "reopen_until", "last", "over"}
    missing, extra = expected - set(data), set(data) - expected
    _need(not missing, f"state lacks {', '.join(sorted(missing))}")
    _need(not extra, f"state has unknown keys {', '.join(sorted(extra))}")

    players = data["players"]
    _need(isinstance(players, list) and 2 <= len(players) <= 12,
          "players must be a list of 2 to 12 names")
    _need(all(isinstance(p, str) and p.strip() for p in players), "player names must be text")
    _need(len(set(players)) == len(players), "player names must be different")

    options = data["options"]
    _need(isinstance(options, dict) and set(options) == {"side", "radius", "max_turns", "reopen"},
          "options must hold exactly side, radius, max_turns and reopen")
    side, radius = options["side"], options["radius"]
    _need(_is_int(side) and 2 <= side <= MAX_SIDE, f"side must be 2..{MAX_SIDE}")
    _need(_is_int(radius) and 1 <= radius <= max_radius(side),
          f"radius must be 1..{max_radius(side)}")
    max_turns = options["max_turns"]
    _need(max_turns is None or (_is_int(max_turns) and max_turns >= 1),
          "max_turns must be null or a positive whole number")
    _need(_is_int(options["reopen"]) and options["reopen"] > 0,
          "reopen must be a positive number of seconds")
    _need(_is_int(data["seed"]), "seed must be a whole number")
    turn = data["turn"]
    _need(_is_int(turn) and turn >= 1, "turn must be a whole number from 1")
    _need(max_turns is None or turn <= max_turns, "turn is beyond max_turns")
    _need(isinstance(data["over"], bool), "over must be true or false")

    claims_in = data["claims"]
    _need(isinstance(claims_in, dict) and set(claims_in) == set(players),
          "claims must hold one list per player")
    claims: dict[str, list[tuple[int, str]]] = {}
    seen: set[str] = set()
    for player in players:
        entries = claims_in[player]
        _need(isinstance(entries, list), f"claims of {player} must be a list")
        turns_used: set[int] = set()
        claims[player] = []
        for entry in entries:
            _need(isinstance(entry, dict) and set(entry) == {"turn", "cell"},
                  f"a claim of {player} must be {{turn, cell}}")
            placed_turn = entry["turn"]
            _need(_is_int(placed_turn) and 1 <= placed_turn <= turn,
                  f"claim of {player} has a bad turn {placed_turn!r}")
            _need(placed_turn not in turns_used, f"{player} has two claims on turn {placed_turn}")
            turns_used.add(placed_turn)
            name = _cell_name(side, entry["cell"], f"claim of {player}")
            _need(name not in seen, f"{name} is claimed twice")
            seen.add(name)
            claims[player].append((placed_turn, name))
        _need([t for t, _ in claims[player]] == sorted(turns_used),
              f"claims of {player} must be in turn order")

    sealed_in = data["sealed"]
    _need(isinstance(sealed_in, dict) and set(sealed_in) <= set(players),
          "sealed must map players to cells")
    sealed = {p: _cell_name(side, c, f"sealed claim of {p}") for p, c in sealed_in.items()}
    _need(not (data["over"] and sealed), "a finished game holds no sealed claims")

    reopened, until = data["reopened"], data["reopen_until"]
    _need(isinstance(reopened, bool), "reopened must be true or false")
    _need(until is None or (isinstance(until, (int, float)) and not isinstance(until, bool)),
          "reopen_until must be null or a time in epoch seconds")
    _need(reopened == (until is not None), "reopen_until is set exactly when reopened is true")
    _need(not reopened or len(players) == 2, "only a two-player game re-opens a turn (FB6)")
    _need(not (reopened and data["over"]), "a finished game has no re-opened turn")

    state = FBState(
        players=list(players), side=side, radius=radius, max_turns=max_turns,
        reopen=options["reopen"], seed=data["seed"], turn=turn, claims=claims,
        sealed=sealed, reopened=reopened,
        reopen_until=float(until) if until is not None else None,
        last=_load_last(data["last"], players, side), over=data["over"],
    )
    board = state.board()
    for player, name in sealed.items():
        reason = board.why_not(player, state.cell(name))
        _need(reason is None, f"sealed claim of {player} is not legal: {reason}")
    return state


def _load_last(last: Any, players: list[str], side: int) -> dict | None:
    if last is None:
        return None
    _need(isinstance(last, dict) and set(last) == {"turn", "orders", "placed", "outcome"},
          "last must hold turn, orders, placed and outcome")
    _need(_is_int(last["turn"]) and last["turn"] >= 1, "last.turn must be a turn number")
    _need(last["outcome"] in ("placed", "reopened"), "last.outcome must be placed or reopened")
    result: dict = {"turn": last["turn"], "outcome": last["outcome"]}
    for key in ("orders", "placed"):
        value = last[key]
        _need(isinstance(value, dict) and set(value) == set(players),
              f"last.{key} must name every player")
        result[key] = {
            p: None if c is None else _cell_name(side, c, f"last.{key} of {p}")
            for p, c in value.items()
        }
    return result
