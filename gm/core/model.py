"""A game as the service sees it: its stored row, its rules, its current state and its seats."""

from __future__ import annotations

from gm.core.value import field, valueclass
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, Protocol, Sequence

if TYPE_CHECKING:
    from games.base import Game


# Who a press message went to, kept as data with each archived copy (reports.audience, schema
# step 11): every public view (archive, feed, observers) shows only AUDIENCE_ALL.
AUDIENCE_ALL, AUDIENCE_PLAYERS, AUDIENCE_GM = "all", "players", "gm"


class ServiceError(Exception):
    """A use case that cannot be done (unknown game, unknown player, a refused override)."""


class NotStarted(ServiceError):
    """The game is open for players (JOIN) and has no position yet."""


class Status(str, Enum):
    """A game's status column."""

    OPEN = "open"  # waiting for players to JOIN: seats, no state yet (gm.service.people.lobby)
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"


class Seat(Protocol):
    """A seat of a game as the store reads it (gm.store.seatrows.SeatRow), read-only."""

    @property
    def game_id(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def email(self) -> str: ...
    @property
    def pw_hash(self) -> str: ...
    @property
    def active(self) -> int: ...
    @property
    def format(self) -> str | None: ...
    @property
    def timezone(self) -> str | None: ...
    @property
    def generation(self) -> int: ...
    @property
    def display_name(self) -> str: ...
    @property
    def calendar(self) -> str | None: ...
    @property
    def language(self) -> str | None: ...  # en | de | fr; None: not set


@valueclass
class GameView:
    """A game as stored now: its row, rules, current state (and its seq) and players."""

    row: Any  # the games row, a gm.store.gamerows.GameRow: read as row.id, row.status...
    rules: Game[Any, Any]
    state: Any
    seq: int
    players: Sequence[Seat]

    @property
    def id(self) -> str:
        game_id: str = self.row.id
        return game_id

    @property
    def status(self) -> str:
        status: str = self.row.status
        return status

    @property
    def turn(self) -> int:
        return self.rules.turn(self.state)

    def player(self, name: str) -> Seat | None:
        for p in self.players:
            if p.name.lower() == name.lower():
                return p
        return None

    @property
    def seated(self) -> list[Seat]:
        """The players still in the game (not ejected or resigned, RULINGS G5)."""
        return [p for p in self.players if p.active]

    @property
    def seated_names(self) -> list[str]:
        return [p.name for p in self.seated]


class OpenGameView(GameView):
    """An open game (gm.service.people.lobby): its seats and their credentials, no state yet; turn 0."""

    @property
    def turn(self) -> int:
        return 0


class OutcomeKind(StrEnum):
    """What became of one mail or order, as the messages table keeps it (a str: compares and
    stores as its text)."""

    PENDING = "pending"  # stored, not yet judged (its transaction sets the outcome)
    APPLIED = "applied"  # the orders were applied
    SEALED = "sealed"  # the orders were kept sealed until the turn closes
    REJECTED = "rejected"  # refused, with the reason told to the sender
    HELD = "held"  # kept during a lock-out until the seat's address confirms it
    IGNORED = "ignored"  # kept in older stores; no step makes it now
    ROBOT = "robot"  # an automatic mail or a bounce: never answered
    DUPLICATE = "duplicate"  # seen before: not judged again
    HELP = "help"  # commands, help or lobby requests, no orders judged
    ERROR = "error"  # set aside with its fault, for `gm inbox --retry`
    BUSY = "busy"  # another daemon judges it now


@valueclass
class Outcome:
    """What became of one mail or order."""

    outcome: OutcomeKind
    detail: str = ""
    game_id: str | None = None
    replies: list[str] = field(default_factory=list)  # bodies queued to the sender

    def __post_init__(self) -> None:
        self.outcome = OutcomeKind(self.outcome)
