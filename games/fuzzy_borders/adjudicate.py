"""Closing a Fuzzy Borders turn: sealed claims in, placements and clashes out (FB5-FB8).

Where RULINGS FB6 is silent this module decides, and the HELP text says so.  On turn 1,
k players clashing off the centre get the cell turned by floor(i*6/k) sixths of a turn,
i = 0..k-1 (exactly 360/k degrees for k = 2, 3, 6; the nearest sixths for 4 and 5, the
board having 60-degree symmetry); seven or more are treated like a later turn.  Given
cells that then meet another placement are a later-turn clash (in a game of three or
more they place nothing; two players never meet this way).  In a re-opened turn any
clash is the "second clash" and places nothing.
"""

from __future__ import annotations

from typing import Callable

from games.base import Event, Result, format_duration, seeded_rng
from games.hexgrid import rotate
from games.text import Plural, Text

from .state import FBState


def join_names(names: list[str]) -> str:
    """"ada", "ada and bob", "ada, bob and cy": the "and" a Text, said in the reader's language."""
    if len(names) <= 1:
        return "".join(names)
    return Text("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def rotation_sixths(k: int) -> list[int]:
    """How many sixths of a turn each of k clashing players' cells is rotated (turn 1)."""
    return [i * 6 // k for i in range(k)]


def adjudicate(state: FBState, live: list[str], now: float) -> Result:
    turn = state.turn
    board = state.board()
    orders: dict[str, str | None] = {p: state.sealed.get(p) for p in state.players}
    # G3: judged on the board at the start of the turn (submit checked this
    # already; a hand-edited state is checked again here).
    valid = {
        p: c for p, c in orders.items()
        if c is not None and board.why_not(p, state.cell(c)) is None
    }
    missing = [p for p in live if p not in valid]
    by_cell: dict[str, list[str]] = {}
    for player, cell in valid.items():
        by_cell.setdefault(cell, []).append(player)
    clashes = {cell: ps for cell, ps in by_cell.items() if len(ps) > 1}
    centre = state.name((0, 0))
    two_player = len(state.players) == 2

    events: list[Event] = []

    def say(text: str, kind: str, **data) -> None:
        events.append(Event(text, kind=kind, data={"turn": turn, **data}))

    if state.reopened:
        return _second_try(state, orders, valid, clashes, missing, events, say)
    needs_reopen = two_player and clashes and (turn > 1 or centre in clashes)
    if needs_reopen:
        return _reopen(state, orders, clashes, now, events, say)
    placed = _place_clashes(state, valid, clashes, centre, say)
    _undo_meetings(state, placed, say)
    for player in missing:
        say(Text("{player} sent no claim and places nothing.", player=player), "missing", player=player)
    uncontested = [p for p in placed if valid[p] not in clashes]
    return _finish(state, orders, placed, events, uncontested)


Say = Callable[..., None]


def _second_try(state: FBState, orders: dict, valid: dict[str, str], clashes: dict[str, list[str]],
                missing: list[str], events: list[Event], say: Say) -> Result:
    """A re-opened turn: any clash or missing claim places nothing (FB6)."""
    if clashes or missing:
        for cell, ps in clashes.items():
            say(Text("{players} both claimed {cell} again.", players=join_names(ps), cell=cell), "clash",
                cell=cell, players=ps)
        for player in missing:
            say(Text("{player} sent no new claim.", player=player), "missing", player=player)
        say(Text("Turn {turn} places nothing (FB6: second clash or missing claim).", turn=state.turn),
            "clash")
        return _finish(state, orders, {}, events, [])
    return _finish(state, orders, dict(valid), events, list(valid))


def _reopen(state: FBState, orders: dict, clashes: dict[str, list[str]], now: float,
            events: list[Event], say: Say) -> Result:
    """Two players clashed: the turn is re-opened for new claims until now + reopen (FB6)."""
    turn = state.turn
    (cell, ps), = clashes.items()
    say(Text("{players} both claimed {cell}.", players=join_names(ps), cell=cell), "clash", cell=cell,
        players=ps)
    say(Text("Turn {turn} is re-opened: send a new claim within {span} (FB6).", turn=turn,
             span=format_duration(state.reopen)), "reopen",
        until=now + state.reopen)
    new = state.copy(keep_board=True)
    new.sealed = {}
    new.reopened = True
    new.reopen_until = float(now + state.reopen)
    new.last = {"turn": turn, "orders": orders,
                "placed": {p: None for p in state.players}, "outcome": "reopened"}
    return Result(new, events)


def _place_clashes(state: FBState, valid: dict[str, str], clashes: dict[str, list[str]], centre: str,
                   say: Say) -> dict[str, str]:
    """The placements: unclashed claims as sent; a turn-1 clash off the centre turned by
    rotation_sixths among its players in a seeded order; any other clash places nothing."""
    turn = state.turn
    placed = {p: c for p, c in valid.items() if c not in clashes}
    for cell, ps in clashes.items():
        ps = [p for p in state.players if p in ps]  # player order, before the seeded shuffle
        if turn == 1 and cell != centre and len(ps) <= 6:
            rng = seeded_rng(state.seed, "clash", turn, cell)
            order = ps[:]
            rng.shuffle(order)
            if len(ps) == 2:
                text = Text("{players} both claimed {cell} (FB6, turn 1):", players=join_names(ps), cell=cell)
            else:
                text = Text("{players} all claimed {cell} (FB6, turn 1):", players=join_names(ps), cell=cell)
            say(text, "clash", cell=cell, players=ps)
            for player, sixths in zip(order, rotation_sixths(len(ps))):
                given = state.name(rotate(state.cell(cell), sixths))
                placed[player] = given
                if sixths:
                    text = Text("{player} places on {given} ({cell} turned {degrees} degrees).",
                                player=player, given=given, cell=cell, degrees=sixths * 60)
                else:
                    text = Text("{player} places on {given}.", player=player, given=given)
                say(text, "claim", player=player, cell=given, ordered=cell)
        else:
            if len(ps) == 2:
                text = Text("{players} both claimed {cell}: none places (FB6).", players=join_names(ps),
                            cell=cell)
            else:
                text = Text("{players} all claimed {cell}: none places (FB6).", players=join_names(ps),
                            cell=cell)
            say(text, "clash", cell=cell, players=ps)
    return placed


def _undo_meetings(state: FBState, placed: dict[str, str], say: Say) -> None:
    """Turn-1 rotations can land on another placement: treated as a later-turn clash."""
    targets: dict[str, list[str]] = {}
    for player, cell in placed.items():
        targets.setdefault(cell, []).append(player)
    for cell, ps in targets.items():
        if len(ps) > 1:
            ps = [p for p in state.players if p in ps]
            say(Text("{players} would all place on {cell}: none places (FB6).", players=join_names(ps),
                     cell=cell),
                "clash", cell=cell, players=ps)
            for player in ps:
                del placed[player]


def _finish(state: FBState, orders: dict, placed: dict[str, str], events: list[Event],
             uncontested: list[str]) -> Result:
    """Place the claims, check the end of the game (FB7, FB8) and open the next turn."""
    turn = state.turn
    # Uncontested placements first, in player order, above the clash lines.
    events[:0] = [
        Event(Text("{player} claims {cell}.", player=p, cell=placed[p]), kind="claim",
              data={"turn": turn, "player": p, "cell": placed[p]})
        for p in state.players if p in uncontested
    ]
    new = state.copy()
    for player in state.players:
        if player in placed:
            new.claims[player].append((turn, placed[player]))
    new.sealed = {}
    new.reopened = False
    new.reopen_until = None
    new.last = {"turn": turn, "orders": dict(orders),
                "placed": {p: placed.get(p) for p in state.players}, "outcome": "placed"}
    board = new.board()
    if not board.empty_cells():
        new.over = True
        events.append(Event(Text("No empty cell is left: the game is over (FB7)."), kind="end",
                            data={"turn": turn}))
    elif state.max_turns is not None and turn >= state.max_turns:
        new.over = True
        events.append(Event(Text("Turn {turn} was the last (max_turns): the game is over.", turn=turn),
                            kind="end", data={"turn": turn}))
    elif state.empty_turns is not None and not placed \
            and state.empty_run() + 1 >= state.empty_turns:
        new.over = True
        run = state.empty_run() + 1
        events.append(Event(Plural(
            "No claim was placed on this turn: {n} empty turn in a row end the game, scored as it "
            "stands (FB8).",
            "No claim was placed on the last {n} turns: {n} empty turns in a row end the game, scored "
            "as it stands (FB8).", n=run), kind="end", data={"turn": turn, "empty_turns": run}))
    else:
        new.turn = turn + 1
    if new.over:
        events.append(result_event(new))
    return Result(new, events)


def result_event(state: FBState) -> Event:
    """Who won a finished game: the best score among the players still in it (G2, G5)."""
    scores = state.board().scores(state.players)
    remaining = [p for p in state.players if p not in state.left]
    best = max(scores[p] for p in remaining)
    winners = [p for p in remaining if scores[p] == best]
    if len(winners) == 1:
        text = Text("{player} wins with {points} points.", player=winners[0], points=best)
    else:
        text = Text("Shared win (G2): {players} with {points} points each.", players=join_names(winners),
                    points=best)
    return Event(text, kind="end", data={"winners": winners, "scores": scores})
