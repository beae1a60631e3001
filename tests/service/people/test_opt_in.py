"""Double opt-in: OBSERVE, JOIN and CREATE take effect only when the address they came
from answers the code gm mails it; what a forged From can make gm send a stranger is capped, per
address and in total, and the GM is told once when the total is reached.

Driven by mail through engine.ingest; every test asserts the state and every mail queued."""

from __future__ import annotations

import email
import email.policy
import hashlib

import pytest

from gm.core import codes
from gm.runtime.daemon import run
from gm.runtime.maildir import ensure_maildir
from gm.service.outgoing import observers
from gm.service.people import lobby
from support import PLAYERS, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # the pending_requests queries, on SQLite and PostgreSQL
GM_HUMAN = "gm-human@example.org"
VICTIM = "victim@example.net"
DAY = 86400


def send(engine, sender, text, **kwargs):
    """One mail in; every mail it made gm queue."""
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    return outbox(engine, start)


def code_of(mail) -> str:
    word, code = mail["Subject"].split(":")[0].split()
    assert word == "CONFIRM"
    return code


def reply_to(engine, mail, sender=None, text=""):
    """The address a confirmation went to answers it, as a mail program's Reply does."""
    return send(engine, sender or mail["To"], text, to=mail["Reply-To"], subject="Re: " + mail["Subject"])


def flat(mail) -> str:
    return " ".join(body(mail).split())


def seats_of(engine, game_id):
    return [(p["name"], p["email"]) for p in engine.store.seats.players(game_id)]


@pytest.fixture
def games(engine):
    engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    engine.create_game("neighbors", "nb2", PLAYERS, seed=6)
    engine.create_game("pivot-pawns", "pg1", PLAYERS, seed=7)
    lobby.open_game(engine, "neighbors", "open1", 3, seed=4)


def test_forged_observe_flood_subscribes_nobody_and_mails_each_stranger_at_most_once(engine, games):
    """A flood of forged OBSERVE nb2, scaled: 60 forged From lines, a cap of 20 an hour."""
    engine.config.confirmations_per_hour = 20
    engine.config.gm_address = GM_HUMAN
    forged = [f"stranger{i}@example.net" for i in range(60)]
    sent = []
    for address in forged:
        sent += send(engine, address, "OBSERVE nb2")
    # Nobody observes; 20 confirmations (one each to the first 20), and one alert to the GM; the
    # other 40 get a short answer and no code (the total reached: never silence).
    assert engine.store.selfservice.observers_of("nb2", True) == engine.store.selfservice.observers_of(
        "nb2", False) == []
    to_strangers = [m for m in sent if m["To"] != GM_HUMAN]
    assert [m["To"] for m in to_strangers] == forged
    codes, refusals = to_strangers[:20], to_strangers[20:]
    assert all(m["Subject"].startswith("CONFIRM ") and m["Reply-To"] == f"gm+confirm.{code_of(m)}@localhost"
               for m in codes)
    assert all(not m["Subject"].startswith("CONFIRM") and "too many OBSERVE, JOIN and CREATE" in flat(m)
               for m in refusals)
    (alert,) = [m for m in sent if m["To"] == GM_HUMAN]
    assert "20 confirmation codes in the last hour" in flat(alert)
    # The same strangers forged again, and more: no code (per mailbox, and the total).
    assert send(engine, forged[0], "OBSERVE nb2") == []
    (refusal,) = send(engine, forged[59], "OBSERVE nb1")
    assert not refusal["Subject"].startswith("CONFIRM") and "too many OBSERVE" in flat(refusal)
    # Within the hour, the cap holds and the GM is not told again; the next hour a stranger
    # already mailed today still gets nothing while its code is unanswered.
    engine.clock.advance(3601)
    assert send(engine, forged[0], "OBSERVE nb1") == []
    (one,) = send(engine, forged[20], "OBSERVE nb2")
    assert one["To"] == forged[20] and one["Subject"].startswith("CONFIRM ")
    # Past a cap nothing is recorded either: one pending request per code mailed.
    assert engine.store.one("SELECT count(*) AS n FROM pending_requests")["n"] == 21
    # Three of them really want it: they reply, and only they observe.
    for mail in codes[:3]:
        (answer,) = reply_to(engine, mail)
        assert answer["To"] == mail["To"] and "You now follow game nb2" in flat(answer)
    assert sorted(observers.following(engine, "nb2")) == sorted(forged[:3])
    # The next move mails the two players and the three who confirmed, nobody else.
    view = engine.load("nb2")
    mover = view.rules.to_move(view.state)[0]
    order = view.rules.legal_orders(view.state, mover)[0]
    before = last_outbox_id(engine)
    engine.gm_order("nb2", mover, order)
    assert engine.load("nb2").seq == view.seq + 1
    assert sorted({m["To"] for m in outbox(engine, before)}) == sorted(
        ["ada@example.org", "bob@example.org"] + forged[:3])


