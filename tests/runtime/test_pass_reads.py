"""A daemon's pass reads no large table whole: its cost stays flat with the store's size.

Every statement one `gm run --once` pass runs (the heartbeat, the mail, the tick, the trim of
sent mail, the outbox) is planned by SQLite on the empty schema as on a store of 100,000 games
(no ANALYZE figures), so a plan that scans a table that grows with the games, or reads the
outbox by status alone (every mail ever sent), is a cost that grows with the store.
"""

from __future__ import annotations

import re

from support import eml
from gm.runtime.daemon import run
from gm.runtime.maildir import ensure_maildir

GROWING = ("games", "players", "states", "orders", "outbox", "reports", "messages", "history", "deadlines",
           "game_settings", "timers")
WHOLE = re.compile(r"\bSCAN (%s)\b|USING INDEX outbox_queue \(status=\?\)$" % "|".join(GROWING))


def plans(connection, statements: list[str]) -> dict[str, str]:
    """Each distinct reading statement's query plan, its steps joined by ' / '.  Not an INSERT's:
    into a table others refer to, its plan shows their foreign-key scans, which SQLite runs only
    while a deferred violation is pending (gm defers none)."""
    out = {}
    for sql in dict.fromkeys(statements):
        if sql.lstrip().split(" ", 1)[0].upper() in ("SELECT", "UPDATE", "DELETE"):
            out[sql] = " / ".join(row[-1] for row in connection.execute("EXPLAIN QUERY PLAN " + sql))
    return out


def test_a_pass_of_the_daemon_reads_no_growing_table_whole(engine, nb_game, config):
    ensure_maildir(config.inbox)
    (config.inbox / "new" / "a.host").write_bytes(eml("plain.eml", game="nb1", password=nb_game["ada"]))
    connection = engine.store.db.inner
    statements: list[str] = []
    connection.set_trace_callback(statements.append)
    try:
        run(engine, config, once=True)
    finally:
        connection.set_trace_callback(None)
    assert engine.load("nb1").state.moves[-1].notation() == "Rb4xd4"
    planned = plans(connection, statements)
    assert any("outbox.trimmed = 0" in sql for sql in planned)  # the trim of sent mail ran
    whole = {sql[:200]: plan for sql, plan in planned.items() if any(WHOLE.search(step) for step in plan.split(" / "))}
    assert whole == {}
