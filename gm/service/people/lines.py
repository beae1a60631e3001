"""A player's conditional lines by mail (RULINGS G8): IF ... THEN lines kept, LINES and CLEAR.

Each line is checked when it comes against the positions it would meet, step by step, with the
game's own order parser for the player whose move it is there; a line with a step that is
malformed or illegal is refused whole, with the reason, and nothing of it is kept.  A seat
keeps at most MAX_LINES lines of at most MAX_MOVES moves.  Lines are sealed: only their sender
(and the GM: gm lines) ever sees them; gm.service.play.conditional plays them.
"""

from __future__ import annotations


from typing import Any

from games.base import OrderError
from games.text import mark, Plural, reason, Text
from gm.core.model import GameView, Status
from gm.mail import conditional as words
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.outgoing.answers import done, refuse
from games.text import in_lines
from gm.store.lines import LineRow

MAX_LINES = words.MAX_LINES  # lines a seat keeps in one game
MAX_MOVES = words.MAX_MOVES  # moves one line names, everyone's counted
KEPT = mark("Kept: {line}")  # a line kept, as the answer says it
Moves = list[tuple[str, str]]  # (player, move in the game's canonical notation)


def check(view: GameView, name: str, steps: list[words.Step], now: float) -> Moves:
    """The moves a line names, each checked at the position it would meet from ``view``;
    ValueError saying which step is wrong and why."""
    named = sum(len(step.theirs) + 1 for step in steps)
    if named > MAX_MOVES:  # said before any move is judged: a long line costs nothing
        raise ValueError(Text("it names {named} moves; a line names at most {most}", named=named, most=MAX_MOVES))
    state = view.state
    moves: Moves = []
    for step in steps:
        for text in step.theirs:
            mover = _next_mover(view, state, text)
            if mover == name:
                raise ValueError(Text("before {move} it would be your turn: an IF part names only the "
                                      "other players' moves between your turns", move=text))
            state = _play(view, state, mover, text, moves, now)
        mover = _next_mover(view, state, step.mine)
        if mover != name:
            raise ValueError(Text("before THEN {move} it would be {mover}'s turn, not yours: name every "
                                  "other player's move before yours, separated by {separator}",
                                  move=step.mine, mover=mover, separator=words.SEPARATOR))
        state = _play(view, state, name, step.mine, moves, now)
    return moves


def _next_mover(view: GameView, state: Any, text: str) -> str:
    rules = view.rules
    movers = [] if rules.is_over(state) else rules.to_move(state)
    if len(movers) != 1:
        raise ValueError(Text("the game would be over before {move}", move=text))
    return movers[0]


def _play(view: GameView, state: Any, mover: str, text: str, moves: Moves, now: float) -> Any:
    """The state after ``mover`` plays ``text``; the move, canonical, appended to ``moves``."""
    rules = view.rules
    try:
        order = rules.parse_order(state, mover, text)
        result = rules.submit(state, mover, order, now)
    except OrderError as exc:
        raise ValueError(Text("{move} ({mover}'s move) would be refused: {why}", move=text, mover=mover,
                              why=reason(exc))) from None
    moves.append((mover, str(order)))
    return result.state


def refusal(view: GameView, name: str) -> str | None:
    """Why ``name`` may send no lines in this game now, or None."""
    if view.rules.simultaneous:
        return Text("{title} has no conditional orders (RULINGS G8): its turns are simultaneous; only "
                    "Neighbors, Phalanx and Proximity take IF ... THEN lines.", title=view.rules.title)
    player = view.player(name)
    if view.status == Status.FINISHED or view.rules.is_over(view.state):
        return Text("game {game} is over.", game=view.id)
    if player is None or not player.active:
        return Text("you have left this game.")
    return None


def take(ctx: Context, view: GameView, name: str, texts: list[str], inbound: Inbound | None) -> None:
    """Keep the IF lines of a mail from the position ``view`` and answer what became of them."""
    told = keep(ctx, view, name, texts)
    if inbound is not None:
        tell(ctx, inbound, view, name, told)


