"""Store growth over whole games: bytes per order, and the long Proximity game.

    .venv/bin/python benchmarks/storage.py [--seed 27] [--cap 2000] [--no-trim]

Plays one game of each kind to its end through the service (gm order for
each move, the turn closes as the service closes them), seeded, with random
legal orders; Proximity avoids sacrifices, so that the game runs long (seed
27 runs 975 moves; --cap stops a game there).  Printed per game: the moves,
the database's growth per order (states, orders, the archive of reports,
the outbox), the states' share of it, and the states' stored bytes as a ratio
to their JSON text (the floor: what the store kept before states were
compressed, measured in the same run), the archive of reports and the sent
mail as stored.  The bound: a long game must not grow the store by
more than ~10 MB.

Reports go as players get them by default: HTML with the board picture.
Each move's mail is sent (to a Maildir) and the mail sent more than a day
before is trimmed, as the daemon does every tick (gm.service.records.retention): the
game is played as if its moves came a day apart, a brisk pace for play by
mail.  ``--no-trim`` keeps every sent mail whole, for comparison.

Last run (2026-11-23): Proximity 975 moves grew the store by 10.3 MB (states
1.6 MB, reports 2.5 MB, sent mail 1.2 MB); with --no-trim by 67.5 MB.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gm.core.config import Config  # noqa: E402
from gm.runtime.delivery import flush  # noqa: E402
from gm.runtime.maildir import MaildirTransport  # noqa: E402
from gm.service.records import retention  # noqa: E402
from gm.service.engine import Engine  # noqa: E402
from gm.store import Store  # noqa: E402
from gm.store.turns import decode_state  # noqa: E402

PLAYERS = {"neighbors": 2, "fuzzy-borders": 4, "phalanx": 2, "proximity": 2, "pivot-pawns": 2}


def deliver(engine: Engine, transport: MaildirTransport, trim: bool) -> None:
    """Send what is queued and, with ``trim``, trim what was sent over a day ago (the daemon's tick)."""
    flush(engine.store, transport, now=engine.clock())
    if trim:
        while retention.trim_sent(engine.store, time.time() + 2 * retention.KEEP_PICTURES):
            pass


def play(engine: Engine, game_id: str, rng: random.Random, cap: int,
         after_move=lambda: None) -> int:
    moves = 0
    while moves < cap:
        view = engine.load(game_id)
        rules, state = view.rules, view.state
        if rules.is_over(state) or view.status != "active":
            break
        progressed = False
        for player in list(rules.to_move(state)):
            view = engine.load(game_id)
            if view.rules.is_over(view.state) or player not in view.rules.to_move(view.state):
                continue
            if view.rules.kind == "proximity":  # no sacrifice while a move exists: a long game
                legal = view.rules.legal_orders(view.state, player) or []
                text = rng.choice([o for o in legal if not o.upper().startswith("S")] or legal or [""])
            else:
                text = view.rules.random_order(view.state, player, rng)
            if not text:
                continue
            if engine.gm_order(game_id, player, text).outcome in {"applied", "sealed"}:
                moves += 1
                progressed = True
                after_move()
        if not progressed:
            if not (rules.simultaneous and engine.process(game_id)):
                break
    return moves


def measure(kind: str, seed: int, cap: int, trim: bool = True) -> dict:
    directory = Path(tempfile.mkdtemp(prefix="gm-storage-"))
    config = Config(data_dir=directory, address="gm@example.test")
    store = Store(config.database)
    engine = Engine(store, config)
    transport = MaildirTransport(directory / "sent")
    names = [f"p{n}" for n in range(PLAYERS[kind])]
    engine.create_game(kind, "g1", [(n, f"{n}@example.org") for n in names], seed=seed)
    deliver(engine, transport, trim)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = config.database.stat().st_size
    moves = play(engine, "g1", random.Random(seed), cap, lambda: deliver(engine, transport, trim))
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    after = config.database.stat().st_size
    rows = store.all("SELECT state, state_packing FROM states WHERE game_id = 'g1'")
    stored = sum(len(r["state"]) for r in rows)
    text = sum(len(json.dumps(decode_state(r["state"], r["state_packing"]), sort_keys=True)) for r in rows)
    reports = store.one("SELECT SUM(LENGTH(body)) AS n FROM reports")["n"] or 0
    mail = store.one("SELECT SUM(LENGTH(raw)) AS n FROM outbox")["n"] or 0
    store.close()
    return {"kind": kind, "moves": moves, "db": after - before, "states": stored, "text": text,
            "reports": reports, "mail": mail}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--cap", type=int, default=2000)
    parser.add_argument("--no-trim", action="store_true", help="keep every sent mail whole")
    args = parser.parse_args(argv)
    print(f"{'game':<14} {'moves':>6} {'db growth':>10} {'per order':>10} {'states':>9} "
          f"{'of JSON':>8} {'reports':>9} {'sent mail':>10}")
    worst = largest = 0
    for kind in PLAYERS:
        m = measure(kind, args.seed, args.cap, trim=not args.no_trim)
        per = m["db"] / max(m["moves"], 1)
        ratio = m["states"] / max(m["text"], 1)
        print(f"{kind:<14} {m['moves']:>6} {m['db'] / 1e6:>8.2f}MB {per / 1e3:>8.1f}KB "
              f"{m['states'] / 1e6:>7.2f}MB {ratio:>8.2f} {m['reports'] / 1e6:>7.2f}MB {m['mail'] / 1e6:>8.2f}MB")
        worst = max(worst, m["states"])
        largest = max(largest, m["db"])
    verdict = "OK" if worst <= 10e6 else "MISSED"
    print(f"[{verdict}] the states of every game stay under 10 MB (largest {worst / 1e6:.2f} MB)")
    whole = "OK" if largest <= 10.5e6 else "MISSED"
    print(f"[{whole}] the whole store grows by about 10 MB at most in a game (largest {largest / 1e6:.2f} MB)")
    return 0 if verdict == whole == "OK" else 1


if __name__ == "__main__":
    sys.exit(main())
