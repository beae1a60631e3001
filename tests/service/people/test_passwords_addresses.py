"""SET PASSWORD, PASSWORD RESET, SET ADDRESS and CONFIRM: a player's own seat, by mail; each bad
form gets a clear reply and changes nothing."""

from __future__ import annotations

import re

from gm.core import passwords
from support import body, last_outbox_id, order_mail, outbox

DAY = 86400.0


def mails(engine, start, to=None):
    return [m for m in outbox(engine, start) if to is None or m["To"] == to]


def ask(engine, sender, text, **kwargs):
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    (reply,) = [m for m in mails(engine, start, sender) if m["In-Reply-To"]]
    return " ".join(body(reply).split())


def pw_hash(engine, name="ada", game_id="nb1"):
    return engine.store.seats.player(game_id, name)["pw_hash"]


def seat(engine, name="ada", game_id="nb1"):
    return dict(engine.store.seats.player(game_id, name))


# --- SET PASSWORD ---------------------------------------------------------------------------
def test_set_password_changes_it_and_the_old_one_stops_working(engine, nb_game):
    before = seat(engine)
    text = ask(engine, "ada@example.org", "SET PASSWORD corvid-lantern-7", game_id="nb1",
               password=nb_game["ada"])
    assert "is changed" in text and "corvid-lantern-7" not in text
    after = seat(engine)
    assert passwords.verify("corvid-lantern-7", after["pw_hash"])
    assert after["generation"] == before["generation"] + 1
    assert "the password is wrong" in ask(engine, "ada@example.org", "BOARD", game_id="nb1",
                                          password=nb_game["ada"])
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "BOARD", game_id="nb1", password="corvid-lantern-7"))
    (board,) = mails(engine, start)
    assert "Board" in board["Subject"]


def test_set_password_bad_forms_change_nothing(engine, nb_game):
    before = seat(engine)
    for value, says in [("short", "10 to 64"), ("two words here", "one word"), ("x" * 65, "10 to 64"),
                        ("", "one word"), ("ninechars", "10 to 64"), ("password123", "most common"),
                        ("Sunshine2024", "most common"), ("ada2024!!!!", "seat's name"),
                        ("qwertyuiop", "most common"), ("nb1!!!!!!!!", "game id")]:
        text = ask(engine, "ada@example.org", f"SET PASSWORD {value}", game_id="nb1",
                   password=nb_game["ada"])
        assert says in text and "Nothing was changed" in text
    assert seat(engine) == before


# --- PASSWORD RESET -------------------------------------------------------------------------
def reset_code(engine, start, to="ada@example.org"):
    """The code of the reset confirmation mailed to ``to`` since ``start`` (exactly one mail)."""
    (mail,) = mails(engine, start)
    assert mail["To"] == to and "confirm your password reset" in mail["Subject"]
    return re.search(r"CONFIRM (\w+)", mail["Subject"]).group(1)


def test_password_reset_from_the_registered_address_mails_a_new_one_there_only(engine, nb_game):
    # A reset first mails a code to the registered address; confirmed from there, the
    # new password is mailed there (the request itself changes nothing).
    before, bob = seat(engine), seat(engine, "bob")
    start = last_outbox_id(engine)
    engine.ingest(order_mail("Ada@Example.org", "PASSWORD RESET nb1"))
    code = reset_code(engine, start)
    assert seat(engine) == before  # the request alone changes nothing
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", f"CONFIRM {code}"))
    (reply,) = mails(engine, start)
    assert reply["To"] == "ada@example.org"
    new = re.search(r"\(seat ada\): (\w+)", body(reply)).group(1)
    assert passwords.verify(new, pw_hash(engine)) and not passwords.verify(nb_game["ada"], pw_hash(engine))
    assert seat(engine)["generation"] == before["generation"] + 1
    assert seat(engine, "bob") == bob


def test_password_reset_from_another_address_changes_nothing_and_says_little(engine, nb_game):
    before = (seat(engine), seat(engine, "bob"))
    wrong_address = ask(engine, "mallory@example.net", "PASSWORD RESET nb1")
    no_game = ask(engine, "mallory@example.net", "PASSWORD RESET nb9")
    assert "nothing was reset" in wrong_address and "Nothing was changed" in wrong_address
    assert wrong_address.replace("nb1", "ID") == no_game.replace("nb9", "ID")  # no hint which was wrong
    assert "ada" not in wrong_address and "example.org" not in wrong_address
    assert (seat(engine), seat(engine, "bob")) == before


