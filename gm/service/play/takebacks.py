"""Takebacks (RULINGS G9): TAKEBACK, TAKEBACK ACCEPT and TAKEBACK DECLINE by mail, and gm takeback.

The player who made the last move asks; the ask and the others' accepts are rows of ``takebacks``
naming the state that move made (its seq), and they stand while that state is the game's latest:
the next move (or any other change of the position) ends them.  When every other remaining
player has accepted, ``undo_last_move`` restores the state before the move, recorded as an
orders row with action "takeback" that a replay (gm verify, gm.service.records.audit) restores
again (G1), and opens that player's turn again.  The GM's gm takeback calls the same function.
Every player is told of the ask, each answer and the undo.  The games whose rules have the
option ``takebacks`` (the sequential ones) offer them, when it is on.
"""

from __future__ import annotations

import json

from games.text import reason, Text
from games import registry
from gm.core.model import GameView, ServiceError, Status
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.outgoing import reports
from gm.service.outgoing.answers import done, refuse
from gm.service.play import conditional
from gm.service.play.overrides import default_actor, required_reason
from gm.service.table import games
from gm.store.gamerows import OrderRow
from gm.store.locks import retried

OPTION = "takebacks"  # the rules' option (games/*/rules.py); on by default
ASK, ACCEPT = "ask", "accept"  # the answers a takebacks row holds
NOT_DONE = Text("Not done")


def offered(view: GameView) -> bool:
    """The game's rules have takebacks at all (Neighbors, Phalanx, Proximity: one move at a time)."""
    return OPTION in view.rules.options


def enabled(view: GameView) -> bool:
    """Takebacks are on in this game: its rules offer them and its option is not off."""
    return offered(view) and bool(view.rules.check_options(json.loads(view.row.options or "{}"))[OPTION])


def last_move(ctx: Context, view: GameView) -> OrderRow | None:
    """The player's move that made the game's latest state; None when the latest state is the
    set-up, a turn close, a draw, a takeback or the GM's (a rollback, an edit, a seat leaving)."""
    row = ctx.store.turns.order_at(view.id, view.seq)
    return row if row is not None and row.action == "order" and row.player else None


def shown(move: OrderRow) -> str:
    """The move as the players are told it: as the rules wrote it, on one line."""
    return " ".join((move.canonical or move.text).split())


def others(view: GameView, mover: str) -> set[str]:
    """The players who must accept: every other player still in the game."""
    return (set(view.rules.remaining(view.state)) & set(view.seated_names)) - {mover}


def standing(ctx: Context, view: GameView) -> tuple[str, set[str]] | None:
    """(who asked, who accepted) of the takeback that stands now, or None: an ask stands while
    the state its move made is the game's latest."""
    answers = {name: answer for name, (seq, answer) in ctx.store.results.takebacks(view.id).items()
               if seq == view.seq}
    asker = next((name for name, answer in answers.items() if answer == ASK), None)
    if asker is None:
        return None
    return asker, {name for name, answer in answers.items() if answer == ACCEPT}


# --- where the other rulings act on an undo ----------------------------------------------------
def why_not_undone(ctx: Context, view: GameView, move: OrderRow) -> str | None:
    """Why ``move`` may not be taken back beyond G9's own rules, or None: a move answered at once
    by a conditional order (RULINGS G8) stays.  (Such an answer is itself the next move, so the
    check that the move made the latest state refuses it first; this one names the reason.)
    Called when a takeback is asked for and again at the undo."""
    if move.seq is not None and conditional.answered_by_line(ctx, view.id, move.seq):
        return Text("your move {move} was answered at once by a conditional order (RULINGS G8), "
                    "so it cannot be taken back", move=shown(move))
    return None


def before_undo(ctx: Context, view: GameView, move: OrderRow) -> None:
    """What the other rulings do when ``move`` is taken back, inside the undo's write, before the
    state is restored: every conditional line that named the move, or was sent after it, ends
    (G8).  (G10's clock is the state's: the increment taken away and no time given back are
    gm.service.table.games.restored_state's, which the replay runs too.)"""
    if move.seq is not None:
        conditional.drop_lines_naming(ctx, view.id, move.seq)


