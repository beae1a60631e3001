"""The game master's overrides: repair anything, on the record.

Every override runs in one write transaction (BEGIN IMMEDIATE, so a daemon
running at the same time loses no update and sees none half done), is
recorded in the game's history with who, when and why, and mails the players
it affects.  A refused override raises EngineError (or GameError) and
changes nothing.
"""

from __future__ import annotations

import getpass
import json
import os
import subprocess
import tempfile
from typing import Any

from games.base import Event, GameError
from gm import deadlines, passwords
from gm.engine import EngineError

NO_REASON = "(no reason given)"


def default_actor() -> str:
    try:
        user = os.environ.get("GM_USER") or getpass.getuser()
    except Exception:  # no login name in a container
        user = "unknown"
    return f"gm:{user}"


def _record(engine, loaded, action: str, detail: str, who: str | None, why: str | None) -> None:
    text = detail
    text += ("; " if text else "") + f"why: {why or NO_REASON}"
    engine.store.log(loaded.id, loaded.rules.turn(loaded.state), who or default_actor(), action,
                     text, engine.clock())


def _load(engine, game_id: str):
    deadlines.ensure_schema(engine.store)
    return engine.load(game_id)


def _gm_lines(text: str, why: str | None) -> list[str]:
    lines = [text]
    if why:
        lines.append(f"Reason: {why}")
    return lines


def _everyone(loaded) -> list[str]:
    return [p["name"] for p in loaded.players if p["active"]]


def _reports(engine, game_id: str, text: str) -> None:
    """Queue a fresh report to every player, with the GM's note as its event."""
    loaded = engine.load(game_id)
    saved = loaded.players
    loaded.players = [p for p in saved if p["active"]]
    engine.queue_reports(loaded, [Event(text, kind="gm")])
    loaded.players = saved


def _new_state(engine, loaded, data: dict, action: str, source_seq: int | None, detail: str,
               status: str | None = None) -> int:
    """Store a state the GM made; mark it so replay (gm verify) takes it as given."""
    rules = loaded.rules
    state = rules.load(data)
    now = engine.clock()
    seq = engine.store.add_state(loaded.id, rules.turn(state), rules.dump(state), now)
    engine.store.insert("state_overrides", game_id=loaded.id, seq=seq, action=action,
                        source_seq=source_seq, detail=detail)
    if status is None:
        status = "finished" if rules.is_over(state) else loaded.row["status"]
        if loaded.row["status"] == "finished" and not rules.is_over(state):
            status = "active"
    engine.store.update("games", {"id": loaded.id}, status=status, updated=now)
    engine.store.db.execute("DELETE FROM results WHERE game_id = ?", (loaded.id,))
    return seq


# --- status -------------------------------------------------------------------
def pause(engine, game_id: str, who: str | None = None, why: str | None = None) -> str:
    with engine.store.write():
        loaded = _load(engine, game_id)
        if loaded.row["status"] != "active":
            raise EngineError(f"game {loaded.id} is {loaded.row['status']}, not active")
        now = engine.clock()
        engine.store.update("games", {"id": loaded.id}, status="paused", updated=now)
        deadlines.current(engine, loaded, create=True)
        engine.store.update("deadlines", {"game_id": loaded.id}, paused_at=now)
        _record(engine, loaded, "pause", "", who, why)
        deadlines.notice(engine, loaded, _everyone(loaded),
                         _gm_lines("The game master has paused this game. Orders are not "
                                   "accepted until it resumes.", why), "Game paused")
    return f"game {loaded.id} paused"


def resume(engine, game_id: str, who: str | None = None, why: str | None = None) -> str:
    with engine.store.write():
        loaded = _load(engine, game_id)
        if loaded.row["status"] != "paused":
            raise EngineError(f"game {loaded.id} is {loaded.row['status']}, not paused")
        now = engine.clock()
        engine.store.update("games", {"id": loaded.id}, status="active", updated=now)
        loaded = engine.load(loaded.id)
        row = deadlines.current(engine, loaded, create=True)
        lines = _gm_lines("The game master has resumed this game.", why)
        if row["due"] is not None and row["paused_at"] is not None and not row["late"]:
            due = row["due"] + max(0.0, now - row["paused_at"])  # the pause does not count
            engine.store.update("deadlines", {"game_id": loaded.id}, due=due, paused_at=None)
            lines.append(f"Deadline: {deadlines.format_due(due, now)}.")
        else:
            engine.store.update("deadlines", {"game_id": loaded.id}, paused_at=None)
        _record(engine, loaded, "resume", "", who, why)
        deadlines.notice(engine, loaded, _everyone(loaded), lines, "Game resumed")
    return f"game {loaded.id} resumed"


