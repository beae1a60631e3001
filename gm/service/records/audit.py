"""Audit: `gm verify` (replay a game from its seed and orders, RULINGS G1, and compare),
`gm history`, and the data of the archive site.

Every stored state (seq 0, 1, ...) was made by exactly one thing: the set-up
(seq 0), an accepted order, a turn close, a draw by agreement or a takeback (the orders row
whose ``seq`` it is, with the ``at`` the rules saw), or a GM override (gm.service.play.positions: a
rollback restores an earlier state, an edit is taken as given).  The replay
rebuilds each state from the one before it and compares it with the store;
then every archived report is rendered again from the replayed state and
compared with what was mailed (the deadline line, which depends on the hour
of sending, is left out of the comparison).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache

from games import registry
from games.base import Event
from gm.core import digest, i18n
from gm.core.i18n import LANGUAGES
from gm.core.model import GameView, Status
from gm.core.version import gm_version
from gm.core.times import format_stamp
from gm.present import pictures
from gm.present import reports as present
from gm.service.outgoing import recordfiles, reportmail
from gm.service.table import games
from gm.service.context import Context
from gm.store.gamerows import GameRow, OrderRow, OverrideRow
from gm.store.reportrows import ReportRow


@dataclass
class VerifyReport:
    game_id: str
    states: int = 0
    orders: int = 0
    reports: int = 0
    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # wording of another version: not a failure (G1)
    differing_states: set[int] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not self.differences

    def text(self) -> str:
        head = (f"game {self.game_id}: replayed {self.states} states from {self.orders} orders/closes; "
                f"compared {self.reports} archived reports")
        notes = [f"{len(self.notes)} note(s):"] + [f"  - {n}" for n in self.notes[:200]] if self.notes else []
        if self.ok:
            return "\n".join([head, *notes, "OK: the replay matches the store and the archive."]) + "\n"
        lines = [head, *notes, f"{len(self.differences)} difference(s):"]
        lines += [f"  - {d}" for d in self.differences[:200]]
        return "\n".join(lines) + "\n"


def _first_difference(a, b, path: str = "") -> str:
    if type(a) is not type(b):
        return f"{path or 'state'}: {a!r} != {b!r}"[:300]
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or 'state'}: {a!r} != {b!r}"[:300]


@lru_cache(maxsize=1)
def deadline_starts() -> tuple[str, ...]:
    """How a report's deadline line begins, in each language (the template's "Deadline: ...")."""
    said = {i18n.translations(language).gettext("Deadline: %(when)s").split("%(")[0] for language in LANGUAGES}
    return tuple({"Deadline: "} | {start for start in said if start.strip()})


def _strip_deadline(text: str) -> str:
    """A report as compared: without its deadline (a time, not the position), and without what
    reports archived by older versions show differently (their footer, no "(left)" in scores)."""
    text = present.without_footer(text).replace("  (left)", "")  # older archived reports lack "(left)"
    starts = deadline_starts()
    return "\n".join(line for line in text.rstrip("\n").split("\n") if not line.startswith(starts)) + "\n"


# The languages and formats a report is rendered in again until one reads as archived.
READINGS = tuple((language, accessible) for accessible in (False, True) for language in LANGUAGES)


def verify(ctx: Context, game_id: str) -> VerifyReport:
    """Replay every stored state from its cause, then render every archived report again."""
    view = games.load(ctx.store, game_id)
    report = VerifyReport(view.id)
    replayed, events = _replay_states(ctx, view, report)
    _compare_reports(ctx, view, replayed, events, report)
    return report


def _replay_states(ctx: Context, view, report: VerifyReport) -> tuple[dict[int, object], dict[int, list[Event]]]:
    """Each stored state rebuilt from the one before it; differences go into ``report``."""
    store, gid = ctx.store, view.id
    rules = registry.get(view.row.kind)
    stored = {r.seq: store.turns.state_data(r) for r in store.turns.states_of(gid)}
    by_seq = {r.seq: r for r in store.turns.accepted_orders(gid)}
    overrides = {r.seq: r for r in store.turns.overrides_of(gid)}
    replayed: dict[int, object] = {}
    events: dict[int, list[Event]] = {}
    current = None
    for seq in sorted(stored):
        events[seq] = []
        try:
            if seq == 0:
                current = rules.start(rules.setup([p.name for p in view.players],
                                                  json.loads(view.row.options), view.row.seed),
                                      view.row.created)
            elif seq in overrides:
                _check_rollback(ctx, rules, overrides[seq], replayed, stored, report)
                current = rules.load(stored[seq])  # the GM's state, taken as given
            elif seq in by_seq and by_seq[seq].action == "takeback":  # G9: seq - 1 is the move undone
                row = by_seq[seq]
                current = games.restored_state(rules, replayed[seq - 2], current, row.player, row.at)
                report.orders += 1
            elif seq in by_seq:
                result = _replay_cause(rules, current, by_seq[seq])
                current, events[seq] = result.state, result.events
                report.orders += 1
            else:
                report.differences.append(f"state {seq} has no recorded cause (no order, close or override)")
                current = rules.load(stored[seq])
        except Exception as exc:  # a replay that the rules refuse is a difference, not a crash
            report.differences.append(f"state {seq}: the replay failed: {type(exc).__name__}: {exc}")
            current = rules.load(stored[seq])
        dumped = rules.dump(current)
        if dumped != stored[seq]:
            report.differing_states.add(seq)
            report.differences.append(f"state {seq} differs from the replay: "
                                      + _first_difference(dumped, stored[seq]))
        replayed[seq] = current
        report.states += 1
    return replayed, events


def _replay_cause(rules, state, row: OrderRow):
    """The rules' result of the recorded order, turn close or draw, with the time the rules saw."""
    return games.replayed_move(rules, state, row.action, row.player, row.text, row.at)


