"""Turnaround and throughput of the mail daemon against a local Dovecot and aiosmtpd.

    python benchmarks/turnaround.py [--orders 200] [--games 100] [--per-game 5] [--format html|text] [--busy N]

Starts a Dovecot (Debian's dovecot-imapd) and an aiosmtpd server on 127.0.0.1
(tests/harness.py, the same servers tests/mail runs against) and measures, in one run:

(a) turnaround: from the APPEND of an order to the moment the SMTP server has
    accepted the last report it causes (one to each player), median and 95th
    percentile over --orders orders, with the daemon waiting in IDLE;
(b) throughput: --games games x --per-game orders, all in the mailbox, then
    `run --once` until every report is accepted by SMTP; --runs times, each
    beside its own floor, with the CPU seconds each party spent (this process,
    the SMTP server, Dovecot) and how many of the machine's cores that kept busy:
    where the time goes;
(c) the bare protocol floor for the same work: an IDLE client that wakes,
    fetches the message with BODY.PEEK[] and sends as many messages with
    aiosmtplib (no parsing, no database, no rules), and for (b) fetching the
    same mails and sending the very messages gm sent in that run (the same
    bytes: a report with a picture costs the SMTP server more than a short one).

Each of ours is printed as a ratio to its floor.  Targets: median turnaround
within 3x the floor and under 0.5 s; throughput at least 0.95 of the floor's.
Also printed: the turnaround when the daemon polls every 50 ms instead of
IDLE.  Dovecot holds back IDLE notifications for 500 ms (NOTIFY_DELAY_MSECS
in its mailbox-watch.c), so with IDLE no client, the floor included, sees
new mail sooner; polling is how a GM who wants replies under 0.5 s gets them.

The SMTP server runs in a process of its own (see SinkProcess); each run
starts a fresh Dovecot and a fresh database.  --only measures one part.
--busy N runs N CPU-bound processes beside every measurement, ours and the
floor's: a busy machine; the share of the cores they keep beside gm is
printed, with the best ratio the rest would allow gm.  gm's CPU counts its
SMTP child process.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the test harness and helpers (no conftest)

import aiosmtplib  # noqa: E402

from gm.store.packing import unpack_mail  # noqa: E402
from harness import DaemonThread, Harness, SmtpSink, start_dovecot, stop_dovecot  # noqa: E402
from support import GM_ADDRESS, PLAYERS, order_mail  # noqa: E402

ADDRESS = dict(PLAYERS)


class TimedSink(SmtpSink):
    """The SMTP server, noting when it accepted each message."""

    def __init__(self):
        super().__init__()
        self.times: list[float] = []

    async def handle_DATA(self, server, session, envelope):
        result = await super().handle_DATA(server, session, envelope)
        with self.lock:
            self.times.append(time.time())
        return result

    def wait_count(self, n: int, timeout: float = 60.0) -> float:
        deadline = time.time() + timeout
        while True:
            with self.lock:
                if len(self.times) >= n:
                    return self.times[n - 1]
            if time.time() > deadline:
                raise RuntimeError(f"only {len(self.times)} of {n} mails arrived")
            time.sleep(0.0005)


class SinkProcess:
    """TimedSink in a process of its own, as an SMTP server is in any deployment.

    In the benchmark's own process the server would share the GIL with the
    daemon under test, and the figures would mostly measure thread contention.
    The child prints the time it accepted each message; a thread here reads them.
    """

    def __init__(self, delay: float = 0.0):
        import subprocess

        # ``delay``: seconds the server waits before it accepts each message (a real relay's latency)
        self.proc = subprocess.Popen([sys.executable, __file__, "--smtp-sink", str(delay)], stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.port = int(self.proc.stdout.readline())
        self.times: list[float] = []
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            with self.lock:
                self.times.append(float(line))

    wait_count = TimedSink.wait_count

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def serve_smtp_sink(delay: float = 0.0) -> int:
    import asyncio

    class Printing(TimedSink):
        async def handle_DATA(self, server, session, envelope):
            # As a relay: the bytes are taken, not parsed (the tests' sink parses each message for
            # their assertions; here nobody reads them, and parsing a report with pictures cost the
            # sink 4 ms a message, on the cores the daemons under test share)
            if delay:
                await asyncio.sleep(delay)
            print(repr(time.time()), flush=True)
            return "250 OK"

    sink = Printing()
    sink.start()
    print(sink.port, flush=True)
    threading.Event().wait()
    return 0


class CpuHogs:
    """``n`` processes that do nothing but spin: a busy machine."""

    def __init__(self, n: int):
        import subprocess

        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]

    def stop(self) -> None:
        for proc in self.procs:
            proc.kill()
            proc.wait(10)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


# --- where the time goes: CPU seconds of each party -----------------------------------------
TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:  # gone meanwhile
        return None


def tree_cpu(root: int, skip: tuple[int, ...] = ()) -> float:
    """CPU seconds of a process, its children reaped so far and its living descendants, leaving
    out the living trees under ``skip`` (the SMTP server, Dovecot and the busy loops are our
    children too, and are counted on their own)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            parents[int(entry)] = int(fields[1])
    ticks = 0
    for pid in parents:
        ancestor = pid
        while ancestor not in (root, 0, 1, *skip) and ancestor in parents:
            ancestor = parents[ancestor]
        if ancestor == root and (fields := _stat(pid)) is not None:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
            if pid == root:
                ticks += int(fields[13]) + int(fields[14])  # children it reaped
    return ticks / TICKS


