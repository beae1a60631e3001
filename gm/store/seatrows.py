"""The rows of seats and people a repository gives services: seats, their settings and credentials,
open games, observers, requests waiting for their opt-in, bounce holds.

Each field is named and typed as its column reads on both back ends (gm.store.record).  A column
added by a later schema step has its server default, so a store at an older step still reads.
"""

from __future__ import annotations

from gm.store.record import Record, record


@record
class SeatRow(Record):
    """A players row: one seat of a game, who holds it and how they are mailed."""

    game_id: str
    seat: int
    name: str
    email: str
    pw_hash: str
    active: int
    format: str | None = None  # html | text; None: the game's
    timezone: str | None = None  # an IANA name; None: UTC
    generation: int = 0  # bumped to revoke the seat's reply tokens
    display_name: str = ""  # the player's address as they gave it, if they did
    calendar: str | None = None  # 'on': reports carry the deadline as a calendar event
    language: str | None = None  # en | de | fr (gm.core.i18n.LANGUAGES); None: not set


@record
class AddressSettingsRow(Record):
    """An address_settings row: the format, time zone, calendar and language setting an address gave
    all its seats (SET ... ALL)."""

    address: str
    format: str | None
    timezone: str | None
    updated: float
    calendar: str | None = None
    language: str | None = None


@record
class AddressSeatRow(Record):
    """A seat still in a game, registered to an address: its game, name and the game's status."""

    game_id: str
    name: str
    status: str


@record
class SeatKey(Record):
    """A seat by its game and name, whatever its state."""

    game_id: str
    name: str


@record
class CodeRow(Record):
    """An address_codes row: a code mailed for a seat ('address', 'revert' or 'reset')."""

    code_hash: str
    game_id: str
    player: str
    new_email: str
    expires: float
    used: int
    purpose: str = "address"
    created: float = 0.0
    ended: str | None = None  # why the code stopped working (confirmed, superseded...)


@record
class PasswordStandingRow(Record):
    """A seat at an address with its password hash, its lock's end and the address's (None: none)."""

    name: str
    pw_hash: str
    seat_until: float | None
    sender_until: float | None


@record
class OpenGameRow(Record):
    """An open_games row: a game waiting for players."""

    game_id: str
    seats: int
    min_seats: int
    created_by: str


@record
class ObserverRow(Record):
    """An observers row: an address following a game (approved 0: waiting for the GM)."""

    game_id: str
    email: str
    approved: int
    since: float


@record
class OptInRow(Record):
    """A pending_requests row: requests (OBSERVE, JOIN, CREATE) waiting for their address's code."""

    code_hash: str
    address: str
    mailbox: str
    actions: str  # one a line
    created: float
    expires: float
    confirmed: float | None


@record
class BounceHoldRow(Record):
    """A time bouncing=wait held a player's deadline: the turn's start_seq and the seconds held."""

    start_seq: int
    seconds: float
