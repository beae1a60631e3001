"""The order-mail format: which game, which password, which commands and orders.

    GAME nb1 PASSWORD kq7hz3xw2m      (one line, or GAME and PASSWORD lines;
                                       the subject line works too)
    b4xd4                             (order lines, in the game's notation)
    HELP | BOARD | HISTORY            (commands, one per line)
    ABSENCE <from> <to>               (dates, e.g. ABSENCE 2025-03-07 2025-03-14)
    PRESS TO <name|ALL>               (a message to other players, up to
    ...                                a line ENDPRESS)
    ENDPRESS
    END                               (optional: nothing below is read)

Quoted text and signatures are already cut off by gm.mail.inbound.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gm.mail.rawmail import ascii_lower

COMMANDS = ("HELP", "BOARD", "HISTORY")
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


def find_game(text: str) -> tuple[str, str] | None:
    """(matched text, game id) of the first GAME <id> (also GAME: id, GAME=id), as the old regex
    \\bGAME\\s*[:=]?\\s*([A-Za-z0-9][A-Za-z0-9_.-]*) found it."""
    low = ascii_lower(text)
    at = _keyword(low, "game")
    while at != -1:
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


def find_password(text: str) -> tuple[str, str] | None:
    """(matched text, password) of the first PASSWORD <word> (or PASS, with : or =), as the old regex
    \\bPASS(?:WORD)?\\s*[:=]?\\s*(\\S+) found it."""
    low = ascii_lower(text)
    at = _keyword(low, "pass")
    while at != -1:
        starts = [at + 8, at + 4] if low.startswith("word", at + 4) else [at + 4]
        for after in starts:
            i = _skip_space(text, after)
            if i < len(text) and text[i] in ":=":
                j = _skip_space(text, i + 1)
                if j < len(text):
                    i = j  # the value after the separator; else the separator itself is the value
            if i < len(text) and not text[i].isspace():
                end = i + 1
                while end < len(text) and not text[end].isspace():
                    end += 1
                return text[at:end], text[i:end]
        at = _keyword(low, "pass", at + 1)
    return None


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


def subject_tag(subject: str) -> str | None:
    """The game id of our reply tag "[nb1 T3]" (the first one), as the old regex
    \\[([A-Za-z0-9][A-Za-z0-9_.-]*) T\\d+\\] found it."""
    at = subject.find("[")
    while at != -1:
        i = at + 1
        if i < len(subject) and subject[i] in _ID_FIRST:
            end = i + 1
            while end < len(subject) and subject[end] in _ID_REST:
                end += 1
            if subject.startswith(" T", end):
                digits = end + 2
                while digits < len(subject) and subject[digits].isdecimal():
                    digits += 1
                if digits > end + 2 and subject.startswith("]", digits):
                    return subject[i:end]
        at = subject.find("[", at + 1)
    return None


def press_target(line: str) -> str | None:
    """The name in a PRESS TO <name> line (the whole line, stripped), or None."""
    words = line.split()
    if len(words) == 3 and ascii_lower(words[0]) == "press" and ascii_lower(words[1]) == "to":
        return words[2]
    return None


def _starts_credentials(line: str) -> bool:
    """The line begins with GAME, PASS or PASSWORD as a word."""
    low = ascii_lower(line)
    for word in ("password", "game", "pass"):
        if low.startswith(word) and (len(low) == len(word) or not _word_char(low[len(word)])):
            return True
    return False


@dataclass
class OrderMail:
    game_id: str | None = None
    password: str | None = None
    commands: list[str] = field(default_factory=list)
    order_lines: list[str] = field(default_factory=list)
    press: list[tuple[str, str]] = field(default_factory=list)  # (name or ALL, text)

    @property
    def order_text(self) -> str:
        return "\n".join(self.order_lines)

    @property
    def empty(self) -> bool:
        return not self.commands and not self.order_lines and not self.press


def _credentials(line: str, mail: OrderMail) -> bool:
    """Take GAME/PASSWORD from a line; True when the line held nothing else."""
    game = find_game(line)
    password = find_password(line)
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


def read(subject: str, text: str) -> OrderMail:
    mail = OrderMail()
    press_to, press_lines = None, []
    for raw in text.splitlines():
        line = raw.strip()
        if press_to is not None:  # inside PRESS TO ... ENDPRESS: kept as written
            if line.upper() == "ENDPRESS":
                mail.press.append((press_to, "\n".join(press_lines).strip("\n")))
                press_to, press_lines = None, []
            else:
                press_lines.append(raw.rstrip())
            continue
        press = press_target(line)
        if press is not None:
            press_to = press
            continue
        if not line or line.startswith("#"):
            continue
        word = line.upper()
        if word == "END":
            break
        if word in COMMANDS:
            mail.commands.append(word)
            continue
        if word.split()[0] == "ABSENCE":
            mail.commands.append("ABSENCE " + line[len("ABSENCE"):].strip())
            continue
        if _starts_credentials(line) and _credentials(line, mail):
            continue
        mail.order_lines.append(line)
    if press_to is not None:  # no ENDPRESS: the press runs to the end of the mail
        mail.press.append((press_to, "\n".join(press_lines).strip("\n")))
    # Else the subject: our reply tag "[nb1 T3]" first, then GAME/PASSWORD words.
    tag = subject_tag(subject or "")
    if mail.game_id is None and tag:
        mail.game_id = tag.lower()
    subject_game = find_game(subject or "")
    if mail.game_id is None and subject_game:
        mail.game_id = subject_game[1].lower()
    if mail.password is None:
        found = find_password(subject or "")
        if found:
            mail.password = found[1]
    if mail.game_id is None and subject and subject.strip().upper() in COMMANDS and not mail.commands:
        mail.commands.append(subject.strip().upper())
    return mail
