"""SET CALENDAR through the engine, on both back ends: every calendar part gm sends parses with
icalendar; an event keeps its UID while its SEQUENCE rises with each moved deadline, and is
cancelled when the reader's turn ends, also when a turn closes early."""

from __future__ import annotations

import pytest
from icalendar import Calendar

from gm.service.outgoing import outages
from gm.service.play import clocks, lifecycle
from support import PLAYERS, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

DAY, H = 86400.0, 3600.0


def send(engine, secrets, who: str, text: str, game_id: str = "nb1"):
    since = last_outbox_id(engine)
    engine.ingest(order_mail(f"{who}@example.org", text, game_id=game_id, password=secrets[who]))
    return outbox(engine, since)


def events(msg) -> list[tuple[str, str, str, int, float]]:
    """(method, UID, STATUS, SEQUENCE, start) of every event in the mail's inline calendar part;
    every calendar part (inline and attached) parsed with icalendar, the attachments the same."""
    inline, attached = [], []
    for part in msg.walk():
        kind = part.get_content_type()
        if kind in ("text/calendar", "application/ics"):
            cal = Calendar.from_ical(part.get_payload(decode=True))
            found = [(str(cal["METHOD"]), str(e["UID"]), str(e["STATUS"]), int(e["SEQUENCE"]),
                      e.decoded("DTSTART").timestamp()) for e in cal.walk("VEVENT")]
            assert "ATTENDEE" not in cal.to_ical().decode()
            if kind == "text/calendar":
                assert part.get_param("method") == str(cal["METHOD"])
                inline.append(found)
            else:
                assert part.get_filename().endswith(".ics") and part.get_content_disposition() == "attachment"
                attached += found
    assert len(inline) <= 1 and (not inline or inline[0] == attached[:len(inline[0])])
    return attached


def to(mails, who: str) -> list:
    return [m for m in mails if m["To"] == f"{who}@example.org"]


def mover(engine, game_id: str = "nb1") -> str:
    view = engine.load(game_id)
    return view.rules.to_move(view.state)[0]


def move(engine, secrets, game_id: str = "nb1"):
    view = engine.load(game_id)
    name = mover(engine, game_id)
    return send(engine, secrets, name, view.rules.legal_orders(view.state, name)[0], game_id)


def calendar_on(engine, secrets, names=("ada", "bob"), game_id="nb1") -> dict[str, list]:
    """SET CALENDAR ON from each of ``names``: the events each reply carried."""
    found = {}
    for name in names:
        (reply,) = send(engine, secrets, name, "SET CALENDAR ON", game_id)
        assert "Calendar set" in reply["Subject"] and "calendar event" in body(reply)
        found[name] = events(reply)
    return found


def test_a_deadline_moved_three_times_updates_one_event_and_the_move_cancels_it(engine, clock):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"deadline": "72h"})
    first = mover(engine)
    replies = calendar_on(engine, secrets)
    ((_, first_uid, _, _, first_due),) = replies[first]  # the reply to ON: the turn now open
    mails = move(engine, secrets)
    second = mover(engine)
    assert not replies[second]  # not to move: nothing to add
    assert events(to(mails, first)[0]) == [("CANCEL", first_uid, "CANCELLED", 1, first_due)]
    ((method, uid, status, sequence, start),) = events(to(mails, second)[0])
    due = engine.store.timers.deadline_row("nb1").due
    assert (method, status, sequence, start) == ("PUBLISH", "CONFIRMED", 0, due)
    assert uid.endswith("@localhost") and second not in uid.split("@")[0].split("-")[1:2]

    # Moved once: the absence's reply carries the update; the other player is told, no event.
    mails = send(engine, secrets, second, "ABSENCE +70h +80h")
    moved = engine.store.timers.deadline_row("nb1").due
    assert moved == clock() + 80 * H
    (reply,) = to(mails, second)
    assert events(reply) == [("PUBLISH", uid, "CONFIRMED", 1, moved)]
    assert all(not events(m) for m in to(mails, first))

    # Moved again, by the GM: the notice carries it, one SEQUENCE higher.
    since = last_outbox_id(engine)
    lifecycle.set_deadline(engine, "nb1", "+5d")
    mails = outbox(engine, since)
    (notice,) = to(mails, second)
    assert events(notice) == [("PUBLISH", uid, "CONFIRMED", 2, clock() + 5 * DAY)]
    assert all(not events(m) for m in to(mails, first))

    # A pause moves it on by its length: the resume's notice carries it.
    lifecycle.pause(engine, "nb1")
    clock.advance(DAY)
    since = last_outbox_id(engine)
    lifecycle.resume(engine, "nb1")
    (notice,) = to(outbox(engine, since), second)
    assert events(notice) == [("PUBLISH", uid, "CONFIRMED", 3, clock() + 5 * DAY)]  # a day later, still 5 days

    # The move ends the turn for its mover: cancelled; the other is to move: a new event.
    mails = move(engine, secrets)
    assert events(to(mails, second)[0]) == [("CANCEL", uid, "CANCELLED", 4, clock() + 5 * DAY)]
    ((method, new_uid, _, sequence, _),) = events(to(mails, first)[0])
    assert method == "PUBLISH" and sequence == 0 and new_uid != uid


