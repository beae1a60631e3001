"""The service's own records: settings, deadlines, absences, away replies, GM-made states, results."""

from __future__ import annotations

import json
from typing import Any

from gm.store.calendarrows import CalendarEventRow
from gm.store.gamerows import AbsenceRow, AwayNoticeRow, DeadlineRow, ResultRow
from gm.store.repository import Repository
from gm.store.seatrows import BounceHoldRow
from gm.store.sql import bound, inserting, prepared, updating, upsert, whole_rows

DEADLINE_COLUMNS = ("start_seq", "turn", "due", "reminded", "late", "grace_done", "paused_at",
                    "set_by")
REPLACE_DEADLINE = upsert("deadlines", "game_id")  # replace_deadline's, deferred (gm.store.deferred)
# update_deadline's changes, by the columns changed (sorted): each one alone, and those changed together
# (gm.service.play.timers, lifecycle); another is made at its first run
DEADLINE_CHANGES = {shape: updating("deadlines", where=("game_id",), set=shape) for shape in (
    *((column,) for column in DEADLINE_COLUMNS), ("due", "paused_at"), ("due", "grace_done"))}
ADD_BOUNCE_HOLD = inserting("bounce_holds", ("game_id", "player", "start_seq", "seconds", "at"))
ADD_ABSENCE = inserting("absences", ("game_id", "player", "start", "end", "created"))
ADD_OVERRIDE = inserting("state_overrides", ("game_id", "seq", "action", "source_seq", "detail"))


SETTINGS = prepared(lambda sa, t: sa.select(t.game_settings.c.key, t.game_settings.c.value).where(
    t.game_settings.c.game_id == sa.bindparam("game")))
SAVE_SETTING = upsert("game_settings", "game_id", "key")
DEADLINE = prepared(lambda sa, t: whole_rows(sa, t.deadlines).where(t.deadlines.c.game_id == sa.bindparam("game")))
BOUNCE_HOLDS = prepared(lambda sa, t: sa.select(t.bounce_holds.c.start_seq, t.bounce_holds.c.seconds).where(
    t.bounce_holds.c.game_id == sa.bindparam("game"), t.bounce_holds.c.player == sa.bindparam("player")))
ABSENCES = prepared(lambda sa, t: sa.select(t.absences.c.player, t.absences.c.start, t.absences.c.end).where(
    t.absences.c.game_id == sa.bindparam("game")))
OVERRIDE_SEQS = prepared(lambda sa, t: sa.select(t.state_overrides.c.seq).where(
    t.state_overrides.c.game_id == sa.bindparam("game")))
OVERRIDES = prepared(lambda sa, t: whole_rows(sa, t.state_overrides).where(
    t.state_overrides.c.game_id == sa.bindparam("game")))
DRAW_PROPOSALS = prepared(lambda sa, t: sa.select(t.draw_proposals.c.player, t.draw_proposals.c.turn).where(
    t.draw_proposals.c.game_id == sa.bindparam("game")))
PROPOSE_DRAW = upsert("draw_proposals", "game_id", "player")
WITHDRAW_DRAWS = prepared(lambda sa, t: sa.delete(t.draw_proposals).where(
    t.draw_proposals.c.game_id == sa.bindparam("game")))
WITHDRAW_DRAW = prepared(lambda sa, t: sa.delete(t.draw_proposals).where(
    t.draw_proposals.c.game_id == sa.bindparam("game"), t.draw_proposals.c.player == sa.bindparam("player")))
TAKEBACKS = prepared(lambda sa, t: sa.select(t.takebacks.c.player, t.takebacks.c.seq, t.takebacks.c.answer).where(
    t.takebacks.c.game_id == sa.bindparam("game")))
ANSWER_TAKEBACK = upsert("takebacks", "game_id", "player")
END_TAKEBACKS = prepared(lambda sa, t: sa.delete(t.takebacks).where(t.takebacks.c.game_id == sa.bindparam("game")))
CALENDAR_EVENTS = prepared(lambda sa, t: whole_rows(sa, t.calendar_events).where(
    t.calendar_events.c.game_id == sa.bindparam("game"),
    sa.or_(t.calendar_events.c.cancelled == 0, t.calendar_events.c.turn == sa.bindparam("turn"))))
SAVE_CALENDAR_EVENT = upsert("calendar_events", "game_id", "player", "turn")
AWAY_NOTICES_AT = prepared(lambda sa, t: whole_rows(sa, t.away_notices).where(
    t.away_notices.c.address_key == sa.bindparam("key")))
AWAY_NOTICES_IN = prepared(lambda sa, t: whole_rows(sa, t.away_notices).where(
    t.away_notices.c.game_id == sa.bindparam("game")))
