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

from games.base import StateError, dump_drawn, dump_left, is_whole, load_drawn, load_left, need
from games.hexgrid import Cell, CellNameError

from .board import Board, cells_by_name, grid

STATE_VERSION = 1
MAX_SIDE = 13  # games.hexgrid: one letter per diagonal and boards within 72 columns


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
    # FB8: the game ends after this many empty turns in a row; None: never (a game stored
    # without this setting keeps the rules it began with: gm.store.steps.s15_fuzzy_borders_empty_turns).
    empty_turns: int | None = None
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
    # Players removed from the game (G5), in the order they left: their claims
    # stay on the board (FB2), they send no more claims (FB5: they place nothing).
    left: tuple[str, ...] = ()
    drawn: bool = False  # over by agreement (G6)
    _board: Board | None = field(default=None, compare=False, repr=False)

    # --- derived ------------------------------------------------------------
    def empty_run(self) -> int:
        """FB8: how many turns in a row closed with no claim placed, up to the last one closed.

        Derived from the claims (each carries the turn it was placed), so that a GM's edit
        or rollback can never leave a counter out of step with the board.  The turns closed
        are those before ``turn`` (the open one), or up to ``turn`` itself once the game is
        over; a re-opened turn has not closed yet (FB6).
        """
        last_placed = max((t for cs in self.claims.values() for t, _ in cs), default=0)
        closed = self.turn if self.over else self.turn - 1
        return max(0, closed - last_placed)

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
            max_turns=self.max_turns, reopen=self.reopen, seed=self.seed,
            empty_turns=self.empty_turns, turn=self.turn,
            claims={p: list(cs) for p, cs in self.claims.items()},  # tuples stay shared
            sealed=dict(self.sealed), reopened=self.reopened,
            reopen_until=self.reopen_until, last=last, over=self.over, left=self.left, drawn=self.drawn,
            _board=self._board if keep_board else None,
        )
        return new

    def cell(self, name: str) -> Cell:
        return grid(self.side).parse(name)

    def name(self, cell: Cell) -> str:
        return grid(self.side).name(cell)

    # --- JSON ---------------------------------------------------------------
    def dump(self) -> dict:
        options = {
            "side": self.side,
            "radius": self.radius,
            "max_turns": self.max_turns,
            "reopen": self.reopen,
        }
        if self.empty_turns is not None:  # absent: FB8 off, as in every state stored before it
            options["empty_turns"] = self.empty_turns
        return dump_drawn(dump_left({
            "version": STATE_VERSION,
            "players": list(self.players),
            "options": options,
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
        }, self.left), self.drawn)


def _cell_name(side: int, value: Any, where: str) -> str:
    need(isinstance(value, str), f"{where}: a cell name must be text, not {value!r}")
    try:
        return grid(side).name(grid(side).parse(value))
    except CellNameError as exc:
        raise StateError(f"{where}: {exc}") from None


def load_state(data: Any) -> FBState:
    """Check a dumped state thoroughly (the GM may have edited it) and rebuild it."""
    _check_keys(data)
    players = _load_players(data["players"])
    side, radius, max_turns, empty_turns = _load_options(data["options"])
    need(is_whole(data["seed"]), "seed must be a whole number")
    turn = data["turn"]
    need(is_whole(turn) and turn >= 1, "turn must be a whole number from 1")
    need(max_turns is None or turn <= max_turns, "turn is beyond max_turns")
    need(isinstance(data["over"], bool), "over must be true or false")
    claims = _load_claims(data["claims"], players, side, turn)

    sealed_in = data["sealed"]
    need(isinstance(sealed_in, dict) and set(sealed_in) <= set(players),
          "sealed must map players to cells")
    sealed = {p: _cell_name(side, c, f"sealed claim of {p}") for p, c in sealed_in.items()}
    need(not (data["over"] and sealed), "a finished game holds no sealed claims")

    left = load_left(data, players)
    drawn = load_drawn(data)
    need(not drawn or data["over"], "a game drawn by agreement is over (G6)")
    need(not set(left) & set(sealed), "a player who has left holds no sealed claim (G5)")
    need(data["over"] or len(players) - len(left) >= 2,
         "a game with fewer than two players left is over (G5)")
    reopened, until = _load_reopened(data, players)

    state = FBState(
        players=list(players), side=side, radius=radius, max_turns=max_turns,
        reopen=data["options"]["reopen"], seed=data["seed"], empty_turns=empty_turns, turn=turn,
        claims=claims,
        sealed=sealed, reopened=reopened,
        reopen_until=float(until) if until is not None else None,
        last=_load_last(data["last"], players, side), over=data["over"], left=left,
        drawn=drawn,
    )
    need(empty_turns is None or state.over or state.empty_run() < empty_turns,
         f"{state.empty_run()} empty turns in a row reach empty_turns: the game is over (FB8)")
    board = state.board()
    for player, name in sealed.items():
        reason = board.why_not(player, state.cell(name))
        need(reason is None, f"sealed claim of {player} is not legal: {reason}")
    return state