class CpuMeter:
    """CPU seconds spent by gm (this process, its threads and its SMTP child process), the SMTP
    server and Dovecot; and apart from them (PARTIES), by the busy loops, if any."""

    def __init__(self, sink_pid: int, dovecot_pid: int, busy: tuple[int, ...] = ()):
        self.pids = {"smtp": sink_pid, "dovecot": dovecot_pid}
        self.busy = busy
        self.skip = (sink_pid, dovecot_pid, *busy)

    def read(self) -> dict[str, float]:
        return {"here": tree_cpu(os.getpid(), self.skip), **{k: tree_cpu(p) for k, p in self.pids.items()},
                "busy": sum(tree_cpu(p) for p in self.busy)}

    def since(self, before: dict[str, float]) -> dict[str, float]:
        now = self.read()
        return {k: now[k] - before[k] for k in now}


PARTIES = ("here", "smtp", "dovecot")  # the work measured; "busy" is the busy loops' share of the machine


def parties(spent: dict[str, float]) -> float:
    return sum(spent[k] for k in PARTIES)


def cpu_line(spent: dict[str, float], wall: float) -> str:
    cores = os.cpu_count() or 1
    line = (f"CPU: gm (or the floor client) {spent['here']:.2f} s, SMTP server {spent['smtp']:.2f} s, "
            f"Dovecot {spent['dovecot']:.2f} s; {parties(spent) / wall:.2f} of {cores} cores busy")
    if spent.get("busy"):
        line += f"; the busy loops {spent['busy'] / wall:.2f}"
    return line


# --- ours ---------------------------------------------------------------------------------
def our_turnaround(h: Harness, sink: TimedSink, orders: int, label: str) -> list[float]:
    daemon = DaemonThread(h.config)  # production wake interval except for stop
    latencies: list[float] = []
    games = 0
    game_id = None
    passwords: dict[str, str] = {}
    rng = random.Random(1)
    try:
        while len(latencies) < orders:
            if game_id is None or h.engine.load(game_id).rules.is_over(h.engine.load(game_id).state):
                games += 1
                game_id = f"{label}{games}"
                before = len(sink.times)
                passwords = h.engine.create_game("neighbors", game_id, PLAYERS, seed=games)
                sink.wait_count(before + 2)  # the welcomes
            mover, legal = h.legal(game_id)
            before = len(sink.times)
            raw = order_mail(ADDRESS[mover], rng.choice(legal), game_id=game_id, password=passwords[mover])
            start = time.time()
            h.dovecot.append(raw)
            last = sink.wait_count(before + 2)  # a report to each player
            latencies.append(last - start)
    finally:
        daemon.stop()
    return latencies


