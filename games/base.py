"""The one rule interface every game implements: ``Game[State, Order]``.

A rule module is pure: it takes a state and orders and returns a new state and
the events that happened; it never touches mail, storage or templates.  One
interface serves sequential and simultaneous games (after OpenSpiel):
``to_move`` names who owes an order now; ``submit`` applies an order at once
(sequential) or seals it in the state (simultaneous); ``ready`` says whether
the turn may close and ``close_turn`` adjudicates it, the service deciding
*when*; ``leave`` removes a player as the rules say (RULINGS G5).

States are game-defined objects that ``dump``/``load`` turn into versioned
JSON; orders are value objects whose ``str()`` is their canonical notation.
"""

from __future__ import annotations

import abc
import hashlib
import math
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from games.text import Text


class GameError(ValueError):
    """Base of every error a rule module raises; ``str()`` is for players."""


class OrderError(GameError):
    """An order that cannot be accepted."""


class OrderSyntaxError(OrderError):
    """The text is not an order in this game's notation."""


class IllegalOrderError(OrderError):
    """A well-formed order that the rules forbid in this position.

    ``legal`` lists the legal orders in notation where the game can list them.
    """

    def __init__(self, message: str, legal: list[str] | None = None):
        super().__init__(message)
        self.legal = legal


class AmbiguousOrderError(OrderError):
    """The text could mean more than one legal order."""

    def __init__(self, message: str, candidates: list[str] | None = None):
        super().__init__(message)
        self.candidates = candidates or []


class NotYourTurnError(OrderError):
    """The player owes no order now."""


class OptionError(GameError):
    """A game option that is unknown or has a bad value."""


class StateError(GameError):
    """A state (JSON) that is malformed, of the wrong version, or breaks the rules."""


class UnknownGameKind(GameError):
    """A game kind no rule module is known or installed for (games.registry.get)."""


@dataclass(frozen=True)
class Event:
    """Something that happened.  ``to`` is None for everyone, else the players who may see it."""

    text: str
    kind: str = "info"
    to: tuple[str, ...] | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, player: str | None) -> bool:
        return self.to is None or player is None or player in self.to


class GameState(Protocol):
    """What the base class reads of every game's state: who left (G5) and a draw (G6)."""

    @property
    def left(self) -> tuple[str, ...]: ...

    @property
    def drawn(self) -> bool: ...


StateT = TypeVar("StateT", bound=GameState)  # a game's state
OrderT = TypeVar("OrderT")  # a game's order, as ``read_order`` gives it
ResultState = TypeVar("ResultState")


@dataclass
class Result(Generic[ResultState]):
    """The new state after a rule acted, and the events that happened."""

    state: ResultState
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Option:
    """A game option: its default (as the text a GM would type) and what it means."""

    default: str | None
    help: str


def seeded_rng(seed: int, *labels: object) -> random.Random:
    """A generator for one random event, derived from the game's seed and labels.

    Deriving a fresh generator per event (e.g. ``seeded_rng(seed, "draw", round)``)
    keeps replay exact without storing generator state (RULINGS G1).
    """
    text = ":".join([str(seed), *map(str, labels)])
    digest = hashlib.sha256(text.encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def parse_bool(name: str, value: str | bool) -> bool:
    if isinstance(value, bool):
        return value
    low = str(value).strip().lower()
    if low in {"1", "true", "yes", "on"}:
        return True
    if low in {"0", "false", "no", "off"}:
        return False
    raise OptionError(Text("option {name}: expected true or false, got {value}", name=name,
                           value=repr(value)))


def parse_int(name: str, value: str | int, low: int | None = None, high: int | None = None) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise OptionError(Text("option {name}: expected a whole number, got {value}", name=name,
                               value=repr(value))) from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise OptionError(Text("option {name}: {number} is out of range {low}..{high}", name=name,
                               number=number, low=low, high=high))
    return number


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)([dhms]?)")
_UNIT_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1, "": 1}


def duration_seconds(text: str, unit_required: bool = False) -> float:
    """Seconds in a duration as GMs write it: ``72h``, ``3d``, ``1d12h``, ``90m``, ``1h30m``.

    Spaces and case do not matter; a number without a unit counts seconds and
    may come only last (``3600``, ``1h30`` = 3630).  With ``unit_required`` a
    text with no unit at all is refused, where "24" could mean hours as well.
    Raises ValueError; callers turn it into their own OptionError.
    """
    compact = re.sub(r"\s+", "", str(text)).lower()
    parts = _DURATION_PART.findall(compact)
    if (not compact or re.search(r"\d\s+\d", str(text))  # "30 30h" is not 3030 hours
            or "".join(n + u for n, u in parts) != compact
            or any(not u for _, u in parts[:-1])
            or (unit_required and not any(u for _, u in parts))):
        raise ValueError(f"{text!r} is not a duration like 72h, 3d, 1d12h or 90m")
    return sum(float(n) * _UNIT_SECONDS[u] for n, u in parts)


