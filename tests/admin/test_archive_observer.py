"""The archive is an observer's view (issue 15): no sealed order before the rules reveal it,
no seat's private lines, never a BOARD reply."""

from __future__ import annotations

from gm.present import archive as site
from gm.service import audit
from support import PLAYERS, order_mail


def build(engine, tmp_path) -> str:
    data = [audit.archive_data(engine, row["id"]) for row in engine.store.games()]
    index = site.build(tmp_path / "site", data, engine.clock())
    return "\n".join(p.read_text() for p in index.parent.glob("game-*.html"))


def test_fuzzy_borders_sealed_claim_is_not_in_the_archive_until_the_turn_is_judged(engine, tmp_path):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    engine.ingest(order_mail("ada@example.org", "K11", game_id="fb1", password=secrets["ada"]))
    private = engine.store.all("SELECT body FROM reports WHERE kind = 'reply' AND player = 'ada'")
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
    boards = engine.store.reports_of("pp1", kind="board")
    assert boards and any("red/blue" in r["body"] or "3" in r["body"] for r in boards)
    page = build(engine, tmp_path)
    assert "red/blue" not in page and "(yours)" not in page
    assert "ada" in page  # the public bid is there, as everyone was told
