"""The order-mail format: which game, which password, which commands and orders.

A mail names its game and password (``GAME nb1 PASSWORD kq7hz3xw2m``, in the body or the
subject), gives commands one a line (COMMANDS, ARGUMENT_COMMANDS, or their German and French
words, LOCAL_WORDS; the players' list with its help is gm.service.people.mailcommands), press
between ``PRESS TO <names|ALL|GM>`` and ``ENDPRESS``, optionally ``TURN <n>`` and ``PREVIEW``
(the orders judged and shown, never played), and stops at ``END``.  Every other line is a
candidate order line: only the game's rules know its notation, so the service picks the
orders.  The password is written *** in an order line that carries it, since such a line
is stored and echoed.  The subject is read only for ``GAME <id>`` (with PASSWORD) or our
tag ``[gm <id>]`` (``[<id> T<n>]`` in older mail).  Quotes and signatures are already cut off
by gm.mail.inbound.
"""

from __future__ import annotations

from gm.core.value import field, valueclass

from gm.core.passwords import ALPHABET
from gm.mail.conditional import is_line
from gm.mail.msgids import answered_turn
from gm.mail.rawmail import ascii_lower

COMMANDS = ("HELP", "BOARD", "HISTORY", "LIST", "SUMMARY", "RESIGN", "CONCEDE", "DRAW", "TRAIL", "LINES",
            "CLEAR", "TAKEBACK", "RECORD", "RATINGS",
            "REMATCH")
# Commands that may name one game (RATINGS: one game kind) after them ("LIST nb7"), read without a GAME line.
GAME_ARGUMENT_COMMANDS = ("LIST", "TRAIL", "RECORD", "RATINGS")
OF_THE_MAILS_GAME = ("TRAIL", "RECORD")  # alone under a GAME line: of that game
# Commands whose line carries arguments: the whole line is the command ("SET FORMAT TEXT").
ARGUMENT_COMMANDS = ("ABSENCE", "HISTORY", "SET", "JOIN", "LEAVE", "CREATE", "OBSERVE", "UNOBSERVE",
                     "CONFIRM", "DRAW", "LINES", "CLEAR", "TAKEBACK", "FORGET",
                     "STANDINGS", "WITHDRAW")
# Commands a subject may hold (a List-Unsubscribe mailto, a reply to the address code's mail).
SUBJECT_COMMANDS = ("UNOBSERVE", "CONFIRM")
# The command words a German or French player may write instead of the English ones: localized
# word -> (English command word, language); a word both languages write alike has language "".
# A line is read exactly as its English word, in the places the English word is read (a word
# of a command without arguments only as the whole line); HELP in each language lists them.
LOCAL_WORDS: dict[str, tuple[str, str]] = {
    "HILFE": ("HELP", "de"), "AIDE": ("HELP", "fr"),
    "BRETT": ("BOARD", "de"), "PLATEAU": ("BOARD", "fr"),
    "VERLAUF": ("HISTORY", "de"), "HISTORIQUE": ("HISTORY", "fr"),
    "LISTE": ("LIST", ""),
    "MEINE SPIELE": ("SUMMARY", "de"), "MES PARTIES": ("SUMMARY", "fr"),
    "MEINE DATEN": ("MY DATA", "de"), "MES DONNÉES": ("MY DATA", "fr"), "MES DONNEES": ("MY DATA", "fr"),
    "AUFGEBEN": ("RESIGN", "de"), "ABANDON": ("RESIGN", "fr"), "ABANDONNER": ("RESIGN", "fr"),
    "REMIS": ("DRAW", "de"), "NULLE": ("DRAW", "fr"),
    "MITSPIELEN": ("JOIN", "de"), "REJOINDRE": ("JOIN", "fr"),
    "VERLASSEN": ("LEAVE", "de"), "QUITTER": ("LEAVE", "fr"),
    "BEOBACHTEN": ("OBSERVE", "de"), "OBSERVER": ("OBSERVE", "fr"),
    "BESTÄTIGEN": ("CONFIRM", "de"), "BESTAETIGEN": ("CONFIRM", "de"), "CONFIRMER": ("CONFIRM", "fr"),
    "ZURÜCKNEHMEN": ("TAKEBACK", "de"), "ZURUECKNEHMEN": ("TAKEBACK", "de"), "REPRENDRE": ("TAKEBACK", "fr"),
    "ENDE": ("END", "de"), "FIN": ("END", "fr"),
    "REVANCHE": ("REMATCH", ""),
}
CODE_LENGTH = 10  # the address codes of SET ADDRESS (gm.service.people.seats), letters of passwords.ALPHABET
# Everything below is read with string methods, in time linear in the line:
# no regular expression that a long line could make backtrack.
_ID_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_ID_REST = _ID_FIRST | frozenset("_.-")


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _keyword(low: str, word: str, start: int = 0) -> int:
    """The index of the first occurrence of word (lower case) at a word start (regex \\bword), or -1."""
    at = low.find(word, start)
    while at != -1 and at > 0 and _word_char(low[at - 1]):
        at = low.find(word, at + 1)
    return at


