"""The clock: reminders, deadlines with grace and the late policy, and rules timers.

A correspondence clock (RULINGS G10, gm.service.play.clocks) takes the place of
the deadline: its stopped time and reminder come first, then its loss on time.

``settle`` brings a game's clock up to now, before anything is judged on every
path into a game (mail, `gm order`, `gm process`, the tick): RULINGS G4.
``tick`` (every half minute) reads only the games due in ``timers``, the row
gm.service.table.deadlines.next_due keeps in every write that moves it.  Each
step sets its flag in the deadline row in the transaction of the mail it
sends, so it happens exactly once, across restarts too.
"""

from __future__ import annotations

import logging

from games.text import Text, mark
from gm.core import times
from gm.core.model import GameView, Status
from gm.service.outgoing import delivery_state, digests, outages, reached, reports
from gm.service.play import clocks, turns
from gm.service.table import deadlines, games
from gm.service.outgoing.holding import bouncing_players
from gm.service.context import Context
from gm.store import StoreError
from gm.store.gamerows import DeadlineRow
from gm.store.locks import retry_conflicts

log = logging.getLogger(__name__)

BOUNCE_WAIT = 86400.0  # bouncing=wait: the deadline moves this far at a time


def tick(ctx: Context) -> list[str]:
    """The deadlines and timers of every game with something due now; returns what was done."""
    done: list[str] = []
    try:
        done += delivery_state.settle_now(ctx)  # refusals and holds the sender recorded since the last tick
    except StoreError:
        raise  # the database is down: the daemon waits for it (gm.runtime.weather)
    except Exception:  # never in the way of the deadlines
        log.exception("settling delivery events failed")
    done += outages.settle(ctx)  # before any deadline: one that fell in an outage moves first
    for game_id in ctx.store.timers.due_games(ctx.clock()):
        try:
            done += retry_conflicts(_settle_claimed, ctx, game_id)
        except StoreError:
            raise  # not this game's fault: the database is down
        except Exception:  # one game's fault must not stop the others' deadlines
            log.exception("deadline processing of %s failed", game_id)
    done += digests.send_due(ctx)  # the daily digests due, by their due time
    done += _tournament_rounds(ctx)
    return done


def _tournament_rounds(ctx: Context) -> list[str]:
    """The next round of each running tournament whose round has ended (after the games' deadlines,
    which may end them)."""
    from gm.service.people import tournamentrounds

    return tournamentrounds.advance(ctx)  # each tournament's fault is its own (logged there)


def _settle_claimed(ctx: Context, game_id: str) -> list[str]:
    """settle() in a transaction that locks only this game (gm.store.locks), so daemons tick
    different games at once; skipped while another transaction has the game (a daemon ticking or
    judging it settles it there: a step happens once)."""
    with ctx.store.write(scoped=True):
        if not ctx.store.locks.try_lock_games(game_id):
            return []
        return settle(ctx, game_id)[2]


def due_now(ctx: Context, game_id: str, now: float | None = None) -> bool:
    """Has this game something due (a deadline step or a rules timer) at ``now`` (the clock's)?"""
    due = ctx.store.timers.timer_of(game_id)
    return due is not None and due <= (ctx.clock() if now is None else now)


def settle(ctx: Context, game_id: str, view: GameView | None = None,
           now: float | None = None) -> tuple[GameView, int | None, list[str]]:
    """RULINGS G4: the open turn's deadline steps and rules timer, if any is due, before anything
    of this game is judged.  Returns the game as it stands then, the turn the clock closed (None
    if the position did not change) and what was done.  ``view``: the game, if the caller has
    just loaded it in this transaction.  ``now``: the clock as the mail judged arrived (RULINGS
    G4: when gm's mail server delivered it), never later than the clock's."""
    with ctx.store.write(games=[game_id]):
        if not due_now(ctx, game_id, now):
            return (view or games.load(ctx.store, game_id)), None, []
        before = view or games.load(ctx.store, game_id)
        done = tick_game(ctx, game_id, now)
        after = games.load(ctx.store, game_id)
        return after, (before.turn if after.seq != before.seq else None), done


def tick_game(ctx: Context, game_id: str, now: float | None = None) -> list[str]:
    """One game's deadline steps, then its rules timer; then when it next needs the clock."""
    with ctx.store.write(games=[game_id]):
        at = ctx.clock() if now is None else now
        hold, done = clocks.settle(ctx, game_id, at)  # G10: stopped time, the reminder
        done += _deadline_steps(ctx, game_id, now)
        if not hold and turns.close_if_due(ctx, game_id, now=now):
            done.append(f"{game_id}: turn closed by the rules' timer")
            done += clocks.after_close(ctx, game_id, at)
        deadlines.schedule(ctx.store, games.load(ctx.store, game_id))
    return done


