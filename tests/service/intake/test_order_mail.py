"""Fair play and clear words: forgiving order mail, the subject read only as a game, stale orders
refused, press to several players or to the game master."""

from __future__ import annotations

from gm.mail import msgids, orders
from support import PLAYERS, PLAYERS3, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

ADA = "ada@example.org"


def replies(engine, start, to=ADA):
    """The answers to a mail (not the reports it caused), to one address."""
    return [m for m in outbox(engine, start) if m["To"] == to and m["Auto-Submitted"] == "auto-replied"]


def moves(engine, game="nb1"):
    return engine.load(game).state.moves


def play_one(engine, game="nb1"):
    view = engine.load(game)
    (mover,) = view.rules.to_move(view.state)
    engine.gm_order(game, mover, view.rules.legal_orders(view.state, mover)[0])


# --- 1. greetings and sign-offs around the orders -------------------------------------------
def test_greetings_and_sign_off_are_not_read_and_the_order_is_applied(engine, nb_game):
    start = last_outbox_id(engine)
    text = f"Hi all,\n\nGAME nb1 PASSWORD {nb_game['ada']}\nb4xd4\n\nCheers,\nAda\nEND\nb2xd3\n"
    outcome = engine.ingest(order_mail(ADA, text))
    assert outcome.outcome == "applied", outcome.detail
    assert [m.notation() for m in moves(engine)] == ["Rb4xd4"]
    (reply,) = replies(engine, start)  # one answer; the report is not an answer
    words = " ".join(body(reply).split())
    assert "Not read (not orders)" in words
    assert "Hi all," in words and "Cheers," in words and "Ada" in words and "b2xd3" not in words
    assert any(m["Subject"] == "[gm nb1] Neighbors report" and "Neighbors game nb1, turn 2" in body(m)
               and m["To"] == ADA for m in outbox(engine, start))


def test_a_sealed_order_with_a_friendly_line_gets_one_reply(engine):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, "Hello everyone!\nK11\nThanks, Ada", game_id="fb1",
                                       password=secrets["ada"]))
    assert outcome.outcome == "sealed", outcome.detail
    (reply,) = replies(engine, start)
    text = body(reply)
    assert "sealed: K11" in text and "Not read (not orders)" in text
    assert "Hello everyone!" in text and "Thanks, Ada" in text
    assert "Orders received (and 1 more)" in reply["Subject"]


def test_an_illegal_order_between_greetings_is_still_refused(engine, nb_game):
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, "Dear bob,\nb2xd4\nRegards", game_id="nb1",
                                       password=nb_game["ada"]))
    assert outcome.outcome == "rejected" and "cannot capture on d4" in outcome.detail
    assert moves(engine) == ()
    (reply,) = replies(engine, start)
    assert "Not read (not orders)" in body(reply) and "Dear bob," in body(reply)


def test_a_line_starting_with_a_command_word_is_never_set_aside(engine, nb_game):
    outcome = engine.ingest(order_mail(ADA, "b4xd4\nHELP me please", game_id="nb1",
                                       password=nb_game["ada"]))
    assert outcome.outcome == "rejected" and "one capture per mail" in outcome.detail
    assert moves(engine) == ()


def test_a_mail_with_no_line_in_the_notation_is_refused_as_before(engine, nb_game):
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, "Hi bob,\nmy rook takes your knight", game_id="nb1",
                                       password=nb_game["ada"]))
    assert outcome.outcome == "rejected"
    (reply,) = replies(engine, start)
    assert "not written in this game's notation" in body(reply) and "Not read" not in body(reply)


def test_greetings_beside_a_command_are_not_read(engine, nb_game):
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, "Hi,\nBOARD\nThanks", game_id="nb1", password=nb_game["ada"]))
    assert outcome.outcome == "help"
    (reply,) = replies(engine, start)
    assert "Not read (not orders)" in body(reply) and "not accepted" not in body(reply)


# --- 2. the subject ---------------------------------------------------------------------------
def test_the_subject_names_a_game_only_with_game_as_a_whole_word():
    assert orders.read("list of games", "b4xd4").game_id is None
    assert orders.read("endgame x", "b4xd4").game_id is None
    assert orders.read("Games: nb1", "b4xd4").game_id is None
    assert orders.read("Re: passage", "GAME nb1").password is None
    assert orders.read("my GAME nb1 PASSWORD pw move", "b4xd4").game_id == "nb1"
    assert orders.read("my GAME nb1 PASSWORD pw move", "b4xd4").password == "pw"
    assert orders.read("Re: [nb1 T3] Neighbors report", "b4xd4").game_id == "nb1"


