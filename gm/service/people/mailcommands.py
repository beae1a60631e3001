"""The mail commands a player may put on a line of their own: HELP, BOARD, HISTORY, TRAIL, RECORD,
ABSENCE, SET, LIST, SUMMARY, JOIN, OBSERVE, CONFIRM ...

One handler per command, in a table; ``run`` dispatches a command line, and
``without_game`` the commands a mail with no GAME line may hold (HELP, LIST,
SUMMARY: they need no password, so they answer anyone, rate-limited as help).
The table names each handler by its module (gm.core.later): HELP lists every
command, and a stranger's HELP loads none of what the commands do.  RECORD's is
in gm.service.records, the room of game records (above this one: named, not imported).
"""

from __future__ import annotations

import textwrap
from gm.core.value import valueclass
from functools import partial
from typing import TYPE_CHECKING, Callable

from games import registry
from games.text import Text
from gm.core.later import later
from gm.core.model import GameView, Seat
from gm.mail import conditional as line_words
from gm.mail.inbound import Inbound
from gm.mail.orders import LOCAL_WORDS
from gm.service.context import Context, reply_language
from gm.service.people import optin, setcommands

if TYPE_CHECKING:
    from gm.service.outgoing.reportmail import TurnMail

HISTORY_TURNS = 5  # turns a bare HISTORY sends
LIST_MAX = 100  # games one LIST or SUMMARY reply shows
REMATCH_DAYS = 7  # a REMATCH offer lapses this long after it was made (gm.service.people.rematch)
MAX_WITHOUT_GAME = 10  # different commands answered in one mail without a game
PRESS_MODES = {"none": Text("off in this game"), "white": Text("on; your name is shown"),
               "grey": Text("on; your name is not shown (grey press)")}  # said in the reader's language

Handler = Callable[[Context, GameView | None, object, str, Inbound], None]


def send_welcome(ctx: Context, view: GameView, player: Seat, password: str | None,
                 start_reports: TurnMail | None = None) -> None:
    """A seat's welcome, with the mail commands (HELP's own lines) and the game's press mode;
    ``password`` None: the player has it already (from their JOIN reply).  ``start_reports``: the
    reports of the game's start, made once for every seat welcomed."""
    from gm.service.outgoing import reports
    from gm.service.table import deadlines

    mode = deadlines.settings(ctx.store, view.id)["press"]
    language = getattr(player, "language", None) or reply_language(ctx)
    reports.welcome(ctx, view, player, password, commands=help_lines(language=language),
                    press=press_mode(mode), mail=start_reports)


def press_mode(mode: str | None) -> Text | None:
    """What a game's press setting means, for HELP and the welcome (said in the reader's language)."""
    return None if mode is None else PRESS_MODES.get(mode, Text(mode))


KEPT_TEXTS = "kept-texts"  # the folder of gm's data where fixed texts are kept (gm.present.kept)


def general_help(ctx: Context, inbound: Inbound, empty: bool = False) -> None:
    """HELP (or an empty mail, ``empty``: said first) without a game: the format and the games
    played here, in the language of the mail (HILFE: German)."""
    language = reply_language(ctx)
    values = dict(address=ctx.config.address, game=None, kinds=registry.available(),
                  commands=help_lines(language=language), press=None, empty=empty)
    if language == "en":
        from gm.present.kept import kept_text  # a fixed text: kept once rendered, no Jinja per stranger

        body = kept_text(ctx.config.data_dir / KEPT_TEXTS, "help", **values)
    else:
        body = help_in(language, **values)
    subject = Text("Your mail was empty") if empty else Text("Help")
    ctx.outbox.reply(inbound, None, subject, body, kind="help")  # rate-limited: needs no password


def help_in(language: str, **values: object) -> str:
    """templates/mail/help.txt.j2 in ``language``, wrapped as every mail is."""
    from gm.present.reports import fit_width
    from gm.present.templates import environment

    return fit_width(environment(language=language).get_template("mail/help.txt.j2").render(**values))


def each_once(commands: list[str], limit: int = MAX_WITHOUT_GAME) -> list[str]:
    """The commands of a mail in the order written, each once (any case, any spacing), at most
    ``limit`` of them: a mail of 500 command lines gets a reply of a few answers, not 500."""
    once: dict[str, str] = {}
    for command in commands:
        once.setdefault(" ".join(command.lower().split()), " ".join(command.split()))
    return list(once.values())[:limit]


