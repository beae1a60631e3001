"""The players a game master names (gm new, gm replace, gm seat address): a one-word name
each, a mail address each, none twice; refused with a ServiceError saying why."""

from __future__ import annotations

import re
from email.utils import parseaddr

from gm.core import addresses
from gm.core.model import ServiceError

# A player's name is what the others type after PRESS TO: one word.
PLAYER_NAME = re.compile(r"[A-Za-z0-9_-]+")
NAME_RULE = "a name is one word of ASCII letters, digits, - and _ (no spaces, no accents)"


def check_mailbox(name: str, text: str, outcome: str = "no game was created") -> tuple[str, str]:
    """(address, display name) of a player's address as the GM wrote it (``zoë@bücher.example``,
    ``<ada@example.org>`` or ``Ada Lovelace <ada@example.org>``): the address in the form gm keeps
    (gm.core.addresses.normal: IDN domains in A-label form), the display name cleaned."""
    text = (text or "").strip()
    shown, written = parseaddr(text)
    address = addresses.normal(written)
    if not text or "," in text or address is None \
            or text not in {written, f"<{written}>"} and not text.endswith(f"<{written}>"):
        raise ServiceError(f"player {name}: {text!r} is not a mail address (write it as "
                           f"name@example.org or Name <name@example.org>); {outcome}")
    return address, addresses.display_name(shown)


def check_address(name: str, text: str, outcome: str = "no game was created") -> str:
    """The address of check_mailbox, without its display name."""
    return check_mailbox(name, text, outcome)[0]


def check_players(players: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """Each seat's name, address and display name, checked: a one-word name, a mail address,
    none twice."""
    checked: list[tuple[str, str, str]] = []
    names: dict[str, str] = {}
    seen: dict[str, str] = {}
    for name, text in players:
        name = (name or "").strip()
        if not name:
            raise ServiceError("a player needs a name (NAME=EMAIL); no game was created")
        if not PLAYER_NAME.fullmatch(name):
            raise ServiceError(f"player name {name!r}: {NAME_RULE} (players write it after PRESS TO); "
                               "no game was created")
        if name.lower() in names:
            raise ServiceError(f"two players are called {names[name.lower()]} and {name} (names are "
                               "compared without case): give each a name of their own; "
                               "no game was created")
        address, shown = check_mailbox(name, text)
        if address in seen:
            raise ServiceError(f"{address} is given for both {seen[address]} and {name}: "
                               "each player needs an address of their own; no game was created")
        names[name.lower()] = name
        seen[address] = name
        checked.append((name, address, shown))
    return checked
