"""The bound on what one mail costs, as a property (Hypothesis): for any mail a seated player or a
stranger can send (PRESS blocks to any lists, ALL and GM among them, SET ADDRESS lines, OBSERVE,
JOIN, CREATE, PASSWORD RESET, HELP, LIST, orders and other commands, in any number and order), the
mails gm queues for it, beyond the game's reports, are at most MAILS_PER_ADDRESS to each mailbox
and go only to the sender, the game's seats, its observers and the GM, but for one code mail to
at most one third party (a SET ADDRESS); so in total at most MAILS_PER_ADDRESS times those."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.core.addresses import mailbox_key
from gm.core.config import Config
from gm.service.engine import Engine
from gm.service.outgoing import observers
from gm.service.outgoing.outbox import MAILS_PER_ADDRESS, REPORT_KINDS
from gm.service.people import lobby
from gm.store import Store
from support import EXAMPLE_LAYOUT, Clock, order_mail

SEATS = [("ada", "ada@example.org"), ("bob", "bob@example.org"), ("cy", "cy@example.org")]
WATCHERS = ["obs1@example.org", "obs2@example.org"]
REFEREE = "referee@example.org"
OTHERS = ["victim@example.net", "victim+1@example.net", "Victim@example.net", "other@example.net"]
SENDERS = ["ada", "ada-elsewhere", "bob", "stranger", "stranger-guessing", "observer"]
LISTS = ["ada", "bob", "cy", "ALL", "GM", "bob, GM", "ALL, GM", "bob cy", "cy, bob", "ada, bob"]
LINES = ([f"SET ADDRESS {a}" for a in OTHERS]
         + ["OBSERVE nb1", "JOIN nb7 zed", "CREATE neighbors nb9 3", "PASSWORD RESET nb1",
            "PASSWORD RESET nb1 bob", "PASSWORD RESET nb1 cy", "PASSWORD RESET nb7", "HELP", "LIST",
            "SUMMARY", "LIST nb1", "TRAIL nb1", "BOARD", "HISTORY", "DRAW", "ABSENCE +1d +2d",
            "SET FORMAT TEXT", "SET PASSWORD fresh-heron-4711", "RESIGN", "CONFIRM abcdefghjk",
            "UNOBSERVE nb1", "Rb4xd4", "hello there"])
press_block = st.tuples(st.sampled_from(LISTS), st.text(alphabet="abc .", min_size=1, max_size=12)).map(
    lambda b: f"PRESS TO {b[0]}\n{b[1]}\nENDPRESS")
mail_lines = st.lists(st.one_of(press_block, st.sampled_from(LINES)), max_size=24)


def world(tmp_path):
    """A running game nb1 (three seats, two observers), an open game nb7, a GM address."""
    clock = Clock()
    config = Config(data_dir=tmp_path / "gm-data", address="gm@localhost", gm_address=REFEREE,
                    player_create_kinds=["neighbors"])
    store = Store(config.database)
    engine = Engine(store, config, clock=clock)
    with store.write():  # text reports: no pictures to draw, so the examples run quickly
        for _, address in SEATS:
            store.set_address_setting(address, "format", "text", clock())
    secrets = engine.create_game("neighbors", "nb1", SEATS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    with store.write():
        for address in WATCHERS:
            observers.add(engine, "nb1", address)
    lobby.open_game(engine, "neighbors", "nb7", 3)
    return engine, store, secrets


def raw_mail(secrets, who: str, text: str) -> tuple[str, bytes]:
    """(its From, the mail) of ``who`` sending ``text``."""
    if who in ("ada", "bob"):
        sender = dict(SEATS)[who]
        return sender, order_mail(sender, text, game_id="nb1", password=secrets[who])
    if who == "ada-elsewhere":  # ada's password from another address: her own is told
        return "ada@elsewhere.example", order_mail("ada@elsewhere.example", text, game_id="nb1",
                                                   password=secrets["ada"])
    if who == "stranger-guessing":
        return "eve@evil.example", order_mail("eve@evil.example", text, game_id="nb1",
                                              password="wrong-guess-1234")
    sender = WATCHERS[0] if who == "observer" else "eve@evil.example"
    return sender, order_mail(sender, text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(mails=st.lists(st.tuples(st.sampled_from(SENDERS), mail_lines), min_size=1, max_size=3))
def test_one_mail_costs_at_most_the_bound_whatever_it_holds(tmp_path_factory, mails):
    engine, store, secrets = world(tmp_path_factory.mktemp("bound"))
    try:
        for who, lines in mails:
            sender, raw = raw_mail(secrets, who, "\n".join(lines))
            known = {mailbox_key(a) for a in [sender, REFEREE, *WATCHERS]
                     + [p["email"] for p in store.players("nb1")]}
            start = store.one("SELECT coalesce(max(id), 0) AS n FROM outbox")["n"]
            engine.ingest(raw)
            rows = store.all("SELECT recipient, kind FROM outbox WHERE id > :start", start=start)
            counted = Counter(mailbox_key(r["recipient"]) for r in rows if r["kind"] not in REPORT_KINDS)
            assert all(n <= MAILS_PER_ADDRESS for n in counted.values()), (who, lines, counted)
            strangers = {a: n for a, n in counted.items() if a not in known}
            assert len(strangers) <= 1 and all(n == 1 for n in strangers.values()), (who, lines, counted)
            assert sum(counted.values()) <= MAILS_PER_ADDRESS * (len(known) + 1)
    finally:
        store.close()
