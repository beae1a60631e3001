"""A picture of a Pivot Pawns position: the tableau, the pawns, the target and the bids.

The 15 cards stand in 3 rows of 5 (columns A-E, rows 1-3, as the text report); each shows
its coordinate, its centre icon as a coloured band and its six other icons by name; a pawn
is a disc of its colour with its letter (r g b y k); the target has a thick magenta frame.
The caption holds what the text report tells everyone (round, token, active pawn, bids in
the order they are tried, passes, tokens won, the last result) and one line of sealed
solutions: a player sees their own, the GM every one, anyone else none.  Board, public
caption and size never depend on the viewer: two viewers' pictures differ only in that line.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from games.pivot_pawns import deck
from games.pivot_pawns.board import bid_order, pawns_line, round_goal
from games.pivot_pawns.orders import solution_text
from games.pivot_pawns.state import PivotState, coordinate, position_of
from games.text import Text
from gm.present.pictures.draw import drawn, BACKGROUND, GRID, INK, Colour, blend, font, said, text

# The five deck colours (red, green, blue, yellow, black), for discs and bands ...
COLOUR_FILL: tuple[Colour, ...] = ((200, 30, 30), (0, 140, 60), (20, 80, 200), (235, 180, 0), (20, 20, 20))
# ... and for text on a light card (yellow darkened to be readable).
COLOUR_TEXT: tuple[Colour, ...] = ((190, 25, 25), (0, 125, 55), (20, 75, 190), (160, 115, 0), (20, 20, 20))
MARK: Colour = (200, 0, 160)  # the target card's frame: no deck colour is near it
CARD: Colour = (252, 250, 244)
RULE: Colour = blend(GRID, 0.5)  # the line above the sealed solutions

CARD_W, CARD_H, GAP = 148, 180, 8
LEFT, TOP, RIGHT = 26, 24, 12
BOARD_W = LEFT + deck.COLUMNS * CARD_W + (deck.COLUMNS - 1) * GAP + RIGHT
BOARD_H = TOP + deck.ROWS * CARD_H + (deck.ROWS - 1) * GAP
WIDTH = BOARD_W
LINE = 18  # caption line height
CAPTION_TOP = BOARD_H + 12
PAWN_RADIUS = 12
FRAME = 4  # width of the target card's frame


def _origin(position: int) -> tuple[int, int]:
    row, column = divmod(position, deck.COLUMNS)
    return LEFT + column * (CARD_W + GAP), TOP + row * (CARD_H + GAP)


def card_box(coord: str) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the card at a tableau coordinate such as 'A1'."""
    x, y = _origin(position_of(coord))
    return x, y, x + CARD_W - 1, y + CARD_H - 1


def card_centre(coord: str) -> tuple[int, int]:
    """Pixel centre of the card at a tableau coordinate such as 'A1'."""
    x0, y0, x1, y1 = card_box(coord)
    return (x0 + x1) // 2, (y0 + y1) // 2


def pawn_spot(coord: str) -> tuple[int, int]:
    """Centre of the pawn disc on the card at ``coord`` (its top right corner)."""
    x0, y0, x1, _ = card_box(coord)
    return x1 - FRAME - 4 - PAWN_RADIUS, y0 + FRAME + 3 + PAWN_RADIUS


def centre_band(coord: str) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the band showing the card's centre icon."""
    x0, y0, x1, _ = card_box(coord)
    return x0 + 8, y0 + 36, x1 - 8, y0 + 66


