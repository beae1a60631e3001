"""A database as gm made it before schema migrations, holding a realistic game.

The schema is today's (pre-migration) SQL, kept verbatim in data/:
store_schema_v0.sql (gm/store.py's SCHEMA, with its meta table) and
deadlines_schema_v0.sql (gm/deadlines.py's SCHEMA, created lazily then).
``build(path)`` writes such a database with plain sqlite3, the way that code
did, and returns every row it wrote, by table, for comparison.

Run as a script to write one: ``python tests/store/store_legacy.py out.sqlite``.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"
STORE_SQL = DATA / "store_schema_v0.sql"
DEADLINES_SQL = DATA / "deadlines_schema_v0.sql"

GAME = "nb7"
SECRETS = {"ada": "apple-brick-cloud", "bob": "delta-ember-frost"}
T0 = 1_700_000_000.0


def hash_password(secret: str) -> str:
    try:
        from gm.passwords import hash_password as hp
    except ImportError:  # the module moved to gm.core during the package split
        from gm.core.passwords import hash_password as hp
    return hp(secret)


def _run_script(db: sqlite3.Connection, sql: str) -> None:
    # As the old code did: split on ';', one execute per statement.
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


def build(path: str | Path, service_tables: str = "all") -> dict[str, list[dict]]:
    """Write the old-schema database; ``service_tables``: 'all', 'some' or 'none' of deadlines.py's."""
    from games import registry

    rules = registry.get("neighbors")
    state0 = rules.start(rules.setup(["ada", "bob"], {}, 7), 0.0)
    first = rules.to_move(state0)[0]
    text = rules.legal_orders(state0, first)[0]
    order = rules.parse_order(state0, first, text)
    state1 = rules.submit(state0, first, order, T0 + 60).state

    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("BEGIN IMMEDIATE")
    _run_script(db, STORE_SQL.read_text())
    db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", ("1",))
    if service_tables == "all":
        _run_script(db, DEADLINES_SQL.read_text())
    elif service_tables == "some":  # e.g. only game_settings and deadlines had been made
        statements = [s for s in DEADLINES_SQL.read_text().split(";") if s.strip()]
        _run_script(db, ";".join(statements[:2]))

    rows: dict[str, list[dict]] = {}

    def put(table: str, **values) -> None:
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cur = db.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(values.values()))
        if "id" not in values and table in {"messages", "orders", "outbox", "reports", "history"}:
            values = {"id": cur.lastrowid, **values}
        rows.setdefault(table, []).append(values)

    put("games", id=GAME, kind="neighbors", seed=7, options="{}", status="active",
        created=T0, updated=T0 + 60)
    for seat, name in enumerate(["ada", "bob"]):
        put("players", game_id=GAME, seat=seat, name=name, email=f"{name}@example.org",
            pw_hash=hash_password(SECRETS[name]), active=1)
    for seq, (st, at) in enumerate([(state0, T0), (state1, T0 + 60)]):
        put("states", game_id=GAME, seq=seq, turn=rules.turn(st),
            state=json.dumps(rules.dump(st), sort_keys=True), created=at)
    raw = (f"From: {first}@example.org\r\nTo: gm@localhost\r\nSubject: {GAME} {SECRETS[first]}\r\n"
           f"Message-ID: <m1@example.org>\r\n\r\n{text}\r\n").encode()
    put("messages", source_key="maildir:1700000060.M1.host", message_id="<m1@example.org>",
        sender=f"{first}@example.org", subject=f"{GAME} {SECRETS[first]}", raw=raw,
        received=T0 + 60, game_id=GAME, outcome="applied", detail=str(order))
    message_row = rows["messages"][0]["id"]
    put("orders", game_id=GAME, action="order", player=first, turn=rules.turn(state0), text=text,
        canonical=str(order), accepted=1, error=None, message_row=message_row, origin="mail",
        at=T0 + 60, seq=1)
    put("outbox", message_id="<gm.1@localhost>", game_id=GAME, turn=rules.turn(state1),
        kind="report", recipient="bob@example.org", subject=f"[{GAME} T{rules.turn(state1)}] Your move",
        raw=b"Subject: report\r\n\r\nYour move.\r\n", status="sent", attempts=1,
        next_attempt=T0 + 60, last_error=None, created=T0 + 60, sent=T0 + 61)
    put("reports", game_id=GAME, turn=rules.turn(state1), seq=1, player="bob", kind="report",
        body="Your move.", outbox_id=rows["outbox"][0]["id"], created=T0 + 60)
    put("history", game_id=GAME, turn=rules.turn(state0), actor="gm", action="create",
        detail="neighbors for ada, bob, seed 7", at=T0)
    if service_tables != "none":
        put("game_settings", game_id=GAME, key="deadline", value="72h")
        put("deadlines", game_id=GAME, start_seq=1, turn=rules.turn(state1), due=T0 + 60 + 72 * 3600,
            reminded=0, late=0, grace_done=0, paused_at=None, set_by="option")
    db.execute("COMMIT")
    db.close()
    return rows


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "legacy.sqlite")
    build(out)
    print(f"wrote {out}")
