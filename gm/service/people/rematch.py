"""REMATCH by mail: after a two-player game ends, a new game of the same kind and options, seats swapped.

The first REMATCH (with the seat's password or reply address) is an offer: the other seat is
mailed how to accept.  The other seat's REMATCH within OFFER_DAYS starts the new game, in the
same mail's transaction: the same seat names and addresses in the reverse order, the same seed,
options and service settings, new passwords in the welcomes; rated only where players may make
rated games (config player_rated), as CREATE ... RATED: two addresses cannot farm a rating.  The same seed
deals the same position, so the other player moves first even where the seed picks the first
seat by its place (Proximity's throne, PX3); in Phalanx the pie still decides colours.  Nothing
else starts it; an offer not taken up lapses, and a REMATCH after that is a fresh offer.  A
running game, a game of more than two, or one a seat has left (RULINGS G5) has no rematch.
"""

from __future__ import annotations

import json

from games.base import GameError
from games.text import Plural, reason, Text
from gm.core import passwords, times
from gm.core.model import GameView, Seat, ServiceError, Status
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.outgoing import reports
from gm.service.outgoing.answers import done, refuse
from gm.service.people import lobby, mailcommands
from gm.service.table import deadlines, games
from gm.store.mailboxhash import PSEUDONYM_DOMAIN
from gm.store.rematches import RematchRow

OFFER_DAYS = mailcommands.REMATCH_DAYS  # an offer lapses this long after it was made (HELP says it)
DAY = 86400.0
SUFFIX = "-rematch"  # the new game's id: <old>-rematch, then <old>-rematch2 ...
MOST_TRIES = 100  # ids tried for the new game before the rematch is refused


def rematch(ctx: Context, view: GameView, player: Seat, args: str, inbound: Inbound) -> None:
    """REMATCH: offer a new game, repeat the offer's state, or accept the other seat's offer."""
    why = refusal(view)
    if why:
        refuse(ctx, inbound, view, Text("No rematch"), why)
        return
    offer, now = ctx.store.rematches.offer(view.id), ctx.clock()
    if offer is not None and offer.new_game_id:
        done(ctx, inbound, view, Text("Rematch already started"), Text(
            "Game {game} has had its rematch: game {new} (LIST {new} shows it).", game=view.id,
            new=offer.new_game_id), archive_player=player.name)
    elif offer is None or lapsed(offer, now):
        make_offer(ctx, view, player, inbound, now)
    elif offer.offered_by == player.name:
        done(ctx, inbound, view, Text("Rematch offered"), offer_lines(view, player, offer.offered),
             archive_player=player.name)
    else:
        accept(ctx, view, player, offer, inbound)


def refusal(view: GameView) -> str | None:
    """Why game ``view`` can have no rematch, or None: it runs, it had more than two seats, one
    of them left it (RULINGS G5), or an address was forgotten."""
    if view.status != Status.FINISHED and not view.rules.is_over(view.state):
        return Text("Game {game} is still running: REMATCH offers a new game once it has ended.", game=view.id)
    if len(view.players) != 2:
        return Text("REMATCH is for games of two players; game {game} had {count}.", game=view.id,
                    count=len(view.players))
    gone = [p.name for p in view.players if not p.active]
    if gone:
        return Text("A rematch needs both players still seated, and {name} left game {game} (RULINGS G5).",
                    name=gone[0], game=view.id)
    forgotten = [p.name for p in view.players if p.email.lower().endswith("@" + PSEUDONYM_DOMAIN)]
    if forgotten:
        return Text("The address of {name} is no longer kept here: there can be no rematch.", name=forgotten[0])
    return None


def lapses_at(offered: float) -> float:
    """When an offer made at ``offered`` lapses: the one rule of its lifetime."""
    return offered + OFFER_DAYS * DAY


def lapsed(offer: RematchRow, now: float) -> bool:
    return now >= lapses_at(offer.offered)


def seat_order(view: GameView) -> list[str]:
    """The new game's seats: the old game's two, the other way round."""
    return [p.name for p in sorted(view.players, key=lambda p: p.seat, reverse=True)]


def seats_in_order(view: GameView) -> str:
    """The new game's seats in words: "bob, then ada"."""
    return Text("{first}, then {second}", first=seat_order(view)[0], second=seat_order(view)[1])


def offer_lines(view: GameView, offerer: Seat, offered: float) -> str:
    """What the offering seat is told: the offer, until when it stands, and what it would start."""
    other = next(name for name in seat_order(view) if name != offerer.name)
    until = times.format_stamp(lapses_at(offered), deadlines.player_zone(offerer))  # SET TIMEZONE's
    return Text("Your rematch offer stands until {until}: when {other} sends REMATCH in game {game} (with "
                "their password, or replying to gm's mail) before then, a new game of {title} begins, "
                "with the same options and the seats swapped ({order}). Nothing else starts it.",
                until=until, other=other, game=view.id, title=view.rules.title, order=seats_in_order(view))


