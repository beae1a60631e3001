"""How fast the Pivot Pawns solver is.  Run: python benchmarks/solver.py [--tokens N]

Prints, for each target token measured:

* the time to build the full distance table: the fewest pivots for all
  360,360 placements of the five pawns at once (backward search);
* per-round times of the forward solver (what a round's close uses) over
  random placements, and over the hardest placements the table names
  (the deepest solvable ones and unsolvable ones).

Speed targets live here and nowhere in the timed tests.  The exit status is
1 when a target is missed.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.pivot_pawns import deck, solver  # noqa: E402

ROUND_TARGET = 0.25  # seconds: a round must be answered in well under a second
TABLE_TARGET = 10.0  # seconds: the distance table for all 360,360 placements


def timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=3, help="target tokens to measure (1..15)")
    parser.add_argument("--rounds", type=int, default=500, help="random placements per token")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    placements = list(itertools.permutations(range(deck.CARDS), 5))
    tokens = deck.TOKENS[: max(1, min(args.tokens, 15))]
    worst_round = worst_table = 0.0
    print(f"{len(placements):,} placements; {len(tokens)} token(s); {args.rounds} random rounds each")
    for token in tokens:
        active, target = deck.ICON_COLOUR[token], deck.target_card(token)
        table, table_time = timed(solver.distance_table, active, target)
        worst_table = max(worst_table, table_time)
        depth = {}
        for cards in placements:
            value = table[solver.pack(cards)]
            depth.setdefault(value, []).append(cards)
        deepest = max(v for v in depth if v != solver.UNREACHABLE)
        unsolvable = depth.get(solver.UNREACHABLE, [])
        spread = ", ".join(
            f"{'none' if v == solver.UNREACHABLE else v}:{len(depth[v])}" for v in sorted(depth)
        )
        print(f"\ntoken {deck.icon_label(token)}: table for all placements {table_time:.2f} s")
        print(f"  placements by fewest pivots: {spread}")
        samples = {
            "random": [tuple(rng.sample(range(15), 5)) for _ in range(args.rounds)],
            f"deepest ({deepest})": rng.sample(depth[deepest], min(args.rounds, len(depth[deepest]))),
            "unsolvable": rng.sample(unsolvable, min(args.rounds, len(unsolvable))),
        }
        for name, group in samples.items():
            if not group:
                continue
            times = []
            for cards in group:
                found, seconds = timed(solver.solve, cards, active, target)
                expected = table[solver.pack(cards)]
                assert (solver.UNREACHABLE if found is None else len(found)) == expected
                times.append(seconds)
            worst_round = max(worst_round, max(times))
            print(
                f"  per round, {name:>12}: mean {statistics.mean(times) * 1000:7.2f} ms,"
                f" max {max(times) * 1000:7.2f} ms over {len(times)}"
            )
    print()
    ok = True
    for label, value, target in (
        ("slowest round", worst_round, ROUND_TARGET),
        ("slowest full table", worst_table, TABLE_TARGET),
    ):
        verdict = "ok" if value <= target else "TOO SLOW"
        ok &= value <= target
        print(f"{label}: {value:.3f} s (target {target} s) {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
