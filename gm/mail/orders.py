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

import re
from dataclasses import dataclass, field

COMMANDS = ("HELP", "BOARD", "HISTORY")
_PRESS = re.compile(r"^PRESS\s+TO\s+(\S+)\s*$", re.I)

_GAME = re.compile(r"\bGAME\s*[:=]?\s*([A-Za-z0-9][A-Za-z0-9_.-]*)", re.I)
_PASSWORD = re.compile(r"\bPASS(?:WORD)?\s*[:=]?\s*(\S+)", re.I)
_SUBJECT_TAG = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_.-]*) T\d+\]")


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
    game = _GAME.search(line)
    password = _PASSWORD.search(line)
    if not game and not password:
        return False
    if game and mail.game_id is None:
        mail.game_id = game.group(1).lower()
    if password and mail.password is None:
        mail.password = password.group(1)
    rest = line
    for match in (game, password):
        if match:
            rest = rest.replace(match.group(0), " ")
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
        press = _PRESS.match(line)
        if press:
            press_to = press.group(1)
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
        if re.match(r"^(GAME|PASS(WORD)?)\b", line, re.I) and _credentials(line, mail):
            continue
        mail.order_lines.append(line)
    if press_to is not None:  # no ENDPRESS: the press runs to the end of the mail
        mail.press.append((press_to, "\n".join(press_lines).strip("\n")))
    # Else the subject: our reply tag "[nb1 T3]" first, then GAME/PASSWORD words.
    tag = _SUBJECT_TAG.search(subject or "")
    if mail.game_id is None and tag:
        mail.game_id = tag.group(1).lower()
    subject_game = _GAME.search(subject or "")
    if mail.game_id is None and subject_game:
        mail.game_id = subject_game.group(1).lower()
    if mail.password is None:
        found = _PASSWORD.search(subject or "")
        if found:
            mail.password = found.group(1)
    if mail.game_id is None and subject and subject.strip().upper() in COMMANDS and not mail.commands:
        mail.commands.append(subject.strip().upper())
    return mail
