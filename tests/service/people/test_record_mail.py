"""RECORD by mail and the end mail's record: a finished game's record is public (text in the mail,
JSON attached, valid against the schema); a running game's goes to a seat alone, its own view, with
no other seat's sealed order or private press; anyone else, or an unknown game, gets one refusal."""

from __future__ import annotations

import email
import email.policy
import json

import jsonschema
import pytest

from gm.present import recordtext
from gm.runtime.daemon import run
from gm.runtime.maildir import ensure_maildir
from gm.service.outgoing import observers
from gm.service.play import lifecycle
from gm.service.people import recordcommand
from gm.service.table import gamerecord
from support import PLAYERS, PLAYERS3, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL
EVE = "eve@example.net"  # no seat anywhere


def replies(engine, sender, text, **kwargs):
    """Send one mail; every mail it made gm queue (to anyone)."""
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    return outbox(engine, start)


def files(message) -> dict[str, bytes]:
    """The attached files of a mail: name -> bytes."""
    return {part.get_filename(): part.get_payload(decode=True) for part in message.walk()
            if part.get_content_disposition() == "attachment"}


def decoded(message) -> str:
    """Every part of a mail, headers and decoded payloads, as one text."""
    texts = [str(message["Subject"])]
    for part in message.walk():
        payload = part.get_payload(decode=True)
        if payload:
            texts.append(payload.decode("utf-8", errors="replace"))
    return "\n".join(texts)


