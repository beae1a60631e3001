"""A seeded random game of each kind played by MAIL (engine.ingest): each player replies
with a random legal order, some with a friendly line after it, now and then a bad order or a
replacement of a sealed one.  Every mail gets exactly one reply, and the "Waiting for" line of each
confirmation and report of a simultaneous turn is exactly the players who have sent no orders
this turn (tracked here from the mails, not asked of the service).  The clock (tests/conftest.py)
never moves, so no deadline or rules timer runs out under the test."""

from __future__ import annotations

import random

import pytest

from games import registry
from support import body, last_outbox_id, order_mail, outbox, players_for

MAILS = 70  # per game: enough for several turns of each, quick enough for the suite


def address(name: str) -> str:
    return f"{name}@example.org"


def waiting_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Waiting for:")]


@pytest.mark.parametrize("kind", registry.available())
def test_random_play_by_mail_gets_one_reply_per_mail_and_says_whom_it_waits_for(engine, kind):
    rules = registry.get(kind)
    rng = random.Random(f"one-reply-{kind}")
    names = players_for(rules, rng)
    secrets = engine.create_game(kind, "g1", [(n, address(n)) for n in names], seed=7)
    sent_orders: set[str] = set()  # who has sent orders this turn, as the mails tell it
    replies = closes = 0
    for _ in range(MAILS):
        view = engine.load("g1")
        if rules.is_over(view.state):
            break
        movers = rules.to_move(view.state)
        name = rng.choice(movers)
        bad = rng.random() < 0.1
        order = "QQ99 nonsense" if bad else rules.random_order(view.state, name, rng)
        if order is None:
            continue
        text = order + ("\nthanks!" if rng.random() < 0.4 else "")
        start = last_outbox_id(engine)
        raw = order_mail(address(name), text, game_id="g1", password=secrets[name])
        outcome = engine.ingest(raw)
        mails = outbox(engine, start)
        mine = [m for m in mails if m["To"] == address(name)]
        assert len(mine) == 1, (kind, text, outcome, [m["Subject"] for m in mine])
        (reply,) = mine
        message_id = raw.split(b"Message-ID: ", 1)[1].split(b"\n", 1)[0].strip().decode()
        assert reply["In-Reply-To"] == message_id
        replies += 1
        if outcome.outcome == "rejected":
            assert bad, outcome.detail  # a random legal order is never refused
            continue
        if "thanks!" in text:
            assert "Not read (not orders)" in body(reply)
        if not rules.simultaneous:
            continue
        after = engine.load("g1")
        closed = "report" in reply["Subject"]
        closes += closed
        sent_orders = set() if closed else sent_orders | {name}
        if rules.is_over(after.state):
            assert not waiting_lines(body(reply))
            continue
        expected = [p for p in rules.to_move(after.state) if p not in sent_orders]
        assert waiting_lines(body(reply)) == [f"Waiting for: {', '.join(expected)}"], (kind, body(reply))
        if closed:  # everyone's report of the new turn says the same
            for msg in mails:
                if "report" in msg["Subject"]:
                    assert waiting_lines(body(msg)) == [f"Waiting for: {', '.join(expected)}"]
    assert replies >= 20, replies
    assert closes >= 3 or not rules.simultaneous, closes  # turns closed by a mail, several