def test_one_forged_mail_for_three_games_and_a_seat_gets_one_confirmation_and_changes_nothing(
        engine, games):
    mails = send(engine, VICTIM, "OBSERVE fb1\nOBSERVE nb1\nOBSERVE pg1\nJOIN open1 victim")
    (mail,) = mails
    assert mail["To"] == VICTIM and mail["In-Reply-To"]
    text = flat(mail)
    for line in ("OBSERVE fb1", "OBSERVE nb1", "OBSERVE pg1", "JOIN open1 victim"):
        assert f"({line})" in text
    assert "ignore this mail: nothing happens" in text
    for game_id in ("fb1", "nb1", "pg1"):
        assert engine.store.selfservice.observers_of(game_id, True) == engine.store.selfservice.observers_of(
            game_id, False) == []
    assert seats_of(engine, "open1") == []
    # The same mail again, forged once more: nothing more to the victim.
    assert send(engine, VICTIM, "OBSERVE fb1\nOBSERVE nb1\nOBSERVE pg1\nJOIN open1 victim") == []
    # Three days on the request is dead: its reply does nothing.
    engine.clock.advance(3 * DAY + 1)
    (answer,) = reply_to(engine, mail)
    assert "used or expired" in flat(answer)
    assert all(observers.following(engine, g) == [] for g in ("fb1", "nb1", "pg1"))
    assert seats_of(engine, "open1") == []


def test_a_confirmed_request_does_every_action_it_asked_for(engine, games):
    engine.config.player_create_kinds = ["neighbors"]
    (mail,) = send(engine, VICTIM, "OBSERVE fb1\nOBSERVE nb1\nJOIN open1 vic\nCREATE neighbors nb9 3")
    assert engine.store.games.game("nb9") is None and seats_of(engine, "open1") == []
    (answer,) = reply_to(engine, mail)
    assert answer["To"] == VICTIM
    text = flat(answer)
    assert "You now follow game fb1" in text and "You now follow game nb1" in text
    assert "You have joined game open1" in text and "Your password: " in text
    assert "game nb9 is open: 3 seats" in text
    assert observers.following(engine, "fb1") == observers.following(engine, "nb1") == [VICTIM]
    assert seats_of(engine, "open1") == [("vic", VICTIM)]
    assert engine.store.selfservice.open_game("nb9")["created_by"] == VICTIM
    # The answer holds a password: marked secret, as the code mail was.
    rows = engine.store.all("SELECT recipient, subject, secret FROM outbox ORDER BY id")
    assert [(r["recipient"], bool(r["secret"])) for r in rows[-2:]] == [(VICTIM, True), (VICTIM, True)]
    # The code works once.
    (again,) = reply_to(engine, mail)
    assert "used or expired" in flat(again) and seats_of(engine, "open1") == [("vic", VICTIM)]


