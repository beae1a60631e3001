"""What one password check costs: a generated password's hash against a chosen one's.

    .venv/bin/python benchmarks/password_cost.py [--repeat 20]

Times gm.core.passwords.verify on a hash made for a generated password
(scrypt N=2^10, r=8) and one made for a chosen password (N=2^15, r=8), the
median of --repeat checks each; then a whole BOARD mail ingested in pipe mode
(`gm ingest`: a new process a mail, so no remembered success) with each kind
of password, the median of --repeat mails each.

Last run (this 2-core machine, shared with other jobs): one check 1.8 ms
generated, 91 ms chosen (75 ms on a quiet run); a BOARD mail in pipe mode
9.6 ms with a generated password, 93 ms with a chosen one.  The daemon checks a password once per process and remembers
the success (gm.service.auth), so there only the first mail pays.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the test helpers (no conftest)

from support import EXAMPLE_LAYOUT, Clock, order_mail  # noqa: E402

from gm.core import passwords  # noqa: E402
from gm.core.config import Config  # noqa: E402
from gm.service.auth import PasswordChecker  # noqa: E402
from gm.service.engine import Engine  # noqa: E402
from gm.store import Store  # noqa: E402

CHOSEN = "corvid-lantern-77"


def median_ms(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    generated = passwords.generate()
    hashes = {"generated": (generated, passwords.hash_password(generated)),
              "chosen": (CHOSEN, passwords.hash_chosen(CHOSEN))}
    for kind, (password, stored) in hashes.items():
        print(f"one check, {kind} (N={passwords.cost(stored)}): "
              f"{median_ms(lambda: passwords.verify(password, stored), args.repeat):.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(data_dir=Path(tmp) / "gm-data", address="gm@localhost")
        store = Store(config.database)
        engine = Engine(store, config, clock=Clock())
        secrets = engine.create_game("neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "bob@example.org")],
                                     seed=5, options={"layout": EXAMPLE_LAYOUT})
        with store.write():
            store.seats.rehash_seat_password("nb1", "bob", passwords.hash_chosen(CHOSEN))
        for kind, sender, password in (("generated", "ada@example.org", secrets["ada"]),
                                       ("chosen", "bob@example.org", CHOSEN)):
            def one_mail():
                engine.passwords = PasswordChecker()  # pipe mode: a new process, nothing remembered
                outcome = engine.ingest(order_mail(sender, "BOARD", game_id="nb1", password=password))
                assert outcome.outcome == "help", outcome.detail
            print(f"a BOARD mail in pipe mode, {kind} password: {median_ms(one_mail, args.repeat):.1f} ms")
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
