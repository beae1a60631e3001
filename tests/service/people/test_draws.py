"""RULINGS G6 (draw by agreement) and G7 (concession), by mail: DRAW, DRAW WITHDRAW, CONCEDE, the
GM's gm draw and gm concede, the end mail's final standings, and LIST's result.

Each sentence of G6 and G7 has its test here; every game that ends by a draw or a concession
replays OK (gm verify, RULINGS G1), and no mail, archive page or feed says who proposed a draw.
"""

from __future__ import annotations

import pytest

from games import registry
from gm.core.config import Config
from gm.present import archive, feeds
from gm.service.engine import Engine
from gm.service.play import lifecycle
from gm.service.records import audit
from gm.store import Store
from mailroom import Mailroom
from support import EXAMPLE_LAYOUT, PLAYERS, PLAYERS3, body, last_outbox_id, order_mail, outbox

PAGES = "https://games.example.org/archive/"


@pytest.fixture
def public(tmp_path, clock):
    """An engine whose config names a public archive (archive_url)."""
    config = Config(data_dir=tmp_path / "pub", address="gm@localhost", archive_url=PAGES)
    store = Store(config.database)
    yield Engine(store, config, clock=clock)
    store.close()


def send(engine, name: str, text: str, secrets: dict, game_id: str = "nb1"):
    """``name``'s mail to the game (GAME/PASSWORD, then ``text``): (outcome, the mails it caused)."""
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id,
                                       password=secrets[name]))
    return outcome, outbox(engine, start)


def to(mails, name: str) -> list:
    return [m for m in mails if m["To"] == f"{name}@example.org"]


def move(engine, game_id: str = "nb1") -> str:
    """A legal order of the player to move."""
    view = engine.load(game_id)
    return view.rules.legal_orders(view.state, view.rules.to_move(view.state)[0])[0]


def verified(engine, game_id: str) -> bool:
    report = audit.verify(engine, game_id)
    assert report.ok, report.text()
    return report.ok


# --- G6: any remaining player may propose a draw at any time, with an order or without -----------


def test_g6_a_draw_alone_out_of_turn_is_proposed_and_everyone_told_never_by_whom(engine):
    secrets = engine.create_game("neighbors", "nb3", PLAYERS3, seed=4)
    outcome, mails = send(engine, "cy", "DRAW", secrets, "nb3")  # ada is to move, not cy
    assert outcome.outcome == "help"
    (reply,) = to(mails, "cy")
    assert "Draw proposed" in reply["Subject"] and "stands until the end of turn 2" in body(reply)
    told = [m for m in mails if m["To"] != "cy@example.org"]
    assert sorted(m["To"] for m in told) == ["ada@example.org", "bob@example.org"]
    for mail in told:
        assert "A draw has been proposed" in body(mail) and "DRAW" in body(mail)
        assert "cy" not in body(mail) and "cy" not in mail["Subject"]
    view = engine.load("nb3")
    assert view.status == "active" and not view.rules.is_over(view.state)


def test_g6_a_draw_with_an_order_stands_on_the_next_players_turn_and_ends_the_game_drawn(engine, nb_game):
    before = engine.load("nb1")
    order = move(engine)
    outcome, mails = send(engine, "ada", f"{order}\nDRAW", nb_game)
    assert outcome.outcome == "applied"
    assert any("A draw has been proposed" in body(m) for m in to(mails, "bob"))
    view = engine.load("nb1")
    assert view.turn == before.turn + 1 and view.rules.to_move(view.state) == ["bob"]
    scores = view.rules.scores(view.state)
    outcome, mails = send(engine, "bob", "DRAW", nb_game)  # on bob's turn: ada's still stands
    view = engine.load("nb1")
    assert view.status == "finished" and view.rules.is_over(view.state) and view.rules.is_drawn(view.state)
    assert view.rules.winners(view.state) == []  # no winner
    assert view.rules.scores(view.state) == scores  # the scores as they stand are the final standings
    assert any("Game drawn" in m["Subject"] for m in to(mails, "bob"))
    for name in ("ada", "bob"):
        (final,) = [m for m in to(mails, name) if "final report" in m["Subject"]]
        text = body(final)
        assert "Final standings:" in text and "Result: drawn by agreement (RULINGS G6); no winner." in text
        assert "WINNER" not in text
    assert verified(engine, "nb1")
    # A drawn game takes no more orders, proposals or withdrawals.
    outcome, mails = send(engine, "ada", "DRAW WITHDRAW", nb_game)
    assert "is over" in body(to(mails, "ada")[0])