def _check_rollback(ctx: Context, rules, override: OverrideRow, replayed: dict, stored: dict,
                    report: VerifyReport) -> None:
    """A rollback must restore exactly the replayed state it names (its clock running from
    when the rollback was made)."""
    seq, source = override.seq, override.source_seq
    made = ctx.store.turns.state_at(override.game_id, seq)
    if override.action != "rollback" or source not in replayed or made is None:
        return
    restored = rules.dump(games.rolled_back_state(rules, replayed[source], made.created))
    if restored != stored[seq]:
        report.differences.append(f"state {seq} (rollback to state {source}) differs from the replay: "
                                  + _first_difference(restored, stored[seq]))


def _compare_reports(ctx: Context, view, replayed: dict, events: dict, report: VerifyReport) -> None:
    """The archive: what each report shows (turn, position, scores, result) must be the replay's;
    its words must be today's when this version rendered it, and may differ (a note) when an
    earlier one did (RULINGS G1)."""
    rules, gid = registry.get(view.row.kind), view.id
    overrides = ctx.store.turns.override_seqs(gid)
    version = gm_version()
    for row in ctx.store.reports.reports_of(gid, kind="report"):
        state = replayed.get(row.seq)
        if state is None:
            report.differences.append(f"report #{row.id} refers to state {row.seq}, which is not stored")
            continue
        report.reports += 1
        which = f"report #{row.id} (turn {row.turn}, to {row.player or 'GM'})"
        report.differences += [f"{which} {problem}" for problem in _shown_differences(rules, state, row, report)]
        if _worded_as_today(gid, rules, state, row, events, overrides):
            continue
        if row.gm_version == version:
            report.differences.append(f"{which} differs from the replay")
        else:
            by = f"gm {row.gm_version}" if row.gm_version else "a gm from before report versions"
            report.notes.append(f"{which} is worded as {by} wrote it, not as gm {version}: "
                                "what it shows matches the replay")


