"""Press (players writing to each other through gm) and the HISTORY and ABSENCE mail commands.

    PRESS TO <name|ALL>
    any text
    ENDPRESS

Game option ``press`` (a service option, see gm.deadlines): ``none`` (press
is refused), ``white`` (the sender is named) or ``grey`` (the sender is
hidden).  Every press message is archived with the turn: one copy per
recipient and one archive copy (player NULL); the history log names the sender.
"""

from __future__ import annotations

from games.base import GameError
from gm import deadlines

MAX_PRESS = 20_000
MAX_HISTORY = 200_000


def send(engine, loaded, player, target: str, text: str, inbound) -> None:
    """Deliver one press message (inside the ingest transaction)."""
    deadlines.ensure_schema(engine.store)
    mode = deadlines.settings(engine.store, loaded.id)["press"]
    sender = player["name"]
    turn = loaded.rules.turn(loaded.state)
    if mode == "none":
        return _refuse(engine, loaded, inbound, "Press is off in this game (option press: none); "
                       "your message was not delivered.")
    if not text.strip():
        return _refuse(engine, loaded, inbound, "Your PRESS block was empty; nothing was delivered.")
    if len(text) > MAX_PRESS:
        return _refuse(engine, loaded, inbound, f"Press messages are limited to {MAX_PRESS} characters.")
    active = [p for p in loaded.players if p["active"]]
    if target.upper() == "ALL":
        recipients = [p for p in active if p["name"] != sender]
        to_label = "ALL"
    else:
        found = loaded.player(target)
        if found is None or not found["active"]:
            names = ", ".join(p["name"] for p in active)
            return _refuse(engine, loaded, inbound, f"There is no player {target!r} to write to "
                           f"(players: {names}, or ALL); your press was not delivered.")
        if found["name"] == sender:
            return _refuse(engine, loaded, inbound, "You cannot send press to yourself.")
        recipients, to_label = [found], found["name"]
    shown = "anonymous (grey press)" if mode == "grey" else sender
    body = engine.render("press", game_id=loaded.id, turn=turn, sender=shown, to=to_label,
                         text=text, hint=engine.hint(loaded.id))
    for p in recipients:
        oid = engine.queue_mail(p["email"], f"[{loaded.id} T{turn}] Press from {shown}", body,
                                kind="notice", game_id=loaded.id, turn=turn)
        engine._archive(loaded, p["name"], "press", body, oid)
    # The archive's copy is what the recipients read; the history log names the sender.
    engine._archive(loaded, None, "press", body, None)
    engine.store.log(loaded.id, turn, sender, "press", f"to {to_label} ({mode})", engine.clock())
    confirm = engine.render("notice", game_id=loaded.id, turn=turn,
                            lines=[f"Your press to {to_label} was delivered"
                                   + (" without your name (grey press)." if mode == "grey" else ".")],
                            hint=engine.hint(loaded.id))
    engine._reply(inbound, loaded, "Press delivered", confirm, kind="reply", archive_player=sender)


def _refuse(engine, loaded, inbound, message: str) -> None:
    body = engine.render("error", message=message, game_id=loaded.id, hint=engine.hint(loaded.id))
    engine._reply(inbound, loaded, "Press not delivered", body, kind="error")


def command(engine, loaded, player, command: str, inbound) -> None:
    """HISTORY or ABSENCE <from> <to>, from an order mail."""
    deadlines.ensure_schema(engine.store)
    if command == "HISTORY":
        body = history_for_player(engine, loaded, player["name"])
        engine._reply(inbound, loaded, "History", body, kind="reply", archive_player=player["name"])
        return
    args = command[len("ABSENCE"):].strip()
    try:
        start, end = deadlines.parse_absence(args, engine.clock())
        lines = deadlines.declare_absence(engine, loaded, player["name"], start, end)
    except GameError as exc:
        body = engine.render("error", message=f"ABSENCE {args}: {exc}", game_id=loaded.id,
                             hint=engine.hint(loaded.id))
        engine._reply(inbound, loaded, "Absence not recorded", body, kind="error")
        return
    body = engine.render("notice", game_id=loaded.id, turn=loaded.rules.turn(loaded.state),
                         lines=lines, hint=engine.hint(loaded.id))
    engine._reply(inbound, loaded, "Absence recorded", body, kind="reply", archive_player=player["name"])


def history_for_player(engine, loaded, name: str) -> str:
    """Everything this player was sent, turn by turn: reports (latest per turn) and press."""
    rows = engine.store.all(
        "SELECT * FROM reports WHERE game_id = ? AND player = ? AND kind IN ('report', 'press') "
        "ORDER BY turn, id", loaded.id, name)
    latest: dict[int, object] = {}
    press: dict[int, list] = {}
    for row in rows:
        if row["kind"] == "report":
            latest[row["turn"]] = row
        else:
            press.setdefault(row["turn"], []).append(row)
    parts = [f"History of game {loaded.id} ({loaded.rules.title}) as sent to {name}", ""]
    for turn in sorted(set(latest) | set(press)):
        parts.append(f"===== Turn {turn} =====")
        if turn in latest:
            parts.append(latest[turn]["body"].rstrip())
        for row in press.get(turn, []):
            parts.append("")
            parts.append(row["body"].rstrip())
        parts.append("")
    text = "\n".join(parts) + "\n"
    if len(text) > MAX_HISTORY:
        text = "(earlier turns left out: the history is long)\n\n" + text[-MAX_HISTORY:]
    return text
