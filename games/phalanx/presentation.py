"""Pure functions that show a Phalanx state: the ASCII board, the report view, HELP."""

from __future__ import annotations

from .board import territory
from .orders import OPENING_STEPS
from games.text import Text, mark

from .state import CHOOSE, EXTRA, OVER, PIE_MEN, PLACE, RED, WALL, YELLOW, PhalanxState

SYMBOL = {RED: "R", YELLOW: "Y", WALL: "#"}
WIDTH = 72


def render_board(state: PhalanxState) -> Text:
    """The hex board with coordinates; wide cells where they fit in 72 columns."""
    grid = state.grid
    width = 3 if state.side <= 8 else 1

    def cell_text(cell) -> str:
        return SYMBOL.get(state.cells.get(cell), ".")

    names = {c: f" ({p})" for p, c in state.colours.items()}
    legend = Text("R red{red}  Y yellow{yellow}  # wall  . empty",
                  red=names.get(RED, ""), yellow=names.get(YELLOW, ""))
    return Text("{board}\n\n{legend}", board=grid.render(cell_text, width=width), legend=legend)


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


def instruction(state: PhalanxState) -> Text:
    """What the player to move must send now, in words."""
    if state.phase == PLACE:
        reds, yellows = PIE_MEN[state.pie]
        return Text("{player} places the pie, {reds} red and {yellows} yellow men: {step}, "
                    "e.g. {example}", player=state.players[0], reds=reds, yellows=yellows,
                    step=OPENING_STEPS[PLACE], example=examples(state)[PLACE])
    if state.phase == CHOOSE:
        return Text("{player} chooses a colour: {step}", player=state.players[1],
                    step=OPENING_STEPS[CHOOSE])
    if state.phase == EXTRA:
        return Text("{player} (red) places one more man: {step}, e.g. {example}",
                    player=state.player_of(RED), step=OPENING_STEPS[EXTRA],
                    example=examples(state)[EXTRA])
    if state.phase == OVER:
        return Text("The game is over: {reason}.", reason=state.end_reason)
    if state.to_play == RED:
        return Text("{player} (red) plays a turn: GROW and MOVE lines, or PASS",
                    player=state.player_of(RED))
    return Text("{player} (yellow) plays a turn: GROW and MOVE lines, or PASS",
                player=state.player_of(YELLOW))


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


NOTATION = mark("""\
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
(move f6-f4 2 is fine).  On the board R is red, Y yellow, # wall.""")

# How this module reads the rulings where they leave a choice (wrapped at 72 columns).
NOTES = mark("""\
Notes. FB1 coordinates: rows are numbered 1.. from the top; letters name
the diagonals that run down to the right (north-west to south-east),
lettered A.. from the south-west edge, each letter printed at the head
of its diagonal. PH8 here counts every normal turn of either player as
one. Phalanx has no random events (G1); Phalanx is played in turns, so
G3 means each part of a turn is judged on the position left by the parts
before it.""")


def help_text() -> Text:
    from games import rulings  # the rulings' text, only when HELP is asked for

    return Text("{notation}\n\nRULINGS\n\n{rulings}\n\n{notes}\n", notation=Text(NOTATION),
                rulings="\n".join(rulings.help_lines("PH", WIDTH)), notes=Text(NOTES))
