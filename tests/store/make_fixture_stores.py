"""The fixture stores in data/store_stepNN.sqlite: one made by the real gm of each earlier schema step.

For each step that shipped as the latest of a gm revision on main, REVISIONS names the last
such revision (the first parent of the commit on main's first-parent line that brought the next
step; ``git log --first-parent -- gm/store/schema.py gm/store/steps`` lists them).  Steps that came
in one commit share a store (1 with 2, 4 with 5, 9 with 10, 11 with 12, 21 with 22: SHARED); step 0 is
store_legacy.py's.  Each store is made by that revision's own code, checked out with ``git
worktree add --detach`` and imported instead of today's gm (PYTHONPATH), playing a few turns of
small games of the kinds it knew with random legal orders (seeded: the same store every time);
the mails as sent keep their headers only, and the file is VACUUMed with 1 KB pages (some 140 to
185 KB each: sixty-odd tables and indexes, and some fifty to seventy reports).

Run from the repository, with the venv's python (the old revisions need no other packages):
``python tests/store/make_fixture_stores.py [STEP ...]`` writes them all, or those steps.
``python tests/store/make_fixture_stores.py --build PATH`` is the part run inside an old revision.
tests/store/test_fixture_stores.py opens, migrates, verifies and copies each.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

# step -> the last revision of main whose latest schema step it was
REVISIONS = {
    2: "7d7229a",   # the store as a package (steps 1-2), before timers by due time
    3: "6c3e354",   # timers by due time
    5: "f472c83",   # SET FORMAT/TIMEZONE (4), open games and observers (5)
    6: "c35341a",   # delivery events (VERP, bounces)
    7: "f214ae7",   # sent mail trimmed after a day
    8: "6ff377d",   # outbox.secret
    10: "734a28f",  # credentials (9), double opt-in (10)
    12: "c513db1",  # press audience (11), secrets at rest (12)
    13: "0e4c301",  # holds (refusals)
    14: "3e0fcf4",  # daemon heartbeats and outages
    15: "dbd9eba",  # FB8 empty_turns
    16: "2fbbd49",  # draw proposals
    17: "0928e19",  # per-player settings for all games
    18: "1a6e99f",  # display names (the step-18 store of store_v18.py has old wording besides)
    19: "cc5bbfa",  # report digests and versions
    20: "cdfffe8",  # each daemon's inbox backlog
    22: "181a2c0",  # packed texts typed (21 and 22 came in one merge)
    23: "0a73d9c",  # which daemon claimed each outbox row
    24: "c0caca8",  # players.format and players.timezone where a step-5 store lacks them
    25: "55d7695",  # mail queued wakes every daemon's sender
    26: "0ca6ea5",  # conditional lines (RULINGS G8)
    27: "6630fdb",  # takebacks (RULINGS G9)
    31: "93b8512",  # mail threads (28), SET MAIL (29), calendar events (30), away notices (31)
    32: "8a9839f",  # game records, MY DATA and FORGET ME: caps and locks by keyed mailbox hash (32)
    33: "2ce1a34",  # ratings, tournaments and rematches
}

# steps that were never the latest of a revision on main: each came in one commit with the next
SHARED = {1, 4, 9, 11, 21, 28, 29, 30}

# (kind, game id, seed, rounds): short games of every kind, so the stores stay small
GAMES = [("neighbors", "nb1", 1, 3), ("fuzzy-borders", "fb1", 2, 1), ("phalanx", "ph1", 3, 2),
         ("pivot-pawns", "pp1", 5, 1), ("proximity", "px1", 4, 2)]
NAMES = ["ada", "bob", "cy", "dee"]


def path_for(step: int) -> Path:
    return DATA / f"store_step{step:02d}.sqlite"


class Clock:
    """A clock that moves a minute at each reading, so the store is the same every time."""

    def __init__(self, now: float = 1_790_000_000.0):
        self.now = now

    def __call__(self) -> float:
        self.now += 60.0
        return self.now


def play(engine, kind: str, game_id: str, seed: int, rounds: int) -> None:
    """A few rounds of random legal orders through the service (as support.play_game does today;
    written out here because the old revisions' tests did not all have it)."""
    from games import registry

    rules = registry.get(kind)
    rng = random.Random(seed)
    count = max(rules.min_players, 2)
    names = NAMES[:count]
    engine.create_game(kind, game_id, [(n, f"{n}@example.org") for n in names], seed=seed)
    for _ in range(rounds):
        state = engine.load(game_id).state
        if rules.is_over(state):
            return
        for player in rules.to_move(state):
            text = rules.random_order(engine.load(game_id).state, player, rng)
            if text is None:
                continue
            outcome = engine.gm_order(game_id, player, text)
            assert outcome.outcome in {"applied", "sealed"}, outcome.detail
            if not rules.simultaneous:
                break
        view = engine.load(game_id)
        if rules.simultaneous and not rules.is_over(view.state) and view.row["status"] == "active":
            engine.process(game_id)


def build(path: Path) -> None:
    """Run inside an old revision: its gm writes the store at ``path``."""
    from games import registry
    from gm.core.config import Config
    from gm.service.engine import Engine
    from gm.store import Store

    assert sys.modules["gm"].__file__.startswith(os.environ["PYTHONPATH"]), "not the old revision's gm"
    config = Config(data_dir=path.parent / (path.stem + ".d"), address="gm@example.test")
    store = Store(str(path))
    engine = Engine(store, config, clock=Clock())
    for kind, game_id, seed, rounds in GAMES:
        if kind in registry.MODULES:
            play(engine, kind, game_id, seed, rounds)
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    with db:
        db.execute("BEGIN")
        trim_sent_mail(db)
    db.execute("PRAGMA journal_mode=DELETE")  # small to check in: no WAL beside it, no free pages
    db.execute("PRAGMA page_size=1024")  # some sixty tables and indexes, most of them a page or less
    db.execute("VACUUM")
    db.close()


def trim_sent_mail(db: sqlite3.Connection) -> None:
    """The mails as sent keep only their headers, as gm's own trim leaves them a day on (their
    pictures made the stores a megabyte); verify reads the archived reports, not these."""
    trimmed = "trimmed" in {row[1] for row in db.execute("PRAGMA table_info(outbox)")}
    for rowid, raw in db.execute("SELECT id, raw FROM outbox").fetchall():
        raw = bytes(raw)
        if raw.startswith(b"\0z"):  # packed (gm.store.packing.MAIL_MARK) where the revision packs mail
            raw = zlib.decompress(raw[2:])
        head = raw.split(b"\r\n\r\n")[0].split(b"\n\n")[0]
        db.execute("UPDATE outbox SET raw = ? WHERE id = ?", (head + b"\n\n(trimmed)\n", rowid))
        if trimmed:
            db.execute("UPDATE outbox SET trimmed = 1 WHERE id = ?", (rowid,))


def make(step: int) -> Path:
    """Check out the step's revision, run ``build`` with its code, and keep the store in data/."""
    out = path_for(step)
    repo = HERE.parent.parent
    with tempfile.TemporaryDirectory(prefix=f"oldgm-{step}-") as tmp:
        tree = Path(tmp) / "gm"
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", str(tree), REVISIONS[step]],
                       check=True, capture_output=True)
        try:
            work = Path(tmp) / "store.sqlite"
            env = {**os.environ, "PYTHONPATH": str(tree)}
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--build", str(work)], env=env, check=True)
            version = sqlite3.connect(work).execute("PRAGMA user_version").fetchone()[0]
            assert version == step, f"{REVISIONS[step]} wrote a store at step {version}, not {step}"
            out.write_bytes(work.read_bytes())
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)], check=True)
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["--build"]:
        build(Path(sys.argv[2]))
    else:
        for step in [int(s) for s in sys.argv[1:]] or sorted(REVISIONS):
            made = make(step)
            print(f"step {step}: {made.relative_to(HERE.parent.parent)} ({made.stat().st_size // 1024} KB)")
