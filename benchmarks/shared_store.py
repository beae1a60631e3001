"""The PostgreSQL store: daemons' throughput beside SQLite's, and the per-order cost at 10 and 10,000 games.

    .venv/bin/python benchmarks/shared_store.py [--games 20] [--per-game 5] [--sizes 10,10000]
                                                [--mails 200] [--runs 3] [--cap-games 100] [--cap-per-game 2]
                                                [--smtp-delay 0.05] [--only throughput|scale|capacity]

Starts, in one run, a Dovecot and an SMTP sink in a process of its own (as
benchmarks/turnaround.py, whose helpers it uses) and a PostgreSQL server with
fsync and synchronous commit ON, as in production (tests/pgserver.py, Debian's
``postgresql``), all on 127.0.0.1.

(a) throughput: --games Neighbors games x --per-game orders, the same mails
    for each set-up, judged by `gm run` daemons (subprocesses, IDLE): one
    daemon on SQLite, one on PostgreSQL, two on one PostgreSQL store and one
    mailbox.  The daemons start first and send the welcomes; the clock runs
    from the first APPEND of the orders to the SMTP server's acceptance of
    the last report.  The floor, measured in the same run, is the bare
    protocol work (turnaround.floor_throughput: FETCH the same mails, send the
    messages the SQLite daemon sent, byte for byte, with aiosmtplib); each
    figure is printed as its ratio.
(b) per order: benchmarks/scale.py's mails (captures in g0..g9 and HELP) on
    PostgreSQL stores of --sizes games built with scale.py's Builder, through
    the daemon's path (process_maildir), each run on a fresh copy
    (CREATE DATABASE ... TEMPLATE); median of --runs, the ratio to the
    smallest store, and SQLite's smallest store beside it.
(c) capacity: the SMTP server waits --smtp-delay (50 ms) before it accepts each
    message, as a real relay does; --cap-games games, each with players of its
    own, --cap-per-game orders each, judged by 1, 2 and 4 `gm run` daemons on
    one PostgreSQL store and one mailbox; each printed as its ratio to one
    daemon and to the floor (one sender sending the same messages).
    Beside it, the CPU each party spent per order over the same span (Parties:
    /proc of each process tree, the children it reaped included: the daemons
    with their SMTP child processes, the postmaster with its backends, Dovecot,
    the SMTP sink, this process's APPENDs), the share of the two cores they
    kept busy, the share the whole machine was busy (other users' work too),
    and the ceiling the cores allow: orders/s at most = cores / (all parties'
    CPU per order), over one daemon's orders/s the best ratio the machine
    allows at that cost.  Targets: 2 daemons >= 1.8x one, 4 >= 2.5x.
    -v adds, per run, the orders judged and reports sent in each second, the
    outcomes, and what PostgreSQL's backends were doing (pg_stat_activity
    sampled every 20 ms: lock waits would show as Lock:advisory); --profile DIR
    has each daemon write a cProfile of its judging and sending threads
    (GM_PROFILE_DIR, gm.runtime.profiling; it doubles the daemons' CPU).

    What limited it, measured (2026-11-26, 2 cores shared with other engineers,
    load average 0.7-1.3 unless said; before = 572ba64, after = branch cap;
    run twice each, interleaved):
    - Every daemon fetched, read (its password check begun) and tried every
      message: with 4 daemons a profile counts 800 ingest calls and 798
      prepares for 200 orders, and gm's CPU per order grew with the daemons
      (14.3-14.9 ms with 1, 18.8-20.0 with 2, 29.2-32.3 with 4).  Now each
      daemon takes a slice, by the game a mail names (gm.runtime.slices):
      14.8-15.6, 15.6-16.0, 17.0-19.9 ms.  All parties per order with 4
      daemons: 47.5-51.4 ms before, 31.1-36.3 after.
    - Lock waits: none seen (no Lock wait among the backends' samples, which
      are ~80 % idle waiting for the daemons, ~15 % idle in a transaction,
      ~1 % in the commit's WAL flush).  Per-game locks are not the limiter.
    - Sending: a sender claimed every due row (up to 500) and sent them over 4
      connections split by a hash of the recipient; one daemon's connections
      carried the mail while the others' idled, and a batch waited for its
      fullest lane.  Now a flush claims 4 rows per connection, the claim looks
      past rows other senders hold, and lanes are dealt out by load: with 4
      daemons ~40-50 reports/s before, 100-160/s after.  One daemon stays
      bounded by its own 4 connections: it judges 200 orders in 3.4-3.6 s and
      sends the 400 reports in 8.4 s (~52 mails/s against a 50 ms relay), the
      parties keeping 37-39 % of the two cores busy.  The ratio to one daemon therefore mostly
      measures added SMTP connections, and at the CPU per order measured the
      two cores allow 2.3-2.8x one daemon's run at most: 2.5x for 4 daemons is
      at the machine's limit, not reachable with any other work on it.
                 before (s, ratio)            after (s, ratio)             after, final code (load 0.6)
      1 daemon   8.00, 8.21                   8.38, 8.43                   8.36, 8.07
      2 daemons  5.86 1.36x, 6.18 1.33x       5.28 1.59x, 5.49 1.53x       5.33 1.57x, 5.26 1.53x
      4 daemons  8.29 0.96x, 6.71 1.22x       4.25 1.97x, 4.84 1.74x       4.90 1.70x, 4.43 1.82x
      (the first two columns interleaved, at 02:45-02:51 UTC; the last at 03:05, after slices'
      WAIT became 2 s from the mail's arrival.)  The targets are missed: 2 daemons are bounded
      by their 8 SMTP connections (judging ends at 2.6-2.8 s, the last report at 5.3 s), 4 by
      the CPU (72-75 % of both cores busy, ceiling 2.3-2.5x).  Earlier in the sitting, with
      the machine 96-100 % busy from other work, 4 daemons gave 0.9x one before and 0.9-1.7x
      with the branch's intermediate states: figures taken under load say more about the load.
    - Then (2026-11-26, 04:54-05:00 UTC, quiet, load 0.4-1.4): the SMTP sink process parsed every
      message it accepted (the tests' sink keeps them for assertions): 7.7-8.4 ms of CPU an order on
      the cores the daemons share; it now takes the bytes as a relay does (2.1-2.8 ms).  And a
      sender sent a batch, waited for its slowest connection, marked, and claimed the next: its
      connections carried ~52 mails/s of the 72 they can against a 50 ms relay.  Now each connection
      that has sent its last queued mail claims more while that mail is in flight (gm.runtime.smtp,
      gm.runtime.lanes), topping every lane up in one claim.  1 daemon 8.34 -> 6.22 s, 2 daemons
      5.20 -> 3.67-3.70 s (1.60x -> 1.68-1.71x), 4 daemons 4.56 -> 3.38-3.67 s (1.83x -> 1.72-1.84x).
      One daemon now sends 72 mails/s, its 4 connections' limit; two send 135-140 of their 144; the
      0.6 s before the first report (Dovecot's IDLE delay, the first judging) is the same for any
      count, so two daemons could give 0.6 + 400/144 = 3.4 s, 1.83x, at most; four are held by the
      cores (83-88 % busy; the ceiling 2.0-2.2x at their CPU an order).
    - Where the targets stand (2026-11-26, 09:00-09:45 UTC, quiet, load 0.1-0.9; five runs, -v):
      2 daemons 1.69-1.74x, 4 daemons 1.87-2.00x.  Each is held by a bound of this machine:
      * 2 daemons: one daemon's first report is accepted 0.65 s after the first APPEND (Dovecot tells
        an IDLE client of new mail 500 ms after the change: NOTIFY_DELAY_MSECS in its
        src/lib-storage/mailbox-watch.c, no setting; then the first judging and the relay's 50 ms),
        and its 4 connections carry 73 mails/s to the 400th at 6.12-6.21 s.  Eight connections at
        that rate end at 0.66 + 400/146 = 3.40 s: 1.80x one daemon is the most two can give, with
        no mail lost to the cores at all.  They lose 0.15-0.2 s: while both judge (0.55-2.5 s, some
        105 orders/s at 22 ms of CPU an order: more than the two cores) their connections carry
        132-142 mails/s, and 143-146 once judging is done.
      * 4 daemons: all parties' CPU an order is 24.9-26.9 ms (gm's daemons 16.4-17.4: per thread,
        read from /proc, the judging thread 12.2 ms an order against 7.8 with one daemon, the password
        checks 1.7, the sender thread 1.6, its SMTP process 2.2; PostgreSQL 4.5-4.8; Dovecot, the SMTP
        server and the APPENDs 4-5), so the two cores allow 74-80 orders/s, 2.31-2.47x one daemon
        with no core ever idle, and they idle for the first 0.55 s of a 3.1-3.3 s run (the IDLE
        delay above).  2.5x asks for at most 20 ms of CPU an order for all the parties together,
        about 11 for gm: less than a Neighbors order's picture (draw 0.9 ms, PNG 1.9), password
        check (1.6) and two reports sent (3.8) leave room for, before judging and the store.
      Tried and left out: the judging thread at a lower CPU priority than the sender (nice 5, 10
      and 19, so that a connection ready for its next mail does not wait behind judging): 2 daemons
      1.71-1.80x, 4 daemons 1.80-1.93x, worse where judging is what four daemons wait for; a GIL
      switch interval of 0.5 ms instead of 5: no change (one daemon's connections carry 72-76
      mails/s whether or not it judges meanwhile).
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import psycopg  # noqa: E402

import pgserver  # noqa: E402
import scale  # noqa: E402
import turnaround  # noqa: E402
from gm.core.config import Config  # noqa: E402
from gm.runtime.maildir import process_maildir  # noqa: E402
from gm.runtime.profiling import PROFILE_ENV  # noqa: E402
from gm.service.engine import Engine  # noqa: E402
from gm.store import Store  # noqa: E402
from gm.store.packing import unpack_mail  # noqa: E402
from harness import Harness, start_dovecot, stop_dovecot  # noqa: E402
from support import GM_ADDRESS  # noqa: E402


VERBOSE = "-v" in sys.argv  # say when the last order was judged, beside the last report sent


# --- (a) throughput -------------------------------------------------------------------------
def daemons_throughput(tmp: Path, account, sink, games: int, per_game: int, daemons: int,
                       store: str | None, plan=None, cpu: dict | None = None,
                       env: dict | None = None) -> tuple[float, int, list[bytes], list[bytes]]:
    """Seconds from the first APPEND to the last report accepted, reports sent, the mails, and
    the messages the daemons sent for them (for the floor to send the same bytes).  ``plan``: makes
    the games and writes their orders (turnaround.plan_games: every game the same two players).
    ``cpu``: a Parties to read; the CPU each party spent over the same span is put in it as ``spent``.
    ``env``: the daemons' environment (e.g. GM_PROFILE_DIR)."""
    tmp.mkdir()
    h = Harness(tmp, account, sink)
    if store is not None:
        h.reconfigure(store=store)
    welcomes = len(sink.times)
    mails = (plan or turnaround.plan_games)(h, games, per_game, "html")  # what players get by default
    queued = h.engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")["n"]  # the welcomes
    h.engine.store.close()
    procs = [subprocess.Popen([sys.executable, "-m", "gm.cli", "--config", str(h.config_path), "run"],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
             for _ in range(daemons)]
    try:
        sink.wait_count(welcomes + 2 * games, timeout=120)  # the daemons are up and sent the welcomes
        before = len(sink.times)
        if cpu is not None:
            cpu["daemons"] = [p.pid for p in procs]
            began = cpu["meter"].read(cpu["daemons"])
            machine_began = cpu["meter"].machine()
        waits = Waits(store) if VERBOSE and store is not None and store.startswith("postgres") else None
        start = time.time()
        with account.client() as client:
            for raw in mails:
                client.append("INBOX", raw)
        appended = time.time() - start
        expected = before + 2 * len(mails)  # a report to each player per order
        last = sink.wait_count(expected, timeout=600)
        if waits is not None:
            print(f"    (PostgreSQL backends, sampled: {waits.report()})")
        if cpu is not None:
            cpu["spent"] = cpu["meter"].since(began, cpu["daemons"])
            busy, idle = cpu["meter"].machine()
            cpu["machine"] = (busy - machine_began[0], idle - machine_began[1])
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(30)
    done = Store(h.config.database)
    if VERBOSE:
        print_timeline(done, start, last, appended, len(mails), [t - start for t in sink.times[before:expected]])
    sent = [unpack_mail(r["raw"])
            for r in done.all("SELECT raw FROM outbox WHERE id > :after ORDER BY id", after=queued)]
    done.close()
    return last - start, expected - before, mails, sent


def print_timeline(done: Store, start: float, last: float, appended: float, count: int,
                   sent_at: list[float]) -> None:
    """-v: when the orders were judged and the reports sent, from the first APPEND, second by second."""
    judged = done.one("SELECT max(received) AS at FROM messages")["at"]
    outcomes = {r["outcome"]: r["n"] for r in done.all("SELECT outcome, count(*) AS n FROM messages GROUP BY 1")}
    received = [r["received"] - start for r in done.all("SELECT received FROM messages")]
    print(f"    (the {count} APPENDs took {appended:.2f} s; orders judged from {min(received):.2f} s "
          f"to {judged - start:.2f} s after the first APPEND, reports sent from {min(sent_at):.2f} s "
          f"to {last - start:.2f} s; outcomes {outcomes})")
    print("    (per second: judged " + " ".join(str(sum(1 for t in received if k <= t < k + 1))
                                             for k in range(int(last - start) + 1))
          + "; sent " + " ".join(str(sum(1 for t in sent_at if k <= t < k + 1))
                                 for k in range(int(last - start) + 1)) + ")")


def plan_spread(h: Harness, games: int, per_game: int, report_format: str) -> list[bytes]:
    """As turnaround.plan_games, but each game has players of its own (no address in two games)."""
    return turnaround.plan_games(h, games, per_game, report_format, own_players=True)


class Waits:
    """With -v: what PostgreSQL's backends of the run were doing, sampled every 20 ms from
    pg_stat_activity (Lock: waiting for another transaction's lock; IO/WALSync: the commit's
    flush; Client: waiting for the daemon's next statement)."""

    def __init__(self, url: str):
        import collections
        import threading

        self.url = url
        self.counts: collections.Counter = collections.Counter()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self.stop.wait(0.02):
                for state, kind, event in conn.execute(
                        "SELECT state, wait_event_type, wait_event FROM pg_stat_activity "
                        "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"):
                    self.counts[f"{state}/{kind}:{event}" if kind else f"{state}/running"] += 1

    def report(self) -> str:
        self.stop.set()
        self.thread.join()
        total = sum(self.counts.values()) or 1
        return ", ".join(f"{k} {n / total:.0%}" for k, n in self.counts.most_common(6))


class Parties:
    """CPU seconds spent by each party of a capacity run, from /proc (turnaround.tree_cpu: a process,
    the children it reaped and its living descendants): the `gm run` daemons with their sender
    child processes, the PostgreSQL server (the postmaster: its backends, the WAL writer, the
    checkpointer), Dovecot, the SMTP sink, and this process (the APPENDs)."""

    def __init__(self, postgres: pgserver.Postgres, dovecot_pid: int, sink_pid: int):
        postmaster = int((postgres.data / "postmaster.pid").read_text().split()[0])
        self.pids = {"PostgreSQL": postmaster, "Dovecot": dovecot_pid, "SMTP sink": sink_pid}

    @staticmethod
    def machine() -> tuple[float, float]:
        """CPU seconds the whole machine spent busy and idle so far (/proc/stat: every process,
        other engineers' too)."""
        fields = [int(v) for v in open("/proc/stat").readline().split()[1:8]]
        idle = fields[3] + fields[4]  # idle, iowait
        return (sum(fields) - idle) / turnaround.TICKS, idle / turnaround.TICKS

    def read(self, daemons: list[int]) -> dict[str, float]:
        spent = {"gm daemons": sum(turnaround.tree_cpu(pid) for pid in daemons)}
        spent.update({name: turnaround.tree_cpu(pid) for name, pid in self.pids.items()})
        spent["benchmark"] = turnaround.tree_cpu(os.getpid(), (*daemons, *self.pids.values()))
        return spent

    def since(self, before: dict[str, float], daemons: list[int]) -> dict[str, float]:
        now = self.read(daemons)
        return {name: now[name] - before[name] for name in now}


TARGETS = {2: 1.8, 4: 2.5}  # N daemons' throughput at least this many times one's


def capacity(args, server: pgserver.Postgres, tmp: Path) -> None:
    """(c) 1, 2 and 4 daemons on one PostgreSQL store, the SMTP server waiting --smtp-delay a message."""
    dovecot = start_dovecot()
    sink = turnaround.SinkProcess(delay=args.smtp_delay)
    meter = Parties(server, dovecot.proc.pid, sink.proc.pid)
    env = dict(os.environ)
    if args.profile:
        env[PROFILE_ENV] = args.profile
    results = {}
    spent = {}
    machine = {}  # (busy, idle) CPU seconds of the whole machine in each run
    try:
        for count in [int(n) for n in args.cap_daemons.split(",")]:
            schema = f"cap{count}_{os.getpid()}"
            with psycopg.connect(server.url(), autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
            cpu = {"meter": meter}
            if args.profile:
                env[PROFILE_ENV] = str(Path(args.profile) / f"{count}")
            results[count] = daemons_throughput(tmp / schema, dovecot.add_user(), sink, args.cap_games,
                                                args.cap_per_game, count, server.url(schema), plan_spread,
                                                cpu=cpu, env=env)
            spent[count] = cpu["spent"]
            machine[count] = cpu["machine"]
            print(f"  PostgreSQL, {count} daemon(s), SMTP {args.smtp_delay * 1000:.0f} ms: "
                  f"{results[count][0]:.2f} s", flush=True)
        _, _, mails, messages = results[min(results)]
        floor_meter = turnaround.CpuMeter(sink.proc.pid, dovecot.proc.pid)
        floor = turnaround.floor_throughput(dovecot.add_user(), sink, mails, messages, floor_meter).wall
    finally:
        sink.stop()
        stop_dovecot(dovecot)
    n = len(mails)
    cores = os.cpu_count() or 1
    print(f"\n(c) capacity: {n} orders across {args.cap_games} games (players of their own), the SMTP server "
          f"waiting {args.smtp_delay * 1000:.0f} ms a message; `gm run` daemons on one PostgreSQL store; "
          f"load average {os.getloadavg()[0]:.2f} at the end")
    print(f"    {'floor (one sender)':<24} {floor:6.2f} s {n / floor:7.1f} orders/s")
    one = results[min(results)][0]
    for count, (elapsed, _, _, _) in results.items():
        print(f"    {f'{count} daemon(s)':<24} {elapsed:6.2f} s {n / elapsed:7.1f} orders/s   "
              f"{one / elapsed:5.2f}x {min(results)} daemon(s)   {floor / elapsed:5.2f} of the floor")
    print(f"    CPU per order (ms) by party, and the ceiling {cores} cores allow "
          f"(orders/s at most = cores / all parties' CPU per order):")
    names = list(next(iter(spent.values())))
    print(f"    {'':<12}" + "".join(f"{name:>12}" for name in names) + f"{'all':>8}{'ours':>6}{'machine':>8}"
          f"{'ceiling':>10}{'best':>7}{'target':>8}{'got':>6}")
    for count, (elapsed, _, _, _) in results.items():
        used = spent[count]
        total = sum(used.values())
        ceiling = cores / (total / n)
        best = ceiling / (n / one)  # the most this many daemons could give, as a ratio to one daemon's run
        target = f"{TARGETS[count]:.1f}x" if count in TARGETS else "-"
        print(f"    {f'{count} daemon(s)':<12}" + "".join(f"{used[k] / n * 1000:12.1f}" for k in names)
              + f"{total / n * 1000:8.1f}{total / elapsed / cores:6.0%}{machine[count][0] / sum(machine[count]):8.0%}"
              f"{ceiling:7.1f}/s{best:6.2f}x{target:>8}{one / elapsed:5.2f}x")
    print("    (ours: the share of the cores these parties kept busy; machine: the share every process kept busy,\n"
          "     other users' too; best: the ceiling over one daemon's orders/s, the ratio the machine allows\n"
          "     at that CPU per order if gm had both cores to itself)")


# --- (b) the per-order cost by store size -------------------------------------------------------
def build_pg(server: pgserver.Postgres, n: int) -> tuple[str, float]:
    """A database of n games, as scale.build makes a SQLite one; returns its name and the build time."""
    name = f"scale_{n}"
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    start = time.perf_counter()
    store = Store(server.url(database=name))
    builder = scale.Builder()
    now = time.time()
    ids = scale.spread_ids(n)
    for i in range(0, n, scale.BATCH):
        with store.write():
            for game_id in ids[i:i + scale.BATCH]:
                k = int(game_id[1:])
                builder.add(store, game_id, scale.seed_of(k), scale.options_of(k), now)
    store.db.raw("VACUUM ANALYZE")
    store.close()
    return name, time.perf_counter() - start


def per_mail(config: Config, mails: list[bytes], expected: dict[str, int]) -> float:
    """Seconds per mail through process_maildir on the config's store (scale.run_mail's path)."""
    scale.write_inbox(config.inbox, mails)
    engine = Engine(Store(config.database), config)
    try:
        start = time.perf_counter()
        done = process_maildir(engine, config.inbox)
        elapsed = time.perf_counter() - start
    finally:
        engine.close()
        engine.store.close()
    got = {k: sum(1 for _, o in done if o == k) for k in expected}
    if got != expected:
        raise SystemExit(f"outcomes {got}, expected {expected}")
    return elapsed / len(mails)


def pg_run(server: pgserver.Postgres, template: str, where: Path, mails, expected, run: int) -> float:
    name = f"run_{template}_{run}"
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    return per_mail(Config(data_dir=where, address=GM_ADDRESS, store=server.url(database=name)), mails, expected)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--per-game", type=int, default=5)
    parser.add_argument("--sizes", default="10,10000")
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cap-games", type=int, default=100)
    parser.add_argument("--cap-per-game", type=int, default=2)
    parser.add_argument("--smtp-delay", type=float, default=0.05)
    parser.add_argument("--cap-daemons", default="1,2,4")
    parser.add_argument("--profile", metavar="DIR",
                        help="capacity: each daemon writes a cProfile of its run to DIR/<daemons>/ (GM_PROFILE_DIR)")
    parser.add_argument("-v", action="store_true", help="say when each run judged its last order")
    parser.add_argument("--only", choices=("throughput", "scale", "capacity"))
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    tmp = Path(tempfile.mkdtemp(prefix="gm-shared-"))
    server = pgserver.start_postgres(durable=True)
    print(f"PostgreSQL on 127.0.0.1:{server.port} (fsync on)", flush=True)
    try:
        if args.only in (None, "throughput"):
            throughput(args, server, tmp)
        if args.only in (None, "scale"):
            by_size(args, server, tmp)
        if args.only in (None, "capacity"):
            capacity(args, server, tmp)
    finally:
        pgserver.stop_postgres(server)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def throughput(args, server: pgserver.Postgres, tmp: Path) -> None:
    dovecot = start_dovecot()
    sink = turnaround.SinkProcess()
    results = {}
    try:
        setups = [("SQLite, 1 daemon", 1, None), ("PostgreSQL, 1 daemon", 1, "pg1"),
                  ("PostgreSQL, 2 daemons", 2, "pg2")]
        for label, count, schema in setups:
            store = None
            if schema is not None:
                with psycopg.connect(server.url(), autocommit=True) as conn:
                    conn.execute(f"CREATE SCHEMA {schema}")
                store = server.url(schema)
            results[label] = daemons_throughput(tmp / (schema or "sqlite"), dovecot.add_user(), sink,
                                                args.games, args.per_game, count, store)
            print(f"  {label}: {results[label][0]:.2f} s", flush=True)
        elapsed, sent, mails, messages = results["SQLite, 1 daemon"]
        meter = turnaround.CpuMeter(sink.proc.pid, dovecot.proc.pid)
        floor = turnaround.floor_throughput(dovecot.add_user(), sink, mails, messages, meter).wall
    finally:
        sink.stop()
        stop_dovecot(dovecot)
    n = len(mails)
    print(f"\n(a) throughput: {n} orders across {args.games} games, {sent} reports; `gm run` daemons (IDLE)")
    print(f"    {'floor':<24} {floor:6.2f} s {n / floor:7.1f} orders/s   (FETCH {n}, send {sent})")
    for label, (elapsed, _, _, _) in results.items():
        print(f"    {label:<24} {elapsed:6.2f} s {n / elapsed:7.1f} orders/s   {floor / elapsed:5.2f} of the floor")


def by_size(args, server: pgserver.Postgres, tmp: Path) -> None:
    sizes = sorted({int(s) for s in args.sizes.split(",")})
    templates = {}
    for n in sizes:
        templates[n], took = build_pg(server, n)
        print(f"  {n:,} games built on PostgreSQL in {took:.1f} s", flush=True)
    lite = tmp / "lite.sqlite"
    scale.build(lite, sizes[0])
    mails, expected = scale.plan_mails(args.mails)
    pg_run(server, templates[sizes[0]], tmp / "run", mails, expected, 0)  # warm-up: imports, templates
    cost = {n: [] for n in sizes}
    lite_cost = []
    for r in range(args.runs):
        for n in sizes:
            cost[n].append(pg_run(server, templates[n], tmp / "run", mails, expected, r + 1))
        lite_cost.append(per_mail(scale.fresh_copy(lite, tmp / "lite-run"), mails, expected))
        print(f"  run {r + 1}/{args.runs}: " + ", ".join(f"{n:,}: {cost[n][-1] * 1000:.2f} ms" for n in sizes),
              flush=True)
    med = {n: statistics.median(cost[n]) for n in sizes}
    base = sizes[0]
    print(f"\n(b) per order: {len(mails)} mails ({expected['applied']} captures, {expected['help']} HELP) "
          f"through process_maildir, median of {args.runs} runs")
    for n in sizes:
        print(f"    PostgreSQL {n:>7,} games {ms(med[n])}/mail   {med[n] / med[base]:5.2f}x the {base:,}-game store")
    lite_med = statistics.median(lite_cost)
    print(f"    SQLite     {base:>7,} games {ms(lite_med)}/mail   "
          f"(PostgreSQL is {med[base] / lite_med:4.2f}x SQLite at {base:,})")


if __name__ == "__main__":
    sys.exit(main())
