"""REMATCH by mail: after a two-player game ends, one seat offers, the other accepts within 7 days,
and a new game of the same kind and options begins with the seats swapped.

Each sentence of the command has its test: the offer and its mail, the start (seats swapped,
same options and settings, new passwords in the welcomes), the lapse, the refusals with their
replies, a forged From, and one game however often the accepting mail comes.
"""

from __future__ import annotations

import email
import threading

from gm.core import times
from gm.service.engine import Engine
from gm.service.people import rematch
from gm.service.play import lifecycle
from gm.store import Store
from support import PLAYERS, PLAYERS3, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # each test once on SQLite, once on PostgreSQL
DAY = 86400.0


def send(engine, name: str, text: str, secret: str | None, game_id: str = "nb1", **headers):
    """``name``'s mail (GAME/PASSWORD, then ``text``): (outcome, the mails it caused)."""
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id, password=secret,
                                       **headers))
    return outcome, outbox(engine, start)


def said(mail) -> str:
    """A mail's words, its lines joined (the text is wrapped)."""
    return " ".join(body(mail).split())


def to(mails, name: str) -> list:
    return [m for m in mails if m["To"] == f"{name}@example.org"]


def ended(engine, kind: str = "neighbors", game_id: str = "nb1", players=PLAYERS,
          options: dict | None = None) -> dict[str, str]:
    """A game of ``kind`` made and ended by the game master, everyone still seated: its passwords."""
    secrets = engine.create_game(kind, game_id, players, seed=5, options=options)
    lifecycle.end(engine, game_id, "a test ends it")
    return secrets


def welcome_password(mail) -> str:
    """The password a welcome gives."""
    for line in body(mail).splitlines():
        if "password" in line.lower() and ":" in line:
            return line.rsplit(":", 1)[1].strip().split()[0]
    raise AssertionError(body(mail))


def offered_and_accepted(engine, secrets, game_id: str = "nb1"):
    """ada offers, bob accepts: the mails of the acceptance."""
    outcome, _ = send(engine, "ada", "REMATCH", secrets["ada"], game_id)
    assert outcome.outcome == "help", outcome.detail
    outcome, mails = send(engine, "bob", "REMATCH", secrets["bob"], game_id)
    assert outcome.outcome == "help", outcome.detail
    return mails


# --- the offer ------------------------------------------------------------------------------------


def test_the_first_rematch_is_an_offer_mailed_to_the_other_seat_with_how_to_accept(engine):
    secrets = ended(engine)
    outcome, mails = send(engine, "ada", "REMATCH", secrets["ada"])
    assert outcome.outcome == "help"
    (reply,) = to(mails, "ada")
    assert "Rematch offered" in reply["Subject"]
    assert "when bob sends REMATCH in game nb1" in said(reply)
    (offer,) = to(mails, "bob")
    text = said(offer)
    assert "ada offers a rematch" in text and "the seats swapped (bob, then ada)" in text
    assert "GAME nb1 PASSWORD <yours> and REMATCH" in text and "lapses in 7 days" in text
    assert secrets["ada"] not in body(offer) and secrets["bob"] not in body(offer)
    row = engine.store.rematches.offer("nb1")
    assert (row.offered_by, row.new_game_id) == ("ada", None)
    assert engine.store.games.game("nb1-rematch") is None  # nothing begins on one seat's word


def test_the_offer_says_when_it_lapses_in_each_readers_time_zone(engine, clock):
    secrets = ended(engine)
    send(engine, "bob", "SET TIMEZONE Asia/Tokyo", secrets["bob"])
    _, mails = send(engine, "ada", "REMATCH", secrets["ada"])
    (offer,) = to(mails, "bob")
    assert times.format_stamp(clock() + 7 * DAY, times.zone("Asia/Tokyo")) in said(offer)
    assert times.format_stamp(clock() + 7 * DAY) in said(to(mails, "ada")[0])  # ada's: UTC


def test_the_same_seat_again_repeats_the_offer_and_mails_nobody_else(engine, clock):
    secrets = ended(engine)
    send(engine, "ada", "REMATCH", secrets["ada"])
    made = engine.store.rematches.offer("nb1").offered
    clock.advance(DAY)
    outcome, mails = send(engine, "ada", "REMATCH", secrets["ada"])
    assert outcome.outcome == "help"
    assert [m["To"] for m in mails] == ["ada@example.org"]
    assert "Your rematch offer stands until" in said(mails[0])
    assert engine.store.rematches.offer("nb1").offered == made  # the offer's clock did not restart
    assert engine.store.games.game("nb1-rematch") is None


