"""Every numbered ruling of RULINGS.md, written once, for the games' HELP texts.

The service must show each game's rulings to its players (RULINGS.md,
preamble).  The installed package cannot read the shared RULINGS.md at run
time, so its numbered items are copied here word for word, under their
section headings; ``tests/games/test_rulings.py`` checks the copy against
the file.  A game's HELP shows the general rulings (G) and its own
(``help_lines("FB")``).
"""

from __future__ import annotations

import re
import textwrap

# Copied from RULINGS.md: the section headings and every numbered item as written.
SOURCE = """\
## General
- G1. Every random event (deals, shuffles, draws, piece lay-outs) comes from a
  seeded generator whose seed is stored with the game, so a game can be replayed
  from its seed and its orders alone, and the replay must reproduce every
  archived report: its position, turn, scores and results exactly; a report
  rendered by an earlier version of gm may differ from today's in wording and
  layout only.
- G2. A tie for the win is a shared win; the report says so.
- G3. Orders are judged on the position as it stands when they are adjudicated
  (sequential games) or at the start of the turn (simultaneous games).
- G4. Time is checked before orders. An order that arrives after a timer or
  deadline of the open turn has run out (a rules timer, a deadline with its
  grace) is judged only after that turn has been closed as the timer or the
  late policy says; it then counts for the next turn if it is legal there, and
  is refused otherwise, with a reply that says the turn had closed. A mail
  arrives when gm's mail server delivered it (the time the server records
  for it), not when gm reads it.
- G5. A player removed from a game (ejected, resigned) sends no orders and
  receives no game mail from then on; the game treats the seat as the rules
  for a missing order say.
- G6. Draw by agreement. Any remaining player may propose a draw at any
  time, with an order or without one. Every player is told that a draw has
  been proposed, never by whom. A proposal stands until the end of the turn
  after the one in which it was made (so one sent with a move is still
  standing on the next player's turn), or until its player withdraws it.
  When every remaining player has a standing proposal, the game ends drawn:
  no winner, and the scores as they stand are the final standings.
- G7. Concession. A player who concedes (CONCEDE, or RESIGN: the same)
  leaves the game as G5 says. When a game that began with two or more
  players has one player left, that player wins at once.
- G8. Conditional orders (sequential games only). A player may send, at
  any time, lines of moves to be played for them later: each line alternates
  moves of the other players with the sender's own, and begins with another
  player's move (with more than two players, the moves of every other player
  between the sender's turns, in order). When the game's next moves are
  exactly the moves a line names, the sender's move that follows in that
  line is judged at that instant, as if it had arrived then (on time, G4),
  and the line goes on from there. A line that names a move other than the
  one played is dropped. A conditional move that is illegal when its time
  comes is dropped, its sender is told, and the turn waits for them as
  usual. Where two lines name the same moves up to the sender's move, the
  line sent later counts. An order the sender makes for the turn in hand,
  or a CLEAR, ends the lines they sent before it; lines sent in the same
  mail as such an order start from the position after it. Lines are
  sealed: nobody but the sender and the GM learns of them until a move is
  played from one; the report of such a move says it was played from a
  conditional order. In Phalanx a line names whole turns. Fuzzy Borders
  and Pivot Pawns have no conditional orders.
- G9. Takebacks (sequential games; option `takebacks`, default on, and
  off in rated games). A player may ask to take back their last move until
  the next move is played. When every other remaining player agrees before
  then, the move is undone: the position is what it was before it, and it is
  that player's turn again. No clock time is given back, and the increment
  the undone move earned (G10) is taken away. A move answered at once by a
  conditional order (G8) cannot be taken back; a takeback ends every
  conditional line that named the undone move. A takeback is
  recorded and replayed like an order (G1), and every player is told of it.
- G10. Correspondence clock (sequential games; option `clock`, default
  off). With a clock each player has a bank of time: B to start, plus I
  after each of their moves, never more than M (written `B+I/M`, e.g.
  `3d+1d/10d`). A player's bank runs from the moment the report that puts
  them to move is sent until their order arrives; an absence taken under the
  game's absence rules stops it, and so does a time when gm could not send
  mail. A player whose bank reaches zero loses on time: in a two-player game
  the other player wins; with more players the player leaves the game as G5
  says (G7 then applies). With a clock on, the game's turn deadline and
  grace are not used. PX8's time bank is this clock with no increment and no
  maximum.
- G11. Rated games (option `rated`, default off). When a rated game with
  two or more players ends, its final standings rank the players: winners
  first (a shared win or a draw: tied), then those still in the game by the
  game's score, then those who left it (resigned, conceded, ejected, lost on
  time), a later leaver above an earlier one. A game in which some player
  never made a move is not rated. Ratings are kept per game kind.
## Fuzzy Borders (`rules/fuzzy-borders.txt`)
- FB1. Geometry. Hexagonal board of side N (default 10): 2N-1 rows numbered 1..
  from the top, and 2N-1 NW-SE diagonals lettered A.. from the south-west edge.
  In axial coordinates (q = letter index - (N-1), r = row - N) a cell exists when
  |q| <= N-1, |r| <= N-1 and |q+r| <= N-1; the neighbours of a cell differ by
  (+1,0), (-1,0), (0,+1), (0,-1), (+1,-1), (-1,+1); distance is
  max(|dq|, |dr|, |dq+dr|). With N = 10 there are 271 cells, the centre is J10,
  row 1 runs J..S, diagonal A holds rows 10..19.
- FB2. Influence. A claimed cell gives its claimer R+1-d influence on every cell
  at distance d, 1 <= d <= R (default R = 4: 4, 3, 2, 1). A player's influence on
  a cell is the sum over all of that player's claimed cells. Influence that falls
  off the board is lost.
- FB3. Leader and value. For a cell that nobody has claimed, the leader is the
  one player whose influence there is strictly highest and above zero. If two or
  more players share the highest influence, the cell is uninfluenced (empty).
  The cell is worth min(leader's influence, 5) points to its leader; a cell worth
  5 is shown as owned. A claimed cell is worth 10 to its claimer and is never
  influenced. Nothing is sticky: leader and value are recomputed from all claims
  after every turn. A player's score is the sum over the cells they claimed or
  lead.
- FB4. The rule text's worked examples under FB1-FB3: Ada alone on I9 scores
  130. The second example says Alan claims J10, but the scores it quotes (114
  and 114, then 183 for Ada after K10 and 189 for Alan after O6) hold only when
  Alan's first claim is J13; J10 gives 80/80. Tests use J13 and keep these
  three results.
- FB5. Orders. Each turn every player sends one claim, sealed until the turn is
  adjudicated, and may replace it until then. A claim is legal when the cell
  exists, is not claimed, and is either uninfluenced or led by the claimer,
  judged on the board at the start of the turn. A player with no legal cell, or
  no orders by the deadline, places nothing that turn.
- FB6. Clashes (two or more players claim the same cell in one turn). Turn 1:
  the clashing players are given the claimed cell and its rotations about the
  centre by 360/k degrees (k = number of clashing players), assigned in a seeded
  order; a clash on the centre cell is treated like a later turn. Later turns,
  two-player game: the turn is re-opened once for new claims from both players
  with a short deadline (option, default 24 h); a second clash or a missing
  order means that turn places nothing. Later turns, three or more players: the
  clashing players place nothing that turn; the others place as ordered.
- FB7. The game ends after the turn on which no uninfluenced, unclaimed cell is
  left. Option `max_turns` (default none) ends it earlier.
- FB8. A turn on which no claim is placed (every claim clashed, nobody had a
  legal cell, nobody sent one) is an empty turn. After `empty_turns` empty
  turns in a row (option, default 3) the game ends, scored as it stands. This
  ends the case of two players whose only legal cell is the same one.
## Phalanx (`rules/phalanx.txt`)
- PH1. Board: hexagonal board of hexagonal cells, side N (option, default 8,
  169 cells), coordinates as FB1. Lines of movement are the three axes.
- PH2. A turn is: zero or more growths, then zero or more moves, in the order
  written. A turn with neither is a pass; two passes in a row end the game.
- PH3. Growth. Every new man stands on a vacant cell adjacent to at least one of
  the mover's groups as they were at the start of the turn, and no such group
  is adjacent to more than one new man. (This allows one man to join two groups,
  and two touching new men to join two groups, but never two men added to one
  group.) A group that received a man may not move this turn.
- PH4. Moving a group. Only groups that received no man may move, each at most
  once per turn; a group that a moving group connects to loses its right to
  move; fragments of a moved group cannot move again this turn. A move names a
  head (an end man of a straight run of the mover's men) and a tail (any other
  man of that run); n = men from tail to head inclusive (n >= 2); the move
  distance k satisfies 1 <= k <= n-1. The men from tail to head shift k cells in
  the head's direction; men of the run behind the tail stay.
- PH5. The k cells beyond the head must exist and hold no wall and no man of the
  mover's colour. Enemy men in those cells are captured. For every straight
  enemy run of two or more men along the line of movement that contains a
  captured man, n must be greater than that run's full length, else the move is
  illegal. Each cell where an enemy man was captured becomes a wall; the mover's
  man that would land there returns to the mover's supply.
- PH6. Score = vacant cells connected (through vacant cells) to men of one
  colour only, minus prisoners the opponent took. Walls and men block.
- PH7. Opening (pie). Option `pie`: `small` (default: 1 red, 2 yellow) or
  `large` (2 red, 3 yellow). The first listed player places those men; the
  other player chooses a colour; then Red places one more red man; then Yellow
  takes the first normal turn.
- PH8. Option `max_turns` (default 300) ends a game that never passes twice.
  Every normal turn of either player counts as one (300 = 150 each).
## Proximity (`rules/proximity.txt`)
- PX1. Equipment: two piecepack suits (option, default Suns and Moons; a
  piecepack has Suns, Moons, Crowns, Arms, values null=0, ace=1, 2..5). Coins per
  player: option, default 7 as the text says (a standard piecepack has 6).
- PX2. Layout: a 3x3 board of the ten non-null tiles less one, dealt by the
  seeded generator; the tenth is the throne tile, off the board, face up. Each
  null tile sits outside the middle of one side of the 3x3, so it is adjacent
  (8-neighbourhood) to the three tiles of that side.
- PX3. The player whose suit matches the throne tile moves first.
- PX4. Ages. A piece's age is the number of moves it has made. A suit's pieces
  form a chain by age: pawn, oldest coin, ..., youngest coin, then 0. "In
  proximity" means: age minus the age of the next piece down the chain (or 0)
  is at most the open sum (<=). The open sum is taken at the start of the turn
  and counts every tile with no piece on it, the throne tile included.
- PX5. A pawn moves to an adjacent unoccupied tile of the 3x3 (never a null
  tile, never the throne). A coin of age a moves only to the tile its pawn
  entered on the pawn's (a+1)-th move, and only if that tile is unoccupied.
- PX6. Ace check, after a move onto an ace of suit X: each player's sum is
  (values of tiles of the other suit that player occupies) minus (values of
  tiles of suit X that player occupies). The single highest sum's player puts a
  new coin (age 0) on their own null tile, unless they have no coin left out of
  play or that null tile is occupied. A tie introduces nothing. No check after
  a sacrifice, promotion or introduction.
- PX7. A player with no legal move must sacrifice one piece. A coin may be
  sacrificed only if the piece above it in the chain is then in proximity to the
  piece below it (or 0). The pawn may always be sacrificed; then the oldest coin
  of that suit becomes the pawn, keeping its age; the trail is cut back to the
  tiles that coin had walked, and the new pawn extends it from there. A player
  who sacrifices the pawn with no coin to promote loses.
- PX8. The chess clock becomes a per-player time bank (option, default off)
  spent between a report being sent and that player's move arriving.
- PX9. The report shows the trail table of the rules' "Noting Moves" section:
  each suit's trail of tiles, one column per piece, struck-through rows after a
  promotion.
- PX10. A report stays readable at any game length: each promotion's struck
  rows are shown as one line (how many rows, which turn), and past 40 live rows
  the table shows the rows where pieces stand and the rows they move to next,
  with the skipped stretches counted. Every piece's tile and next tile stay
  visible. The full table, every row of it with the struck rows shown and
  marked as struck, is sent on request (a TRAIL command) and kept in the
  archive.
## Pivot Pawns (`rules/pivot-pawns.txt`)
- PP1. The physical card list is not published. The deck is PG(3,2): cards are
  the 15 points, icons the 35 lines; the destination of a pivot is the third
  point of the line through the two pawns' cards (XOR of their vectors in
  GF(2)^4). The deck must satisfy: 7 icons per card, each icon on 3 cards, any two
  cards share exactly one icon, 7 icons of each of the 5 colours, each card's
  centre icon is one of its icons and no two cards share a centre icon, 3 centre
  icons per colour. Icons have names; the five starting cards' centre icons are
  music notes, flask, Mars symbol, leaf and sun, of five different colours. The
  five starting cards must span GF(2)^4 (otherwise 8 of the 15 targets can
  never be reached). One construction that meets all of this: card i = alpha^i
  in GF(16) with alpha^4 = alpha + 1; lines L_i = {i, i+1, i+4},
  M_i = {i, i+2, i+8} (mod 15), S_k = {k, k+5, k+10}; centre of card i = L_i;
  colour of L_i, M_i, S_i = i mod 5; starting cards {0, 1, 2, 9, 13}.
- PP2. Set-up: the tableau layout (3 rows x 5 columns) is shuffled by the
  seeded generator; pawns are placed on the starting cards, each on a card whose
  centre colour differs from its own (seeded choice among such placements).
- PP3. A round: a target token is drawn; the active pawn is the one of the
  token's colour; the target card is the card whose centre icon is the token.
  Players send bids (a number of pivots) with a sealed solution (a list of
  pivots: moving pawn, pivot pawn). Bids are announced to all players when
  received; solutions are not. A player may lower a bid, never raise it; the
  latest solution sent with the current bid counts.
- PP4. Bidding closes at the earliest of: every player has bid; the timer
  (option, default 24 h) after the first bid; the round deadline. Then bids are
  tried lowest first, ties in the order the bids were made; the first valid
  solution wins the token. Valid: every pivot legal in sequence, and the active
  pawn reaches the target card within the bid. The solution ends when the
  active pawn lands on the target card: pivots written after that landing are
  ignored, so such a solution is accepted when sent and valid if the landing
  comes within the bid. A bid of 0 is valid when the active pawn already stands
  on the target card. A bid that arrives after the timer ran out is late (G4).
- PP5. A pawn may not land on a card whose centre icon has its own colour,
  unless that card is this round's target card. Only the destination card's
  colour is checked.
- PP6. After a success the pawns stay where the solution left them; otherwise
  they stay where they were, and the token is discarded. After 15 rounds the most
  tokens wins. The round report also shows the fewest pivots possible and one
  such solution.
## Neighbors (`rules/neighbors.txt`)
- NB1. Board 7 files (a..g) x 6 rows (1..6). 8 queens, 8 rooks, 8 bishops, 8
  knights, 10 ferzes laid out by the seeded generator, one per square.
- NB2. Every piece is shared; a move is a capture; passing is not allowed.
  Queens, rooks and bishops capture along lines as in chess and are blocked by
  the first piece in the way; knights jump; a ferz captures one square
  diagonally.
- NB3. Turn order is the order of the player list. The game ends when the
  player to move has no legal capture.
- NB4. Two players: for each piece type, whoever captured strictly more of it
  scores 1 point; equal counts score nothing. Three or more players: ferz 1,
  knight 2, bishop 3, rook 5, queen 8 per captured piece.
- NB5. Option `neighbors_rule` (default off): a capture must be made by a piece
  standing, before it moves, on the file or the row of the square where the
  previous move landed; the first move of the game is free. The rule text's
  example (pieces F e6, F d5, R b4, N d4, B f4, F b2, Q d2, Q f2; after Rb4xd4)
  leaves 13 legal captures without the option and 9 with it.
"""

