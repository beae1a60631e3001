"""Correspondence clocks (RULINGS G10): a bank of time per player, written ``B+I/M``.

Each player starts with B, gains I after each of their moves, never above M.
The bank of the player to move runs from ``started`` (when the report that put
them to move went out) less ``stopped`` (absences and times gm could not send
mail, which the service credits) until their order arrives.  ``parse_clock`` is
the one reader of the option; ``ClockedGame`` gives a sequential game whose
state keeps a ``clock`` its timer, its loss on time and its bank per move.
PX8's time bank is the same clock with no increment and no maximum.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from games.text import Plural, Text
from games.base import (
    Event,
    GameError,
    OptionError,
    Result,
    duration_option,
    format_duration,
    json_number,
    need,
)

DAY = 86400.0
EXAMPLES = ("3d", "3d+1d", "3d+1d/10d", "10d+36h/20d")
HELP = ("correspondence clock (G10): off, or B+I/M: a bank of B, plus I after each move, "
        "at most M, e.g. " + ", ".join(EXAMPLES))


@dataclass(frozen=True)
class ClockSpec:
    """The option's value: start bank, increment per move, maximum (None: no ceiling)."""

    base: float
    increment: float = 0.0
    maximum: float | None = None

    def text(self) -> str:
        out = format_duration(self.base)
        if self.increment:
            out += "+" + format_duration(self.increment)
        if self.maximum is not None:
            out += "/" + format_duration(self.maximum)
        return out


def parse_clock(name: str, value: Any) -> ClockSpec | None:
    """``off`` or ``B[+I][/M]`` (``3d``, ``3d+1d``, ``3d+1d/10d``) as a ClockSpec, or None.

    Each part is a duration as ``games.base.duration_seconds`` reads it.  Raises OptionError.
    """
    if isinstance(value, ClockSpec):
        return value
    if value is None or str(value).strip().lower() in {"off", "none", "no", "false", ""}:
        return None
    text = str(value).strip()
    head, slash, top = text.partition("/")
    start, plus, step = head.partition("+")
    if (slash and not top.strip()) or (plus and not step.strip()) or "/" in top or "+" in step:
        raise OptionError(Text("option {name}: {value} is not a clock like {examples}", name=name,
                               value=repr(text), examples=" or ".join(EXAMPLES[:3])))
    base = duration_option(name, start)
    assert base is not None  # off was handled above
    increment = duration_option(name, step, zero=True) if plus else 0.0
    maximum = duration_option(name, top) if slash else None
    if maximum is not None and maximum < base:
        raise OptionError(Text("option {name}: the maximum {top} is less than the start bank {start}",
                               name=name, top=top.strip(), start=start.strip()))
    return ClockSpec(base, increment or 0.0, maximum)


@dataclass(frozen=True)
class Clock:
    """Every player's bank (seconds), and when the bank of the player to move began to run.

    ``stopped``: seconds since ``started`` that do not count (absence, outage).  ``earned``:
    what the last move's increment added to its player's bank, the part a takeback (G9)
    takes away again (``take_back_increment``).
    """

    spec: ClockSpec
    banks: dict[str, float] = field(default_factory=dict)
    started: float | None = None
    stopped: float = 0.0
    earned: float = 0.0

    def spent(self, now: float) -> float:
        """Seconds the player to move has used since their bank began to run."""
        if self.started is None:
            return 0.0
        return max(0.0, float(now) - self.started - self.stopped)

    def left(self, player: str, mover: str | None, now: float | None) -> float:
        """``player``'s bank at ``now`` (None: as stored, the running bank not yet charged)."""
        bank = self.banks.get(player, 0.0)
        if now is not None and player == mover:
            bank -= self.spent(now)
        return max(0.0, bank)

    def due(self, mover: str) -> float | None:
        """When the mover's bank runs out, or None before the clock starts."""
        if self.started is None:
            return None
        return self.started + self.stopped + self.banks.get(mover, 0.0)


def new_clock(spec: ClockSpec | None, players: list[str] | tuple[str, ...]) -> Clock | None:
    return None if spec is None else Clock(spec, {p: spec.base for p in players})


def start(clock: Clock, now: float) -> Clock:
    """The bank of the player to move begins to run at ``now`` (a report put them to move)."""
    return replace(clock, started=float(now), stopped=0.0)