# --- the start ------------------------------------------------------------------------------------


def test_the_other_seats_rematch_starts_a_game_with_the_seats_swapped_and_the_same_options(engine):
    engine.config.player_rated = True  # players may make rated games here: the rematch stays rated
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5,
                                 options={"press": "grey", "deadline": "3d", "rated": "true"})
    lifecycle.end(engine, "nb1", "a test ends it")
    old = engine.load("nb1")
    mails = offered_and_accepted(engine, secrets)
    new = engine.load("nb1-rematch")
    assert new.status == "active" and new.rules.kind == "neighbors"
    assert [(p.seat, p.name, p.email) for p in new.players] == [(0, "bob", "bob@example.org"),
                                                                 (1, "ada", "ada@example.org")]
    assert new.rules.to_move(new.state) == ["bob"]  # the other moves first
    assert new.row.options == old.row.options
    settings = engine.store.games.settings_of("nb1-rematch")
    assert settings == engine.store.games.settings_of("nb1")
    assert settings["rated"] == "true" and settings["press"] == "grey" and settings["deadline"] == "3d"
    assert engine.store.rematches.offer("nb1").new_game_id == "nb1-rematch"
    (reply,) = [m for m in to(mails, "bob") if "Rematch started" in m["Subject"]]
    assert "game nb1-rematch has begun (bob, then ada)" in said(reply)
    (told,) = [m for m in to(mails, "ada") if "Rematch started" in m["Subject"]]
    assert "bob accepted your rematch offer" in said(told)
    welcomes = [m for m in mails if "Welcome" in m["Subject"]]
    assert sorted(m["To"] for m in welcomes) == ["ada@example.org", "bob@example.org"]


def test_the_new_welcome_carries_a_new_password_that_works_where_the_old_does_not(engine):
    secrets = ended(engine)
    mails = offered_and_accepted(engine, secrets)
    (welcome,) = [m for m in to(mails, "bob") if "Welcome" in m["Subject"]]
    password = welcome_password(welcome)
    assert password not in secrets.values()
    view = engine.load("nb1-rematch")
    order = view.rules.legal_orders(view.state, "bob")[0]
    outcome, _ = send(engine, "bob", order, secrets["bob"], "nb1-rematch")
    assert outcome.outcome == "rejected"  # the old game's password is not the new one's
    outcome, _ = send(engine, "bob", order, password, "nb1-rematch")
    assert outcome.outcome == "applied", outcome.detail


def test_in_phalanx_the_pie_still_decides_the_colours(engine):
    secrets = ended(engine, "phalanx", "ph1")
    offered_and_accepted(engine, secrets, "ph1")
    new = engine.load("ph1-rematch")
    assert [p.name for p in new.players] == ["bob", "ada"]
    assert new.rules.to_move(new.state) == ["bob"]  # bob places the pie; ada then chooses a colour
    assert new.state.phase == engine.load("ph1").rules.setup(["x", "y"], {}, 1).phase


def test_a_proximity_rematch_gives_the_first_move_to_the_other_whatever_the_throne(engine):
    for seed in range(1, 7):  # the throne's suit (PX3) picks the first seat: both cases among these
        game_id = f"px{seed}"
        secrets = engine.create_game("proximity", game_id, PLAYERS, seed=seed)
        first = engine.load(game_id).rules.to_move(engine.load(game_id).state)
        lifecycle.end(engine, game_id, "a test ends it")
        offered_and_accepted(engine, secrets, game_id)
        new = engine.load(f"{game_id}-rematch")
        assert new.rules.to_move(new.state) == [n for n in ("ada", "bob") if [n] != first]
        assert new.state.board == engine.load(game_id).rules.setup(["ada", "bob"], {}, seed).board


def test_the_rematch_may_be_accepted_by_replying_to_the_offer(engine):
    secrets = ended(engine)
    _, mails = send(engine, "ada", "REMATCH", secrets["ada"])
    (offer,) = to(mails, "bob")
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail("bob@example.org", "REMATCH", to=offer["Reply-To"],
                                       subject=f"Re: {offer['Subject']}"))
    assert outcome.outcome == "help", outcome.detail
    assert engine.load("nb1-rematch").players[0].name == "bob"
    assert any("Welcome" in m["Subject"] for m in to(outbox(engine, start), "ada"))


