"""Deadlines, reminders, late notices, grace and late policy, absences.

Service options of a game (kept in the ``game_settings`` table this module
creates, never handed to the rule module):

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

One row per game in ``deadlines`` holds the deadline of the turn now open,
keyed by the state seq that opened the turn, with flags for the reminder,
the late notice (the deadline processed) and the end of grace.  Each flag is
set in the same transaction as the mail and the adjudication it stands for,
so a deadline is processed exactly once, also across daemon restarts: a
daemon that was down past a deadline finds the flag unset and processes it
once when it comes back.

The clock is the engine's (``engine.clock``), so tests drive a fake clock.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta, timezone
from typing import Any

from games.base import OptionError, duration_seconds

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS game_settings (
    game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
);
CREATE TABLE IF NOT EXISTS deadlines (
    game_id TEXT PRIMARY KEY,
    start_seq INTEGER NOT NULL,      -- the state seq that opened the turn
    turn INTEGER NOT NULL,
    due REAL,                        -- NULL: this turn has no deadline
    reminded INTEGER NOT NULL DEFAULT 0,
    late INTEGER NOT NULL DEFAULT 0, -- the deadline was processed
    grace_done INTEGER NOT NULL DEFAULT 0,
    paused_at REAL,
    set_by TEXT NOT NULL DEFAULT 'option'
);
CREATE TABLE IF NOT EXISTS absences (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    start REAL NOT NULL,
    end REAL NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS state_overrides (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,            -- a state the GM made, not the rules
    action TEXT NOT NULL,            -- rollback | edit
    source_seq INTEGER,              -- rollback: the state restored
    detail TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,        -- a game ended by the GM or a forfeit
    reason TEXT NOT NULL,
    winners TEXT,                    -- JSON list, or NULL: as the rules say
    at REAL NOT NULL
);
"""

DEFAULTS = {
    "deadline": None,
    "reminder": "24h",
    "grace": "24h",
    "late": "wait",
    "press": "white",
    "absence_max": "14d",
}

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

_ready: set[tuple[int, str]] = set()


def ensure_schema(store) -> None:
    """Create this module's tables once per database connection."""
    key = (id(store.db), str(store.path))
    if key in _ready:
        return
    with store.write():
        for statement in SCHEMA.split(";"):
            if statement.strip():
                store.db.execute(statement)
    _ready.add(key)


# --- parsing ----------------------------------------------------------------
def parse_duration(text: str) -> float:
    """``72h``, ``3d``, ``1d12h``, ``90m``, ``3600`` (seconds) -> seconds."""
    try:
        return duration_seconds(text)
    except ValueError:
        raise OptionError(f"{text!r} is not a duration like 72h, 3d, 1d12h or 90m") from None


_WEEKLY = re.compile(r"^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\s+(\d{1,2}):(\d{2})$", re.I)


def parse_weekly(text: str) -> tuple[int, int, int] | None:
    match = _WEEKLY.match(str(text).strip())
    if not match:
        return None
    day, hour, minute = WEEKDAYS.index(match.group(1).lower()), int(match.group(2)), int(match.group(3))
    if hour > 23 or minute > 59:
        raise OptionError(f"{text!r}: no such time of day")
    return day, hour, minute


def next_weekly(after: float, day: int, hour: int, minute: int) -> float:
    """The first moment strictly after ``after`` that is ``day`` at hour:minute UTC."""
    start = datetime.fromtimestamp(after, timezone.utc)
    candidate = start.replace(hour=hour, minute=minute, second=0, microsecond=0)
    candidate += timedelta(days=(day - start.weekday()) % 7)
    if candidate.timestamp() <= after:
        candidate += timedelta(days=7)
    return candidate.timestamp()


def parse_date(text: str) -> float:
    """An absolute UTC date: ``2025-03-07``, ``2025-03-07 18:00``, ISO 8601."""
    raw = str(text).strip().replace("T", " ").rstrip("Z").replace(" UTC", "").strip()
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(raw, fmt).replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            continue
    raise OptionError(f"{text!r} is not a date like 2025-03-07 18:00 (UTC)")