def charge(clock: Clock, mover: str, now: float) -> tuple[Clock, bool]:
    """The mover's bank less the time used until ``now``; True when it ran out (then zero)."""
    spent = clock.spent(now)
    bank = clock.banks.get(mover, 0.0)
    out = spent >= bank
    return replace(clock, banks={**clock.banks, mover: 0.0 if out else bank - spent}), out


def credit_move(clock: Clock, mover: str, now: float) -> Clock:
    """After ``mover``'s move at ``now``: their increment (never above the maximum), and the
    next player's bank runs from now."""
    bank = clock.banks.get(mover, 0.0)
    top = clock.spec.maximum
    after = bank + clock.spec.increment
    if top is not None:
        after = max(bank, min(after, top))
    return replace(start(clock, now), banks={**clock.banks, mover: after}, earned=after - bank)


def take_back_increment(clock: Clock, player: str) -> Clock:
    """The seam for a takeback (G9): ``player``'s last move is undone, so the increment it
    earned is taken away; no time spent is given back."""
    bank = clock.banks.get(player, 0.0)
    return replace(clock, banks={**clock.banks, player: max(0.0, bank - clock.earned)}, earned=0.0)


def give(clock: Clock, player: str, seconds: float) -> Clock:
    """The game master gives ``player`` more time (``gm clock``); no maximum applies."""
    if player not in clock.banks:
        raise GameError(Text("{player} has no bank on this game's clock", player=player))
    return replace(clock, banks={**clock.banks, player: clock.banks[player] + seconds})


def with_stopped(clock: Clock, seconds: float) -> Clock:
    """The seconds since the bank began to run that do not count (absence, outage)."""
    return replace(clock, stopped=max(0.0, float(seconds)))


def zeroed(clock: Clock, player: str) -> Clock:
    return replace(clock, banks={**clock.banks, player: 0.0})


# --- JSON ------------------------------------------------------------------------------
def dump_clock(clock: Clock) -> dict[str, Any]:
    spec = clock.spec
    out: dict[str, Any] = {"base": spec.base, "increment": spec.increment, "maximum": spec.maximum,
                           "banks": dict(clock.banks), "started": clock.started}
    if clock.stopped:
        out["stopped"] = clock.stopped
    if clock.earned:
        out["earned"] = clock.earned
    return out


def load_clock(data: Any, players: list[str] | tuple[str, ...]) -> Clock | None:
    """A state's ``clock`` key (None or missing: no clock), checked; StateError if malformed."""
    if data is None:
        return None
    need(isinstance(data, dict), f"clock: expected an object, got {data!r}")
    base = json_number(data.get("base"), "clock.base")
    increment = json_number(data.get("increment", 0.0), "clock.increment")
    maximum = json_number(data.get("maximum"), "clock.maximum", optional=True)
    banks = data.get("banks")
    need(isinstance(banks, dict) and set(banks) == set(players),
         "clock.banks: expected one bank per player")
    checked = {p: json_number(banks[p], f"clock.banks.{p}") for p in players}
    return Clock(ClockSpec(float(base or 0.0), float(increment or 0.0), maximum),
                 {p: float(v or 0.0) for p, v in checked.items()},
                 json_number(data.get("started"), "clock.started", optional=True),
                 float(json_number(data.get("stopped", 0.0), "clock.stopped") or 0.0),
                 float(json_number(data.get("earned", 0.0), "clock.earned") or 0.0))


# --- words -----------------------------------------------------------------------------
def bank_words(seconds: float) -> Text:
    """A bank as players read it: "2 days 4 hours", "5 hours 10 minutes", "3 minutes"."""
    whole = int(max(0.0, seconds))
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        day_words = Plural("{n} day", "{n} days", n=days)
        if not hours:
            return day_words
        return Text("{days} {hours}", days=day_words, hours=Plural("{n} hour", "{n} hours", n=hours))
    if hours:
        hour_words = Plural("{n} hour", "{n} hours", n=hours)
        if not minutes:
            return hour_words
        return Text("{hours} {minutes}", hours=hour_words,
                    minutes=Plural("{n} minute", "{n} minutes", n=minutes))
    if minutes:
        return Plural("{n} minute", "{n} minutes", n=minutes)
    return Text("less than a minute") if whole else Text("no time")


