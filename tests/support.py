"""Helpers shared by every test area and the benchmarks (imported as ``support``).

pytest puts ``tests/`` on sys.path (it holds the root conftest); a benchmark
puts it there itself.  Fixtures live in the conftest files, never here.
"""

from __future__ import annotations

import email
import gc
import json
import time
import email.message
import email.policy
import email.utils
import uuid
from pathlib import Path

from gm.store.packing import LEVEL, STATE_LEVEL, UTF8, legacy_packed, pack_text, unpack_mail, unpack_text

EML = Path(__file__).parent / "fixtures" / "eml"

# The position of the Neighbors rule text's example, before Rb4xd4 (ada to move).
EXAMPLE_LAYOUT = "....F.." "...F..." ".R.N.B." "......." ".F.Q.Q." "......."

GM_ADDRESS = "gm@example.test"
BACKENDS = ["sqlite", "postgresql"]  # the store's back ends (the fixtures store_target and config)
PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
PLAYERS3 = PLAYERS + [("cy", "cy@example.org")]


# A test proves work linear (no regex backtracking on a long line, no rescan per line) by
# giving it an input four times larger: linear work then costs about 4 times the CPU, quadratic
# 16 times, a backtracking regex far more.  Twice the linear figure leaves room for noise.
LINEAR_4X = 8.0
CPU_FLOOR = 0.002  # seconds: less CPU than this is noise, not a measure (a quick refusal)


def cpu_seconds(run, arg, repeat: int = 3) -> float:
    """This thread's CPU time for ``run(arg)``, the best of ``repeat``.  Not the wall clock: other
    processes on a busy machine hardly change it (speed targets belong in benchmarks/)."""
    return best_cpu_seconds(run, [arg], repeat)[0]


def growth(run, small, large, repeat: int = 5) -> float:
    """How many times more CPU ``run(large)`` takes than ``run(small)`` (at least CPU_FLOOR each)."""
    took_small, took_large = best_cpu_seconds(run, [small, large], repeat)
    return max(took_large, CPU_FLOOR) / max(took_small, CPU_FLOOR)


def best_cpu_seconds(run, args: list, repeat: int) -> list[float]:
    """The best of ``repeat`` CPU times of ``run(arg)`` for each of ``args``, run in turns (each arg
    once a round), so a machine that slows down meanwhile (a virtual CPU's share, its clock)
    slows each alike.  The garbage collector is held off: late in a whole test run, a collection
    of the session's heap landing in one run would be counted as that run's cost."""
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        best = [float("inf")] * len(args)
        for _ in range(repeat):
            for k, arg in enumerate(args):
                began = time.thread_time()
                run(arg)
                best[k] = min(best[k], time.thread_time() - began)
    finally:
        if collecting:
            gc.enable()
    return best


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def order_mail(sender: str, text: str, *, game_id: str | None = None, password: str | None = None,
               to: str = GM_ADDRESS, subject: str = "orders", **headers: str) -> bytes:
    """A player's mail to the GM, as bytes: the one way the tests write an order mail.

    With ``game_id`` the body is ``GAME <game_id> PASSWORD <password>`` and then
    ``text`` on the lines after it; without, ``text`` is the whole body.  Extra
    headers are given as keywords, ``_`` standing for ``-`` (``In_Reply_To=...``).
    """
    msg = email.message.EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate()
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@example.org>"
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(text if game_id is None else f"GAME {game_id} PASSWORD {password}\n{text}\n")
    return bytes(msg)


def eml(name: str, **values: str) -> bytes:
    """A mail from tests/fixtures/eml with its {GAME}, {PASSWORD}, ... filled in."""
    raw = (EML / name).read_bytes()
    for key, value in values.items():
        raw = raw.replace(("{%s}" % key.upper()).encode(), value.encode())
    return raw


def players_for(rules, rng) -> list[str]:
    """Two to four players (as many as the game takes), drawn with ``rng``."""
    low = max(rules.min_players, 2) if rules.max_players >= 2 else rules.min_players
    count = rng.randint(low, min(rules.max_players, 4))
    return ["ada", "bob", "cy", "dee"][:count]


def ahead(engine, game_id: str, texts: list[str]) -> tuple[str, list[str]]:
    """(the player to move, their legal orders) once ``texts`` are played from the game as it is."""
    view = engine.load(game_id)
    rules, state = view.rules, view.state
    for text in texts:
        (mover,) = rules.to_move(state)
        state = rules.submit(state, mover, rules.parse_order(state, mover, text), 0).state
    (mover,) = rules.to_move(state)
    return mover, rules.legal_orders(state, mover)


def play_game(engine, kind: str, game_id: str, seed: int, max_steps: int = 4000) -> list[str]:
    """Play a game through the service (gm order, gm process) with random legal orders, for at
    most ``max_steps`` rounds or to its end; returns the players' names."""
    import random

    from games import registry

    rules = registry.get(kind)
    rng = random.Random(seed)
    names = players_for(rules, rng)
    engine.create_game(kind, game_id, [(n, f"{n}@example.org") for n in names], seed=seed)
    for _ in range(max_steps):
        loaded = engine.load(game_id)
        if rules.is_over(loaded.state):
            break
        for player in rules.to_move(loaded.state):
            text = rules.random_order(engine.load(game_id).state, player, rng)
            if text is None:
                continue
            outcome = engine.gm_order(game_id, player, text)
            assert outcome.outcome in {"applied", "sealed"}, outcome.detail
            if not rules.simultaneous:
                break
        loaded = engine.load(game_id)
        if rules.simultaneous and not rules.is_over(loaded.state) and loaded.row["status"] == "active":
            if rules.turn(loaded.state) == rules.turn(engine.load(game_id).state):
                engine.process(game_id)
    return names