def _shown_differences(rules, state, row: ReportRow, report: VerifyReport) -> list[str]:
    """What a report shows against the replay: its digest where it has one; a report stored before
    digests, its turn and the stored state of its seq (checked against the replay above).  (A store
    still at an earlier schema step, read before it is migrated, has no such columns: None.)"""
    replayed = digest.report_digest(rules, state)
    if row.digest:
        return [f"shows {d} (stored digest != replay)"
                for d in digest.differences(json.loads(row.digest), replayed)]
    problems = [] if row.turn == replayed["turn"] else [f"is of turn {row.turn}, the replay's {replayed['turn']}"]
    if row.seq in report.differing_states:
        problems.append(f"shows state {row.seq}, which differs from the replay")
    return problems


def _worded_as_today(gid: str, rules, state, row: ReportRow, events: dict, overrides) -> bool:
    """The report rendered again from the replayed state reads as archived (less its deadline), in
    any language and format its reader may have had (SET LANGUAGE, SET FORMAT ACCESSIBLE: English
    drawn first, as most are)."""
    archived = _strip_deadline(row.body)
    # as reported after the move, or as BOARD/resend sent it
    if any(_strip_deadline(present.render_report(present.ReportInput(
            gid, rules, state, row.player, evs, language=language, accessible=accessible))) == archived
           for language, accessible in READINGS for evs in (events.get(row.seq, []), [])):
        return True
    # A GM override's report carries the GM's note as its event: compare the board.
    return row.seq in overrides and rules.render_board(state, row.player).strip("\n") in row.body


# --- gm history -----------------------------------------------------------------
def history_text(ctx: Context, game_id: str, turn: int | None = None, log_only: bool = False) -> str:
    """The game's history log (who, when, what) and every message it sent."""
    view = games.load(ctx.store, game_id)
    gid = view.id
    out = [f"History of game {gid} ({view.rules.title}, {view.status})"
           + (f", turn {turn}" if turn is not None else ""), ""]
    out.append("Log (when, turn, who, what):")
    for line in ctx.store.history.history_of(gid):
        if turn is not None and line.turn != turn:
            continue
        out.append(f"  {format_stamp(line.at)}  T{line.turn:<3} {line.actor:<14} "
                   f"{line.action:<10} {line.detail or ''}".rstrip())
    if log_only:
        return "\n".join(out) + "\n"
    rows = ctx.store.reports.reports_of(gid, turn=turn)
    out += ["", f"Messages sent ({len(rows)}):"]
    for row in rows:
        out.append("")
        out.append(f"----- turn {row.turn}, {row.kind} to {row.player or 'archive'}, "
                   f"{format_stamp(row.created)} -----")
        out.append(row.body.rstrip())
    return "\n".join(out) + "\n"


# --- the archive site's data ---------------------------------------------------------
def index_entry(ctx: Context, game_id: str, view=None) -> dict:
    """What the archive's index shows of a game (public facts, from the current state only):
    kind, status, turn, players with scores, the result, and when it last changed.  An open
    game (no position yet) is listed as recruiting, with its free seats."""
    if view is None:
        row = ctx.store.games.game(game_id)
        if row is not None and row.status == Status.OPEN:
            return recruiting_entry(ctx, row)
    view = view or games.load(ctx.store, game_id)
    rules, state = view.rules, view.state
    scores = rules.scores(state)
    winners = rules.winners(state) if rules.is_over(state) else []
    result = ctx.store.results.result_of(view.id)
    reason = None
    if result is not None:
        reason = result.reason
        if result.winners:
            winners = json.loads(result.winners)
    changed = max(view.row.updated, ctx.store.turns.last_state_time(view.id) or 0.0)
    return {
        "id": view.id,
        "title": rules.title,
        "kind": rules.kind,
        "status": view.status,
        "over": rules.is_over(state) or view.status == "finished",
        "turn": view.turn,
        "players": [{"name": p.name, "score": scores.get(p.name, 0), "active": bool(p.active),
                     "winner": p.name in winners} for p in view.players],
        "winners": winners,
        "drawn": rules.is_drawn(state),
        "reason": reason,
        "created": format_stamp(view.row.created),
        "created_at": view.row.created,
        "updated": format_stamp(changed),
        "updated_at": changed,
    }