def test_an_outage_moves_the_event_in_the_notice_that_says_so(engine, clock):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"deadline": "72h"})
    calendar_on(engine, secrets)
    mails = move(engine, secrets)
    name = mover(engine)
    ((_, uid, _, _, due),) = events(to(mails, name)[0])
    clock.now = due + H  # gm was not running for the two hours around the deadline
    since = last_outbox_id(engine)
    with engine.store.write():
        outages.apply(engine, outages.STOPPED, due - H, due + H)
    (notice,) = to(outbox(engine, since), name)
    assert "Deadline moved" in notice["Subject"]
    assert events(notice) == [("PUBLISH", uid, "CONFIRMED", 1, due + 2 * H)]


def test_a_turn_that_closes_early_cancels_each_event_and_publishes_the_next(engine, clock):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=5, options={"deadline": "72h"})
    opened = calendar_on(engine, secrets, game_id="fb1")  # everyone is to move: each reply has turn 1's

    def close(view_turn: int) -> dict[str, list]:
        """Everyone sends orders: the turn closes at once, long before its deadline."""
        view = engine.load("fb1")
        assert view.turn == view_turn
        since = last_outbox_id(engine)
        for name in ("ada", "bob"):  # bob's orders close the turn: his report leads the reply to them
            send(engine, secrets, name, view.rules.legal_orders(view.state, name)[0], "fb1")
        engine.tick()
        assert engine.load("fb1").turn == view_turn + 1
        assert to(outbox(engine, since), "bob")[-1]["In-Reply-To"]
        return {name: events(to(outbox(engine, since), name)[-1]) for name in ("ada", "bob")}

    for view_turn in (1, 2):
        clock.advance(H)
        found = close(view_turn)
        for name in ("ada", "bob"):
            ((_, old_uid, _, old_sequence, start),) = opened[name]
            assert old_sequence == 0 and start == clock() - H + 72 * H
            assert ("CANCEL", old_uid, "CANCELLED", 1, start) in found[name]
            (new,) = [e for e in found[name] if e[0] == "PUBLISH"]
            assert new[1] != old_uid and new[3] == 0 and new[4] == clock() + 72 * H
            opened[name] = [new]


def test_a_clock_game_event_is_when_the_bank_runs_out(engine, clock):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"clock": "2d+1d/5d"})
    calendar_on(engine, secrets)
    clock.advance(H)
    mails = move(engine, secrets)
    name = mover(engine)
    view = engine.load("nb1")
    run_out = view.rules.clock_of(view.state).due(name)
    ((method, uid, _, sequence, start),) = events(to(mails, name)[0])
    assert (method, sequence) == ("PUBLISH", 0) and start == pytest.approx(run_out)
    since = last_outbox_id(engine)
    clocks.give_time(engine, "nb1", name, "+1d", why="a storm took the power")  # the run-out moves
    (notice,) = to(outbox(engine, since), name)
    assert events(notice) == [("PUBLISH", uid, "CONFIRMED", 1, pytest.approx(run_out + DAY))]


def test_calendar_off_all_and_what_my_games_and_help_say(engine, clock):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"deadline": "72h"})
    (bad,) = send(engine, secrets, "ada", "SET CALENDAR MAYBE")
    assert "Calendar not set" in bad["Subject"] and "SET CALENDAR ON" in body(bad)
    assert engine.store.seats.player("nb1", "ada").calendar is None
    (on,) = send(engine, secrets, "ada", "SET CALENDAR ON ALL")
    ((_, uid, _, _, due),) = events(on)  # ada is to move in nb1
    assert engine.store.seats.player("nb1", "ada").calendar == "on"
    assert engine.store.seats.address_settings("ada@example.org").calendar == "on"
    (listing,) = send(engine, secrets, "ada", "MY GAMES")
    assert "deadlines in your calendar" in body(listing)
    (help_reply,) = send(engine, secrets, "ada", "HELP")
    assert "SET CALENDAR ON|OFF [ALL]" in body(help_reply)
    since = last_outbox_id(engine)  # ALL: a game ada joins later welcomes her with her first event
    engine.create_game("neighbors", "nb2", PLAYERS, seed=5, options={"deadline": "72h"})
    assert mover(engine, "nb2") == "ada"
    (welcome,) = to(outbox(engine, since), "ada")
    ((method, _, _, sequence, start),) = events(welcome)
    assert "Welcome" in welcome["Subject"] and (method, sequence, start) == ("PUBLISH", 0, clock() + 72 * H)
    assert not events(to(outbox(engine, since), "bob")[0])
    (off,) = send(engine, secrets, "ada", "SET CALENDAR OFF")
    assert events(off) == [("CANCEL", uid, "CANCELLED", 1, due)]  # out of her calendar
    assert engine.store.seats.player("nb1", "ada").calendar == "off"
    for _ in range(2):
        assert not any(events(m) for m in move(engine, secrets))