def plan_games(h: Harness, games: int, per_game: int, report_format: str,
               own_players: bool = False) -> list[bytes]:
    """Create the games and write each game's orders ahead (rules run locally).  Every game has
    the same two players, or with ``own_players`` players of its own (no address in two games)."""
    from games import registry

    rounds: list[list[bytes]] = [[] for _ in range(per_game)]
    rules = registry.get("neighbors")
    for g in range(games):
        game_id, seed = (f"sp{g}", 2000 + g) if own_players else (f"tp{g}", 1000 + g)
        players = [(name, f"{name}{g}@example.org") for name, _ in PLAYERS] if own_players else PLAYERS
        passwords = h.engine.create_game("neighbors", game_id, players, seed=seed,
                                         options={"format": report_format})
        state = h.engine.load(game_id).state
        for r in range(per_game):
            (mover,) = rules.to_move(state)
            text = rules.legal_orders(state, mover)[0]
            state = rules.submit(state, mover, rules.parse_order(state, mover, text), time.time()).state
            rounds[r].append(order_mail(dict(players)[mover], text, game_id=game_id, password=passwords[mover]))
    return [raw for batch in rounds for raw in batch]  # round by round: UID order is game order


@dataclass
class Timed:
    wall: float  # seconds from the start to the last message accepted by SMTP
    sent: int
    cpu: dict[str, float]
    messages: list[bytes] = field(default_factory=list)  # what gm sent, for the floor to send too


def our_throughput(h: Harness, sink: TimedSink, mails: list[bytes], meter: CpuMeter) -> Timed:
    h.once()  # the welcomes out of the way
    with h.dovecot.client() as client:
        for raw in mails:
            client.append("INBOX", raw)
    before = len(sink.times)
    first_row = h.engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")["n"]
    cpu = meter.read()
    start = time.time()
    h.once()
    sent = len(sink.times) - before
    last = sink.wait_count(before + sent)
    spent = meter.since(cpu)
    messages = [unpack_mail(r["raw"]) for r in
                h.engine.store.all("SELECT raw FROM outbox WHERE id > :after ORDER BY id", after=first_row)]
    return Timed(last - start, sent, spent, messages)


# --- the floor ------------------------------------------------------------------------------
class FloorSender:
    def __init__(self, port: int):
        self.loop = asyncio.new_event_loop()
        self.client = aiosmtplib.SMTP(hostname="127.0.0.1", port=port, start_tls=False, use_tls=False)
        self.loop.run_until_complete(self.client.connect())
        self.body = order_mail(GM_ADDRESS, "x" * 1200)

    def send(self, n: int, messages: list[bytes] | None = None) -> None:
        """Send ``n`` messages: the fixed small body, or (the same work as gm's) ``messages``."""
        async def go():
            for i in range(n):
                body = messages[i % len(messages)] if messages else self.body
                await self.client.sendmail(GM_ADDRESS, ["ada@example.org"], body)
        self.loop.run_until_complete(go())

    def close(self) -> None:
        self.loop.run_until_complete(self.client.quit())
        self.loop.close()


def floor_turnaround(account, sink: TimedSink, orders: int, replies: int = 2) -> list[float]:
    sender = FloorSender(sink.port)
    waker = account.client()
    waker.create_folder("floor-done")
    waker.select_folder("INBOX")
    appender = account.client()
    latencies = []
    raw = order_mail(ADDRESS["ada"], "b1xb2", game_id="fl", password="x")
    try:
        for _ in range(orders):
            waker.idle()
            before = len(sink.times)
            start = time.time()
            appender.append("INBOX", raw)
            while not waker.idle_check(timeout=5):
                pass
            waker.idle_done()
            uids = waker.search(["NOT", "DELETED"])
            waker.fetch(uids, ["BODY.PEEK[]"])
            sender.send(replies)
            last = sink.wait_count(before + replies)
            latencies.append(last - start)
            waker.move(uids, "floor-done")  # as the daemon moves what it has read
    finally:
        sender.close()
        waker.logout()
        appender.logout()
    return latencies


