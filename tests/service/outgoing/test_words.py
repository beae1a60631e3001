"""Clear words: what players read is right, says nothing twice, and echoes no secret."""

from __future__ import annotations

import email.utils

from gm.service.play import lifecycle
from support import body, last_outbox_id, order_mail, outbox

H = 3600.0
PLAYERS3 = [("ada", "ada@example.org"), ("bob", "bob@example.org"), ("cy", "cy@example.org")]


def test_date_header_says_utc_as_plus_zero(engine, nb_game):
    (welcome, _) = outbox(engine)
    assert welcome["Date"].endswith("+0000")  # RFC 5322 3.3: -0000 would mean "zone unknown"
    assert email.utils.parsedate_to_datetime(welcome["Date"]).utcoffset().total_seconds() == 0


def test_the_welcome_names_the_other_players_not_the_reader(engine):
    engine.create_game("neighbors", "nb3", PLAYERS3, seed=3)
    welcomes = {m["To"]: body(m) for m in outbox(engine)}
    assert "with bob, cy." in welcomes["ada@example.org"]
    assert "with ada, cy." in welcomes["bob@example.org"]


def test_a_wrong_password_reply_says_it_once_and_never_echoes_the_password(engine, nb_game):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "b4xd4", subject="GAME nb1 PASSWORD hunter2 my move"))
    (reply,) = outbox(engine, start)
    text = body(reply)
    assert "password is wrong" in text
    assert text.count("Nothing was") + text.count("nothing changed") == 1
    assert "hunter2" not in reply["Subject"] and "PASSWORD ***" in reply["Subject"]


def test_no_gm_address_means_nobody_is_said_to_be_told(engine, clock):
    engine.create_game("neighbors", "nb1", PLAYERS3[:2], seed=1,
                       options={"deadline": "24h", "reminder": "0", "grace": "24h"})
    start = last_outbox_id(engine)
    clock.advance(25 * H)
    engine.tick()
    (late,) = [m for m in outbox(engine, start) if "Late" in m["Subject"]]
    assert "game master" not in body(late) and "keeps waiting" in body(late)
    clock.advance(24 * H)
    engine.tick()
    rows = engine.store.all("SELECT detail FROM history WHERE action = 'waiting'")
    assert rows and "no GM address" in rows[-1]["detail"] and "told" not in rows[-1]["detail"]


def test_a_gm_address_is_told_when_grace_ends(engine, config, clock):
    config.gm_address = "gm-human@example.org"
    engine.create_game("neighbors", "nb1", PLAYERS3[:2], seed=1,
                       options={"deadline": "24h", "reminder": "0", "grace": "24h"})
    clock.advance(49 * H)
    engine.tick()
    engine.tick()
    assert [m["To"] for m in outbox(engine) if "Late player" in m["Subject"]] == ["gm-human@example.org"]


def test_a_reminder_as_long_as_the_deadline_is_not_sent_at_the_start(engine, clock):
    engine.create_game("neighbors", "nb1", PLAYERS3[:2], seed=1, options={"deadline": "24h", "reminder": "24h"})
    start = last_outbox_id(engine)
    engine.tick()
    clock.advance(60)
    engine.tick()
    assert not [m for m in outbox(engine, start) if "Reminder" in m["Subject"]]
    clock.advance(25 * H)
    engine.tick()
    assert [m["Subject"] for m in outbox(engine, start) if "Late" in m["Subject"]]  # the deadline still counts


def test_a_change_of_settings_is_told_to_the_players(engine, nb_game):
    start = last_outbox_id(engine)
    lifecycle.change_settings(engine, "nb1", {"press": "grey", "deadline": "72h"}, who="gm:x")
    notes = outbox(engine, start)
    assert sorted(m["To"] for m in notes) == ["ada@example.org", "bob@example.org"]
    assert all("press=grey" in body(m) and "deadline=72h" in body(m) for m in notes)


def test_a_board_reply_is_not_archived_as_a_turn_report(engine, nb_game):
    reports_before = engine.store.reports.reports_of("nb1", kind="report")
    engine.ingest(order_mail("ada@example.org", "BOARD", game_id="nb1", password=nb_game["ada"]))
    assert engine.store.reports.reports_of("nb1", kind="report") == reports_before
    assert [r["player"] for r in engine.store.reports.reports_of("nb1", kind="board")] == ["ada"]


def test_the_welcome_lists_the_mail_commands_and_the_press_mode(engine):
    engine.create_game("neighbors", "nb2", PLAYERS3[:2], seed=3, options={"press": "grey"})
    text = body(outbox(engine)[0])
    for usage in ("BOARD", "HISTORY [ALL|N|N-M]", "ABSENCE <from> <to>", "PRESS TO <names|ALL|GM>"):
        assert usage in text, usage
    assert "Press in this game: on; your name is not shown (grey press)." in text
