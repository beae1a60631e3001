"""Players helping themselves, through a real Dovecot (IMAP) and a real aiosmtpd (SMTP): JOIN (each
confirmed by a reply to gm's code) fills an open game that then plays by replies with no
password; an observer gets public reports and never a sealed claim; a PASSWORD RESET from a
wrong address, a forged or old reply address, and a SET ADDRESS without its code change nothing."""

from __future__ import annotations

import re

from harness import wait_until
from support import PLAYERS, order_mail

ADDRESS = dict(PLAYERS)
TRIO = {"ada": "ada@example.org", "bob": "bob@example.org", "cy": "cy@example.org"}


def text_of(msg) -> str:
    return " ".join(msg.get_body(("plain",)).get_content().split())


def handled(harness, n: int) -> None:
    """Wait until the daemon has handled n mails in all."""
    wait_until(lambda: len(harness.outcomes()) >= n, 15, what=f"{n} mails handled")


def mover_and_order(harness, game_id):
    view = harness.engine.load(game_id)
    (mover,) = view.rules.to_move(view.state)
    return mover, view.rules.legal_orders(view.state, mover)[0]


def test_an_open_game_filled_by_three_joins_starts_and_plays_by_replies_without_password(
        harness, dovecot, smtp):
    from gm.service.people import lobby

    lobby.open_game(harness.engine, "neighbors", "nb7", 3, seed=3)
    daemon = harness.start()
    try:
        for i, (name, address) in enumerate(TRIO.items()):
            dovecot.append(order_mail(address, f"JOIN nb7 {name}", subject="join"))
            # The JOIN waits for its address to answer the code gm mails it.
            (code_mail,) = smtp.wait_for(address, 1)
            assert code_mail["Subject"].startswith("CONFIRM ")
            assert len(harness.engine.store.seats.players("nb7")) == i
            dovecot.append(order_mail(address, "", to=code_mail["Reply-To"],
                                      subject="Re: " + code_mail["Subject"]))
            handled(harness, 2 * (i + 1))
        for address in TRIO.values():  # the JOIN answer with the password, then the welcome
            mails = smtp.wait_for(address, 3)[1:3]
            (welcome,) = [m for m in mails if "Welcome to Neighbors" in m["Subject"]]
            (answer,) = [m for m in mails if m is not welcome]
            assert "Your password:" in text_of(answer)
            assert welcome["Reply-To"].startswith("gm+nb7.")
        view = harness.engine.load("nb7")
        assert view.status == "active" and view.rules.players(view.state) == ["ada", "bob", "cy"]
        # A turn by replies: each mover answers the last mail gm sent them, with no password.
        for turn in range(3):
            mover, order = mover_and_order(harness, "nb7")
            last = smtp.to(TRIO[mover])[-1]
            seen = {a: len(smtp.to(a)) for a in TRIO.values()}
            reply = order_mail(TRIO[mover], f"{order}\n\n> GAME nb7 PASSWORD quoted-never-read\n",
                               to=last["Reply-To"], subject="Re: " + last["Subject"])
            dovecot.append(reply)
            for address in TRIO.values():
                smtp.wait_for(address, seen[address] + 1)
        assert harness.outcomes()[-3:] == ["applied"] * 3
        assert harness.engine.load("nb7").seq == view.seq + 3
    finally:
        daemon.stop()


def test_an_observer_gets_the_public_reports_and_never_a_sealed_claim(harness, dovecot, smtp):
    secrets = harness.engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    eve = "eve@example.net"
    daemon = harness.start()
    try:
        dovecot.append(order_mail(eve, "OBSERVE fb1"))
        (code_mail,) = smtp.wait_for(eve, 1)  # eve answers the code gm mails her
        assert code_mail["Subject"].startswith("CONFIRM ")
        assert harness.engine.store.selfservice.observers_of("fb1") == []
        dovecot.append(order_mail(eve, "", to=code_mail["Reply-To"], subject="Re: " + code_mail["Subject"]))
        answer = smtp.wait_for(eve, 2)[1]
        assert "You now follow game fb1" in text_of(answer)
        dovecot.append(order_mail(ADDRESS["ada"], "K11", game_id="fb1", password=secrets["ada"]))
        handled(harness, 3)
        smtp.wait_for(ADDRESS["ada"], 2)  # ada's confirmation of her sealed claim
        assert all("K11" not in text_of(m) for m in smtp.to(eve))
        dovecot.append(order_mail(ADDRESS["bob"], "J10", game_id="fb1", password=secrets["bob"]))
        report = smtp.wait_for(eve, 3)[2]
        assert report["Subject"] == "[gm fb1] Fuzzy Borders report"
        assert "Fuzzy Borders game fb1, turn 2" in text_of(report)
        assert "ada claims K11" in text_of(report)  # public once the turn closed
        unsubscribe = harness.engine.outbox.tokens.unsubscribe_address("fb1", eve)  # eve's own address
        assert report["List-Unsubscribe"] == f"<mailto:{unsubscribe}?subject=unsubscribe>"
        count = len(smtp.to(eve))
        dovecot.append(order_mail(ADDRESS["ada"], "L12", game_id="fb1", password=secrets["ada"]))
        handled(harness, 5)
        smtp.wait_for(ADDRESS["ada"], 4)
        assert all("L12" not in text_of(m) for m in smtp.to(eve))
        # The List-Unsubscribe mailto, sent as a mail program sends it, stops the reports.
        dovecot.append(order_mail(eve, "", to=unsubscribe, subject="unsubscribe"))
        assert "no longer follow game fb1" in text_of(smtp.wait_for(eve, count + 1)[-1])
    finally:
        daemon.stop()
    assert harness.engine.store.selfservice.observers_of("fb1") == []


