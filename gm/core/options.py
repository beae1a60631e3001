"""A game's service options: the settings the service keeps, never handed to the rule module.

SERVICE holds each with its default and meaning (what ``gm options KIND`` prints); a game
kind's own options are its rule module's ``options``.  ``gm new -o KEY=VALUE`` takes both.
"""

from __future__ import annotations

import textwrap
from typing import Any

from games.base import Option, OptionError
from games.text import Text
from gm.core.times import check_period, parse_duration

SERVICE: dict[str, Option] = {
    "deadline": Option(None, "the turn deadline: a duration from the start of the turn (72h, 3d, "
                       "1d12h, 90m) or a weekday and time in UTC (fri 18:00); none: no deadline"),
    "reminder": Option("24h", "how long before the deadline players whose orders are missing are "
                       "reminded; 0 for none"),
    "grace": Option("24h", "sequential games: how long after the deadline gm waits before applying "
                    "the late policy"),
    "late": Option("wait", "sequential games: wait (keep waiting, tell the GM) or forfeit (the late "
                   "player forfeits)"),
    "press": Option("white", "none, white or grey (grey hides the sender)"),
    "absence_max": Option("14d", "the longest absence a player may declare"),
    "absence_total": Option("30d", "all of a player's absences in one game together"),
    "observers": Option("open", "who may follow the game by mail (OBSERVE): none, open (anyone) or "
                        "approved (the GM approves each one)"),
    "bouncing": Option("wait", "wait: while a player's mail bounces, the deadline waits for them a "
                       "day, at most once per turn and for at most absence_total in all; proceed: "
                       "the late policy as usual"),
    "format": Option("html", "report mail for players who set none (SET FORMAT): html (the text, "
                     "and an HTML page with the picture) or text"),
    "pictures": Option("on", "on or off: whether HTML reports show the board picture"),
    "rated": Option("false", "true: the game's final standings change its players' ratings (RULINGS "
                    "G11); set by the GM or a tournament, by CREATE only where the server allows it"),
}
DEFAULTS: dict[str, str | None] = {key: option.default for key, option in SERVICE.items()}
CHOICES = {"late": ("wait", "forfeit"), "bouncing": ("wait", "proceed"), "format": ("html", "text"),
           "pictures": ("on", "off"), "observers": ("none", "open", "approved"),
           "rated": ("true", "false")}  # options that are one word of a few


def check_settings(raw: dict[str, Any]) -> dict[str, str]:
    """Validate service options; return them as text."""
    out = {}
    for key, value in raw.items():
        if key not in DEFAULTS:
            raise OptionError(Text("unknown service option {key}", key=repr(key)))
        value = str(value).strip()
        if key == "deadline":
            value = "none" if value.lower() in {"", "none", "off"} else check_period(value)
        elif key in {"reminder", "grace", "absence_max", "absence_total"}:
            parse_duration(value)
        elif key == "press":
            if value.lower() not in {"none", "white", "grey", "gray"}:
                raise OptionError(Text("option press: none, white or grey"))
            value = "grey" if value.lower() == "gray" else value.lower()
        elif key in CHOICES:
            if value.lower() not in CHOICES[key]:
                *most, last = CHOICES[key]
                raise OptionError(Text("option {key}: {most} or {last}", key=key, most=", ".join(most), last=last))
            value = value.lower()
        out[key] = value
    return out


def split_options(options: dict[str, str], game_options: dict[str, Option] | None = None) -> dict[str, str]:
    """Take the service options out of ``options`` (in place); return them checked.

    With ``game_options`` (the kind's own), a key that is neither is refused naming them all."""
    if game_options is not None:
        check_known(options, game_options)
    service = {k: options.pop(k) for k in list(options) if k in DEFAULTS}
    return check_settings(service)


def with_defaults(stored: dict[str, str]) -> dict[str, str | None]:
    """A game's settings as stored, completed with the defaults; no deadline is None."""
    out = dict(DEFAULTS)
    out.update(stored)
    if out["deadline"] in (None, "none"):
        out["deadline"] = None
    return out


def check_known(options: dict[str, Any], game_options: dict[str, Option]) -> None:
    """OptionError for a key that is neither one of the kind's options nor a service option;
    the error names every option there is."""
    unknown = [key for key in options if key not in game_options and key not in SERVICE]
    if unknown:
        own = ", ".join(sorted(game_options)) or "none"
        raise OptionError(Text("unknown option {key}: this game's options are {own}; the service's are "
                               "{service} (see: gm options KIND)", key=repr(unknown[0]), own=own,
                               service=", ".join(SERVICE)))


def describe(title: str, game_options: dict[str, Option]) -> list[str]:
    """The lines of ``gm options KIND``: every option, its default and what it means."""
    lines = [f"{title}: the game's options"]
    lines += _described(game_options) or ["  (none)"]
    lines += ["", "Service options (every kind; gm settings changes them in a running game)"]
    return lines + _described(SERVICE)


def _described(table: dict[str, Option]) -> list[str]:
    """One entry per option, wrapped at 78 columns under its name."""
    width = max((len(key) for key in table), default=0)
    return [line for key, option in table.items()
            for line in textwrap.wrap(f"{key:<{width}}  {option.help} (default: {option.default or 'none'})",
                                      78, initial_indent="  ", subsequent_indent=" " * (width + 4))]