def find_game(text: str, whole: bool = False) -> tuple[str, str] | None:
    """(matched text, game id) of the first GAME <id> (also GAME: id, GAME=id), as the old regex
    \\bGAME\\s*[:=]?\\s*([A-Za-z0-9][A-Za-z0-9_.-]*) found it; ``whole``: GAME must be a whole
    word (\\bGAME\\b), so "games" is not GAME and "s"."""
    low = ascii_lower(text)
    at = _keyword(low, "game")
    while at != -1:
        if whole and at + 4 < len(low) and _word_char(low[at + 4]):
            at = _keyword(low, "game", at + 1)
            continue
        i = _skip_space(text, at + 4)
        if i < len(text) and text[i] in ":=":
            i = _skip_space(text, i + 1)
        if i < len(text) and text[i] in _ID_FIRST:
            end = i + 1
            while end < len(text) and text[end] in _ID_REST:
                end += 1
            return text[at:end], text[i:end]
        at = _keyword(low, "game", at + 1)
    return None


def find_password(text: str, whole: bool = False) -> tuple[str, str] | None:
    """(matched text, password) of the first PASSWORD <word> (or PASS, with : or =), as the old regex
    \\bPASS(?:WORD)?\\s*[:=]?\\s*(\\S+) found it; ``whole``: PASS or PASSWORD must be a whole
    word, so "passage" is not PASS and "age"."""
    low = ascii_lower(text)
    at = _keyword(low, "pass")
    while at != -1:
        starts = [at + 8, at + 4] if low.startswith("word", at + 4) else [at + 4]
        if whole:
            starts = [s for s in starts[:1] if s >= len(low) or not _word_char(low[s])]
        for after in starts:
            i = password_start(text, after)
            if i is not None:
                end = i + 1
                while end < len(text) and not text[end].isspace():
                    end += 1
                return text[at:end], text[i:end]
        at = _keyword(low, "pass", at + 1)
    return None


def password_start(text: str, after: int) -> int | None:
    """Where the password read after a PASS or PASSWORD that ends at ``after`` begins (the next
    word, past one : or =), or None if nothing follows: the one rule of where a password stands,
    which gm.mail.redact masks from."""
    i = _skip_space(text, after)
    if i < len(text) and text[i] in ":=":
        j = _skip_space(text, i + 1)
        if j < len(text):
            i = j  # the value after the separator; else the separator itself is the value
    return i if i < len(text) and not text[i].isspace() else None


def without_password(text: str) -> str:
    """``text`` with every PASSWORD <word> written as PASSWORD ***: what may be echoed back."""
    done, rest = "", text
    for _ in range(20):  # a subject holds few; the bound keeps hostile input linear
        found = find_password(rest)
        if found is None:
            break
        matched, secret = found
        at = rest.find(matched)
        done += rest[:at] + matched[: len(matched) - len(secret)] + "***"
        rest = rest[at + len(matched):]
    return done + rest


MASK = "***"
SEPARATORS = ",;:"  # what may stand right after a password in a line ("PASSWORD: x, b4xd4")


def mask_word(line: str, secret: str) -> str:
    """``line`` with each whole-word ``secret`` (between spaces, the line's ends or a separator)
    written as ***: the mail's password never becomes part of an order's text."""
    out, start, at = [], 0, line.find(secret)
    while at != -1:
        end = at + len(secret)
        if (at == 0 or line[at - 1].isspace() or line[at - 1] in ":=") \
                and (end == len(line) or line[end].isspace() or line[end] in SEPARATORS):
            out.append(line[start:at] + MASK)
            start = end
        at = line.find(secret, end)
    return "".join(out) + line[start:]