def _text_on(fill: Colour) -> Colour:
    """White on a dark band, ink on a light one (the yellow)."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else BACKGROUND


def _card(image: Image.Image, pen: ImageDraw.ImageDraw, state: PivotState, position: int) -> None:
    card = state.tableau[position]
    coord = coordinate(position)
    x0, y0, x1, y1 = card_box(coord)
    target = state.token is not None and card == deck.target_card(state.token)
    pen.rectangle((x0, y0, x1, y1), fill=CARD, outline=GRID, width=1)
    if target:
        pen.rectangle((x0, y0, x1, y1), outline=MARK, width=FRAME)
        text(image, ((x0 + x1) // 2, y0 + 18), said(Text("TARGET")), 12, MARK, "mm")
    text(image, (x0 + 9, y0 + 18), coord, 15, INK, "lm")
    if card in state.pawns:
        colour = state.pawns.index(card)
        cx, cy = pawn_spot(coord)
        r = PAWN_RADIUS
        pen.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), fill=INK)
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=COLOUR_FILL[colour])
        letter = deck.COLOUR_LETTERS[colour].upper()
        text(image, (cx, cy), letter, 12, _text_on(COLOUR_FILL[colour]), "mm")
    # The centre icon: a band in its colour, its name in capitals.
    centre = deck.CENTRE[card]
    fill = COLOUR_FILL[deck.ICON_COLOUR[centre]]
    bx0, by0, bx1, by1 = centre_band(coord)
    pen.rounded_rectangle((bx0, by0, bx1, by1), radius=5, fill=fill)
    text(image, ((bx0 + bx1) // 2, (by0 + by1) // 2), deck.ICON_NAMES[centre].upper(), 14, _text_on(fill), "mm")
    # The six other icons: a colour square and the name in its colour.
    for line, icon in enumerate(deck.other_icons(card)):
        colour = deck.ICON_COLOUR[icon]
        ly = y0 + 84 + line * 16
        pen.rectangle((x0 + 12, ly - 4, x0 + 20, ly + 4), fill=COLOUR_FILL[colour])
        name = f"{deck.ICON_NAMES[icon]} {deck.COLOUR_LETTERS[colour]}"
        text(image, (x0 + 27, ly), name, 13, COLOUR_TEXT[colour], "lm")


def _fit(pen: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """``text`` cut to ``width`` pixels, with '...' where it was cut."""
    face = font(size)
    if pen.textlength(text, font=face) <= width:
        return text
    while text and pen.textlength(text + " ...", font=face) > width:
        text = text[:-1]
    return text.rstrip() + " ..."


def _wrap(pen: ImageDraw.ImageDraw, text: str, size: int, width: int) -> list[str]:
    face = font(size)
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if current and pen.textlength(trial, font=face) > width:
            lines.append(current)
            current = "    " + word
        else:
            current = trial
    return lines + [current]


def _public_caption(pen: ImageDraw.ImageDraw, state: PivotState) -> list[str]:
    """What the text report tells everyone, as wrapped lines; nothing sealed."""
    width = WIDTH - 2 * LEFT
    # the text report's own lines
    out: list[str] = [" ".join(said(part) for part in round_goal(state)), said(pawns_line(state))]
    if not state.over:
        bids = ", ".join(f"{p} {state.bids[p].pivots}" for p in bid_order(state))
        sentences = [Text("Bids (in the order they are tried): {bids}.", bids=bids) if bids
                     else Text("Bids (in the order they are tried): none yet.")]
        if state.passes:
            sentences.append(Text("Passed: {names}.", names=", ".join(state.passes)))
        waiting = [p for p in state.remaining if p not in state.bids and p not in state.passes]
        if waiting:
            sentences.append(Text("Waiting for: {names}.", names=", ".join(waiting)))
        out.extend(_wrap(pen, " ".join(said(sentence) for sentence in sentences), 14, width))
    out.extend(_wrap(pen, said(Text("Tokens won: {counts}.", counts=", ".join(
        f"{p} {len(state.tokens[p])}" for p in state.players))), 14, width))
    if state.history:
        out.append(said(round_line(state.history[-1])))
    return out


def round_line(record: Any) -> Text:
    """The last round's result and its par, in a sentence."""
    winning = next((a for a in record.attempts if a.reason is None), None)
    result = Text("no valid bid; the token is discarded") if winning is None else \
        Text("{name} won with a bid of {bid}", name=record.winner, bid=winning.pivots)
    par = Text("no solution existed") if record.par is None else Text("par {par}", par=record.par)
    return Text("Round {round}: {result} ({par}).", round=record.round, result=result, par=par)


def view_key(state: PivotState, viewer: str | None) -> tuple:
    """All the picture shows of ``viewer``'s own (the rule of _sealed_caption): every sealed
    solution for the GM, a player's own, nothing for anyone else."""
    if viewer is None:
        return ("gm", tuple((p, state.bids[p].pivots, solution_text(state.bids[p].solution))
                            for p in bid_order(state)))
    bid = state.bids.get(viewer) if viewer in state.players else None
    return () if bid is None else ("own", bid.pivots, solution_text(bid.solution))


def _sealed_caption(pen: ImageDraw.ImageDraw, state: PivotState, viewer: str | None) -> list[str]:
    """The sealed solutions ``viewer`` may see: one line for anyone but the GM."""
    width = WIDTH - 2 * LEFT
    if viewer is None:
        lines = [said(Text("{name}'s sealed solution ({pivots}): {solution}", name=p, pivots=state.bids[p].pivots,
                           solution=solution_text(state.bids[p].solution))) for p in bid_order(state)]
        return [_fit(pen, line, 14, width) for line in lines] or [said(Text("No sealed solutions."))]
    bid = state.bids.get(viewer) if viewer in state.players else None
    if bid is None:
        return [""]
    return [_fit(pen, said(Text("Your sealed solution ({pivots}): {solution}", pivots=bid.pivots,
                                solution=solution_text(bid.solution))), 14, width)]


def draw(rules: object, state: PivotState, viewer: str | None) -> Image.Image:
    """The position as ``viewer`` may see it (None: the GM; a non-player: an observer).

    Drawn on a palette (draw.palette_canvas), or in RGB should it need more than 256 colours (draw.drawn)."""
    return drawn(lambda new_canvas: drawn_on(new_canvas, rules, state, viewer))


def drawn_on(new_canvas: Any, rules: object, state: PivotState, viewer: str | None) -> Image.Image:
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    public = _public_caption(scratch, state)
    sealed = _sealed_caption(scratch, state, viewer)
    height = CAPTION_TOP + LINE * (len(public) + len(sealed)) + 6 + 12
    image, pen = new_canvas(WIDTH, height)
    for column, letter in enumerate("ABCDE"):
        x, _ = _origin(column)
        text(image, (x + CARD_W // 2, TOP // 2), letter, 15, INK, "mm")
    for row in range(deck.ROWS):
        _, y = _origin(row * deck.COLUMNS)
        text(image, (LEFT // 2, y + CARD_H // 2), str(row + 1), 15, INK, "mm")
    for position in range(deck.CARDS):
        _card(image, pen, state, position)
    y = CAPTION_TOP
    for line in public:
        text(image, (LEFT, y), line, 14, INK)
        y += LINE
    pen.line((LEFT, y + 2, WIDTH - LEFT, y + 2), fill=RULE)
    y += 6
    for line in sealed:
        text(image, (LEFT, y), line, 14, INK)
        y += LINE
    return image  # with text in 17 levels, a palette PNG of its own colours (draw.png)
