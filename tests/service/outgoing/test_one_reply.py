"""Exactly one reply per mail, through the daemon's path (tests/mailroom.py), and a
simultaneous turn's mail naming whom it waits for.

A reply is the mail to the sender caused by that mail; the reports the other players get, and
the news of a sealed order, are not replies.
"""

from __future__ import annotations

import json
import random
import re

from typer.testing import CliRunner

from gm.cli import app
from gm.core import times
from gm.service.records import audit
from mailroom import Mailroom, text_of
from support import Clock, order_mail

ADA, BOB, CY = "ada@example.org", "bob@example.org", "cy@example.org"
SEATS = [("ada", ADA), ("bob", BOB), ("cy", CY)]


def room_with_games(tmp_path):
    room = Mailroom(tmp_path, clock=Clock())
    engine = room.engine
    secrets = {
        "nb1": engine.create_game("neighbors", "nb1", SEATS[:2], seed=5),
        "fb1": engine.create_game("fuzzy-borders", "fb1", SEATS, seed=2),
        "pp1": engine.create_game("pivot-pawns", "pp1", SEATS, seed=3),
    }
    room.run()  # the welcomes
    return room, secrets


def one_reply(room, raw: bytes, sender: str):
    """Deliver ``raw``, run the daemon once: the one mail to ``sender``, and every mail written."""
    room.deliver(raw)
    sent = room.run()
    mine = [msg for to, msg in sent if to == sender]
    message_id = re.search(rb"Message-ID: (<[^>]+>)", raw).group(1).decode()
    assert len(mine) == 1, [m["Subject"] for m in mine]
    assert mine[0]["In-Reply-To"] == message_id
    return mine[0], sent


def first_legal(room, game: str, name: str, skip: tuple[str, ...] = ()) -> str:
    view = room.engine.load(game)
    return next(o for o in view.rules.legal_orders(view.state, name) if o not in skip)


def waiting_line(text: str) -> str:
    (line,) = [x for x in text.splitlines() if x.startswith("Waiting for:")]
    return line


def test_a_corpus_of_mixed_mails_gets_one_reply_each(tmp_path):
    room, secrets = room_with_games(tmp_path)
    nb = secrets["nb1"]

    def nb_mail(sender, name, text):
        return order_mail(sender, text, game_id="nb1", password=nb[name])

    # an order and a thanks: the report, with the line not read in it
    move = first_legal(room, "nb1", "ada")
    reply, sent = one_reply(room, nb_mail(ADA, "ada", f"{move}\nthanks!"), ADA)
    text = text_of(reply)
    assert reply["Subject"] == "[gm nb1] Neighbors report"
    assert "Neighbors game nb1, turn 2" in text and "Not read (not orders)" in text and "thanks!" in text
    assert text.index("Neighbors game nb1, turn 2") < text.index("Not read")  # the report leads
    assert sorted(to for to, _ in sent) == [ADA, BOB]  # bob's report is not a reply
    # an order and BOARD
    move = first_legal(room, "nb1", "bob")
    reply, _ = one_reply(room, nb_mail(BOB, "bob", f"BOARD\n{move}"), BOB)
    assert reply["Subject"] == "[gm nb1] Neighbors report" and "Neighbors game nb1, turn 3" in text_of(reply)
    # commands only; a bad order; a greeting only; HELP without a game; a wrong password
    for sender, raw in [(ADA, nb_mail(ADA, "ada", "BOARD\nSET FORMAT TEXT")),
                        (ADA, nb_mail(ADA, "ada", "Zz9xq1")),
                        (BOB, nb_mail(BOB, "bob", "thanks!")),
                        (CY, order_mail(CY, "HELP")),
                        (CY, order_mail(CY, "LIST\nthanks!")),
                        (BOB, order_mail(BOB, "b2", game_id="nb1", password="wrong")),
                        (ADA, order_mail(ADA, "", game_id="nb1", password=nb["ada"])),
                        (ADA, nb_mail(ADA, "ada", "ABSENCE +1h +2h\nthanks!")),
                        (ADA, nb_mail(ADA, "ada", "PRESS TO bob\nHello bob.\nENDPRESS\nHISTORY"))]:
        one_reply(room, raw, sender)
    # press and an order in one mail: the report, the press confirmed in it; bob gets both
    move = first_legal(room, "nb1", "ada")
    reply, sent = one_reply(room, nb_mail(ADA, "ada", f"PRESS TO ALL\nYour move.\nENDPRESS\n{move}"), ADA)
    assert reply["Subject"] == "[gm nb1] Neighbors report" and "press" in text_of(reply).lower()
    assert "Neighbors game nb1, turn 4" in text_of(reply)
    assert sorted(to for to, _ in sent) == [ADA, BOB, BOB]
    # a sealed claim with press, then RESIGN from a simultaneous game
    fb = secrets["fb1"]
    claim = first_legal(room, "fb1", "ada")
    one_reply(room, order_mail(ADA, f"PRESS TO ALL\nHi.\nENDPRESS\n{claim}\nthanks!", game_id="fb1",
                               password=fb["ada"]), ADA)
    one_reply(room, order_mail(CY, "RESIGN", game_id="fb1", password=fb["cy"]), CY)


