"""Loading a game as stored and saving the states the rules make."""

from __future__ import annotations

from typing import Any

from games.text import Text
from games import clock as game_clock
from games import registry
from gm.core.model import GameView, NotStarted, OpenGameView, ServiceError, Status
from gm.service.table import deadlines
from gm.store import Store

# A new game's id: typed by players, read in subjects and in reply addresses' local parts, and
# shown in lists, so it is plain ASCII that cannot look like another ('nЬ1' with a Cyrillic
# soft sign, fullwidth 'ＮＢ３').  Games made before keep their ids, '.' and '_' too.
NEW_ID_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
NEW_ID_CHARS = NEW_ID_FIRST | {"-"}
MAX_GAME_ID = 40  # characters: it is typed, and it is part of a reply address's local part


def valid_new_game_id(game_id: str) -> str:
    """The id of a game about to be made, as stored (lower case); ServiceError saying why not.
    Checked before lower-casing: "\u212a".lower() is an ASCII "k"."""
    game_id = game_id.strip()
    rule = Text("a game id is 1 to {most} ASCII letters, digits and '-', starting with a "
                "letter or a digit (e.g. nb7)", most=MAX_GAME_ID)
    if not game_id or len(game_id) > MAX_GAME_ID:
        raise ServiceError(rule)
    odd = next((c for c in game_id if c.lower() not in NEW_ID_CHARS or not c.isascii()), None)
    if odd is not None:
        raise ServiceError(Text("{rule}; {game} has {char} (U+{code}), which is not one", rule=rule,
                                game=repr(game_id), char=repr(odd), code=f"{ord(odd):04X}"))
    if game_id[0].lower() not in NEW_ID_FIRST:
        raise ServiceError(rule)
    return game_id.lower()


def load(store: Store, game_id: str) -> GameView:
    """The game as stored now; ServiceError if there is none."""
    row = store.games.game(game_id.strip().lower())
    if row is None:
        raise ServiceError(Text("no game called {game}", game=repr(game_id)))
    if row.status == Status.OPEN:
        raise NotStarted(Text("game {game} has not started: it waits for players (send LIST "
                              "{game} to see its seats, JOIN {game} <name> to take one)", game=row.id))
    rules = registry.get(row.kind)
    latest = store.turns.latest_state(row.id)
    assert latest is not None  # a game that is not open has its first state
    state = rules.load(store.turns.state_data(latest))
    return GameView(row, rules, state, latest.seq, store.seats.players(row.id))


def load_seats(store: Store, game_id: str) -> GameView:
    """The game as load() gives it, or, for an open game (no state yet), its seats in an
    OpenGameView (turn 0): what a seat's credentials are checked and changed on
    (gm.service.people.guessing, credentials).  ServiceError if there is no such game."""
    try:
        return load(store, game_id)
    except NotStarted:
        row = store.games.game(game_id.strip().lower())
        assert row is not None  # load found it
        return OpenGameView(row, registry.get(row.kind), None, 0, store.seats.players(row.id))


def save_state(store: Store, view: GameView, state: Any, now: float) -> GameView:
    """Store a state the rules made; the game is finished when the rules say so.

    Returns the game after the change, without reading the state back.
    """
    rules = view.rules
    previous = store.turns.latest_state(view.id)  # remembered: add_state reads it too
    turn = rules.turn(state)
    seq = store.turns.add_state(view.id, turn, rules.dump(state), now)
    deadlines.state_added(store, view.id, previous, seq, turn, now)
    return with_status(store, view, state, seq, now)


def advance(store: Store, view: GameView, state: Any, now: float, order: dict[str, Any],
            opened: float | None = None) -> tuple[GameView, deadlines.TurnTable]:
    """One step of the game in one call down: save_state, the ``order`` that made the state
    (store.turns.add_order's arguments but the game and seq), and the turn opened (deadlines.open_turn).
    Returns the game after it and the TurnTable of its judging and mail."""
    previous = store.turns.latest_state(view.id)
    seq = store.turns.add_state(view.id, view.rules.turn(state), view.rules.dump(state), now)
    after = with_status(store, view, state, seq, now)
    store.turns.add_order(view.id, **order, seq=seq)
    return after, deadlines.state_opened(store, after, previous, now, opened)


def with_status(store: Store, view: GameView, state: Any, seq: int, now: float) -> GameView:
    """Set the game's status after a new state (finished when the rules say so); the view."""
    status = Status.FINISHED.value if view.rules.is_over(state) else view.status
    store.games.set_game_status(view.id, status, now)
    row = view.row.changed(status=status, updated=now)  # as set_game_status wrote it
    return GameView(row, view.rules, state, seq, view.players)


def save_gm_state(store: Store, view: GameView, data: dict, action: str, source_seq: int | None,
                  detail: str, now: float, status: str | None = None) -> int:
    """Store a state the GM made (rollback, edit, a seat leaving); returns its seq.

    It is marked in state_overrides so that a replay (gm verify) takes it as
    given, and it re-opens the turn.  A result the GM declared is cleared, and a finished rated
    game set running again gives its rating back (ratings.game_reopened).
    """
    rules = view.rules
    state = rules.load(data)
    seq = store.turns.add_state(view.id, rules.turn(state), rules.dump(state), now)
    store.turns.add_override(view.id, seq, action, source_seq, detail)
    if status is None:
        status = Status.FINISHED.value if rules.is_over(state) else view.status
        if view.status == Status.FINISHED and not rules.is_over(state):
            status = Status.ACTIVE.value
    store.games.set_game_status(view.id, status, now)
    store.results.clear_result(view.id)
    if view.status == Status.FINISHED and status != Status.FINISHED.value:
        from gm.service.table import ratings  # a finished game running again: rare

        ratings.game_reopened(store, view.id)
    return seq


def replayed_move(rules: Any, state: Any, action: str, player: str | None, text: str, at: float) -> Any:
    """The rules' result of a recorded move at the time they saw: an order, a turn close or a
    draw by agreement (G6).  The one replay (RULINGS G1) gm verify and gm import both run."""
    if action == "close":
        return rules.close_turn(state, at)
    if action == "draw":
        return rules.end_drawn(state, at)
    order = rules.parse_order(state, player, text)
    return rules.submit(state, player, order, at)


def rolled_back_state(rules: Any, source: Any, at: float) -> Any:
    """The state the GM's rollback to ``source`` saves at ``at``: ``source`` itself, with its
    clock's bank (G10) running from ``at``, not from when that turn first began.  The rollback
    (gm.service.play.positions) and its check in gm verify both run it."""
    restored = rules.load(rules.dump(source))
    return restored if rules.clock_of(restored) is None else rules.start(restored, at)


def restored_state(rules: Any, before: Any, after: Any, mover: str, at: float) -> Any:
    """The state a takeback (RULINGS G9) restores at ``at``: ``before`` (the state before
    ``mover``'s move was judged), made from ``after`` (the state the move made).  The one
    computation both the undo (gm.service.play.takebacks) and its replay (gm verify) run.

    With a clock (G10), no time spent is given back: the clock is ``after``'s, the player whose
    bank ran since the move charged for it, the increment the move earned taken away, and
    ``mover``'s bank running again from ``at``."""
    restored = rules.load(rules.dump(before))
    clock = rules.clock_of(after)
    if clock is None:
        return restored
    waiting = [] if rules.is_over(after) else rules.to_move(after)
    if len(waiting) == 1 and waiting[0] != mover:
        clock, _ = game_clock.charge(clock, waiting[0], at)
    return rules.with_clock(restored, game_clock.start(game_clock.take_back_increment(clock, mover), at))