def without_game(ctx: Context, inbound: Inbound, commands: list[str], empty: bool) -> bool:
    """Answer a mail that names no game: HELP (or an empty mail), LIST, SUMMARY, in the order
    written, each once and at most MAX_WITHOUT_GAME of them (a mail of 500 HELP lines gets one
    help); False when it holds none of them (the caller says a game is missing)."""
    wanted = [c for c in each_once(commands, len(commands))
              if c.partition(" ")[0] in ("HELP",) + NO_PASSWORD][:MAX_WITHOUT_GAME]
    if empty:
        wanted = ["HELP"]
    for command in wanted:
        word, _, args = command.partition(" ")
        if word == "HELP":
            general_help(ctx, inbound, empty)
        else:
            HANDLERS[word](ctx, None, None, args, inbound)
    return bool(wanted)


@valueclass(frozen=True)
class Command:
    """A mail command: what a player writes, what it does (for HELP), and who handles it."""

    usage: str
    does: str
    handler: Handler | None = None  # None: the order-mail grammar's (gm.mail.orders), or intake's (TAKEBACK)

    @property
    def word(self) -> str:
        return self.usage.split()[0]


PEOPLE = "gm.service.people."
COMMANDS_DONE = PEOPLE + "playercommands"


def my_data(ctx: Context, view: GameView | None, player: object, args: str, inbound: Inbound) -> None:
    """MY DATA: a seat's (password or reply token) answered at once; any other mail's waits for its
    From address to answer a code, as OBSERVE does."""
    if player is None:
        optin.ask("MY", ctx, view, player, args, inbound)
    else:
        later(PEOPLE + "mydata", "for_seat")(ctx, view, player, args, inbound)

