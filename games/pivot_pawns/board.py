"""Pure presentation of a Pivot Pawns state: the ASCII tableau and the view dict."""

from __future__ import annotations

import time

from games.pivot_pawns import deck
from games.pivot_pawns.orders import solution_text
from games.pivot_pawns.state import ROUNDS, PivotState, card_coordinate, coordinate
from games.text import Text, mark

CELL = 13  # inner width of a tableau cell: 5 cells and 6 borders make 71 columns


def _icon_line(icon: int, centre: bool = False) -> str:
    name = deck.ICON_NAMES[icon]
    return f"{(name.upper() if centre else name):<11} {deck.COLOUR_LETTERS[deck.ICON_COLOUR[icon]]}"


def _cell(state: PivotState, position: int) -> list[str]:
    card = state.tableau[position]
    pawn = f"@{deck.COLOURS[state.pawns.index(card)].upper()}" if card in state.pawns else ""
    target = state.token is not None and card == deck.target_card(state.token)
    first = f"{coordinate(position)} {pawn:<8}{'*' if target else ''}"
    lines = [first, _icon_line(deck.CENTRE[card], centre=True)]
    lines += [_icon_line(icon) for icon in deck.other_icons(card)]
    return [f"{line:<{CELL}}" for line in lines]


COMMAS, LINES = mark("{first}, {rest}"), mark("{first}\n{rest}")  # the joiners of ``listed``


def listed(items: list[str], joiner: str = COMMAS) -> str:
    """Texts as one, each said in the reader's language: "leaf, moon, star" (``joiner`` a
    template of first and rest, marked where it is written)."""
    if len(items) == 1:
        return items[0]
    return Text(joiner, first=items[0], rest=listed(items[1:], joiner))


def icon_label(icon: int) -> Text:
    """An icon and its colour: "leaf (green)"."""
    return Text("{icon} ({colour})", icon=Text(deck.ICON_NAMES[icon]),
                colour=Text(deck.COLOURS[deck.ICON_COLOUR[icon]]))


def render(state: PivotState) -> str:
    """The tableau and the round's goal; nothing in it is sealed."""
    border = "+" + ("-" * CELL + "+") * deck.COLUMNS
    out = ["".join(f"{letter:^{CELL + 1}}" for letter in " ABCDE"[1:]).rstrip(), border]
    for row in range(deck.ROWS):
        cells = [_cell(state, row * deck.COLUMNS + col) for col in range(deck.COLUMNS)]
        for line in range(len(cells[0])):
            out.append("|" + "|".join(cell[line] for cell in cells) + "|")
        out.append(border)
    legend = Text("@ pawn   * target card   CAPITALS centre icon\n"
                  "Icon colours: r red, g green, b blue, y yellow, k black")
    lines = ["\n".join(line.rstrip() for line in out), legend, pawns_line(state), *round_goal(state)]
    return listed(lines, LINES)


def pawns_line(state: PivotState) -> Text:
    """``Pawns: red E3, green D2, ...``: where each pawn stands."""
    return Text("Pawns: {pawns}", pawns=listed([
        Text("{colour} {card}", colour=Text(deck.COLOURS[c]), card=card_coordinate(state, card))
        for c, card in enumerate(state.pawns)]))


def round_goal(state: PivotState) -> list[Text]:
    """The round, its token and the pawn to move where; or that the game is over."""
    if state.token is None:
        return [Text("All {rounds} rounds are played.", rounds=ROUNDS)]
    if state.drawn:
        return [Text("The game ended drawn by agreement in round {round}.", round=state.round)]
    if state.over and state.remaining:
        return [Text("The game ended in round {round}: only {player} is left, and wins.",
                     round=state.round, player=state.remaining[0])]
    if state.over:
        return [Text("The game ended in round {round}: nobody is left to bid.", round=state.round)]
    active = deck.ICON_COLOUR[state.token]
    where = card_coordinate(state, deck.target_card(state.token))
    return [Text("Round {round} of {rounds}: token {token}.", round=state.round, rounds=ROUNDS,
                 token=icon_label(state.token)),
            Text("Move {pawn} to card {card}.", pawn=Text(deck.PAWN_NAMES[active]), card=where)]


