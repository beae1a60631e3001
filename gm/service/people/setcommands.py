"""SET <what> <value>: a player's own settings, one table of what can be set.

``SET`` is one mail command (gm.service.people.mailcommands) whose second word picks a
row of SETTERS; each row is what HELP shows for it and the handler that does
it.  A handler is called like a mail command's, with the value (the words after
``SET <what>``) as its argument.
"""

from __future__ import annotations

from gm.core.value import valueclass
from typing import Callable

from games.text import Text
from gm.core.model import GameView, Seat
from gm.mail.inbound import Inbound
from gm.service.outgoing.answers import refuse
from gm.core.later import later
from gm.service.people import optin
from gm.service.context import Context

SetHandler = Callable[[Context, GameView, Seat, str, Inbound], None]


@valueclass(frozen=True)
class Setter:
    usage: str  # as HELP shows it: "SET FORMAT TEXT|HTML"
    does: Text  # what it does, said in the reader's language
    handler: SetHandler

    @property
    def what(self) -> str:
        return self.usage.split()[1]


def set_address(ctx: Context, view: GameView, player, value: str, inbound: Inbound) -> None:
    """SET ADDRESS (gm.service.people.seats): one a mail, its code mail under the caps on every
    code mail (gm.service.people.optin), and counted by them."""
    from gm.service.people import seats

    if not ctx.outbox.once(inbound, "SET ADDRESS"):
        refuse(ctx, inbound, view, Text("Address not changed"), Text(
            "SET ADDRESS {value}: one mail changes the address once; this line was not done. Nothing "
            "changed for it.", value=value[:60]))
        return
    code = seats.set_address(ctx, view, player, value, inbound, refused=optin.code_refused)
    if code:
        optin.count_code(ctx, code, seats.address_asked(value))


PEOPLE = "gm.service.people."

# The one table: HELP lists it and ``run`` dispatches from it (each setter imported when first used).
SETTERS: tuple[Setter, ...] = (
    Setter("SET PASSWORD <new>", Text("your new password (10 to 64 characters, one word, not a common "
           "one), with the old one in the GAME line (a reply address is not enough), e.g. SET "
           "PASSWORD blue-heron-42; old passwords, reply addresses and waiting address changes "
           "stop working, and your address is told"), later(PEOPLE + "seats", "set_password")),
    Setter("SET ADDRESS <new>", Text("(with your password) move your seat to another address: gm mails "
           "that address a code, and the seat moves when it sends it back (CONFIRM <code>); the old "
           "address then gets a code that undoes it for 7 days; e.g. SET ADDRESS ada@new.example"),
           set_address),
    Setter("SET FORMAT TEXT|HTML [ALL]", Text("your reports as plain text only, or as text and a page "
           "with the board picture; in this game, or with ALL in every game you play from this "
           "address and those you join later, e.g. SET FORMAT TEXT ALL"),
           later(PEOPLE + "playersettings", "set_format")),
    Setter("SET FORMAT ACCESSIBLE [ALL]", Text("your reports with the board described in words a screen "
           "reader can follow (each piece by its cell, grouped by owner, then what changed) and a page "
           "with the board as a table; ALL as for SET FORMAT, e.g. SET FORMAT ACCESSIBLE ALL"),
           later(PEOPLE + "playersettings", "set_format")),
    Setter("SET LANGUAGE EN|DE|FR [ALL]", Text("the language gm writes to you in: EN English, DE "
           "Deutsch, FR Français (the language's name works too); order notation is the same in every "
           "language; ALL as for SET FORMAT, e.g. SET LANGUAGE DE ALL"),
           later(PEOPLE + "playersettings", "set_language")),
    Setter("SET TIMEZONE <zone> [ALL]", Text("show deadlines in your time zone, an IANA name such as "
           "Europe/Berlin or America/New_York (with UTC beside); ALL as for SET FORMAT, e.g. SET "
           "TIMEZONE Europe/Berlin ALL"), later(PEOPLE + "playersettings", "set_timezone")),
    Setter("SET CALENDAR ON|OFF [ALL]", Text("each report that puts you to move carries your deadline "
           "(with a clock: when your time runs out) as a calendar event to add, with a reminder a day "
           "before; updated when it moves, removed when your turn ends; ALL as for SET FORMAT"),
           later(PEOPLE + "playersettings", "set_calendar")),
    Setter("SET MAIL EACH|MYTURN|DAILY", Text("how often gm mails you: EACH every report (the "
           "default); MYTURN only when you are to move or the game needs you (a draw or takeback "
           "asked, the end), the other reports coming with the next; DAILY [HH:MM] one digest a day "
           "at that hour your time (08:00 if you give none) of every game that changed, with the "
           "board where you are to move; your turn, reminders and the end always come at once; ALL "
           "as for SET FORMAT, e.g. SET MAIL DAILY 07:30 ALL"),
           later(PEOPLE + "playersettings", "set_mail")),
    Setter("SET NAME <public-name> [ALL]", Text("the name rated games' ladders and player pages show for "
           "you, never your address: 2 to 30 letters, digits, '-', '_' or '.', not another player's; "
           "for this seat, or with ALL one player for every seat of your address (their ratings "
           "joined), e.g. SET NAME ada_l ALL"), later(PEOPLE + "publicnames", "set_name")),
)
BY_WHAT: dict[str, Setter] = {s.what: s for s in SETTERS}


def run(ctx: Context, view: GameView, player, args: str, inbound: Inbound) -> None:
    """Dispatch ``SET <what> <value>``; an unknown <what> gets a reply listing what can be set."""
    what, _, value = args.strip().partition(" ")
    setter = BY_WHAT.get(what.upper())
    if setter is None:
        known = ", ".join(s.usage for s in SETTERS)
        body = ctx.outbox.error_body(view, Text("SET {args}: gm knows no setting {what}. You can set: {known}.",
                                                args=args[:60], what=repr(what[:30]), known=known))
        ctx.outbox.reply(inbound, view, Text("Nothing set"), body, kind="error")
        return
    setter.handler(ctx, view, player, value.strip(), inbound)