def test_the_order_that_completes_a_simultaneous_turn_is_answered_by_its_report(tmp_path):
    room, secrets = room_with_games(tmp_path)
    fb = secrets["fb1"]
    cells: list[str] = []

    def claim(sender, name, extra=""):
        order = first_legal(room, "fb1", name, skip=tuple(cells))
        cells.append(order)
        return order_mail(sender, f"{order}{extra}", game_id="fb1", password=fb[name])

    reply, sent = one_reply(room, claim(ADA, "ada"), ADA)
    text = text_of(reply)
    assert "[gm fb1] Orders received" in reply["Subject"]
    assert waiting_line(text) == "Waiting for: bob, cy"
    assert "ada" not in waiting_line(text) and "Players who may still send orders" not in text
    reply, _ = one_reply(room, claim(BOB, "bob", "\nthanks!"), BOB)
    assert waiting_line(text_of(reply)) == "Waiting for: cy"
    assert "Not read (not orders)" in text_of(reply)
    # gm show names whom the turn waits for too (the GM's report)
    shown = CliRunner().invoke(app, ["--config", room.conf, "show", "fb1"])
    assert shown.exit_code == 0 and waiting_line(shown.output) == "Waiting for: cy"
    shown = CliRunner().invoke(app, ["--config", room.conf, "show", "fb1", "--json"])
    assert json.loads(shown.output)["waiting_for"] == ["cy"]

    reply, sent = one_reply(room, claim(CY, "cy", "\nthanks!"), CY)
    text = text_of(reply)
    assert reply["Subject"] == "[gm fb1] Fuzzy Borders report"
    assert "You may replace" not in text and "Orders received" not in text
    assert "Fuzzy Borders game fb1, turn 2" in text and "Not read (not orders)" in text
    assert waiting_line(text) == "Waiting for: ada, bob, cy"  # a new turn: nobody has sent orders
    assert sorted(to for to, _ in sent) == [ADA, BOB, CY]  # everyone's report, once each
    html = reply.get_body(("html",)).get_content()  # the HTML part carries the answer too
    assert "Not read (not orders)" in html and "thanks!" in html
    assert "Waiting for: ada, bob, cy." in html and "<!-- answers -->" not in html


def test_a_bid_is_confirmed_once_and_its_news_goes_to_the_others(tmp_path):
    room, secrets = room_with_games(tmp_path)
    view = room.engine.load("pp1")
    order = view.rules.random_order(view.state, "ada", random.Random(1))  # a bid or a pass
    reply, sent = one_reply(room, order_mail(ADA, f"{order}\nthanks!", game_id="pp1",
                                             password=secrets["pp1"]["ada"]), ADA)
    text = text_of(reply)
    assert waiting_line(text) == "Waiting for: bob, cy"
    assert "Not read (not orders)" in text
    news = [to for to, msg in sent if "news" in msg["Subject"]]
    assert sorted(news) == [BOB, CY]


