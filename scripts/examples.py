"""Render one of each mail gm sends into docs/examples/, to read as a player would.

    .venv/bin/python scripts/examples.py [DIR]      (default: docs/examples)

Plays short scripted games on a fresh store in a temp dir, with a fixed clock
and seeds, through the same path as real mail (gm.service.engine.Engine.ingest
for players' mails, the GM's commands for overrides), then writes each queued
message's subject and text to DIR/<nn>-<what>.txt.  Passwords and codes come
from a seeded generator, so a rerun writes the same files.  Run it after
changing a template or a reply's words, read the result, and commit it:
tests/test_examples.py checks that docs/examples/ is what this writes now, with
no footer twice and no prose line over 78 columns.
"""

from __future__ import annotations

import email
import email.policy
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gm.core import passwords  # noqa: E402
from gm.core.config import Config  # noqa: E402
from gm.service.people import optin  # noqa: E402
from gm.service.play import lifecycle  # noqa: E402
from gm.service.engine import Engine  # noqa: E402
from gm.store import Store  # noqa: E402
from gm.store.packing import unpack_mail  # noqa: E402
from support import order_mail  # noqa: E402

PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
T0 = 1_741_000_000.0  # Mon 2025-03-03


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def last_id(engine: Engine) -> int:
    return engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")["n"]


def fixed_passwords(seed: int = 31):
    """Passwords and codes drawn from a seeded generator, so that a rerun writes the same files."""
    draw = random.Random(seed)
    return lambda length=passwords.GENERATED_LENGTH: "".join(draw.choice(passwords.ALPHABET)
                                                             for _ in range(length))


class Script:
    """The engine the examples are played on, and the steps taken: (name, first outbox id of
    that step, mails kept)."""

    def __init__(self, engine: Engine, config: Config, clock: Clock) -> None:
        self.engine, self.config, self.clock = engine, config, clock
        self.taken: list[tuple[str, int, int]] = []

    def step(self, name: str, keep: int = 2) -> None:
        self.taken.append((name, last_id(self.engine) + 1, keep))

    def mail(self, sender: str, text: str, **kw) -> None:
        self.engine.ingest(order_mail(sender, text, to=self.config.address, **kw))

    def move(self, game_id: str, secrets: dict, sender: str | None = None) -> None:
        """The first legal order of the player to move, from ``sender`` (else their address)."""
        view = self.engine.load(game_id)
        (mover,) = view.rules.to_move(view.state)
        legal = view.rules.legal_orders(view.state, mover)
        self.mail(sender or f"{mover}@example.org", legal[0], game_id=game_id, password=secrets[mover])


def neighbors_game(script: Script) -> dict:
    """A Neighbors game through its mails: moves, refusals, commands, press and deadlines."""
    engine, mail, step = script.engine, script.mail, script.step
    step("welcome")
    nb = engine.create_game("neighbors", "nb1", PLAYERS, seed=7,
                            options={"deadline": "72h", "reminder": "24h", "press": "white"})
    step("report-after-a-move")
    script.move("nb1", nb)
    step("refused-illegal-order")
    mail("bob@example.org", "a1xa1", game_id="nb1", password=nb["bob"])
    step("refused-not-your-turn")
    mail("ada@example.org", "a1xa2", game_id="nb1", password=nb["ada"])
    step("wrong-password")
    mail("bob@example.org", "b1xb2", game_id="nb1", password="guess")
    step("unknown-game")
    mail("ada@example.org", "b1xb2", game_id="zz9", password="x")  # she plays nb1: named
    step("general-help")
    mail("carol@example.net", "HELP")
    step("list")
    mail("carol@example.net", "LIST")
    step("list-one-game")
    mail("carol@example.net", "LIST nb1")
    step("summary")
    mail("ada@example.org", "SUMMARY")
    step("game-help-and-board")
    mail("bob@example.org", "HELP\nBOARD", game_id="nb1", password=nb["bob"])
    step("history")
    mail("bob@example.org", "HISTORY", game_id="nb1", password=nb["bob"])
    step("press")
    mail("bob@example.org", "PRESS TO ada\nShall we draw?\nENDPRESS", game_id="nb1", password=nb["bob"])
    step("orders-from-another-address")
    script.move("nb1", nb, sender="bob.phone@example.net")
    step("reminder")
    script.clock.now += 2 * 86400 + 3600  # into the last day before the 72 h deadline
    engine.tick()
    step("late")
    script.clock.now += 86400
    engine.tick()
    step("absence")
    mail("ada@example.org", "ABSENCE +1d +3d", game_id="nb1", password=nb["ada"])
    step("gm-overrides")
    lifecycle.broadcast(engine, "nb1", "The server moves on Friday.", who="gm:alice")
    lifecycle.change_settings(engine, "nb1", {"press": "grey"}, who="gm:alice")
    return nb