def _check_keys(data: Any) -> None:
    need(isinstance(data, dict), "a state must be a JSON object")
    expected = {"version", "players", "options", "seed", "turn", "claims", "sealed",
                "reopened", "reopen_until", "last", "over"}
    missing, extra = expected - set(data), set(data) - expected - {"left", "drawn"}  # optional
    need(not missing, f"state lacks {', '.join(sorted(missing))}")
    need(not extra, f"state has unknown keys {', '.join(sorted(extra))}")


def _load_players(players: Any) -> list[str]:
    need(isinstance(players, list) and 2 <= len(players) <= 12,
          "players must be a list of 2 to 12 names")
    need(all(isinstance(p, str) and p.strip() for p in players), "player names must be text")
    need(len(set(players)) == len(players), "player names must be different")
    return players


def _load_options(options: Any) -> tuple[int, int, int | None, int | None]:
    """(side, radius, max_turns, empty_turns) of the options, each checked; reopen checked too."""
    need(isinstance(options, dict)
         and set(options) - {"empty_turns"} == {"side", "radius", "max_turns", "reopen"},
          "options must hold exactly side, radius, max_turns, reopen and, if FB8 is on, empty_turns")
    side, radius = options["side"], options["radius"]
    need(is_whole(side) and 2 <= side <= MAX_SIDE, f"side must be 2..{MAX_SIDE}")
    need(is_whole(radius) and 1 <= radius <= max_radius(side),
          f"radius must be 1..{max_radius(side)}")
    max_turns = options["max_turns"]
    need(max_turns is None or (is_whole(max_turns) and max_turns >= 1),
          "max_turns must be null or a positive whole number")
    need(is_whole(options["reopen"]) and options["reopen"] > 0,
          "reopen must be a positive number of seconds")
    empty_turns = options.get("empty_turns")
    need(empty_turns is None or (is_whole(empty_turns) and empty_turns >= 1),
          "empty_turns must be a positive whole number (leave it out for none)")
    return side, radius, max_turns, empty_turns


def _load_claims(claims_in: Any, players: list[str], side: int, turn: int) -> dict[str, list[tuple[int, str]]]:
    """Each player's claims, in turn order, one a turn, no cell claimed twice."""
    need(isinstance(claims_in, dict) and set(claims_in) == set(players),
          "claims must hold one list per player")
    claims: dict[str, list[tuple[int, str]]] = {}
    seen: set[str] = set()
    for player in players:
        entries = claims_in[player]
        need(isinstance(entries, list), f"claims of {player} must be a list")
        turns_used: set[int] = set()
        claims[player] = []
        for entry in entries:
            need(isinstance(entry, dict) and set(entry) == {"turn", "cell"},
                  f"a claim of {player} must be {{turn, cell}}")
            placed_turn = entry["turn"]
            need(is_whole(placed_turn) and 1 <= placed_turn <= turn,
                  f"claim of {player} has a bad turn {placed_turn!r}")
            need(placed_turn not in turns_used, f"{player} has two claims on turn {placed_turn}")
            turns_used.add(placed_turn)
            name = _cell_name(side, entry["cell"], f"claim of {player}")
            need(name not in seen, f"{name} is claimed twice")
            seen.add(name)
            claims[player].append((placed_turn, name))
        need([t for t, _ in claims[player]] == sorted(turns_used),
              f"claims of {player} must be in turn order")
    return claims


def _load_reopened(data: dict, players: list[str]) -> tuple[bool, Any]:
    """(reopened, reopen_until), checked against each other and the game (FB6)."""
    reopened, until = data["reopened"], data["reopen_until"]
    need(isinstance(reopened, bool), "reopened must be true or false")
    need(until is None or (isinstance(until, (int, float)) and not isinstance(until, bool)),
          "reopen_until must be null or a time in epoch seconds")
    need(reopened == (until is not None), "reopen_until is set exactly when reopened is true")
    need(not reopened or len(players) == 2, "only a two-player game re-opens a turn (FB6)")
    need(not (reopened and data["over"]), "a finished game has no re-opened turn")
    return reopened, until


def _load_last(last: Any, players: list[str], side: int) -> dict | None:
    if last is None:
        return None
    need(isinstance(last, dict) and set(last) == {"turn", "orders", "placed", "outcome"},
          "last must hold turn, orders, placed and outcome")
    need(is_whole(last["turn"]) and last["turn"] >= 1, "last.turn must be a turn number")
    need(last["outcome"] in ("placed", "reopened"), "last.outcome must be placed or reopened")
    result: dict = {"turn": last["turn"], "outcome": last["outcome"]}
    for key in ("orders", "placed"):
        value = last[key]
        need(isinstance(value, dict) and set(value) == set(players),
              f"last.{key} must name every player")
        result[key] = {
            p: None if c is None else _cell_name(side, c, f"last.{key} of {p}")
            for p, c in value.items()
        }
    return result