# --- the undo: one function for the mail and the GM ---------------------------------------------
def undo_last_move(ctx: Context, view: GameView, move: OrderRow, who: str, origin: str,
                   why: str | None = None) -> GameView:
    """Take back ``move`` (the one that made the latest state), inside the caller's write: the state
    before it again (the state two before the takeback's own: what the replay restores), recorded
    as an orders row with action "takeback", that player's turn open again, the takeback's answers
    ended, the history line and a report to every player saying so.  Returns the game after."""
    problem = why_not_undone(ctx, view, move)
    if problem is not None:
        raise ServiceError(problem)
    before_undo(ctx, view, move)
    stored = ctx.store.turns.state_at(view.id, view.seq - 1)
    assert stored is not None  # a move's state follows the one it was judged on
    now = ctx.clock()
    state = games.restored_state(view.rules, view.rules.load(ctx.store.turns.state_data(stored)), view.state,
                                 move.player, now)
    row = dict(action="takeback", player=move.player, turn=view.rules.turn(state), text=move.text,
               accepted=True, origin=origin, at=now, canonical=move.canonical)
    after, table = games.advance(ctx.store, view, state, now, row, opened=now)
    ctx.store.results.end_takebacks(view.id)
    detail = f"{move.player}'s move {shown(move)} taken back" + (f"; why: {why}" if why else "")
    ctx.store.history.log(view.id, after.turn, who, "takeback", detail, now)
    by = Text("by the game master") if origin == "gm" else Text("by agreement")
    taken = dict(player=move.player, move=shown(move), by=by)
    note = Text("{player}'s move {move} is taken back {by} (RULINGS G9): the position is what it was "
                "before it, and it is {player}'s turn again. Reason: {why}", why=why, **taken) if why else \
        Text("{player}'s move {move} is taken back {by} (RULINGS G9): the position is what it was "
             "before it, and it is {player}'s turn again.", **taken)
    reports.queue_reports(ctx, after, [], note=note, table=table)
    return after


@retried
def gm_takeback(ctx: Context, game_id: str, who: str | None = None, why: str | None = None) -> str:
    """`gm takeback`: undo the game's last move now, whatever the option says; the players are told."""
    why = required_reason(why, f"gm takeback {game_id}")
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if not offered(view):
            raise ServiceError(f"{view.rules.title} has no takebacks (RULINGS G9): {games_named()}")
        if view.status == Status.FINISHED or view.rules.is_over(view.state):
            raise ServiceError(f"game {view.id} is over: gm rollback restores an earlier turn")
        move = last_move(ctx, view)
        if move is None:
            raise ServiceError(f"the last change of game {view.id} is not a player's move: there is "
                               "nothing to take back (gm rollback restores an earlier turn)")
        undo_last_move(ctx, view, move, who or default_actor(), "gm", why)
    return f"game {view.id}: {move.player}'s move {shown(move)} taken back; it is {move.player}'s turn again"


def games_named() -> str:
    """The sentence that says which games have takebacks."""
    kinds = [registry.get(kind) for kind in registry.available()]
    titles = [rules.title for rules in kinds if OPTION in rules.options]
    return Text("takebacks are for the games played one move at a time ({titles}).", titles=", ".join(titles))


# --- by mail -----------------------------------------------------------------------------------
def by_mail(ctx: Context, view: GameView, player, command: str, inbound: Inbound) -> None:
    """TAKEBACK (the mover asks), TAKEBACK ACCEPT and TAKEBACK DECLINE (the others answer)."""
    words = command.upper().split()[1:]
    if words not in ([], ["ACCEPT"], ["DECLINE"]):
        refuse(ctx, inbound, view, NOT_DONE, Text("{command}: write TAKEBACK to ask to take back your "
               "last move, or TAKEBACK ACCEPT or TAKEBACK DECLINE to answer another player's ask.",
               command=command[:60]))
        return
    problem = closed(view)
    if problem is not None:
        refuse(ctx, inbound, view, NOT_DONE, problem)
        return
    if not words:
        ask(ctx, view, player.name, inbound)
    else:
        answer(ctx, view, player.name, words[0] == "ACCEPT", inbound)


def closed(view: GameView) -> str | None:
    """Why this game takes no TAKEBACK now, or None."""
    if not offered(view):
        return Text("There are no takebacks in {game} (RULINGS G9): {which}", game=view.rules.title,
                    which=games_named())
    if not enabled(view):
        return Text("Takebacks are off in game {game} (its option takebacks=off, RULINGS G9).", game=view.id)
    if view.status == Status.FINISHED or view.rules.is_over(view.state):
        return Text("Game {game} is over: there is no move to take back.", game=view.id)
    if view.status == Status.PAUSED:
        return Text("Game {game} is paused by the game master: try again when it resumes.", game=view.id)
    return None