def test_a_reply_with_the_tag_of_gms_subjects_is_matched_to_its_game(engine, nb_game):
    assert orders.read("Re: [gm nb1] Neighbors report", "b4xd4").game_id == "nb1"
    assert orders.read("Re: [gm nb1] Neighbors report", "b4xd4").turn is None  # the tag names no turn
    assert orders.read("Re: [gm] Mail to you bounces", "b4xd4").game_id is None
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, f"PASSWORD {nb_game['ada']}\nb4xd4",
                                       subject="Re: [gm nb1] Neighbors report"))
    assert outcome.outcome == "applied", outcome.detail
    assert [m.notation() for m in moves(engine)] == ["Rb4xd4"]
    assert any(m["Subject"] == "[gm nb1] Neighbors report" and "Neighbors game nb1, turn 2" in body(m)
               and m["To"] == ADA for m in outbox(engine, start))


def test_a_subject_about_games_is_answered_as_naming_no_game(engine, nb_game):
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail("new@example.net", "b4xd4", subject="list of games"))
    assert outcome.outcome == "rejected"
    assert "does not say which game" in " ".join(body(replies(engine, start, "new@example.net")[0]).split())


# --- 3. stale orders --------------------------------------------------------------------------
def test_the_turn_is_read_from_a_turn_line_or_the_subject_tag():
    assert orders.read("Re: [nb1 T12] Neighbors report", "b4xd4").turn == 12
    assert orders.read("Re: [nb1 T12] Neighbors report", "TURN 14\nb4xd4").turn == 14
    assert orders.read("orders", "GAME nb1\nturn 7\nb4xd4").turn == 7
    assert orders.read("Re: [nb2 T12] report", "GAME nb1\nb4xd4").turn is None  # another game's tag
    mail = orders.read("orders", "GAME nb1\nb4xd4")
    assert mail.turn is None and mail.order_lines == ["b4xd4"]


def test_a_sequential_order_for_a_past_turn_is_refused_with_the_position(engine, nb_game):
    play_one(engine)
    play_one(engine)
    view = engine.load("nb1")
    assert view.turn == 3
    order = view.rules.legal_orders(view.state, "ada")[0]
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, order, game_id="nb1", password=nb_game["ada"],
                                       subject="Re: [nb1 T1] Neighbors report"))
    assert outcome.outcome == "rejected"
    assert engine.load("nb1").seq == view.seq
    (reply,) = replies(engine, start)
    text = " ".join(body(reply).split())
    assert "your orders were written for turn 1; the game is at turn 3" in text
    assert "To move: ada" in text  # the position as it stands
    row = engine.store.one("SELECT accepted, turn FROM orders ORDER BY id DESC")
    assert row["accepted"] == 0 and row["turn"] == 3
    # Naming the turn on a line of its own is the same; naming the open turn is played.
    assert engine.ingest(order_mail(ADA, f"TURN 2\n{order}", game_id="nb1",
                                    password=nb_game["ada"])).outcome == "rejected"
    assert engine.ingest(order_mail(ADA, order, game_id="nb1", password=nb_game["ada"],
                                    subject="Re: [nb1 T3] Neighbors report")).outcome == "applied"


def test_a_simultaneous_order_applies_only_to_the_turn_it_names(engine):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    engine.ingest(order_mail(ADA, "K11", game_id="fb1", password=secrets["ada"]))
    engine.ingest(order_mail("bob@example.org", "K12", game_id="fb1", password=secrets["bob"]))
    assert engine.load("fb1").turn == 2
    start = last_outbox_id(engine)
    stale = engine.ingest(order_mail(ADA, "J10", game_id="fb1", password=secrets["ada"],
                                     subject="Re: [fb1 T1] Fuzzy Borders report"))
    assert stale.outcome == "rejected" and "written for turn 1; the game is at turn 2" in stale.detail
    (reply,) = replies(engine, start)
    assert "The game as it stands now" in body(reply)
    start = last_outbox_id(engine)
    assert engine.ingest(order_mail(ADA, "TURN 2\nJ10", game_id="fb1",
                                    password=secrets["ada"])).outcome == "sealed"
    (sealed,) = replies(engine, start)
    assert "sealed: J10" in body(sealed) and "replaces" not in body(sealed)  # none was sealed before
    assert engine.ingest(order_mail("bob@example.org", "L12", game_id="fb1",
                                    password=secrets["bob"])).outcome == "sealed"  # no turn: as before


def test_a_reply_to_a_past_turns_mail_is_refused_by_the_turn_its_message_id_names(engine, nb_game):
    """Subjects say no turn (``[gm nb1]``, one thread): the answered mail's Message-ID does."""
    welcome = engine.store.one("SELECT message_id, turn FROM outbox WHERE recipient = :to AND kind = 'welcome'",
                               to=ADA)
    assert welcome["turn"] == 1 and msgids.answered_turn(welcome["message_id"], "nb1") == 1
    assert msgids.answered_turn(welcome["message_id"], "nb2") is None  # another game's
    play_one(engine)
    play_one(engine)
    view = engine.load("nb1")
    order = view.rules.legal_orders(view.state, "ada")[0]
    stale = engine.ingest(order_mail(ADA, order, game_id="nb1", password=nb_game["ada"],
                                     subject="Re: [gm nb1] Welcome to Neighbors", In_Reply_To=welcome["message_id"]))
    assert stale.outcome == "rejected" and "written for turn 1; the game is at turn 3" in stale.detail
    assert engine.load("nb1").seq == view.seq
    latest = engine.store.one("SELECT message_id FROM outbox WHERE recipient = :to AND kind = 'report' "
                              "AND turn = 3 ORDER BY id DESC", to=ADA)
    assert engine.ingest(order_mail(ADA, order, game_id="nb1", password=nb_game["ada"],
                                    subject="Re: [gm nb1] Neighbors report",
                                    In_Reply_To=latest["message_id"])).outcome == "applied"