def end(engine, game_id: str, why: str, who: str | None = None, winners: list[str] | None = None) -> str:
    if not why or not why.strip():
        raise EngineError("gm end needs a reason")
    with engine.store.write():
        loaded = _load(engine, game_id)
        if loaded.row["status"] == "finished":
            raise EngineError(f"game {loaded.id} is already finished")
        for name in winners or []:
            if loaded.player(name) is None:
                raise EngineError(f"no player {name!r} in game {loaded.id}")
        now = engine.clock()
        engine.store.update("games", {"id": loaded.id}, status="finished", updated=now)
        engine.store.db.execute(
            "INSERT OR REPLACE INTO results(game_id, reason, winners, at) VALUES (?, ?, ?, ?)",
            (loaded.id, why, json.dumps(winners) if winners else None, now))
        _record(engine, loaded, "end", f"winners: {', '.join(winners)}" if winners else "", who, why)
        lines = _gm_lines("The game master has ended this game.", why)
        if winners:
            lines.append(f"Result: {', '.join(winners)} win{'s' if len(winners) == 1 else ''}.")
        deadlines.notice(engine, loaded, _everyone(loaded), lines, "Game ended")
    return f"game {loaded.id} ended"


def forfeit(engine, loaded, name: str, who: str, why: str) -> None:
    """A player forfeits (late policy or eject in a game that cannot go on without them).

    Must run inside a write.  The game ends; the others share the win.
    """
    others = [p["name"] for p in loaded.players if p["active"] and p["name"] != name]
    now = engine.clock()
    engine.store.update("games", {"id": loaded.id}, status="finished", updated=now)
    reason = f"{name} forfeited: {why}"
    engine.store.db.execute(
        "INSERT OR REPLACE INTO results(game_id, reason, winners, at) VALUES (?, ?, ?, ?)",
        (loaded.id, reason, json.dumps(others), now))
    engine.store.log(loaded.id, loaded.rules.turn(loaded.state), who, "forfeit", reason, now)
    deadlines.notice(engine, loaded, [p["name"] for p in loaded.players if p["active"]],
                     [f"{name} forfeits the game ({why}).",
                      f"The game is over. Winner{'s' if len(others) != 1 else ''}: "
                      f"{', '.join(others) or 'nobody'}."], "Game over")


# --- the clock ----------------------------------------------------------------
def set_deadline(engine, game_id: str, when: str, who: str | None = None, why: str | None = None) -> str:
    with engine.store.write():
        loaded = _load(engine, game_id)
        if loaded.rules.is_over(loaded.state) or loaded.row["status"] == "finished":
            raise EngineError(f"game {loaded.id} is over")
        now = engine.clock()
        if when.strip().lower() in {"none", "off"}:
            due = None
        else:
            try:
                due = deadlines.parse_when(when, now)
            except GameError as exc:
                raise EngineError(str(exc)) from None
            if due <= now:
                raise EngineError(f"{deadlines.format_stamp(due)} is in the past")
        deadlines.set_due(engine, loaded, due, set_by=who or default_actor())
        text = ("The game master removed the deadline of this turn." if due is None else
                f"The game master set the deadline of turn {loaded.rules.turn(loaded.state)}: "
                f"{deadlines.format_due(due, now)}.")
        _record(engine, loaded, "deadline", "none" if due is None else deadlines.format_stamp(due), who, why)
        deadlines.notice(engine, loaded, _everyone(loaded), _gm_lines(text, why), "New deadline")
    return text


# --- the position -----------------------------------------------------------------
def turn_runs(store, game_id: str) -> list[tuple[int, int]]:
    """(turn, first seq) of every stretch of states, in order (rollbacks and edits open one)."""
    overrides = {r["seq"] for r in store.all("SELECT seq FROM state_overrides WHERE game_id = ?", game_id)}
    runs, last = [], None
    for row in store.all("SELECT seq, turn FROM states WHERE game_id = ? ORDER BY seq", game_id):
        if last is None or row["turn"] != last or row["seq"] in overrides:
            runs.append((row["turn"], row["seq"]))
        last = row["turn"]
    return runs