def test_g6_a_proposal_lapses_at_the_end_of_the_turn_after_the_one_it_was_made_in(engine, nb_game):
    send(engine, "ada", f"{move(engine)}\nDRAW", nb_game)  # made in turn 1
    send(engine, "bob", move(engine), nb_game)  # turn 2 ends without bob agreeing
    outcome, mails = send(engine, "bob", "DRAW", nb_game)  # turn 3: ada's has lapsed
    view = engine.load("nb1")
    assert view.status == "active" and not view.rules.is_over(view.state)
    assert "Draw proposed" in to(mails, "bob")[0]["Subject"]
    send(engine, "ada", "DRAW", nb_game)  # bob's, made in turn 3, stands
    assert engine.load("nb1").status == "finished"
    assert verified(engine, "nb1")


def test_g6_a_proposal_stands_until_its_player_withdraws_it(engine, nb_game):
    send(engine, "ada", "DRAW", nb_game)
    outcome, mails = send(engine, "ada", "DRAW WITHDRAW", nb_game)
    assert "withdrawn" in body(to(mails, "ada")[0])
    (told,) = to(mails, "bob")
    assert "A draw proposal has been withdrawn" in body(told) and "ada" not in body(told)
    send(engine, "bob", "DRAW", nb_game)
    assert engine.load("nb1").status == "active"  # ada's is gone
    outcome, mails = send(engine, "ada", "DRAW WITHDRAW\nDRAW WITHDRAW", nb_game)
    assert "nothing to withdraw" in body(to(mails, "ada")[0])
    outcome, mails = send(engine, "ada", "DRAW maybe", nb_game)
    assert "DRAW WITHDRAW" in body(to(mails, "ada")[0]) and engine.load("nb1").status == "active"


def test_g6_every_remaining_player_must_agree_and_a_player_leaving_can_complete_it(engine):
    secrets = engine.create_game("neighbors", "nb3", PLAYERS3, seed=4)
    send(engine, "ada", "DRAW", secrets, "nb3")
    send(engine, "bob", "DRAW", secrets, "nb3")
    assert engine.load("nb3").status == "active"  # cy has not agreed
    outcome, mails = send(engine, "cy", "RESIGN", secrets, "nb3")
    view = engine.load("nb3")  # everyone still in now has a standing proposal
    assert view.status == "finished" and view.rules.is_drawn(view.state)
    (final,) = [m for m in to(mails, "ada") if "final report" in m["Subject"]]
    assert "(left)" in body(final) and "drawn by agreement" in body(final)
    assert verified(engine, "nb3")


def test_g6_a_draw_in_a_simultaneous_game_drops_the_sealed_claims_and_replays(engine):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    view = engine.load("fb1")
    claim = view.rules.legal_orders(view.state, "ada")[0]
    outcome, _ = send(engine, "ada", f"{claim}\nDRAW", secrets, "fb1")
    assert outcome.outcome == "sealed"
    send(engine, "bob", "DRAW", secrets, "fb1")
    view = engine.load("fb1")
    assert view.status == "finished" and view.rules.is_drawn(view.state) and view.state.sealed == {}
    assert verified(engine, "fb1")


def test_g6_nobody_is_told_who_proposed_not_in_mail_archive_or_feed_only_the_gm_history(engine):
    secrets = engine.create_game("neighbors", "nb3", PLAYERS3, seed=4)
    for name in ("bob", "cy", "ada"):
        send(engine, name, "DRAW", secrets, "nb3")
    assert engine.load("nb3").status == "finished"
    names = ("ada", "bob", "cy")
    texts = [body(mail) for mail in outbox(engine)]  # every mail: players', observers' and the GM's
    texts += [r["body"] for r in engine.store.reports_of("nb3")]  # what the archive keeps
    data = audit.archive_data(engine, "nb3")
    texts.append(str(data) + feeds.atom({**data, "page": archive.page_name("nb3")}, "localhost").decode())
    assert any("A draw has been proposed" in text for text in texts)
    for text in texts:
        for name in names:
            assert f"{name} proposed" not in text and f"{name} has proposed" not in text
            assert f"by {name}" not in text
    page = texts[-1]
    assert "Drawn by agreement" in page
    history = audit.history_text(engine, "nb3", log_only=True)
    assert "bob proposed a draw" in history  # the GM's own record may name them


