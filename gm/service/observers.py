"""Observers: addresses that follow a game without playing it (OBSERVE, UNOBSERVE).

An observer receives what the archive shows: every report in the observer's
view (gm.present.reports.OBSERVER: no seat's private lines or sealed orders)
and public press (PRESS TO ALL); never a player's own mail, and it cannot
order.  The game's ``observers`` option says who may: ``none``, ``open``
(anyone; the default) or ``approved`` (the GM approves each with
``gm observers ID --approve ADDRESS``).  OBSERVE needs no password (the From
address is the observer), so its answers are rate-limited like HELP.  Every
mail to an observer carries ``List-Unsubscribe: <mailto:gm@host?subject=UNOBSERVE%20<id>>``,
which a mail program turns into a one-click UNOBSERVE.
"""

from __future__ import annotations

from gm.core.model import GameView, ServiceError, Status
from gm.mail.inbound import Inbound
from gm.service import deadlines
from gm.service.answers import done, refuse
from gm.service.context import Context


def unsubscribe_header(ctx: Context, game_id: str) -> tuple[str, str]:
    """The List-Unsubscribe of an observer's mail: a mailto whose subject is UNOBSERVE <id>."""
    return ("List-Unsubscribe", f"<mailto:{ctx.config.address}?subject=UNOBSERVE%20{game_id}>")


def following(ctx: Context, game_id: str) -> list[str]:
    """The addresses that receive this game's public mail now."""
    return ctx.store.observers_of(game_id, approved=True)


def send(ctx: Context, view: GameView, label: str, body: str, kind: str = "notice",
         not_before: float | None = None) -> None:
    """One public mail (a report in the observer's view, public press) to every observer."""
    for address in following(ctx, view.id):
        ctx.outbox.to_game(view, address, label, body, kind=kind, not_before=not_before,
                           headers=(unsubscribe_header(ctx, view.id),))


# --- OBSERVE / UNOBSERVE ---------------------------------------------------------------------
def _game_row(ctx: Context, inbound: Inbound, args: str, command: str):
    words = args.split()
    if len(words) != 1:
        refuse(ctx, inbound, None, "Not done", f"{command} {args[:60]}: write {command} <game id>, "
               f"e.g. {command} nb7. Send LIST for the games here.")
        return None
    row = ctx.store.game(words[0].lower())
    if row is None:
        refuse(ctx, inbound, None, "No such game", f"{command} {words[0][:40]}: there is no game "
               f"called {words[0][:40]!r} here. Send LIST for the games here.")
    return row


def observe(ctx: Context, view, player, args: str, inbound: Inbound) -> None:
    """OBSERVE <id>: the From address follows the game (no password: it is only public mail)."""
    row = _game_row(ctx, inbound, args, "OBSERVE")
    if row is None:
        return
    game_id, sender = row["id"], inbound.sender
    mode = deadlines.settings(ctx.store, game_id)["observers"]
    if mode == "none":
        refuse(ctx, inbound, None, "Not observing", f"Game {game_id} takes no observers.")
        return
    if any(p["active"] for p in ctx.store.players_at(game_id, sender)):
        refuse(ctx, inbound, None, "Not observing", f"You play in game {game_id} from this "
               "address, so you get its mail already.")
        return
    if row["status"] == Status.FINISHED:
        refuse(ctx, inbound, None, "Not observing", f"Game {game_id} is over; send LIST {game_id} "
               "for its result.")
        return
    known = ctx.store.observer(game_id, sender)
    if known is not None:
        state = "you follow it already" if known["approved"] else "your request waits for the game master"
        done(ctx, inbound, None, "Observing", f"Game {game_id}: {state}. UNOBSERVE {game_id} stops it.",
             kind="help", game_id=game_id)
        return
    ctx.store.add_observer(game_id, sender, mode == "open", ctx.clock())
    ctx.store.log(game_id, 0, sender, "observe", "approved" if mode == "open" else "asks approval",
                  ctx.clock())
    if mode == "open":
        text = (f"You now follow game {game_id}: gm mails you every report as an observer sees it, "
                "and the press sent to all players. Observers see no sealed order and cannot "
                f"order. UNOBSERVE {game_id} stops it.")
    else:
        text = (f"Game {game_id} takes observers the game master approves: your request is "
                "recorded, and gm tells you when it is approved.")
    done(ctx, inbound, None, "Observing" if mode == "open" else "Observer request recorded", text,
         kind="help", game_id=game_id)


def unobserve(ctx: Context, view, player, args: str, inbound: Inbound) -> None:
    """UNOBSERVE <id> (also the List-Unsubscribe mailto): the From address stops following."""
    row = _game_row(ctx, inbound, args, "UNOBSERVE")
    if row is None:
        return
    if not ctx.store.remove_observer(row["id"], inbound.sender):
        refuse(ctx, inbound, None, "Not observing", f"This address does not follow game {row['id']}.")
        return
    ctx.store.log(row["id"], 0, inbound.sender, "unobserve", "", ctx.clock())
    done(ctx, inbound, None, "No longer observing", f"You no longer follow game {row['id']}; gm "
         "sends you none of its mail from now on.", kind="help", game_id=row["id"])


# --- the game master ----------------------------------------------------------------------
def manage(ctx: Context, game_id: str, approve: list[str] = (), remove: list[str] = ()) -> str:
    """`gm observers ID [--approve ADDRESS] [--remove ADDRESS]`: approve or drop observers; the
    list of who follows and who waits."""
    with ctx.store.write():
        row = ctx.store.game(game_id.strip().lower())
        if row is None:
            raise ServiceError(f"no game called {game_id!r}")
        game_id = row["id"]
        for address in approve:
            if not ctx.store.approve_observer(game_id, address):
                raise ServiceError(f"{address} has not asked to observe game {game_id}; nothing changed")
            ctx.store.log(game_id, 0, "gm", "observer approved", address.lower(), ctx.clock())
            ctx.outbox.queue(address.lower(), f"[gm] You now follow game {game_id}",
                             ctx.outbox.render("answer", lines=[
                                 f"The game master approved you as an observer of game {game_id}: "
                                 "gm mails you its reports from now on. UNOBSERVE "
                                 f"{game_id} stops it."], game_id=None),
                             kind="notice", game_id=game_id, headers=(unsubscribe_header(ctx, game_id),))
        for address in remove:
            if not ctx.store.remove_observer(game_id, address):
                raise ServiceError(f"{address} does not observe game {game_id}; nothing changed")
            ctx.store.log(game_id, 0, "gm", "observer removed", address.lower(), ctx.clock())
    lines = [f"observers of {game_id}: " + (", ".join(following(ctx, game_id)) or "none")]
    waiting = ctx.store.observers_of(game_id, approved=False)
    if waiting:
        lines.append("waiting for approval: " + ", ".join(waiting))
    return "\n".join(lines)
