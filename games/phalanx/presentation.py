"""Pure functions that show a Phalanx state: the ASCII board, the report view, HELP."""

from __future__ import annotations

import textwrap

from .board import territory
from .orders import OPENING_STEPS
from .state import CHOOSE, EXTRA, OVER, PIE_MEN, PLACE, RED, WALL, YELLOW, PhalanxState

SYMBOL = {RED: "R", YELLOW: "Y", WALL: "#"}
WIDTH = 72


def render_board(state: PhalanxState) -> str:
    """The hex board with coordinates; wide cells where they fit in 72 columns."""
    grid = state.grid
    width = 3 if state.side <= 8 else 1

    def cell_text(cell) -> str:
        return SYMBOL.get(state.cells.get(cell), ".")

    names = {c: f" ({p})" for p, c in state.colours.items()}
    legend = (
        f"R red{names.get(RED, '')}  Y yellow{names.get(YELLOW, '')}"
        "  # wall  . empty"
    )
    return grid.render(cell_text, width=width) + "\n\n" + legend


def examples(state: PhalanxState) -> dict[str, str]:
    """Opening orders for this board, built around its centre."""
    grid, far = state.grid, state.side - 1
    reds, yellows = PIE_MEN[state.pie]
    red = [grid.name(c) for c in ((0, 0), (0, -2))[:reds]]
    yellow = [grid.name(c) for c in ((-2, 0), (2, 0), (0, 2))[:yellows]]
    return {
        PLACE: f"PLACE RED {' '.join(red)} YELLOW {' '.join(yellow)}",
        EXTRA: f"PLACE {grid.name((far, -far))}",
    }


def instruction(state: PhalanxState) -> str:
    """What the player to move must send now, in words."""
    if state.phase == PLACE:
        reds, yellows = PIE_MEN[state.pie]
        return (
            f"{state.players[0]} places the pie, {reds} red and {yellows} yellow "
            f"men: {OPENING_STEPS[PLACE]}, e.g. {examples(state)[PLACE]}"
        )
    if state.phase == CHOOSE:
        return f"{state.players[1]} chooses a colour: {OPENING_STEPS[CHOOSE]}"
    if state.phase == EXTRA:
        return (
            f"{state.player_of(RED)} (red) places one more man: "
            f"{OPENING_STEPS[EXTRA]}, e.g. {examples(state)[EXTRA]}"
        )
    if state.phase == OVER:
        return f"The game is over: {state.end_reason}."
    return (
        f"{state.player_of(state.to_play)} ({state.to_play}) plays a turn: "
        "GROW and MOVE lines, or PASS"
    )


def view(state: PhalanxState, scores: dict[str, int], to_move: list[str]) -> dict:
    """Everything in Phalanx is open, so every viewer gets the same facts."""
    land = territory(state.cells, state.grid)
    sides = []
    for player in state.players:
        colour = state.colours.get(player)
        sides.append({
            "name": player,
            "colour": colour or "not chosen yet",
            "men": sum(1 for k in state.cells.values() if k == colour) if colour else 0,
            "prisoners": state.prisoners[colour] if colour else 0,
            "territory": land[colour] if colour else 0,
            "score": scores[player],
        })
    return {
        "phase": state.phase,
        "side": state.side,
        "pie": state.pie,
        "sides": sides,
        "walls": sum(1 for k in state.cells.values() if k == WALL),
        "to_move": to_move[0] if to_move else None,
        "to_move_colour": state.to_play if state.phase == "play" else None,
        "instruction": instruction(state),
        "passes": state.passes,
        "normal_turns": state.normal_turns,
        "max_turns": state.max_turns,
        "end_reason": state.end_reason,
        "last": list(state.last),
    }


