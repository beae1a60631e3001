"""Observers: addresses that follow a game without playing it (OBSERVE, UNOBSERVE).

An observer gets what the archive shows: each report in the observer's view
(gm.present.reports.OBSERVER) and public press, never a player's own mail.
The game's ``observers`` option: ``none``, ``open`` (the default) or
``approved`` (by the GM).  OBSERVE takes effect when its address answers the
code gm mails it (gm.service.people.optin), up to config ``max_observers``.
Every mail to an observer carries List-Unsubscribe (RFC 2369): the observer's
own signed address (gm.service.outgoing.replies), where any mail ends that one
subscription; UNOBSERVE from the address itself waits for a code, as OBSERVE.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from games.text import Text
from gm.core.model import GameView, ServiceError, Status
from gm.service.table import deadlines
from gm.service.outgoing.answers import done, refuse
from gm.service.outgoing.letters import Letter
from gm.service.context import Context
from gm.store.gamerows import GameRow
from gm.store.locks import retried

if TYPE_CHECKING:
    from gm.mail.inbound import Inbound


def unsubscribe_header(ctx: Context, game_id: str, address: str) -> tuple[str, str]:
    """The List-Unsubscribe of a mail to the observer ``address``: a mailto of its unsubscribe
    address; with reply tokens off, of our address with the subject UNOBSERVE <id>."""
    mine = ctx.outbox.tokens.unsubscribe_address(game_id, address)
    if mine is not None:
        return ("List-Unsubscribe", f"<mailto:{mine}?subject=unsubscribe>")
    return ("List-Unsubscribe", f"<mailto:{ctx.config.address}?subject=UNOBSERVE%20{game_id}>")


def following(ctx: Context, game_id: str) -> list[str]:
    """The addresses that receive this game's public mail now."""
    return ctx.store.selfservice.observers_of(game_id, approved=True)


def letters(ctx: Context, view: GameView, label: str, body: str | Callable[[], str],
            kind: str = "notice", not_before: float | None = None) -> list[Letter]:
    """One public mail (a report in the observer's view, public press) to every observer, for
    the outbox's batch (the archive keeps none of them).  ``body`` may be a function, called
    only when someone follows the game."""
    addresses = following(ctx, view.id)
    if not addresses:
        return []
    text = body() if callable(body) else body
    return [Letter(address, label, text, kind=kind, archived=False, not_before=not_before,
                   headers=(unsubscribe_header(ctx, view.id, address),)) for address in addresses]


def send(ctx: Context, view: GameView, label: str, body: str, kind: str = "notice",
         not_before: float | None = None) -> None:
    """One public mail (a report in the observer's view, public press) to every observer."""
    ctx.outbox.queue_batch(view, letters(ctx, view, label, body, kind, not_before))


# --- OBSERVE / UNOBSERVE ---------------------------------------------------------------------
def game_named(ctx: Context, args: str, command: str) -> GameRow:
    """The games row an OBSERVE/UNOBSERVE line names; ServiceError (the answer) if it names none."""
    words = args.split()
    if len(words) != 1:
        raise ServiceError(Text("{command} {args}: write {command} <game id>, e.g. {command} nb7. "
                                "Send LIST for the games here.", command=command, args=args[:60]))
    row = ctx.store.games.game(words[0].lower())
    if row is None:
        raise ServiceError(Text("{command} {word}: there is no game called {quoted} here. Send LIST "
                                "for the games here.", command=command, word=words[0][:40],
                                quoted=repr(words[0][:40])))
    return row


def observe_request(ctx: Context, args: str, sender: str) -> str:
    """The OBSERVE line to confirm (``OBSERVE <id>``) if the From address may follow that game
    now; ServiceError (the answer) if not.  Checked again when the address confirms."""
    row = game_named(ctx, args, "OBSERVE")
    game_id = row.id
    mode = deadlines.settings(ctx.store, game_id)["observers"]
    if mode == "none":
        raise ServiceError(Text("Game {game} takes no observers.", game=game_id))
    if any(p.active for p in ctx.store.seats.players_at(game_id, sender)):
        raise ServiceError(Text("You play in game {game} from this address, so you get its mail already.",
                                game=game_id))
    if row.status == Status.FINISHED:
        raise ServiceError(Text("Game {game} is over; send LIST {game} for its result.", game=game_id))
    known = ctx.store.selfservice.observer(game_id, sender)
    if known is not None:
        state = Text("you follow it already") if known.approved else \
            Text("your request waits for the game master")
        raise ServiceError(Text("Game {game}: {state}. UNOBSERVE {game} stops it.", game=game_id, state=state))
    selfservice = ctx.store.selfservice
    count = len(selfservice.observers_of(game_id, True)) + len(selfservice.observers_of(game_id, False))
    if count >= ctx.config.max_observers:
        raise ServiceError(Text("Game {game} has as many observers as it takes ({most}).", game=game_id,
                                most=ctx.config.max_observers))
    return f"OBSERVE {game_id}"