def _tag(subject: str) -> tuple[str, int | None] | None:
    """(game id, turn or None) of the first reply tag in a subject: gm's ``[gm nb1]`` (no turn),
    or ``[nb1 T3]`` as gm wrote it before (read first where both could be meant, "[gm T3]")."""
    at = subject.find("[")
    while at != -1:
        found = _old_tag(subject, at + 1) or _game_tag(subject, at + 1)
        if found:
            return found
        at = subject.find("[", at + 1)
    return None


def _id_end(text: str, i: int) -> int:
    """The end of the game id starting at ``i``, or ``i`` if none starts there."""
    if i >= len(text) or text[i] not in _ID_FIRST:
        return i
    end = i + 1
    while end < len(text) and text[end] in _ID_REST:
        end += 1
    return end


def _old_tag(subject: str, i: int) -> tuple[str, int] | None:
    """``nb1 T3]`` at ``i``: (game id, turn)."""
    end = _id_end(subject, i)
    if end > i and subject.startswith(" T", end):
        digits = end + 2
        while digits < len(subject) and subject[digits].isdecimal():
            digits += 1
        if digits > end + 2 and subject.startswith("]", digits):
            return subject[i:end], _number(subject[end + 2:digits])
    return None


def _game_tag(subject: str, i: int) -> tuple[str, None] | None:
    """``gm nb1]`` at ``i``: (game id, None); "[gm]" alone names no game."""
    if not subject.startswith("gm ", i):
        return None
    end = _id_end(subject, i + 3)
    return (subject[i + 3:end], None) if end > i + 3 and subject.startswith("]", end) else None


def _number(digits: str) -> int:
    """A turn number as written (decimal digits), capped so that a hostile one stays small."""
    digits = digits.lstrip("0")
    return 10**12 if len(digits) > 12 else int(digits or "0")


def game_tag(game_id: str | None) -> str:
    """The tag a subject of gm's starts with: ``[gm nb7]`` for a mail of game nb7, the same at
    every turn (a changing subject splits a thread), ``[gm]`` for mail of no game; written here,
    beside subject_tag that reads it."""
    return f"[gm {game_id}]" if game_id else "[gm]"


def subject_tag(subject: str) -> str | None:
    """The game id of our first reply tag, ``[gm nb1]`` or ``[nb1 T3]``, as the regex
    \\[(?:([A-Za-z0-9][A-Za-z0-9_.-]*) T\\d+|gm ([A-Za-z0-9][A-Za-z0-9_.-]*))\\] finds it."""
    tag = _tag(subject)
    return tag[0] if tag else None


def press_targets(line: str) -> list[str] | None:
    """The names in a PRESS TO <names> line (split by commas and/or spaces), or None.

    ALL and GM are names here too; the service knows what they mean.  Each name once.
    """
    words = line.split(None, 2)
    if len(words) != 3 or ascii_lower(words[0]) != "press" or ascii_lower(words[1]) != "to":
        return None
    names: list[str] = []
    for name in words[2].replace(",", " ").split():
        if name not in names:
            names.append(name)
    return names or None


def turn_line(line: str) -> int | None:
    """The turn a line "TURN 12" names, or None."""
    words = line.split()
    if len(words) == 2 and ascii_lower(words[0]) == "turn" and words[1].isdecimal():
        return _number(words[1])
    return None


COMMAND_WORDS = frozenset(COMMANDS) | frozenset(ARGUMENT_COMMANDS) | {"PRESS", "GAME", "PASSWORD", "PASS",
                                                                      "TURN", "END", "ENDPRESS", "PREVIEW"}


def starts_with_command(line: str) -> bool:
    """The line's first word is a mail command word (HELP, PRESS, GAME, ...; HILFE, AIDE, ...): a
    line the service never sets aside as a greeting, even when it is not an order."""
    words = in_english(line)[0].split(None, 1)
    return bool(words) and words[0].upper() in COMMAND_WORDS


def in_english(line: str) -> tuple[str, str | None]:
    """(``line`` with a localized command word at its start written as the English one, the word's
    language): ("RESIGN", "de") for "Aufgeben", ("LIST nb7", "") for "liste nb7"; a line that
    starts with none: (the line, None).  Two words ("MEINE SPIELE") before one."""
    words = line.split(None, 2)
    for count in (2, 1):
        if len(words) >= count:
            found = LOCAL_WORDS.get(" ".join(words[:count]).upper())
            if found is not None:
                rest = line.split(None, count)[count:]
                return " ".join([found[0], *rest]), found[1]
    return line, None


