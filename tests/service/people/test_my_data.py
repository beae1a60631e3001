"""MY DATA by mail: a seat (password or reply token) gets everything gm keeps about its address
mailed to the address it is registered to, as my-data.json; an address with no seat gets it once
it answers the code gm mails it (opt-in's code and caps); a forged From makes gm mail nobody but
the address forged.  The JSON holds the rows put in for the address and nothing of another's:
no other address, no other seat's press, no password, token or code.

Driven by mail through engine.ingest, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

from gm.service.people import mydata
from support import LINEAR_4X, PLAYERS, body, growth, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True
ADA, BOB = "ada@example.org", "bob@example.org"
OLIVE = "olive@example.net"  # an observer: no seat
ADA_PRESS, BOB_PRESS = "Ada's words: shall we share the centre", "Bob's secret plan: attack from the north"


def send(engine, sender, text, **kwargs):
    """One mail in; every mail it made gm queue."""
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    return outbox(engine, start)


def attached(mail) -> dict | None:
    """The my-data.json a mail carries, read; None if it carries none."""
    for part in mail.iter_attachments():
        if part.get_filename() == mydata.FILE_NAME:
            assert part.get_content_type() == "application/json"
            return json.loads(part.get_content())
    return None


def confirm_by_reply(engine, code_mail, sender):
    """The address a code went to answers it, as a mail program's Reply does."""
    return send(engine, sender, "", to=code_mail["Reply-To"], subject="Re: " + code_mail["Subject"])


@pytest.fixture
def played(engine):
    """nb1 with Ada and Bob: each sent press and an order, Bob a wrong password and a setting;
    Olive observes nb1 (confirmed); Ada's address once asked for Bob's seat with a wrong password."""
    passwords = engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    for name, address, words in (("ada", ADA, ADA_PRESS), ("bob", BOB, BOB_PRESS)):
        other = "bob" if name == "ada" else "ada"
        send(engine, address, f"PRESS TO {other}\n{words}\nENDPRESS", game_id="nb1", password=passwords[name])
    send(engine, BOB, "SET FORMAT html", game_id="nb1", password=passwords["bob"])
    send(engine, BOB, "BOARD", game_id="nb1", password="not-his-password")
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    send(engine, f"{mover}@example.org", view.rules.legal_orders(view.state, mover)[0], game_id="nb1",
         password=passwords[mover])
    (code_mail,) = send(engine, OLIVE, "OBSERVE nb1")
    confirm_by_reply(engine, code_mail, OLIVE)
    return passwords


def data_mails(mails, to):
    return [(m, attached(m)) for m in mails if attached(m) is not None and m["To"] == to]


def holds_nothing_of_another(data: dict, passwords: dict, *others: str) -> None:
    text = json.dumps(data)
    for other in others:
        assert other not in text
    assert BOB_PRESS not in text or BOB in data["address"]
    for password in passwords.values():
        assert password not in text
    assert "pw_hash" not in text and "code_hash" not in text and "token_salt" not in text


def test_a_seat_asks_by_password_and_its_address_gets_its_data_alone(engine, played):
    mails = send(engine, ADA, "MY DATA", game_id="nb1", password=played["ada"])
    ((mail, data),) = data_mails(mails, ADA)
    assert {m["To"] for m in mails} == {ADA}
    assert mail["Subject"] == "Your data at gm"
    assert data["address"] == ADA
    assert [(s["game_id"], s["seat"], s["status"], s["game_status"]) for s in data["seats"]] == [
        ("nb1", "ada", "playing", "active")]
    assert [p["text"] for p in data["press_sent"]] and ADA_PRESS in data["press_sent"][0]["text"]
    assert all(p["seat"] == "ada" for p in data["press_sent"])
    assert len(data["mail_sent"]) == 3  # press, order, and this one (pending while it is judged)
    assert any(ADA_PRESS in (m["kept_copy"] or "") for m in data["mail_sent"])
    assert data["mail_gm_sent_you"] and data["history"]
    assert all(h["actor"] in ("ada", "this address", "gm") for h in data["history"])
    assert {k["what"] for k in data["kept"]} >= {"mail you sent", "mail gm sent you"}
    holds_nothing_of_another(data, played, BOB, OLIVE, BOB_PRESS)
    (reply,) = [m for m in mails if attached(m) is None]
    assert "mailed to it" in body(reply)


def test_a_seat_asks_by_its_reply_token(engine, played):
    token_address = [m for m in outbox(engine) if m["To"] == BOB][-1]["Reply-To"]
    assert token_address.startswith("gm+nb1.bob.")
    mails = send(engine, BOB, "MY DATA", to=token_address, subject="Re: [gm nb1] report")
    ((_, data),) = data_mails(mails, BOB)
    assert data["address"] == BOB and [s["seat"] for s in data["seats"]] == ["bob"]
    assert BOB_PRESS in data["press_sent"][0]["text"]
    assert {s["format"] for s in data["seats"]} == {"html"}
    assert [f["from"] for f in data["wrong_passwords"]] == ["this address"]
    holds_nothing_of_another(data, played, ADA, OLIVE, ADA_PRESS)


