"""PREVIEW by mail: orders judged on a copy of the game and shown to their sender alone.

A preview in each of the five games; a preview changes nothing in the store
but the mail and its one reply (every table's rows compared before and
after); a bad order in a preview gets the reason a real one gets; nobody
else learns of a preview (their mail, the archive and its feed).
"""

from __future__ import annotations

import random

import pytest

from games import registry
from games.pivot_pawns import deck, solver
from gm.present import archive as site
from gm.service.records import audit
from gm.store.tables import metadata
from support import EXAMPLE_LAYOUT, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org"), ("cy", "cy@example.org")]
MAIL_TABLES = {"messages", "outbox"}  # the mail in and the mail out: the only rows a preview adds
# A preview's one reply, in every game: what was previewed, and that nothing was played.
HEAD = "PREVIEW of your orders for game"
NOTHING = "Nothing was played, stored or told to anyone"


def start(engine, kind: str, game_id: str, seats: int = 2, **options) -> dict[str, str]:
    return engine.create_game(kind, game_id, PLAYERS[:seats], seed=3, options=options)


def send(engine, game_id: str, name: str, password: str, text: str):
    """Mail ``text`` as ``name``; (outcome, every mail it made gm queue)."""
    first = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id,
                                       password=password))
    return outcome, outbox(engine, first)


def only_reply(mails, name: str):
    """The one mail queued: the reply to ``name``."""
    (reply,) = mails
    assert reply["To"] == f"{name}@example.org" and reply["In-Reply-To"]
    return reply


def rows(engine) -> dict[str, list]:
    """Every row of every table but the mail in and the mail out, in a stable order."""
    return {table: sorted((tuple(sorted(dict(row).items())) for row in
                           engine.store.all(f"SELECT * FROM {table}")), key=repr)
            for table in sorted(metadata.tables) if table not in MAIL_TABLES}


def first_order(engine, game_id: str) -> tuple[str, str]:
    """(the player to move, a legal order of theirs) in ``game_id``."""
    loaded = engine.load(game_id)
    mover = loaded.rules.to_move(loaded.state)[0]
    return mover, loaded.rules.random_order(loaded.state, mover, random.Random(1))


def par_bid(engine, game_id: str, extra: int = 0) -> str:
    """A Pivot Pawns bid of the round's par (plus ``extra``) with a shortest solution."""
    loaded = engine.load(game_id)
    pivots, best = loaded.rules.par(loaded.state)
    moves = " ".join(f"{deck.COLOURS[m]}/{deck.COLOURS[q]}" for m, q in best)
    return f"BID {pivots + extra}: {moves}"


# --- a preview in each game ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["neighbors", "phalanx", "proximity"])
def test_a_sequential_preview_shows_the_position_after_the_move(engine, kind):
    passwords = start(engine, kind, "g1")
    mover, order = first_order(engine, "g1")
    loaded = engine.load("g1")
    after = loaded.rules.submit(loaded.state, mover, loaded.rules.parse_order(loaded.state, mover, order),
                                engine.clock())
    outcome, mails = send(engine, "g1", mover, passwords[mover], f"PREVIEW\n{order}")
    assert outcome.outcome == "help" and outcome.detail.startswith("preview: ")
    reply = only_reply(mails, mover)
    text = body(reply)
    assert HEAD in text and NOTHING in " ".join(text.split())
    assert f"game g1, turn {loaded.rules.turn(after.state)}" in text  # the report of the turn after
    for event in after.events:
        assert event.text in text
    # The report mail's page and picture, as a report to this reader has them.
    assert [p.get_content_type() for p in reply.walk()].count("image/png") == 1
    assert engine.load("g1").seq == loaded.seq  # nothing was played


def test_a_neighbors_preview_says_what_the_capture_takes(engine):
    passwords = start(engine, "neighbors", "nb1", layout=EXAMPLE_LAYOUT)
    _, mails = send(engine, "nb1", "ada", passwords["ada"], "PREVIEW b4xd4")
    text = body(only_reply(mails, "ada"))
    assert "ada: Rb4xd4 takes a knight" in text and "To move: bob" in text
    assert engine.load("nb1").state.moves == ()


def test_a_preview_of_the_last_capture_shows_the_end_and_the_winner(engine):
    passwords = start(engine, "neighbors", "nb1", layout="R.F...." + "." * 35)
    reply = only_reply(send(engine, "nb1", "ada", passwords["ada"], "PREVIEW a6xc6")[1], "ada")
    text = body(reply)
    assert "bob has no legal capture: the game is over" in text and "Winner: ada." in text
    assert HEAD in reply.get_body(("html",)).get_content()  # the page says it is a preview, too
    assert not engine.load("nb1").rules.is_over(engine.load("nb1").state)


