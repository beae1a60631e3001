"""A game's life: creation, and the game master's overrides on status, seats, mail and deadline.

Each override runs in one write transaction that locks its game (run again on
a PostgreSQL deadlock), is recorded in the history with who and why
(gm.service.play.overrides) and mails the players it affects; a refused one
raises ServiceError (or GameError) and changes nothing.  The players a GM names
are checked in gm.service.play.roster; changes to the position are in
gm.service.play.positions.
"""

from __future__ import annotations

import json
import random

from games.text import Plural, Text, reason
from games import registry
from games.base import GameError
from gm.core import options as service_options
from gm.core import addresses, passwords, times
from gm.core.model import GameView, ServiceError, Status
from gm.service.outgoing import calendar, reportmail, reports
from gm.service.people import credentials, draws, lobby, mailcommands, seats
from gm.service.play import roster, turns
from gm.service.play.overrides import default_actor, gm_lines, record, required_reason, reschedule
from gm.service.table import deadlines, games
from gm.service.context import Context
from gm.store.locks import retried


# --- creation -------------------------------------------------------------------
@retried
def create_game(ctx: Context, kind: str, game_id: str, players: list[tuple[str, str]],
                seed: int | None = None, options: dict[str, str] | None = None,
                language: str | None = None) -> dict[str, str]:
    """Set up a game and queue a welcome to each player (``language``: every seat's, gm new
    --language; None: each address's own).  Returns name -> password.

    Refused (ServiceError, nothing created) for a malformed address, an empty name or one
    that is not a single word, and a name or address given twice (compared without case).
    """
    rules = registry.get(kind)
    game_id = lobby.check_game_id(game_id)
    players = roster.check_players(players)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    options = dict(options or {})
    service = service_options.split_options(options, rules.options)  # deadline, press...: not the rules'
    names = [name for name, _, _ in players]
    now = ctx.clock()
    rules.setup(names, dict(options), seed)  # OptionError on bad options, before anything is stored
    secrets_by_name = {name: passwords.generate() for name in names}
    with ctx.store.write(games=[game_id]):  # this game only (gm.store.locks)
        if ctx.store.games.game(game_id):
            raise ServiceError(f"there is already a game {game_id}")
        ctx.store.games.add_game(game_id, rules.kind, seed, json.dumps(options), now)
        for seat, (name, address, shown) in enumerate(players):
            ctx.store.seats.add_player(game_id, seat, name, address,
                                       passwords.hash_password(secrets_by_name[name]), display_name=shown,
                                       **({"language": language} if language else {}))
        deadlines.save_settings(ctx.store, game_id, service)
        lobby.begin_play(ctx, rules, game_id, seed, options, names, mailcommands.send_welcome,
                         secrets_by_name)
    return secrets_by_name


@retried
def start_open_game(ctx: Context, game_id: str, who: str | None = None, why: str | None = None) -> str:
    """`gm start`: an open game starts with the players who joined, if at least its minimum."""
    with ctx.store.write(games=[game_id]):
        told = lobby.start(ctx, game_id.strip().lower(), mailcommands.send_welcome, who or default_actor(),
                           force=True)
        if why:
            record(ctx, games.load(ctx.store, game_id), "start", "", who, why)
    return told


@retried
def change_settings(ctx: Context, game_id: str, values: dict[str, str], who: str | None = None,
                    why: str | None = None) -> None:
    """`gm settings ID key=value`: checked, saved and logged (with the reason, if given)."""
    values = service_options.check_settings(values)
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        before = deadlines.settings(ctx.store, view.id)
        deadlines.save_settings(ctx.store, view.id, values)
        changes = ", ".join(f"{k}={v}" for k, v in values.items())
        detail = changes + (f"; why: {why}" if why else "")
        ctx.store.history.log(view.id, view.turn, who or default_actor(), "settings", detail, ctx.clock())
        reschedule(ctx, view.id)
        # The players hear of what changed; a value set to what it was is no news.
        after = deadlines.settings(ctx.store, view.id)
        changed = {k: v for k, v in values.items() if str(before.get(k)) != str(after.get(k))}
        changes = ", ".join(f"{k}={v}" for k, v in changed.items())
        if changed:
            reports.notice(ctx, view, view.seated_names,
                           gm_lines(Text("The game master changed this game's settings: {changes}.", changes=changes),
                                    why), Text("Settings changed"))