def ask(ctx: Context, view: GameView, name: str, inbound: Inbound) -> None:
    """The mover asks to take back their last move; the others are asked to answer."""
    move = last_move(ctx, view)
    if move is None or move.player != name:
        whose = Text("the last move was {player}'s", player=move.player) if move is not None else \
            Text("the last change was no move")
        refuse(ctx, inbound, view, NOT_DONE, Text("Only the player who made the last move may ask to take "
               "it back, until the next move is played (RULINGS G9): {whose}.", whose=whose))
        return
    problem = why_not_undone(ctx, view, move)
    if problem is not None:
        refuse(ctx, inbound, view, NOT_DONE, problem)
        return
    found = standing(ctx, view)
    if found is not None:  # asked already: the accepts given stand
        waiting = ", ".join(sorted(others(view, name) - found[1]))
        done(ctx, inbound, view, Text("Takeback asked"), Text("Your ask to take back {move} stands; it "
             "waits for {waiting} (RULINGS G9).", move=shown(move), waiting=waiting), archive_player=name)
        return
    now = ctx.clock()
    ctx.store.results.end_takebacks(view.id)  # an older ask, lapsed
    ctx.store.results.answer_takeback(view.id, name, view.seq, ASK, now)
    ctx.store.history.log(view.id, view.turn, name, "takeback", f"{name} asked to take back {shown(move)}", now)
    if settle(ctx, view, name, inbound):
        return
    done(ctx, inbound, view, Text("Takeback asked"), Text("You asked to take back your move {move}. It is "
         "taken back when every other player still in the game accepts (TAKEBACK ACCEPT) before the "
         "next move is played; the next move, or one TAKEBACK DECLINE, ends your ask (RULINGS G9).",
         move=shown(move)), archive_player=name)
    reports.notice(ctx, view, sorted(set(view.seated_names) - {name}), [
        Text("{name} asks to take back their move {move} (RULINGS G9).", name=name, move=shown(move)),
        Text("To agree, send TAKEBACK ACCEPT; to refuse, TAKEBACK DECLINE (alone or with your orders). "
             "It is taken back when every other player still in the game accepts before the next move "
             "is played; the next move ends the ask.")], Text("Takeback asked"))


def answer(ctx: Context, view: GameView, name: str, accepts: bool, inbound: Inbound) -> None:
    """TAKEBACK ACCEPT or DECLINE from a player other than the one who asked."""
    found = standing(ctx, view)
    if found is None or found[0] == name:
        why = (Text("you asked for it: the other players answer") if found is not None else
               Text("no takeback is asked for the last move (an ask ends when the next move is played)"))
        refuse(ctx, inbound, view, NOT_DONE, Text("TAKEBACK {word}: {why} (RULINGS G9).",
                                                  word="ACCEPT" if accepts else "DECLINE", why=why))
        return
    asker, accepted = found
    if not accepts:
        decline(ctx, view, name, asker, inbound)
        return
    ctx.store.results.answer_takeback(view.id, name, view.seq, ACCEPT, ctx.clock())
    ctx.store.history.log(view.id, view.turn, name, "takeback", f"{name} accepted {asker}'s takeback",
                          ctx.clock())
    if settle(ctx, view, name, inbound):
        return
    waiting = ", ".join(sorted(others(view, asker) - accepted - {name}))
    done(ctx, inbound, view, Text("Takeback accepted"), Text("You accepted {asker}'s takeback; it waits for "
         "{waiting} (RULINGS G9).", asker=asker, waiting=waiting), archive_player=name)
    reports.notice(ctx, view, sorted(set(view.seated_names) - {name}), [
        Text("{name} accepts {asker}'s takeback (RULINGS G9); it waits for {waiting}.", name=name, asker=asker,
             waiting=waiting)], Text("Takeback accepted"))


def decline(ctx: Context, view: GameView, name: str, asker: str, inbound: Inbound) -> None:
    """A player refuses the takeback: the ask ends and the move stands; everyone is told."""
    ctx.store.results.end_takebacks(view.id)
    ctx.store.history.log(view.id, view.turn, name, "takeback", f"{name} declined {asker}'s takeback",
                          ctx.clock())
    done(ctx, inbound, view, Text("Takeback declined"), Text("You declined {asker}'s takeback: the move stands "
         "(RULINGS G9).", asker=asker), archive_player=name)
    reports.notice(ctx, view, sorted(set(view.seated_names) - {name}), [
        Text("{name} declines {asker}'s takeback (RULINGS G9): the move stands.", name=name, asker=asker)],
        Text("Takeback declined"))


def settle(ctx: Context, view: GameView, name: str, inbound: Inbound) -> bool:
    """Undo the move if every other remaining player has accepted the takeback that stands (after
    an ask or an accept by ``name``); True if it was undone."""
    found = standing(ctx, view)
    move = last_move(ctx, view)
    if found is None or move is None or not others(view, found[0]) <= found[1]:
        return False
    try:
        undo_last_move(ctx, view, move, name, "mail")
    except ServiceError as exc:
        ctx.store.results.end_takebacks(view.id)
        refuse(ctx, inbound, view, NOT_DONE, reason(exc))
        return True
    done(ctx, inbound, view, Text("Move taken back"), Text("Every other player still in the game accepted: "
         "{player}'s move {move} is taken back (RULINGS G9). The report follows.", player=move.player,
         move=shown(move)), archive_player=name)
    return True
