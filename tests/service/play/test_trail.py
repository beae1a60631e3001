"""The TRAIL mail command and the archive's trail table (RULINGS PX10: the full table
on request and kept in the archive), on long seeded Proximity games put in a store through the
service (gm.service.play.positions.edit_state, as a GM would); and TRAIL where a game keeps no trail."""

from __future__ import annotations

import html
import random
import re
import shutil

import pytest

from games import registry
from games.proximity import moves as px
from gm.present import archive as site
from gm.runtime import browser
from gm.service.play import positions
from gm.service.records import audit
from support import PLAYERS, body, last_outbox_id, order_mail, outbox

PX = registry.get("proximity")
ADA, EVE = "ada@example.org", "eve@example.net"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ROW = re.compile(r"^\s*(\d+) ([abc]\d) ")  # a row of a trail table: its number and square


def mails_to(engine, address, start):
    return [m for m in outbox(engine, start) if m["To"] == address]


def seq(engine, game_id):
    return engine.store.turns.latest_state(game_id)["seq"]


def put_in_store(engine, game_id, state):
    """The state saved as the game's position, through the service (a GM's edit)."""
    view = engine.load(game_id)
    positions.edit_state(engine, game_id, PX.dump(state), why="a long game", base_seq=view.seq)
    assert PX.dump(engine.load(game_id).state) == PX.dump(state)


def long_random_game(engine, game_id="px1"):
    """A seeded random Proximity game, from the store's own deal, played by the rules until each
    suit's trail has 200 rows or more, then put in the store.  Returns the passwords."""
    secrets = engine.create_game("proximity", game_id, PLAYERS, seed=4, options={"coins": "2"})
    state, rng = engine.load(game_id).state, random.Random(4)
    while min(len(side.rows) for side in state.sides) < 200:
        assert not PX.is_over(state)
        player = PX.to_move(state)[0]
        text = rng.choice(PX.legal_orders(state, player))
        state = PX.submit(state, player, PX.parse_order(state, player, text), engine.clock()).state
    put_in_store(engine, game_id, state)
    return secrets


def long_walk(engine, game_id="px1"):
    """ada's pawn 300 rows round a ring of the store's board, two coins, then two promotions:
    101 live rows (more than the 40 a report shows) and two struck stretches."""
    secrets = engine.create_game("proximity", game_id, PLAYERS, seed=4)
    data = PX.dump(engine.load(game_id).state)
    ring = ["a1", "a2", "b2", "c2", "c1", "b1"]  # each next to the one before, b1 next to a1
    trail = [ring[i % 6] for i in range(300)]
    ada = data["players"][0]
    ada["trail"] = [[sq, False] for sq in trail]
    ada["pieces"] = [{"id": 0, "kind": "pawn", "square": trail[-1], "age": 300},
                     {"id": 1, "kind": "coin", "square": trail[249], "age": 250},
                     {"id": 2, "kind": "coin", "square": trail[100], "age": 101}]
    data.update(mover=1, moves=700)
    state = PX.load(data)
    for turn in (701, 751):  # ada sacrifices her pawn twice, on turns 701 and 751
        state = state.clone()
        state.moves = turn - 1
        px.sacrifice(state, 0, state.sides[0].pawn().square)
    put_in_store(engine, game_id, PX.load(PX.dump(state)))
    return secrets


def trail_reply(engine, sender, text, **kwargs):
    """A mail with TRAIL through the real mail path: the one reply to it, and the outcome."""
    start, before = last_outbox_id(engine), seq(engine, "px1")
    outcome = engine.ingest(order_mail(sender, text, **kwargs))
    replies = mails_to(engine, sender, start)
    assert len(replies) == 1, [m["Subject"] for m in replies]
    assert seq(engine, "px1") == before  # nothing judged, nothing changed
    assert not engine.store.all("SELECT * FROM orders WHERE game_id = 'px1'")
    return outcome, replies[0]


def sections(text):
    """The rows (number, square) of each suit's table in a text, by the suit's player."""
    found, name = {}, None
    for line in text.splitlines():
        head = re.match(r"Trail of (\w+) ", line)
        if head:
            name = head.group(1)
            found[name] = []
        match = ROW.match(line)
        if match and name:
            found[name].append((int(match.group(1)), match.group(2)))
    return found