# --- status -------------------------------------------------------------------------
@retried
def pause(ctx: Context, game_id: str, who: str | None = None, why: str | None = None) -> str:
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if view.status != Status.ACTIVE:
            raise ServiceError(f"game {view.id} is {view.status}, not active")
        now = ctx.clock()
        ctx.store.games.set_game_status(view.id, Status.PAUSED.value, now)
        deadlines.current(ctx.store, view, create=True)
        ctx.store.timers.update_deadline(view.id, paused_at=now)
        record(ctx, view, "pause", "", who, why)
        reschedule(ctx, view.id)
        reports.notice(ctx, view, view.seated_names,
                       gm_lines(Text("The game master has paused this game. Orders are not "
                                     "accepted until it resumes."), why), Text("Game paused"))
    return f"game {view.id} paused"


@retried
def resume(ctx: Context, game_id: str, who: str | None = None, why: str | None = None) -> str:
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if view.status != Status.PAUSED:
            raise ServiceError(f"game {view.id} is {view.status}, not paused")
        now = ctx.clock()
        ctx.store.games.set_game_status(view.id, Status.ACTIVE.value, now)
        view = games.load(ctx.store, view.id)
        row = deadlines.current(ctx.store, view, create=True)
        lines = gm_lines(Text("The game master has resumed this game."), why)
        due = None
        if row.due is not None and row.paused_at is not None and not row.late:
            due = row.due + max(0.0, now - row.paused_at)  # the pause does not count
            ctx.store.timers.update_deadline(view.id, due=due, paused_at=None)
        else:
            ctx.store.timers.update_deadline(view.id, paused_at=None)
        record(ctx, view, "resume", "", who, why)
        reschedule(ctx, view.id)
        reports.notice(ctx, view, view.seated_names, lambda zone: lines + (
            [Text("Deadline: {due}.", due=times.format_due(due, now, zone))] if due is not None else []),
            Text("Game resumed"),
            calendars=calendar.for_seated(ctx, view))  # the pause moved it
    return f"game {view.id} resumed"


@retried
def end(ctx: Context, game_id: str, why: str, who: str | None = None,
        winners: list[str] | None = None) -> str:
    if not why or not why.strip():
        raise ServiceError("gm end needs a reason")
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if view.status == Status.FINISHED:
            raise ServiceError(f"game {view.id} is already finished")
        for name in winners or []:
            if view.player(name) is None:
                raise ServiceError(f"no player {name!r} in game {view.id}")
        now = ctx.clock()
        ctx.store.games.set_game_status(view.id, Status.FINISHED.value, now)
        ctx.store.results.set_result(view.id, why, winners or None, now)
        record(ctx, view, "end", f"winners: {', '.join(winners)}" if winners else "", who, why)
        reschedule(ctx, view.id)
        # The result (the winners declared, if any) is the standings' last line.
        lines = gm_lines(Text("The game master has ended this game."), why) + [""] + reports.final_standings(ctx, view)
        reports.notice(ctx, view, view.seated_names, lines, Text("Game ended"), files=reports.end_of_game(ctx, view))
    return f"game {view.id} ended"


@retried
def draw(ctx: Context, game_id: str, who: str | None = None, why: str | None = None) -> str:
    """`gm draw`: the game ends drawn now (RULINGS G6), as if every remaining player had agreed:
    no winner, the scores as they stand are the final standings.  Recorded as a draw of the
    rules (an orders row, origin gm), so gm verify replays it."""
    why = required_reason(why, f"gm draw {game_id}")
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if view.status == Status.FINISHED or view.rules.is_over(view.state):
            raise ServiceError(f"game {view.id} is over")
        reports.notice(ctx, view, view.seated_names,
                       gm_lines(Text("The game master has ended this game drawn (RULINGS G6)."), why),
                       Text("Game drawn"))
        draws.end_drawn(ctx, view, who or default_actor(), "gm", f"the game master declared a draw; "
                        f"why: {why}")
    return f"game {view.id} ended drawn"


@retried
def concede(ctx: Context, game_id: str, name: str, who: str | None = None, why: str | None = None) -> str:
    """`gm concede`: the player concedes, as CONCEDE (or RESIGN) by mail would (RULINGS G7):
    they leave the game as G5 says (eject's path, recorded the same way); when one player is
    left of a game begun with two or more, that player wins."""
    why = required_reason(why, f"gm concede {game_id} {name}")
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        player = turns.seat(view, name)
        if not player.active:
            raise ServiceError(f"{player.name} has already left game {view.id}")
        if view.status == Status.FINISHED or view.rules.is_over(view.state):
            raise ServiceError(f"game {view.id} is over")
        name = player.name
        record(ctx, view, "concede", f"player {name}", who, why)
        reports.notice(ctx, view, view.seated_names,
                       gm_lines(Text("{name} has conceded the game (RULINGS G7).", name=name), why),
                       Text("{name} conceded", name=name))
        after, _ = seats.remove(ctx, view, name, who or default_actor(), "conceded")
    if after.rules.is_over(after.state):
        return f"{name} conceded game {view.id}; the game is over"
    return f"{name} conceded game {view.id}; the game goes on without them"