def test_a_fuzzy_borders_preview_shows_the_claim_on_the_board_and_no_other(engine):
    passwords = start(engine, "fuzzy-borders", "fb1", seats=3, side=4, radius=2)
    loaded = engine.load("fb1")
    cells = loaded.rules.legal_orders(loaded.state, "ada")
    assert send(engine, "fb1", "bob", passwords["bob"], cells[0])[0].outcome == "sealed"
    outcome, mails = send(engine, "fb1", "ada", passwords["ada"], f"PREVIEW\n{cells[-1]}")
    cell = cells[-1].split()[1]
    assert outcome.detail == f"preview: CLAIM {cell}"
    text = body(only_reply(mails, "ada"))
    assert f"Your claim {cell} is drawn on the board below as if placed" in text
    assert "clashes with yours (FB6) is not known yet" in " ".join(text.split())
    assert f"Your sealed claim for turn 1: {cell}" in text
    board = text.split("The report these orders would give you:")[1].split("[@] claimed (")[0]
    assert board.count("[@]") == 1 and "[*]" not in board  # ada's claim; bob's stays sealed
    assert "Sealed claims" not in board
    loaded = engine.load("fb1")
    assert "ada" not in loaded.state.sealed and loaded.state.sealed["bob"] == cells[0].split()[1]


def test_a_pivot_pawns_preview_plays_the_solution_pivot_by_pivot(engine):
    passwords = start(engine, "pivot-pawns", "pp1")
    bid = par_bid(engine, "pp1", extra=1)
    outcome, mails = send(engine, "pp1", "ada", passwords["ada"], f"PREVIEW\n{bid} red/green")
    assert outcome.outcome == "help"
    text = " ".join(body(only_reply(mails, "ada")).split())
    pivots = int(bid.split()[1].rstrip(":")) - 1
    for number in range(1, pivots + 1):
        assert f"pivot {number} (" in text
    assert f"pivot {pivots + 1} (red/green)" not in text  # after the landing: ignored (PP4)
    assert f"at pivot {pivots}, within your bid of {pivots + 1}" in text
    assert engine.load("pp1").state.bids == {}


def test_a_pivot_pawns_preview_names_the_pivot_that_fails(engine):
    passwords = start(engine, "pivot-pawns", "pp1")
    state = engine.load("pp1").state
    active, target = deck.ICON_COLOUR[state.token], deck.target_card(state.token)
    refusals = {(m, q): solver.apply(state.pawns, [(m, q)], active, target)[2]
                for m in range(5) for q in range(5) if m != q}
    (m, q), why = next(((m, q), why) for (m, q), why in refusals.items()
                       if why and why.startswith("pivot 1"))  # PP5: a card of the pawn's colour
    order = f"BID 1: {deck.COLOURS[m]}/{deck.COLOURS[q]}"
    text = " ".join(body(only_reply(send(engine, "pp1", "ada", passwords["ada"],
                                         f"PREVIEW {order}")[1], "ada")).split())
    assert f"{why}: the bid would fail here" in text


# --- nothing changes --------------------------------------------------------------------------

@pytest.mark.parametrize("kind, options", [
    ("neighbors", {"layout": EXAMPLE_LAYOUT}),
    ("phalanx", {}),
    ("proximity", {"time_bank": "3d"}),
    ("fuzzy-borders", {"side": "4", "radius": "2"}),
    ("pivot-pawns", {}),
])
def test_a_preview_changes_nothing_but_the_mail_and_its_reply(engine, kind, options):
    passwords = start(engine, kind, "g1", **options)
    mover, order = first_order(engine, "g1")
    if kind == "pivot-pawns":
        order = par_bid(engine, "g1")
    engine.ingest(order_mail("bob@example.org", "DRAW", game_id="g1", password=passwords["bob"]))
    engine.clock.advance(3600)  # a clock runs in Proximity: the preview spends none of it
    before = rows(engine)
    messages, sent = (engine.store.one(f"SELECT COUNT(*) AS n FROM {t}")["n"] for t in ("messages", "outbox"))
    for text in (f"PREVIEW\n{order}", "PREVIEW\nno such order", f"PREVIEW\n{order}\nPRESS TO ALL\nhi"):
        outcome, mails = send(engine, "g1", mover, passwords[mover], text)
        assert outcome.outcome == "help", outcome.detail
        only_reply(mails, mover)
    assert rows(engine) == before
    assert engine.store.one("SELECT COUNT(*) AS n FROM messages")["n"] == messages + 3
    assert engine.store.one("SELECT COUNT(*) AS n FROM outbox")["n"] == sent + 3
    # The real order after it is judged as if no preview had come.
    assert send(engine, "g1", mover, passwords[mover], order)[0].outcome in {"applied", "sealed"}


def test_a_preview_mail_does_nothing_else(engine):
    passwords = start(engine, "neighbors", "nb1", layout=EXAMPLE_LAYOUT)
    outcome, mails = send(engine, "nb1", "ada", passwords["ada"],
                          "Hello\nPREVIEW\nb4xd4\nRESIGN\nPRESS TO bob\nhi bob\nENDPRESS")
    text = " ".join(body(only_reply(mails, "ada")).split())
    assert "Not done, as a mail with PREVIEW does nothing else: RESIGN, PRESS." in text
    assert "Not read as orders (greetings and the like): Hello" in text
    assert all(p.active for p in engine.load("nb1").players)


# --- a bad order ----------------------------------------------------------------------------------