_ITEM = re.compile(r"^- ([A-Z]+)(\d+)\. (.*?)(?=^- |^## |\Z)", re.M | re.S)


def _items() -> dict[str, str]:
    return {prefix + number: " ".join(body.split())
            for prefix, number, body in _ITEM.findall(SOURCE)}


# Ruling name ("G4", "PP4") -> its text, white space folded to single spaces.
RULINGS: dict[str, str] = _items()


def prefix_of(name: str) -> str:
    return name.rstrip("0123456789")


def rulings(*prefixes: str) -> dict[str, str]:
    """The rulings whose prefix is one of ``prefixes``, in the order of the prefixes."""
    for prefix in prefixes:
        if not any(prefix_of(name) == prefix for name in RULINGS):
            raise KeyError(f"no rulings with prefix {prefix!r}")
    return {name: RULINGS[name] for prefix in prefixes
            for name in RULINGS if prefix_of(name) == prefix}


def help_lines(prefix: str, width: int = 72, indent: str = "    ") -> list[str]:
    """The general rulings and those of ``prefix``, each as ``NAME. text``, wrapped.

    Words are never broken (nor at hyphens), so folding the lines' white space
    gives back each ruling exactly as RULINGS.md has it.
    """
    lines: list[str] = []
    for name, text in rulings("G", prefix).items():
        if lines:
            lines.append("")
        lines.extend(textwrap.wrap(f"{name}. {text}", width, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False))
    return lines


def help_block(prefix: str, width: int = 72) -> str:
    """``help_lines`` as one text, ending in a newline."""
    return "\n".join(help_lines(prefix, width)) + "\n"
