"""SET MAIL EACH|MYTURN [ALL] through mail: which reports wait, what never does, and the waiting
reports coming, in order, with the next mail of the game to that reader.

A three-player Neighbors game, sequential: after each move one player is to move, the mover gets
their own report, and the third player's report is the one MYTURN may hold."""

from __future__ import annotations

from gm.core.value import changed
from gm.service.outgoing import pace
from support import PLAYERS3, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

PLAYERS4 = PLAYERS3 + [("dee", "dee@example.org")]
ORDER4 = [name for name, _ in PLAYERS4]
ADDRESS = {name: email for name, email in PLAYERS4}


def new_game(engine, game_id="nb1", players=PLAYERS3):
    return engine.create_game("neighbors", game_id, players, seed=5)


def mover(engine, game_id="nb1"):
    view = engine.load(game_id)
    (name,) = view.rules.to_move(view.state)
    return name


def send(engine, name, text, secrets, game_id="nb1"):
    """``name`` mails ``text`` in the game; the mails it caused."""
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADDRESS[name], text, game_id=game_id, password=secrets[name]))
    return outbox(engine, start)


def move(engine, secrets, game_id="nb1"):
    """The player to move plays their first legal order; (their name, the mails it caused)."""
    view = engine.load(game_id)
    name = mover(engine, game_id)
    return name, send(engine, name, view.rules.legal_orders(view.state, name)[0], secrets, game_id)


def to(mails, name):
    return [m for m in mails if m["To"] == ADDRESS[name]]


def held(engine, name, game_id="nb1"):
    return engine.store.all("SELECT turn, events FROM held_letters WHERE game_id = :g AND player = :p "
                            "ORDER BY id", g=game_id, p=name)


def third(engine, first):
    """The player who is neither ``first`` (about to move) nor the one after them."""
    order = [n for n, _ in PLAYERS3]
    return order[(order.index(first) + 2) % 3]


def test_each_is_the_default_and_every_report_comes(engine):
    secrets = new_game(engine)
    idle = third(engine, mover(engine))
    reply = send(engine, idle, "SET MAIL EACH", secrets)
    assert "every report (EACH)" in " ".join(body(to(reply, idle)[0]).split())
    _, mails = move(engine, secrets)
    assert len(to(mails, idle)) == 1 and "report" in to(mails, idle)[0]["Subject"]
    assert held(engine, idle) == []


def test_myturn_holds_a_report_that_asks_nothing_and_delivers_it_in_order_with_the_next(engine):
    secrets = new_game(engine)
    idle = third(engine, mover(engine))
    reply = send(engine, idle, "SET MAIL MYTURN", secrets)
    assert "only when you are to move" in " ".join(body(to(reply, idle)[0]).split())
    first, mails = move(engine, secrets)  # idle is not to move after it: held
    assert to(mails, idle) == [] and len(to(mails, first)) == 1
    assert len(held(engine, idle)) == 1
    archived = engine.store.all("SELECT kind FROM reports WHERE game_id = 'nb1' AND player = :p AND turn = :t",
                                p=idle, t=engine.load("nb1").turn)
    assert [r["kind"] for r in archived] == ["report"]  # archived as if sent
    events = [line for row in held(engine, idle) for line in pace.event_lines(row["turn"], row["events"])]
    second, mails = move(engine, secrets)  # now idle is to move: one mail, the waiting events first
    assert mover(engine) == idle
    (mail,) = to(mails, idle)
    text = body(mail)
    # the waiting events first, then the current report
    assert text.index("While your mail waited (SET MAIL MYTURN):") < text.index(events[0]) \
        < text.index("Neighbors game nb1, turn")
    assert held(engine, idle) == []


def test_myturn_holds_several_and_delivers_them_in_the_order_played(engine):
    secrets = new_game(engine, players=PLAYERS4)
    first = mover(engine)
    last = ORDER4[(ORDER4.index(first) + 3) % 4]  # the last of the four to move
    send(engine, last, "SET MAIL MYTURN", secrets)
    played = []
    for _ in range(2):  # two moves that ask nothing of ``last``: both held
        name, mails = move(engine, secrets)
        played.append(name)
        assert to(mails, last) == [] and len(to(mails, name)) == 1
        assert len(to(mails, mover(engine))) == 1  # the one to move has theirs at once
    rows = held(engine, last)
    lines = [line for row in rows for line in pace.event_lines(row["turn"], row["events"])]
    assert len(rows) == 2 and [line.split(": ")[1] for line in lines] == played
    third_mover, mails = move(engine, secrets)  # now ``last`` is to move
    assert mover(engine) == last
    (mail,) = to(mails, last)
    text = body(mail)
    assert text.index(lines[0]) < text.index(lines[1]) < text.index("Neighbors game nb1, turn")
    assert f"  {third_mover}: " in text.split("Neighbors game nb1, turn")[1]  # the current report's event
    assert held(engine, last) == []


def test_myturn_never_holds_the_end_of_the_game(engine):
    secrets = new_game(engine)
    for name in ("ada", "bob", "cy"):
        send(engine, name, "SET MAIL MYTURN", secrets)
    for _ in range(200):
        view = engine.load("nb1")
        if view.rules.is_over(view.state):
            break
        _, mails = move(engine, secrets)
    assert {m["To"] for m in mails if "final report" in m["Subject"]} == {email for _, email in PLAYERS3}
    assert engine.store.all("SELECT * FROM held_letters") == []