def test_a_forged_join_from_a_known_players_address_still_needs_that_players_reply(engine, games):
    cy = "cy@example.org"
    (first,) = send(engine, cy, "OBSERVE nb1")  # cy confirms one thing: that is all it confirms
    reply_to(engine, first)
    assert observers.following(engine, "nb1") == [cy]
    (mail,) = send(engine, cy, "JOIN open1 cy")  # forged, from cy's address
    assert mail["To"] == cy and "(JOIN open1 cy)" in flat(mail)
    assert seats_of(engine, "open1") == []
    # Someone else sends the code from another address: refused, still no seat.
    (refusal,) = send(engine, "mallory@example.net", f"CONFIRM {code_of(mail)}")
    assert "not the address it was sent to" in flat(refusal) and seats_of(engine, "open1") == []
    # cy's own reply (a line CONFIRM <code> works as well as Reply): now the seat is cy's.
    (answer,) = send(engine, cy, f"CONFIRM {code_of(mail)}")
    assert answer["To"] == cy and "You have joined game open1" in flat(answer)
    assert seats_of(engine, "open1") == [("cy", cy)]
    # ada plays nb1 from her address (gm knows it well): a forged JOIN from it still waits.
    (mail,) = send(engine, "ada@example.org", "JOIN open1 ada")
    assert mail["To"] == "ada@example.org" and mail["Subject"].startswith("CONFIRM ")
    assert seats_of(engine, "open1") == [("cy", cy)]


def test_a_request_works_for_three_days_and_not_after(engine, games):
    (early,) = send(engine, VICTIM, "OBSERVE nb1")
    engine.clock.advance(3 * DAY - 60)
    reply_to(engine, early)
    assert observers.following(engine, "nb1") == [VICTIM]
    (late,) = send(engine, VICTIM, "OBSERVE nb2")
    engine.clock.advance(3 * DAY + 1)
    (answer,) = reply_to(engine, late)
    assert "used or expired" in flat(answer) and observers.following(engine, "nb2") == []


def test_one_mail_of_many_lines_gets_one_mail_back(engine, games):
    mails = send(engine, VICTIM, "OBSERVE nb1\nobserve NB1\nJOIN open1 vic\nOBSERVE nb9\nJOIN open1")
    (mail,) = mails
    text = flat(mail)
    assert "(OBSERVE nb1)" in text and "(JOIN open1 vic)" in text and text.count("(OBSERVE nb1)") == 1
    assert "no game called 'nb9'" in text and "write JOIN <game id> <your name>" in text
    (answer,) = reply_to(engine, mail, text="thanks!")
    assert answer["To"] == VICTIM and "You now follow game nb1" in flat(answer)
    assert seats_of(engine, "open1") == [("vic", VICTIM)]


def test_a_request_beside_other_commands_still_gets_one_mail_back(engine, games):
    """HELP and LIST answered in the same mail as the code: one mail for one mail received."""
    mails = send(engine, VICTIM, "HELP\nLIST\nOBSERVE nb1")
    (mail,) = mails
    assert mail["To"] == VICTIM and mail["Subject"].startswith("CONFIRM ")
    text = flat(mail)
    assert "(OBSERVE nb1)" in text and "LIST [<id>]" in text and "nb2" in text
    assert engine.store.selfservice.observer("nb1", VICTIM) is None
    (answer,) = reply_to(engine, mail)
    assert "You now follow game nb1" in flat(answer)


def test_codes_are_stored_hashed_and_the_subject_alone_confirms(engine, games):
    (mail,) = send(engine, VICTIM, "OBSERVE nb1")
    code = code_of(mail)
    (row,) = engine.store.all("SELECT * FROM pending_requests")
    # Keyed since the merge review (gm.core.codes): a plain sha256 of a 50-bit code is searchable.
    assert row["code_hash"] == codes.digest(engine.code_secret(), code)
    assert row["code_hash"] != hashlib.sha256(code.encode()).hexdigest()
    assert code not in " ".join(str(v) for v in dict(row).values())
    assert engine.store.one("SELECT secret FROM outbox WHERE recipient = :recipient", recipient=VICTIM)["secret"] == 1
    # A reply sent to plain gm@ (no Reply-To used): the subject's CONFIRM <code> is enough.
    (answer,) = send(engine, VICTIM, "", subject="Re: " + mail["Subject"])
    assert "You now follow game nb1" in flat(answer)
    assert observers.following(engine, "nb1") == [VICTIM]