def test_an_id_taken_is_skipped_and_with_none_free_nothing_begins(engine, monkeypatch):
    secrets = ended(engine)
    engine.create_game("neighbors", "nb1-rematch", PLAYERS, seed=1)  # taken by the game master
    send(engine, "ada", "REMATCH", secrets["ada"])
    monkeypatch.setattr(rematch, "MOST_TRIES", 1)
    outcome, mails = send(engine, "bob", "REMATCH", secrets["bob"])
    assert [m["To"] for m in mails] == ["bob@example.org"]
    assert "could not begin: no id of the form nb1-rematch<n> is free" in said(mails[0])
    assert engine.store.rematches.offer("nb1").new_game_id is None
    monkeypatch.setattr(rematch, "MOST_TRIES", 100)
    send(engine, "bob", "REMATCH", secrets["bob"])
    assert [p.name for p in engine.load("nb1-rematch2").players] == ["bob", "ada"]


def test_a_third_rematch_says_which_game_it_became_and_starts_nothing(engine):
    secrets = ended(engine)
    offered_and_accepted(engine, secrets)
    for name in ("ada", "bob"):
        outcome, mails = send(engine, name, "REMATCH", secrets[name])
        assert outcome.outcome == "help"
        (reply,) = mails
        assert "has had its rematch: game nb1-rematch" in said(reply)
    assert engine.store.games.game("nb1-rematch2") is None


def test_a_rematch_of_a_rematch_counts_on(engine):
    secrets = ended(engine)
    mails = offered_and_accepted(engine, secrets)
    passwords = {m["To"].split("@")[0]: welcome_password(m) for m in mails if "Welcome" in m["Subject"]}
    lifecycle.end(engine, "nb1-rematch", "a test ends it")
    offered_and_accepted(engine, passwords, "nb1-rematch")
    assert [p.name for p in engine.load("nb1-rematch2").players] == ["ada", "bob"]


# --- lapse ---------------------------------------------------------------------------------------


def test_an_offer_lapses_after_7_days_and_a_rematch_then_is_a_fresh_offer(engine, clock):
    secrets = ended(engine)
    send(engine, "ada", "REMATCH", secrets["ada"])
    clock.advance(7 * DAY)
    outcome, mails = send(engine, "bob", "REMATCH", secrets["bob"])
    assert outcome.outcome == "help"
    assert engine.store.games.game("nb1-rematch") is None  # lapsed: bob's REMATCH offers anew
    assert "when ada sends REMATCH" in said(to(mails, "bob")[0])
    assert any("bob offers a rematch" in said(m) for m in to(mails, "ada"))
    assert engine.store.rematches.offer("nb1").offered_by == "bob"
    clock.advance(6 * DAY)
    send(engine, "ada", "REMATCH", secrets["ada"])
    assert [p.name for p in engine.load("nb1-rematch").players] == ["bob", "ada"]


# --- refusals ------------------------------------------------------------------------------------


def refused(engine, name: str, secret: str, game_id: str, says: str) -> None:
    outcome, mails = send(engine, name, "REMATCH", secret, game_id)
    (reply,) = mails
    assert reply["To"] == f"{name}@example.org"
    assert says in said(reply), body(reply)
    assert engine.store.rematches.offer(game_id) is None
    assert engine.store.games.game(f"{game_id}-rematch") is None