def floor_throughput(account, sink: TimedSink, mails: list[bytes], messages: list[bytes],
                     meter: CpuMeter) -> Timed:
    """FETCH the same mails, then send the very messages gm sent, one after another."""
    sends = len(messages)
    with account.client() as client:
        client.create_folder("floor-tp")
        for raw in mails:
            client.append("floor-tp", raw)
    sender = FloorSender(sink.port)
    before = len(sink.times)
    cpu = meter.read()
    start = time.time()
    with account.client() as client:
        client.select_folder("floor-tp")
        uids = client.search(["NOT", "DELETED"])
        for i in range(0, len(uids), 100):
            client.fetch(uids[i:i + 100], ["BODY.PEEK[]"])
    sender.send(sends, messages)
    last = sink.wait_count(before + sends)
    spent = meter.since(cpu)
    sender.close()
    return Timed(last - start, sends, spent)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--orders", type=int, default=200, help="orders timed for turnaround")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--per-game", type=int, default=5)
    parser.add_argument("--poll-orders", type=int, default=50, help="orders timed with 50 ms polling (0: skip)")
    parser.add_argument("--only", choices=("turnaround", "throughput"), help="measure one part only")
    parser.add_argument("--runs", type=int, default=3, help="throughput runs, each beside its own floor")
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="a busy machine: N CPU-bound processes run beside every measurement")
    parser.add_argument("--format", choices=("html", "text"), default="html",
                        help="the throughput games' report format: html (text, and a page with the "
                             "board picture: the default players get) or text")
    return parser.parse_args()