def parse_when(text: str, now: float) -> float:
    """A deadline the GM types: ``+48h`` (from now), ``fri 18:00``, or a UTC date."""
    raw = str(text).strip()
    if raw.startswith("+"):
        return now + parse_duration(raw[1:])
    weekly = parse_weekly(raw)
    if weekly:
        return next_weekly(now, *weekly)
    return parse_date(raw)


def check_period(text: str) -> str:
    if parse_weekly(text) is None:
        if parse_duration(text) <= 0:
            raise OptionError("option deadline: must be more than zero")
    return str(text).strip()


def due_after(period: str, start: float) -> float:
    weekly = parse_weekly(period)
    if weekly:
        return next_weekly(start, *weekly)
    return start + parse_duration(period)


def format_span(seconds: float) -> str:
    seconds = int(abs(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if not days and minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts) or "less than a minute"


def format_due(due: float, now: float) -> str:
    """``Fri 2025-03-07 18:00 UTC (2 days 4 hours from now)``."""
    stamp = datetime.fromtimestamp(due, timezone.utc).strftime("%a %Y-%m-%d %H:%M UTC")
    if due > now:
        return f"{stamp} ({format_span(due - now)} from now)"
    return f"{stamp} (passed {format_span(now - due)} ago)"


def format_stamp(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


# --- settings ---------------------------------------------------------------
def check_settings(raw: dict[str, Any]) -> dict[str, str]:
    """Validate service options; return them as text."""
    out = {}
    for key, value in raw.items():
        if key not in DEFAULTS:
            raise OptionError(f"unknown service option {key!r}")
        value = str(value).strip()
        if key == "deadline":
            if value.lower() in {"", "none", "off"}:
                value = "none"
            else:
                value = check_period(value)
        elif key in {"reminder", "grace", "absence_max"}:
            parse_duration(value)
        elif key == "late":
            if value.lower() not in {"wait", "forfeit"}:
                raise OptionError("option late: wait or forfeit")
            value = value.lower()
        elif key == "press":
            if value.lower() not in {"none", "white", "grey", "gray"}:
                raise OptionError("option press: none, white or grey")
            value = "grey" if value.lower() == "gray" else value.lower()
        out[key] = value
    return out


def split_options(options: dict[str, str]) -> dict[str, str]:
    """Take the service options out of ``options`` (in place); return them checked."""
    service = {k: options.pop(k) for k in list(options) if k in DEFAULTS}
    return check_settings(service)


def save_settings(store, game_id: str, settings: dict[str, str]) -> None:
    ensure_schema(store)
    with store.write():
        for key, value in settings.items():
            store.db.execute(
                "INSERT OR REPLACE INTO game_settings(game_id, key, value) VALUES (?, ?, ?)",
                (game_id, key, value),
            )


def settings(store, game_id: str) -> dict[str, str | None]:
    ensure_schema(store)
    out = dict(DEFAULTS)
    for row in store.all("SELECT key, value FROM game_settings WHERE game_id = ?", game_id):
        out[row["key"]] = row["value"]
    if out["deadline"] in (None, "none"):
        out["deadline"] = None
    return out


# --- the turn now open --------------------------------------------------------
def turn_start(store, game_id: str) -> tuple[int, float]:
    """(seq, time) of the state that opened the current turn.

    A turn opens when the turn number changes, and also with a GM rollback
    or edit (which re-open the turn).
    """
    ensure_schema(store)
    overrides = {r["seq"] for r in store.all("SELECT seq FROM state_overrides WHERE game_id = ?", game_id)}
    # Newest first, read only as far as the turn goes back: a long game's
    # history is not loaded on every order.
    rows = store.db.execute(
        "SELECT seq, turn, created FROM states WHERE game_id = ? ORDER BY seq DESC", (game_id,))
    start = rows.fetchone()
    for prev in rows:
        if prev["turn"] != start["turn"] or start["seq"] in overrides:
            break
        start = prev
    rows.close()
    return start["seq"], start["created"]


def submitted(store, game_id: str, start_seq: int) -> set[str]:
    """Players with an accepted order since the turn opened."""
    rows = store.all(
        "SELECT DISTINCT player FROM orders WHERE game_id = ? AND action = 'order' AND accepted = 1 "
        "AND seq >= ?", game_id, start_seq,
    )
    return {r["player"] for r in rows}


def active_names(loaded) -> list[str]:
    return [p["name"] for p in loaded.players if p["active"]]


def missing(engine, loaded, start_seq: int) -> list[str]:
    """Players who owe orders now and have sent none this turn (ejected players excluded)."""
    rules, state = loaded.rules, loaded.state
    if rules.is_over(state):
        return []
    owing = [p for p in rules.to_move(state) if p in active_names(loaded)]
    if rules.simultaneous:
        done = submitted(engine.store, loaded.id, start_seq)
        owing = [p for p in owing if p not in done]
    return owing


def absent_until(store, game_id: str, players: list[str], due: float) -> float:
    """Move ``due`` past every absence (of ``players``) it falls inside."""
    rows = store.all("SELECT player, start, end FROM absences WHERE game_id = ?", game_id)
    names = {p.lower() for p in players}
    rows = [r for r in rows if r["player"].lower() in names]
    for _ in range(100):
        moved = False
        for r in rows:
            if r["start"] <= due < r["end"]:
                due, moved = r["end"], True
        if not moved:
            break
    return due


def current(engine, loaded, create: bool = False) -> dict | None:
    """The deadline row of the turn now open, as a dict.

    With ``create`` (inside a write transaction) a new turn's row is stored.
    Without it a missing row is computed but not stored.
    """
    store = engine.store
    ensure_schema(store)
    start_seq, start_time = turn_start(store, loaded.id)
    row = store.one("SELECT * FROM deadlines WHERE game_id = ?", loaded.id)
    if row is not None and row["start_seq"] == start_seq:
        return dict(row)
    conf = settings(store, loaded.id)
    due = None
    if conf["deadline"]:
        due = due_after(conf["deadline"], start_time)
        due = absent_until(store, loaded.id, loaded.rules.to_move(loaded.state), due)
    new = {"game_id": loaded.id, "start_seq": start_seq, "turn": loaded.rules.turn(loaded.state),
           "due": due, "reminded": 0, "late": 0, "grace_done": 0, "paused_at": None,
           "set_by": "option"}
    if create:
        with store.write():
            store.db.execute("DELETE FROM deadlines WHERE game_id = ?", (loaded.id,))
            store.insert("deadlines", **new)
    return new


def set_due(engine, loaded, due: float | None, set_by: str) -> dict:
    """The GM's ``gm deadline``: a new deadline for the turn now open (flags reset)."""
    with engine.store.write():
        row = current(engine, loaded, create=True)
        now = engine.clock()
        engine.store.update("deadlines", {"game_id": loaded.id}, due=due, set_by=set_by,
                            reminded=0 if due is None or due > now else row["reminded"],
                            late=0, grace_done=0)
        row.update(due=due, set_by=set_by, late=0, grace_done=0)
        return row


def deadline_text(engine, loaded) -> str | None:
    """The deadline line of a report: a UTC date and the time remaining."""
    try:
        if loaded.rules.is_over(loaded.state) or loaded.row["status"] != "active":
            return None
        row = current(engine, loaded, create=engine.store.in_transaction)
    except Exception:  # a report must never fail for want of a deadline
        log.exception("deadline of %s", loaded.id)
        return None
    if row is None or row["due"] is None:
        return None
    return format_due(row["due"], engine.clock())


# --- absences -----------------------------------------------------------------
def declare_absence(engine, loaded, player: str, start: float, end: float) -> list[str]:
    """Record an absence (inside a write); returns lines for the reply."""
    conf = settings(engine.store, loaded.id)
    now = engine.clock()
    if end <= start:
        raise OptionError("the absence must end after it starts")
    if end <= now:
        raise OptionError("that absence is already over")
    longest = parse_duration(conf["absence_max"])
    if end - start > longest:
        raise OptionError(f"an absence may last at most {format_span(longest)} in this game")
    engine.store.insert("absences", game_id=loaded.id, player=player, start=start, end=end, created=now)
    engine.store.log(loaded.id, loaded.rules.turn(loaded.state), player, "absence",
                     f"{format_stamp(start)} to {format_stamp(end)}", now)
    lines = [f"Absence recorded: {format_stamp(start)} to {format_stamp(end)}."]
    row = current(engine, loaded, create=True)
    if row["due"] is not None:
        moved = absent_until(engine.store, loaded.id, loaded.rules.to_move(loaded.state), row["due"])
        if moved != row["due"]:
            engine.store.update("deadlines", {"game_id": loaded.id}, due=moved)
            lines.append(f"The deadline of this turn moves to {format_due(moved, now)}.")
            engine.store.log(loaded.id, loaded.rules.turn(loaded.state), "deadline", "moved",
                             f"to {format_stamp(moved)} for {player}'s absence", now)
    return lines


def parse_absence(args: str, now: float) -> tuple[float, float]:
    """``<from> <to>``: dates (2025-03-07 or 2025-03-07T18:00) or +durations from now."""
    words = args.split()
    if len(words) == 4 and re.match(r"\d{1,2}:\d{2}$", words[1]) and re.match(r"\d{1,2}:\d{2}$", words[3]):
        words = [f"{words[0]} {words[1]}", f"{words[2]} {words[3]}"]
    if len(words) != 2:
        raise OptionError("write ABSENCE <from> <to>, e.g. ABSENCE 2025-03-07 2025-03-14")
    start = now if words[0].lower() == "now" else parse_when(words[0], now)
    end = parse_when(words[1], now)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", words[1]):
        end += 86400  # a bare date as the end means the end of that day
    return start, end


# --- mail -----------------------------------------------------------------------
def notice(engine, loaded, names: list[str], lines: list[str], label: str, kind: str = "notice") -> None:
    """Mail a short notice to the named players (archived with the turn)."""
    turn = loaded.rules.turn(loaded.state)
    body = engine.render("notice", game_id=loaded.id, turn=turn, lines=lines, hint=engine.hint(loaded.id))
    for name in names:
        player = loaded.player(name)
        if player is None:
            continue
        oid = engine.queue_mail(player["email"], f"[{loaded.id} T{turn}] {label}", body,
                                kind="notice", game_id=loaded.id, turn=turn)
        engine._archive(loaded, player["name"], kind, body, oid)


def tell_gm(engine, loaded, lines: list[str], label: str) -> None:
    address = getattr(engine.config, "gm_address", None)
    if not address:
        return
    turn = loaded.rules.turn(loaded.state)
    body = engine.render("notice", game_id=loaded.id, turn=turn, lines=lines, hint=engine.hint(loaded.id))
    oid = engine.queue_mail(address, f"[{loaded.id} T{turn}] {label}", body, kind="notice",
                            game_id=loaded.id, turn=turn)
    engine._archive(loaded, None, "notice", body, oid)


# --- the clock ------------------------------------------------------------------
def tick(engine) -> list[str]:
    """Send due reminders, process due deadlines.  Returns what was done."""
    ensure_schema(engine.store)
    done = []
    for row in engine.store.all("SELECT id FROM games WHERE status = 'active'"):
        try:
            done += _tick_game(engine, row["id"])
        except Exception:
            log.exception("deadline processing of %s failed", row["id"])
    return done


def _tick_game(engine, game_id: str) -> list[str]:
    store = engine.store
    done = []
    with store.write():
        loaded = engine.load(game_id)
        rules, state = loaded.rules, loaded.state
        if loaded.row["status"] != "active" or rules.is_over(state):
            return done
        now = engine.clock()
        row = current(engine, loaded, create=True)
        turn = rules.turn(state)
        owing = missing(engine, loaded, row["start_seq"])
        # Simultaneous games: every remaining (not ejected) player is in.
        if (rules.simultaneous and not owing and rules.to_move(state)
                and set(rules.to_move(state)) - set(active_names(loaded))):
            engine.maybe_close(game_id, now=now, force=True, origin="deadline")
            store.log(game_id, turn, "deadline", "close", "every remaining player is in", now)
            return [f"{game_id}: closed, every remaining player is in"]
        due = row["due"]
        if due is None:
            return done
        moved = absent_until(store, game_id, rules.to_move(state), due)
        if moved != due and not row["late"]:
            store.update("deadlines", {"game_id": game_id}, due=moved)
            store.log(game_id, turn, "deadline", "moved", f"to {format_stamp(moved)} for an absence", now)
            due = moved
        conf = settings(store, game_id)
        if not row["reminded"]:
            before = parse_duration(conf["reminder"] or "0")
            if now >= due:
                store.update("deadlines", {"game_id": game_id}, reminded=1)
            elif before > 0 and now >= due - before:
                if owing:
                    notice(engine, loaded, owing,
                           [f"Reminder: your orders for turn {turn} are not in yet.",
                            f"Deadline: {format_due(due, now)}."], "Reminder")
                store.update("deadlines", {"game_id": game_id}, reminded=1)
                store.log(game_id, turn, "deadline", "reminder", ", ".join(owing) or "nobody missing", now)
                done.append(f"{game_id}: reminded {', '.join(owing) or 'nobody'}")
        if now < due:
            return done
        if not row["late"]:
            store.update("deadlines", {"game_id": game_id}, late=1)
            if rules.simultaneous:
                if owing:
                    notice(engine, loaded, owing,
                           [f"The deadline of turn {turn} has passed and your orders were not in.",
                            "The turn was adjudicated without them (as the rules say for "
                            "missing orders)."], "Late")
                store.log(game_id, turn, "deadline", "close",
                          f"deadline {format_stamp(due)}; missing: {', '.join(owing) or 'none'}", now)
                engine.maybe_close(game_id, now=now, force=True, origin="deadline")
                done.append(f"{game_id}: turn {turn} adjudicated at the deadline")
                return done
            grace = parse_duration(conf["grace"] or "0")
            lines = [f"The deadline of turn {turn} has passed and your orders are not in."]
            if rules.timer(state) is not None:
                lines.append("Your time bank is now being spent (RULINGS PX8).")
            elif grace > 0:
                lines.append(f"gm waits {format_span(grace)} more "
                             f"(until {format_stamp(due + grace)}), then "
                             + ("you forfeit." if conf["late"] == "forfeit" else "tells the game master."))
            notice(engine, loaded, owing, lines, "Late")
            store.log(game_id, turn, "deadline", "late", f"waiting for {', '.join(owing)}", now)
            done.append(f"{game_id}: late notice to {', '.join(owing)}")
            row = dict(row, late=1)
        if rules.simultaneous or row["grace_done"]:
            return done
        grace = parse_duration(conf["grace"] or "0")
        if now < due + grace:
            return done
        store.update("deadlines", {"game_id": game_id}, grace_done=1)
        if rules.timer(state) is not None:
            # Proximity's time bank (PX8): the rules close the turn when it runs out.
            store.log(game_id, turn, "deadline", "grace", "time bank running", now)
            return done
        if conf["late"] == "forfeit" and owing:
            from gm import overrides

            for name in owing:
                overrides.forfeit(engine, loaded, name, who="deadline",
                                  why=f"no orders {format_span(now - due)} after the deadline")
            done.append(f"{game_id}: {', '.join(owing)} forfeited")
            return done
        tell_gm(engine, loaded, [f"Turn {turn}: {', '.join(owing)} is late; the grace period is over.",
                                 "gm keeps waiting (late policy: wait)."], "Late player")
        store.log(game_id, turn, "deadline", "waiting",
                  f"{', '.join(owing)} late past the grace period; the GM was told", now)
        done.append(f"{game_id}: GM told about {', '.join(owing)}")
    return done