def keep(ctx: Context, view: GameView, name: str, texts: list[str]) -> list[str]:
    """Check and keep the IF lines of a mail, from the position ``view`` (after the mail's order,
    if it had one); what to tell the sender: each line kept, or refused and why."""
    why = refusal(view, name)
    if why is not None:
        return [Plural("{n} IF line(s) not kept: {why}", "{n} IF line(s) not kept: {why}", n=len(texts), why=why)]
    told, room = [], MAX_LINES - len(standing(ctx, view.id, name))
    for text in texts[:2 * MAX_LINES]:
        try:
            if room <= 0:
                raise ValueError(Text("you have {most} lines standing, the most a seat keeps (CLEAR "
                                      "ends them)", most=MAX_LINES))
            moves = check(view, name, words.read_line(text), ctx.clock())
        except ValueError as exc:
            told.append(Text("Refused, nothing of it kept: {line}\n    {why}", line=shown(text), why=reason(exc)))
            continue
        ctx.store.lines.add(view.id, name, view.seq, moves, text, ctx.clock())
        told.append(Text(KEPT, line=shown(text)))
        room -= 1
    if len(texts) > 2 * MAX_LINES:
        told.append(Plural("{n} more IF line(s) not read: a seat keeps at most {most}.",
                           "{n} more IF line(s) not read: a seat keeps at most {most}.",
                           n=len(texts) - 2 * MAX_LINES, most=MAX_LINES))
    return told


def tell(ctx: Context, inbound: Inbound, view: GameView, name: str, told: list[str]) -> None:
    """The answer to a mail's IF lines: what ``keep`` said, then the lines standing now."""
    standing_now = [] if view.rules.simultaneous else ["", *listing(ctx, view.id, name)]
    text = in_lines(told + standing_now)
    if any(getattr(line, "template", "") == KEPT for line in told):
        done(ctx, inbound, view, Text("Conditional lines"), text, archive_player=name)
    else:
        refuse(ctx, inbound, view, Text("Lines refused"), text)


def shown(text: str, width: int = 200) -> str:
    """A line as echoed back: cut at ``width`` characters."""
    return text if len(text) <= width else text[:width] + "..."


def standing(ctx: Context, game_id: str, name: str) -> list[LineRow]:
    """The lines of ``name`` standing in a game, oldest first."""
    return [line for line in ctx.store.lines.of_game(game_id) if line.player == name]


def listing(ctx: Context, game_id: str, name: str) -> list[str]:
    """What LINES says: each standing line of ``name`` by its moves still to come."""
    lines = standing(ctx, game_id, name)
    if not lines:
        return [Text("You have no conditional lines standing in this game.")]
    return [Text("Your conditional lines standing ({count} of at most {most}; the later one counts "
                 "where two name the same moves):", count=len(lines), most=MAX_LINES)] + [
        f"  {i}. {' '.join(move_words(line.moves, name))}" for i, line in enumerate(lines, 1)]


def move_words(moves: Moves, name: str) -> list[str]:
    """A line's moves still to come, as IF ... THEN ... words (the sender's after THEN)."""
    out, theirs = [], []
    for who, move in moves:
        move = " ".join(move.split())  # a Phalanx turn's clauses on one line
        if who != name:
            theirs.append(f"{who} {move}")
            continue
        out.append(f"IF {f' {words.SEPARATOR} '.join(theirs)} THEN {move}")
        theirs = []
    return out


def lines_command(ctx: Context, view: GameView, player: Any, args: str, inbound: Inbound) -> None:
    """LINES [<id>]: the sender's standing lines, to the sender alone."""
    if not _names_this_game(ctx, view, "LINES", args, inbound):
        return
    done(ctx, inbound, view, Text("Conditional lines"), in_lines(listing(ctx, view.id, player.name)),
         archive_player=player.name)


def clear_command(ctx: Context, view: GameView, player: Any, args: str, inbound: Inbound) -> None:
    """CLEAR [<id>]: end every line the sender has standing (RULINGS G8)."""
    if not _names_this_game(ctx, view, "CLEAR", args, inbound):
        return
    gone = ctx.store.lines.clear(view.id, player.name)
    done(ctx, inbound, view, Text("Conditional lines"), Plural(
        "{n} conditional line(s) ended (RULINGS G8). You have none standing in this game.",
        "{n} conditional line(s) ended (RULINGS G8). You have none standing in this game.",
        n=gone), archive_player=player.name)


def _names_this_game(ctx: Context, view: GameView, word: str, args: str, inbound: Inbound) -> bool:
    """The command names no game or this one; else it is refused, saying how to write it."""
    if args.split() in ([], [view.id]) or args.lower().split() == [view.id]:
        return True
    refuse(ctx, inbound, view, Text("Not done"), Text(
        "{word} {args}: write {word} or {word} {game} under GAME {game} PASSWORD ...", word=word,
        args=args[:40], game=view.id))
    return False