def main() -> int:
    if sys.argv[1:2] == ["--smtp-sink"]:
        return serve_smtp_sink(float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
    args = parse_args()
    logging.basicConfig(level=logging.ERROR)
    ours, floor, polled, runs = measure(args)
    checks = []
    print()
    if args.busy:
        print(f"A busy machine: {args.busy} CPU-bound process{'es' if args.busy > 1 else ''} ran beside every "
              f"measurement, ours and the floor's ({os.cpu_count()} cores).")
    if ours:
        checks += report_turnaround(ours, floor, polled)
    if runs:
        checks += report_throughput(args, runs)
    print()
    for name, ok in checks:
        print(f"    [{'ok' if ok else 'MISSED'}] {name}")
    return 0


def measure(args: argparse.Namespace) -> tuple[list[float], list[float], list[float], list[tuple[Timed, Timed]]]:
    """(gm's turnarounds, the floor's, gm's when polling, the throughput runs: gm's and the floor's),
    each part measured unless ``--only`` leaves it out."""
    server = start_dovecot()
    sink = SinkProcess()
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-"))
    hogs = CpuHogs(args.busy)
    try:
        print(f"Dovecot on 127.0.0.1:{server.port}, aiosmtpd on 127.0.0.1:{sink.port}")
        (tmp / "a").mkdir()
        ours = floor = polled = []
        if args.only != "throughput":
            h = Harness(tmp / "a", server.add_user(), sink)
            ours = our_turnaround(h, sink, args.orders, "ta")
            floor = floor_turnaround(server.add_user(), sink, args.orders)
            if args.poll_orders:
                (tmp / "p").mkdir()
                hp = Harness(tmp / "p", server.add_user(), sink)
                hp.reconfigure(imap_idle=False, poll_seconds=0.05)
                polled = our_turnaround(hp, sink, args.poll_orders, "tp")
        runs: list[tuple[Timed, Timed]] = []
        if args.only != "turnaround":
            meter = CpuMeter(sink.proc.pid, server.proc.pid, tuple(p.pid for p in hogs.procs))
            for run in range(1, args.runs + 1):
                (tmp / f"b{run}").mkdir()
                hb = Harness(tmp / f"b{run}", server.add_user(), sink)
                print(f"run {run}: setting up {args.games} games ...", flush=True)
                mails = plan_games(hb, args.games, args.per_game, args.format)
                gm_run = our_throughput(hb, sink, mails, meter)
                runs.append((gm_run, floor_throughput(server.add_user(), sink, mails, gm_run.messages, meter)))
    finally:
        hogs.stop()
        sink.stop()
        stop_dovecot(server)
    return ours, floor, polled, runs


def report_turnaround(ours: list[float], floor: list[float], polled: list[float]) -> list[tuple[str, bool]]:
    """Print (a), gm's turnaround beside the floor's; returns its checks."""
    med, p95 = statistics.median(ours), percentile(ours, 95)
    fmed, fp95 = statistics.median(floor), percentile(floor, 95)
    print(f"(a) turnaround over {len(ours)} orders, IDLE (APPEND -> last report accepted by SMTP)")
    print(f"    gm      median {fmt(med)}   p95 {fmt(p95)}")
    print(f"    floor   median {fmt(fmed)}   p95 {fmt(fp95)}   (IDLE wake, FETCH, 2 x aiosmtplib send)")
    print(f"    ratio   median {med / fmed:5.2f}x      p95 {p95 / fp95:5.2f}x")
    if polled:
        print(f"    gm polling every 50 ms instead of IDLE ({len(polled)} orders): median "
              f"{fmt(statistics.median(polled))}   p95 {fmt(percentile(polled, 95))}")
    checks = [("median turnaround within 3x the floor", med <= 3 * fmed),
              ("median turnaround under 0.5 s with IDLE"
               + (" (Dovecot's IDLE floor itself is over it)" if fmed >= 0.5 else ""), med < 0.5)]
    if polled:
        checks.append(("median turnaround under 0.5 s polling every 50 ms",
                       statistics.median(polled) < 0.5))
    return checks


def report_throughput(args: argparse.Namespace, runs: list[tuple[Timed, Timed]]) -> list[tuple[str, bool]]:
    """Print (b), gm's throughput beside the floor's, run by run; returns its checks."""
    n = args.games * args.per_game
    print(f"(b) throughput: {n} orders across {args.games} games, {runs[0][0].sent} {args.format} reports sent, "
          f"{len(runs)} runs, each beside its floor (FETCH {n}, send the same messages)")
    ratios = []
    for number, (gm_run, floor_run) in enumerate(runs, 1):
        ratios.append(floor_run.wall / gm_run.wall)
        print(f"    run {number}: gm {gm_run.wall:5.2f} s ({n / gm_run.wall:5.1f} orders/s), floor "
              f"{floor_run.wall:5.2f} s ({n / floor_run.wall:5.1f} orders/s): {ratios[-1]:.2f} of the floor")
        print(f"           gm    {cpu_line(gm_run.cpu, gm_run.wall)}")
        print(f"           floor {cpu_line(floor_run.cpu, floor_run.wall)}")
    judged = statistics.median(r.cpu["here"] / n for r, _ in runs)
    extra = statistics.median((parties(r.cpu) - parties(f.cpu)) / n for r, f in runs)
    cores = os.cpu_count() or 1
    print(f"    median  {statistics.median(ratios):5.2f} of the floor; gm spends {judged * 1000:.2f} ms of CPU "
          f"an order (judging, password checks, SMTP client, IMAP), {extra * 1000:.2f} ms more than the "
          f"floor's parties")
    if args.busy:
        # What the busy loops left gm: had gm kept all of it busy all the time, this ratio;
        # and the CPU beyond the floor's parties an order 0.95 would have allowed it.
        left = [cores - r.cpu["busy"] / r.wall for r, _ in runs]
        bound = statistics.median(f.wall * c / parties(r.cpu) for (r, f), c in zip(runs, left))
        allowed = statistics.median((c * f.wall / 0.95 - parties(f.cpu)) / n for (r, f), c in zip(runs, left))
        print(f"    the floor, one client and one server taking turns, needs one core, which the busy "
              f"loop{'s' if args.busy > 1 else ''} leave{'' if args.busy > 1 else 's'} it; beside gm the busy "
              f"loop{'s' if args.busy > 1 else ''} kept {cores - statistics.median(left):.2f} of {cores} cores")
        print(f"    with the {statistics.median(left):.2f} cores left to it busy all the time, gm could reach "
              f"{bound:.2f} of the floor at best; 0.95 would need gm's CPU beyond the floor's parties "
              f"under {allowed * 1000:.2f} ms an order")
    else:
        bound = statistics.median(f.wall * cores / parties(r.cpu) for r, f in runs)
        print(f"    with all {cores} cores busy all the time, gm could reach {bound:.2f} of the floor at best")
    return [("throughput at least half the floor's", statistics.median(ratios) >= 0.5),
            ("throughput at least 0.95 of the floor's", statistics.median(ratios) >= 0.95)]


if __name__ == "__main__":
    sys.exit(main())
