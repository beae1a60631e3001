"""gm's CPU per order through the Maildirs, in reference units (the one metric).

    .venv/bin/python benchmarks/cpu_per_order.py [--games 100] [--rounds 2] [--seed 1] [--keep DIR]

--games Neighbors games for two players (ada.gN, bob.gN @example.org) are made
in this process with Engine.create_game on a fresh SQLite store under a temp
dir (the default config: inbox and outbox Maildirs), and one `gm run --once`
sends the welcomes into the outbox Maildir; one round is played, uncounted (see
GM_ENV: bytecode).  Then, --rounds rounds with HTML
reports (the default format), every player mails SET FORMAT TEXT (one
unmeasured `gm run --once` judges those), and --rounds rounds with text.

A round: the player to move in every game replies to the last mail gm sent
them, To its Reply-To (the seat's reply-token address: no PASSWORD line, so no
password hash to check -- the common path), with a legal order drawn from
games.neighbors' legal_orders; the mails go into the inbox Maildir's new/; one
`gm run --once` subprocess judges the round and writes the reports to the
outbox Maildir.  Right before it, a `gm run --once` with an empty inbox runs
(imports, opening the store, the tick, the outbox pump: the cost of starting).

gm's CPU per order = (user+sys of the round's run - that of the empty run) /
orders, each from os.wait4's rusage of that subprocess (its reaped children
counted).  The reference unit, measured in the same run: the stdlib email
package (policy=default) reading each order mail of the round and reading and
re-writing (``as_bytes()``) each mail gm sent in the round, per order, the
CPU time of that loop (time.process_time, best of 3 passes).  Printed per
round and per format (the sums over the format's rounds): ms and units, KB sent
per order, and the peak RSS (ru_maxrss) of the judging run (its own: see LAUNCHER).

Targets: HTML <= 0.53 units, text <= 1.0 unit; printed as
ratios, never asserted.  CPU time moves less than wall time with the machine's
other load, but a shared machine still moves it by some percent: run it 3 times.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the test helpers (no conftest)

from gm.core import config as config_module  # noqa: E402
from gm.runtime.maildir import ensure_maildir  # noqa: E402
from gm.service.engine import Engine  # noqa: E402
from gm.store import Store  # noqa: E402
from support import GM_ADDRESS, order_mail  # noqa: E402

GM = str(ROOT / ".venv" / "bin" / "gm")
TARGETS = {"html": 0.53, "text": 1.0}
# gm as installed runs from compiled bytecode (pip compiles at install; Python writes it at first
# import).  Where PYTHONDONTWRITEBYTECODE is set, every `gm run --once` would compile its modules
# from source again, and the modules only a round imports (pictures, rendering) would count as
# the round's work: 1-2 ms an order of compile() in the profile.  So the runs write bytecode, to
# a cache of their own (nothing written in the source tree), and one round goes first, uncounted.
GM_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
GM_ENV["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "gm-cpu-per-order-pycache")


@dataclass
class Run:
    cpu: float  # user + sys seconds, its reaped children included
    sys: float  # of which in the kernel (file writes, fsync)
    maxrss_kb: int


@dataclass
class Round:
    orders: int
    gm_cpu: float  # seconds beyond the empty run
    gm_sys: float  # of which in the kernel
    unit_cpu: float  # the reference loop's seconds
    sent_bytes: int
    maxrss_kb: int


# A child's ru_maxrss counts the memory of the process it was forked from: Linux keeps the larger
# of the RSS the forked copy had before its execve and the program's own.  Forked from this process
# (the store, the engine, every mail read: 60-70 MB by the text rounds), `gm run --once` would show
# this process's size where it is the larger.  So a small launcher (an interpreter with no site
# packages, about 10 MB) forks gm and reports gm's own rusage: CPU (its reaped children counted)
# and peak RSS.
LAUNCHER = """import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, u = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {u.ru_utime} {u.ru_stime} {u.ru_maxrss}")
"""


def gm_once(conf: Path, profile: Path | None = None) -> Run:
    """One `gm run --once` subprocess (under cProfile, writing ``profile``, if given); its CPU and
    peak RSS from os.wait4, taken by LAUNCHER."""
    under = [sys.executable, "-m", "cProfile", "-o", str(profile)] if profile else []
    with tempfile.NamedTemporaryFile("r", prefix="gm-rusage-") as report:
        subprocess.run([sys.executable, "-S", "-c", LAUNCHER, report.name,
                        *under, GM, "--config", str(conf), "run", "--once"], env=GM_ENV, check=True)
        code, utime, stime, maxrss = report.read().split()
    if int(code):
        raise SystemExit(f"gm run --once exited with {code}")
    return Run(float(utime) + float(stime), float(stime), int(maxrss))


class Table:
    """The store, the Maildirs, and the last Reply-To gm gave each player."""

    def __init__(self, folder: Path, games: int, seed: int):
        self.conf = folder / "gm.yaml"
        self.conf.write_text(f"data_dir: {folder / 'gm-data'}\naddress: {GM_ADDRESS}\n")
        self.config = config_module.load(self.conf)
        self.engine = Engine(Store(self.config.database), self.config)
        self.inbox = ensure_maildir(Path(self.config.inbox))
        self.outbox = ensure_maildir(Path(self.config.outbox))
        self.games = [f"g{k}" for k in range(games)]
        self.rng = random.Random(seed)
        self.seen: set[str] = set()
        self.reply_to: dict[str, str] = {}  # player address -> the Reply-To of gm's last mail to it
        self.count = 0
        for k, game_id in enumerate(self.games):
            self.engine.create_game("neighbors", game_id, [(n, self.address(n, game_id)) for n in ("ada", "bob")],
                                    seed=seed + k)

    @staticmethod
    def address(name: str, game_id: str) -> str:
        return f"{name}.{game_id}@example.org"

    def deliver(self, raw: bytes) -> None:
        self.count += 1
        name = f"{self.count:06d}.bench"
        (self.inbox / "tmp" / name).write_bytes(raw)
        os.replace(self.inbox / "tmp" / name, self.inbox / "new" / name)

    def collect_sent(self) -> list[bytes]:
        """The mails gm wrote to the outbox since the last call (envelope line removed); notes each
        recipient's Reply-To."""
        sent = []
        for path in sorted((self.outbox / "new").iterdir()):
            if path.name in self.seen:
                continue
            self.seen.add(path.name)
            envelope, _, raw = path.read_bytes().partition(b"\r\n")
            sent.append(raw)
            headers = email.message_from_bytes(raw.split(b"\r\n\r\n", 1)[0], policy=email.policy.default)
            if headers["Reply-To"]:
                self.reply_to[envelope.split(b":", 1)[1].strip().decode()] = str(headers["Reply-To"])
        return sent

    def reply(self, name: str, game_id: str, text: str) -> bytes:
        sender = self.address(name, game_id)
        return order_mail(sender, text, to=self.reply_to[sender], subject=f"Re: [{game_id}] Neighbors report")

    def orders(self) -> list[bytes]:
        """Each game's mover replies with a legal order (games that are over sit the round out)."""
        mails = []
        for game_id in self.games:
            view = self.engine.load(game_id)
            if view.rules.is_over(view.state) or view.row["status"] != "active":
                continue
            (mover,) = view.rules.to_move(view.state)
            mails.append(self.reply(mover, game_id, self.rng.choice(view.rules.legal_orders(view.state, mover))))
        return mails