def forfeit(ctx: Context, view: GameView, name: str, who: str, why: str) -> None:
    """A player forfeits (late policy, or eject from a game that cannot go on without them).

    Must run inside a write.  The game ends; the others share the win.
    """
    others = [p for p in view.seated_names if p != name]
    now = ctx.clock()
    ctx.store.games.set_game_status(view.id, Status.FINISHED.value, now)
    reason = f"{name} forfeited: {why}"
    ctx.store.results.set_result(view.id, reason, others or None, now)
    ctx.store.history.log(view.id, view.turn, who, "forfeit", reason, now)
    reschedule(ctx, view.id)
    reports.notice(ctx, view, view.seated_names,
                   [Text("{name} forfeits the game ({why}).", name=name, why=why),
                    Plural("The game is over. Winner: {winners}.", "The game is over. Winners: {winners}.",
                           n=len(others), winners=", ".join(others) or Text("nobody")),
                    ""] + reports.final_standings(ctx, view),
                   Text("Game over"), files=reports.end_of_game(ctx, view))


@retried
def set_deadline(ctx: Context, game_id: str, when: str, who: str | None = None,
                 why: str | None = None) -> str:
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if view.rules.is_over(view.state) or view.status == Status.FINISHED:
            raise ServiceError(f"game {view.id} is over")
        now = ctx.clock()
        if when.strip().lower() in {"none", "off"}:
            due = None
        else:
            try:
                due = times.parse_when(when, now)
            except GameError as exc:
                raise ServiceError(reason(exc)) from None
            if due <= now:
                raise ServiceError(f"{times.format_stamp(due)} is in the past")
        deadlines.set_due(ctx.store, view, due, who or default_actor(), now)
        def told(zone=None) -> str:
            return (Text("The game master removed the deadline of this turn.") if due is None else
                    Text("The game master set the deadline of turn {turn}: {due}.", turn=view.turn,
                         due=times.format_due(due, now, zone)))
        text = told()
        record(ctx, view, "deadline", "none" if due is None else times.format_stamp(due), who, why)
        reports.notice(ctx, view, view.seated_names, lambda zone: gm_lines(told(zone), why), Text("New deadline"),
                       calendars=calendar.for_seated(ctx, view))
    return text


# --- seats ----------------------------------------------------------------------------
@retried
def replace(ctx: Context, game_id: str, name: str, email: str, who: str | None = None,
            why: str | None = None) -> str:
    """A new player takes over a seat: new address, new password, a welcome.  Whatever the one
    who left held of the seat ends (credentials.end_all); an address that holds another seat
    still in the game is refused (each seat needs an address of its own)."""
    email = roster.check_address(name, email, "nothing changed")
    secret = passwords.generate()
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        player = turns.seat(view, name)
        old = player.email
        taken = next((p.name for p in view.seated if p.name != player.name
                      and addresses.same(p.email, email)), None)
        if taken is not None:
            raise ServiceError(f"{email} is the address of {taken}, another seat of game {view.id}; "
                               "each seat needs an address of its own; nothing changed")
        ctx.store.seats.replace_seat(view.id, player.name, email, passwords.hash_password(secret))
        credentials.end_all(ctx, view.id, player.name, f"gm replace (seat given to {email})")
        record(ctx, view, "replace", f"seat {player.name}: {old} -> {email}", who, why)
        view = games.load(ctx.store, view.id)
        mailcommands.send_welcome(ctx, view, turns.seat(view, player.name), secret)
        others = [n for n in view.seated_names if n != player.name]
        reports.notice(ctx, view, others,
                       gm_lines(Text("A new player now plays the seat {seat}.", seat=player.name), why),
                       Text("New player"))
        if not addresses.same(old, email):  # the one who left is told too
            language = reportmail.language_of(player)  # the seat's as its old player set it
            body = ctx.outbox.notice_body(view, [
                Text("Your seat {seat} in game {game} has passed on to another player:\n"
                     "  the game master gave it to them.  Your password and reply addresses\n"
                     "  for it no longer work, and you play no more in this game.", seat=player.name,
                     game=view.id)]
                + gm_lines("", why)[1:], language)
            ctx.outbox.to_game(view, old, Text("Your seat was given away"), body, language=language)
    return f"seat {player.name} of game {view.id} now belongs to {email}; welcome queued"


