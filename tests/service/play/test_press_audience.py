"""Who a press message went to is data (reports.audience), never read from its text.

The attack: a PRESS TO GM whose text quotes an earlier public press (so it holds a line
"To: ALL") was shown in every player's HTML report, in the archive and in the Atom feed,
because public press was picked by the substring "\\nTo: ALL\\n" of its body.
"""

from __future__ import annotations

import random
import sqlite3
import xml.etree.ElementTree as ET

from gm.present import archive as site
from gm.service.records import audit
from gm.store import Store, schema
from support import PLAYERS3, last_outbox_id, order_mail, outbox, packed_as_before

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

BOSS = "boss@example.org"
PUBLIC = "Hello all, from ada."
SECRET = "bob: secret plan against cy"  # nothing HTML escapes: found as written in a page
QUOTING = f"Ada wrote to everyone:\nPress in game nb1, turn 1\nFrom: ada\nTo: ALL\n\n{PUBLIC}\n\n{SECRET}"


def texts_of(msg) -> str:
    """Every text part of a mail (the text report and its HTML page), joined."""
    return "\n".join(part.get_content() for part in msg.walk()
                     if part.get_content_maintype() == "text")


def play_by_mail(engine, secrets: dict, moves: int, rng: random.Random) -> None:
    """``moves`` orders, each mailed by the player to move: every one makes a report mail."""
    for _ in range(moves):
        view = engine.load("nb1")
        (mover,) = view.rules.to_move(view.state)
        move = view.rules.random_order(view.state, mover, rng)
        outcome = engine.ingest(order_mail(f"{mover}@example.org", move, game_id="nb1",
                                           password=secrets[mover]))
        assert outcome.outcome == "applied", outcome.detail


def test_press_to_gm_quoting_public_press_stays_private(engine, config, tmp_path):
    config.gm_address = BOSS
    secrets = engine.create_game("neighbors", "nb1", PLAYERS3, seed=7,
                                 options={"press": "white", "format": "html"})
    start = last_outbox_id(engine)
    assert engine.ingest(order_mail("ada@example.org", f"PRESS TO ALL\n{PUBLIC}\nENDPRESS", game_id="nb1",
                                    password=secrets["ada"])).outcome == "help"
    after_public = last_outbox_id(engine)
    assert engine.ingest(order_mail("bob@example.org", f"PRESS TO GM\n{QUOTING}\nENDPRESS", game_id="nb1",
                                    password=secrets["bob"])).outcome == "help"
    # Every mail the two press messages made: the public one to bob and cy, its confirmation to
    # ada; bob's to the game master alone, its confirmation to bob.
    public_mails = outbox(engine, start)[:after_public - start]
    assert sorted(m["To"] for m in public_mails) == ["ada@example.org", "bob@example.org", "cy@example.org"]
    private_mails = outbox(engine, after_public)
    assert sorted(m["To"] for m in private_mails) == ["bob@example.org", BOSS]
    (to_boss,) = [m for m in private_mails if m["To"] == BOSS]
    assert SECRET in texts_of(to_boss) and "From: bob" in texts_of(to_boss)
    (confirmation,) = [m for m in private_mails if m["To"] == "bob@example.org"]
    assert "delivered" in texts_of(confirmation)
    # Who each went to is stored with every copy.
    rows = engine.store.all("SELECT player, audience FROM reports WHERE kind = 'press' ORDER BY id")
    assert [(r["player"], r["audience"]) for r in rows] == [
        ("bob", "all"), ("cy", "all"), (None, "all"), (None, "gm")]

    # The game goes on: every report mail (text and HTML) carries the public press, not bob's.
    before_reports = last_outbox_id(engine)
    play_by_mail(engine, secrets, 1, random.Random(3))
    html_reports = [m for m in outbox(engine, before_reports) if m.get_content_type() == "multipart/alternative"]
    assert sorted(m["To"] for m in html_reports) == ["ada@example.org", "bob@example.org", "cy@example.org"]
    assert all(PUBLIC in texts_of(m) for m in html_reports)  # the page shows public press
    play_by_mail(engine, secrets, 2, random.Random(4))
    for msg in outbox(engine, before_reports):
        assert SECRET not in texts_of(msg), (msg["To"], msg["Subject"])

    # The archive page and the Atom feed: the public press, never bob's.
    data = audit.archive_data(engine, "nb1")
    written = site.write_game(tmp_path, data, engine.clock(), "example.test")
    page = (tmp_path / site.page_name("nb1")).read_text()
    feed = (tmp_path / "game-nb1.atom").read_bytes()
    assert written and PUBLIC in page and SECRET not in page
    root = ET.fromstring(feed)
    feed_text = " ".join(el.text or "" for el in root.iter())
    assert PUBLIC in feed_text and SECRET not in feed_text


