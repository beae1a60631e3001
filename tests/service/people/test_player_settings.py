"""SET FORMAT and SET TIMEZONE by mail: stored per player and game, in HELP, and what they change."""

from __future__ import annotations

import email
import email.policy

from gm.core import times
from gm.mail.outbound import marked
from gm.service.records import audit
from gm.store.packing import unpack_mail, unpack_text
from support import PLAYERS, body, last_outbox_id, order_mail, outbox

ADA = "ada@example.org"


def mail(engine, secrets, text: str, who: str = "ada"):
    since = last_outbox_id(engine)
    engine.ingest(order_mail(f"{who}@example.org", text, game_id="nb1", password=secrets[who]))
    return outbox(engine, since)


def seat(engine, name: str = "ada"):
    return engine.store.player("nb1", name)


def reports_to(engine, address: str, since: int) -> list[email.message.EmailMessage]:
    rows = engine.store.all("SELECT raw FROM outbox WHERE kind = 'report' AND recipient = :recipient "
                            "AND id > :since ORDER BY id", recipient=address, since=since)
    return [email.message_from_bytes(unpack_mail(r["raw"]), policy=email.policy.default) for r in rows]


def move(engine, secrets) -> int:
    """The player to move moves; returns the outbox id before the reports."""
    view = engine.load("nb1")
    mover = view.rules.to_move(view.state)[0]
    since = last_outbox_id(engine)
    mail(engine, secrets, view.rules.legal_orders(view.state, mover)[0], mover)
    return since


def test_help_lists_both_settings(engine, nb_game):
    (reply,) = mail(engine, nb_game, "HELP")
    text = body(reply)
    assert "SET FORMAT TEXT|HTML" in text and "SET TIMEZONE <zone>" in text


def test_set_format_text_then_html(engine, nb_game):
    (reply,) = mail(engine, nb_game, "SET FORMAT TEXT")
    assert "plain text only" in body(reply) and reply["Subject"].find("Format set") > 0
    assert seat(engine)["format"] == "text" and seat(engine, "bob")["format"] is None
    since = move(engine, nb_game)
    (to_ada,) = reports_to(engine, ADA, since)
    (to_bob,) = reports_to(engine, "bob@example.org", since)
    assert to_ada.get_content_type() == "text/plain" and not to_ada.is_multipart()
    assert to_bob.get_content_type() == "multipart/alternative"
    row = engine.store.one("SELECT body, body_packing FROM reports WHERE player = 'ada' AND kind = 'report' "
                           "ORDER BY id DESC LIMIT 1")
    archived = unpack_text(row["body"], row["body_packing"])
    assert to_ada.get_content() == marked(archived)
    mail(engine, nb_game, "SET FORMAT HTML")
    assert seat(engine)["format"] == "html"
    since = move(engine, nb_game)
    (to_ada,) = reports_to(engine, ADA, since)
    assert to_ada.get_content_type() == "multipart/alternative"


def test_a_bad_format_changes_nothing(engine, nb_game):
    (reply,) = mail(engine, nb_game, "SET FORMAT PDF")
    assert "SET FORMAT TEXT" in body(reply) and "Format not set" in reply["Subject"]
    assert seat(engine)["format"] is None


