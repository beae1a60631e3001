"""A game's service options: the settings the service keeps, never handed to the rule module.

    deadline     the turn deadline: a duration from the start of the turn
                 (``72h``, ``3d``, ``1d12h``, ``90m``) or a weekday and time
                 in UTC (``fri 18:00``); default none (no deadline)
    reminder     how long before the deadline players whose orders are
                 missing are reminded (default ``24h``; ``0`` for none)
    grace        sequential games: how long after the deadline gm waits
                 before applying the late policy (default ``24h``)
    late         sequential games: ``wait`` (keep waiting, tell the GM) or
                 ``forfeit`` (the late player forfeits; default ``wait``)
    press        ``none``, ``white`` or ``grey`` (grey hides the sender;
                 default ``white``)
    absence_max  the longest absence a player may declare (default ``14d``)
    absence_total  all of a player's absences in one game together (default ``30d``)
    observers    who may follow the game by mail (OBSERVE): ``none``, ``open``
                 (anyone; the default) or ``approved`` (the GM approves each one)
    bouncing     ``wait`` (default): while a player's mail bounces, the deadline
                 waits for them a day, at most once per turn and for at most
                 absence_total in all (a player can make her own mail bounce);
                 ``proceed``: the late policy as usual
    format       report mail for players who set none (SET FORMAT): ``html`` (the
                 text, and an HTML page with the picture) or ``text`` (default ``html``)
    pictures     ``on`` or ``off``: whether HTML reports show the board picture
                 (default ``on``)
"""

from __future__ import annotations

from typing import Any

from games.base import OptionError
from gm.core.times import check_period, parse_duration

DEFAULTS: dict[str, str | None] = {
    "deadline": None,
    "reminder": "24h",
    "grace": "24h",
    "late": "wait",
    "press": "white",
    "absence_max": "14d",
    "absence_total": "30d",
    "observers": "open",
    "bouncing": "wait",
    "format": "html",
    "pictures": "on",
}
CHOICES = {"late": ("wait", "forfeit"), "bouncing": ("wait", "proceed"), "format": ("html", "text"),
           "pictures": ("on", "off"), "observers": ("none", "open", "approved")}  # options that are one word of a few


def check_settings(raw: dict[str, Any]) -> dict[str, str]:
    """Validate service options; return them as text."""
    out = {}
    for key, value in raw.items():
        if key not in DEFAULTS:
            raise OptionError(f"unknown service option {key!r}")
        value = str(value).strip()
        if key == "deadline":
            value = "none" if value.lower() in {"", "none", "off"} else check_period(value)
        elif key in {"reminder", "grace", "absence_max", "absence_total"}:
            parse_duration(value)
        elif key == "press":
            if value.lower() not in {"none", "white", "grey", "gray"}:
                raise OptionError("option press: none, white or grey")
            value = "grey" if value.lower() == "gray" else value.lower()
        elif key in CHOICES:
            if value.lower() not in CHOICES[key]:
                *most, last = CHOICES[key]
                raise OptionError(f"option {key}: {', '.join(most)} or {last}")
            value = value.lower()
        out[key] = value
    return out


def split_options(options: dict[str, str]) -> dict[str, str]:
    """Take the service options out of ``options`` (in place); return them checked."""
    service = {k: options.pop(k) for k in list(options) if k in DEFAULTS}
    return check_settings(service)


def with_defaults(stored: dict[str, str]) -> dict[str, str | None]:
    """A game's settings as stored, completed with the defaults; no deadline is None."""
    out = dict(DEFAULTS)
    out.update(stored)
    if out["deadline"] in (None, "none"):
        out["deadline"] = None
    return out