def words_language(body: str, subject: str = "") -> str | None:
    """The language of the first localized command word of a mail ("de" for HILFE, "fr" for AIDE),
    read as the mail is read (not inside press, not past END); None when its command words are
    English, alike in both languages (LISTE), or there are none."""
    return read(subject, body).language


def _starts_credentials(line: str) -> bool:
    """The line begins with GAME, PASS or PASSWORD as a word."""
    low = ascii_lower(line)
    for word in ("password", "game", "pass"):
        if low.startswith(word) and (len(low) == len(word) or not _word_char(low[len(word)])):
            return True
    return False


@valueclass
class OrderMail:
    game_id: str | None = None
    password: str | None = None
    commands: list[str] = field(default_factory=list)
    order_lines: list[str] = field(default_factory=list)  # candidates: the service picks the orders
    press: list[tuple[tuple[str, ...], str]] = field(default_factory=list)  # (names, ALL or GM; text)
    turn: int | None = None  # the turn the orders are for: a TURN line, else the subject's tag
    if_lines: list[str] = field(default_factory=list)  # IF ... THEN ... (gm.mail.conditional)
    preview: bool = False  # a PREVIEW line: the orders are judged and shown, never played
    language: str | None = None  # of the first localized command word (LOCAL_WORDS), if any

    @property
    def order_text(self) -> str:
        return "\n".join(self.order_lines)

    @property
    def empty(self) -> bool:
        return (not self.commands and not self.order_lines and not self.press and not self.preview
                and not self.if_lines)


def _credentials(line: str, mail: OrderMail) -> bool:
    """Take GAME/PASSWORD from a line; True when the line held nothing else."""
    game = find_game(line, whole=True)
    password = find_password(line, whole=True)
    if not game and not password:
        return False
    if game and mail.game_id is None:
        mail.game_id = game[1].lower()
    if password and mail.password is None:
        mail.password = password[1]
    rest = line
    for match in (game, password):
        if match:
            rest = rest.replace(match[0], " ")
    return not rest.strip(" ,;:")


def read(subject: str, text: str, answered: str | None = None) -> OrderMail:
    """The order mail a subject and a body (quotes already cut off) hold; ``answered``: the
    Message-ID of the mail it answers (its In-Reply-To), whose turn of the game the mail names
    is the mail's turn when no TURN line or older subject tag says one (gm.mail.msgids)."""
    mail = OrderMail()
    body_turn = _read_body(text, mail)
    subject = subject or ""
    _read_subject(subject, mail, body_turn)
    if mail.turn is None and mail.game_id and answered:
        mail.turn = answered_turn(answered, mail.game_id)
    _complete_commands(subject, mail)
    return mail


def _read_body(text: str, mail: OrderMail) -> int | None:
    """Read the body's lines into ``mail``; returns the turn a TURN line names, or None."""
    press_to: tuple[str, ...] | None = None
    press_lines: list[str] = []
    body_turn = None
    for raw in text.splitlines():
        line = raw.strip()
        if press_to is not None:  # inside PRESS TO ... ENDPRESS: kept as written
            if line.upper() == "ENDPRESS":
                mail.press.append((press_to, "\n".join(press_lines).strip("\n")))
                press_to, press_lines = None, []
            else:
                press_lines.append(raw.rstrip())
            continue
        names = press_targets(line)
        if names is not None:
            press_to = tuple(names)
            continue
        if not line or line.startswith("#"):
            continue
        english = _local(line, mail)
        if line.upper() == "END" or english == "END":
            break
        if is_line(line):
            mail.if_lines.append(line)
            continue
        if _preview_line(line, mail):
            continue
        command = _command(line if english is None else english)
        if command is not None:
            mail.commands.append(command)
            continue
        turn = turn_line(line)
        if turn is not None:
            if body_turn is None:
                body_turn = turn
            continue
        if _starts_credentials(line) and _credentials(line, mail):
            continue
        mail.order_lines.append(line)
    if press_to is not None:  # no ENDPRESS: the press runs to the end of the mail
        mail.press.append((press_to, "\n".join(press_lines).strip("\n")))
    return body_turn


def _local(line: str, mail: OrderMail) -> str | None:
    """The English of a line that starts with a localized command word and is a command read so
    (noting the word's language on ``mail`` when it is the first); None otherwise: a line
    "Aufgeben bitte" is no RESIGN, and stays as written."""
    english, language = in_english(line)
    if language is None or not (english == "END" or _command(english) is not None):
        return None
    if language and mail.language is None:
        mail.language = language
    return english


