"""Correspondence clocks in the service (RULINGS G10): stopped time, reminders, time given.

The banks live in the rule state (games.clock), so a replay reproduces them from
the stored arrival times.  What the rules cannot know the service credits: the
time a player's declared absence and gm's outages (could not send, not running)
stopped their bank.  A credit, and time the GM gives (`gm clock`), is a state
the GM made (an override, taken as given by `gm verify`), with its history line.
A loss on time is a turn the rules close (recorded as such and replayed); the
seat of a player who lost then leaves the game (G5).
"""

from __future__ import annotations

from typing import Any

from games.text import Text
from gm.core import times
from gm.core.model import GameView, ServiceError, Status
from gm.service.context import Context
from gm.service.outgoing import calendar, reports
from gm.service.play.overrides import default_actor, gm_lines, record, required_reason
from gm.service.table import deadlines, games
from gm.service.table.clockdue import REMINDER, mover_of, reminder_at
from gm.store.locks import retried

from games.clock import Clock, bank_lines, bank_words, give, with_stopped

CREDIT_STEP = 1.0  # stopped time is credited when it differs from the state's by more


def clock_of(view: GameView) -> Clock | None:
    """The game's clock while it runs (None: no clock, or the game is not active)."""
    if view.status != Status.ACTIVE or view.rules.is_over(view.state):
        return None
    clock: Clock | None = view.rules.clock_of(view.state)
    return clock


def stopped_between(ctx: Context, view: GameView, player: str, start: float, end: float) -> float:
    """Seconds of [start, end] in an absence of ``player`` or an outage (overlaps counted once)."""
    spans = [(r.start, r.end) for r in ctx.store.timers.absences_of(view.id)
             if r.player.lower() == player.lower()]
    spans += [(r.start, end if r.finish is None else r.finish) for r in ctx.store.daemons.outage_rows()]
    spans += paused_spans(ctx, view, end)
    total, reach = 0.0, start
    for lo, hi in sorted((max(lo, start), min(hi, end)) for lo, hi in spans):
        if hi <= reach:
            continue
        total += hi - max(lo, reach)
        reach = hi
    return total


def paused_spans(ctx: Context, view: GameView, end: float) -> list[tuple[float, float]]:
    """The stretches the game master paused the game (gm pause to gm resume; still paused: to
    ``end``): no bank runs while no order is taken."""
    spans, since = [], None
    for row in ctx.store.history.history_of(view.id):
        if row.action == "pause" and since is None:
            since = row.at
        elif row.action == "resume" and since is not None:
            spans.append((since, row.at))
            since = None
    return spans + ([(since, end)] if since is not None else [])


def exact_stop(ctx: Context, view: GameView, clock: Clock, mover: str, until: float | None) -> float:
    """The stopped time to credit: up to ``until`` (an order's arrival), or (None) up to the
    moment the bank runs out, found by moving it past every stop it falls in."""
    started = clock.started or 0.0
    if until is not None:
        return stopped_between(ctx, view, mover, started, until)
    bank, stop = clock.banks.get(mover, 0.0), clock.stopped
    for _ in range(100):
        found = stopped_between(ctx, view, mover, started, started + stop + bank)
        if found <= stop + CREDIT_STEP:
            return max(found, stop)
        stop = found
    return stop


def credit(ctx: Context, view: GameView, now: float, until: float | None = None) -> GameView:
    """Credit the mover's stopped time (see ``exact_stop``) when it changed; inside a write."""
    clock, mover = clock_of(view), mover_of(view)
    if clock is None or mover is None or clock.started is None:
        return view
    stop = exact_stop(ctx, view, clock, mover, until)
    if abs(stop - clock.stopped) <= CREDIT_STEP:
        return view
    state = view.rules.with_clock(view.state, with_stopped(clock, stop))
    detail = f"{mover}'s clock stopped {times.format_span(stop)} (absence or outage)"
    games.save_gm_state(ctx.store, view, view.rules.dump(state), "clock", view.seq, detail, now)
    ctx.store.history.log(view.id, view.turn, "clock", "clock", detail, now)
    after = games.load(ctx.store, view.id)
    deadlines.open_turn(ctx.store, after)
    return after


def before_order(ctx: Context, view: GameView, name: str, now: float) -> GameView:
    """The game as the mover's order must meet it: their stopped time up to ``now`` credited."""
    if clock_of(view) is None or mover_of(view) != name:
        return view
    return credit(ctx, view, now, until=now)


def settle(ctx: Context, game_id: str, now: float) -> tuple[bool, list[str]]:
    """Before the rules' timer closes a turn: credit stopped time, remind a mover under a day.

    Returns whether the loss on time must wait (gm cannot send now: the bank is stopped
    until it can), and what was done."""
    view = games.load(ctx.store, game_id)
    if clock_of(view) is None:
        return False, []
    if ctx.store.daemons.open_outage_since() is not None:
        return True, []
    view = credit(ctx, view, now)
    return False, remind(ctx, view, now)


