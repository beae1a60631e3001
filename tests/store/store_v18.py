"""A store made by gm at schema step 18 (before report digests), whose archived reports read as
older templates wrote them; checked in as data/store_v18.sqlite.

gm at step 18 plays a short game of four kinds (random legal orders, support.play_game); then
the archived reports are given the wording of earlier templates (OLD_WORDING: an older
store showed "Par: 1 pivots" and unlabelled boards), which is what an upgrade leaves behind.
Positions, turns and scores are left as the replay makes them.

Run with the step-18 gm (commit 65d7fed) to write one:
``python tests/store/store_v18.py tests/store/data/store_v18.sqlite``.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

GAMES = [("neighbors", "nb1", 1, 12), ("fuzzy-borders", "fb1", 2, 3), ("phalanx", "ph1", 3, 6),
         ("pivot-pawns", "pp1", 5, 2)]
# Today's words -> the words earlier templates used for them.
OLD_WORDING = [("Scores: ", "Score: "), ("Turn ", "TURN "), ("pivot", "pivots"), ("To move: ", "Next: ")]


def build(path: str | Path) -> None:
    from gm.core.config import Config
    from gm.service.engine import Engine
    from gm.store import Store
    from gm.store.packing import pack_mail, pack_text, unpack_mail, unpack_text
    from support import Clock, play_game

    path = Path(path)
    config = Config(data_dir=path.parent / (path.stem + ".d"), address="gm@example.test")
    store = Store(str(path))
    engine = Engine(store, config, clock=Clock())
    for kind, game_id, seed, steps in GAMES:
        play_game(engine, kind, game_id, seed=seed, max_steps=steps)
    with store.write():
        for row in store.all("SELECT id FROM reports WHERE kind = 'report'"):
            (body,) = [unpack_text(r["body"], r["body_packing"])
                       for r in store.all("SELECT body, body_packing FROM reports WHERE id = ?", row["id"])]
            old = body
            for new, was in OLD_WORDING:
                old = old.replace(new, was)
            store.db.execute("UPDATE reports SET body = ?, body_packing = ? WHERE id = ?",
                             (*pack_text(old), row["id"]))
        # The mails as sent keep only their headers (their pictures made the file megabytes);
        # verify reads the archived reports, not these.
        for row in store.all("SELECT id, raw FROM outbox"):
            head = unpack_mail(row["raw"]).split(b"\r\n\r\n")[0].split(b"\n\n")[0]
            store.db.execute("UPDATE outbox SET raw = ?, trimmed = 1 WHERE id = ?",
                             (pack_mail(head + b"\n\n(trimmed)\n"), row["id"]))
    store.close()
    engine.close()
    with sqlite3.connect(path) as db:  # small to check in: no free pages, no WAL beside it
        db.execute("PRAGMA journal_mode=DELETE")
    sqlite3.connect(path, isolation_level=None).execute("VACUUM")


if __name__ == "__main__":
    build(sys.argv[1])