def test_password_reset_is_read_before_password_as_credentials(engine, nb_game):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "PASSWORD RESET nb1", subject="[nb1 T1] report"))
    code = reset_code(engine, start)  # the code first, the new password on confirmation
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "", subject="Re: CONFIRM " + code))
    (reply,) = mails(engine, start)
    assert "Your new password for game nb1" in body(reply)


def test_password_reset_stops_at_the_hourly_limit_without_changing_the_password(engine, nb_game):
    engine.config.error_replies_per_hour = 2
    for _ in range(2):
        engine.ingest(order_mail("ada@example.org", "PASSWORD RESET nb1"))
    before = seat(engine)
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "PASSWORD RESET nb1"))
    assert mails(engine, start) == [] and seat(engine) == before


# --- SET ADDRESS / CONFIRM ------------------------------------------------------------------
def code_mail(engine, start, to):
    (mail,) = [m for m in mails(engine, start, to)]
    return mail, re.search(r"CONFIRM (\w+)", mail["Subject"]).group(1)


def test_set_address_moves_the_seat_only_when_the_new_address_confirms(engine, nb_game):
    start = last_outbox_id(engine)
    text = ask(engine, "ada@example.org", "SET ADDRESS ada@new.example", game_id="nb1",
               password=nb_game["ada"])
    assert "mailed a code to ada@new.example" in text
    assert seat(engine)["email"] == "ada@example.org"
    mail, code = code_mail(engine, start, "ada@new.example")
    assert "[nb1" not in mail["Subject"] and "ada@example.org" not in body(mail)
    # The code from any other address, a wrong code: nothing moves.
    assert "unknown, used or expired" in ask(engine, "mallory@example.net", f"CONFIRM {code}")
    assert "unknown, used or expired" in ask(engine, "ada@new.example", "CONFIRM aaaaaaaaaa")
    assert seat(engine)["email"] == "ada@example.org"
    # A reply to the code's mail (the code in its subject, quoted text unread) confirms it.
    generation = seat(engine)["generation"]
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@new.example", "", subject="Re: " + mail["Subject"]))
    assert seat(engine)["email"] == "ada@new.example" and seat(engine)["generation"] == generation + 1
    told = mails(engine, start, "ada@example.org")
    assert len(told) == 1 and "now receives its mail at ada@new.example" in " ".join(body(told[0]).split())
    assert "now receives its mail at this address" in " ".join(body(mails(engine, start, "ada@new.example")[0]).split())
    # Single use.
    assert "unknown, used or expired" in ask(engine, "ada@new.example", f"CONFIRM {code}")


def test_an_address_code_expires(engine, nb_game, clock):
    start = last_outbox_id(engine)
    ask(engine, "ada@example.org", "SET ADDRESS ada@new.example", game_id="nb1", password=nb_game["ada"])
    _, code = code_mail(engine, start, "ada@new.example")
    clock.advance(3 * DAY + 1)
    assert "unknown, used or expired" in ask(engine, "ada@new.example", f"CONFIRM {code}")
    assert seat(engine)["email"] == "ada@example.org"


def test_set_address_bad_forms_change_nothing(engine, nb_game):
    before = seat(engine)
    for value, says in [("not-an-address", "write SET ADDRESS"), ("a@b.example c@d.example", "one address"),
                        ("ada@example.org", "registered to ada@example.org already"),
                        ("bob@example.org", "another seat")]:
        text = ask(engine, "ada@example.org", f"SET ADDRESS {value}", game_id="nb1", password=nb_game["ada"])
        assert says in text and "Nothing was changed" in text
    assert seat(engine) == before and engine.store.all("SELECT * FROM address_codes") == []


def test_set_what_lists_password_and_address(engine, nb_game):
    text = ask(engine, "ada@example.org", "SET COLOUR blue", game_id="nb1", password=nb_game["ada"])
    assert "SET PASSWORD <new>" in text and "SET ADDRESS <new>" in text


def test_a_subject_that_only_says_confirm_is_not_a_code():
    from gm.mail import orders

    assert orders.read("Re: please confirm my orders", "").commands == []
    assert orders.read("Re: CONFIRM k3m9pq2x7w: confirm your new address (nb1)", "").commands == \
        ["CONFIRM k3m9pq2x7w"]
    assert orders.read("UNOBSERVE nb7", "").commands == ["UNOBSERVE nb7"]
