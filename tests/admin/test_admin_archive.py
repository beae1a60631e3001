"""The archive: gm history, the HTML site (checked in headless Chromium), gm verify, press."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from admin_helpers import body_of, history, neighbors_move, outbox
from games import registry
from gm.present import archive as site
from gm.runtime import browser
from gm.service.play import positions
from gm.service.records import audit
from gm.service.play import lifecycle as overrides
from gm.store.packing import pack_text
from support import PLAYERS, PLAYERS3, last_outbox_id, order_mail


def play(engine, game_id, n):
    for _ in range(n):
        loaded = engine.load(game_id)
        if loaded.rules.is_over(loaded.state):
            return
        mover, move = neighbors_move(engine, game_id)
        assert engine.gm_order(game_id, mover, move).outcome == "applied"


def play_out(engine, game_id):
    play(engine, game_id, 1000)
    assert engine.load(game_id).rules.is_over(engine.load(game_id).state)


def test_history_prints_log_and_messages(engine):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    play(engine, "nb1", 3)
    overrides.broadcast(engine, "nb1", "Hello all", who="gm:x")
    text = audit.history_text(engine, "nb1")
    assert "gm:x" in text and "broadcast" in text
    assert text.count("----- turn ") == len(engine.store.all("SELECT id FROM reports WHERE game_id = 'nb1'"))
    turn2 = audit.history_text(engine, "nb1", turn=2)
    assert "turn 2, report to ada" in turn2 and "turn 3, report" not in turn2
    assert "Messages sent" not in audit.history_text(engine, "nb1", log_only=True)


def test_history_by_mail(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    play(engine, "nb1", 2)
    since = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "HISTORY", game_id="nb1", password=secrets["bob"]))
    (reply,) = outbox(engine, since=since)
    body = body_of(reply)
    assert reply["recipient"] == "bob@example.org"
    assert "===== Turn 1 =====" in body and "===== Turn 3 =====" in body
    assert "(you)" in body and "bob" in body


def test_verify_a_clean_game_then_a_tampered_one(engine):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    play(engine, "nb1", 6)
    positions.rollback(engine, "nb1", 4, why="test")
    play(engine, "nb1", 2)
    overrides.resend(engine, "nb1")
    result = audit.verify(engine, "nb1")
    assert result.ok, result.text()
    assert result.states == 10 and result.orders == 8 and result.reports > 10
    # Tamper with a stored state and an archived report: both are found.
    with engine.store.write():
        row = engine.store.one("SELECT state, state_packing FROM states WHERE game_id = 'nb1' AND seq = 3")
        data = engine.store.turns.state_data(row)
        data["board"] = "." + data["board"][1:] if data["board"][0] != "." else "F" + data["board"][1:]
        state, packing = pack_text(json.dumps(data))
        engine.store.db.execute("UPDATE states SET state = :state, state_packing = :packing "
                                "WHERE game_id = 'nb1' AND seq = 3", {"state": state, "packing": packing})
        rid = engine.store.one("SELECT MAX(id) AS n FROM reports WHERE kind = 'report'")["n"]
        (body,) = [r["body"] for r in engine.store.reports.reports_of("nb1", kind="report") if r["id"] == rid]
        body, packing = pack_text(body + "extra")
        engine.store.db.execute("UPDATE reports SET body = :body, body_packing = :packing WHERE id = :id",
                                {"body": body, "packing": packing, "id": rid})
    result = audit.verify(engine, "nb1")
    assert not result.ok
    assert any("state 3 differs" in d for d in result.differences)
    assert any(f"report #{rid}" in d for d in result.differences)


@pytest.mark.skipif("fuzzy-borders" not in registry.available(), reason="games/fuzzy_borders not importable")
def test_verify_a_simultaneous_game_with_deadline_closes(engine, clock):
    engine.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=9, options={"deadline": "24h", "side": "5"})
    rng = random.Random(3)
    for turn in range(3):
        loaded = engine.load("fb1")
        for name in loaded.rules.to_move(loaded.state)[:2]:  # cy never sends orders
            text = loaded.rules.random_order(engine.load("fb1").state, name, rng)
            engine.gm_order("fb1", name, text)
        clock.advance(25 * 3600)
        engine.tick()
    assert len(engine.store.all("SELECT * FROM orders WHERE origin = 'deadline'")) == 3
    result = audit.verify(engine, "fb1")
    assert result.ok, result.text()


def test_press(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS3, seed=4, options={"press": "grey"})
    since = last_outbox_id(engine)
    out = engine.ingest(order_mail("ada@example.org", "PRESS TO ALL\nLet us gang up on cy.\nEND of plan\nENDPRESS",
                                   game_id="nb1", password=secrets["ada"]))
    assert out.outcome == "help"
    mails = outbox(engine, since=since)
    press = [m for m in mails if "Press from" in m["subject"]]
    assert sorted(m["recipient"] for m in press) == ["bob@example.org", "cy@example.org"]
    text = body_of(press[0])
    assert "Let us gang up on cy.\nEND of plan" in text and "From: anonymous" in text and "ada" not in text
    assert any(m["recipient"] == "ada@example.org" and "delivered" in body_of(m) for m in mails)
    assert history(engine, "nb1", "press")[-1]["actor"] == "ada"  # the GM can tell who wrote
    assert len(engine.store.all("SELECT * FROM reports WHERE kind = 'press'")) == 3  # 2 copies + archive
    # To one player, with white press: the sender is named.
    from gm.service.table import deadlines

    deadlines.save_settings(engine.store, "nb1", {"press": "white"})
    since = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "PRESS TO cy\nhi cy\nENDPRESS", game_id="nb1", password=secrets["bob"]))
    (to_cy,) = [m for m in outbox(engine, since=since)
                if "Press" in m["subject"] and m["recipient"] != "bob@example.org"]
    assert to_cy["recipient"] == "cy@example.org" and "From: bob" in body_of(to_cy)
    # To nobody, and with press off: refused, nothing delivered.
    since = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "PRESS TO zed\nhi\nENDPRESS", game_id="nb1", password=secrets["bob"]))
    assert [m["recipient"] for m in outbox(engine, since=since)] == ["bob@example.org"]
    deadlines.save_settings(engine.store, "nb1", {"press": "none"})
    since = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "PRESS TO ALL\nhi\nENDPRESS", game_id="nb1", password=secrets["bob"]))
    mails = outbox(engine, since=since)
    assert [m["recipient"] for m in mails] == ["bob@example.org"] and "Press is off" in body_of(mails[0])


def build_site(engine, tmp_path):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4, options={"press": "white"})
    play_out(engine, "nb1")
    secrets = engine.create_game("neighbors", "nb2", PLAYERS3, seed=5)
    play(engine, "nb2", 3)
    engine.ingest(order_mail("cy@example.org", "PRESS TO ALL\n<b>hello</b> & bye\nENDPRESS",
                             game_id="nb2", password=secrets["cy"]))
    overrides.end(engine, "nb2", "players agreed", winners=["cy"])
    data = [audit.archive_data(engine, row["id"]) for row in engine.store.games.every_game()]
    return site.build(tmp_path / "site", data, engine.clock())


def test_archive_files(engine, tmp_path):
    index = build_site(engine, tmp_path)
    html = index.read_text()
    assert 'href="game-nb1.html"' in html and 'href="game-nb2.html"' in html
    page = (tmp_path / "site" / "game-nb1.html").read_text()
    turns = engine.load("nb1").rules.turn(engine.load("nb1").state)
    assert page.count('<section class="turn"') == turns
    assert 'href="#turn-2"' in page and '<pre class="report">' in page
    page2 = (tmp_path / "site" / "game-nb2.html").read_text()
    assert "&lt;b&gt;hello&lt;/b&gt; &amp; bye" in page2  # press is escaped, never markup
    assert "players agreed" in page2


def test_a_game_page_links_its_rules_in_gms_words(engine, tmp_path):
    """The rules pages (docs/rules/) are linked from the archive, published beside it."""
    build_site(engine, tmp_path)
    page = (tmp_path / "site" / "game-nb1.html").read_text()
    assert 'href="rules-neighbors.txt"' in page
    rules = (tmp_path / "site" / "rules-neighbors.txt").read_text()
    assert rules == (Path(__file__).resolve().parents[2] / "docs" / "rules" / "neighbors.md").read_text()
    assert "Rulings in force" in rules


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                    "(Debian: apt-get install -y chromium)")
def test_archive_in_a_real_browser(engine, tmp_path):
    index = build_site(engine, tmp_path)
    dom = browser.dump_dom(index)
    rows = re.findall(r'<tr class="game" data-game="(\w+)">', dom)
    assert rows == ["nb1", "nb2"]
    assert "winner: cy" in dom
    page = tmp_path / "site" / "game-nb1.html"
    dom = browser.dump_dom(page)
    assert "<h1>Neighbors game nb1</h1>" in dom
    # The board survives as a monospace block, every column in place.
    loaded = engine.load("nb1")
    board = loaded.rules.render_board(loaded.state, None).strip("\n")
    pre = re.findall(r'<pre class="report">(.*?)</pre>', dom, re.S)
    assert pre and board.split("\n")[1] in pre[-1]
    out = browser.screenshot(page, tmp_path / "shot.png", size="900,900")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    # The live archive's additions: each game's last change and feed, the feed named in the page.
    dom = browser.dump_dom(index)
    assert "<th>Last change</th>" in dom and 'href="game-nb1.atom"' in dom
    assert 'rel="alternate" type="application/atom+xml"' in browser.dump_dom(page)
    # A phone's width, for a person to look at (the picture is scaled to the screen by the CSS).
    from PIL import Image

    phone = Image.open(browser.screenshot(page, tmp_path / "phone.png", size="390,1600"))
    assert phone.size == (390, 1600)
    assert "img.picture { display: block; max-width: 100%" in (tmp_path / "site" / "archive.css").read_text()
