"""One thread per game per reader: a game played to its end by mail, every mail of it to each
reader (players and an observer) naming that reader's first mail of the game first in References,
and every one carrying the game's List-Id; replies keep In-Reply-To to the mail they answer."""

from __future__ import annotations

import random

from gm.mail.outbound import MAX_REFERENCES, thread_ids
from support import body, confirmed, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # the roots are read with the game on PostgreSQL (gm.store.gameload)

EVE = "eve@example.net"
ADDRESS = {"ada": "ada@example.org", "bob": "bob@example.org"}
LIST_ID = '"gm game nb1" <nb1.localhost>'


def last_to(engine, address):
    return [m for m in outbox(engine) if m["To"] == address][-1]


def play_to_the_end(engine, passwords):
    """Random legal moves by mail, every other one as a reply to the mover's last mail (by its
    reply address, no password), with a press to all on the way; the mails the players sent."""
    rng, sent = random.Random(0), {}
    for n in range(50):
        view = engine.load("nb1")
        if view.rules.is_over(view.state):
            return sent
        (mover,) = view.rules.to_move(view.state)
        order = view.rules.random_order(view.state, mover, rng)
        if n == 1:
            order += "\nPRESS TO ALL\nhello all\nENDPRESS"
        if n % 2:
            last = last_to(engine, ADDRESS[mover])
            raw = order_mail(ADDRESS[mover], order, to=last["Reply-To"], subject="Re: " + last["Subject"],
                             In_Reply_To=last["Message-ID"], References=last["Message-ID"])
        else:
            raw = order_mail(ADDRESS[mover], order, game_id="nb1", password=passwords[mover])
        start = last_outbox_id(engine)
        assert engine.ingest(raw).outcome == "applied"
        (reply,) = [m for m in outbox(engine, start) if m["To"] == ADDRESS[mover] and m["In-Reply-To"]]
        sent[reply["Message-ID"]] = raw
    raise AssertionError("the game did not end")


def test_a_game_played_to_the_end_threads_each_readers_mail(engine, nb_game):
    assert "You now follow game nb1" in confirmed(engine, EVE, "OBSERVE nb1")
    replies = play_to_the_end(engine, nb_game)
    assert engine.load("nb1").rules.is_over(engine.load("nb1").state)
    roots = engine.store.threads.roots("nb1")
    assert set(roots) == {*ADDRESS.values(), EVE}
    for address in [*ADDRESS.values(), EVE]:
        mails = [m for m in outbox(engine) if m["To"] == address and m["X-GM-Game"] == "nb1"]
        assert len(mails) >= 4 and any("Game over" in m["Subject"] or "over" in body(m) for m in mails)
        first, later = mails[0], mails[1:]
        assert first["Message-ID"] == roots[address] and first["References"] is None
        for mail in mails:
            assert mail["List-Id"] == LIST_ID
            assert (mail["List-Unsubscribe"] is not None) == (address == EVE)  # never on a player's
        for mail in later:
            assert mail["References"].split()[0] == roots[address], mail["Subject"]
            if mail["Message-ID"] in replies:  # a reply to the player's own mail still answers it
                theirs = replies[mail["Message-ID"]].split(b"Message-ID: ")[1].split(b"\n")[0].decode()
                assert mail["In-Reply-To"] == theirs and mail["References"].split()[-1] == theirs
            else:
                assert mail["In-Reply-To"] is None
    assert all(m["List-Id"] is None for m in outbox(engine) if m["X-GM-Game"] is None)


def test_the_root_is_kept_first_however_long_the_thread_it_answers():
    root, theirs = "<root@gm.test>", [f"<{n}@example.org>" for n in range(30)]
    parent, refs = thread_ids(theirs[-1], theirs[:-1], root)
    assert parent == theirs[-1] and refs[0] == root and refs[-1] == theirs[-1]
    assert len(refs) == MAX_REFERENCES
    assert thread_ids(None, (), root) == (None, [root])