def rollback(engine, game_id: str, to_turn: int, who: str | None = None, why: str | None = None) -> str:
    with engine.store.write():
        loaded = _load(engine, game_id)
        current = loaded.rules.turn(loaded.state)
        if to_turn > current:
            raise EngineError(f"turn {to_turn} is in the future: game {loaded.id} is at turn {current}")
        starts = [seq for turn, seq in turn_runs(engine.store, loaded.id) if turn == to_turn]
        if not starts:
            raise EngineError(f"game {loaded.id} has no turn {to_turn}")
        source = starts[-1]
        stored = engine.store.one("SELECT state FROM states WHERE game_id = ? AND seq = ?", loaded.id, source)
        later = engine.store.all(
            "SELECT id FROM orders WHERE game_id = ? AND accepted = 1 AND seq > ?", loaded.id, source)
        seq = _new_state(engine, loaded, json.loads(stored["state"]), "rollback", source,
                         f"to turn {to_turn}",
                         status="paused" if loaded.row["status"] == "paused" else "active")
        _record(engine, loaded, "rollback",
                f"to turn {to_turn} (state {source} restored as {seq}; {len(later)} later order(s) discarded)",
                who, why)
        text = (f"The game master rolled the game back to the start of turn {to_turn}; "
                "later orders are discarded and the turn is open again."
                + (f" Reason: {why}" if why else ""))
        _reports(engine, loaded.id, text)
    return f"game {loaded.id} is back at turn {to_turn} ({len(later)} later order(s) discarded)"


def validate_edit(loaded, data: Any) -> Any:
    """The rule module's check of an edited state; raises GameError."""
    rules = loaded.rules
    if not isinstance(data, dict):
        raise GameError("the state must be a JSON object")
    state = rules.load(data)
    if list(rules.players(state)) != list(rules.players(loaded.state)):
        raise GameError("an edit may not change the players (use gm replace)")
    rules.load(rules.dump(state))  # what is saved must read back
    # The questions a report asks must all be answerable.
    rules.to_move(state), rules.scores(state), rules.render_board(state, None)
    return state


def edit_state(engine, game_id: str, data: Any, who: str | None = None, why: str | None = None) -> str:
    with engine.store.write():
        loaded = _load(engine, game_id)
        try:
            state = validate_edit(loaded, data)
        except GameError as exc:
            raise EngineError(f"edit refused, nothing changed: {exc}") from None
        except Exception as exc:  # a rule module that trips over a bad state
            raise EngineError(f"edit refused, nothing changed: {type(exc).__name__}: {exc}") from None
        rules = loaded.rules
        if rules.dump(state) == rules.dump(loaded.state):
            return "no change"
        changed = sorted(k for k in set(data) | set(rules.dump(loaded.state))
                         if rules.dump(state).get(k) != rules.dump(loaded.state).get(k))
        seq = _new_state(engine, loaded, rules.dump(state), "edit", loaded.seq,
                         f"changed {', '.join(changed)}")
        _record(engine, loaded, "edit", f"state {seq}: changed {', '.join(changed)}", who, why)
        _reports(engine, loaded.id, "The game master corrected the position."
                 + (f" Reason: {why}" if why else ""))
    return f"game {loaded.id}: state edited ({', '.join(changed)})"


def edit_interactive(engine, game_id: str, who: str | None = None, why: str | None = None,
                     editor: str | None = None) -> str:
    """Open the state as JSON in $EDITOR, validate, save."""
    loaded = _load(engine, game_id)
    before = loaded.seq
    text = json.dumps(loaded.rules.dump(loaded.state), indent=2, sort_keys=True) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=f"-{loaded.id}.json", delete=False) as handle:
        handle.write(text)
        path = handle.name
    try:
        command = editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        subprocess.run(f'{command} "{path}"', shell=True, check=True)
        with open(path) as handle:
            edited = handle.read()
    finally:
        os.unlink(path)
    if edited == text:
        return "no change"
    try:
        data = json.loads(edited)
    except json.JSONDecodeError as exc:
        raise EngineError(f"edit refused, nothing changed: not JSON: {exc}") from None
    if engine.load(game_id).seq != before:
        raise EngineError("edit refused: the game changed while you were editing; try again")
    return edit_state(engine, game_id, data, who, why)


# --- seats ----------------------------------------------------------------------
def _player(loaded, name: str):
    player = loaded.player(name)
    if player is None:
        known = ", ".join(p["name"] for p in loaded.players)
        raise EngineError(f"no player {name!r} in game {loaded.id} (players: {known})")
    return player