def test_gm_draw_ends_the_game_drawn_needs_a_reason_and_replays(engine, nb_game):
    send(engine, "ada", move(engine), nb_game)
    with pytest.raises(Exception, match="reason"):
        lifecycle.draw(engine, "nb1")
    start = last_outbox_id(engine)
    assert lifecycle.draw(engine, "nb1", who="gm:tester", why="both asked by phone") == "game nb1 ended drawn"
    view = engine.load("nb1")
    assert view.status == "finished" and view.rules.is_drawn(view.state) and view.rules.winners(view.state) == []
    mails = outbox(engine, start)
    assert any("both asked by phone" in body(m) for m in to(mails, "bob"))
    assert any("Result: drawn by agreement" in body(m) for m in to(mails, "ada"))
    assert verified(engine, "nb1")
    assert "gm:tester" in audit.history_text(engine, "nb1", log_only=True)


# --- G7: CONCEDE is RESIGN; the last player left of two or more wins at once ---------------------


def test_g7_concede_is_resign_and_the_other_wins_at_once(public, clock):
    secrets = public.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    outcome, mails = send(public, "ada", "CONCEDE", secrets)
    assert outcome.outcome == "help"
    view = public.load("nb1")
    assert view.status == "finished" and view.rules.winners(view.state) == ["bob"]
    assert not view.player("ada")["active"]
    assert "You have resigned from game nb1" in body(to(mails, "ada")[0])
    (final,) = [m for m in to(mails, "bob") if "final report" in m["Subject"]]
    text = body(final)
    assert "Final standings:" in text and "Result: bob wins." in text
    standings = text.split("Final standings:")[1].split("Result:")[0]
    assert "(left)" in standings.split("ada")[1].split("\n")[0]
    assert "WINNER" in standings.split("bob")[1].split("\n")[0]
    assert f"{PAGES}game-nb1.html" in text
    assert verified(public, "nb1")


@pytest.mark.parametrize("kind", ["neighbors", "fuzzy-borders", "phalanx", "proximity", "pivot-pawns"])
def test_g7_in_every_game_the_last_player_left_wins_at_once(engine, kind):
    rules = registry.get(kind)
    players = PLAYERS3 if rules.max_players >= 3 else PLAYERS
    secrets = engine.create_game(kind, "g1", players, seed=3)
    *gone, last = [name for name, _ in players]
    for name in gone:
        outcome, _ = send(engine, name, "CONCEDE", secrets, "g1")
        assert outcome.outcome == "help"
    view = engine.load("g1")
    assert view.status == "finished" and rules.is_over(view.state)
    assert rules.winners(view.state) == [last] and rules.remaining(view.state) == [last]
    assert verified(engine, "g1")


def test_gm_concede_is_eject_as_a_concession_and_replays(engine):
    secrets = engine.create_game("neighbors", "nb3", PLAYERS3, seed=4)
    send(engine, "ada", "DRAW", secrets, "nb3")
    with pytest.raises(Exception, match="reason"):
        lifecycle.concede(engine, "nb3", "cy")
    start = last_outbox_id(engine)
    text = lifecycle.concede(engine, "nb3", "cy", who="gm:tester", why="told me by phone")
    assert text == "cy conceded game nb3; the game goes on without them"
    mails = outbox(engine, start)
    assert any("cy has conceded the game (RULINGS G7)" in body(m) for m in to(mails, "ada"))
    assert lifecycle.concede(engine, "nb3", "bob", why="also") == "bob conceded game nb3; the game is over"
    view = engine.load("nb3")
    assert view.rules.winners(view.state) == ["ada"]
    assert verified(engine, "nb3")


# --- the end mail, LIST and HELP ---------------------------------------------------------------


