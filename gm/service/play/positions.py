"""The GM's changes to the position itself: roll back to a turn, or edit the state.

An edit carries the change number (state seq) it was based on and is refused
if the game changed since: the comparison and the save are in one
``BEGIN IMMEDIATE``, so a turn adjudicated while the GM's editor was open is
never overwritten.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from typing import Any

from games.text import Text, reason
from games.base import GameError
from gm.core import editing
from gm.core.model import GameView, ServiceError
from gm.service.outgoing import reports
from gm.service.table import deadlines, games
from gm.service.context import Context
from gm.store.locks import retried
from gm.service.play.lifecycle import record


@retried
def rollback(ctx: Context, game_id: str, to_turn: int, who: str | None = None,
             why: str | None = None) -> str:
    """Restore the start of a turn, discard later orders, re-open the turn."""
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if to_turn > view.turn:
            raise ServiceError(f"turn {to_turn} is in the future: game {view.id} is at turn {view.turn}")
        starts = [seq for turn, seq in deadlines.turn_runs(ctx.store, view.id) if turn == to_turn]
        if not starts:
            raise ServiceError(f"game {view.id} has no turn {to_turn}")
        source = starts[-1]
        stored = ctx.store.turns.state_at(view.id, source)
        assert stored is not None  # a turn's start is a stored state (turn_runs)
        later = ctx.store.turns.accepted_orders_after(view.id, source)
        restored = games.rolled_back_state(view.rules, view.rules.load(ctx.store.turns.state_data(stored)),
                                           ctx.clock())
        seq = games.save_gm_state(ctx.store, view, view.rules.dump(restored), "rollback", source,
                                  f"to turn {to_turn}", ctx.clock(),
                                  status="paused" if view.status == "paused" else "active")
        back = [n for n in view.rules.removed(view.state) if n not in view.rules.removed(restored)]
        for name in back:  # RULINGS G5 undone: the seat plays, and gets its mail, again
            ctx.store.seats.reactivate_player(view.id, name)
        record(ctx, view, "rollback",
               f"to turn {to_turn} (state {source} restored as {seq}; {len(later)} later order(s) discarded"
               + (f"; {', '.join(back)} back in the game" if back else "") + ")",
               who, why)
        text = Text("The game master rolled the game back to the start of turn {turn}; later orders are "
                    "discarded and the turn is open again. Reason: {why}", turn=to_turn, why=why) if why else \
            Text("The game master rolled the game back to the start of turn {turn}; later orders are "
                 "discarded and the turn is open again.", turn=to_turn)
        after = games.load(ctx.store, view.id)
        deadlines.open_turn(ctx.store, after)
        reports.gm_reports(ctx, after, text)
    return f"game {view.id} is back at turn {to_turn} ({len(later)} later order(s) discarded)"


def validate_edit(view: GameView, data: Any) -> Any:
    """The rule module's check of an edited state; raises GameError."""
    rules = view.rules
    if not isinstance(data, dict):
        raise GameError("the state must be a JSON object")
    state = rules.load(data)
    if list(rules.players(state)) != list(rules.players(view.state)):
        raise GameError("an edit may not change the players (use gm replace)")
    rules.load(rules.dump(state))  # what is saved must read back
    # The questions a report asks must all be answerable.
    rules.to_move(state), rules.scores(state), rules.render_board(state, None)
    return state


@retried
def edit_state(ctx: Context, game_id: str, data: Any, who: str | None = None,
               why: str | None = None, *, base_seq: int) -> str:
    """Save an edited state, if the game is still at change ``base_seq`` (the one edited)."""
    with ctx.store.write(games=[game_id]):
        view = games.load(ctx.store, game_id)
        if view.seq != base_seq:
            raise ServiceError(
                f"edit refused, nothing changed: the game changed while you were editing "
                f"(you edited change {base_seq}, the game is now at change {view.seq}); "
                "take the state again and redo the edit")
        try:
            state = validate_edit(view, data)
        except GameError as exc:
            raise ServiceError(f"edit refused, nothing changed: {exc}") from None
        except Exception as exc:  # a rule module that trips over a bad state
            raise ServiceError(f"edit refused, nothing changed: {type(exc).__name__}: {exc}") from None
        rules = view.rules
        before, after = rules.dump(view.state), rules.dump(state)
        if after == before:
            return "no change"
        changed = sorted(k for k in set(data) | set(before) if after.get(k) != before.get(k))
        seq = games.save_gm_state(ctx.store, view, after, "edit", view.seq,
                                  f"changed {', '.join(changed)}", ctx.clock())
        record(ctx, view, "edit", f"state {seq}: changed {', '.join(changed)}", who, why)
        after = games.load(ctx.store, view.id)
        deadlines.open_turn(ctx.store, after)
        reports.gm_reports(ctx, after, Text("The game master corrected the position. Reason: {why}", why=why)
                           if why else Text("The game master corrected the position."))
    return f"game {view.id}: state edited ({', '.join(changed)})"


def edit_interactive(ctx: Context, game_id: str, who: str | None = None, why: str | None = None,
                     editor: str | None = None) -> str:
    """Open the state as JSON in $EDITOR, then save it unless the game changed meanwhile.

    An edit that is not JSON or that the rules refuse is opened again as typed, under the error
    (gm.core.editing); an empty file, or one saved unchanged, gives up."""
    view = games.load(ctx.store, game_id)
    original = json.dumps(view.rules.dump(view.state), indent=2, sort_keys=True) + "\n"
    shown, error = original, None
    for _ in range(EDIT_TRIES):
        edited = run_editor(shown, view.id, editor)
        body = editing.without_notes(edited)
        if not body.strip():
            return "edit abandoned (an empty file), nothing changed"
        if edited == shown:
            if error is None:
                return "no change"
            raise ServiceError(f"edit abandoned, nothing changed: {error}")
        try:
            data = json.loads(body)
            validate_edit(view, data)
        except json.JSONDecodeError as exc:
            error = f"not JSON: {exc.msg}: line {exc.lineno} column {exc.colno} (of the JSON below)"
        except GameError as exc:
            error = reason(exc)
        except Exception as exc:  # a rule module that trips over a bad state
            error = f"{type(exc).__name__}: {exc}"
        else:
            return edit_state(ctx, game_id, data, who, why, base_seq=view.seq)
        shown = editing.with_notes(body, view.id, error)
    raise ServiceError(f"edit refused {EDIT_TRIES} times, nothing changed: {error}")


EDIT_TRIES = 20  # an $EDITOR that never gives up (a script) must not loop forever


def run_editor(text: str, game_id: str, editor: str | None) -> str:
    """What the GM saved after editing ``text`` in ``editor`` ($VISUAL, $EDITOR or vi)."""
    with tempfile.NamedTemporaryFile("w", suffix=f"-{game_id}.json", delete=False) as handle:
        handle.write(text)
        path = handle.name
    try:
        command = editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        subprocess.run(f"{command} {shlex.quote(path)}", shell=True, check=True)
        with open(path) as handle:
            return handle.read()
    finally:
        os.unlink(path)