@retried
def reset_seat(ctx: Context, game_id: str, name: str, who: str | None = None, why: str | None = None) -> str:
    """`gm seat reset`: a new password for a seat, mailed to its registered address; its old
    password, reply addresses and waiting codes stop working (gm.service.people.credentials)."""
    why = required_reason(why, f"gm seat reset {game_id} {name}")
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        player = turns.seat(view, name)
        credentials.gm_reset(ctx, view, player, who or default_actor(), why)
    return f"seat {player.name} of game {view.id}: new password mailed to {player.email}"


@retried
def readdress_seat(ctx: Context, game_id: str, name: str, email: str, who: str | None = None,
                   why: str | None = None) -> str:
    """`gm seat address`: the same player, at a new address, now (no code): a new password is
    mailed there and the old address is told (to give the seat to someone else: gm replace)."""
    why = required_reason(why, f"gm seat address {game_id} {name} {email}")
    email = roster.check_address(name, email, "nothing changed")
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        player = turns.seat(view, name)
        if addresses.same(player.email, email):
            raise ServiceError(f"seat {player.name} is registered to {email} already; nothing changed")
        if any(addresses.same(p.email, email) for p in view.players):
            raise ServiceError(f"{email} is the address of another seat of game {view.id}; nothing changed")
        credentials.gm_move(ctx, view, player, email, who or default_actor(), why)
    return f"seat {player.name} of game {view.id} moved to {email}; new password mailed there"


@retried
def eject(ctx: Context, game_id: str, name: str, who: str | None = None, why: str | None = None) -> str:
    """Remove a player as the game's rules for leaving say (RULINGS G5): the rules' ``leave``
    gives the state without the seat; the players still in are told and get a report."""
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        player = turns.seat(view, name)
        if not player.active:
            raise ServiceError(f"{player.name} has already left game {view.id}")
        if view.status == Status.FINISHED:
            raise ServiceError(f"game {view.id} is over")
        rules = view.rules
        record(ctx, view, "eject", f"player {player.name}", who, why)
        others = [n for n in view.seated_names if n != player.name]
        reports.notice(ctx, view, others,
                       gm_lines(Text("The game master has removed {name} from the game.", name=player.name),
                                why), Text("Player removed"))
        after, _ = seats.remove(ctx, view, player.name, who or default_actor(),
                                why or "removed by the game master")
        # The one removed is spoken to, not about; after the removal, so the mail offers them no
        # orders to send.
        reports.notice(ctx, view, [player.name],
                       gm_lines(Text("You were removed from game {game} by the game master.", game=view.id),
                                why), Text("You were removed"))
    if rules.is_over(after.state):
        return f"{player.name} left game {view.id}; the game is over"
    return f"{player.name} left game {view.id}; the game goes on without them"


# --- mail ------------------------------------------------------------------------------
@retried
def resend(ctx: Context, game_id: str, name: str | None = None, who: str | None = None,
           why: str | None = None) -> str:
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        targets = [turns.seat(view, name)] if name else view.seated
        reports.resend(ctx, view, [p.name for p in targets])
        names = ", ".join(p.name for p in targets)
        record(ctx, view, "resend", f"report of turn {view.turn} to {names}", who, why)
    return f"report of turn {view.turn} queued again for {names}"


@retried
def broadcast(ctx: Context, game_id: str, text: str, who: str | None = None, why: str | None = None) -> str:
    if not text.strip():
        raise ServiceError("nothing to broadcast")
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        record(ctx, view, "broadcast", text[:500], who, why or "announcement")
        lines = [Text("Announcement from the game master:"), ""] + text.strip().splitlines()
        reports.notice(ctx, view, view.seated_names, lines, Text("Announcement"))
        ctx.outbox.archive(view, None, "notice", "\n".join(lines) + "\n", None)
    return f"announcement queued for {len(view.seated_names)} player(s)"


# --- a game made by mistake ------------------------------------------------------------
@retried
def delete_game(ctx: Context, game_id: str, force: bool = False) -> str:
    """`gm delete`: remove every row of a game in one write (its mail in and out is kept).

    Refused for a game that had an accepted order unless ``force``: a game played is ended."""
    with ctx.store.write(games=[game_id]):
        row = ctx.store.games.game(game_id.strip().lower())  # an open game too: it has no state to load
        if row is None:
            raise ServiceError(f"no game called {game_id!r}")
        played = ctx.store.turns.accepted_order_count(row.id)
        if played and not force:
            raise ServiceError(f"game {row.id} has had {played} accepted order(s): end it with "
                               f"gm end {row.id} -m REASON, or delete it anyway with --force; "
                               "nothing deleted")
        removed = ctx.store.games.delete_game(row.id)
    return f"game {row.id} deleted ({sum(removed.values())} rows; its mail is kept in the outbox and inbox)"