def test_gm_end_mail_carries_the_final_standings_and_the_archive_page(public):
    public.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    start = last_outbox_id(public)
    lifecycle.end(public, "nb1", "the club closed", winners=["bob"])
    for mail in outbox(public, start):
        text = body(mail)
        assert "Final standings:" in text and "Result: bob wins." in text
        assert f"{PAGES}game-nb1.html" in text


def test_no_archive_url_no_link(engine, nb_game):
    start = last_outbox_id(engine)
    lifecycle.end(engine, "nb1", "the club closed")
    for mail in outbox(engine, start):
        assert "Final standings:" in body(mail) and "archive" not in body(mail)


def test_list_shows_the_result_of_a_finished_game(engine, nb_game):
    send(engine, "ada", "DRAW", nb_game)
    send(engine, "bob", "DRAW", nb_game)
    start = last_outbox_id(engine)
    engine.ingest(order_mail("zed@example.net", "LIST nb1"))
    (reply,) = outbox(engine, start)
    assert "The game is over. Result: drawn by agreement (RULINGS G6); no winner." in body(reply)
    start = last_outbox_id(engine)
    engine.ingest(order_mail("zed@example.net", "LIST"))
    (reply,) = outbox(engine, start)
    assert "Result: drawn by agreement" in body(reply)


def test_help_lists_draw_draw_withdraw_and_concede_and_quotes_g6_g7(engine, nb_game):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("zed@example.net", "HELP"))
    (reply,) = outbox(engine, start)
    text = " ".join(body(reply).split())
    assert "DRAW [WITHDRAW]" in text and "CONCEDE" in text and "DRAW WITHDRAW" in text
    send(engine, "ada", "HELP", nb_game)
    (reply,) = outbox(engine, start + 1)
    text = " ".join(body(reply).split())
    assert "G6. Draw by agreement." in text and "G7. Concession." in text


# --- through the daemon ------------------------------------------------------------------------


def test_a_draw_by_mail_through_the_daemon(tmp_path):
    room = Mailroom(tmp_path, f"archive_url: {PAGES}\n")
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    room.run()  # the welcomes
    room.deliver(order_mail("ada@example.org", "DRAW", game_id="nb1", password=secrets["ada"]))
    first = room.run()
    assert sorted(to_ for to_, _ in first) == ["ada@example.org", "bob@example.org"]
    room.deliver(order_mail("bob@example.org", "DRAW", game_id="nb1", password=secrets["bob"]))
    mails = room.run()
    finals = [m for _, m in mails if "final report" in m["Subject"]]
    assert len(finals) == 2
    assert all(f"{PAGES}game-nb1.html" in m.get_body(("plain",)).get_content() for m in finals)
    assert room.engine.load("nb1").status == "finished"
    assert audit.verify(room.engine, "nb1").ok


# --- the rules: Game.end_drawn in every game -----------------------------------------------------


@pytest.mark.parametrize("kind", ["neighbors", "fuzzy-borders", "phalanx", "proximity", "pivot-pawns"])
def test_g6_end_drawn_in_every_game_is_over_without_a_winner_and_round_trips(kind):
    rules = registry.get(kind)
    names = ["ada", "bob", "cy"][: min(3, rules.max_players)]
    state = rules.start(rules.setup(names, {}, 7), 1_800_000_000.0)
    old = rules.dump(state)
    assert "drawn" not in old and not rules.is_drawn(state)  # written only when set
    scores = rules.scores(state)
    result = rules.end_drawn(state, 1_800_000_010.0)
    after = result.state
    assert not rules.is_drawn(state) and not rules.is_over(state)  # the input is unchanged
    assert rules.is_over(after) and rules.is_drawn(after) and rules.winners(after) == []
    assert rules.to_move(after) == [] and rules.timer(after) is None
    assert rules.scores(after) == scores
    assert "drawn by agreement" in result.events[0].text
    data = rules.dump(after)
    assert data["drawn"] is True
    again = rules.load(data)
    assert rules.dump(again) == data and rules.is_drawn(again) and rules.is_over(again)
    rules.render_board(again, None)
    with pytest.raises(Exception, match="over"):
        rules.end_drawn(after, 1_800_000_020.0)