def _deadline_steps(ctx: Context, game_id: str, now: float | None = None) -> list[str]:
    store = ctx.store
    with store.write(games=[game_id]):
        view = games.load(store, game_id)
        if view.status != Status.ACTIVE or view.rules.is_over(view.state):
            return []
        now = ctx.clock() if now is None else now
        row = deadlines.current(store, view, create=True)
        owing = deadlines.missing(store, view, row.start_seq)
        if deadlines.everyone_left_is_in(store, view):
            turns.close_if_due(ctx, game_id, now=now, force=True, origin="deadline")
            store.history.log(game_id, view.turn, "deadline", "close", "every remaining player is in", now)
            return [f"{game_id}: closed, every remaining player is in"]
        if row.due is None:
            return []
        return _due_steps(ctx, view, row, row.due, owing, now)


def _due_steps(ctx: Context, view, row: DeadlineRow, due: float, owing: list[str], now: float) -> list[str]:
    """Absences, the reminder, the deadline, then the end of grace, each at most once
    (``due``: the row's, known not to be None)."""
    store, rules, turn = ctx.store, view.rules, view.turn
    done: list[str] = []
    moved = deadlines.absent_until(store, view.id, rules.to_move(view.state), due)
    if moved != due and not row.late:
        store.timers.update_deadline(view.id, due=moved)
        store.history.log(view.id, turn, "deadline", "moved", f"to {times.format_stamp(moved)} for an absence", now)
        due = moved
    conf = deadlines.settings(store, view.id)
    if not row.reminded:
        done += _remind(ctx, view, due, owing, conf, now)
    if now < due:
        return done
    if not row.late and outages.postponed(ctx, due):
        return done  # gm cannot send: the deadline waits, and moves once sending works again
    if not row.late:
        owed = reached.due_by_delivery(ctx, view, row.changed(due=due), owing)
        if owed is None:
            return done  # an owing player has not had the turn's report yet: the deadline waits
        if owed > due:
            return done + reached.move(ctx, view, owed, now)  # its time counts from the delivery
    if not row.late and conf["bouncing"] == "wait":
        waiting = holdable(store, view, row.start_seq, bouncing_players(store, view, owing), conf)
        if waiting:
            return done + _wait_for_bouncing(ctx, view, row.start_seq, waiting, now)
    if not row.late:
        store.timers.update_deadline(view.id, late=1)
        if rules.simultaneous:
            return done + _close_at_deadline(ctx, view, due, owing, now)
        done += _late_notice(ctx, view, due, owing, conf, now)
    if rules.simultaneous or row.grace_done:
        return done
    if now < due + times.parse_duration(conf["grace"] or "0"):
        return done
    if outages.postponed(ctx, due + times.parse_duration(conf["grace"] or "0")):
        return done
    return done + _grace_over(ctx, view, due, owing, conf, now)


def holdable(store, view, start_seq: int, names: list[str], conf) -> dict[str, float]:
    """Of ``names`` (owing players whose mail bounces), those bouncing=wait may still hold the
    deadline for, with how long: at most once per turn, and for at most the game's absence_total
    in all.  A player sees her own VERP return address, so she can make her mail bounce at
    will; without these bounds she would never forfeit."""
    allowed = times.parse_duration(conf["absence_total"])
    out: dict[str, float] = {}
    for name in names:
        holds = store.timers.bounce_holds_of(view.id, name)
        if any(h.start_seq == start_seq for h in holds):
            continue  # held once this turn already
        left = allowed - sum(h.seconds for h in holds)
        if left >= 60:
            out[name] = min(BOUNCE_WAIT, left)
    return out


def _hold(ctx, view, start_seq: int, waiting: dict[str, float], now: float) -> float:
    """Record the holds; returns how long the deadline waits (the longest of them)."""
    for name, seconds in waiting.items():
        ctx.store.timers.add_bounce_hold(view.id, name, start_seq, seconds, now)
    return max(waiting.values())


def _wait_for_bouncing(ctx, view, start_seq: int, waiting: dict[str, float], now: float) -> list[str]:
    """bouncing=wait: the deadline moves on (a day, or what is left of the absence total), as
    for an absence, while an owing player's mail bounces; once per turn."""
    due = now + _hold(ctx, view, start_seq, waiting, now)
    names = ", ".join(waiting)
    ctx.store.timers.update_deadline(view.id, due=due)
    ctx.store.history.log(view.id, view.turn, "deadline", "moved",
                          f"to {times.format_stamp(due)}: mail to {names} bounces (bouncing=wait)", now)
    return [f"{view.id}: deadline moved a day, waiting for {names} (mail bounces)"]


def _remind(ctx, view, due, owing, conf, now) -> list[str]:
    before = times.parse_duration(conf["reminder"] or "0")
    if now >= due or not deadlines.reminder_has_room(ctx.store, view, due, before):
        ctx.store.timers.update_deadline(view.id, reminded=1)  # no reminder after the deadline, nor at the start
        return []
    if before <= 0 or now < due - before:
        return []
    if owing:
        reports.notice(ctx, view, owing, lambda zone: [
            Text("Reminder: your orders for turn {turn} are not in yet.", turn=view.turn),
            Text("Deadline: {due}.", due=times.format_due(due, now, zone))], Text("Reminder"))
    ctx.store.timers.update_deadline(view.id, reminded=1)
    ctx.store.history.log(view.id, view.turn, "deadline", "reminder", ", ".join(owing) or "nobody missing", now)
    return [f"{view.id}: reminded {', '.join(owing) or 'nobody'}"]