def other_games(script: Script) -> None:
    """The other games' welcomes, a simultaneous turn, and the mails of strangers and limits."""
    engine, mail, step = script.engine, script.mail, script.step
    step("fuzzy-borders-welcome")
    fb = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    step("simultaneous-sealed-order")
    mail("ada@example.org", "K11", game_id="fb1", password=fb["ada"])
    step("simultaneous-turn-judged")
    mail("bob@example.org", "M12", game_id="fb1", password=fb["bob"])
    for kind, game_id in (("phalanx", "ph1"), ("proximity", "px1"), ("pivot-pawns", "pp1")):
        step(f"{kind}-welcome")
        engine.create_game(kind, game_id, PLAYERS, seed=3)
    step("trail")
    mail("carol@example.net", "TRAIL px1")
    step("empty-mail")
    mail("carol@example.net", "")
    step("observe")
    mail("carol@example.net", "OBSERVE fb1")
    step("", keep=0)  # the answers before the last one an address gets this hour: not written
    for _ in range(script.config.error_replies_per_hour - 1):
        mail("dan@example.net", "HELP")
    step("rate-limit-notice", keep=1)
    mail("dan@example.net", "HELP")


def seats_and_end(script: Script) -> None:
    """A player removed, a seat given away, its old owner's mail, and a game ended."""
    engine, step = script.engine, script.step
    three = PLAYERS + [("cy", "cy@example.org")]
    fb2 = engine.create_game("fuzzy-borders", "fb2", three, seed=5)
    step("removed-player", keep=-3)  # the notices: to the two left, then to the one removed
    lifecycle.eject(engine, "fb2", "cy", who="gm:alice", why="no orders for a month")
    step("seat-given-away", keep=3)  # the new player's welcome, the other player, the old owner
    lifecycle.replace(engine, "fb2", "bob", "dora@example.org", who="gm:alice", why="bob asked")
    step("old-owner-mails")
    script.mail("bob@example.org", "J10", game_id="fb2", password=fb2["bob"])
    step("end")
    lifecycle.end(engine, "nb1", "the players agreed a draw", who="gm:alice")
    script.taken.append(("", last_id(engine) + 1, 0))


def write_examples(engine: Engine, taken: list[tuple[str, int, int]], out: Path) -> int:
    """Each step's first mails as text files in ``out`` (emptied first); returns how many."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    rows = engine.store.all("SELECT id, kind, raw FROM outbox ORDER BY id")
    count = 0
    n = 0
    for (name, first, keep), (_, after, _) in zip(taken, taken[1:]):
        if not keep:  # a stretch of mail not shown
            continue
        n += 1
        mails = [r for r in rows if first <= r["id"] < after]
        if keep < 0:  # the step's notices, not the reports that follow them
            mails, keep = [r for r in mails if r["kind"] != "report"], -keep
        mails = mails[:keep]  # the first of a step: usually one per player
        for m, row in enumerate(mails):
            msg = email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)
            text = (f"To: {msg['To']}\nSubject: {msg['Subject']}\n\n"
                    + msg.get_body(("plain",)).get_content())
            suffix = f"-{m + 1}" if len(mails) > 1 else ""
            (out / f"{n:02d}-{name}{suffix}.txt").write_text(text)
            count += 1
    return count


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "examples"
    passwords.generate = optin.generate = fixed_passwords()  # passwords and codes; this process only
    tmp = Path(tempfile.mkdtemp(prefix="gm-examples-"))
    clock = Clock()
    config = Config(data_dir=tmp, address="gm@example.org", gm_address="gm-human@example.org")
    engine = Engine(Store(config.database), config, clock=clock)
    script = Script(engine, config, clock)
    neighbors_game(script)
    other_games(script)
    seats_and_end(script)
    count = write_examples(engine, script.taken, out)
    engine.store.close()
    shutil.rmtree(tmp)
    print(f"{count} mails written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
