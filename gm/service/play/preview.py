"""A preview: one player's orders judged on a copy of their game, nothing stored or told.

The rules judge the orders exactly as for real (parse_order, then submit), on
a copy of the state read back from its JSON, so the stored game is never
touched and a refusal gives the reason a real order would get.  What the
sender is shown: in a sequential game, the position after the move; in
Fuzzy Borders, their claim placed on the board, the other claims staying
sealed (clashes are unknown until the turn closes); in Pivot Pawns, the
solution played pivot by pivot from the round's start by the rules' own
solver (PP4, PP5).  Nothing of another player's sealed orders is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from games.text import Text
from games.base import Event, Game, OrderError
from gm.core.model import GameView
from gm.service.play import turns


@dataclass
class Preview:
    """What the orders would do: the order as the rules read it (None: refused, with ``error``),
    the state to show the sender, the events they would be told, and the game's own account."""

    order: str | None
    error: OrderError | None
    state: Any
    events: list[Event] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def judge(view: GameView, name: str, text: str, now: float) -> Preview:
    """Judge ``text`` as ``name``'s orders at ``now`` on a copy of ``view``'s state."""
    rules = view.rules
    state = rules.load(rules.dump(view.state))  # the copy: what the rules do never reaches the game
    try:
        turns.check_open(view, turns.seat(view, name))
        order = rules.parse_order(state, name, text)
        result = rules.submit(state, name, order, now)
    except OrderError as exc:
        return Preview(None, exc, state)
    events = [e for e in result.events if e.visible_to(name)]
    account = ACCOUNTS.get(rules.kind)
    if account is None:  # a sequential game: the position after the move
        return Preview(str(order), None, result.state, events)
    shown, lines = account(rules, result.state, name, order)
    return Preview(str(order), None, shown, events, lines)


def claim_placed(rules: Game, sealed: Any, name: str, order: Any) -> tuple[Any, list[str]]:
    """Fuzzy Borders: the state with the sender's sealed claim placed on the board as if nobody
    clashed with it (the others' claims are sealed: whether one clashes is not known)."""
    shown = sealed.copy()
    shown.claims[name].append((sealed.turn, order.cell))
    return shown, [Text("Your claim {cell} is drawn on the board below as if placed. The other "
                        "players' claims stay sealed until the turn closes, so whether one of them "
                        "clashes with yours (FB6) is not known yet.", cell=order.cell)]


def pivot_path(rules: Game, sealed: Any, name: str, order: Any) -> tuple[Any, list[str]]:
    """Pivot Pawns: the solution of a bid played pivot by pivot from the pawns as the round began
    (G3), each step judged by the rules' own solver; the pawns stay as they stand on the board."""
    from games.pivot_pawns import deck, solver
    from games.pivot_pawns.state import card_coordinate

    if not hasattr(order, "solution"):  # PASS
        return sealed, [Text("You would pass this round (you may still bid while bidding is open).")]
    start, token = sealed.pawns, sealed.token
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    colour = deck.COLOURS[active]
    moves = [(p.moving, p.pivot) for p in order.solution]
    unfinished = solver.apply(start, [], active, target)[2]  # the rules' words for "not there yet"
    lines = [Text("Your solution, played from the pawns as they stand (the {colour} pawn to card "
                  "{card}):", colour=colour, card=card_coordinate(sealed, target))]
    placement, landed = list(start), 0 if start[active] == target else None
    for number, (m, q) in enumerate(moves if landed is None else [], start=1):
        _, played, reason = solver.apply(start, moves[:number], active, target)
        if reason is not None and reason != unfinished:
            return sealed, lines + [Text("  {why}: the bid would fail here.", why=reason)]
        placement[m] = deck.destination(placement[m], placement[q])
        step = dict(number=number, moving=deck.COLOURS[m], pivot=deck.COLOURS[q],
                    card=card_coordinate(sealed, placement[m]))
        lines.append(Text("  pivot {number} ({moving}/{pivot}): the {moving} pawn to {card}, the target card",
                          **step) if played is not None else
                     Text("  pivot {number} ({moving}/{pivot}): the {moving} pawn to {card}", **step))
        if played is not None:
            landed = played
            break
    return sealed, lines + verdict(order, len(moves), landed, colour)


def verdict(order: Any, written: int, landed: int | None, colour: str) -> list[str]:
    """Whether a bid's solution is valid (PP4): the landing comes, within the bid."""
    if landed is None:
        return [Text("  The {colour} pawn never reaches the target card: the bid would fail.", colour=colour)]
    if landed == 0:
        return [Text("  The {colour} pawn stands on the target card already: the bid is valid, and "
                     "any pivots written are ignored (PP4).", colour=colour)]
    lines = []
    if landed < written:
        lines.append(Text("  The pivots after pivot {landed} are ignored (PP4).", landed=landed))
    if landed > order.pivots:
        return lines + [Text("  The {colour} pawn lands at pivot {landed}, beyond your bid of "
                             "{bid}: the bid would fail (PP4).", colour=colour, landed=landed, bid=order.pivots)]
    return lines + [Text("  Valid: the {colour} pawn lands on the target card at pivot {landed}, "
                         "within your bid of {bid}. Whether it wins depends on the other bids: the "
                         "lowest valid bid wins, ties in the order bid (PP4).", colour=colour,
                         landed=landed, bid=order.pivots)]


# kind -> what a preview shows of a simultaneous game (the sealed state, the sender, the order)
ACCOUNTS: dict[str, Callable[[Game, Any, str, Any], tuple[Any, list[str]]]] = {
    "fuzzy-borders": claim_placed,
    "pivot-pawns": pivot_path,
}