def utc(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def bid_order(state: PivotState) -> list[str]:
    """Players with a bid, in the order the bids are tried (PP4)."""
    return sorted(state.bids, key=lambda p: (state.bids[p].pivots, state.bids[p].time, state.bids[p].seq))


def view(state: PivotState, viewer: str | None, par: tuple[int | None, str] | None) -> dict:
    """Facts for the report; a sealed solution only for its sender and the GM."""
    tableau = _tableau_view(state)
    bids = _bids_view(state, viewer)
    waiting = [p for p in state.remaining if p not in state.bids and p not in state.passes]
    closes = None if state.first_bid is None or state.timer is None else state.first_bid + state.timer
    data = {
        "round": state.round,
        "rounds": ROUNDS,
        "over": state.over,
        "left": list(state.left),
        "token": None,
        "active_pawn": None,
        "target_card": None,
        "tableau": tableau,
        "pawns": {deck.COLOURS[c]: card_coordinate(state, card) for c, card in enumerate(state.pawns)},
        "bids": bids,
        "passes": list(state.passes),
        "waiting": waiting,
        "timer_seconds": state.timer,
        "closes_at": closes,
        "closes_at_text": None if closes is None else utc(closes),
        "tokens": [
            {
                "player": p,
                "count": len(state.tokens[p]),
                "icons": [Text(deck.ICON_NAMES[t]) for t in state.tokens[p]],
            }
            for p in state.players
        ],
        "last_round": _last_round(state),
        "par": None,
    }
    if state.token is not None:
        data["token"] = {
            "icon": Text(deck.ICON_NAMES[state.token]),
            "colour": Text(deck.COLOURS[deck.ICON_COLOUR[state.token]]),
        }
        data["active_pawn"] = Text(deck.COLOURS[deck.ICON_COLOUR[state.token]])
        data["target_card"] = card_coordinate(state, deck.target_card(state.token))
    if viewer is None and par is not None:
        # The GM may see this round's par; players see it only once the round closes.
        data["par"] = {"pivots": par[0], "solution": par[1]}
    return data


def _tableau_view(state: PivotState) -> list[dict]:
    """Each card of the tableau: its coordinate, centre icon and colour, other icons, pawn."""
    tableau = []
    for position, card in enumerate(state.tableau):
        centre = deck.CENTRE[card]
        tableau.append(
            {
                "coord": coordinate(position),
                "centre": Text(deck.ICON_NAMES[centre]),
                "colour": Text(deck.COLOURS[deck.ICON_COLOUR[centre]]),
                "others": [
                    {"icon": Text(deck.ICON_NAMES[i]), "colour": Text(deck.COLOURS[deck.ICON_COLOUR[i]])}
                    for i in deck.other_icons(card)
                ],
                "pawn": deck.COLOURS[state.pawns.index(card)] if card in state.pawns else None,
            }
        )
    return tableau


def _bids_view(state: PivotState, viewer: str | None) -> list[dict]:
    """The bids in the order they are tried; a solution shown only to its sender and the GM."""
    bids = []
    for player in bid_order(state):
        bid = state.bids[player]
        sees = viewer is None or viewer == player
        bids.append(
            {
                "player": player,
                "bid": bid.pivots,
                "time": bid.time,
                "time_text": utc(bid.time),
                "solution": (solution_text(bid.solution) if sees else None),
            }
        )
    return bids


def _last_round(state: PivotState) -> dict | None:
    if not state.history:
        return None
    record = state.history[-1]
    winning = next((a for a in record.attempts if a.reason is None), None)
    return {
        "round": record.round,
        "token": Text(deck.ICON_NAMES[record.token]),
        "colour": Text(deck.COLOURS[deck.ICON_COLOUR[record.token]]),
        "winner": record.winner,
        "bid": None if winning is None else winning.pivots,
        "solution": None if winning is None else solution_text(winning.solution),
        "attempts": [
            {
                "player": a.player,
                "bid": a.pivots,
                "solution": solution_text(a.solution),
                "failure": a.reason,
            }
            for a in record.attempts
        ],
        "par": record.par,
        "par_solution": None if record.par_solution is None else solution_text(record.par_solution),
    }