def test_a_game_takes_at_most_max_observers(engine, games):
    engine.config.max_observers = 2
    for i in range(2):
        (mail,) = send(engine, f"o{i}@example.net", "OBSERVE nb1")
        reply_to(engine, mail)
    (refusal,) = send(engine, "o2@example.net", "OBSERVE nb1")
    assert "as many observers as it takes (2)" in flat(refusal) and not refusal["Subject"].startswith("CONFIRM")
    assert len(observers.following(engine, "nb1")) == 2


def test_the_per_address_cap_counts_the_day(engine, games):
    engine.config.confirmations_per_address_per_day = 2
    (mail,) = send(engine, VICTIM, "OBSERVE nb1")
    reply_to(engine, mail)
    (mail,) = send(engine, VICTIM, "OBSERVE nb2")
    reply_to(engine, mail)
    assert send(engine, VICTIM, "OBSERVE fb1") == []  # two today, both answered: the cap
    engine.clock.advance(DAY + 1)
    (mail,) = send(engine, VICTIM, "OBSERVE fb1")
    assert mail["Subject"].startswith("CONFIRM ")


def test_the_daemon_on_a_maildir_of_forged_requests_sends_only_capped_confirmations(engine, games, config):
    """The same attacks through the real daemon path (gm run --once on the Maildirs): what leaves
    in the outbox Maildir is codes, one per address, at most the hourly cap, and one GM alert."""
    config.confirmations_per_hour = 10
    config.gm_address = GM_HUMAN
    ensure_maildir(config.inbox)
    for i in range(30):
        raw = order_mail(f"stranger{i}@example.net", "OBSERVE nb2")
        (config.inbox / "new" / f"17000000{i:02}.M{i}.host").write_bytes(raw)
    raw = order_mail(VICTIM, "OBSERVE fb1\nOBSERVE nb1\nOBSERVE pg1\nJOIN open1 victim")
    (config.inbox / "new" / "1600000000.M0.host").write_bytes(raw)
    for i in range(3):  # the victim's address with tags: the same mailbox, nothing more to it
        raw = order_mail(f"victim+{i}@example.net", "OBSERVE nb1")
        (config.inbox / "new" / f"1600000001.M{i}.host").write_bytes(raw)
    run(engine, config, once=True)
    files = sorted((config.outbox / "new").iterdir())
    sent = [email.message_from_bytes(f.read_bytes(), policy=email.policy.default) for f in files]
    players = {address for _, address in PLAYERS}
    strangers = [m for m in sent if m["To"] not in players]
    codes = [m for m in strangers if m["To"] != GM_HUMAN and m["Subject"].startswith("CONFIRM ")]
    assert len(codes) == 10 and len({m["To"] for m in codes}) == 10
    # Past the total, each other stranger gets one short answer and no code.
    refusals = [m for m in strangers if m["To"] != GM_HUMAN and m not in codes]
    assert len(refusals) == 21 and all("too many OBSERVE" in flat(m) for m in refusals)
    assert {m["To"] for m in refusals}.isdisjoint(m["To"] for m in codes)
    (to_victim,) = [m for m in codes if m["To"] == VICTIM]  # read first: its name sorts first
    assert "(JOIN open1 victim)" in flat(to_victim) and "(OBSERVE pg1)" in flat(to_victim)
    assert [m["To"] for m in strangers if m["To"] == GM_HUMAN] == [GM_HUMAN]
    assert engine.store.all("SELECT * FROM observers") == [] and seats_of(engine, "open1") == []
    assert engine.store.one("SELECT count(*) AS n FROM messages")["n"] == 34
    assert not any("victim+" in m["To"] for m in sent)