def make_offer(ctx: Context, view: GameView, player: Seat, inbound: Inbound, now: float) -> None:
    """The seat's offer, kept; the other seat is told how to accept, and by when."""
    ctx.store.rematches.make_offer(view.id, player.name, now)
    ctx.store.history.log(view.id, view.turn, player.name, "rematch", f"{player.name} offered a rematch", now)
    done(ctx, inbound, view, Text("Rematch offered"), offer_lines(view, player, now),
         archive_player=player.name)
    others = [name for name in view.seated_names if name != player.name]
    reports.notice(ctx, view, others, lambda zone: [
        Text("{name} offers a rematch: a new game of {title} with the same options and the seats swapped "
             "({order}).", name=player.name, title=view.rules.title, order=seats_in_order(view)),
        Text("To accept, send REMATCH in game {game}: GAME {game} PASSWORD <yours> and REMATCH on the next "
             "line, or REMATCH alone in a reply to this mail. The new game then begins, and each of you "
             "gets its welcome with a new password.", game=view.id),
        Plural("The offer lapses in {n} day, at {at}. To decline, do nothing.",
               "The offer lapses in {n} days, at {at}. To decline, do nothing.", n=OFFER_DAYS,
               at=times.format_stamp(lapses_at(now), zone))], Text("Rematch offered"))


def accept(ctx: Context, view: GameView, player: Seat, offer: RematchRow, inbound: Inbound) -> None:
    """The other seat's REMATCH: the new game begins now, its welcomes to both seats."""
    try:
        new_id = new_game_id(ctx, view)
    except (ServiceError, GameError) as exc:
        refuse(ctx, inbound, view, Text("No rematch"), Text("The rematch of game {game} could not begin: {why}",
                                                            game=view.id, why=reason(exc)))
        return
    start(ctx, view, new_id, f"{offer.offered_by} and {player.name}")
    ctx.store.rematches.started(view.id, new_id)
    ctx.store.history.log(view.id, view.turn, player.name, "rematch",
                          f"{player.name} accepted {offer.offered_by}'s rematch: game {new_id}", ctx.clock())
    started = Text("game {new} has begun ({order}). Your welcome to it, with a new password for it, comes "
                   "in a mail of its own.", new=new_id, order=seats_in_order(view))
    done(ctx, inbound, view, Text("Rematch started"), Text("Rematch accepted: {started}", started=started),
         archive_player=player.name)
    reports.notice(ctx, view, [offer.offered_by], [
        Text("{name} accepted your rematch offer: {started}", name=player.name, started=started)],
        Text("Rematch started"))


def new_game_id(ctx: Context, view: GameView) -> str:
    """The id the rematch of ``view`` will have, once the rules take its options with the seats
    swapped; GameError if they no longer do, ServiceError if no id is free.  Nothing is written."""
    view.rules.setup(seat_order(view), json.loads(view.row.options), view.row.seed)
    return free_id(ctx, view.id)


def start(ctx: Context, view: GameView, new_id: str, who: str) -> None:
    """Make and begin game ``new_id``, the rematch of ``view`` (inside the mail's write): the
    same seed, options and settings, the seats swapped, the welcomes with new passwords."""
    row, now = view.row, ctx.clock()
    names, options = seat_order(view), json.loads(row.options)
    seed = row.seed  # the same deal, the seats swapped
    ctx.store.locks.lock_addresses(*(p.email for p in view.players))
    secrets = {name: passwords.generate() for name in names}
    ctx.store.games.add_game(new_id, row.kind, seed, row.options, now)
    for seat, name in enumerate(names):
        old = view.player(name)
        assert old is not None  # seat_order names the game's seats
        ctx.store.seats.add_player(new_id, seat, name, old.email, passwords.hash_password(secrets[name]),
                                   display_name=old.display_name)
    deadlines.save_settings(ctx.store, new_id, settings(ctx, view))
    ctx.store.history.log(new_id, 0, who, "rematch", f"a rematch of game {view.id}", now)
    lobby.begin_play(ctx, view.rules, new_id, seed, options, names, mailcommands.send_welcome, secrets,
                     who=f"rematch of {view.id}")


def settings(ctx: Context, view: GameView) -> dict[str, str]:
    """The rematch's service settings: the game's, unrated unless players may make rated games."""
    kept = dict(ctx.store.games.settings_of(view.id))
    if kept.get("rated") == "true" and not ctx.config.player_rated:
        kept["rated"] = "false"
    return kept


def free_id(ctx: Context, game_id: str) -> str:
    """The first id free of <old>-rematch, <old>-rematch2 ... (a rematch of a rematch counts on
    from its own: nb1-rematch's is nb1-rematch2), locked for this transaction."""
    base = game_id
    head, _, tail = game_id.rpartition(SUFFIX)
    if head and (tail == "" or tail.isdecimal()):
        base = head
    for number in range(1, MOST_TRIES + 1):
        suffix = SUFFIX + (str(number) if number > 1 else "")
        candidate = base[:games.MAX_GAME_ID - len(suffix)].rstrip("-") + suffix
        if candidate == game_id:
            continue
        ctx.store.locks.lock_games(candidate)
        if ctx.store.games.game(candidate) is None:
            return candidate
    raise ServiceError(Text("no id of the form {base}{suffix}<n> is free", base=base, suffix=SUFFIX))
