"""The turn now open: where it started, who still owes orders, its deadline, absences.

One row per game in ``deadlines`` holds the deadline of the turn now open,
keyed by the state seq that opened the turn, with flags for the reminder,
the late notice (the deadline processed) and the end of grace.  Each flag is
set in the same transaction as the mail and the adjudication it stands for
(gm.service.play.timers), so a deadline is processed exactly once, also across
daemon restarts.  Reading a deadline (for a report) never writes.
"""

from __future__ import annotations

from gm.core.value import valueclass
from typing import Any

from games.base import OptionError
from games.text import Text
from gm.core import options, times
from gm.core.i18n import ENGLISH, LANGUAGES
from gm.core.model import GameView, Seat
from gm.service.table import clockdue
from gm.store import Store
from gm.store.gamerows import DeadlineRow, StateRow


# --- settings -------------------------------------------------------------------
def settings(store: Store, game_id: str) -> dict[str, str | None]:
    return options.with_defaults(store.games.settings_of(game_id))


def save_settings(store: Store, game_id: str, values: dict[str, str]) -> None:
    store.games.save_settings(game_id, values)


# --- where a turn starts ------------------------------------------------------------
def opens_turn(turn: int, seq: int, previous_turn: int | None, overrides: set[int]) -> bool:
    """The rule: a turn opens (at state ``seq`` of ``turn``) when the turn number changes, and
    with every GM rollback or edit."""
    return previous_turn is None or turn != previous_turn or seq in overrides


def turn_runs(store: Store, game_id: str) -> list[tuple[int, int]]:
    """(turn, first seq) of every stretch of states, oldest first."""
    overrides = store.turns.override_seqs(game_id)
    runs, previous = [], None
    for row in store.turns.state_turns(game_id):
        if opens_turn(row.turn, row.seq, previous, overrides):
            runs.append((row.turn, row.seq))
        previous = row.turn
    return runs


TURN_START_READS = ("states", "state_overrides")  # what a turn's start is worked out from


def turn_start(store: Store, game_id: str) -> tuple[int, float]:
    """(seq, time) of the state that opened the current turn.

    Reads newest first, only as far back as the turn goes, once per write transaction while
    the game's states and overrides do not change (Store.remembered)."""
    return store.remembered(TURN_START_READS, ("turn_start", game_id), lambda: read_turn_start(store, game_id))


def state_added(store: Store, game_id: str, previous: StateRow | None, seq: int, turn: int, now: float) -> None:
    """A state the rules made (never an override) was stored as ``seq`` at ``now``, after
    ``previous`` (the newest states row before it, or None).  Where it opens a turn, the turn's
    start is that state, known without reading the states back: an order that ends a turn costs
    no read of them (and its state's INSERT waits for the commit, gm.store.deferred)."""
    if opens_turn(turn, seq, None if previous is None else previous.turn, set()):
        store.remember_written(TURN_START_READS, ("turn_start", game_id), (seq, now))


def read_turn_start(store: Store, game_id: str) -> tuple[int, float]:
    rows = store.turns.turn_states_desc(game_id)  # each marked whether the GM made it: one statement
    start = next(rows)
    for previous in rows:
        if opens_turn(start.turn, start.seq, previous.turn, {start.seq} if start.overridden else set()):
            break
        start = previous
    rows.close()
    return start.seq, start.created


# --- who owes orders ------------------------------------------------------------------
def submitted(store: Store, game_id: str, start_seq: int) -> set[str]:
    """Players with an accepted order since the turn opened."""
    return store.turns.accepted_players_since(game_id, start_seq)


def awaited(view: GameView) -> list[str]:
    """Players the rules wait for who are still in the game (RULINGS G5)."""
    if view.rules.is_over(view.state):
        return []
    seated = set(view.seated_names)
    return [p for p in view.rules.to_move(view.state) if p in seated]


def missing(store: Store, view: GameView, start_seq: int) -> list[str]:
    """Players who owe orders now and have sent none this turn."""
    owing = awaited(view)
    if view.rules.simultaneous:
        done = submitted(store, view.id, start_seq)
        owing = [p for p in owing if p not in done]
    return owing


def missing_now(store: Store, view: GameView) -> list[str]:
    """missing() since the open turn's start."""
    return missing(store, view, turn_start(store, view.id)[0])


def everyone_left_is_in(store: Store, view: GameView) -> bool:
    """A simultaneous turn where a removed seat is awaited and every player still in has sent orders.

    The rules wait for every seat; a seat the GM removed never sends orders,
    and its orders count as missing (G5), so there is nothing left to wait for.
    """
    rules = view.rules
    if not rules.simultaneous or rules.is_over(view.state):
        return False
    waiting = set(rules.to_move(view.state))
    if not waiting - set(view.seated_names):
        return False  # nobody removed is awaited: the rules decide alone
    start_seq, _ = turn_start(store, view.id)
    still = set(awaited(view))
    return bool(still) and still <= submitted(store, view.id, start_seq)