def test_a_password_sent_from_another_address_mails_the_registered_address_only(engine, played):
    eve = "eve@example.net"
    mails = send(engine, eve, "MY DATA", game_id="nb1", password=played["ada"])
    assert data_mails(mails, eve) == [] and len(data_mails(mails, ADA)) == 1
    (reply,) = [m for m in mails if m["To"] == eve]
    assert attached(reply) is None and ADA not in body(reply)


def test_an_observer_asks_and_gets_its_data_once_its_address_answers_the_code(engine, played):
    (code_mail,) = send(engine, OLIVE, "MY DATA")
    assert code_mail["To"] == OLIVE and code_mail["Subject"].startswith("CONFIRM ")
    assert "(MY DATA)" in body(code_mail) and attached(code_mail) is None
    code = code_mail["Subject"].split(":")[0].split()[1]
    mails = confirm_by_reply(engine, code_mail, OLIVE)
    ((_, data),) = data_mails(mails, OLIVE)
    assert {m["To"] for m in mails} == {OLIVE}
    assert data["seats"] == [] and [o["game_id"] for o in data["observing"]] == ["nb1"]
    assert [(r["asked"], r["state"]) for r in data["requests_to_confirm"]] == [
        (["OBSERVE nb1"], "confirmed"), (["MY DATA"], "confirmed")]
    assert code not in json.dumps(data)
    holds_nothing_of_another(data, played, ADA, BOB, ADA_PRESS, BOB_PRESS)


def test_a_forged_from_of_a_seats_address_mails_that_address_a_code_and_nothing_else(engine, played):
    mails = send(engine, ADA, "MY DATA")  # no password: anyone may have written this From
    (code_mail,) = mails
    assert code_mail["To"] == ADA and code_mail["Subject"].startswith("CONFIRM ") and attached(code_mail) is None
    assert send(engine, ADA, "MY DATA") == []  # within the caps: one code a day while unanswered
    mails = confirm_by_reply(engine, code_mail, ADA)  # only the address's owner has the code
    ((_, data),) = data_mails(mails, ADA)
    assert {m["To"] for m in mails} == {ADA} and data["seats"][0]["seat"] == "ada"


def test_a_code_answered_from_another_address_sends_no_data(engine, played):
    (code_mail,) = send(engine, OLIVE, "MY DATA")
    mails = confirm_by_reply(engine, code_mail, "eve@example.net")
    assert all(attached(m) is None for m in mails) and {m["To"] for m in mails} <= {"eve@example.net"}


def test_many_forged_froms_get_codes_only_within_the_hourly_total(engine, played):
    engine.config.confirmations_per_hour = 2  # Olive's OBSERVE used one this hour
    strangers = [f"stranger{i}@example.net" for i in range(4)]
    sent = [m for address in strangers for m in send(engine, address, "MY DATA")]
    assert [m["To"] for m in sent] == strangers  # one mail each, to the From alone
    assert [m["Subject"].startswith("CONFIRM ") for m in sent] == [True, False, False, False]
    assert all("too many OBSERVE" in body(m) for m in sent[1:]) and all(attached(m) is None for m in sent)


def test_help_lists_my_data(engine):
    (reply,) = send(engine, "someone@example.net", "HELP")
    assert "MY DATA" in body(reply)


def test_the_kept_part_says_the_retention_gm_applies():
    from gm.service.records.retention import KEEP_PICTURES

    assert (mydata.SENT_KEPT_WHOLE, KEEP_PICTURES) == ("a day", 86400.0)


def test_other_addresses_in_free_text_are_hidden_and_the_asker_s_kept():
    text = "from Bob <bob@example.org>, cc ADA@Example.org. and x@ and @ alone"
    assert mydata.others_hidden(text, ["ada@example.org"]) == (
        f"from Bob <{mydata.ANOTHER}>, cc ADA@Example.org. and x@ and @ alone")


def test_hiding_addresses_is_linear_in_the_text():
    def hide(n):
        return mydata.others_hidden(("a@b " * n) + "@" * n + ("x" * n) + "@" * n, ["ada@example.org"])

    assert growth(hide, 20_000, 80_000) < LINEAR_4X


def test_with_rows_of_two_people_in_every_catalogued_table_the_json_holds_one_s_alone(engine):
    from addressrows import ADA as ONE, BOB as OTHER, put_game, put_rows

    with engine.store.write():
        put_game(engine.store)
        put_rows(engine.store, ONE)
        put_rows(engine.store, OTHER)
    data = mydata.gather(engine.store, engine.config, ONE.upper(), engine.clock())
    text = json.dumps(data).lower()
    assert data["address"] == ONE and "of ada" in text
    assert "bob" not in text
    assert [s["seat"] for s in data["seats"]] == ["Ada"]
    assert all(data[section] for section in mydata.PLAIN_SECTIONS), [
        section for section in mydata.PLAIN_SECTIONS if not data[section]]
    assert "pw_hash of ada" not in text and "code_hash of ada" not in text


def test_json_too_long_for_a_mail_leaves_out_the_kept_copies_and_says_so():
    data = {"mail_sent": [{"kept_copy": "x" * mydata.MOST_BYTES}], "seats": []}
    short = json.loads(mydata.encoded(data))
    assert short["mail_sent"] == [{"kept_copy": None}] and "gm data" in short["left_out"]
    assert json.loads(mydata.encoded({"mail_sent": [{"kept_copy": "x"}]})) == {"mail_sent": [{"kept_copy": "x"}]}
