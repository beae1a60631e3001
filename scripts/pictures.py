"""Draw one picture per game into docs/pictures/, for the README.

    .venv/bin/python scripts/pictures.py [DIR]      (default: docs/pictures)

Each game is set up with a fixed seed and played a few seeded random orders
through its rules (the same path gm takes), then drawn as an observer sees it
(gm.present.pictures.picture).  The same code gives the same files.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from gm.present import pictures  # noqa: E402
from gm.present.reports import OBSERVER  # noqa: E402

PLAYERS = {"fuzzy-borders": ["ada", "bob", "cy"]}
MOVES = {"neighbors": 8, "fuzzy-borders": 12, "phalanx": 10, "proximity": 10, "pivot-pawns": 3}


def position(kind: str):
    rules = registry.get(kind)
    rng = random.Random(11)
    state = rules.start(rules.setup(PLAYERS.get(kind, ["ada", "bob"]), {}, 11), 0.0)
    now = 0.0
    for _ in range(MOVES[kind]):
        if rules.is_over(state):
            break
        for player in list(rules.to_move(state)):
            text = rules.random_order(state, player, rng)
            if text and not rules.is_over(state) and player in rules.to_move(state):
                now += 60
                state = rules.submit(state, player, rules.parse_order(state, player, text), now).state
        if rules.simultaneous and not rules.is_over(state) and rules.to_move(state):
            state = rules.close_turn(state, now).state
    return rules, state


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "pictures"
    out.mkdir(parents=True, exist_ok=True)
    for kind in sorted(pictures.PAINTERS):
        rules, state = position(kind)
        (out / f"{kind}.png").write_bytes(pictures.picture(rules, state, OBSERVER))
        print(out / f"{kind}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