# --- the deadline ---------------------------------------------------------------------
def absent_until(store: Store, game_id: str, players: list[str], due: float) -> float:
    """Move ``due`` past every absence (of ``players``) it falls inside."""
    names = {p.lower() for p in players}
    rows = [r for r in store.timers.absences_of(game_id) if r.player.lower() in names]
    for _ in range(100):
        moved = False
        for r in rows:
            if r.start <= due < r.end:
                due, moved = r.end, True
        if not moved:
            break
    return due


def current(store: Store, view: GameView, create: bool = False, opened: float | None = None) -> DeadlineRow:
    """The deadline row of the turn now open.

    With ``create`` (in a write) a new turn's row is stored; without, a missing row is worked
    out, not stored.  ``opened``: when gm judged what opened the turn, if later than its start
    (the turn's time counts from then)."""
    start_seq, start_time = turn_start(store, view.id)
    row = store.timers.deadline_row(view.id)
    if row is not None and row.start_seq == start_seq:
        return row
    conf = settings(store, view.id)
    due = None
    if conf["deadline"] and not clockdue.replaces_deadline(view):  # a clock's game has none (G10)
        due = times.due_after(conf["deadline"], max(start_time, opened or start_time))
        due = absent_until(store, view.id, view.rules.to_move(view.state), due)
    new = DeadlineRow(game_id=view.id, start_seq=start_seq, turn=view.turn, due=due,
                      reminded=0, late=0, grace_done=0, paused_at=None, set_by="option")
    if create:
        with store.write(games=[view.id]):
            store.timers.replace_deadline(new.as_dict())
    return new


@valueclass(frozen=True)
class TurnTable:
    """What a turn's judging and mail need of the table, read once and handed down: the game's
    settings, when the open turn is due (None: no deadline, or over, or paused), each player's
    time zone, and (``owing``) who still owes orders and whether everyone still in has sent
    them (everyone_left_is_in)."""
    settings: dict[str, str | None]
    due: float | None
    zones: dict[str, Any]
    missing: list[str] | None = None  # None: not read
    all_in: bool | None = None


def turn_table(store: Store, view: GameView, row: DeadlineRow | None = None, owing: bool = False) -> TurnTable:
    """The TurnTable of the game as it stands (``row``: current()'s, if the caller has it)."""
    due = None
    if view.status == "active" and not view.rules.is_over(view.state):
        due = (row if row is not None else current(store, view)).due
    zones = {p.name: player_zone(p) for p in view.players}
    if not owing:
        return TurnTable(settings(store, view.id), due, zones)
    return TurnTable(settings(store, view.id), due, zones, missing_now(store, view),
                     everyone_left_is_in(store, view))


def open_turn(store: Store, view: GameView, opened: float | None = None) -> TurnTable:
    """Store the deadline row of the turn now open (if this state opened a new one), and schedule.

    Called after every state the service saves, before the reports that show
    the deadline are written; a report only reads it (the TurnTable returned).
    """
    row = None
    if view.status == "active" and not view.rules.is_over(view.state):
        row = current(store, view, create=True, opened=opened)
    schedule(store, view, row)
    return turn_table(store, view, row, owing=view.rules.simultaneous)


def state_opened(store: Store, view: GameView, previous: StateRow | None, now: float,
                 opened: float | None = None) -> TurnTable:
    """state_added and open_turn in one call, for a state the rules made (``view``: the game
    after it, its order recorded)."""
    state_added(store, view.id, previous, view.seq, view.turn, now)
    return open_turn(store, view, opened)


# --- when a game next needs the clock ----------------------------------------------------
def next_due(store: Store, view: GameView, row: DeadlineRow | None = None) -> float | None:
    """The earliest moment the tick has something to do for this game, or None.

    The steps of gm.service.play.timers, each at its time: reminder, deadline, end of grace
    (sequential games), the rules' own timer, and at once a simultaneous turn where everyone
    still in has sent orders.  ``row``: current()'s, when the caller has it."""
    rules, state = view.rules, view.state
    if view.status != "active" or rules.is_over(state):
        return None
    candidates = []
    timer = rules.timer(state)
    if timer is not None:
        candidates.append(timer)
        remind = clockdue.reminder_at(store, view)  # a correspondence clock's reminder (G10)
        if remind is not None:
            candidates.append(remind)
    if everyone_left_is_in(store, view):
        candidates.append(0.0)
    if row is None:
        row = current(store, view)
    if row.due is not None:
        due = row.due
        conf = settings(store, view.id)
        if not row.reminded:
            before = times.parse_duration(conf["reminder"] or "0")
            room = reminder_has_room(store, view, due, before)
            candidates.append(due - before if room else due)
        if not row.late:
            candidates.append(due)
        elif not rules.simultaneous and not row.grace_done:
            candidates.append(due + times.parse_duration(conf["grace"] or "0"))
    return min(candidates) if candidates else None


def reminder_has_room(store: Store, view: GameView, due: float, before: float) -> bool:
    """A reminder is sent only if its time falls after the turn opened (a reminder as long as
    the deadline would otherwise go out with the report that opened the turn)."""
    return before > 0 and due - before > turn_start(store, view.id)[1]