def bank_lines(clock: Clock, players: list[str], mover: str | None,
               now: float | None = None) -> list[str]:
    """One line per player: their bank in words, the player to move marked."""
    lines: list[str] = []
    for name in players:
        left = clock.left(name, mover, now)
        if name == mover and clock.started is not None:
            lines.append(Text("{player}: {bank} left, running", player=name, bank=bank_words(left)))
        else:
            lines.append(Text("{player}: {bank} left", player=name, bank=bank_words(left)))
    return lines


def clock_event(clock: Clock, player: str) -> Event:
    """The news of a move on the clock: the mover's bank after it."""
    bank = clock.banks.get(player, 0.0)
    return Event(Text("{player}'s clock: {bank} left", player=player, bank=bank_words(bank)), kind="clock",
                 data={"player": player, "bank": bank, "earned": clock.earned})


class ClockedGame:
    """Mixed in before ``Game`` by a sequential game whose state has a ``clock`` attribute.

    The game calls ``clocked_step`` from its ``step`` and implements ``replace_clock``;
    this gives ``timer``, ``ready`` and ``close_turn`` (a loss on time) for it.
    """

    is_over: Callable[..., bool]
    to_move: Callable[..., list[str]]
    leave: Callable[..., Result[Any]]

    def replace_clock(self, state: Any, clock: Clock | None) -> Any:
        raise NotImplementedError

    def clock_of(self, state: Any) -> Clock | None:
        return getattr(state, "clock", None)

    def with_clock(self, state: Any, clock: Clock) -> Any:
        return self.replace_clock(state, clock)

    def mover_of(self, state: Any) -> str | None:
        waiting = [] if self.is_over(state) else self.to_move(state)
        return waiting[0] if len(waiting) == 1 else None

    def start(self, state: Any, now: float) -> Any:
        clock = self.clock_of(state)
        return state if clock is None else self.replace_clock(state, start(clock, now))

    def timer(self, state: Any) -> float | None:
        clock, mover = self.clock_of(state), self.mover_of(state)
        return None if clock is None or mover is None else clock.due(mover)

    def ready(self, state: Any, now: float) -> bool:
        due = self.timer(state)
        return due is not None and now >= due

    def close_turn(self, state: Any, now: float) -> Result[Any]:
        mover = self.mover_of(state)
        if mover is None or not self.ready(state, now):
            raise GameError(Text("a turn closes only when the clock of the player to move runs out"))
        return self.lose_on_time(state, mover, now)

    def lose_on_time(self, state: Any, player: str, now: float) -> Result[Any]:
        """G10: ``player``'s bank is empty: they leave as G5 says (G7: with one left, that
        one wins); the next player's bank runs from ``now``."""
        clock = self.clock_of(state)
        assert clock is not None
        result = self.leave(self.replace_clock(state, zeroed(clock, player)), player, now)
        after = self.clock_of(result.state)
        new = result.state if after is None else self.replace_clock(result.state, start(after, now))
        news = Event(Text("{player}'s clock ran out: {player} loses on time (RULINGS G10).", player=player),
                     kind="clock", data={"player": player, "lost_on_time": True})
        return Result(new, [news, *result.events])

    def clocked_step(self, state: Any, player: str, now: float,
                     play: Callable[[Any], Result[Any]]) -> Result[Any]:
        """``play`` the order on ``state`` with the clock kept: the mover's time charged first
        (an empty bank loses instead), their increment and the next bank's start after."""
        clock = self.clock_of(state)
        if clock is None:
            return play(state)
        clock, out = charge(clock, player, now)
        if out:
            return self.lose_on_time(state, player, now)
        result = play(self.replace_clock(state, clock))
        moved = self.clock_of(result.state)
        assert moved is not None
        moved = credit_move(moved, player, now)
        return Result(self.replace_clock(result.state, moved), [*result.events,
                                                               clock_event(moved, player)])

    def clock_view(self, state: Any) -> list[str]:
        """The report's bank lines (as stored: the running bank as the report went out)."""
        clock = self.clock_of(state)
        if clock is None:
            return []
        players = [p for p in clock.banks if p not in getattr(state, "left", ())]
        return bank_lines(clock, players, self.mover_of(state))