# The one table: ``run`` dispatches from it and HELP lists it, so no command exists
# without its help line.
COMMANDS: tuple[Command, ...] = (
    Command("HELP", Text("the order format, with your game's notation and rulings"), later(COMMANDS_DONE, "game_help")),
    Command("BOARD", Text("the current report again"), later(COMMANDS_DONE, "board")),
    Command("HISTORY [ALL|N|N-M]", Text("the reports and press you were sent: the last "
            "{turns} turns, ALL of them, turn N, or turns N to M", turns=HISTORY_TURNS),
            later(COMMANDS_DONE, "history")),
    Command("TRAIL [<id>]", Text("the full trail table, every row, in a game that keeps one "
            "(public: TRAIL <id> needs no password)"), later(COMMANDS_DONE, "trail")),
    Command("RECORD [<id>]", Text("the game's moves and result as text, the JSON attached: public once "
            "the game is over (RECORD <id> needs no password), while it runs a seat's own view"),
            later(PEOPLE + "recordcommand", "record_command")),
    Command("ABSENCE <from> <to>", Text("(with your password) you are away (dates like 2025-03-07, or "
            "+3d); deadlines that fall inside move to its end"), later(COMMANDS_DONE, "absence")),
    Command("PRESS TO <names|ALL|GM>", Text("a message to other players (or the game master): the "
            "lines below it, up to a line ENDPRESS")),
    Command("TURN <n>", Text("the turn your orders are for (replying to a report says it too): orders "
            "written for a turn that has passed are refused, with the position as it is now")),
    Command("PREVIEW", Text("above your orders: what they would give, mailed to you alone; nothing is "
            "played or stored, and the mail does nothing else. Out of turn: why not, and the game "
            "as it stands")),
    Command("END", Text("stop reading here (anything below is ignored)")),
    Command("LIST [<id>]", Text("the games here (no password needed, no GAME line): each with its "
            "status, turn and players, newest first, {most} at most; or one game's scores, "
            "whose move and deadline", most=LIST_MAX), later(COMMANDS_DONE, "list_games")),
    Command("SUMMARY", Text("(or MY GAMES; no password needed) the games you play from this "
            "address: turn, deadline, and whether you owe orders now"), later(COMMANDS_DONE, "summary")),
    Command("MY DATA", Text("everything gm keeps about your address, mailed to that address alone as a "
            "JSON file: with your password (or a reply address) at once; without, once your address "
            "answers the code gm mails it"),
            my_data),
    Command("JOIN <id> <name>", Text("(no password needed) take a seat of an open game, e.g. JOIN nb7 "
            "ada: gm mails a code to confirm (reply to it), then your password; the game starts "
            "when its seats are taken"), partial(optin.ask, "JOIN")),
    Command("LEAVE <id>", Text("leave an open game before it starts (with your password: GAME nb7 "
            "PASSWORD <yours>, then LEAVE); once it runs, RESIGN"),
            later(PEOPLE + "lobby", "leave_running")),
    Command("RESIGN", Text("(under GAME nb7 PASSWORD ..., not by a reply address) leave this game for "
            "good; the game's rules say what becomes of your seat, the others are told"),
            later(PEOPLE + "seats", "resign")),
    Command("CONCEDE", Text("the same as RESIGN: you leave the game (RULINGS G7); when one player is "
            "left of a game begun with two or more, that player wins"),
            later(PEOPLE + "seats", "resign")),
    Command("DRAW [WITHDRAW]", Text("propose a draw, alone or with your orders; the others are told a "
            "draw was proposed, not by whom. It stands until the end of the next turn; the game "
            "ends drawn when every player still in has one standing (RULINGS G6). DRAW WITHDRAW "
            "takes yours back"), later(PEOPLE + "draws", "draw")),
    Command("IF <theirs> THEN <yours>", Text(
        "(Neighbors, Phalanx, Proximity) a conditional line "
        "(RULINGS G8), one a line, several a mail: your move is played for you at once when the "
        "game's next moves are the ones after IF; IF ... THEN ... again for the moves after. With "
        "more than two players IF names every other player's move before yours, in order, "
        "separated by {separator} (IF b3xc3 {separator} d4xd5 THEN a4xb4). "
        "In Phalanx a move is a whole turn. Each line is checked when it comes; at most "
        "{lines} lines of at most {moves} moves a seat. Lines sent "
        "with your order start after it; your own order, or CLEAR, ends the lines you sent before. "
        "Nobody else sees them", separator=line_words.SEPARATOR, lines=line_words.MAX_LINES,
        moves=line_words.MAX_MOVES)),
    Command("LINES [<id>]", Text("your conditional lines standing in this game"),
            later(PEOPLE + "lines", "lines_command")),
    Command("CLEAR [<id>]", Text("end every conditional line you have standing in this game"),
            later(PEOPLE + "lines", "clear_command")),
    Command("REMATCH", Text("after a game of two has ended, with both still in it: offer the other "
            "player a new game of the same kind and options, the seats swapped; it begins when they "
            "send REMATCH too, within "
            "{days} days (each of you then gets its welcome, with a new password)", days=REMATCH_DAYS),
            later(PEOPLE + "rematch", "rematch")),
    Command("TAKEBACK [ACCEPT|DECLINE]", Text("ask to take back your last move until the next one is played; "
            "the others answer, alone or with orders; undone when all accept (RULINGS G9)")),
    Command("OBSERVE <id>", Text("(no password needed) follow a game you do not play: its reports "
            "as an observer sees them and its public press, never a sealed order; e.g. OBSERVE nb7 "
            "(once you reply to the code gm mails you)"), partial(optin.ask, "OBSERVE")),
    Command("UNOBSERVE <id>", Text("stop following a game, e.g. UNOBSERVE nb7 (once you reply to the "
            "code gm mails you; your mail program's unsubscribe does it at once)"),
            partial(optin.ask, "UNOBSERVE")),
    Command("PASSWORD RESET <id> [<seat>]", Text("(no password needed) a new password for your seat in "
            "game <id>: gm mails a code to the address the seat is registered to, and the new "
            "password goes there once that address sends the code back; every old password and "
            "reply address then stops working. E.g. PASSWORD RESET nb7"),
            later(PEOPLE + "seats", "password_reset")),
    Command("CONFIRM <code>", Text("(no password needed, from the address the code was mailed to) "
            "confirm a JOIN, OBSERVE or CREATE, a new address (SET ADDRESS), the undoing of a change "
            "of address (the code mailed to the old one), or a PASSWORD RESET, e.g. CONFIRM "
            "k3m9pq2x7w (or reply to that mail)"), partial(optin.confirm, welcome=send_welcome)),
    Command("CREATE <kind> <id> [<seats>]", Text("(where the game master allows it) open a game for "
            "players to JOIN, e.g. CREATE neighbors nb9 3 (once you reply to the code gm mails "
            "you); RATED last, where the server allows it, opens a rated game (CREATE neighbors "
            "nb9 3 RATED)"),
            partial(optin.ask, "CREATE")),
    Command("FORGET ME", Text("(no password needed, no GAME line) erase this address everywhere gm keeps "
            "it, once it confirms the code gm mails it: seats of finished games keep their names under "
            "a pseudonym; resign from running games first"), partial(optin.ask, "FORGET")),
    Command("RATINGS [<game>]", Text("(no password needed) the ladder of rated games of a kind: each "
            "player's public name (SET NAME), rating, rated games and the last one's date; without "
            "<game>, every kind's first ten. E.g. RATINGS neighbors"),
            later(PEOPLE + "ratingsmail", "ratings_command")),
    Command("JOIN TOURNAMENT <id> <name>", Text("(no password needed) enter a tournament under the name its "
            "games give you, e.g. JOIN TOURNAMENT spring ada (once you reply to the code gm mails you; "
            "some tournaments wait for the game master's approval too)"), partial(optin.ask, "JOIN")),
    Command("WITHDRAW TOURNAMENT <id>", Text("(from the address you entered with, once you reply to the code "
            "gm mails you) withdraw from a tournament: you are not paired again, and a round robin's "
            "later games of yours are lost by forfeit; a game you play now goes on (RESIGN ends it)"),
            partial(optin.ask, "WITHDRAW")),
    Command("STANDINGS <id>", Text("(no password needed) a tournament's standings with their tiebreaks, and "
            "every round's tables and results"), later(PEOPLE + "tournamentmail", "standings_command")),
    Command("SET <what> <value>", Text("change one of your own settings in this game: those below"),
            setcommands.run),
    *(Command(s.usage, s.does, setcommands.run) for s in setcommands.SETTERS),
)
HANDLERS: dict[str, Handler] = {c.word: c.handler for c in COMMANDS if c.handler is not None}
# The commands a mail without GAME/PASSWORD may hold, besides HELP.
NO_PASSWORD = ("LIST", "SUMMARY", "JOIN", "CREATE", "OBSERVE", "UNOBSERVE", "PASSWORD", "CONFIRM", "TRAIL",
               "RECORD", "MY", "FORGET", "RATINGS",
               "STANDINGS", "WITHDRAW")