def schedule(store: Store, view: GameView, row: DeadlineRow | None = None) -> None:
    """Keep the game's row in ``timers`` right: called in every write that changes what is ahead
    (``row``: the deadline row current() just gave, if the caller has it)."""
    with store.write(games=[view.id]):
        store.timers.set_timer(view.id, next_due(store, view, row))


def set_due(store: Store, view: GameView, due: float | None, set_by: str, now: float) -> DeadlineRow:
    """A new deadline for the turn now open (its flags reset)."""
    with store.write(games=[view.id]):
        row = current(store, view, create=True)
        store.timers.update_deadline(view.id, due=due, set_by=set_by,
                                     reminded=0 if due is None or due > now else row.reminded,
                                     late=0, grace_done=0)
        schedule(store, view)
        return row.changed(due=due, set_by=set_by, late=0, grace_done=0)


def due_time(store: Store, view: GameView) -> float | None:
    """When the open turn is due; None without a deadline (or with the game over or paused)."""
    if view.rules.is_over(view.state) or view.status != "active":
        return None
    return current(store, view).due


def deadline_text(store: Store, view: GameView, now: float, tz=None, language: str = ENGLISH) -> str | None:
    """The deadline line of a report: the date (in the reader's zone ``tz``, if set) and the time
    remaining, in ``language``; None without one."""
    due = due_time(store, view)
    return None if due is None else times.format_due(due, now, tz, language)


def report_text(store: Store, view: GameView, viewer: str | None, events: list[Any], now: float) -> str:
    """The report of the game as it stands, as ``viewer`` (None: the GM) sees it, with the
    deadline in the viewer's time zone, in the seat's language and format (SET LANGUAGE, SET
    FORMAT ACCESSIBLE): the store and the game alone (gm show needs no outbox)."""
    from gm.present import reports as present

    seat = view.player(viewer) if viewer else None
    language = seat.language if seat is not None and seat.language in LANGUAGES else ENGLISH
    return present.render_report(present.ReportInput(
        view.id, view.rules, view.state, viewer, events,
        deadline=deadline_text(store, view, now, player_zone(seat), language), language=language,
        accessible=seat is not None and seat.format == "accessible"))


def player_zone(player: Seat | None) -> Any:
    """The time zone a player set (SET TIMEZONE), or None for UTC."""
    name = player.timezone if player is not None else None
    return times.zone(name) if name else None


# --- absences -------------------------------------------------------------------------
def parse_absence(args: str, now: float) -> tuple[float, float]:
    """``<from> <to>``: dates (2025-03-07 or 2025-03-07T18:00) or +durations from now."""
    words = args.split()
    if len(words) == 4 and times.is_clock_time(words[1]) and times.is_clock_time(words[3]):
        words = [f"{words[0]} {words[1]}", f"{words[2]} {words[3]}"]
    if len(words) != 2:
        raise OptionError(Text("write ABSENCE <from> <to>, e.g. ABSENCE 2025-03-07 2025-03-14"))
    start = now if words[0].lower() == "now" else times.parse_when(words[0], now)
    end = times.parse_when(words[1], now)
    if times.is_bare_date(words[1]):
        end += 86400  # a bare date as the end means the end of that day
    return start, end


def absence_taken(store: Store, game_id: str, player: str) -> float:
    """The length of all the absences ``player`` has declared in this game."""
    return sum(r.end - r.start for r in store.timers.absences_of(game_id)
               if r.player.lower() == player.lower())


def declare_absence(store: Store, view: GameView, player: str, start: float, end: float,
                    now: float) -> list[str]:
    """Record an absence (inside a write); returns lines for the reply."""
    if end <= start:
        raise OptionError(Text("the absence must end after it starts"))
    if end <= now:
        raise OptionError(Text("that absence is already over"))
    conf = settings(store, view.id)
    longest = times.parse_duration(conf["absence_max"])
    if end - start > longest:
        raise OptionError(Text("an absence may last at most {span} in this game", span=times.format_span(longest)))
    allowed = times.parse_duration(conf["absence_total"])
    taken = absence_taken(store, view.id, player)
    if taken + (end - start) > allowed:
        left = max(0.0, allowed - taken)
        raise OptionError(Text("your absences in this game may come to {span} in all; {left} are left",
                               span=times.format_span(allowed), left=times.format_span(left)) if left >= 60 else
                          Text("your absences in this game may come to {span} in all; none is left",
                               span=times.format_span(allowed)))
    store.timers.add_absence(view.id, player, start, end, now)
    store.history.log(view.id, view.turn, player, "absence",
                      f"{times.format_stamp(start)} to {times.format_stamp(end)}", now)
    lines: list[str] = [Text("Absence recorded: {start} to {end}.", start=times.format_stamp(start),
                             end=times.format_stamp(end))]
    row = current(store, view, create=True)
    if row.due is not None:
        moved = absent_until(store, view.id, view.rules.to_move(view.state), row.due)
        if moved != row.due:
            store.timers.update_deadline(view.id, due=moved)
            lines.append(Text("The deadline of this turn moves to {due}.", due=times.format_due(moved, now)))
            store.history.log(view.id, view.turn, "deadline", "moved",
                              f"to {times.format_stamp(moved)} for {player}'s absence", now)
    schedule(store, view)
    return lines