def live_rows(side):
    return [(n + 1, row.square) for n, row in enumerate(side.rows) if not row.struck]


def every_row(side):
    return [(n + 1, row.square) for n, row in enumerate(side.rows)]


def marked_struck(text, name):
    """The numbers of the rows of ``name``'s table in ``text`` marked as struck."""
    found, table = [], None
    for line in text.splitlines():
        head = re.match(r"Trail of (\w+) ", line)
        if head:
            table = head.group(1)
        if table == name and ROW.match(line) and "struck" in line.split():
            found.append(int(line.split()[0]))
    return found


def struck_numbers(side):
    return [n + 1 for n, row in enumerate(side.rows) if row.struck]


def promotion_lines(side):
    return [f"{len(p.rows)} struck by the promotion on turn {p.turn}" for p in side.promotions]


def test_trail_by_mail_late_in_a_long_random_game(engine):
    """TRAIL is a mail command of Proximity, never refused as "not written in this game's notation"."""
    secrets = long_random_game(engine)
    state = engine.load("px1").state
    assert sum(len(side.promotions) for side in state.sides) >= 10
    outcome, reply = trail_reply(engine, ADA, "TRAIL", game_id="px1", password=secrets["ada"])
    assert outcome.outcome == "help", outcome.detail
    assert reply["Subject"].startswith("[gm px1] Trail")
    text = body(reply)
    assert f"Game px1, turn {PX.turn(state)}:" in text
    assert "notation" not in text and "Nothing was changed" not in text
    # Every row of each suit, in order, the struck ones marked as struck (PX10), and a line for
    # each promotion's struck rows.
    rows = sections(text)
    assert set(rows) == {"ada", "bob"}
    for side in state.sides:
        assert rows[side.name] == every_row(side)
        assert marked_struck(text, side.name) == struck_numbers(side) != []
        assert len(side.rows) >= 200
        for line in promotion_lines(side):
            assert line in text
    assert "not shown" not in text
    widths = [len(line) for line in text.splitlines()]
    assert max(widths) <= 72, max(widths)  # sent as plain lines, none wrapped
    assert reply.get_content_type() == "text/plain"


def test_trail_shows_every_row_the_shortened_report_leaves_out(engine):
    secrets = long_walk(engine)
    state = engine.load("px1").state
    ada = state.sides[0]
    assert len(ada.active_rows()) == 101 and len(ada.promotions) == 2
    # The report (BOARD) still shows the shortened table: the pawn's row and the rest counted.
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADA, "BOARD", game_id="px1", password=secrets["ada"]))
    (board,) = mails_to(engine, ADA, start)
    report = body(board)
    assert sections(report)["ada"] == [(101, ada.rows[100].square)]
    assert "    ... 100 live rows not shown ..." in report
    # TRAIL sends every row (PX10): the 101 live rows, and the 199 struck rows marked as struck
    # under the two promotions' lines.
    _, reply = trail_reply(engine, ADA, "TRAIL", game_id="px1", password=secrets["ada"])
    text = body(reply)
    assert len(live_rows(ada)) == 101
    assert sections(text)["ada"] == every_row(ada)
    assert marked_struck(text, "ada") == struck_numbers(ada) and len(struck_numbers(ada)) == 199
    assert [line.strip() for line in text.splitlines() if "struck by" in line] == [
        "rows 102-250: 149 struck by the promotion on turn 751",
        "rows 251-300: 50 struck by the promotion on turn 701",
    ]
    assert "not shown" not in text
    assert all(len(line) <= 72 for line in text.splitlines())


def test_trail_is_public_an_observer_or_anyone_may_ask(engine):
    """The trail is in every report and in the archive: TRAIL needs no password (rate-limited as
    help, like LIST <id>), by TRAIL <id> or below a GAME line."""
    long_walk(engine)
    full = "\n".join(PX.full_trail(engine.load("px1").state))
    for text, kwargs in (("TRAIL px1", {}), ("GAME px1\nTRAIL", {}), ("trail PX1", {})):
        outcome, reply = trail_reply(engine, EVE, text, **kwargs)
        assert outcome.outcome == "help", outcome.detail
        assert full in body(reply)
    # With a wrong password it is still only the public table; the orders are not read.
    outcome, reply = trail_reply(engine, EVE, "TRAIL", game_id="px1", password="wrong-guess")
    assert full in body(reply)