def test_a_running_game_has_no_rematch(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    refused(engine, "ada", secrets["ada"], "nb1", "Game nb1 is still running")


def test_a_game_of_three_has_no_rematch(engine):
    secrets = ended(engine, game_id="nb3", players=PLAYERS3)
    refused(engine, "ada", secrets["ada"], "nb3", "REMATCH is for games of two players; game nb3 had 3")


def test_a_game_a_player_left_has_no_rematch_and_the_one_who_left_cannot_offer(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    outcome, _ = send(engine, "bob", "RESIGN", secrets["bob"])
    assert engine.load("nb1").rules.is_over(engine.load("nb1").state)
    refused(engine, "ada", secrets["ada"], "nb1", "both players still seated, and bob left game nb1")
    outcome, mails = send(engine, "bob", "REMATCH", secrets["bob"])
    assert outcome.outcome == "rejected"  # a seat that left speaks for nothing
    assert [m["To"] for m in mails] == ["bob@example.org"]
    assert engine.store.rematches.offer("nb1") is None


def test_a_forged_from_without_a_credential_changes_nothing_and_mails_no_third_party(engine):
    secrets = ended(engine)
    outcome, mails = send(engine, "ada", "REMATCH", None)  # From ada, no password, no reply address
    assert outcome.outcome == "rejected"
    assert [m["To"] for m in mails] == ["ada@example.org"]
    outcome, mails = send(engine, "ada", "REMATCH", "wrongpassword")
    assert outcome.outcome == "rejected" and [m["To"] for m in mails] == ["ada@example.org"]
    assert engine.store.rematches.offer("nb1") is None
    send(engine, "ada", "REMATCH", secrets["ada"])
    outcome, mails = send(engine, "bob", "REMATCH", None)  # a forged acceptance starts nothing
    assert outcome.outcome == "rejected" and [m["To"] for m in mails] == ["bob@example.org"]
    assert engine.store.games.game("nb1-rematch") is None


# --- one game, however the mails come ----------------------------------------------------------


def test_the_same_accepting_mail_twice_is_one_mail_and_one_game(engine):
    secrets = ended(engine)
    send(engine, "ada", "REMATCH", secrets["ada"])
    raw = order_mail("bob@example.org", "REMATCH", game_id="nb1", password=secrets["bob"])
    assert engine.ingest(raw).outcome == "help"
    start = last_outbox_id(engine)
    assert engine.ingest(raw).outcome == "duplicate"
    again = email.message_from_bytes(raw)
    again.replace_header("Subject", "once more")  # other bytes, the same Message-ID
    assert engine.ingest(again.as_bytes()).outcome == "duplicate"
    assert outbox(engine, start) == []
    assert engine.store.games.game("nb1-rematch2") is None


def test_both_seats_mailing_at_once_start_one_game(engine, config, clock):
    """ada's REMATCH and bob's, judged side by side by two daemons of one store: one offer, then one
    game, whichever came first."""
    secrets = ended(engine)
    mails = [order_mail(f"{n}@example.org", "REMATCH", game_id="nb1", password=secrets[n])
             for n in ("ada", "bob")]
    barrier, outcomes = threading.Barrier(2), {}

    def judge(i: int) -> None:
        store = Store(config.database)  # a daemon of its own: its own connection, in its thread
        try:
            daemon = Engine(store, config, clock=clock)
            barrier.wait()
            outcomes[i] = daemon.ingest(mails[i]).outcome
        finally:
            store.close()

    threads = [threading.Thread(target=judge, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == {0: "help", 1: "help"}
    assert [p.name for p in engine.load("nb1-rematch").players] == ["bob", "ada"]
    assert engine.store.games.game("nb1-rematch2") is None
    welcomes = [m for m in outbox(engine) if "Welcome" in m["Subject"] and "[gm nb1-rematch]" in m["Subject"]]
    assert sorted(m["To"] for m in welcomes) == ["ada@example.org", "bob@example.org"]


# --- the end mail and HELP -------------------------------------------------------------------------


def test_the_end_mail_of_a_game_of_two_says_rematch_in_one_line_and_of_three_not(engine):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    engine.create_game("neighbors", "nb2", PLAYERS, seed=5)
    start = last_outbox_id(engine)
    lifecycle.end(engine, "nb1", "a test ends it")  # the game master's end: a notice
    lifecycle.draw(engine, "nb2", why="a test ends it")  # the rules' end: the final report
    ends = [m for m in outbox(engine, start) if "ended" in m["Subject"] or "final" in m["Subject"]]
    assert len(ends) == 4
    for mail in ends:
        assert [line.strip() for line in body(mail).splitlines() if "REMATCH" in line] == [rematch_line()]
    engine.create_game("neighbors", "nb3", PLAYERS3, seed=5)
    start = last_outbox_id(engine)
    lifecycle.end(engine, "nb3", "a test ends it")
    assert outbox(engine, start) and all("REMATCH" not in body(m) for m in outbox(engine, start))


def rematch_line() -> str:
    from gm.service.outgoing import reports

    return reports.REMATCH_LINE


def test_help_lists_rematch_and_its_days():
    from gm.service.people import mailcommands

    (line,) = [line for line in mailcommands.help_lines() if line.startswith("REMATCH ")]
    assert rematch.OFFER_DAYS == 7 and "7 days" in " ".join(mailcommands.help_lines())


def test_a_rated_games_rematch_is_unrated_where_players_may_not_make_rated_games(engine):
    assert not engine.config.player_rated  # the default: rated games are the GM's and tournaments'
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"rated": "true", "press": "grey"})
    lifecycle.end(engine, "nb1", "a test ends it")
    offered_and_accepted(engine, secrets)
    settings = engine.store.games.settings_of("nb1-rematch")
    assert settings["rated"] == "false" and settings["press"] == "grey"
