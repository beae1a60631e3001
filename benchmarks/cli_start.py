"""How soon a gm command answers: wall time of one process, against `python -c "import typer"`.

    python benchmarks/cli_start.py [--runs 9] [--games 100]

Each command runs --runs times as a fresh process (the venv's ``gm`` command
on this tree: PYTHONPATH is the tree), timed from spawn to exit, each time
right after the floor, ``python -c "import typer"`` (the CLI framework
alone), so each pair sees the machine at the same speed: a virtual CPU's
speed drifts by half within a minute, which the best of each taken apart
cannot see.  The target is held on the median of the pairs' ratios
("paired"); printed beside it: the best wall time, its ratio to the best
floor, and the ratio of the best CPU times (user + system), which a machine
busy with other work moves far less than the wall time:

- ``gm --version``                                  <= 1.3x
- ``gm list``, ``gm show g0`` (a store of --games games)  <= 2x
- ``gm status``                                     <= 2x
- ``gm ingest`` of an order mail to a seat's reply address (no password)  <= 2.5x
  (judged, its reports rendered and queued; their pictures are drawn by the sending pass,
  gm.service.outgoing.later, which is not timed here)
- ``gm ingest`` of a stranger's HELP                <= 1.5x

The store: --games Neighbors games made by Engine.create_game (each run of
the script makes its own).  Every ingest is of a new mail: the orders are a
legal first order of another game each time, the HELP mails come from
another stranger each time (so no rate limit bites).  Bytecode is written
once (a first, uncounted run of each command) to a cache of its own, as an
installed gm has it; the config is validated once, when the store is made,
and read back from its cache after (gm.core.config), as every command but a
GM's first after an edit reads it.  Exit status 1 if a target is missed (on
the paired ratio of the wall times).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the test helpers (no conftest)

from gm.core import config as config_module  # noqa: E402
from gm.service.engine import Engine  # noqa: E402
from gm.store import Store  # noqa: E402
from support import GM_ADDRESS, order_mail  # noqa: E402

GM = str(Path(sys.executable).with_name("gm"))
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = str(ROOT)
ENV["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "gm-cli-start-pycache")

TARGETS = {"gm --version": 1.3, "gm list": 2.0, "gm show": 2.0, "gm status": 2.0,
           "gm ingest (order by reply token)": 2.5, "gm ingest (stranger's HELP)": 1.5}


class Table:
    """A store of ``games`` games, and a fresh mail for each ingest run."""

    def __init__(self, folder: Path, games: int):
        self.conf = folder / "gm.yaml"
        self.conf.write_text(f"data_dir: {folder / 'gm-data'}\naddress: {GM_ADDRESS}\n")
        config = config_module.load(self.conf)
        self.engine = Engine(Store(config.database), config)
        self.games = [f"g{k}" for k in range(games)]
        for k, game_id in enumerate(self.games):
            self.engine.create_game("neighbors", game_id, [(n, f"{n}.{game_id}@example.org") for n in ("ada", "bob")],
                                    seed=k)
        self.orders_made = 0
        self.helps_made = 0

    def order(self) -> bytes:
        """The mover of the next game, replying to its seat's reply address with a legal order."""
        game_id = self.games[self.orders_made % len(self.games)]
        self.orders_made += 1
        view = self.engine.load(game_id)
        (mover,) = view.rules.to_move(view.state)
        sender = f"{mover}.{game_id}@example.org"
        reply_to = self.engine.outbox.tokens.reply_to(game_id, sender)
        return order_mail(sender, view.rules.legal_orders(view.state, mover)[0], to=reply_to,
                          subject=f"Re: [{game_id}] Neighbors report")

    def help(self) -> bytes:
        self.helps_made += 1
        return order_mail(f"stranger{self.helps_made}@example.net", "HELP", subject="help")


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(argv: list[str], stdin: bytes = b"", expect: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """(wall, CPU) seconds of one process running ``argv`` (the CPU of the child it waited for)."""
    cpu, start = children_cpu(), time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, env=ENV)
    took = time.perf_counter() - start
    if done.returncode not in expect:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return took, children_cpu() - cpu


FLOOR = "python -c 'import typer'"


def measures(table: Table) -> dict[str, tuple]:
    """name -> (argv, a function giving the mail on stdin or None, the exit codes it may give)."""
    conf = ["--config", str(table.conf)]
    return {
        FLOOR: ([sys.executable, "-c", "import typer"], None, (0,)),
        "gm --version": ([GM, "--version"], None, (0,)),
        "gm list": ([GM, *conf, "list"], None, (0,)),
        "gm show": ([GM, *conf, "show", "g0"], None, (0,)),
        "gm status": ([GM, *conf, "status"], None, (0, 1)),  # 1: no daemon alive (unhealthy)
        "gm ingest (order by reply token)": ([GM, *conf, "ingest", "-"], table.order, (0,)),
        "gm ingest (stranger's HELP)": ([GM, *conf, "ingest", "-"], table.help, (0,)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-cli-start-") as tmp:
        started = time.perf_counter()
        table = Table(Path(tmp), args.games)
        print(f"store of {args.games} games made in {time.perf_counter() - started:.1f} s")
        plan = measures(table)
        floor_argv = plan.pop(FLOOR)[0]
        best = {name: float("inf") for name in [FLOOR, *plan]}
        best_cpu = dict(best)
        paired: dict[str, list[float]] = {name: [] for name in plan}
        for run in range(args.runs + 1):  # the first run writes the bytecode: not counted
            for name, (argv, mail, expect) in plan.items():
                floor, floor_cpu = timed(floor_argv)
                took, cpu = timed(argv, mail() if mail else b"", expect)
                if run:
                    paired[name].append(took / floor)
                    for key, wall, used in ((FLOOR, floor, floor_cpu), (name, took, cpu)):
                        best[key], best_cpu[key] = min(best[key], wall), min(best_cpu[key], used)
        table.engine.store.close()
    floor, floor_cpu = best.pop(FLOOR), best_cpu.pop(FLOOR)
    print(f"floor, {FLOOR}: {floor * 1000:.0f} ms, CPU {floor_cpu * 1000:.0f} ms "
          f"(best of {args.runs * len(plan)})")
    print(f"{'':<34} {'paired':>7} {'best':>7} {'ratio':>6} {'target':>9}   {'CPU':>9} {'ratio':>6}")
    missed = 0
    for name, took in best.items():
        ratio, target = statistics.median(paired[name]), TARGETS[name]
        missed += ratio > target
        print(f"{name:<34} {ratio:6.2f}x {took * 1000:4.0f} ms {took / floor:5.2f}x {f'<= {target}x':>9}   "
              f"{best_cpu[name] * 1000:6.0f} ms {best_cpu[name] / floor_cpu:5.2f}x"
              + ("" if ratio <= target else "  MISSED"))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