def test_press_to_named_players_and_gm_is_not_public(engine, config):
    config.gm_address = BOSS
    secrets = engine.create_game("neighbors", "nb1", PLAYERS3, seed=7, options={"press": "grey"})
    engine.ingest(order_mail("ada@example.org", f"PRESS TO bob, GM\n{QUOTING}\nENDPRESS", game_id="nb1",
                             password=secrets["ada"]))
    rows = engine.store.all("SELECT player, audience FROM reports WHERE kind = 'press' ORDER BY id")
    assert [(r["player"], r["audience"]) for r in rows] == [("bob", "players"), (None, "players")]
    assert engine.store.reports.public_press("nb1") == []


# --- rows archived before the audience was stored: classified once, by the migration ----------
def press_body(to: str, text: str) -> str:
    return (f"Press in game g1, turn 1\nFrom: ada\nTo: {to}\n\n{text}\n\n--\n"
            "This message was passed on by gm, unread.\n")


def test_press_audience_of_reads_the_header_never_the_text():
    assert schema.press_audience_of(press_body("ALL", "hi")) == "all"
    assert schema.press_audience_of(press_body("ALL, GM", "hi")) == "all"
    assert schema.press_audience_of(press_body("GM", QUOTING)) == "gm"
    assert schema.press_audience_of(press_body("bob, cy", QUOTING)) == "players"
    assert schema.press_audience_of(press_body("bob, GM", "To: ALL")) == "players"
    wrapped = "Press in game g1\nFrom: ada\nTo: bob, cy, dee, eve, fay, gil, hal, ivy, jon, kim, lea,\n  GM\n\nx"
    assert schema.press_audience_of(wrapped) == "players"
    assert schema.press_audience_of("Not gm's header\nTo: ALL\n\ntext") == "players"


def test_the_migration_classifies_old_press_once(tmp_path):
    """A step-10 file built with plain sqlite3, as that gm left it; the same migration on both back
    ends is test_the_migration_classifies_old_press_on_both_backends."""
    path = tmp_path / "gm.sqlite"
    db = sqlite3.connect(str(path))
    for step in schema.STEPS:
        if step.number <= 10:  # a store made before step 11
            for statement in schema.statements(step.sql):
                db.execute(statement)
    old = [(None, press_body("ALL", "public news")),
           (None, press_body("GM", QUOTING)),  # the attack, stored before the fix
           ("bob", press_body("bob", QUOTING)),
           (None, press_body("ALL", "long public news " * 200))]  # stored compressed
    for player, text in old:
        db.execute("INSERT INTO reports (game_id, turn, seq, player, kind, body, created) "
                   "VALUES ('g1', 1, 1, ?, 'press', ?, 0)", (player, packed_as_before(text)))
    db.execute("INSERT INTO reports (game_id, turn, seq, player, kind, body, created) "
               "VALUES ('g1', 1, 1, 'bob', 'report', 'To: ALL', 0)")
    db.execute("PRAGMA user_version = 10")
    db.commit()
    db.close()
    store = Store(path)
    try:
        rows = store.all("SELECT kind, audience FROM reports ORDER BY id")
        assert [(r["kind"], r["audience"]) for r in rows] == [
            ("press", "all"), ("press", "gm"), ("press", "players"), ("press", "all"), ("report", None)]
        assert [r["body"] for r in store.reports.public_press("g1")] == [old[0][1], old[3][1]]
    finally:
        store.close()


