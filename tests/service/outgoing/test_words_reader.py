"""Words for the reader: each mail's footer says what its reader can do now, in their
channel, and is left out where they can do nothing; the player addressed is spoken to; the
replies to an empty mail, a wrong password and an unknown game say what helps."""

from __future__ import annotations

import pytest

from gm.mail.quotes import MARKER
from gm.present.mailhtml import news
from gm.service.outgoing import observers
from gm.service.play import lifecycle
from gm.service.records import audit
from mailroom import Mailroom
from support import PLAYERS, PLAYERS3, body, last_outbox_id, order_mail, outbox

REPLY_LINE = "To send orders, reply to this mail and write them at the top."
HELP_LINE = "Send HELP for the order format and rulings."
EVE = "eve@example.net"


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content()


def mails_to(engine, address, start):
    return [m for m in outbox(engine, start) if m["To"] == address]


def legal_move(engine, game_id):
    view = engine.load(game_id)
    (mover,) = view.rules.to_move(view.state)
    return mover, view.rules.legal_orders(view.state, mover)[0]


def can_do_nothing(text: str) -> bool:
    return "To send orders" not in text and "PASSWORD <yours>" not in text and "\n--\n" not in text


# --- the footer -------------------------------------------------------------------------
def test_a_report_by_the_daemon_says_reply_once_and_the_html_says_it_once(tmp_path, clock):
    room = Mailroom(tmp_path, clock=clock)
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    room.run()  # the welcomes
    mover, order = legal_move(room.engine, "nb1")
    room.deliver(order_mail(f"{mover}@example.org", order, game_id="nb1", password=secrets[mover]))
    reports = [m for _, m in room.run() if "report" in m["Subject"]]
    assert {m["To"] for m in reports} == {"ada@example.org", "bob@example.org"}
    for msg in reports:
        text, html = text_of(msg), html_of(msg)
        assert msg["Reply-To"].startswith("gm+nb1.")  # the channel the footer names
        assert text.count(REPLY_LINE) == 1 and text.count(HELP_LINE) == 1
        assert text.count("\n--\n") == 1 and "PASSWORD <yours>" not in text
        assert html.count(HELP_LINE) == 1 and html.count(REPLY_LINE) == 1  # not twice in the page


def test_without_reply_addresses_the_footer_says_mail_your_password(tmp_path, clock):
    room = Mailroom(tmp_path, extra="reply_tokens: false\n", clock=clock)
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    room.run()
    mover, order = legal_move(room.engine, "nb1")
    room.deliver(order_mail(f"{mover}@example.org", order, game_id="nb1", password=secrets[mover]))
    for _, msg in room.run():
        text = text_of(msg)
        assert msg["Reply-To"] is None
        assert "mail a line GAME nb1 PASSWORD <yours>, then the orders." in text
        assert REPLY_LINE not in text and text.count(HELP_LINE) == 1


def test_no_footer_in_the_end_mail(engine, nb_game):
    start = last_outbox_id(engine)
    lifecycle.end(engine, "nb1", "the players agreed", who="gm:alice")
    mails = outbox(engine, start)
    assert len(mails) == 2
    for msg in mails:
        assert "Game ended" in msg["Subject"] and can_do_nothing(body(msg))


def test_no_footer_for_an_observer(engine, nb_game):
    with engine.store.write():
        observers.add(engine, "nb1", EVE)
    start = last_outbox_id(engine)
    mover, order = legal_move(engine, "nb1")
    engine.ingest(order_mail(f"{mover}@example.org", order, game_id="nb1", password=nb_game[mover]))
    (seen,) = mails_to(engine, EVE, start)
    assert "report" in seen["Subject"] and can_do_nothing(body(seen))
    assert REPLY_LINE in body(mails_to(engine, "ada@example.org", start)[0])


def test_gm_eject_speaks_to_the_one_removed_prints_no_state_and_scores_say_left(engine):
    engine.create_game("fuzzy-borders", "fb2", PLAYERS3, seed=5)
    start = last_outbox_id(engine)
    said = lifecycle.eject(engine, "fb2", "cy", who="gm:alice", why="no orders for a month")
    assert "(state" not in said and said == "cy left game fb2; the game goes on without them"
    (told,) = mails_to(engine, "cy@example.org", start)
    text = body(told)
    assert "You were removed from game fb2 by the game master." in text
    assert "has removed cy" not in text and can_do_nothing(text)
    for address in ("ada@example.org", "bob@example.org"):
        notice, report = mails_to(engine, address, start)
        assert "The game master has removed cy from the game." in body(notice)
        assert REPLY_LINE in body(notice)
        (cy_line,) = [line for line in body(report).splitlines() if line.startswith("  cy ")
                      and line.rstrip().endswith(")")]
        assert cy_line.rstrip().endswith("(left)")
        assert "(left)" not in [line for line in body(report).splitlines() if line.startswith("  ada ")][-1]
    assert audit.verify(engine, "fb2").differences == []  # the archive still matches the replay