def help_lines(width: int = 68, language: str = "en") -> list[str]:
    """The commands part of HELP, from COMMANDS: usage (with the command words of ``language``
    beside the English ones), then what it does in ``language``, wrapped to ``width``; a usage
    wider than the English column stands on a line of its own."""
    column = max(len(c.usage) for c in COMMANDS) + 2
    lines = []
    for command in COMMANDS:
        usage, does = usage_in(command.usage, language), said(command.does, language)
        wrapped = textwrap.wrap(does, width - column) or [""]
        if len(usage) + 2 > column:
            lines.append(usage)
            wrapped[0] = " " * column + wrapped[0]
        else:
            wrapped[0] = f"{usage:<{column}}{wrapped[0]}"
        lines += [wrapped[0]] + [" " * column + more for more in wrapped[1:]]
    return lines


def usage_in(usage: str, language: str) -> str:
    """``usage`` with the command words of ``language`` (gm.mail.orders.LOCAL_WORDS) beside its
    English word: "BOARD|BRETT", "HISTORY|VERLAUF [ALL|N|N-M]"; English: as it is."""
    if language == "en":
        return usage
    words = [local for local, (english, lang) in LOCAL_WORDS.items()
             if lang in (language, "") and (usage == english or usage.startswith(english + " "))
             and not transliterated(local)]
    if not words:
        return usage
    english = LOCAL_WORDS[words[0]][0]
    return "|".join([english, *words]) + usage[len(english):]


def transliterated(word: str) -> bool:
    """``word`` is another spelling of a local word with letters outside ASCII (BESTAETIGEN of
    BESTÄTIGEN): read, but not listed."""
    return word.isascii() and any(other != word and not other.isascii() and meaning == LOCAL_WORDS[word]
                                  for other, meaning in LOCAL_WORDS.items())


def said(text: str, language: str) -> str:
    """A sentence of the table in ``language`` (a plain str is looked up as a Text with no fields)."""
    if language == "en":
        return str.__str__(text)
    from gm.core.i18n import translate

    return str(translate(text if isinstance(text, Text) else Text(text), language))


def run(ctx: Context, view: GameView, player, command: str, inbound: Inbound) -> None:
    """Dispatch one command line (``ABSENCE <from> <to>`` carries its arguments)."""
    word, _, args = command.partition(" ")
    handler = HANDLERS.get(word.upper())
    if handler is not None:
        handler(ctx, view, player, args.strip(), inbound)