def move(engine, game_id: str, rules, state) -> tuple[str, str, bool]:
    """(the mover, an order, whether it ends the game): one that ends it if there is one."""
    (mover,) = rules.to_move(state)
    orders = rules.legal_orders(state, mover)
    for order in orders:
        after = rules.submit(rules.load(rules.dump(state)), mover, rules.parse_order(state, mover, order), 0).state
        if rules.is_over(after):
            return mover, order, True
    return mover, orders[len(orders) // 2], False


def play_to_the_last_move(engine, game_id: str) -> tuple[str, str]:
    """Play ``game_id`` (sequential) by gm order until the next move ends it: (its mover, that order)."""
    for _ in range(2000):
        view = engine.load(game_id)
        mover, order, ends = move(engine, game_id, view.rules, view.state)
        if ends:
            return mover, order
        assert engine.gm_order(game_id, mover, order).outcome == "applied"
    raise AssertionError("the game did not end")


def finished(engine, game_id: str = "nb1") -> None:
    engine.create_game("neighbors", game_id, PLAYERS, seed=4)
    mover, order = play_to_the_last_move(engine, game_id)
    assert engine.gm_order(game_id, mover, order).outcome == "applied"
    assert engine.store.games.game(game_id)["status"] == "finished"


def check_record(record: dict, game_id: str, view: str) -> None:
    jsonschema.validate(record, recordtext.schema())
    assert record["game"]["id"] == game_id and record["view"] == view
    assert "@" not in json.dumps(record["players"])  # names, never an address


def test_the_record_of_a_finished_game_goes_to_anyone_text_in_the_mail_json_attached(engine):
    finished(engine)
    (reply,) = replies(engine, EVE, "RECORD nb1")
    assert reply["To"] == EVE and reply["Subject"].startswith("[gm nb1] Record")
    attached = files(reply)
    assert list(attached) == ["nb1.json"]
    record = json.loads(attached["nb1.json"])
    check_record(record, "nb1", "public")
    assert record["result"]["over"] and record["moves"]
    text = body(reply)
    assert "public: the game is over" in text and "attached (nb1.json)" in text
    assert recordtext.render(record).strip() in text
    # Under a GAME line, with no password, RECORD alone is that game's; with a password too.
    (again,) = replies(engine, EVE, "RECORD", game_id="nb1", password="wrong-password")
    assert json.loads(files(again)["nb1.json"]) == record


def test_a_seat_of_a_finished_game_gets_the_public_record(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    mover, order = play_to_the_last_move(engine, "nb1")
    engine.gm_order("nb1", mover, order)
    (reply,) = replies(engine, "ada@example.org", "RECORD", game_id="nb1", password=secrets["ada"])
    check_record(json.loads(files(reply)["nb1.json"]), "nb1", "public")


def test_a_stranger_asking_for_a_running_game_gets_one_refusal_and_nothing_else(engine):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    for text, kwargs in (("RECORD nb1", {}), ("RECORD", {"game_id": "nb1", "password": "not-the-one"})):
        (reply,) = replies(engine, EVE, text, **kwargs)
        assert reply["To"] == EVE and "No record" in reply["Subject"] and not files(reply)
        assert "still running" in body(reply) and '"moves"' not in decoded(reply)


@pytest.mark.parametrize("text, kwargs, said", [
    ("RECORD nb99", {}, "nb99"),
    ("RECORD", {"game_id": "nb99", "password": "x"}, "nb99"),
    ("RECORD nb1 nb2", {}, "which game"),  # not a command line: read as an order, of no game
])
def test_an_unknown_game_or_a_bad_line_gets_one_clear_reply(engine, text, kwargs, said):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    (reply,) = replies(engine, EVE, text, **kwargs)
    assert reply["To"] == EVE and not files(reply) and said in body(reply)


def test_a_seat_of_a_running_game_gets_its_own_view_by_password_or_reply_address(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    for _ in range(3):
        view = engine.load("nb1")
        mover, order, _ = move(engine, "nb1", view.rules, view.state)
        engine.gm_order("nb1", mover, order)
    (reply,) = replies(engine, "ada@example.org", "RECORD", game_id="nb1", password=secrets["ada"])
    record = json.loads(files(reply)["nb1.json"])
    check_record(record, "nb1", "seat:ada")
    assert len(record["moves"]) == 3 and "as ada sees it" in body(reply)
    token = engine.outbox.tokens.reply_to("nb1", "bob@example.org")
    (reply,) = replies(engine, "bob@example.org", "RECORD", to=token)
    check_record(json.loads(files(reply)["nb1.json"]), "nb1", "seat:bob")


def sealed_and_private(engine, kind: str, game_id: str, sealed: str, secret: str) -> str:
    """A running simultaneous game of three where bob has sealed ``sealed`` and sent cy the press
    ``secret``; ada's RECORD reply, every part decoded."""
    secrets = engine.create_game(kind, game_id, PLAYERS3, seed=5)
    outcome = engine.ingest(order_mail("bob@example.org", f"{sealed}\nPRESS TO cy\n{secret}\nENDPRESS",
                                       game_id=game_id, password=secrets["bob"]))
    assert outcome.outcome == "sealed", outcome.detail
    (reply,) = replies(engine, "ada@example.org", "RECORD", game_id=game_id, password=secrets["ada"])
    check_record(json.loads(files(reply)[f"{game_id}.json"]), game_id, "seat:ada")
    return decoded(reply)


def test_a_running_fuzzy_borders_record_holds_no_sealed_claim_or_private_press_of_another_seat(engine):
    text = sealed_and_private(engine, "fuzzy-borders", "fb1", "J10", "meet me at the old mill")
    assert "J10" not in text and "old mill" not in text


def test_a_running_pivot_pawns_record_holds_no_sealed_bid_or_private_press_of_another_seat(engine):
    text = sealed_and_private(engine, "pivot-pawns", "pp1", "BID 3: green/red red/black green/black",
                              "my bid is three")
    assert "green/red" not in text and "green/black" not in text and "my bid is three" not in text


def test_the_end_mail_through_the_daemon_carries_the_record_to_every_seat_and_observer(engine, config):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    with engine.store.write():
        observers.add(engine, "nb1", EVE)
    mover, order = play_to_the_last_move(engine, "nb1")
    run(engine, config, once=True)  # everything so far sent
    sent = set((config.outbox / "new").iterdir())
    ensure_maildir(config.inbox)
    (config.inbox / "new" / "last.host").write_bytes(
        order_mail(f"{mover}@example.org", order, game_id="nb1", password=secrets[mover]))
    run(engine, config, once=True)
    mails = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in sorted(set((config.outbox / "new").iterdir()) - sent)]
    ends = {m["To"]: m for m in mails if "final report" in m["Subject"]}
    assert set(ends) == {"ada@example.org", "bob@example.org", EVE}
    for message in ends.values():
        attached = files(message)
        assert sorted(attached) == ["nb1.json", "nb1.txt"]
        record = json.loads(attached["nb1.json"])
        check_record(record, "nb1", "public")
        assert attached["nb1.txt"].decode("utf-8") == recordtext.render(record)
    assert ends[f"{mover}@example.org"]["In-Reply-To"]  # the mover's is the reply to their mail


def test_a_report_before_the_end_carries_no_record(engine):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    start = last_outbox_id(engine)
    view = engine.load("nb1")
    mover, order, _ = move(engine, "nb1", view.rules, view.state)
    engine.gm_order("nb1", mover, order)
    assert all(not files(m) for m in outbox(engine, start))


def test_a_game_the_gm_ends_mails_its_seats_the_record(engine):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    start = last_outbox_id(engine)
    lifecycle.end(engine, "nb1", "the players asked", winners=["ada"])
    ended = [m for m in outbox(engine, start) if "Game ended" in m["Subject"]]
    assert sorted(m["To"] for m in ended) == ["ada@example.org", "bob@example.org"]
    for message in ended:
        record = json.loads(files(message)["nb1.json"])
        check_record(record, "nb1", "public")
        assert record["result"]["winners"] == ["ada"] and "nb1.txt" in files(message)


def test_a_record_longer_than_a_strangers_answer_goes_to_a_seat_and_the_stranger_is_told(engine, monkeypatch):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    mover, order = play_to_the_last_move(engine, "nb1")
    engine.gm_order("nb1", mover, order)
    monkeypatch.setattr(recordcommand, "STRANGER_BYTES", 200)
    (reply,) = replies(engine, EVE, "RECORD nb1")
    assert not files(reply) and "longer than gm sends to a mail without a password" in " ".join(body(reply).split())
    assert "[Game \"nb1\"]" in body(reply)  # the text still comes
    (reply,) = replies(engine, "bob@example.org", "RECORD", game_id="nb1", password=secrets["bob"])
    check_record(json.loads(files(reply)["nb1.json"]), "nb1", "public")


def test_a_finished_games_record_is_made_once_and_not_at_all_for_a_stranger_past_the_cap(engine, monkeypatch):
    finished(engine)
    made = []
    build = gamerecord.build
    monkeypatch.setattr(gamerecord, "build", lambda *args, **kwargs: made.append(args) or build(*args, **kwargs))
    answers = [replies(engine, EVE, "RECORD nb1") for _ in range(engine.config.error_replies_per_hour)]
    assert all(len(answer) == 1 and files(answer[0]) for answer in answers)
    assert made == []  # the end mail made it, and every answer took it as made

    def refused(*args, **kwargs):
        raise AssertionError("a record made for an answer that is not sent")

    monkeypatch.setattr(recordcommand, "public_files", refused)
    assert replies(engine, EVE, "RECORD nb1") == []  # past the hourly cap: no answer, no work