# What steps 11 to 22 made, undone (written once for both back ends).
UNDO_AFTER_STEP_10 = (
    "ALTER TABLE reports DROP COLUMN audience",  # step 11's
    "ALTER TABLE messages DROP COLUMN auth",  # step 12's
    "DROP TABLE bounce_holds",
    "DROP TABLE holds",  # step 13's
    "DROP TABLE daemons",  # step 14's
    "DROP TABLE outages",
    "DROP TABLE draw_proposals",  # step 16's
    "DROP TABLE address_settings",  # step 17's
    "ALTER TABLE players DROP COLUMN display_name",  # step 18's
    "ALTER TABLE reports DROP COLUMN gm_version",  # step 19's
    "ALTER TABLE reports DROP COLUMN digest",
    "ALTER TABLE states DROP COLUMN state_packing",  # step 21's
    "ALTER TABLE reports DROP COLUMN body_packing",  # step 22's
    "ALTER TABLE outbox DROP COLUMN claimed_by",  # step 23's (daemons went with step 14's)
    "ALTER TABLE players DROP COLUMN language",  # step 34's (address_settings.language went with step 17's)
    "DROP TABLE public_players",  # step 33's
    "DROP TABLE rated_games",
    "DROP TABLE rated_results",
    "DROP TABLE ratings",
    "DROP TABLE tournaments",
    "DROP TABLE tournament_entries",
    "DROP TABLE tournament_games",
    "DROP TABLE rematch_offers",
    "DROP TABLE store_secrets",  # step 32's
    "DROP TABLE conditional_lines",  # step 26's
    "DROP TABLE takebacks",  # step 27's
    "DROP TABLE away_notices",  # step 31's
    "DROP TABLE calendar_events",  # step 30's (address_settings.calendar went with step 17's)
    "ALTER TABLE players DROP COLUMN calendar",
    "DROP TABLE held_letters",  # step 29's
    "DROP TABLE digests",
    "DROP TABLE seat_paces",
    "DROP TABLE address_paces",
    "DROP TABLE mail_threads",  # step 28's
)


def test_the_migration_classifies_old_press_on_both_backends(store_target):
    from gm.store.postgres import VERSION_TABLE, PostgresStore

    old = [(None, press_body("ALL", "public news")), (None, press_body("GM", QUOTING)),
           ("bob", press_body("bob, GM", QUOTING)), (None, press_body("ALL", "long public news " * 200))]
    store = Store(store_target)
    with store.write():
        for player, text in old:
            store.reports.add_report("g1", 1, 1, player, "press", text, None, 0.0)
        store.reports.add_report("g1", 1, 1, "bob", "report", "To: ALL", None, 0.0)
    # Back to a database made before step 11: no audience column, nor what the later steps made.
    run = store.db.raw if isinstance(store, PostgresStore) else store.db.execute
    for statement in UNDO_AFTER_STEP_10:
        run(statement)
    run(f"UPDATE {VERSION_TABLE} SET version = 10" if isinstance(store, PostgresStore)
        else "PRAGMA user_version = 10")
    store.close()
    store = Store(store_target)
    try:
        rows = store.all("SELECT kind, audience FROM reports ORDER BY id")
        assert [(r["kind"], r["audience"]) for r in rows] == [
            ("press", "all"), ("press", "gm"), ("press", "players"), ("press", "all"), ("report", None)]
        assert [r["body"] for r in store.reports.public_press("g1")] == [old[0][1], old[3][1]]
    finally:
        store.close()
