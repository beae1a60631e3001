"""What a mail's commands may change, locked before they run (PostgreSQL; gm.store.locks).

A mail with commands, or for no game, is judged in a scoped transaction like an order
mail: it locks the games its lines name (or a CONFIRM's code names) and the addresses whose
rows it may change, games sorted then addresses sorted, not the whole store.  The
addresses: the sender's, a SET ADDRESS's new one, and a seat's where a code goes to it or
it moves, read before the locks.  Where that read went stale before the locks were
granted, the code that changes the row locks it again, late (credentials.cannot_mail,
delivery_state.clear, playersettings.save): a deadlock that meets is run again by the
mail's retry (gm.service.intake.ingest).  LIST, TRAIL, RECORD, SUMMARY, HELP lock only the sender.
"""

from __future__ import annotations

from gm.core import addresses, codes
from gm.service.context import Context

GAME_AT = {"JOIN": 0, "OBSERVE": 0, "UNOBSERVE": 0, "LEAVE": 0, "CREATE": 1}  # the word naming the game
MANY = 20  # games named by one mail past which it locks the store instead (a flood, not a player)


def lock(ctx: Context, sender: str | None, game_id: str | None, commands: list[str]) -> None:
    """Lock what a mail from ``sender`` for ``game_id`` (or none) with these command lines may change."""
    named = {game_id.strip().lower()} if game_id else set()
    seats_of: set[str] = set()  # games whose seats' addresses a line may mail or move
    mailboxes = {sender} if sender else set()
    for command in commands:
        word, *args = command.split() or [""]
        word = word.upper()
        if word in GAME_AT and len(args) > GAME_AT[word]:
            named.add(args[GAME_AT[word]].lower())
        elif word == "PASSWORD" and len(args) >= 2:  # PASSWORD RESET <id> [<seat>]
            named.add(args[1].lower())
            seats_of.add(args[1].lower())
        elif word == "CONFIRM" and len(args) == 1:
            named |= confirmed_games(ctx, args[0], seats_of)
        elif word == "SET" and len(args) == 2 and args[0].upper() == "ADDRESS":
            mailboxes.add(addresses.normal(args[1].strip("<>")))
    if len(named) + len(seats_of) > MANY:
        ctx.store.locks.lock_store()  # one mail naming games by the hundred: not worth a lock each
        return
    for game in seats_of:
        mailboxes |= {p.email for p in ctx.store.seats.players(game)}
    ctx.store.locks.lock_games(*named)
    ctx.store.locks.lock_addresses(*mailboxes)


def confirmed_games(ctx: Context, code: str, seats_of: set[str]) -> set[str]:
    """The games a CONFIRM of ``code`` changes: a pending request's (its JOIN, OBSERVE and CREATE
    lines), or a seat code's game (added to ``seats_of``: the seat moves, or its address is told)."""
    request = codes.find(ctx.code_secret(), code, ctx.store.optin.pending_request)
    if request is not None and request.actions:  # no actions: a seat's code, counted (optin.count_code)
        found = set()
        for line in request.actions.split("\n"):
            word, *args = line.split() or [""]
            if word in GAME_AT and len(args) > GAME_AT[word]:
                found.add(args[GAME_AT[word]].lower())
        return found
    from gm.service.people import credentials  # a CONFIRM alone

    seat_code = credentials.find_code(ctx, code)
    if seat_code is None:
        return set()
    seats_of.add(seat_code.game_id)
    return {seat_code.game_id}