def test_set_mail_all_reaches_every_seat_of_the_address_and_seats_it_takes_later(engine):
    secrets = new_game(engine)
    new_game(engine, "nb2")
    reply = send(engine, "cy", "SET MAIL MYTURN ALL", secrets)
    assert "in every game of cy@example.org (nb1, nb2)" in " ".join(body(to(reply, "cy")[0]).split())
    engine.create_game("neighbors", "nb3", PLAYERS3, seed=5)
    paces = {(r["game_id"], r["player"]): r["mail_pace"] for r in engine.store.all("SELECT * FROM seat_paces")}
    assert paces == {("nb1", "cy"): "myturn", ("nb2", "cy"): "myturn", ("nb3", "cy"): "myturn"}
    send(engine, "cy", "SET MAIL EACH ALL", secrets)
    engine.create_game("neighbors", "nb4", PLAYERS3, seed=5)
    assert engine.store.all("SELECT * FROM seat_paces") == []


def test_set_mail_in_one_game_leaves_the_others(engine):
    secrets = new_game(engine)
    new_game(engine, "nb2")
    send(engine, "cy", "SET MAIL DAILY 18:30", secrets)
    rows = engine.store.all("SELECT game_id, mail_pace, mail_at FROM seat_paces")
    assert [(r["game_id"], r["mail_pace"], r["mail_at"]) for r in rows] == [("nb1", "daily", 18 * 60 + 30)]


def test_a_bad_set_mail_says_what_to_write_and_changes_nothing(engine):
    secrets = new_game(engine)
    for bad in ("SET MAIL WEEKLY", "SET MAIL DAILY 25:00", "SET MAIL MYTURN 08:00", "SET MAIL DAILY 8"):
        (reply,) = to(send(engine, "cy", bad, secrets), "cy")
        assert "Nothing was changed" in body(reply) and "SET MAIL" in body(reply)
    assert engine.store.all("SELECT * FROM seat_paces") == []


def test_help_and_my_games_say_what_each_setting_does(engine):
    secrets = new_game(engine)
    (help_mail,) = to(send(engine, "cy", "HELP", secrets), "cy")
    text = " ".join(body(help_mail).split())
    assert "SET MAIL EACH|MYTURN|DAILY" in text and "DAILY [HH:MM] one digest a day" in text
    assert "MYTURN only when you are to move" in text and "08:00 if you give none" in text
    send(engine, "cy", "SET MAIL DAILY 07:30 ALL", secrets)
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADDRESS["cy"], "MY GAMES"))
    (mine,) = [m for m in outbox(engine, start) if m["To"] == ADDRESS["cy"]]
    text = body(mine)
    assert "Your mail: one digest a day at 07:30 your time (DAILY)" in text
    assert "one digest a day at 07:30 your time (DAILY)" in text.split("SET ... ALL):")[1]
    start = last_outbox_id(engine)
    engine.ingest(order_mail(ADDRESS["ada"], "MY GAMES"))
    assert "Your mail: every report (EACH)" in body(outbox(engine, start)[0])


def test_parse_setting_reads_each_form():
    assert pace.parse_setting("each") == ("each", None)
    assert pace.parse_setting("MyTurn") == ("myturn", None)
    assert pace.parse_setting("DAILY") == ("daily", 8 * 60)
    assert pace.parse_setting("daily 07:05") == ("daily", 7 * 60 + 5)


def test_a_simultaneous_turn_opening_is_never_held(engine):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS3[:2], seed=2)
    for name in ("ada", "bob"):
        send(engine, name, "SET MAIL DAILY", secrets, "fb1")
    start = last_outbox_id(engine)
    for name, cell in (("ada", "A10"), ("bob", "S10")):
        engine.ingest(order_mail(ADDRESS[name], f"CLAIM {cell}", game_id="fb1", password=secrets[name]))
    assert engine.load("fb1").turn == 2
    reports = [m["To"] for m in outbox(engine, start) if "report" in m["Subject"]]
    assert sorted(reports) == ["ada@example.org", "bob@example.org"]  # the new turn asks them both
    assert engine.store.all("SELECT * FROM held_letters") == []


def test_asks_reader_is_the_one_rule_of_what_never_waits(engine):
    from gm.service.outgoing.letters import Letter

    new_game(engine)
    view = engine.load("nb1")
    first = mover(engine)
    idle = third(engine, first)
    report = Letter(ADDRESS[idle], "report", "text", kind="report", player=idle)
    assert not pace.asks_reader(view, report)  # a report to a reader not to move
    assert pace.asks_reader(view, changed(report, player=first))  # the reader to move
    assert pace.asks_reader(view, changed(report, kind="notice"))  # not a report
    assert pace.asks_reader(view, changed(report, lead=True))  # the sender's own


def test_a_report_carrying_the_readers_calendar_event_never_waits(engine):
    """SET CALENDAR's cancellation rides on a report that may ask nothing of its reader: held, it
    would leave a deadline standing in their calendar, so such a report goes at once."""
    from gm.service.outgoing.letters import Letter

    new_game(engine)
    view = engine.load("nb1")
    idle = third(engine, mover(engine))
    plain = Letter(ADDRESS[idle], "Neighbors report", "text", kind="report", player=idle)
    assert not pace.asks_reader(view, plain)
    assert pace.asks_reader(view, changed(plain, calendar=(b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",)))