def test_a_confirmation_names_whom_it_waits_for_and_the_deadline_in_the_readers_zone(tmp_path):
    clock = Clock()
    room = Mailroom(tmp_path, clock=clock)
    secrets = room.engine.create_game("fuzzy-borders", "fb1", SEATS, seed=2, options={"deadline": "72h"})
    room.run()
    order = first_legal(room, "fb1", "ada")
    reply, _ = one_reply(room, order_mail(ADA, f"SET TIMEZONE Europe/Berlin\n{order}", game_id="fb1",
                                          password=secrets["ada"]), ADA)
    text = text_of(reply)
    due = room.engine.store.timers.deadline_row("fb1")["due"]
    local = times.format_due(due, clock(), times.zone("Europe/Berlin"))
    assert "CET" in local
    assert waiting_line(text) == "Waiting for: bob, cy"
    assert f"Deadline: {local}" in text  # in ada's zone, set by the same mail
    reply, _ = one_reply(room, order_mail(BOB, "BOARD", game_id="fb1", password=secrets["bob"]), BOB)
    assert waiting_line(text_of(reply)) == "Waiting for: bob, cy"  # a report mid-turn says it too
    assert f"Deadline: {times.format_due(due, clock())}" in text_of(reply)  # bob reads UTC


def test_the_folded_reports_are_archived_as_every_report_is(tmp_path):
    room, secrets = room_with_games(tmp_path)
    cells: list[str] = []
    for sender, name in [(ADA, "ada"), (BOB, "bob"), (CY, "cy")]:
        order = first_legal(room, "fb1", name, skip=tuple(cells))
        cells.append(order)
        one_reply(room, order_mail(sender, f"{order}\nthanks!", game_id="fb1", password=secrets["fb1"][name]),
                  sender)
    nb_move = first_legal(room, "nb1", "ada")
    one_reply(room, order_mail(ADA, f"Hi!\n{nb_move}", game_id="nb1", password=secrets["nb1"]["ada"]), ADA)
    for game in ("fb1", "nb1"):
        result = audit.verify(room.engine, game)
        assert result.ok, result.differences
        last = room.engine.store.one("SELECT MAX(outbox_id) AS n FROM reports WHERE game_id = :game "
                                     "AND player = :player", game=game, player="cy" if game == "fb1" else "ada")["n"]
        kept = room.engine.store.all("SELECT kind, turn FROM reports WHERE outbox_id = :outbox_id ORDER BY id",
                                     outbox_id=last)
        # one mail: the report of turn 2 and the note of the mail read on turn 1 beside it
        assert [(r["kind"], r["turn"]) for r in kept] == [("report", 2), ("reply", 1)]


def test_the_completing_order_after_a_gm_order_gets_one_report_with_the_gms_note(tmp_path):
    room, secrets = room_with_games(tmp_path)
    fb = secrets["fb1"]
    ada_claim = first_legal(room, "fb1", "ada")
    room.engine.gm_order("fb1", "ada", ada_claim)
    room.run()
    bob_claim = first_legal(room, "fb1", "bob", skip=(ada_claim,))
    one_reply(room, order_mail(BOB, bob_claim, game_id="fb1", password=fb["bob"]), BOB)
    cy_claim = first_legal(room, "fb1", "cy", skip=(ada_claim, bob_claim))
    reply, sent = one_reply(room, order_mail(CY, f"{cy_claim}\nthanks!", game_id="fb1", password=fb["cy"]), CY)
    text = text_of(reply)
    assert reply["Subject"] == "[gm fb1] Fuzzy Borders report" and "Fuzzy Borders game fb1, turn 2" in text
    assert "The game master entered the orders of ada this turn." in " ".join(text.split())
    assert "Not read (not orders)" in text and "You may replace" not in text
    assert sorted(to for to, _ in sent) == [ADA, BOB, CY]
    assert audit.verify(room.engine, "fb1").ok