def add(ctx: Context, game_id: str, sender: str) -> str:
    """The From address follows the game (it confirmed its OBSERVE); what to tell it.  Inside a
    write; observe_request() has been checked."""
    mode = deadlines.settings(ctx.store, game_id)["observers"]
    ctx.store.selfservice.add_observer(game_id, sender, mode == "open", ctx.clock())
    ctx.store.history.log(game_id, 0, sender, "observe", "approved" if mode == "open" else "asks approval",
                          ctx.clock())
    if mode == "open":
        return Text("You now follow game {game}: gm mails you every report as an observer sees it, "
                    "and the press sent to all players. Observers see no sealed order and cannot "
                    "order. UNOBSERVE {game} stops it.", game=game_id)
    return Text("Game {game} takes observers the game master approves: your request is "
                "recorded, and gm tells you when it is approved.", game=game_id)


def unobserve_request(ctx: Context, args: str, sender: str) -> str:
    """The UNOBSERVE line to confirm (``UNOBSERVE <id>``) if the From address follows that game
    (or waits to); ServiceError (the answer) if not.  Checked again when the address confirms."""
    row = game_named(ctx, args, "UNOBSERVE")
    if ctx.store.selfservice.observer(row.id, sender) is None:
        raise ServiceError(Text("This address does not follow game {game}.", game=row.id))
    return f"UNOBSERVE {row.id}"


def remove(ctx: Context, game_id: str, address: str, how: str = "") -> str:
    """``address`` follows ``game_id`` no more (it confirmed its UNOBSERVE, or mailed its
    unsubscribe address: ``how``); what to tell it.  Inside a write."""
    ctx.store.selfservice.remove_observer(game_id, address)
    ctx.store.history.log(game_id, 0, address, "unobserve", how, ctx.clock())
    return Text("You no longer follow game {game}; gm sends you none of its mail from now on.", game=game_id)


def unsubscribe_mail(ctx: Context, inbound: Inbound, game_id: str, token: str) -> str:
    """A mail to an unsubscribe address (unsubscribe_header), whatever it says and whoever sent
    it: the observer whose token it carries follows the game no more, and is told so; a token
    of nobody following it changes nothing.  What happened, for the log."""
    selfservice = ctx.store.selfservice
    address = ctx.outbox.tokens.unsubscriber(
        game_id, token, selfservice.observers_of(game_id, True) + selfservice.observers_of(game_id, False))
    if address is None:
        refuse(ctx, inbound, None, Text("Not unsubscribed"), Text("This unsubscribe address belongs to "
               "nobody who follows a game here now; nothing was changed."))
        return "unsubscribe address of nobody following"
    text = remove(ctx, game_id, address, "by the List-Unsubscribe address")
    if inbound.sender.lower() == address:
        done(ctx, inbound, None, Text("No longer observing"), text, kind="help", game_id=game_id)
    else:  # the observer is told, not whoever wrote from elsewhere
        ctx.outbox.queue(address, Text("[gm] No longer observing {game}", game=game_id),
                         ctx.outbox.render("answer", lines=[text], game_id=game_id), kind="notice",
                         game_id=game_id)
    return f"unsubscribed {address} from {game_id}"


# --- the game master ----------------------------------------------------------------------
@retried
def manage(ctx: Context, game_id: str, approve: list[str] = (), remove: list[str] = (),
           who: str = "gm", why: str | None = None) -> str:
    """`gm observers ID [--approve ADDRESS] [--remove ADDRESS]`: approve or drop observers; the
    list of who follows and who waits.  ``who`` and ``why`` go into the game's history."""
    because = f"; why: {why}" if why else ""
    with ctx.store.write(games=[game_id]):
        row = ctx.store.games.game(game_id.strip().lower())
        if row is None:
            raise ServiceError(f"no game called {game_id!r}")
        game_id = row.id
        for address in approve:
            if not ctx.store.selfservice.approve_observer(game_id, address):
                raise ServiceError(f"{address} has not asked to observe game {game_id}; nothing changed")
            ctx.store.history.log(game_id, 0, who, "observer approved", address.lower() + because, ctx.clock())
            ctx.outbox.queue(address.lower(), Text("[gm] You now follow game {game}", game=game_id),
                             ctx.outbox.render("answer", lines=[Text(
                                 "The game master approved you as an observer of game {game}: "
                                 "gm mails you its reports from now on. UNOBSERVE {game} stops it.",
                                 game=game_id)], game_id=None),
                             kind="notice", game_id=game_id,
                             headers=(unsubscribe_header(ctx, game_id, address.lower()),))
        for address in remove:
            if not ctx.store.selfservice.remove_observer(game_id, address):
                raise ServiceError(f"{address} does not observe game {game_id}; nothing changed")
            ctx.store.history.log(game_id, 0, who, "observer removed", address.lower() + because, ctx.clock())
    lines = [f"observers of {game_id}: " + (", ".join(following(ctx, game_id)) or "none")]
    waiting = ctx.store.selfservice.observers_of(game_id, approved=False)
    if waiting:
        lines.append("waiting for approval: " + ", ".join(waiting))
    return "\n".join(lines)