_OFF = {"off", "none", "no", "false", ""}


def duration_option(name: str, value: Any, *, off: bool = False, zero: bool = False,
                    unit_required: bool = False) -> float | None:
    """A duration option (a timer, a time bank, a reopen span) in seconds.

    ``value`` is the GM's text (read by ``duration_seconds``) or already a
    number of seconds (options are checked again once typed).  With ``off``
    the words off/none/no (and None) give None: no timer at all.  ``zero``
    allows a duration of nothing; ``unit_required`` refuses a bare number in
    text, where "24" could mean hours.  Raises OptionError.
    """
    if value is None or (isinstance(value, str) and value.strip().lower() in _OFF):
        if off:
            return None
        raise OptionError(Text("option {name}: a duration is needed, like 24h, 90m or 2d", name=name))
    if isinstance(value, bool):
        raise OptionError(Text("option {name}: expected a duration like 24h, got {value}", name=name,
                               value=repr(value)))
    if isinstance(value, (int, float)):
        seconds = float(value)
    else:
        try:
            seconds = duration_seconds(str(value), unit_required=unit_required)
        except ValueError:
            raise OptionError(Text("option {name}: {value} is not a duration like 24h, 90m, 2d or 1h30m",
                                   name=name, value=repr(value))) from None
    if seconds < 0 or (seconds == 0 and not zero):
        raise OptionError(Text("option {name}: the duration must be longer than nothing", name=name))
    return seconds


def format_duration(seconds: float) -> str:
    """The shortest text ``duration_seconds`` reads back; a day stays "24h" as GMs write it."""
    seconds = int(seconds)
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if unit == "d" and seconds < 2 * size:
            continue
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts) or "0s"


def single_order_line(text: str, missing: str, several: str) -> str:
    """The one order line of a mail for a game that takes one order per mail.

    Blank lines are skipped and white space folded.  ``missing`` is the
    refusal when there is no line (a Text); ``several`` when there are more, a
    template (marked with games.text.mark) with ``{count}`` and ``{lines}`` (the
    first three, joined by "; ") filled in.
    """
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    if not lines:
        raise OrderSyntaxError(missing)
    if len(lines) > 1:
        raise OrderSyntaxError(Text(several, count=len(lines), lines="; ".join(lines[:3])))
    return lines[0]


# --- checks for load(): a state's JSON values, refused with StateError --------------


def need(condition: bool, message: str) -> None:
    """Raise StateError(message) unless ``condition`` holds."""
    if not condition:
        raise StateError(message)


def is_whole(value: Any) -> bool:
    """A JSON whole number (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number within low..high, else StateError."""
    need(is_whole(value), f"{where}: expected a whole number, got {value!r}")
    need((low is None or value >= low) and (high is None or value <= high),
         f"{where}: {value} is out of range {low}..{high}")
    checked: int = value
    return checked


def json_number(value: Any, where: str, optional: bool = False) -> float | None:
    """``value`` as a finite number (None allowed when ``optional``), else StateError."""
    if value is None and optional:
        return None
    need(isinstance(value, (int, float)) and not isinstance(value, bool)
         and math.isfinite(value), f"{where}: expected a number, got {value!r}")
    checked: float = value
    return checked


