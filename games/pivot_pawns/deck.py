"""The Pivot Pawns deck as PG(3,2) (RULINGS PP1).

Cards are the 15 points of PG(3,2), icons its 35 lines.  Card ``i`` is alpha^i in GF(16)
(alpha^4 = alpha + 1) as a 4-bit vector; three points are on a line exactly when their
vectors XOR to zero, so a pivot's destination is the XOR of the two pawns' cards: all the
geometry the solver needs.  With ``+`` modulo 15 the lines are L_i = {i, i+1, i+4},
M_i = {i, i+2, i+8} and S_k = {k, k+5, k+10} for k < 5 (alpha^5 is a cube root of unity);
L_i is icon i, M_i icon 15+i, S_k icon 30+k.  The centre icon of card i is L_i, so a
target token has its target card's number; the colour of L_i, M_i and S_i is i mod 5.
"""

from __future__ import annotations

from games.text import mark

CARDS = 15
ICONS = 35
ROWS, COLUMNS = 3, 5

COLOURS = (mark("red"), mark("green"), mark("blue"), mark("yellow"), mark("black"))
# The pawns by colour, as players hear them in sentences (a noun phrase that needs no
# agreement with the words around it).
PAWN_NAMES = (mark("the red pawn"), mark("the green pawn"), mark("the blue pawn"),
              mark("the yellow pawn"), mark("the black pawn"))
# One-letter colour marks for the board; black is "k" so that it is not blue.
COLOUR_LETTERS = ("r", "g", "b", "y", "k")

# The five starting cards of PP1, whose centre icons are named by the rule text.
STARTING_CARDS = (0, 1, 2, 9, 13)

# Names, at most 11 characters so that a tableau cell stays 13 wide.  Icon
# numbers as in the module docstring: L_0..L_14, M_0..M_14, S_0..S_4.
ICON_NAMES = (
    # L_i, the centre icons; colour i mod 5 (red, green, blue, yellow, black)
    mark("Mars symbol"), mark("leaf"), mark("flask"), mark("moon"), mark("anchor"),
    mark("heart"), mark("tree"), mark("drop"), mark("star"), mark("music notes"),
    mark("flame"), mark("frog"), mark("wave"), mark("sun"), mark("spade"),
    # M_i
    mark("rose"), mark("cactus"), mark("fish"), mark("bell"), mark("crown"),
    mark("cherry"), mark("snail"), mark("snowflake"), mark("banana"), mark("key"),
    mark("apple"), mark("pear"), mark("whale"), mark("lightning"), mark("hammer"),
    # S_k
    mark("dice"), mark("eye"), mark("ring"), mark("house"), mark("clock"),
)


def _powers_of_alpha() -> tuple[int, ...]:
    """alpha^0 .. alpha^14 as 4-bit vectors (bit j = coefficient of alpha^j)."""
    vectors = []
    value = 1
    for _ in range(CARDS):
        vectors.append(value)
        value <<= 1
        if value & 0b10000:
            value ^= 0b10011  # alpha^4 = alpha + 1
    return tuple(vectors)


VECTOR = _powers_of_alpha()  # card number -> vector 1..15
CARD_OF_VECTOR = {v: card for card, v in enumerate(VECTOR)}


def _lines() -> tuple[frozenset[int], ...]:
    lines = [frozenset({i, (i + 1) % 15, (i + 4) % 15}) for i in range(15)]
    lines += [frozenset({i, (i + 2) % 15, (i + 8) % 15}) for i in range(15)]
    lines += [frozenset({k, k + 5, k + 10}) for k in range(5)]
    return tuple(lines)


ICON_CARDS = _lines()  # icon number -> the three cards showing it
ICON_COLOUR = tuple(i % 5 for i in range(15)) + tuple(i % 5 for i in range(15)) + tuple(range(5))
CARD_ICONS = tuple(
    tuple(icon for icon in range(ICONS) if card in ICON_CARDS[icon]) for card in range(CARDS)
)
CENTRE = tuple(range(CARDS))  # card i -> its centre icon L_i
CENTRE_COLOUR = tuple(ICON_COLOUR[CENTRE[card]] for card in range(CARDS))
TOKENS = CENTRE  # the 15 target tokens show the 15 centre icons
ICON_BY_NAME = {name.lower(): icon for icon, name in enumerate(ICON_NAMES)}


def other_icons(card: int) -> tuple[int, ...]:
    """The six icons of a card besides its centre, in icon order."""
    return tuple(icon for icon in CARD_ICONS[card] if icon != CENTRE[card])


def shared_icon(card_a: int, card_b: int) -> int:
    """The one icon two different cards share (the pivot icon)."""
    (icon,) = set(CARD_ICONS[card_a]) & set(CARD_ICONS[card_b])
    return icon


def destination(moving_card: int, pivot_card: int) -> int:
    """The third card of the line through two cards: XOR of their vectors."""
    return CARD_OF_VECTOR[VECTOR[moving_card] ^ VECTOR[pivot_card]]


def target_card(token: int) -> int:
    """The card whose centre icon is the token."""
    return CENTRE.index(token)

