"""Walk the calls of one order mail's judging: which modules it stays in, in order.

    .venv/bin/python scripts/walk_calls.py [--game neighbors|pivot_pawns] [--all]

Makes a SQLite store in a temp dir with a started two-player game, judges one
order mail (untraced, so every module is imported), then judges the next
player's order mail through gm.service.intake.ingest.ingest under
sys.setprofile.  Consecutive frames in one module make one stay; a return is a
stay in a module the walk had left before.  By default the rooms are the
gm.service modules, and a call below them (gm.store, gm.core, gm.mail,
gm.present, games) is a leaf of the stay that made it; --all counts every gm
and games module as a room.  Prints the walk, the number of stays, of distinct
modules and of returns, and each return with the function it came back to.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gm.core.config import Config  # noqa: E402
from gm.service.engine import Engine  # noqa: E402
from gm.service.intake import ingest  # noqa: E402
from gm.store import Store  # noqa: E402
from support import Clock, order_mail  # noqa: E402

SCOPE = ("gm.", "games.")
SERVICE = "gm.service."
PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
APPLY_ORDER = "gm.service.play.turns.apply_order"


@dataclass
class Stay:
    """Consecutive calls in one module: the module, the function it began in, how it began
    ("call": called from the stay before; "back": a callee returned to it), the leaves it called."""
    module: str
    function: str
    how: str = "call"
    leaves: list[str] = field(default_factory=list)


@dataclass
class Walk:
    stays: list[Stay]

    @property
    def modules(self) -> list[str]:
        return list(dict.fromkeys(s.module for s in self.stays))

    def returns(self) -> list[tuple[int, Stay]]:
        """(index, stay) of each stay in a module the walk had been in and left."""
        seen: set[str] = set()
        back = []
        for k, stay in enumerate(self.stays):
            if stay.module in seen:
                back.append((k, stay))
            seen.add(stay.module)
        return back

    def returns_per_module(self, how: str | None = None) -> Counter:
        """Returns per module (``how``: only those begun so, "call" or "back")."""
        return Counter(stay.module for _, stay in self.returns() if how in (None, stay.how))

    def under(self, function: str) -> Walk:
        """The part of the walk from the first stay begun by a call of ``function`` (module.name,
        e.g. "gm.service.play.turns.apply_order") until the walk is back in the stay that called it."""
        module, _, name = function.rpartition(".")
        first = next(k for k, s in enumerate(self.stays)
                     if s.module == module and s.function == name and s.how == "call")
        caller = self.stays[first - 1].module if first else None
        last = next((k for k in range(first + 1, len(self.stays))
                     if self.stays[k].module == caller and self.stays[k].how == "back"), len(self.stays))
        return Walk(self.stays[first:last])


def short(module: str) -> str:
    """gm.service.play.turns -> play/turns; games.neighbors.rules -> games/neighbors/rules."""
    name = module.removeprefix(SERVICE).removeprefix("gm.")
    return name.replace(".", "/")


class Tracer:
    """A profile function that keeps one entry per Python frame: (room, function, leaf)."""

    def __init__(self, service_only: bool):
        self.service_only = service_only
        self.stack: list[tuple[str | None, str, str | None]] = []
        self.stays: list[Stay] = []

    def room_of(self, module: str) -> bool:
        return module.startswith(SERVICE) if self.service_only else module.startswith(SCOPE)

    def __call__(self, frame, event, arg) -> None:
        if event == "call":
            self.enter(frame)
        elif event == "return" and self.stack:
            self.stack.pop()
            if self.stack:
                self.note(*self.stack[-1], how="back")

    def enter(self, frame) -> None:
        module = frame.f_globals.get("__name__", "")
        room, function, leaf = self.stack[-1] if self.stack else (None, "", None)
        if self.room_of(module):
            room, function, leaf = module, frame.f_code.co_qualname, None
        elif module.startswith(SCOPE) and leaf is None and room is not None:
            leaf = module
        self.stack.append((room, function, leaf))
        self.note(room, function, leaf)

    def note(self, room: str | None, function: str, leaf: str | None, how: str = "call") -> None:
        if room is None:
            return
        if not self.stays or self.stays[-1].module != room:
            self.stays.append(Stay(room, function, how))
        if leaf is not None and leaf not in self.stays[-1].leaves:
            self.stays[-1].leaves.append(leaf)


def trace(call, service_only: bool = True) -> tuple[object, Walk]:
    """``call()``'s result and the walk of its calls."""
    tracer = Tracer(service_only)
    sys.setprofile(tracer)
    try:
        result = call()
    finally:
        sys.setprofile(None)
    return result, Walk(tracer.stays)