def test_the_answered_turn_is_read_only_from_gms_own_form_of_message_id():
    made = msgids.new_message_id("gm.example.org", "nb.1-x_", 12)
    assert msgids.answered_turn(made, "NB.1-x_") == 12
    assert orders.read("Re: [gm nb.1-x_] report", "b4xd4", made).turn == 12
    assert orders.read("Re: [gm nb.1-x_] report", "TURN 14\nb4xd4", made).turn == 14  # a TURN line first
    assert orders.read("Re: [gm nb2] report", "b4xd4", made).turn is None  # another game's mail
    for other in (msgids.new_message_id("gm.example.org"), "<1.2.3.t4@example.org>", "<1.2.zz.t4@x>",
                  "<1.2.6e62.tt@x>", "<1.2.6e62.t99999999999@x>", "no-brackets", "", None):
        assert msgids.answered_turn(other, "nb") is None


# --- 4. press to several players, or to the game master ---------------------------------------
def test_the_grammar_reads_a_list_of_press_names():
    mail = orders.read("", "PRESS TO hal, jon\nhi\nENDPRESS\nPRESS TO hal jon,kim\nyo\nENDPRESS")
    assert mail.press == [(("hal", "jon"), "hi"), (("hal", "jon", "kim"), "yo")]
    assert mail.order_lines == [] and orders.read("", "HISTORY 3-5").commands == ["HISTORY 3-5"]


def test_press_to_several_players_sends_one_copy_each(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS3 + [("dee", "dee@example.org")], seed=4,
                                 options={"press": "white"})
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(ADA, "PRESS TO bob, cy\nHello you two.\nENDPRESS", game_id="nb1",
                                       password=secrets["ada"]))
    assert outcome.outcome == "help"
    sent = outbox(engine, start)
    press = [m for m in sent if "Press from ada" in m["Subject"]]
    assert sorted(m["To"] for m in press) == ["bob@example.org", "cy@example.org"]
    assert "To: bob, cy" in body(press[0]) and "Hello you two." in body(press[0])
    assert len(engine.store.all("SELECT * FROM reports WHERE kind = 'press'")) == 3  # 2 copies + archive
    (reply,) = replies(engine, start)
    assert "Your press to bob, cy was delivered." in body(reply)


def test_press_to_gm_goes_to_the_game_master(engine, config):
    config.gm_address = "gm-human@example.org"
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=4, options={"press": "grey"})
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADA, "PRESS TO GM\nbob is cheating\nENDPRESS", game_id="nb1",
                             password=secrets["ada"]))
    (to_gm,) = [m for m in outbox(engine, start) if "Press from" in m["Subject"]]
    assert to_gm["To"] == "gm-human@example.org" and "bob is cheating" in body(to_gm)
    assert "From: anonymous" in body(to_gm)
    assert len(engine.store.all("SELECT * FROM reports WHERE kind = 'press'")) == 1  # the archive's
    (reply,) = replies(engine, start)
    assert "Your press to the game master was delivered" in body(reply)


def test_press_to_gm_without_a_gm_address_is_refused_clearly(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=4, options={"press": "white"})
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADA, "PRESS TO GM\nhello\nENDPRESS", game_id="nb1", password=secrets["ada"]))
    (reply,) = outbox(engine, start)
    assert reply["To"] == ADA
    assert "this game has no game master address" in " ".join(body(reply).split()).lower()


def test_the_mails_password_is_masked_in_every_order_line_as_a_whole_word_only():
    mail = orders.read("orders", "GAME nb1 PASSWORD kq7hz3xw2m b4xd4\nb4xd4 kq7hz3xw2m, kq7hz3xw2mx\nPASS")
    assert mail.password == "kq7hz3xw2m"
    assert mail.order_lines == ["GAME nb1 PASSWORD *** b4xd4", "b4xd4 ***, kq7hz3xw2mx", "PASS"]
    mail = orders.read("GAME nb1 PASSWORD=kq7hz3xw2m", "b4xd4 password=kq7hz3xw2m")
    assert mail.order_lines == ["b4xd4 password=***"]
    assert orders.read("", "GAME nb1\nb4xd4").order_lines == ["b4xd4"]  # no password: as written