def test_a_replaced_player_is_told_the_seat_passed_on_not_to_reset_it(engine, nb_game):
    start = last_outbox_id(engine)
    lifecycle.replace(engine, "nb1", "bob", "dora@example.org", who="gm:alice", why="bob asked")
    (told,) = mails_to(engine, "bob@example.org", start)
    assert "Your seat bob in game nb1 has passed on to another player" in body(told)
    assert can_do_nothing(body(told))
    start = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "b4xd4", game_id="nb1", password=nb_game["bob"]))
    (reply,) = mails_to(engine, "bob@example.org", start)
    text = " ".join(body(reply).split())
    assert "Your seat bob in game nb1 has passed on to another player" in text
    assert "PASSWORD RESET" not in text and "password is wrong" not in text


# --- replies ----------------------------------------------------------------------------
def test_an_empty_mail_is_told_it_was_empty_above_the_help(engine):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("carol@example.net", ""))
    (reply,) = outbox(engine, start)
    text = body(reply)
    assert text.startswith(MARKER + "\n\nYour mail was empty")
    assert "How to play by mail with gm" in text and "empty" in reply["Subject"]
    start = last_outbox_id(engine)
    engine.ingest(order_mail("carol@example.net", "HELP"))
    assert "empty" not in body(outbox(engine, start)[0])


def test_the_wrong_password_reply_mentions_password_reset(engine, nb_game):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "b4xd4", game_id="nb1", password="guess-again"))
    (reply,) = outbox(engine, start)
    text = " ".join(body(reply).split())
    assert "the password is wrong" in text and "PASSWORD RESET nb1" in text


def test_the_unknown_game_reply_names_the_senders_games_only(engine, nb_game):
    engine.create_game("fuzzy-borders", "fb9", [("cy", "cy@example.org"), ("dan", "dan@example.org")], seed=2)
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "b4xd4", game_id="zz9", password="x"))
    engine.ingest(order_mail("carol@example.net", "b4xd4", game_id="zz9", password="x"))
    (to_ada,) = mails_to(engine, "ada@example.org", start)
    (to_carol,) = mails_to(engine, "carol@example.net", start)
    ada = " ".join(body(to_ada).split())
    assert "no game called 'zz9'" in ada and "The games this address plays: nb1." in ada
    assert "fb9" not in ada  # never other people's games
    carol = body(to_carol)
    assert "no game called 'zz9'" in carol and "nb1" not in carol and "fb9" not in carol


def test_settings_changed_is_mailed_only_when_something_changed(engine, nb_game):
    start = last_outbox_id(engine)
    lifecycle.change_settings(engine, "nb1", {"press": "white"})  # as it is already
    assert outbox(engine, start) == []
    lifecycle.change_settings(engine, "nb1", {"press": "grey", "format": "html"})  # one changes
    mails = outbox(engine, start)
    assert len(mails) == 2
    assert all("press=grey." in body(m) and "format=" not in body(m) for m in mails)


def test_fuzzy_borders_news_of_a_turn_one_clash_reads_as_sentences(engine):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    engine.ingest(order_mail("ada@example.org", "K10", game_id="fb1", password=secrets["ada"]))
    start = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "K10", game_id="fb1", password=secrets["bob"]))
    (report,) = [m for m in mails_to(engine, "ada@example.org", start) if "report" in m["Subject"]]
    html = html_of(report)
    page_news = html[html.index('id="news"'):html.index('id="picture"')]
    assert "both claimed K10 (FB6, turn 1)." in page_news
    assert ":." not in page_news and "):" not in page_news
    assert news(["ada and bob both claimed K10 (FB6, turn 1):", "ada places on K10."]) == [
        "Ada and bob both claimed K10 (FB6, turn 1).", "Ada places on K10."]


def test_the_rate_limit_notice_is_wrapped_prose_above_the_footer(engine):
    for _ in range(engine.config.error_replies_per_hour - 1):
        engine.ingest(order_mail("dan@example.net", "HELP"))
    start = last_outbox_id(engine)
    engine.ingest(order_mail("dan@example.net", "HELP"))
    (last,) = outbox(engine, start)
    lines = body(last).rstrip("\n").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("(This is the last answer"))
    assert all(len(line) <= 72 for line in lines[first:])
    assert lines[-1].endswith("kept but not answered.)")  # the notice is the mail's last words
    assert not any(line.startswith(" ") for line in lines[first:])  # prose, not a hanging indent


@pytest.mark.parametrize("reply_tokens", [True, False])
def test_a_reply_with_several_parts_has_one_footer(engine, nb_game, reply_tokens):
    engine.config.reply_tokens = reply_tokens
    start = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "HELP\nBOARD\nHISTORY", game_id="nb1",
                             password=nb_game["bob"]))
    (reply,) = outbox(engine, start)
    text = text_of(reply)
    assert text.count(HELP_LINE) == 1 and text.count("To send orders") == 1