def test_trail_in_a_mail_with_an_order_is_a_command_never_an_order_line(engine):
    secrets = long_walk(engine)
    before = seq(engine, "px1")
    state = engine.load("px1").state
    order = PX.legal_orders(state, "bob")[0]
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail("bob@example.org", f"Hi,\nTRAIL\n{order}\nBob",
                                       game_id="px1", password=secrets["bob"]))
    assert outcome.outcome == "applied", outcome.detail
    assert seq(engine, "px1") == before + 1
    # one reply: bob's report, the trail table and the lines not read after it
    (reply,) = mails_to(engine, "bob@example.org", start)
    assert "Proximity report" in reply["Subject"]
    text = body(reply)
    # Commands are done before orders (as BOARD is): the table of the position the order met.
    assert "\n".join(PX.full_trail(state)) in text
    not_read = text[text.index("Not read (not orders)"):]
    assert "Hi," in not_read and "Bob" in not_read and "TRAIL" not in not_read


@pytest.mark.parametrize("kind", sorted(set(registry.available()) - {"proximity"}))
def test_trail_where_a_game_keeps_no_trail(engine, kind):
    secrets = engine.create_game(kind, "px1", PLAYERS, seed=3)
    outcome, reply = trail_reply(engine, ADA, "TRAIL", game_id="px1", password=secrets["ada"])
    text = " ".join(body(reply).split())
    title = registry.get(kind).title
    assert f"TRAIL: game px1 ({title}) keeps no trail table, so there is none to send." in text
    assert "Nothing was changed." in text and "notation" not in text
    assert outcome.outcome == "help"


def test_trail_of_no_such_game_and_without_a_game(engine):
    start = last_outbox_id(engine)
    engine.ingest(order_mail(EVE, "TRAIL zz9"))
    engine.ingest(order_mail(EVE, "TRAIL"))
    first, second = (" ".join(body(m).split()) for m in mails_to(engine, EVE, start))
    assert "TRAIL zz9: no game called 'zz9'" in first
    assert "write TRAIL below your GAME line, or TRAIL <id>" in second


def test_help_lists_trail(engine):
    secrets = long_walk(engine)
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADA, "HELP", game_id="px1", password=secrets["ada"]))
    (reply,) = mails_to(engine, ADA, start)
    text = body(reply)
    assert re.search(r"^ +TRAIL \[<id>\] +the full trail table, every row", text, re.M)
    assert "send TRAIL (below your GAME" in text and "PX10." in text


def test_the_archive_page_shows_the_full_trail_table(engine, tmp_path):
    long_walk(engine)
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    data = [audit.archive_data(engine, row["id"]) for row in engine.store.games.every_game()]
    site.build(tmp_path / "site", data, engine.clock())
    page = (tmp_path / "site" / "game-px1.html").read_text()
    state = engine.load("px1").state
    pre = re.findall(r'<pre class="trail">(.*?)</pre>', page, re.S)
    assert len(pre) == 1
    assert sections(pre[0])["ada"] == every_row(state.sides[0])
    assert marked_struck(html.unescape(pre[0]), "ada") == struck_numbers(state.sides[0]) != []
    table = "\n".join(PX.full_trail(state))
    assert html.unescape(pre[0]).strip("\n") == table  # as written: no markup, no wrap
    assert 'id="trail"' in page and f"Trail table (turn {PX.turn(state)})" in page
    assert "trail" not in (tmp_path / "site" / "game-nb1.html").read_text().lower()
    if CHROMIUM is not None:  # as a browser reads it: one monospace block, each row whole
        dom = browser.dump_dom(tmp_path / "site" / "game-px1.html")
        (shown,) = re.findall(r'<pre class="trail">(.*?)</pre>', dom, re.S)
        assert html.unescape(shown).strip("\n") == table
        assert "white-space: pre;" in (tmp_path / "site" / "archive.css").read_text()