def reference_cpu(orders: list[bytes], sent: list[bytes]) -> float:
    """CPU seconds of the stdlib reading the order mails and reading and re-writing the sent ones
    (best of 3 passes: the least disturbed by the machine's other load)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for raw in orders:
            email.message_from_bytes(raw, policy=email.policy.default)
        for raw in sent:
            email.message_from_bytes(raw, policy=email.policy.default).as_bytes()
        best = min(best, time.process_time() - start)
    return best


def play_round(table: Table, profile: Path | None = None) -> Round:
    empty = gm_once(table.conf)
    mails = table.orders()
    for raw in mails:
        table.deliver(raw)
    judged = gm_once(table.conf, profile)
    sent = table.collect_sent()
    done = [r["outcome"] for r in table.engine.store.all(
        "SELECT outcome FROM messages ORDER BY id DESC LIMIT ?", len(mails))]
    if done.count("applied") != len(mails):
        raise SystemExit(f"not every order applied: {sorted(set(done))}")
    return Round(len(mails), judged.cpu - empty.cpu, judged.sys - empty.sys, reference_cpu(mails, sent),
                 sum(map(len, sent)), judged.maxrss_kb)


def set_text_format(table: Table) -> None:
    for game_id in table.games:
        for name in ("ada", "bob"):
            table.deliver(table.reply(name, game_id, "SET FORMAT TEXT"))
    gm_once(table.conf)
    table.collect_sent()


def show(label: str, rounds: list[Round]) -> dict[str, float]:
    orders = sum(r.orders for r in rounds)
    gm_ms = sum(r.gm_cpu for r in rounds) / orders * 1000
    unit_ms = sum(r.unit_cpu for r in rounds) / orders * 1000
    sys_ms = sum(r.gm_sys for r in rounds) / orders * 1000
    figures = {"gm_ms": gm_ms, "sys_ms": sys_ms, "unit_ms": unit_ms, "units": gm_ms / unit_ms,
               "kb": sum(r.sent_bytes for r in rounds) / orders / 1024,
               "rss_mb": max(r.maxrss_kb for r in rounds) / 1024}
    per_round = ", ".join(f"{r.gm_cpu / r.orders * 1000:.2f} ms" for r in rounds)
    print(f"{label}: gm {gm_ms:.2f} ms an order (rounds: {per_round}; {sys_ms:.2f} ms of it in the kernel), "
          f"reference unit {unit_ms:.2f} ms, "
          f"{figures['units']:.2f} units (target <= {TARGETS[label]}); {figures['kb']:.1f} KB sent an order; "
          f"peak RSS {figures['rss_mb']:.1f} MB", flush=True)
    return figures


def profiled(table: Table, prefix: Path | None, label: str) -> None:
    if prefix is not None:
        path = prefix.with_name(f"{prefix.name}-{label}.prof")
        play_round(table, path)
        print_profile(path)


def print_profile(path: Path, top: int = 15) -> None:
    for order in ("cumulative", "tottime"):
        print(f"--- {path.name}: top {top} by {order}", flush=True)
        pstats.Stats(str(path)).strip_dirs().sort_stats(order).print_stats(top)
        sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2, help="rounds in each format")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="build in this (empty) folder and leave it there")
    parser.add_argument("--profile", type=Path, help="after each format's rounds, one more round (not counted) "
                        "judged under cProfile; its stats written to PROFILE-html.prof, PROFILE-text.prof and printed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gm-cpu-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        began = time.time()
        table = Table(folder, args.games, args.seed)
        gm_once(table.conf)  # the welcomes
        table.collect_sent()
        play_round(table)  # uncounted: bytecode written, files cached
        print(f"{args.games} games made, welcomed and a round played in {time.time() - began:.1f} s", flush=True)
        html = show("html", [play_round(table) for _ in range(args.rounds)])
        profiled(table, args.profile, "html")
        set_text_format(table)
        text = show("text", [play_round(table) for _ in range(args.rounds)])
        profiled(table, args.profile, "text")
    ok = html["units"] <= TARGETS["html"] and text["units"] <= TARGETS["text"]
    print("targets met" if ok else "a target missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