NOTATION = """\
PHALANX ORDERS

Cells are named by letter and row as on the board (H8 is the centre of
the default board).  Rows are numbered from the top; each letter names
the diagonal that runs down to the right from where it is printed.
Send a whole turn in one mail, one clause per line (or on one line):

  GROW E5 G7        new men at E5 and G7 (growths come first)
  MOVE F6 F4 2      move the phalanx from tail F4 to head F6 two cells
                    on beyond F6 (head, tail, distance)
  MOVE H8 G8        a two-man phalanx can only move 1: the distance may
                    be left out
  PASS              do nothing this turn

Example: with red men on F8 G8 H8, MOVE H8 F8 2 puts them on H8 I8 J8;
MOVE H8 G8 1 moves only G8 H8 (to H8 I8) and leaves F8 where it is.
Enemy men on the cells beyond the head are captured and those cells
become wall (#).

Growths, then moves, are carried out in the order written.  The whole
turn is checked before any of it counts: one illegal part rejects the
turn, with the part and the reason, and nothing changes.

The opening (pie):
  PLACE RED H8 YELLOW E8 K8   the first player places the pie men
  COLOUR YELLOW               the other player picks a colour
  PLACE H5                    Red places one more man
Then Yellow plays the first normal turn.

Upper or lower case, commas, dashes and extra spaces do not matter
(move f6-f4 2 is fine).  On the board R is red, Y yellow, # wall.
"""

# RULINGS.md, word for word: players must be shown the rulings of their game.
RULINGS = (
    (
        'PH1. Board: hexagonal board of hexagonal cells, side N (option, default 8, 169 '
        'cells), coordinates as FB1. Lines of movement are the three axes.'
    ),
    (
        'PH2. A turn is: zero or more growths, then zero or more moves, in the order '
        'written. A turn with neither is a pass; two passes in a row end the game.'
    ),
    (
        'PH3. Growth. Every new man stands on a vacant cell adjacent to at least one of '
        "the mover's groups as they were at the start of the turn, and no such group is "
        'adjacent to more than one new man. (This allows one man to join two groups, and '
        'two touching new men to join two groups, but never two men added to one group.) '
        'A group that received a man may not move this turn.'
    ),
    (
        'PH4. Moving a group. Only groups that received no man may move, each at most '
        'once per turn; a group that a moving group connects to loses its right to move; '
        'fragments of a moved group cannot move again this turn. A move names a head (an '
        "end man of a straight run of the mover's men) and a tail (any other man of that "
        'run); n = men from tail to head inclusive (n >= 2); the move distance k '
        "satisfies 1 <= k <= n-1. The men from tail to head shift k cells in the head's "
        'direction; men of the run behind the tail stay.'
    ),
    (
        'PH5. The k cells beyond the head must exist and hold no wall and no man of the '
        "mover's colour. Enemy men in those cells are captured. For every straight enemy "
        'run of two or more men along the line of movement that contains a captured man, '
        "n must be greater than that run's full length, else the move is illegal. Each "
        "cell where an enemy man was captured becomes a wall; the mover's man that would "
        "land there returns to the mover's supply."
    ),
    (
        'PH6. Score = vacant cells connected (through vacant cells) to men of one colour '
        'only, minus prisoners the opponent took. Walls and men block.'
    ),
    (
        'PH7. Opening (pie). Option `pie`: `small` (default: 1 red, 2 yellow) or `large` '
        '(2 red, 3 yellow). The first listed player places those men; the other player '
        'chooses a colour; then Red places one more red man; then Yellow takes the first '
        'normal turn.'
    ),
    (
        'PH8. Option `max_turns` (default 300) ends a game that never passes twice.'
    ),
    (
        'G1. Every random event (deals, shuffles, draws, piece lay-outs) comes from a '
        'seeded generator whose seed is stored with the game, so a game can be replayed '
        'from its seed and its orders alone, and the replay must reproduce every archived'
        ' report.'
    ),
    (
        'G2. A tie for the win is a shared win; the report says so.'
    ),
    (
        'G3. Orders are judged on the position as it stands when they are adjudicated '
        '(sequential games) or at the start of the turn (simultaneous games).'
    ),
)

# How this module reads the rulings where they leave a choice.
NOTES = (
    (
        'Notes. FB1 coordinates: rows are numbered 1.. from the top; letters name the '
        'diagonals that run down to the right (north-west to south-east), lettered A.. '
        'from the south-west edge, each letter printed at the head of its diagonal. PH8 '
        'here counts every normal turn of either player as one. Phalanx has no random '
        'events (G1); Phalanx is played in turns, so G3 means each part of a turn is '
        'judged on the position left by the parts before it.'
    ),
)


def help_text() -> str:
    lines = NOTATION.rstrip("\n").split("\n") + ["", "RULINGS"]
    for item in RULINGS:
        lines.append("")
        lines.extend(textwrap.wrap(item, WIDTH, subsequent_indent="     "))
    lines.append("")
    for note in NOTES:
        lines.extend(textwrap.wrap(note, WIDTH))
    return "\n".join(lines) + "\n"