def _close_at_deadline(ctx, view, due, owing, now) -> list[str]:
    """The deadline closes a simultaneous turn; each player whose orders were not in reads so at
    the top of that turn's report (one mail, not a "Late" notice beside it)."""
    late = Text("The deadline of turn {turn} passed and your orders were not in; the turn was "
                "adjudicated without them (as the rules say for missing orders).\n", turn=view.turn)
    ctx.store.history.log(view.id, view.turn, "deadline", "close",
                          f"deadline {times.format_stamp(due)}; missing: {', '.join(owing) or 'none'}", now)
    turns.close_if_due(ctx, view.id, now=now, force=True, origin="deadline",
                       own_notes={name: late for name in owing})
    return [f"{view.id}: turn {view.turn} adjudicated at the deadline"]


# what the late notice says gm does when the grace period is over (the late policy)
WAITS_THEN_FORFEIT = mark("gm waits {span} more (until {until}), then you forfeit.")
WAITS_THEN_TELLS = mark("gm waits {span} more (until {until}), then tells the game master.")
WAITS_ON = mark("gm waits {span} more (until {until}), then keeps waiting.")


def _late_notice(ctx, view, due, owing, conf, now) -> list[str]:
    grace = times.parse_duration(conf["grace"] or "0")
    lines = [Text("The deadline of turn {turn} has passed and your orders are not in.", turn=view.turn)]
    if view.rules.timer(view.state) is not None:
        lines.append(Text("Your time bank is now being spent (RULINGS PX8)."))
    elif grace > 0:
        then = (WAITS_THEN_FORFEIT if conf["late"] == "forfeit"
                else WAITS_THEN_TELLS if ctx.config.gm_address else WAITS_ON)
        lines.append(Text(then, span=times.format_span(grace), until=times.format_stamp(due + grace)))
    reports.notice(ctx, view, owing, lines, Text("Late"))
    ctx.store.history.log(view.id, view.turn, "deadline", "late", f"waiting for {', '.join(owing)}", now)
    return [f"{view.id}: late notice to {', '.join(owing)}"]


def _grace_over(ctx, view, due, owing, conf, now) -> list[str]:
    store, turn = ctx.store, view.turn
    store.timers.update_deadline(view.id, grace_done=1)
    if view.rules.timer(view.state) is not None:
        # Proximity's time bank (PX8): the rules close the turn when it runs out.
        store.history.log(view.id, turn, "deadline", "grace", "time bank running", now)
        return []
    spared: dict[str, float] = {}
    if conf["bouncing"] == "wait":
        start_seq = deadlines.current(store, view).start_seq
        spared = holdable(store, view, start_seq, bouncing_players(store, view, owing), conf)
    if spared:  # became bouncing during the grace period: not forfeited in the dark, this once
        owing = [name for name in owing if name not in spared]
        wait = _hold(ctx, view, start_seq, spared, now)
        store.timers.update_deadline(view.id, due=now + wait - times.parse_duration(conf["grace"] or "0"),
                                     grace_done=0)
        reports.tell_gm(ctx, view, [f"Turn {turn}: {', '.join(spared)} is late, but their mail bounces; "
                                    "not forfeited yet (bouncing=wait: the grace period ends "
                                    f"{times.format_span(wait)} later, once a turn)."], "Late player")
        store.history.log(view.id, turn, "deadline", "waiting", f"{', '.join(spared)}: mail bounces", now)
        if not owing:
            return [f"{view.id}: grace extended for {', '.join(spared)} (mail bounces)"]
    if conf["late"] == "forfeit" and owing:
        dark = outages.unreached(ctx, view, owing)
        if dark:  # the turn's report has not reached them (still queued or held): never forfeited
            store.timers.update_deadline(view.id, grace_done=0)  # asked again at the next tick
            log.info("%s: %s not forfeited: the report of turn %s has not reached them",
                        view.id, ", ".join(dark), turn)
            owing = [name for name in owing if name not in dark]
            if not owing:
                return []
        from gm.service.play import lifecycle  # a forfeit, rare: loaded when one falls due

        for name in owing:
            lifecycle.forfeit(ctx, view, name, who="deadline",
                              why=Text("no orders {span} after the deadline", span=times.format_span(now - due)))
        return [f"{view.id}: {', '.join(owing)} forfeited"]
    if not ctx.config.gm_address:
        store.history.log(view.id, turn, "deadline", "waiting",
                          f"{', '.join(owing)} late past the grace period; no GM address to tell", now)
        return [f"{view.id}: {', '.join(owing)} late past the grace period (no GM address)"]
    reports.tell_gm(ctx, view, [f"Turn {turn}: {', '.join(owing)} is late; the grace period is over.",
                                "gm keeps waiting (late policy: wait)."], "Late player")
    store.history.log(view.id, turn, "deadline", "waiting",
                      f"{', '.join(owing)} late past the grace period; the GM was told", now)
    return [f"{view.id}: GM told about {', '.join(owing)}"]