def recruiting_entry(ctx: Context, row: GameRow) -> dict:
    """The index line of an open game: its seats, the names that took one (never an address),
    how many are free; no page, no feed, no turn yet."""
    seats = ctx.store.selfservice.open_game(row.id)
    joined = ctx.store.seats.players(row.id)
    total = seats.seats if seats is not None else len(joined)
    return {
        "id": row.id,
        "title": registry.get(row.kind).title,
        "kind": row.kind,
        "status": "recruiting",
        "recruiting": True,
        "seats": total,
        "free": max(total - len(joined), 0),
        "over": False,
        "turn": 0,
        "players": [{"name": p.name, "score": 0, "active": True, "winner": False} for p in joined],
        "winners": [],
        "reason": None,
        "created": format_stamp(row.created),
        "created_at": row.created,
        "updated": format_stamp(row.updated),
        "updated_at": row.updated,
    }


def archive_data(ctx: Context, game_id: str, drawn: dict[int, int] | None = None, language: str = "en") -> dict:
    """What the archive page of a game shows: an observer's report of each turn, public press, result.

    The archive is an observer's view: each turn's report is rendered again from the
    replayed state for present.OBSERVER (no player), with the events everyone was told,
    so no seat's private lines and no sealed order appear before the rules reveal them.
    A game whose rules keep a trail table (Game.full_trail) shows it in full, as it stands now.
    ``drawn`` ({turn: seq}): pictures already written for those states, not drawn again
    (a turn whose picture is kept has ``picture`` None and ``picture_kept`` True).  ``record``:
    the files of a finished game's public record (public_record).  The reports are in ``language``
    (config archive_language).
    """
    view = games.load(ctx.store, game_id)
    rules, store = view.rules, ctx.store
    replayed, events = _replay_states(ctx, view, VerifyReport(view.id))
    turns: dict[int, dict] = {}
    drawn = drawn or {}

    def entry(turn: int) -> dict:
        return turns.setdefault(turn, {"turn": turn, "report": None, "press": [], "seq": -1, "at": None})

    for row in store.reports.turn_reports(view.id):  # the turns that had a report, and their latest state
        item = entry(row.turn)
        if row.seq > item["seq"] and row.seq in replayed:
            item["seq"] = row.seq
        item["at"] = max(item["at"] or 0.0, row.created)
    for item in turns.values():
        if item["seq"] >= 0:
            public = [e for e in events.get(item["seq"], []) if e.to is None]
            item["report"] = present.render_report(present.ReportInput(
                view.id, rules, replayed[item["seq"]], present.OBSERVER, public, language=language))
            item["picture_kept"] = drawn.get(item["turn"]) == item["seq"]
            item["picture"] = None if item["picture_kept"] else \
                pictures.picture(rules, replayed[item["seq"]], present.OBSERVER)
    for turn, text in reportmail.public_press(store.reports.public_press(view.id)):
        entry(turn)["press"].append(text)
    ordered = [turns[t] for t in sorted(turns)]
    for i, item in enumerate(ordered):
        item["prev"] = ordered[i - 1]["turn"] if i > 0 else None
        item["next"] = ordered[i + 1]["turn"] if i + 1 < len(ordered) else None
    # The full trail table of the latest position (RULINGS PX10: kept in the archive), for a
    # game whose rules keep one; public, as every report shows it.
    trail = rules.full_trail(view.state)
    return {**index_entry(ctx, game_id, view), "turns": ordered,
            "trail": None if trail is None else "\n".join(trail), "record": public_record(ctx, view)}


def public_record(ctx: Context, view: GameView) -> dict[str, bytes] | None:
    """The files of the game's record for the archive (recordfiles.public_files): a finished
    game's, public; None for a running game, whose record is not."""
    if view.status != Status.FINISHED:
        return None
    return recordfiles.public_files(ctx, view)
