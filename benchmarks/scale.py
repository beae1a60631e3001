"""Cost flat with the number of games: the same mail, the tick, and a cron run, on stores of 10 to 100,000 games.

    .venv/bin/python benchmarks/scale.py [--sizes 10,10000,100000] [--mails 200] [--runs 3]
                                         [--cache DIR] [--profile]

The stores.  Each holds N Neighbors games g0..g{N-1}, two players each, all
active, no deadline, except about 1% (g5, g105, g205, ...) with the service
option ``deadline=30d``, so that the tick has rows in ``timers`` to skip.
They are not made with Engine.create_game (scrypt and the welcomes' pictures
per game would take hours for 100,000) but in one process through the
service's own steps, in transactions of 10,000 games: store.add_game,
store.add_player with ONE precomputed scrypt hash of one known password for
every seat, store.add_state with the dumped set-up state of one of four seeds
(computed once each), the settings as gm.core.options.split_options makes
them, the "create" history line, gm.service.table.deadlines.open_turn (the
deadline row and the timers row, exactly as the service schedules them), and
each seat's welcome, the very mail (picture and all) and archived words
create_game made for one reference game, queued; after each 10,000 games the
welcomes are marked sent as the sender leaves them (blanked: they hold a
password).  So a store is what a bulk creation and its cron run leave: about
52 KB a game of file, most of it pages the pictures left free.
Before building, the builder is checked against Engine.create_game: one game
with a deadline and one without, made both ways at the same clock, fill the
same tables with the same rows (the password hash and the token salt aside;
the welcome mails in ``outbox`` and ``reports`` only counted); the run stops
if they differ.  The ten mailed games g0..g9 exist, identical, in every
store, and are inserted at evenly spread places (g{j} is the (j*N/10)-th
game inserted).  Built stores are kept in a temp dir (or --cache DIR, keyed
by size and schema step) and copied afresh (and fsynced, before the clock
starts) for every run, so each run starts from the same store.

The measures, each the median of --runs runs, the sizes interleaved run by run:

(a) per message: --mails mails through the daemon's path, written into the
    inbox Maildir and read by gm.runtime.maildir.process_maildir (what
    `gm run --once` does before it sends): three in four are legal captures
    in g0..g9 (round by round, each player's mail from its own address with
    the password), one in four HELP (half a stranger's general HELP, each
    from an address of its own so no rate limit bites, half a player's HELP
    inside its game).  The same mails on every store; every one checked to
    come out applied or help.  One Engine per run, so one scrypt check per
    run (every seat shares the hash; the checker remembers a success).
    Printed per message (wall time; the process's CPU time beside it, which
    the machine's other load and fsync jitter move less) and as the ratio to
    the smallest store.  Targets, on the wall time: <= 1.2 at 10,000 games,
    <= 1.3 at 100,000.
(b) the tick with nothing due (gm.service.play.timers.tick, real clock; the
    deadline games are 29 days from their reminder): median of 200 calls on
    the store the mails left.  Target: under 10 ms at 100,000 games.
(c) `gm run --once` wall time on a fresh copy with an empty inbox (a new
    process: imports, opening the store and its migrations check, the tick,
    the outbox pump), as the ratio to the smallest store.
(d) `gm run --once` judging the same mails (in the inbox Maildir of a fresh
    copy; a new process, start-up included, as cron runs it), wall time and
    the child's CPU time (user and system, os.wait4), as ratios to the
    smallest store; the outcomes checked after.  Target, on the wall time:
    <= 1.1 at 10,000 games.
(e) the database size per game: the file's (as built), and its pages in use.

One run on the smallest store goes first, uncounted (imports, templates).
The figures, and what they showed, are in docs/benchmarks.md; on a shared
2-core machine one run in three can be 20% off either way, so a figure near
its target is noise before it is a cost (--runs 9 settles it; the CPU
columns move less).

--profile: cProfile of (a) on the largest store, top functions by own time.
Exit status 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import logging
import os
import pstats
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the test helpers (no conftest)

from games import registry  # noqa: E402
from gm.core import options as service_options  # noqa: E402
from gm.core import passwords  # noqa: E402
from gm.core.config import Config  # noqa: E402
from gm.runtime.maildir import ensure_maildir, process_maildir  # noqa: E402
from gm.service.play import timers  # noqa: E402
from gm.service.records.retention import sent_copy  # noqa: E402
from gm.service.table import deadlines, games  # noqa: E402
from gm.service.engine import Engine  # noqa: E402
from gm.store import Store, migrations  # noqa: E402
from gm.store.packing import unpack_mail  # noqa: E402
from support import GM_ADDRESS, order_mail  # noqa: E402

KIND = "neighbors"
NAMES = ["ada", "bob"]
PASSWORD = "kq7hz3xw2m"  # every seat's password
SEEDS = (1, 2, 3, 4)
MAILED = 10  # games g0..g9 get the mail
BATCH = 10_000  # games per build transaction
TICKS = 200
GM = str(Path(sys.executable).with_name("gm"))  # the console script beside this Python (the one the venv installed)


# --- the stores -------------------------------------------------------------------------------
def email_of(name: str, game_id: str) -> str:
    return f"{name}.{game_id}@example.org"


def seed_of(k: int) -> int:
    return SEEDS[k % len(SEEDS)]


def options_of(k: int) -> dict[str, str]:
    return {"deadline": "30d"} if k % 100 == 5 else {}


def reference_welcomes(tmp: Path) -> list[tuple[str, bytes, dict]]:
    """(subject, mail, archived report row) of each seat's welcome, as Engine.create_game queues
    them for a game of NAMES (with its picture; the report's words in ``reports``)."""
    store = Store(tmp / "welcomes.sqlite")
    engine = Engine(store, Config(data_dir=tmp, address=GM_ADDRESS))
    try:
        engine.create_game(KIND, "g0", [(n, email_of(n, "g0")) for n in NAMES], seed=seed_of(0))
        mails = store.all("SELECT id, subject, raw FROM outbox WHERE kind = 'welcome' ORDER BY id")
        reports = {r["outbox_id"]: r for r in store.reports.reports_of("g0")}
        return [(m["subject"], unpack_mail(m["raw"]), reports[m["id"]]) for m in mails]
    finally:
        engine.close()
        store.close()


class Builder:
    """Adds games to a store the way lifecycle.create_game does, less scrypt; with ``welcomes``
    (reference_welcomes) each seat's welcome is queued, its words archived, and send() marks
    them sent as the sender does (a welcome holds a password: blanked once sent)."""

    def __init__(self, welcomes: list[tuple[str, bytes, dict]] = ()):
        self.rules = registry.get(KIND)
        self.pw_hash = passwords.hash_password(PASSWORD)
        self.states = {}  # seed -> (turn, dumped set-up state), per `now`
        self.welcomes = welcomes
        self.sent = [sent_copy(raw, True) for _, raw, _ in welcomes]  # each seat's, as the sender keeps it
        self.queued: list[tuple[int, int]] = []  # (outbox id, seat) of welcomes not sent yet

    def state(self, seed: int, now: float):
        key = (seed, now)
        if key not in self.states:
            rules = self.rules
            state = rules.start(rules.setup(NAMES, {}, seed), now)
            self.states[key] = (rules.turn(state), rules.dump(state))
        return self.states[key]

    def add(self, store: Store, game_id: str, seed: int, options: dict[str, str], now: float) -> None:
        options = dict(options)
        service = service_options.split_options(options)
        turn, dumped = self.state(seed, now)
        store.games.add_game(game_id, self.rules.kind, seed, json.dumps(options), now)
        for seat, name in enumerate(NAMES):
            store.seats.add_player(game_id, seat, name, email_of(name, game_id), self.pw_hash)
        store.turns.add_state(game_id, turn, dumped, now)
        deadlines.save_settings(store, game_id, service)
        store.history.log(game_id, turn, "gm", "create", f"{self.rules.kind} for {', '.join(NAMES)}, seed {seed}", now)
        deadlines.open_turn(store, games.load(store, game_id))
        for seat, (subject, raw, report) in enumerate(self.welcomes):
            name = NAMES[seat]
            oid = store.outbox.queue_outbox(f"<welcome.{seat}.{game_id}@scale.example>", email_of(name, game_id),
                                            subject, raw, kind="welcome", now=now, game_id=game_id, turn=turn,
                                            secret=True)
            store.reports.add_report(game_id, turn, report["seq"], name, report["kind"], report["body"], oid, now,
                                     gm_version=report["gm_version"], digest=report["digest"])
            self.queued.append((oid, seat))

    def send(self, store: Store, now: float) -> None:
        """Mark the welcomes queued so far sent, each blanked as the sender leaves it."""
        with store.write():
            for oid, seat in self.queued:
                store.outbox.mark_sent(oid, now, 1)
                store.outbox.blank_secret(oid, *self.sent[seat])
        self.queued.clear()


def table_rows(store: Store) -> dict[str, list]:
    tables = [r["name"] for r in store.all("SELECT name FROM sqlite_master WHERE type = 'table' "
                                           "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    out = {}
    for table in tables:
        rows = [dict(r) for r in store.all(f"SELECT * FROM {table}")]
        for row in rows:
            row.pop("pw_hash", None)  # salted: differs by construction
            row.pop("token_salt", None)  # random per game (gm.core.tokens): differs by construction
        out[table] = sorted(repr(sorted(r.items())) for r in rows)
    return out


def check_builder(tmp: Path) -> int:
    """The builder's rows against Engine.create_game's, for a game with and without a deadline."""
    now = 1_800_000_000.0
    ref_store, ours = Store(tmp / "ref.sqlite"), Store(tmp / "built.sqlite")
    engine = Engine(ref_store, Config(data_dir=tmp, address=GM_ADDRESS), clock=lambda: now)
    builder = Builder(reference_welcomes(tmp))
    try:
        for k in (0, 5):
            game_id = f"g{k}"
            engine.create_game(KIND, game_id, [(n, email_of(n, game_id)) for n in NAMES],
                               seed=seed_of(k), options=options_of(k))
            with ours.write():
                builder.add(ours, game_id, seed_of(k), options_of(k), now)
        ref, got = table_rows(ref_store), table_rows(ours)
    finally:
        engine.close()
        ref_store.close()
        ours.close()
    welcome = {"outbox", "reports"}
    differ = [t for t in ref if t not in welcome and ref[t] != got.get(t)]
    extra = [t for t in welcome if len(got.get(t, ())) != len(ref[t])]  # a welcome each, its words archived
    if differ or extra or set(ref) != set(got):
        for t in differ:
            print(f"  {t}:\n    create_game {ref[t]}\n    builder     {got.get(t)}")
        raise SystemExit(f"the builder differs from Engine.create_game in {differ or extra}")
    return sum(1 for t in ref if t not in welcome and ref[t])


def spread_ids(n: int) -> list[str]:
    """g0..g{n-1} in insertion order: g{j} (j < 10) at place j*n/10, the others in order."""
    places = {j * n // MAILED: j for j in range(min(MAILED, n))}
    others = iter(range(MAILED, n))
    return [f"g{places[p]}" if p in places else f"g{next(others)}" for p in range(n)]


def build(path: Path, n: int) -> float:
    start = time.perf_counter()
    tmp = path.with_suffix(".building")
    for p in tmp.parent.glob(tmp.name + "*"):
        p.unlink()
    scratch = Path(tempfile.mkdtemp(prefix="gm-welcomes-"))
    try:
        builder = Builder(reference_welcomes(scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    store = Store(tmp)
    now = time.time()
    ids = spread_ids(n)
    for i in range(0, n, BATCH):
        with store.write():
            for game_id in ids[i:i + BATCH]:
                k = int(game_id[1:])
                builder.add(store, game_id, seed_of(k), options_of(k), now)
        builder.send(store, now)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    tmp.rename(path)
    return time.perf_counter() - start


# --- the mail ------------------------------------------------------------------------------------
def plan_mails(count: int) -> tuple[list[bytes], dict[str, int]]:
    """The same mails for every store: captures in g0..g9 round by round, and HELP every 4th."""
    rules = registry.get(KIND)
    helps = count // 4
    orders = count - helps
    per_game = -(-orders // MAILED)
    moves: list[list[bytes]] = [[] for _ in range(per_game)]
    for j in range(MAILED):
        game_id = f"g{j}"
        # Built at another `now`: the same position (Neighbors' state does not hold the clock).
        state = rules.start(rules.setup(NAMES, {}, seed_of(j)), 0.0)
        for r in range(per_game):
            if rules.is_over(state):
                raise SystemExit(f"--mails {count}: a Neighbors game ends before {per_game} moves")
            (mover,) = rules.to_move(state)
            legal = rules.legal_orders(state, mover)
            text = legal[(7 * r + j) % len(legal)]
            state = rules.submit(state, mover, rules.parse_order(state, mover, text), 0.0).state
            moves[r].append(order_mail(email_of(mover, game_id), text, game_id=game_id, password=PASSWORD))
    order_list = [raw for batch in moves for raw in batch][:orders]
    mails, expected = [], {"applied": 0, "help": 0}
    h = 0
    for raw in order_list:
        mails.append(raw)
        expected["applied"] += 1
        if len(mails) % 4 == 3 and h < helps:
            if h % 2:
                j = h % MAILED
                mails.append(order_mail(email_of(NAMES[h % 2], f"g{j}"), "HELP", game_id=f"g{j}",
                                        password=PASSWORD, subject="help"))
            else:
                mails.append(order_mail(f"stranger{h}@example.net", "HELP", subject="help"))
            expected["help"] += 1
            h += 1
    while h < helps:
        mails.append(order_mail(f"stranger{h}@example.net", "HELP", subject="help"))
        expected["help"] += 1
        h += 1
    return mails, expected


def write_inbox(inbox: Path, mails: list[bytes]) -> None:
    ensure_maildir(inbox)
    for i, raw in enumerate(mails):
        (inbox / "new" / f"{i:06d}.scale-bench").write_bytes(raw)


# --- one run on one store ---------------------------------------------------------------------------
def fresh_copy(source: Path, where: Path) -> Config:
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    shutil.copyfile(source, where / "gm.sqlite")
    with open(where / "gm.sqlite", "rb+") as handle:  # the copy on disk before timing, not meanwhile
        os.fsync(handle.fileno())
    return Config(data_dir=where, address=GM_ADDRESS)


def run_mail(source: Path, where: Path, mails: list[bytes], expected: dict[str, int],
             profile: cProfile.Profile | None = None) -> tuple[float, float, list[float]]:
    """Wall and CPU seconds for the mails through process_maildir; then the tick times on that store."""
    config = fresh_copy(source, where)
    write_inbox(config.inbox, mails)
    engine = Engine(Store(config.database), config)
    try:
        if profile:
            profile.enable()
        start, cpu = time.perf_counter(), time.process_time()
        done = process_maildir(engine, config.inbox)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        if profile:
            profile.disable()
        got = {k: sum(1 for _, o in done if o == k) for k in expected}
        if got != expected or len(done) != len(mails):
            others = sorted({o for _, o in done} - set(expected))
            raise SystemExit(f"{source.name}: outcomes {got} (also {others}), expected {expected}")
        ticks = []
        for _ in range(TICKS):
            t = time.perf_counter()
            did = timers.tick(engine)
            ticks.append(time.perf_counter() - t)
            if did:
                raise SystemExit(f"{source.name}: the tick found something due: {did[:3]}")
    finally:
        engine.close()
        engine.store.close()
    return elapsed, cpu, ticks


def run_once(source: Path, where: Path, mails: list[bytes] = (),
             expected: dict[str, int] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (user and system) of `gm run --once`, a new process, on a fresh copy
    of the store with ``mails`` in its inbox (none: an empty inbox); with ``expected``, the
    outcomes are checked after."""
    config = fresh_copy(source, where)
    write_inbox(config.inbox, list(mails))
    conf = where / "gm.yaml"
    conf.write_text(f"data_dir: {where}\naddress: {GM_ADDRESS}\n")
    start = time.perf_counter()
    child = subprocess.Popen([GM, "--config", str(conf), "run", "--once"])
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if status:
        raise SystemExit(f"{source.name}: `gm run --once` failed ({status})")
    if expected is not None:
        store = Store(config.database)
        try:
            got = {k: store.one("SELECT count(*) AS n FROM messages WHERE outcome = :k", k=k)["n"] for k in expected}
        finally:
            store.close()
        if got != expected:
            raise SystemExit(f"{source.name}: `gm run --once` outcomes {got}, expected {expected}")
    return elapsed, usage.ru_utime + usage.ru_stime


# --- the report -----------------------------------------------------------------------------------
def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:7.0f} us"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,10000,100000", help="games per store, comma-separated")
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cache", type=Path, help="keep built stores here (default: a temp dir, removed)")
    parser.add_argument("--profile", action="store_true", help="cProfile the mail on the largest store")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    logging.basicConfig(level=logging.ERROR)
    sizes = sorted({int(s) for s in args.sizes.split(",")})
    base = sizes[0]
    if base < MAILED:
        raise SystemExit(f"the smallest store needs at least {MAILED} games (the mailed ones)")

    tmp = Path(tempfile.mkdtemp(prefix="gm-scale-"))
    cache = args.cache or tmp / "stores"
    cache.mkdir(parents=True, exist_ok=True)
    try:
        (tmp / "check").mkdir()
        tables = check_builder(tmp / "check")
        print(f"builder checked against Engine.create_game: the same rows in {tables} tables "
              "(welcome mails aside)")
        stores, build_s, db_bytes = build_stores(sizes, cache)
        mails, expected = plan_mails(args.mails)
        timed = measure(args, sizes, stores, tmp, mails, expected)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\n{len(mails)} mails ({expected['applied']} captures in {MAILED} games, {expected['help']} HELP), "
          f"median of {args.runs} runs; ratios to the {base:,}-game store")
    checks = report(sizes, timed, db_bytes)
    print()
    for name, ok in checks:
        print(f"    [{'OK' if ok else 'MISSED'}] {name}")
    if build_s:
        print("    build: " + ", ".join(f"{n:,} games {s:.1f} s" for n, s in build_s.items()))
    return 0 if all(ok for _, ok in checks) else 1


def in_use(path: Path) -> int:
    """The bytes of a SQLite file's pages that hold data (its free pages aside)."""
    db = sqlite3.connect(path)
    try:
        size, pages, free = (db.execute(f"PRAGMA {name}").fetchone()[0]
                             for name in ("page_size", "page_count", "freelist_count"))
        return size * (pages - free)
    finally:
        db.close()


def build_stores(sizes: list[int], cache: Path) -> tuple[dict[int, Path], dict[int, float], dict[int, tuple]]:
    """(each size's store, seconds spent building those not cached, each store's bytes: the
    file's and those in use)."""
    stores, build_s, db_bytes = {}, {}, {}
    for n in sizes:
        stores[n] = cache / f"{KIND}-{n}-welcomed-schema{migrations.latest()}.sqlite"
        if stores[n].exists():
            print(f"{n:>7,} games: cached {stores[n]}")
        else:
            build_s[n] = build(stores[n], n)
            print(f"{n:>7,} games: built in {build_s[n]:.1f} s", flush=True)
        db_bytes[n] = (stores[n].stat().st_size, in_use(stores[n]))
    return stores, build_s, db_bytes


def measure(args: argparse.Namespace, sizes: list[int], stores: dict[int, Path], tmp: Path,
            mails: list, expected: dict) -> dict[str, dict[int, list[float]]]:
    """Per size, each run's wall and CPU seconds per mail, ticks with nothing due and `gm run
    --once` seconds, after a warm-up on the smallest store; with --profile, a profile printed."""
    timed: dict[str, dict[int, list[float]]] = {key: {n: [] for n in sizes}
                                                for key in ("per_mail", "cpu_mail", "ticks", "once", "once_mails",
                                                            "once_cpu")}
    run_mail(stores[sizes[0]], tmp / "run", mails, expected)  # warm-up: imports, templates, caches
    run_once(stores[sizes[0]], tmp / "once")
    for r in range(args.runs):
        for n in sizes:
            elapsed, cpu, t = run_mail(stores[n], tmp / "run", mails, expected)
            timed["per_mail"][n].append(elapsed / len(mails))
            timed["cpu_mail"][n].append(cpu / len(mails))
            timed["ticks"][n] += t
            timed["once"][n].append(run_once(stores[n], tmp / "once")[0])
            wall, cpu = run_once(stores[n], tmp / "once", mails, expected)
            timed["once_mails"][n].append(wall)
            timed["once_cpu"][n].append(cpu)
        print(f"run {r + 1}/{args.runs}: " + ", ".join(
            f"{n:,}: {timed['per_mail'][n][-1] * 1000:.2f} ms/mail, run --once of the mails "
            f"{timed['once_mails'][n][-1]:.2f} s (CPU {timed['once_cpu'][n][-1]:.2f} s)" for n in sizes), flush=True)
    if args.profile:
        prof = cProfile.Profile()
        run_mail(stores[sizes[-1]], tmp / "run", mails, expected, profile=prof)
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
        print(f"\nprofile of the mail on {sizes[-1]:,} games (own time):\n" + out.getvalue())
    return timed


def report(sizes: list[int], timed: dict[str, dict[int, list[float]]],
           db_bytes: dict[int, tuple]) -> list[tuple[str, bool]]:
    """Print the medians per size with their ratios to the smallest store; returns the checks."""
    base = sizes[0]
    med = {n: statistics.median(timed["per_mail"][n]) for n in sizes}
    cpu = {n: statistics.median(timed["cpu_mail"][n]) for n in sizes}
    tick = {n: statistics.median(timed["ticks"][n]) for n in sizes}
    wall = {n: statistics.median(timed["once"][n]) for n in sizes}
    whole = {n: statistics.median(timed["once_mails"][n]) for n in sizes}
    whole_cpu = {n: statistics.median(timed["once_cpu"][n]) for n in sizes}
    print(f"{'games':>9} | {'per mail':>11} {'ratio':>6} | {'CPU':>11} {'ratio':>6} | "
          f"{'tick, none due':>14} {'ratio':>6} | "
          f"{'run --once':>11} {'ratio':>6} | {'with mails':>11} {'ratio':>6} | {'its CPU':>11} {'ratio':>6} | "
          f"{'file/game':>10} {'in use':>8}")
    for n in sizes:
        print(f"{n:>9,} | {ms(med[n]):>11} {med[n] / med[base]:5.2f}x | {ms(cpu[n]):>11} "
              f"{cpu[n] / cpu[base]:5.2f}x | {us(tick[n]):>14} "
              f"{tick[n] / tick[base]:5.2f}x | {ms(wall[n]):>11} {wall[n] / wall[base]:5.2f}x | "
              f"{ms(whole[n]):>11} {whole[n] / whole[base]:5.2f}x | "
              f"{ms(whole_cpu[n]):>11} {whole_cpu[n] / whole_cpu[base]:5.2f}x | "
              f"{db_bytes[n][0] / n:>10,.0f} {db_bytes[n][1] / n:>8,.0f}")
    checks = []
    for n, limit in ((10_000, 1.2), (100_000, 1.3)):
        if n in med:
            checks.append((f"per mail at {n:,} games within {limit}x the {base:,}-game store's "
                           f"({med[n] / med[base]:.2f}x)", med[n] / med[base] <= limit))
    if 10_000 in whole:
        ratio = whole[10_000] / whole[base]
        checks.append((f"`gm run --once` of the mails at 10,000 games within 1.1x the {base:,}-game store's "
                       f"({ratio:.2f}x)", ratio <= 1.1))
    if 100_000 in tick:
        checks.append((f"tick with nothing due under 10 ms at 100,000 games ({tick[100_000] * 1e6:.0f} us)",
                       tick[100_000] < 0.010))
    return checks


if __name__ == "__main__":
    sys.exit(main())