SAVE_AWAY_NOTICE = upsert("away_notices", "address_key", "game_id", "player")
SET_RESULT = upsert("results", "game_id")
CLEAR_RESULT = prepared(lambda sa, t: sa.delete(t.results).where(t.results.c.game_id == sa.bindparam("game")))
RESULT = prepared(lambda sa, t: whole_rows(sa, t.results).where(t.results.c.game_id == sa.bindparam("game")))
DUE_GAMES = prepared(lambda sa, t: sa.select(t.timers.c.game_id).where(t.timers.c.due <= sa.bindparam("now")).order_by(
    t.timers.c.due, t.timers.c.game_id))
TIMER = prepared(lambda sa, t: sa.select(t.timers.c.due).where(t.timers.c.game_id == sa.bindparam("game")))
CLEAR_TIMER = prepared(lambda sa, t: sa.delete(t.timers).where(t.timers.c.game_id == sa.bindparam("game")))
SET_TIMER = upsert("timers", "game_id")


class Timers(Repository):
    """Deadlines, timers, absences and bounce holds of games, and the deadline events sent."""

    def deadline_row(self, game_id: str) -> DeadlineRow | None:
        """A game's deadlines row (the turn now open, or the last one stored)."""
        return self.store.remembered("deadlines", ("game", game_id),
                                     lambda: DeadlineRow.maybe(DEADLINE.run(self.store, game=game_id).fetchone()))

    def replace_deadline(self, row: dict[str, Any]) -> None:
        """Store ``row`` (a full deadlines row with its game_id) in place of the game's old one."""
        self._require_tx()
        if set(row) != {"game_id", *DEADLINE_COLUMNS}:
            raise ValueError(f"not a full deadlines row: {', '.join(sorted(row))}")
        columns = ("game_id", *DEADLINE_COLUMNS)
        # at the transaction's end (gm.store.deferred): a game's last row only, as REPLACE leaves it
        self.store.defer("deadlines", "replace", lambda rows: [
            bound(REPLACE_DEADLINE, self.store.kind, dict(zip(columns, r))) for r in {r[0]: r for r in rows}.values()],
            tuple(row[c] for c in columns))
        self.store.remember_written("deadlines", ("game", row["game_id"]), DeadlineRow(**row))

    def update_deadline(self, game_id: str, **values: Any) -> None:
        """Change fields of a game's deadline row: due, reminded, late, grace_done, paused_at, set_by."""
        unknown = set(values) - set(DEADLINE_COLUMNS)
        if unknown:
            raise ValueError(f"not a deadlines column: {', '.join(sorted(unknown))}")
        shape = tuple(sorted(values))  # a shape DEADLINE_CHANGES declares is compiled ahead
        statement = DEADLINE_CHANGES.get(shape) or updating("deadlines", ("game_id",), shape)
        self.store.update_rows(statement, game_id=game_id, **values)

    def due_games(self, now: float) -> list[str]:
        """The games with something due by ``now`` (deadline steps or a rules timer), soonest first."""
        return [r["game_id"] for r in DUE_GAMES.run(self.store, now=now).fetchall()]

    def timer_of(self, game_id: str) -> float | None:
        """When a game next needs the clock, or None if nothing is ahead of it."""
        row = self.store.remembered("timers", ("due", game_id),
                                    lambda: TIMER.run(self.store, game=game_id).fetchone())
        return None if row is None else row["due"]

    def set_timer(self, game_id: str, due: float | None) -> None:
        """Set (or, with None, clear) the moment a game next needs the clock."""
        self._require_tx()
        known, row = self.store.already_read("timers", ("due", game_id))
        if known and (row["due"] if row is not None else None) == due:
            return  # already so: read in this transaction and not written since
        if due is None:
            CLEAR_TIMER.run(self.store, game=game_id)
        else:
            SET_TIMER.run(self.store, game_id=game_id, due=due)

    def absences_of(self, game_id: str) -> list[AbsenceRow]:
        """(player, start, end) of every absence declared in a game."""
        return AbsenceRow.every(ABSENCES.run(self.store, game=game_id).fetchall())

    def add_absence(self, game_id: str, player: str, start: float, end: float,
                    created: float) -> int:
        """Record a player's absence from ``start`` to ``end``; returns its id."""
        return self.store.insert_row(ADD_ABSENCE, game_id=game_id, player=player, start=start, end=end, created=created)

    def bounce_holds_of(self, game_id: str, player: str) -> list[BounceHoldRow]:
        """(start_seq, seconds) of every time bouncing=wait held this player's deadline."""
        return BounceHoldRow.every(BOUNCE_HOLDS.run(self.store, game=game_id, player=player))

    def add_bounce_hold(self, game_id: str, player: str, start_seq: int, seconds: float, at: float) -> None:
        """Record that bouncing=wait held ``player``'s deadline in the turn opened by ``start_seq``."""
        self.store.insert_row(ADD_BOUNCE_HOLD, game_id=game_id, player=player, start_seq=start_seq, seconds=seconds,
                              at=at)

    def away_notices_at(self, address_key: str) -> list[AwayNoticeRow]:
        """The away replies seen from one mailbox (gm.core.addresses.mailbox_key), each seat's."""
        return AwayNoticeRow.every(AWAY_NOTICES_AT.run(self.store, key=address_key).fetchall())

    def away_notices_in(self, game_id: str) -> list[AwayNoticeRow]:
        """The away replies seen from the seats of a game (`gm players`)."""
        return AwayNoticeRow.every(AWAY_NOTICES_IN.run(self.store, game=game_id).fetchall())

    def save_away_notice(self, row: AwayNoticeRow) -> None:
        """Keep the last away reply seen from a seat's address (a row per address and seat)."""
        self._require_tx()
        SAVE_AWAY_NOTICE.run(self.store, **dict(zip(row.columns, row.in_order())))


    def calendar_events(self, game_id: str, turn: int) -> list[CalendarEventRow]:
        """The deadline events of a game its readers were sent: those not cancelled, and those of
        ``turn`` (the SEQUENCE a turn's event goes on from)."""
        return CalendarEventRow.every(CALENDAR_EVENTS.run(self.store, game=game_id, turn=turn).fetchall())

    def save_calendar_event(self, row: CalendarEventRow) -> None:
        """Record the event a reader was just sent (its SEQUENCE, due, and whether a cancel)."""
        self._require_tx()
        SAVE_CALENDAR_EVENT.run(self.store, **row.as_dict())