def replace(engine, game_id: str, name: str, email: str, who: str | None = None,
            why: str | None = None) -> str:
    """A new player takes over a seat: new address, new password, a welcome."""
    email = email.strip()
    if "@" not in email:
        raise EngineError(f"{email!r} is not a mail address")
    secret = passwords.generate()
    with engine.store.write():
        loaded = _load(engine, game_id)
        player = _player(loaded, name)
        old = player["email"]
        engine.store.update("players", {"game_id": loaded.id, "name": player["name"]},
                            email=email, pw_hash=passwords.hash_password(secret), active=1)
        _record(engine, loaded, "replace", f"seat {player['name']}: {old} -> {email}", who, why)
        loaded = engine.load(loaded.id)
        engine._welcome(loaded, loaded.player(player["name"]), secret, loaded.seq)
        others = [p["name"] for p in loaded.players if p["active"] and p["name"] != player["name"]]
        deadlines.notice(engine, loaded, others,
                         _gm_lines(f"A new player now plays the seat {player['name']}.", why),
                         "New player")
        # The one who left is told too.
        turn = loaded.rules.turn(loaded.state)
        body = engine.render("notice", game_id=loaded.id, turn=turn,
                             lines=_gm_lines(f"The game master has given your seat {player['name']} "
                                             "to another player; your password no longer works.", why),
                             hint=engine.hint(loaded.id))
        if old.lower() != email.lower():
            engine.queue_mail(old, f"[{loaded.id} T{turn}] Your seat was given away", body,
                              kind="notice", game_id=loaded.id, turn=turn)
    return f"seat {player['name']} of game {loaded.id} now belongs to {email}; welcome queued"


def eject(engine, game_id: str, name: str, who: str | None = None, why: str | None = None) -> str:
    """Remove a player as the game's rules for leaving say.

    A rule module may offer ``leave(state, player, now) -> Result``.  Without
    it: in a simultaneous game that still has enough players the seat stays,
    sends no orders and receives no mail (missing orders count as the rules
    say: no claim, no bid), and a turn closes once everyone still in the game
    has sent orders (Engine.maybe_close); otherwise the player forfeits and the
    game ends.
    """
    with engine.store.write():
        loaded = _load(engine, game_id)
        player = _player(loaded, name)
        if not player["active"]:
            raise EngineError(f"{player['name']} has already left game {loaded.id}")
        if loaded.row["status"] == "finished":
            raise EngineError(f"game {loaded.id} is over")
        rules = loaded.rules
        remaining = [p for p in loaded.players if p["active"] and p["name"] != player["name"]]
        _record(engine, loaded, "eject", f"player {player['name']}", who, why)
        lines = _gm_lines(f"The game master has removed {player['name']} from the game.", why)
        deadlines.notice(engine, loaded, _everyone(loaded), lines, "Player removed")
        engine.store.update("players", {"game_id": loaded.id, "name": player["name"]}, active=0)
        leave = getattr(rules, "leave", None)
        if callable(leave):
            result = leave(loaded.state, player["name"], engine.clock())
            seq = _new_state(engine, loaded, rules.dump(result.state), "edit", loaded.seq,
                             f"{player['name']} left")
            engine.queue_reports(engine.load(loaded.id), result.events)
            return f"{player['name']} left game {loaded.id} (state {seq})"
        if rules.simultaneous and len(remaining) >= max(rules.min_players, 2):
            # Everyone else may have sent orders already: then the turn closes now.
            engine.maybe_close(loaded.id, origin="gm")
            return (f"{player['name']} left game {loaded.id}; their orders count as missing "
                    "from now on")
        forfeit(engine, loaded, player["name"], who or default_actor(), why or "ejected")
    return f"{player['name']} forfeited game {loaded.id}; the game is over"


# --- mail -------------------------------------------------------------------------
def resend(engine, game_id: str, name: str | None = None, who: str | None = None,
           why: str | None = None) -> str:
    with engine.store.write():
        loaded = _load(engine, game_id)
        targets = [_player(loaded, name)] if name else [p for p in loaded.players if p["active"]]
        rules = loaded.rules
        turn = rules.turn(loaded.state)
        for player in targets:
            body = engine.report_body(loaded, loaded.state, player["name"], [])
            oid = engine.queue_mail(player["email"], f"[{loaded.id} T{turn}] {rules.title} report (again)",
                                    body, kind="report", game_id=loaded.id, turn=turn)
            engine._archive(loaded, player["name"], "report", body, oid)
        names = ", ".join(p["name"] for p in targets)
        _record(engine, loaded, "resend", f"report of turn {turn} to {names}", who, why)
    return f"report of turn {turn} queued again for {names}"


def broadcast(engine, game_id: str, text: str, who: str | None = None) -> str:
    if not text.strip():
        raise EngineError("nothing to broadcast")
    with engine.store.write():
        loaded = _load(engine, game_id)
        _record(engine, loaded, "broadcast", text[:500], who, "announcement")
        lines = ["Announcement from the game master:", ""] + text.strip().splitlines()
        deadlines.notice(engine, loaded, _everyone(loaded), lines, "Announcement")
        engine._archive(loaded, None, "notice", "\n".join(lines) + "\n", None)
    return f"announcement queued for {len(_everyone(loaded))} player(s)"
