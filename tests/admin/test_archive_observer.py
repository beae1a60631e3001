"""The archive is an observer's view: no sealed order before the rules reveal it,
no seat's private lines, never a BOARD reply."""

from __future__ import annotations

from gm.present import archive as site
from gm.service.records import audit
from support import PLAYERS, order_mail


def build(engine, tmp_path) -> str:
    data = [audit.archive_data(engine, row["id"]) for row in engine.store.games.every_game()]
    index = site.build(tmp_path / "site", data, engine.clock())
    return "\n".join(p.read_text() for p in index.parent.glob("game-*.html"))


def test_fuzzy_borders_sealed_claim_is_not_in_the_archive_until_the_turn_is_judged(engine, tmp_path):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    engine.ingest(order_mail("ada@example.org", "K11", game_id="fb1", password=secrets["ada"]))
    private = [r for r in engine.store.reports.reports_of("fb1", kind="reply") if r["player"] == "ada"]
    assert any("sealed: K11" in r["body"] for r in private)  # ada was told her sealed claim
    page = build(engine, tmp_path)
    assert "K11" not in page and "sealed" not in page.lower()
    engine.ingest(order_mail("bob@example.org", "K12", game_id="fb1", password=secrets["bob"]))
    assert engine.load("fb1").turn == 2  # judged: now the claims are public
    assert "K11" in build(engine, tmp_path)


def test_pivot_pawns_sealed_solution_never_reaches_the_archive(engine, tmp_path):
    secrets = engine.create_game("pivot-pawns", "pp1", PLAYERS, seed=5)
    solution = "red/blue green/red red/black"
    engine.ingest(order_mail("ada@example.org", f"BID 3: {solution}", game_id="pp1", password=secrets["ada"]))
    engine.ingest(order_mail("ada@example.org", "BOARD", game_id="pp1", password=secrets["ada"]))
    boards = engine.store.reports.reports_of("pp1", kind="board")
    assert boards and any("red/blue" in r["body"] or "3" in r["body"] for r in boards)
    page = build(engine, tmp_path)
    assert "red/blue" not in page and "(yours)" not in page
    assert "ada" in page  # the public bid is there, as everyone was told


def test_a_replaced_seats_welcome_never_reaches_the_archive(engine, tmp_path):
    from gm.service.play import lifecycle

    secrets = engine.create_game("pivot-pawns", "pp1", PLAYERS, seed=5)
    engine.ingest(order_mail("ada@example.org", "BID 3: red/blue green/red red/black", game_id="pp1",
                             password=secrets["ada"]))
    lifecycle.replace(engine, "pp1", "ada", "carol@example.org")
    welcome = [r for r in engine.store.reports.reports_of("pp1", kind="report") if r["player"] == "ada"][-1]["body"]
    assert "red/blue" in welcome  # the new player sees the seat's sealed solution
    assert "red/blue" not in build(engine, tmp_path)


def test_the_archive_has_no_relative_times_that_go_stale(engine, tmp_path):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=3, options={"deadline": "72h"})
    reports = engine.store.reports.reports_of("nb1", kind="report")
    assert any("from now" in r["body"] for r in reports)  # as mailed: "(3 days from now)"
    page = build(engine, tmp_path)
    assert "from now" not in page and " ago)" not in page


def test_resuming_a_game_is_told_to_the_players(engine):
    from gm.service.play import lifecycle
    from support import last_outbox_id, outbox

    engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
    lifecycle.pause(engine, "nb1", why="holiday")
    start = last_outbox_id(engine)
    lifecycle.resume(engine, "nb1", why="back")
    assert sorted(m["To"] for m in outbox(engine, start)) == ["ada@example.org", "bob@example.org"]


def test_each_turn_of_the_archive_shows_its_picture(engine, tmp_path):
    import io

    from PIL import Image

    engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    engine.gm_order("nb1", mover, view.rules.legal_orders(view.state, mover)[0])
    page = build(engine, tmp_path)
    pngs = sorted((tmp_path / "site").glob("game-nb1-turn-*.png"))
    assert [p.name for p in pngs] == ["game-nb1-turn-1.png", "game-nb1-turn-2.png"]
    assert all(f'src="{p.name}"' in page for p in pngs)
    assert Image.open(io.BytesIO(pngs[1].read_bytes())).format == "PNG"