def reason(text: str) -> str:
    """A refusal's reason and legal orders, as the rejected template writes them."""
    return text.split("You sent:", 1)[1].split("The game as it stands now:")[0].split("\n--\n")[0].strip()


@pytest.mark.parametrize("name, order", [
    ("ada", "b2xd4"),      # illegal: the ferz on b2 cannot capture on d4
    ("ada", "hello"),      # not in the notation
    ("bob", "b4xd4"),      # not bob's turn: the reason, and the game as it stands
])
def test_a_bad_order_in_a_preview_gets_the_reason_a_real_one_gets(engine, name, order):
    passwords = start(engine, "neighbors", "nb1", layout=EXAMPLE_LAYOUT)
    outcome, mails = send(engine, "nb1", name, passwords[name], f"PREVIEW\n{order}")
    assert outcome.outcome == "help" and outcome.detail.startswith("preview refused: ")
    previewed = body(only_reply(mails, name))
    assert HEAD in previewed and "The game as it stands now:" in previewed
    assert "Neighbors game nb1, turn 1" in previewed
    real = body(only_reply(send(engine, "nb1", name, passwords[name], order)[1], name))
    assert reason(previewed) == reason(real)
    assert outcome.detail == "preview refused: " + engine.store.one(
        "SELECT error FROM orders ORDER BY seq DESC")["error"]


def test_a_preview_for_a_turn_that_has_passed_is_refused_as_an_order_would_be(engine):
    passwords = start(engine, "neighbors", "nb1", layout=EXAMPLE_LAYOUT)
    outcome, mails = send(engine, "nb1", "ada", passwords["ada"], "TURN 7\nPREVIEW\nb4xd4")
    assert "Written for another turn:" in body(only_reply(mails, "ada"))


@pytest.mark.parametrize("game, password, words", [
    ("nosuchgame", None, "no game called 'nosuchgame'"),
    ("nb1", "wrong", "the password is wrong"),
])
def test_a_preview_without_a_seat_gets_the_usual_refusal(engine, game, password, words):
    passwords = start(engine, "neighbors", "nb1", layout=EXAMPLE_LAYOUT)
    outcome, mails = send(engine, game, "ada", password or passwords["ada"], "PREVIEW\nb4xd4")
    assert outcome.outcome == "rejected"
    text = " ".join(body(only_reply(mails, "ada")).split())
    assert words in text and HEAD not in text


def test_a_preview_by_the_seats_reply_address_needs_no_password(engine):
    start(engine, "neighbors", "nb1", layout=EXAMPLE_LAYOUT)
    (*_, welcome) = [m for m in outbox(engine) if m["To"] == "ada@example.org"]
    first, seq = last_outbox_id(engine), engine.load("nb1").seq
    outcome = engine.ingest(order_mail("ada@example.org", "PREVIEW b4xd4", to=welcome["Reply-To"],
                                       subject="Re: [nb1 T1] Welcome"))
    assert outcome.detail == "preview: b4xd4"
    assert "ada: Rb4xd4 takes a knight" in body(only_reply(outbox(engine, first), "ada"))
    assert engine.load("nb1").seq == seq


def test_a_preview_with_no_orders_says_so(engine):
    passwords = start(engine, "neighbors", "nb1", layout=EXAMPLE_LAYOUT)
    _, mails = send(engine, "nb1", "ada", passwords["ada"], "PREVIEW")
    assert "no orders to preview" in body(only_reply(mails, "ada"))


# --- nobody else learns of it ----------------------------------------------------------------

def test_nobody_else_learns_of_a_preview(engine, tmp_path):
    passwords = start(engine, "fuzzy-borders", "fb1", seats=3, side=4, radius=2)
    loaded = engine.load("fb1")
    claim = loaded.rules.legal_orders(loaded.state, "ada")[-1]  # a corner: never a report's example
    first = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", f"PREVIEW\n{claim}", game_id="fb1",
                             password=passwords["ada"]))
    assert [m["To"] for m in outbox(engine, first)] == ["ada@example.org"]
    assert not engine.store.all(f"SELECT body FROM reports WHERE body LIKE '%{claim.split()[1]}%'")
    for name in ("bob", "cy"):
        history = body(only_reply(send(engine, "fb1", name, passwords[name], "HISTORY ALL")[1], name))
        assert claim not in history and "PREVIEW" not in history
    assert site.build(tmp_path / "site", [audit.archive_data(engine, "fb1")], engine.clock())
    pages = [page for page in (tmp_path / "site").rglob("*") if page.suffix in {".html", ".atom"}]
    assert any(page.suffix == ".atom" for page in pages)  # the game's feed
    for page in pages:
        text = page.read_text()
        assert "PREVIEW" not in text and claim not in text and "as if placed" not in text


def test_every_game_has_a_preview():
    """The five games each preview through the same rule functions: nothing per game but the
    simultaneous games' account of what a sealed order would do."""
    from gm.service.play import preview

    simultaneous = {kind for kind in registry.available() if registry.get(kind).simultaneous}
    assert set(preview.ACCOUNTS) == simultaneous
