"""Wrong passwords: counted per seat and per sender, and locked out for an hour past a limit.

FAILURE_LIMIT wrong passwords within an hour for a seat, or from one sender, lock that
seat's password, or every password from that sender, for LOCK_SECONDS; the seat's address
and the GM get one notice per lock.  From can be forged, so no password lifts a lock: the
seat's reply token still works, and a confirmed PASSWORD RESET ends the seat's lock
(gm.service.people.credentials).  Against a locked seat, only a mail from its own address
has its password checked (held_seat): the right one is held until that address confirms
(gm.service.people.holds), so strangers' guesses never make the owner's password useless.
Other passwords for a locked seat, and a locked sender's for a seat not its own, are not
checked at all.
"""

from __future__ import annotations

from games.text import Text
from gm.core import passwords, times
from gm.core.model import GameView, Seat
from gm.service.people import credentials
from gm.service.context import Context
from gm.service.outgoing.outbox import HOUR

FAILURE_LIMIT = 10  # wrong passwords in an hour, per seat and per sender, before a lock
LOCK_SECONDS = HOUR


def head_start_hash(ctx: Context, game_id: str, sender: str) -> str | None:
    """The hash to start checking a mail's password against before it is judged: its sender's
    (first) seat's; None where the sender holds no seat of the game, or where passwords from it
    for its own seats are refused now (the sender, or one of those seats, locked out)."""
    seats = ctx.store.credentials.password_standing(game_id, sender) if sender else []
    now = ctx.clock()
    if not seats or (seats[0].sender_until or 0.0) > now or any((s.seat_until or 0.0) > now for s in seats):
        return None
    return seats[0].pw_hash


def seat_locked(ctx: Context, game_id: str, name: str) -> bool:
    until = ctx.store.credentials.seat_lock_until(game_id, name)
    return until is not None and until > ctx.clock()


def check_password(ctx: Context, view: GameView, sender: str, password: str | None) -> tuple[Seat | None, str | None]:
    """(the seat whose password this is, None) or (None, "wrong" | "locked"); (None, None): none given.

    The sender's own seat is tried first.  A locked seat's password is not tried (so not even
    the right one passes), nor any password from a locked sender.  A password that matches no seat
    tried is a failure, the sender's own seat's or (a stranger's) every seat's.
    """
    if not password:
        return None, None
    sender_until, seat_until = ctx.store.credentials.locks_until(view.id, sender or "")
    now = ctx.clock()
    if sender and sender_until is not None and sender_until > now:
        return None, "locked"
    seats = sorted(view.players, key=lambda p: p.email.lower() != sender)

    def locked(name: str) -> bool:  # every seat's lock came with the sender's; a seat not found: asked
        return (seat_until[name] or 0.0) > now if name in seat_until else seat_locked(ctx, view.id, name)

    tried = [p for p in seats if not locked(p.name)]
    for seat in tried:
        if ctx.passwords.verify(password, seat.pw_hash):
            if passwords.needs_rehash(password, seat.pw_hash):
                ctx.store.seats.rehash_seat_password(view.id, seat.name, passwords.hash_chosen(password))
            return seat, None
    own = [p for p in seats if p.email.lower() == sender]
    if own and own[0] not in tried:
        return None, "locked"
    if tried:
        _failure(ctx, view, own[0].name if own else "", sender)
    return None, "wrong" if tried else "locked"


def held_seat(ctx: Context, view: GameView, sender: str, password: str | None) -> Seat | None:
    """The sender's own seat whose password this is, where check_password refused it as "locked"
    (the seat or the sender is locked against guessing); None otherwise.  Only the registered
    address is trusted this far: a mail held for it waits until that address confirms it.  A
    password that opens none of the sender's seats is a failure, counted as any other."""
    own = [p for p in view.players if sender and p.email.lower() == sender]
    if not password or not own:
        return None
    for seat in own:
        if ctx.passwords.verify(password, seat.pw_hash):
            return seat
    _failure(ctx, view, own[0].name, sender)
    return None


def reply_note(ctx: Context) -> str:
    """What a player locked out may do at once: a reply to a report, where reply addresses exist
    (a sentence to set before another, its space included)."""
    if not ctx.config.reply_tokens:
        return ""
    return Text("Replying to a report gm sent you works at once (its reply address is your seat's own). ")


def _failure(ctx: Context, view: GameView, name: str, sender: str) -> None:
    """Record a wrong password (``name`` "": from a stranger, so a guess at every seat) and lock
    what has now had FAILURE_LIMIT of them within the hour since its last lock."""
    now = ctx.clock()
    ctx.store.credentials.add_credential_failure(view.id, name, sender, now)
    for seat in [view.player(name)] if name else view.players:
        assert seat is not None  # ``name``: one of the game's seats
        last = ctx.store.credentials.seat_lock_until(view.id, seat.name) or 0.0
        if last <= now and ctx.store.credentials.seat_failures_since(view.id, seat.name, max(now - HOUR, last)) \
                >= FAILURE_LIMIT:
            _lock_seat(ctx, view, seat, now)
    last = ctx.store.credentials.sender_lock_until(sender) or 0.0
    if sender and last <= now and ctx.store.credentials.sender_failures_since(sender, max(now - HOUR, last)) \
            >= FAILURE_LIMIT:
        ctx.store.credentials.add_credential_lock("", "", sender, now, now + LOCK_SECONDS)
        credentials.tell_gm(ctx, f"[gm] Passwords from {sender} refused for an hour", [
            f"{FAILURE_LIMIT} wrong passwords came from {sender} within the hour (the last for game "
            f"{view.id}); passwords from that address are refused until "
            f"{times.format_stamp(now + LOCK_SECONDS)}. Mail from there with a seat's right password "
            "is held until the seat's address confirms it" + (", and reply addresses still work."
                                                             if ctx.config.reply_tokens else ".")])


def _lock_seat(ctx: Context, view: GameView, seat: Seat, now: float) -> None:
    until = now + LOCK_SECONDS
    ctx.store.credentials.add_credential_lock(view.id, seat.name, "", now, until)
    ctx.store.history.log(view.id, view.turn, "gm", "locked", f"seat {seat.name}: {FAILURE_LIMIT} wrong "
                          f"passwords within the hour; passwords refused until {times.format_stamp(until)}", now)
    credentials.tell_owner(ctx, view, seat.email, Text("Wrong passwords for your seat"), [
        Text("{count} mails with a wrong password for your seat {seat} came within the hour (the last "
             "at {last}). Until {until} gm judges no mail for this seat by its password alone: a mail "
             "from this address with the right password is held, and gm mails you here a code to "
             "confirm it (a reply is enough).", count=FAILURE_LIMIT, seat=seat.name,
             last=times.format_stamp(now), until=times.format_stamp(until)),
        Text("{note}If someone may know your password, send PASSWORD RESET {game} from this address.",
             note=reply_note(ctx), game=view.id)])
    credentials.tell_gm(ctx, f"[{view.id}] Passwords of seat {seat.name} refused for an hour", [
        f"Game {view.id}: {FAILURE_LIMIT} wrong passwords for seat {seat.name} within the hour; "
        f"its passwords are refused until {times.format_stamp(until)}. The player was told."])
