"""The Pivot Pawns tableau for a screen reader: words instead of a drawing, and a table.

The tableau and the pawns are open; a bid's number is public, its solution sealed: a
viewer hears their own solution (the GM every one), never another player's.  Lines: the
round's goal, each pawn by card, each card with its icons, the bids, the tokens won, the
last round, and the pivots open from the pawns as they stand (never more than twenty).
"""

from __future__ import annotations

from games.text import Plural, Text, mark

from . import deck
from .board import bid_order, icon_label as icon_words, listed
from .orders import PivotMove, solution_text
from .state import ROUNDS, PivotState, card_coordinate, coordinate

PAWN_ON = (mark("Red pawn on {card}."), mark("Green pawn on {card}."), mark("Blue pawn on {card}."),
           mark("Yellow pawn on {card}."), mark("Black pawn on {card}."))


def card_words(card: int) -> Text:
    """A card's seven icons, the centre first."""
    others = dict(zip("abcdef", (icon_words(icon) for icon in deck.other_icons(card))))
    return Text("{centre} in the centre; {a}, {b}, {c}, {d}, {e}, {f}",
                centre=icon_words(deck.CENTRE[card]), **others)


def goal_lines(state: PivotState) -> list[Text]:
    """The round and where the active pawn must go; or how the game ended."""
    if state.token is None:
        return [Text("All {rounds} rounds are played.", rounds=ROUNDS)]
    if state.over:
        return [Text("The game is over, in round {round}.", round=state.round)]
    active = deck.ICON_COLOUR[state.token]
    return [Text("Round {round} of {rounds}: token {token}; move {pawn} to card {card}.",
                 round=state.round, rounds=ROUNDS, token=icon_words(state.token),
                 pawn=Text(deck.PAWN_NAMES[active]), card=card_coordinate(state, deck.target_card(state.token)))]


def position_lines(state: PivotState) -> list[Text]:
    """Each pawn by its card, then each card of the tableau, row by row, with its icons."""
    lines = [Text(PAWN_ON[colour], card=card_coordinate(state, card))
             for colour, card in enumerate(state.pawns)]
    lines += [Text("{card}: {icons}.", card=coordinate(position), icons=card_words(card))
              for position, card in enumerate(state.tableau)]
    return lines


def bid_lines(state: PivotState, viewer: str | None) -> list[Text]:
    """The bids in the order they are tried, a solution only for its sender and the GM; the
    passes; who has not bid yet."""
    lines: list[Text] = []
    for player in bid_order(state):
        bid = state.bids[player]
        if viewer is None or viewer == player:
            lines.append(Text("{player} bids {bid}: {solution}.", player=player, bid=bid.pivots,
                              solution=solution_text(bid.solution) or "-"))
        else:
            lines.append(Text("{player} bids {bid}, solution sealed.", player=player, bid=bid.pivots))
    if state.passes:
        lines.append(Text("Passed: {players}.", players=", ".join(state.passes)))
    waiting = [p for p in state.remaining if p not in state.bids and p not in state.passes]
    if waiting and not state.over:
        lines.append(Text("Not yet bid: {players}.", players=", ".join(waiting)))
    return lines


def token_lines(state: PivotState) -> list[Text]:
    """The tokens each player has won."""
    lines: list[Text] = []
    for player in state.players:
        won = state.tokens[player]
        if won:
            lines.append(Plural("{player} has won {n} token: {tokens}.",
                                "{player} has won {n} tokens: {tokens}.", n=len(won), player=player,
                                tokens=listed([Text(deck.ICON_NAMES[token]) for token in won])))
    return lines


def last_round_lines(state: PivotState) -> list[Text]:
    """What changed: who won the last round's token, with what, and its par."""
    if not state.history:
        return []
    record = state.history[-1]
    winning = next((a for a in record.attempts if a.reason is None), None)
    if winning is None:
        line = Text("Last round: nobody won the {token} token.", token=Text(deck.ICON_NAMES[record.token]))
    else:
        line = Text("Last round: {player} won the {token} token with a bid of {bid}: {solution}.",
                    player=winning.player, token=Text(deck.ICON_NAMES[record.token]),
                    bid=winning.pivots, solution=solution_text(winning.solution) or "-")
    return [line]


def pivot_lines(state: PivotState) -> list[Text]:
    """Every single pivot open now, in notation with the card it lands on (PP5 kept)."""
    if state.over or state.token is None:
        return []
    target = deck.target_card(state.token)
    found = []
    for moving in range(5):
        for pivot in range(5):
            if moving == pivot:
                continue
            landing = deck.destination(state.pawns[moving], state.pawns[pivot])
            if landing in state.pawns or (deck.CENTRE_COLOUR[landing] == moving and landing != target):
                continue
            found.append(f"{PivotMove(moving, pivot)} {card_coordinate(state, landing)}")
    if not found:
        return [Text("No pivot is open now.")]
    return [Text("Pivots open now (pawn/pivot pawn, card): {pivots}.", pivots=", ".join(found))]


def describe(state: PivotState, viewer: str | None) -> list[Text]:
    """The whole game in lines of words, as ``viewer`` may see it."""
    return (goal_lines(state) + position_lines(state) + bid_lines(state, viewer)
            + token_lines(state) + last_round_lines(state) + pivot_lines(state))


def board_table(state: PivotState) -> tuple[list[str], list[list[str]]]:
    """The tableau: rows 1-3 against columns A-E; a cell says its pawn, whether it is the
    target card, and its icons."""
    target = None if state.token is None or state.over else deck.target_card(state.token)
    header: list[str] = [Text("Row"), *"ABCDE"]
    rows = []
    for row in range(deck.ROWS):
        cells: list[str] = [str(row + 1)]
        for column in range(deck.COLUMNS):
            card = state.tableau[row * deck.COLUMNS + column]
            words = card_words(card)
            if card == target:
                words = Text("target card; {icons}", icons=words)
            if card in state.pawns:
                words = Text("{pawn}; {icons}", pawn=Text(deck.PAWN_NAMES[state.pawns.index(card)]), icons=words)
            cells.append(words)
        rows.append(cells)
    return header, rows
