"""SET NAME <public-name> [ALL]: the name ladders and player pages show for a player, never the address.

Without ALL it names this seat's (address, seat name) pair, or the address's linked player if
it linked its seats; with ALL every seat of the address counts for one player under that name
(its results move there and the ratings are recomputed: gm.service.table.ratings.link).  Names
are unique, compared casefolded; a taken one is refused, saying so.  The seat's address is told
when another address sent it (pages change).  All in the mail's transaction.
"""

from __future__ import annotations

import string

from games.text import Text, mark
from gm.core import addresses
from gm.core.model import GameView, Seat
from gm.mail.inbound import Inbound
from gm.service.outgoing.answers import done, refuse
from gm.service.people.playersettings import value_and_scope
from gm.service.table import ratings
from gm.service.context import Context
from gm.store.community import LINKED

NAME_CHARS = frozenset(string.ascii_letters + string.digits + "-_.")
SHORTEST, LONGEST = 2, 30
NOT_SET = mark("Name not set")
RULE = mark("a public name is {shortest} to {longest} letters, digits, '-', '_' or '.' (no '@', no spaces), "
            "e.g. SET NAME ada_l")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a public name, or None."""
    rule = Text(RULE, shortest=SHORTEST, longest=LONGEST)
    if not SHORTEST <= len(name) <= LONGEST:
        return rule
    odd = next((c for c in name if c not in NAME_CHARS), None)
    if odd is not None:
        return Text("{rule}; {odd} is not one of them", rule=rule, odd=repr(odd))
    return None


def own_player_id(ctx: Context, player: Seat, every: bool) -> str | None:
    """The id the name would go to, if it exists already: the address's linked player, else
    (without ALL) the seat's pair."""
    linked = ctx.store.community.player_at(player.email, LINKED)
    if linked is not None or every:
        return linked.player_id if linked is not None else None
    pair = ctx.store.community.player_at(player.email, player.name)
    return pair.player_id if pair is not None else None


def set_name(ctx: Context, view: GameView, player: Seat, value: str, inbound: Inbound) -> None:
    """SET NAME <public-name> [ALL]."""
    name, every = value_and_scope(value.strip())
    problem = name_problem(name)
    if problem:
        refuse(ctx, inbound, view, Text(NOT_SET), Text("SET NAME {value}: {problem}.", value=value[:40],
                                                       problem=problem))
        return
    ratings.lock(ctx.store)
    own = own_player_id(ctx, player, every)
    taken = ctx.store.community.by_name(name)
    if taken is not None and taken.player_id != own:
        refuse(ctx, inbound, view, Text(NOT_SET), Text(
            "SET NAME {name}: another player has the public name {taken} (names are compared without "
            "case); choose another.", name=name, taken=repr(taken.name)))
        return
    now = ctx.clock()
    if every:
        ratings.link(ctx.store, player.email, name, now)
        where = Text("every seat of {address}, now and later, counts for one player", address=player.email)
    else:
        ctx.store.community.rename(ctx.store.community.player_id_for(player.email, player.name, now), name, now)
        where = Text("your seat {seat} plays as this player in rated games and tournaments", seat=player.name)
    ctx.store.history.log(view.id, view.turn, player.name, "set", f"name {name}" + (" ALL" if every else ""), now)
    text = Text("Your public name is now {name}: {where}. Ladders and player pages show this name, never "
                "your address.", name=name, where=where)
    done(ctx, inbound, view, Text("Name set"), text, archive_player=player.name)
    if not addresses.same(inbound.sender, player.email):
        ctx.outbox.to_game(view, player.email, Text("Public name set"), ctx.outbox.notice_body(view, [
            Text("A mail from {sender} set the public name of your seat {seat}: {text}", sender=inbound.sender,
                 seat=player.name, text=text)]), kind="notice")