class Results(Repository):
    """Draw proposals, takebacks and a game's result."""

    def draw_proposals(self, game_id: str) -> dict[str, int]:
        """Each player of a game with a draw proposal on record: the turn it was made in."""
        return {r["player"]: r["turn"] for r in
                DRAW_PROPOSALS.run(self.store, game=game_id).fetchall()}

    def propose_draw(self, game_id: str, player: str, turn: int, at: float) -> None:
        """A player's draw proposal, made in ``turn`` (a new one replaces theirs)."""
        self._require_tx()
        PROPOSE_DRAW.run(self.store, game_id=game_id, player=player, turn=turn, made=at)

    def withdraw_draw(self, game_id: str, player: str | None = None) -> int:
        """Forget a player's draw proposal (None: every proposal of the game); how many went."""
        self._require_tx()
        if player is None:
            return WITHDRAW_DRAWS.run(self.store, game=game_id).rowcount
        return WITHDRAW_DRAW.run(self.store, game=game_id, player=player).rowcount

    def takebacks(self, game_id: str) -> dict[str, tuple[int, str]]:
        """Each player of a game with a takeback answer on record (RULINGS G9): (the seq of the
        state the move to take back made, ask | accept)."""
        return {r["player"]: (r["seq"], r["answer"]) for r in TAKEBACKS.run(self.store, game=game_id).fetchall()}

    def answer_takeback(self, game_id: str, player: str, seq: int, answer: str, at: float) -> None:
        """A player's ask (the mover) or accept of the takeback of the move that made state ``seq``."""
        self._require_tx()
        ANSWER_TAKEBACK.run(self.store, game_id=game_id, player=player, seq=seq, answer=answer, made=at)

    def end_takebacks(self, game_id: str) -> int:
        """Forget a game's takeback and its answers (declined, done or lapsed); how many rows went."""
        self._require_tx()
        return END_TAKEBACKS.run(self.store, game=game_id).rowcount

    def set_result(self, game_id: str, reason: str, winners: list[str] | None, at: float) -> None:
        """Record how a game the GM ended (or a forfeit) came out; ``winners`` None: as the rules say."""
        self._require_tx()
        SET_RESULT.run(self.store, game_id=game_id, reason=reason,
                       winners=json.dumps(winners) if winners is not None else None, at=at)

    def clear_result(self, game_id: str) -> None:
        """Forget a game's recorded result (the game goes on)."""
        self._require_tx()
        CLEAR_RESULT.run(self.store, game=game_id)

    def result_of(self, game_id: str) -> ResultRow | None:
        """A game's results row (reason, winners as JSON, at), or None."""
        return ResultRow.maybe(RESULT.run(self.store, game=game_id).fetchone())