def test_set_timezone_shows_deadlines_in_local_time(engine, clock):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"deadline": "72h"})
    (reply,) = mail(engine, secrets, "SET TIMEZONE Europe/Berlin")
    berlin = times.zone("Europe/Berlin")
    due = clock() + 72 * 3600  # 2027-01-18 08:00 UTC: 09:00 in Berlin (CET, winter)
    assert "Europe/Berlin" in body(reply) and "Mon 18 Jan 09:00 CET (08:00 UTC)" in body(reply)
    assert seat(engine)["timezone"] == "Europe/Berlin"
    clock.advance(60)
    since = move(engine, secrets)
    (to_ada,) = reports_to(engine, ADA, since)
    (to_bob,) = reports_to(engine, "bob@example.org", since)
    due = engine.store.one("SELECT due FROM deadlines WHERE game_id = 'nb1'")["due"]
    local = times.format_due(due, clock(), berlin)
    assert local.startswith("Mon 18 Jan 09:01 CET (08:01 UTC), ")
    ada_text = to_ada.get_body(("plain",)).get_content()
    assert f"Deadline: {local}" in ada_text
    assert local in to_ada.get_body(("html",)).get_content()  # the masthead and orders too
    assert f"Deadline: {times.format_due(due, clock())}" in to_bob.get_body(("plain",)).get_content()
    assert audit.verify(engine, "nb1").ok  # the canonical report is unchanged but for its deadline


def test_a_zone_name_in_any_case(engine, nb_game):
    mail(engine, nb_game, "SET TIMEZONE AMERICA/NEW_YORK")
    assert seat(engine)["timezone"] == "America/New_York"


def test_a_bad_zone_gets_one_reply_and_changes_nothing(engine, nb_game):
    mail(engine, nb_game, "SET TIMEZONE Asia/Tokyo")
    replies = mail(engine, nb_game, "SET TIMEZONE Mars/Olympus")
    assert len(replies) == 1
    text = " ".join(body(replies[0]).split())
    assert "Time zone not set" in replies[0]["Subject"]
    assert "Europe/Berlin" in text and "America/New_York" in text and "List of tz database time zones" in text
    assert seat(engine)["timezone"] == "Asia/Tokyo"


def test_a_reminder_shows_the_readers_zone(engine, clock):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"deadline": "72h"})
    mover = engine.load("nb1").rules.to_move(engine.load("nb1").state)[0]
    mail(engine, secrets, "SET TIMEZONE America/New_York", mover)
    since = last_outbox_id(engine)
    clock.advance(49 * 3600)
    engine.tick()
    notices = [m for m in outbox(engine, since) if "Reminder" in m["Subject"]]
    assert len(notices) == 1 and notices[0]["To"] == f"{mover}@example.org"
    due = engine.store.one("SELECT due FROM deadlines WHERE game_id = 'nb1'")["due"]
    expected = times.format_due(due, clock(), times.zone("America/New_York"))
    assert "EST (" in expected and f"Deadline: {expected}." in " ".join(body(notices[0]).split())


def test_notices_and_confirmations_show_each_readers_zone(engine, clock):
    from gm.service.play import lifecycle
    from support import PLAYERS3

    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=2, options={"deadline": "72h"})
    engine.ingest(order_mail(ADA, "SET TIMEZONE Asia/Tokyo", game_id="fb1", password=secrets["ada"]))
    tokyo = times.zone("Asia/Tokyo")

    def due():
        return engine.store.one("SELECT due FROM deadlines WHERE game_id = 'fb1'")["due"]

    def last_to(address: str) -> str:
        row = engine.store.all("SELECT raw FROM outbox WHERE recipient = :recipient ORDER BY id DESC LIMIT 1",
                               recipient=address)[0]
        return " ".join(body(email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)).split())

    engine.ingest(order_mail(ADA, "K11", game_id="fb1", password=secrets["ada"]))  # sealed: a confirmation
    assert f"Deadline: {times.format_due(due(), clock(), tokyo)}" in last_to(ADA)
    lifecycle.set_deadline(engine, "fb1", "+48h")
    assert times.format_due(due(), clock(), tokyo) in last_to(ADA) and "JST (" in last_to(ADA)
    assert times.format_due(due(), clock()) in last_to("bob@example.org")
    lifecycle.pause(engine, "fb1")
    clock.advance(3600)
    lifecycle.resume(engine, "fb1")
    assert f"Deadline: {times.format_due(due(), clock(), tokyo)}." in last_to(ADA)
    assert f"Deadline: {times.format_due(due(), clock())}." in last_to("bob@example.org")