def test_password_reset_from_a_wrong_address_changes_nothing(harness, dovecot, smtp):
    secrets = harness.new_game()
    before = [dict(p) for p in harness.engine.store.seats.players("nb1")]
    daemon = harness.start()
    try:
        dovecot.append(order_mail("mallory@example.net", "PASSWORD RESET nb1"))
        (answer,) = smtp.wait_for("mallory@example.net", 1)
        assert "nothing was reset" in text_of(answer) and "example.org" not in text_of(answer)
        assert [dict(p) for p in harness.engine.store.seats.players("nb1")] == before
        mover, order = mover_and_order(harness, "nb1")
        dovecot.append(order_mail(ADDRESS[mover], order, game_id="nb1", password=secrets[mover]))
        handled(harness, 2)
    finally:
        daemon.stop()
    assert harness.outcomes() == ["help", "applied"]


def test_a_forged_or_old_reply_address_is_refused(harness, dovecot, smtp):
    secrets = harness.new_game()
    daemon = harness.start()
    try:
        mover, order = mover_and_order(harness, "nb1")
        (welcome,) = smtp.wait_for(ADDRESS[mover], 1)
        good = welcome["Reply-To"]
        local, _, domain = good.rpartition("@")
        forged = local[:-1] + ("0" if local[-1] != "0" else "1") + "@" + domain
        seq = harness.engine.load("nb1").seq
        dovecot.append(order_mail(ADDRESS[mover], order, to=forged))
        refusal = smtp.wait_for(ADDRESS[mover], 2)[-1]
        assert "not valid" in text_of(refusal)
        assert harness.engine.load("nb1").seq == seq
        # SET PASSWORD makes the welcome's reply address old.
        dovecot.append(order_mail(ADDRESS[mover], "SET PASSWORD fresh-secret-9", game_id="nb1",
                                  password=secrets[mover]))
        changed = smtp.wait_for(ADDRESS[mover], 3)[-1]
        assert "is changed" in text_of(changed) and changed["Reply-To"] != good
        dovecot.append(order_mail(ADDRESS[mover], order, to=good))
        old = smtp.wait_for(ADDRESS[mover], 4)[-1]
        assert "it is old" in text_of(old)
        assert harness.engine.load("nb1").seq == seq
        # The new reply address works.
        dovecot.append(order_mail(ADDRESS[mover], order, to=changed["Reply-To"]))
        handled(harness, 4)
    finally:
        daemon.stop()
    assert harness.outcomes() == ["rejected", "help", "rejected", "applied"]


def test_set_address_without_the_code_changes_nothing(harness, dovecot, smtp):
    secrets = harness.new_game()
    daemon = harness.start()
    try:
        dovecot.append(order_mail(ADDRESS["ada"], "SET ADDRESS ada@new.example", game_id="nb1",
                                  password=secrets["ada"]))
        (code_mail,) = smtp.wait_for("ada@new.example", 1)
        code = re.search(r"CONFIRM (\w+)", code_mail["Subject"]).group(1)
        dovecot.append(order_mail("mallory@example.net", f"CONFIRM {code}"))
        dovecot.append(order_mail("ada@new.example", "CONFIRM abcdefghjk"))
        handled(harness, 3)
        assert harness.engine.store.seats.player("nb1", "ada")["email"] == ADDRESS["ada"]
        # The new address replies to the code's mail: now the seat moves.
        dovecot.append(order_mail("ada@new.example", "", subject="Re: " + code_mail["Subject"]))
        handled(harness, 4)
        assert harness.engine.store.seats.player("nb1", "ada")["email"] == "ada@new.example"
    finally:
        daemon.stop()