def order_for(engine: Engine, game_id: str, secrets: dict[str, str]) -> bytes:
    """A legal order mail of the player to move (the first of their legal orders)."""
    view = engine.load(game_id)
    name = view.rules.to_move(view.state)[0]
    legal = view.rules.legal_orders(view.state, name)
    if not legal:
        raise SystemExit(f"{view.rules.kind}: its rules list no legal orders to draw one from")
    order = legal[0]
    return order_mail(dict(PLAYERS)[name], order, game_id=game_id, password=secrets[name])


def judged_walk(folder: Path, game: str = "neighbors", service_only: bool = True):
    """(outcome, walk) of the second order mail judged in a new game of ``game``."""
    config = Config(data_dir=folder / "gm-data", address="gm@example.test")
    store = Store(config.database)
    try:
        engine = Engine(store, config, clock=Clock())
        secrets = engine.create_game(game, "g1", PLAYERS, seed=3)
        first = engine.ingest(order_for(engine, "g1", secrets))
        assert first.outcome in {"applied", "sealed"}, first
        engine.clock.advance(60)
        raw = order_for(engine, "g1", secrets)
        return trace(lambda: ingest.ingest(engine, raw), service_only)
    finally:
        store.close()


def show(walk: Walk, title: str, out=sys.stdout) -> None:
    print(f"== {title}", file=out)
    for k, stay in enumerate(walk.stays, 1):
        leaves = f"  [{', '.join(short(m) for m in stay.leaves)}]" if stay.leaves else ""
        arrow = "<-" if stay.how == "back" else "->"
        print(f"{k:3d} {arrow} {short(stay.module)}  {stay.function}{leaves}", file=out)
    back = walk.returns()
    again = [r for r in back if r[1].how == "call"]
    print(f"\nstays: {len(walk.stays)}  modules: {len(walk.modules)}  returns: {len(back)} "
          f"(back to a caller: {len(back) - len(again)}, called again: {len(again)})", file=out)
    for k, stay in back:
        kind = "called again" if stay.how == "call" else "back to caller"
        print(f"  return at stay {k + 1} ({kind}): {short(stay.module)}.{stay.function}", file=out)
    for how, label in ((None, "returns"), ("call", "called again")):
        per = walk.returns_per_module(how)
        if per:
            print(f"{label} per module: " + ", ".join(f"{short(m)} {n}" for m, n in per.most_common()),
                  file=out)
    print(file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="neighbors", help="the game's kind (default neighbors)")
    parser.add_argument("--all", action="store_true",
                        help="every gm and games module is a room (default: gm.service modules)")
    parser.add_argument("--under", default=APPLY_ORDER,
                        help=f"also show the walk under this function (default {APPLY_ORDER}; '' for none)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gm-walk-") as folder:
        outcome, walk = judged_walk(Path(folder), args.game, service_only=not args.all)
    rooms = "all gm and games modules" if args.all else "gm.service modules"
    print(f"judged: {outcome.outcome} ({args.game}; rooms: {rooms}; -> called, <- back from a callee)\n")
    show(walk, "from gm.service.intake.ingest.ingest")
    if args.under:
        show(walk.under(args.under), f"under {args.under}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