def _preview_line(line: str, mail: OrderMail) -> bool:
    """A line PREVIEW (or PREVIEW <order>) makes the mail a preview; the order after it is one
    of the mail's order lines."""
    words = line.split(None, 1)
    if words[0].upper() != "PREVIEW":
        return False
    mail.preview = True
    if len(words) > 1:
        mail.order_lines.append(words[1])
    return True


def _command(line: str) -> str | None:
    """The command a (stripped, non-empty) body line gives, as it is stored; None if none."""
    word = line.upper()
    if word in COMMANDS:
        return word
    words = word.split()
    first = words[0]
    if first in ARGUMENT_COMMANDS or (first in GAME_ARGUMENT_COMMANDS and len(words) == 2):
        return first + " " + line[len(first):].strip()
    if words == ["MY", "GAMES"]:
        return "SUMMARY"
    if words == ["MY", "DATA"]:
        return "MY DATA"
    if words[:2] == ["PASSWORD", "RESET"]:  # a command, not credentials
        return "PASSWORD RESET " + " ".join(line.split()[2:4])  # <id> [<seat>]
    return None


def _read_subject(subject: str, mail: OrderMail, body_turn: int | None) -> None:
    """What the body left open, from the subject: read only as our reply tag (``[gm nb1]``,
    or ``[nb1 T3]`` of older mail) or GAME <id> (PASSWORD <word>); the turn is a TURN line's, else
    an older tag's."""
    tag = _tag(subject)
    if mail.game_id is None and tag:
        mail.game_id = tag[0].lower()
    subject_game = find_game(subject, whole=True)
    if mail.game_id is None and subject_game:
        mail.game_id = subject_game[1].lower()
    if mail.password is None:
        found = find_password(subject, whole=True)
        if found:
            mail.password = found[1]
    if body_turn is not None:
        mail.turn = body_turn
    elif tag and mail.game_id == tag[0].lower():
        mail.turn = tag[1]


def _complete_commands(subject: str, mail: OrderMail) -> None:
    """The game LEAVE <id> names, a subject's commands when the mail has none, a bare TRAIL or
    RECORD made the mail's game's, and the password masked in the order lines."""
    if mail.game_id is None:  # LEAVE <id> names its game
        leave = next((c.split()[1] for c in mail.commands if c.startswith("LEAVE ") and len(c.split()) == 2),
                     None)
        if leave and all(c in _ID_REST for c in leave):
            mail.game_id = leave.lower()
    if mail.game_id is None and not mail.commands:
        subject = _local(subject.strip(), mail) or subject
        words = subject.upper().split()
        if len(words) == 1 and words[0] in COMMANDS:
            mail.commands.append(words[0])
        elif words == ["MY", "GAMES"]:
            mail.commands.append("SUMMARY")
        elif words == ["MY", "DATA"]:
            mail.commands.append("MY DATA")
        else:
            mail.commands += _subject_commands(subject)
    if mail.game_id is not None:  # a bare TRAIL is of the mail's game, with a password or not
        mail.commands = [f"{c} {mail.game_id}" if c in OF_THE_MAILS_GAME else c for c in mail.commands]
    if mail.password:  # "GAME nb1 PASSWORD x b4xd4": the line is judged, stored and echoed as written
        mail.order_lines = [mask_word(line, mail.password) for line in mail.order_lines]
        mail.if_lines = [mask_word(line, mail.password) for line in mail.if_lines]


def _subject_commands(subject: str) -> list[str]:
    """UNOBSERVE <id> or CONFIRM <code> anywhere in a subject ("Re: CONFIRM k3m9..."), the first;
    CONFIRM only with a word shaped like gm's codes, so "Re: confirm my orders" is not one."""
    words = subject.split()[:50]
    for i, word in enumerate(words[:-1]):
        command, arg = word.upper(), words[i + 1].strip(".,;:")
        if command == "UNOBSERVE" and arg and arg[0] in _ID_FIRST and all(c in _ID_REST for c in arg):
            return [f"UNOBSERVE {arg}"]
        if command == "CONFIRM" and len(arg) == CODE_LENGTH and all(c in ALPHABET for c in arg.lower()):
            return [f"CONFIRM {arg}"]
    return []