def load_left(data: dict[str, Any], players: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The players removed from the game (G5): the optional ``left`` key of a state's JSON.

    Older states have no such key (nobody left); ``dump_left`` writes it only when set.
    """
    left = data.get("left", [])
    need(isinstance(left, list) and all(isinstance(p, str) for p in left),
         f"left: expected a list of player names, got {left!r}")
    need(all(p in players for p in left), f"left: {left!r} names someone who does not play")
    need(len(set(left)) == len(left), "left: a player is named twice")
    return tuple(left)


def dump_left(data: dict[str, Any], left: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``data`` with the ``left`` key added when someone has left (G5); returns ``data``."""
    if left:
        data["left"] = list(left)
    return data


def load_drawn(data: dict[str, Any]) -> bool:
    """Whether a state's game ended drawn by agreement (G6): the optional ``drawn`` key of its JSON.

    Older states have no such key (not drawn); ``dump_drawn`` writes it only when set.
    """
    drawn = data.get("drawn", False)
    need(isinstance(drawn, bool), f"drawn: expected true or false, got {drawn!r}")
    checked: bool = drawn
    return checked


def dump_drawn(data: dict[str, Any], drawn: bool) -> dict[str, Any]:
    """``data`` with the ``drawn`` key added when the game ended drawn (G6); returns ``data``."""
    if drawn:
        data["drawn"] = True
    return data


def json_object(value: Any, where: str) -> dict[str, Any]:
    need(isinstance(value, dict), f"{where}: expected an object, got {value!r}")
    checked: dict[str, Any] = value
    return checked


def json_list(value: Any, where: str) -> list[Any]:
    need(isinstance(value, list), f"{where}: expected a list, got {value!r}")
    checked: list[Any] = value
    return checked


class Game(abc.ABC, Generic[StateT, OrderT]):
    """The rules of one game.  Stateless: every method takes the state it works on.

    Subclasses set the class attributes and implement the methods that raise
    NotImplementedError, and ``leave`` (abstract: every game says what a
    removed player means under its rules).  Sequential games need not
    implement ``close_turn``.
    """

    kind: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    simultaneous: ClassVar[bool] = False
    state_version: ClassVar[int] = 1
    options: ClassVar[dict[str, Option]] = {}

    # --- set-up -----------------------------------------------------------
    def check_options(self, raw: dict[str, str]) -> dict[str, Any]:
        """Validate raw ``key=value`` options; return them typed, defaults filled."""
        unknown = sorted(set(raw) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise OptionError(Text("unknown option {option} (this game knows: {known})",
                                   option=repr(unknown[0]), known=known))
        return self.convert_options({**{k: o.default for k, o in self.options.items()}, **raw})

    def convert_options(self, raw: dict[str, str | None]) -> dict[str, Any]:
        return dict(raw)

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> StateT:
        raise NotImplementedError

    def start(self, state: StateT, now: float) -> StateT:
        """The state as the game begins at ``now`` (the first report goes out).

        Most games need nothing; a game with clocks (Proximity's time bank, PX8)
        starts them here.  The service calls it once, at creation, and replay
        calls it with the stored creation time (G1).
        """
        return state

    def check_players(self, players: list[str]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise OptionError(Text("{game} takes {low} to {high} players, not {count}", game=self.title,
                                   low=self.min_players, high=self.max_players, count=len(players)))
        if len(set(players)) != len(players):
            raise OptionError(Text("player names must be different"))

    # --- orders -------------------------------------------------------------
    # ``parse_order`` and ``submit`` are written once, here: both first ask
    # ``check_turn`` (the player plays, the game is not over, the player owes
    # an order now), then hand over to the game's own ``read_order`` and
    # ``step``.  Subclasses may not override them (see __init_subclass__).

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("parse_order", "submit", "check_turn"):
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} overrides Game.{name}; implement "
                    f"{'read_order' if name == 'parse_order' else 'step'} instead"
                )

    def check_turn(self, state: StateT, player: str) -> None:
        """Raise NotYourTurnError unless ``player`` owes an order in ``state`` now."""
        if player not in self.players(state):
            raise NotYourTurnError(Text("{player} does not play in this game", player=player))
        if player in self.removed(state):
            raise NotYourTurnError(Text("{player} has left this game and sends no more orders (G5)",
                                        player=player))
        if self.is_over(state):
            raise NotYourTurnError(Text("the game is over"))
        waiting = self.to_move(state)
        if player not in waiting:
            raise NotYourTurnError(self.not_your_turn(state, player, waiting))

    def not_your_turn(self, state: StateT, player: str, waiting: list[str]) -> str:
        """The refusal for a player who owes no order now; a game may add its reason."""
        if not waiting:
            return Text("it is not your turn (waiting for nobody)")
        return Text("it is not your turn (waiting for {players})", players=", ".join(waiting))

    def parse_order(self, state: StateT, player: str, text: str) -> OrderT:
        """Parse the order lines of one mail from ``player``, after ``check_turn``."""
        self.check_turn(state, player)
        return self.read_order(state, player, text)

    def submit(self, state: StateT, player: str, order: OrderT, now: float) -> Result[StateT]:
        """Hand one player's order to the rules, after ``check_turn``; see ``step``."""
        self.check_turn(state, player)
        return self.step(state, player, order, now)

    def read_order(self, state: StateT, player: str, text: str) -> OrderT:
        """The game's own parsing of the order lines of one mail (possibly several lines).

        Called by ``parse_order`` once ``check_turn`` has passed.
        """
        raise NotImplementedError

    def step(self, state: StateT, player: str, order: OrderT, now: float) -> Result[StateT]:
        """The game's own handling of one order, once ``check_turn`` has passed.

        A sequential game applies it; a simultaneous one seals it in the state.
        Returns the new state (the input state is never changed) and the events.
        """
        raise NotImplementedError

    def ready(self, state: StateT, now: float) -> bool:
        """Simultaneous games: may the turn be closed now without waiting?"""
        return False

    def close_turn(self, state: StateT, now: float) -> Result[StateT]:
        """Simultaneous games: adjudicate what is in (missing orders per the rules)."""
        raise NotImplementedError(f"{self.title} has no turns to close")

    def timer(self, state: StateT) -> float | None:
        """A time (epoch seconds) at which the rules themselves close the turn, if any."""
        return None

    # --- a correspondence clock (RULINGS G10; games.clock) ------------------------
    def clock_of(self, state: StateT) -> Any:
        """The state's ``games.clock.Clock``, or None: the game has no clock (the default)."""
        return None

    def with_clock(self, state: StateT, clock: Any) -> StateT:
        """A copy of ``state`` with ``clock`` (the service credits stopped time and gives time)."""
        raise GameError(f"{self.title} has no clock")

    def clock_view(self, state: StateT) -> list[str]:
        """One line per player still in: their bank in words (empty without a clock)."""
        return []

    def legal_orders(self, state: StateT, player: str) -> list[str] | None:
        """The legal orders in notation, or None where listing them is impractical."""
        return None

    def random_order(self, state: StateT, player: str, rng: random.Random) -> str | None:
        """A random legal order's text for random-play tests, or None when none exists.

        Games whose turns cannot be listed (Phalanx) override this.
        """
        legal = self.legal_orders(state, player)
        return rng.choice(legal) if legal else None

    # --- questions about a state --------------------------------------------
    def players(self, state: StateT) -> list[str]:
        raise NotImplementedError

    def turn(self, state: StateT) -> int:
        raise NotImplementedError

    def to_move(self, state: StateT) -> list[str]:
        raise NotImplementedError

    def waiting(self, state: StateT) -> list[str]:
        """Of ``to_move``, the players who have sent no orders this turn (never what the others
        sent).  A sequential game applies an order at once, so it waits for ``to_move``; a
        simultaneous game leaves out the players whose orders are sealed in the state."""
        return self.to_move(state)

    def is_over(self, state: StateT) -> bool:
        raise NotImplementedError

    def scores(self, state: StateT) -> Mapping[str, float]:
        raise NotImplementedError

    def winners(self, state: StateT) -> list[str]:
        """The players still in the game with the best score once it is over.

        A tie is a shared win (G2); a removed player is never a winner (G5),
        though their score stays for the record; a game drawn by agreement has
        no winner (G6).
        """
        if not self.is_over(state) or self.is_drawn(state):
            return []
        remaining = self.remaining(state)
        if not remaining:
            return []
        scores = self.scores(state)
        best = max(scores[p] for p in remaining)
        return [p for p in remaining if scores[p] == best]

    def ranking(self, state: StateT, winners: list[str] | None = None) -> list[list[str]]:
        """The final standings as tiers, best first (RULINGS G11): the winners tied (a shared
        win; after a draw, everyone still in), then the others still in by score (equal scores
        tied), then those who left, a later leaver above an earlier one.  ``winners`` None: as
        the rules say; else those the game master declared (or a forfeit gave)."""
        gone = self.removed(state)
        remaining = self.remaining(state)
        if winners is not None:
            top = [p for p in self.players(state) if p in winners]
        else:
            top = remaining if self.is_drawn(state) else self.winners(state)
        scores = self.scores(state)
        rest = [p for p in remaining if p not in top]
        tiers = [top] if top else []
        for score in sorted({scores.get(p, 0) for p in rest}, reverse=True):
            tiers.append([p for p in rest if scores.get(p, 0) == score])
        return tiers + [[p] for p in reversed(gone) if p not in top]

    # --- players leaving (RULINGS G5) ----------------------------------------
    @abc.abstractmethod
    def leave(self, state: StateT, player: str, now: float) -> Result[StateT]:
        """Remove ``player`` (ejected, resigned) at ``now``, as the rules for a missing order say.

        Returns the new state and public events, the first ``left_event``; the player is then in
        ``removed``, never in ``to_move`` or the ``winners``.  A simultaneous game whose every
        remaining order is in closes the turn here (nothing else would wake it before a deadline).
        Raises GameError for a player not in the game or already gone, or a game that is over.
        """

    def removed(self, state: StateT) -> list[str]:
        """The players removed from the game (G5), in the order they left.

        Every game's state keeps them in ``left`` (a JSON key written only when set).
        """
        return list(state.left)

    def remaining(self, state: StateT) -> list[str]:
        """The players still in the game, in player order."""
        gone = set(self.removed(state))
        return [p for p in self.players(state) if p not in gone]

    def check_leave(self, state: StateT, player: str) -> None:
        """Raise GameError unless ``player`` may leave ``state`` now."""
        if player not in self.players(state):
            raise GameError(Text("{player} does not play in this game", player=player))
        if player in self.removed(state):
            raise GameError(Text("{player} has already left this game", player=player))
        if self.is_over(state):
            raise GameError(Text("the game is over; nobody can leave it"))

    @staticmethod
    def left_event(player: str, reason: str = "") -> Event:
        """The public news of a removal: "ada has left the game." plus what it means (a Text)."""
        if reason:
            text = Text("{player} has left the game. {reason}", player=player, reason=reason)
        else:
            text = Text("{player} has left the game.", player=player)
        return Event(text, kind="left", data={"player": player})

    # --- a draw by agreement (RULINGS G6) --------------------------------------
    def is_drawn(self, state: StateT) -> bool:
        """The game ended drawn by agreement (G6).  Every game's state keeps it in ``drawn``
        (a JSON key written only when set)."""
        return bool(state.drawn)

    def end_drawn(self, state: StateT, now: float) -> Result[StateT]:
        """End the game drawn by agreement at ``now`` (G6): over, no winner, the scores as
        they stand are the final standings.  The service decides *when* (every remaining
        player has a standing proposal, or the GM says so) and records it, so that a replay
        calls this again (G1).  Raises GameError for a game that is over."""
        if self.is_over(state):
            raise GameError(Text("the game is over; it cannot end drawn"))
        new = self.mark_drawn(state)
        return Result(new, [Event(Text("The game ends drawn by agreement (RULINGS G6): no winner; the "
                                       "scores as they stand are the final standings."), kind="end",
                                  data={"winners": []})])

    @abc.abstractmethod
    def mark_drawn(self, state: StateT) -> StateT:
        """A copy of ``state`` that is over and drawn (``is_over`` and ``is_drawn`` true): no
        order is awaited, no sealed order or timer is left.  The input is never changed."""

    # --- presentation (pure functions of a state) ---------------------------
    def render_board(self, state: StateT, viewer: str | None = None) -> str:
        """ASCII board, at most 72 columns wide, as ``viewer`` may see it (None: the GM)."""
        raise NotImplementedError

    def describe(self, state: StateT, viewer: str | None = None) -> list[str]:
        """The board for a screen reader (SET FORMAT ACCESSIBLE), as ``viewer`` may see it: lines
        of words, no drawing: each piece or claim by its cell, grouped by owner (a line per
        owner), then the empty or open cells where that helps, then the legal orders of
        ``viewer`` where they are few.  Each line a games.text.Text, so it is said in the
        reader's language; every piece of the position is in it (tests read it back)."""
        raise NotImplementedError

    def board_table(self, state: StateT, viewer: str | None = None) -> tuple[list[str], list[list[str]]]:
        """The board as a table for the HTML part of an accessible report: the column headers
        (the first names the row header's column) and the rows, each starting with its row's
        header; a cell is what stands there in words ("" when empty)."""
        raise NotImplementedError

    def view(self, state: StateT, viewer: str | None = None) -> dict[str, Any]:
        """JSON-able facts for the report template, sealed orders hidden from ``viewer``."""
        return {}

    def help_text(self) -> str:
        """Order notation, examples and the rulings that apply, for HELP mails."""
        raise NotImplementedError

    def full_trail(self, state: StateT) -> list[str] | None:
        """The full trail table of every player, every row (the TRAIL mail command and the
        archive's game page), as lines sent as written, never wrapped; public, as every player
        sees it.  None: the game keeps no trail (the default)."""
        return None

    # --- JSON ---------------------------------------------------------------
    def dump(self, state: StateT) -> dict[str, Any]:
        raise NotImplementedError

    def load(self, data: dict[str, Any]) -> StateT:
        raise NotImplementedError

    def check_version(self, data: dict[str, Any]) -> None:
        if not isinstance(data, dict):
            raise StateError("a state must be a JSON object")
        if data.get("version") != self.state_version:
            raise StateError(
                f"{self.kind} state version {data.get('version')!r} is not "
                f"{self.state_version}, the version this code reads"
            )
