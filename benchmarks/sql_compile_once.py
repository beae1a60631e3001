"""The cost of a statement on SQLite: hand-written SQL vs a Core statement compiled once (gm.store.sql).

    .venv/bin/python benchmarks/sql_compile_once.py [--runs 5] [--calls 20000]

For three statements of the pilot (gm.store.daemons: a row by its key, the heartbeat's UPDATE,
an aggregate), each run ``--calls`` times, best of ``--runs``, in process time, per call:

    raw        sqlite3: the hand-written SQL text, ? parameters (the floor)
    compiled   sqlite3: the Core statement's text compiled once (Prepared.sql), a dict of :name
               parameters, on the same raw connection
    store text the hand-written SQL through the store's watched connection (store.db), as the
               other store modules run it
    store      Prepared.run(store, ...): as daemons.py runs it, through the same connection
    engine     a SQLAlchemy Connection executing the same Core statement (its compiled cache warm)

printed in microseconds and as ratios to raw.  The UPDATE runs inside one transaction per run,
rolled back, so no commit is timed.  The bar: SQLite within 5% of
the hand-written SQL, where SQLAlchemy's execution layer cost 16.5 us against sqlite3's 4.4 us.

Last run (2026-11-26, SQLite 3.40.1, SQLAlchemy 2.1.9, a shared 2-core machine under load),
us per call, ratio to raw: row by key 3.79 / compiled 3.62 (0.95x) / store text 3.91 (1.03x) /
store 4.32 (1.14x) / engine 13.45 (3.55x); heartbeat UPDATE 1.57 / 1.80 (1.15x) / 1.96 (1.25x) /
2.63 (1.68x) / 11.03 (7.03x); max() 1.85 / 1.85 (1.00x) / 2.18 (1.17x) / 2.41 (1.30x) /
11.37 (6.13x).  The compiled text costs what the hand-written one does, bar named parameters
(sqlite3 looks each up in the dict: +0.2 us); Prepared.run adds 0.2-0.7 us to the store's path.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sqlalchemy  # noqa: E402

from gm.store import Store  # noqa: E402
from gm.store import daemons  # noqa: E402

ME = "host:1:ab"
# name: (hand-written SQL, its parameters, the pilot's statement, its parameters, a write?)
STATEMENTS = {
    "row by key": ("SELECT * FROM daemons WHERE daemon_id = ?", (ME,), daemons.DAEMON, {"me": ME}, False),
    "heartbeat UPDATE": ("UPDATE daemons SET last_seen = ?, sending_down_since = ? WHERE daemon_id = ?",
                         (2.0, None, ME), daemons.BEAT, {"now": 2.0, "down": None, "me": ME}, True),
    "max() aggregate": ("SELECT max(last_seen) AS at FROM daemons", (), daemons.LAST_HEARTBEAT, {}, False),
}


def best(runs: int, calls: int, once, begin=None, end=None) -> float:
    """The best of ``runs`` timings of ``calls`` calls of ``once``, in microseconds per call."""
    times = []
    for _ in range(runs):
        if begin:
            begin()
        start = time.process_time()
        for _ in range(calls):
            once()
        times.append(time.process_time() - start)
        if end:
            end()
    return min(times) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "gm.sqlite"
        store = Store(path)
        with store.write():
            store.daemons.beat(ME, "host", 1, 1.0, 1.0, None)
        raw = store.db.inner  # the sqlite3 connection itself
        engine = sqlalchemy.create_engine(f"sqlite:///{path}")
        connection = engine.connect()
        print(f"SQLite {raw.execute('SELECT sqlite_version()').fetchone()[0]}, SQLAlchemy {sqlalchemy.__version__}; "
              f"best of {args.runs} x {args.calls:,} calls, process time, us per call (ratio to raw)")
        print(f"{'statement':18} {'raw':>8} {'compiled':>16} {'store text':>16} {'store':>16} {'engine':>16}")
        for name, (text, values, statement, params, write) in STATEMENTS.items():
            compiled, constants = statement.sql("sqlite")
            named = {**constants, **params}
            core = statement.statement
            if write:
                begin = lambda: raw.execute("BEGIN")  # noqa: E731
                end = lambda: raw.execute("ROLLBACK")  # noqa: E731
            else:
                begin = end = None
            fetch = (lambda cursor: cursor.rowcount) if write else (lambda cursor: cursor.fetchall())
            floor = best(args.runs, args.calls, lambda: fetch(raw.execute(text, values)), begin, end)
            once = best(args.runs, args.calls, lambda: fetch(raw.execute(compiled, named)), begin, end)
            text_store = best(args.runs, args.calls, lambda: fetch(store.db.execute(text, values)), begin, end)
            via_store = best(args.runs, args.calls, lambda: fetch(statement.run(store, **params)), begin, end)
            result = (lambda r: r.rowcount) if write else (lambda r: r.fetchall())
            if write:
                sa_begin, sa_end = (lambda: connection.begin()), (lambda: connection.rollback())
            else:
                sa_begin, sa_end = None, (lambda: connection.rollback())
            via_engine = best(args.runs, args.calls, lambda: result(connection.execute(core, params)), sa_begin, sa_end)
            print(f"{name:18} {floor:8.2f} " + " ".join(f"{us:8.2f} ({us / floor:4.2f}x)"
                                                         for us in (once, text_store, via_store, via_engine)))
        connection.close()
        engine.dispose()
        store.close()


if __name__ == "__main__":
    main()