def outbox(engine, since_id: int = 0) -> list[email.message.EmailMessage]:
    rows = engine.store.all("SELECT raw FROM outbox WHERE id > :since ORDER BY id", since=since_id)
    return [email.message_from_bytes(unpack_mail(r["raw"]), policy=email.policy.default) for r in rows]


def last_outbox_id(engine) -> int:
    row = engine.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")
    return row["n"]


def body(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def mark_all_sent(engine) -> None:
    """As the sender thread would: every queued mail handed to the server.  A player whose turn
    report (or welcome) is still queued is never forfeited (gm.service.outgoing.outages)."""
    with engine.store.write():
        for row in engine.store.all("SELECT id FROM outbox WHERE status = 'queued'"):
            engine.store.outbox.mark_sent(row["id"], engine.clock(), 1)


# --- a store as gm wrote it before schema steps 21 and 22 (packed texts without their packing) ---
def packed_as_before(text: str, level: int = LEVEL) -> str | bytes:
    """A packed text as gm stored it before steps 21 and 22: the text, or its zlib bytes when long."""
    packed, packing = pack_text(text, level)
    return packed.decode("utf-8") if packing == UTF8 else packed


def read_as_before(value) -> str:
    """A packed column's value as written before steps 21 and 22, read as that gm read it."""
    return unpack_text(*legacy_packed(value))


def write_states_as_before(monkeypatch) -> None:
    """The store stores and reads states as gm did before step 21 (no ``state_packing``)."""
    from gm.store.mail import Reports
    from gm.store.gamerows import StoredState
    from gm.store.turns import Turns

    def add_state(turns, game_id, turn, state, now=None):
        store = turns.store
        last = store.one("SELECT MAX(seq) AS seq FROM states WHERE game_id = :game", game=game_id)
        seq = 0 if last is None or last["seq"] is None else last["seq"] + 1
        store.insert("states", game_id=game_id, seq=seq, turn=turn, created=now or time.time(),
                     state=packed_as_before(json.dumps(state, sort_keys=True), STATE_LEVEL))
        return seq

    monkeypatch.setattr(Turns, "add_state", add_state)
    monkeypatch.setattr(Turns, "states_of", lambda turns, game_id: StoredState.every(turns.store.all(
        "SELECT seq, state FROM states WHERE game_id = :game ORDER BY seq", game=game_id)))
    monkeypatch.setattr(Turns, "state_data", staticmethod(lambda row: json.loads(read_as_before(row["state"]))))
    monkeypatch.setattr(Reports, "report_body", staticmethod(lambda row: read_as_before(row["body"])))


def one_order(engine, config, passwords: dict[str, str], name: str, game_id: str = "nb1") -> None:
    """An order mail of the player to move in ``game_id`` (their first legal order), written into the
    config's Maildir inbox as ``name`` (the statement counts of tests/store judge it there)."""
    from gm.runtime.maildir import ensure_maildir

    loaded = engine.load(game_id)
    (mover,) = loaded.rules.to_move(loaded.state)
    order = loaded.rules.legal_orders(loaded.state, mover)[0]
    ensure_maildir(config.inbox)
    (config.inbox / "new" / name).write_bytes(
        order_mail(f"{mover}@example.org", order, game_id=game_id, password=passwords[mover]))


def ask(engine, sender, text, **kwargs):
    """Send one mail; its one reply (to the sender), as text."""
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    replies = [m for m in outbox(engine, start) if m["To"] == sender.lower() and m["In-Reply-To"]]
    assert len(replies) == 1, [body(m) for m in outbox(engine, start)]
    return body(replies[0])


def confirmed(engine, sender, text):
    """JOIN or CREATE by mail, which waits for the address to confirm: the one
    mail back is the code, and no seat or game is made yet; the sender replies to it.  The answer."""
    from gm.mail.quotes import MARKER

    before = (seats(engine), engine.store.all("SELECT id FROM games ORDER BY id"))
    code_mail = ask(engine, sender, text)
    assert code_mail.startswith(MARKER + "\n\nA mail from this address") and "CONFIRM " in code_mail
    assert (seats(engine), engine.store.all("SELECT id FROM games ORDER BY id")) == before
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, "", subject="Re: CONFIRM " + code_mail.split("CONFIRM ")[1].split()[0]))
    replies = [m for m in outbox(engine, start) if m["To"] == sender.lower() and m["In-Reply-To"]]
    assert len(replies) == 1, [body(m) for m in outbox(engine, start)]
    return body(replies[0])


def seats(engine, game_id="nb7"):
    """The seats of a game as (name, address), the open game nb7 unless told."""
    return [(p["name"], p["email"]) for p in engine.store.seats.players(game_id)]
