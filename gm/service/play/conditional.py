"""Conditional lines played (RULINGS G8): after each move, the lines follow it, and a line whose
next step is the mover-to-be's own move plays it at once, in the same transaction.

``follow`` runs after every move of a sequential game (gm.service.play.turns.apply_order): a line
naming that move goes one step on, a line naming another move is dropped, and the mover's own
lines end when they moved other than from a line (the lines their mail sends with the move are
kept first, from the position after it: gm.service.people.lines).  Then ``answer`` plays, for
the player now to move, the later of their lines whose next step is theirs, judged as if it
had arrived then (G4); its own follow may answer again, so a chain of moves is one transaction.
A move played so is stored with origin LINE: ``answered_by_line`` tells a takeback (G9) so.
"""

from __future__ import annotations

from typing import Any, Callable

from games.text import reason, Text
from games.base import OrderError
from gm.core.model import GameView, Status
from gm.mail import orders as order_mail
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.outgoing import reports
from gm.service.people import lines

LINE = "line"  # the origin of an order played from a conditional line (orders.origin)
Play = Callable[..., Any]  # gm.service.play.turns.apply_order


def follow(ctx: Context, after: GameView, mover: str, move: str, *, origin: str,
           inbound: Inbound | None, play: Play, now: float) -> None:
    """Bring every line of the game past ``mover``'s ``move`` (canonical), which made ``after``;
    keep the IF lines of the mail that sent it; then play the line now due, if one is."""
    if after.rules.simultaneous:
        return
    for line in ctx.store.lines.of_game(after.id):
        rest = moved_on(line, mover, move, origin)
        if rest is None:
            ctx.store.lines.drop(line.id)
        else:
            ctx.store.lines.follow(line.id, after.seq, rest)
    sent = order_mail.read(inbound.subject, inbound.text).if_lines \
        if origin == "mail" and inbound is not None else []
    told = lines.keep(ctx, after, mover, sent) if sent else []
    answer(ctx, after, play, now)
    if told and inbound is not None:
        lines.tell(ctx, inbound, after, mover, told)


def moved_on(line: Any, mover: str, move: str, origin: str) -> Any | None:
    """The steps ``line`` has still to come once ``mover`` made ``move`` (sent from ``origin``);
    None when it ends: an order of its sender's own for the turn in hand ends the lines before
    it, and a line naming another move, or used up, ends."""
    steps = line.moves
    if line.player == mover and origin != LINE:
        return None
    if not steps or steps[0] != (mover, move) or len(steps) == 1:
        return None
    return steps[1:]


def due(ctx: Context, view: GameView) -> tuple[str, Any] | None:
    """(the player to move, their line whose next step is their own move: the later of such
    lines), or None; the lines of a game that is over or paused are never due."""
    rules = view.rules
    if view.status != Status.ACTIVE or rules.is_over(view.state):
        return None
    movers = rules.to_move(view.state)
    if len(movers) != 1:
        return None
    name = movers[0]
    mine = [line for line in lines.standing(ctx, view.id, name) if line.moves and line.moves[0][0] == name]
    return (name, mine[-1]) if mine else None


def answer(ctx: Context, view: GameView, play: Play, now: float) -> None:
    """Play the line now due, if one is: its move judged now, as if it had arrived (RULINGS G8).
    A move illegal now drops its line and tells its sender; the turn waits for them."""
    found = due(ctx, view)
    if found is None:
        return
    name, line = found
    move = line.moves[0][1]
    player = view.player(name)
    try:
        if player is None or not player.active:
            raise OrderError(Text("you have left this game"))
        view.rules.submit(view.state, name, view.rules.parse_order(view.state, name, move), now)
    except OrderError as exc:
        ctx.store.lines.drop(line.id)
        reports.notice(ctx, view, [name], [
            Text("Your conditional move {move} could not be played: {why}.", move=move, why=reason(exc)),
            Text("That line is dropped (RULINGS G8); the turn waits for your order as usual."),
            *lines.listing(ctx, view.id, name)], Text("Conditional move dropped"))
        return
    note = Text("{name}'s move {move} was played from a conditional order (RULINGS G8).", name=name, move=move)
    play(ctx, view, name, move, origin=LINE, now=now, note=note, own_note=still_standing(ctx, view, name, move))


def still_standing(ctx: Context, view: GameView, name: str, move: str) -> str:
    """The line of ``name``'s own report of their conditional ``move``: the lines they have left
    once it is played (as ``follow`` will leave them)."""
    left = [rest for line in lines.standing(ctx, view.id, name)
            if (rest := moved_on(line, name, move, LINE)) is not None]
    if not left:
        return Text("Your conditional move {move} was played; you have no conditional lines left (RULINGS G8).",
                    move=move)
    return Text("Your conditional move {move} was played; your lines still standing (RULINGS G8):\n{lines}",
                move=move, lines="\n".join(f"  {i}. {' '.join(lines.move_words(rest, name))}"
                                           for i, rest in enumerate(left, 1)))


def answered_by_line(ctx: Context, game_id: str, seq: int) -> bool:
    """The move that made state ``seq`` was answered at once by a move from a conditional line:
    the next accepted order is one (RULINGS G9: such a move cannot be taken back)."""
    rows = [row for row in ctx.store.turns.accepted_orders(game_id) if row.seq is not None and row.seq > seq]
    return bool(rows) and min(rows, key=lambda row: row.seq).origin == LINE


def drop_lines_naming(ctx: Context, game_id: str, seq: int) -> int:
    """End every line that followed the move which made state ``seq``, or was sent after it
    (a takeback undoes that move, RULINGS G9); how many went."""
    gone = [line for line in ctx.store.lines.of_game(game_id) if line.seq >= seq]
    for line in gone:
        ctx.store.lines.drop(line.id)
    return len(gone)


def game_lines(ctx: Context, game_id: str) -> list[str]:
    """Every line standing in a game, for the GM (gm lines): whose, and its moves to come."""
    return [f"{line.player} (sent {line.written!r}): {' '.join(lines.move_words(line.moves, line.player))}"
            for line in ctx.store.lines.of_game(game_id)] or ["no conditional lines standing"]