def remind(ctx: Context, view: GameView, now: float) -> list[str]:
    """Once per turn: tell the mover whose bank fell under a day how much is left."""
    at, mover, clock = reminder_at(ctx.store, view), mover_of(view), clock_of(view)
    if at is None or now < at or mover is None or clock is None:
        return []
    left = bank_words(clock.left(mover, mover, now))
    reports.notice(ctx, view, [mover], [
        Text("Reminder: your clock in game {game} has {left} left (RULINGS G10).", game=view.id, left=left),
        Text("Turn {turn} waits for your move; when your clock runs out you lose on time.", turn=view.turn)],
        Text("Clock reminder"))
    ctx.store.history.log(view.id, view.turn, REMINDER, REMINDER, mover, now)
    return [f"{view.id}: reminded {mover} of their clock"]


def after_close(ctx: Context, game_id: str, now: float) -> list[str]:
    """The seats of players the rules removed on time leave the game (G5); history says so."""
    view = games.load(ctx.store, game_id)
    done = []
    for name in view.rules.removed(view.state):
        player = view.player(name)
        if player is None or not player.active:
            continue
        from gm.service.people import credentials  # a loss on time, rare: loaded when one comes

        ctx.store.seats.deactivate_player(view.id, name)
        credentials.end_all(ctx, view.id, name, f"{name} lost on time")
        ctx.store.history.log(view.id, view.turn, "clock", "lost on time",
                              f"{name}'s clock ran out (RULINGS G10)", now)
        done.append(f"{view.id}: {name} lost on time")
    return done


def bank_text(view: GameView, now: float) -> list[str]:
    """Every bank in words as it stands at ``now`` (`gm show`)."""
    standing = banks_now(view, now)
    clock = view.rules.clock_of(view.state)
    if standing is None or clock is None:
        return []
    running = mover_of(view) if clock_of(view) is not None else None
    return bank_lines(clock, list(standing), running, now if running else None)


def banks_now(view: GameView, now: float) -> dict[str, float] | None:
    """The seconds left in each bank of a player still in at ``now`` (`gm show --json`); None
    without a clock."""
    clock = view.rules.clock_of(view.state)
    if clock is None:
        return None
    gone = set(view.rules.removed(view.state))
    running = mover_of(view) if clock_of(view) is not None else None
    return {name: clock.left(name, running, now if running else None)
            for name in view.rules.players(view.state) if name not in gone}


def parse_gift(amount: str) -> float:
    """``+2d``, ``+36h``: the time ``gm clock`` gives (more, never less)."""
    text = amount.strip()
    if not text.startswith("+"):
        raise ServiceError(f"write the time to give as +2d or +36h, not {amount!r}")
    try:
        return times.parse_duration(text[1:])
    except Exception:
        raise ServiceError(f"{amount!r} is not a time like +2d, +36h or +90m") from None


@retried
def give_time(ctx: Context, game_id: str, name: str, amount: str, who: str | None = None,
              why: str | None = None) -> str:
    """`gm clock ID NAME +2d -m WHY`: the GM gives a player time on their clock; all are told."""
    why = required_reason(why, f"gm clock {game_id} {name} {amount}")
    seconds = parse_gift(amount)
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        player = view.player(name)
        if player is None:
            raise ServiceError(f"no player {name!r} in game {view.id}")
        clock = clock_of(view)
        if clock is None:
            raise ServiceError(f"game {view.id} has no running clock")
        if not player.active:
            raise ServiceError(f"{player.name} has left game {view.id}")
        view = credit(ctx, view, ctx.clock(), until=ctx.clock())
        after_gift = give(view.rules.clock_of(view.state), player.name, seconds)
        state = view.rules.with_clock(view.state, after_gift)
        span = times.format_span(seconds)
        games.save_gm_state(ctx.store, view, view.rules.dump(state), "clock", view.seq,
                            f"{player.name} +{span}", ctx.clock())
        record(ctx, view, "clock", f"gave {player.name} {span}", who or default_actor(), why)
        after = games.load(ctx.store, view.id)
        deadlines.open_turn(ctx.store, after)
        left = bank_text(after, ctx.clock())
        reports.notice(ctx, after, after.seated_names, gm_lines(
            Text("The game master gave {name} {span} more on the clock (RULINGS G10).", name=player.name,
                 span=span), why)
            + [Text("Clocks:")] + [f"  {line}" for line in left], Text("Clock"),
            calendars=calendar.for_seated(ctx, after))  # the run-out moved
    return f"game {view.id}: {player.name} was given {span}; " + "; ".join(left)


def show_lines(view: GameView, now: float) -> list[str]:
    """`gm show`'s clock section: the option and every bank."""
    lines = bank_text(view, now)
    if not lines:
        return []
    clock: Any = view.rules.clock_of(view.state)
    return [f"Clock (RULINGS G10): {clock.spec.text()}"] + [f"  {line}" for line in lines]
