"""Out-of-office replies: kept for the GM and offered an absence, never answered, nothing changed.

An auto-reply from a seat a game waits for is recorded (away_notices) and the seat's registered
address is told, once a week at most, how to send ABSENCE; a seat not waited for, a stranger, a
bounce or a list's mail records nothing and sends nothing (gm.service.intake.away).
"""

from __future__ import annotations

from typer.testing import CliRunner

from gm.cli import app
from gm.core import config as config_module
from gm.core.model import OutcomeKind
from gm.service.engine import Engine
from gm.service.intake import away
from gm.store import Store
from support import body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

DAY = 86400.0
SEATS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
OOO = {"Auto_Submitted": "auto-replied"}


def game(engine) -> tuple[str, str]:
    """A Neighbors game nb1 with a 14-day deadline; (the seat it waits for, the other)."""
    engine.create_game("neighbors", "nb1", SEATS, seed=5, options={"deadline": "14d", "reminder": "0"})
    (mover,) = engine.load("nb1").rules.to_move(engine.load("nb1").state)
    return mover, next(name for name, _ in SEATS if name != mover)


def arrive(engine, sender: str, subject: str = "Out of office: back on the 20th", **headers: str):
    """An auto-reply from ``sender`` judged: (its outcome, the mails it queued)."""
    start = last_outbox_id(engine)
    raw = order_mail(sender, "I am away until the 20th and will answer when I am back.",
                     subject=subject, **headers)
    return engine.ingest(raw), outbox(engine, start)


def changes(engine) -> tuple:
    """What no away reply may change: absences, the deadline, the timer, the state, the orders."""
    return (engine.store.timers.absences_of("nb1"), engine.store.timers.deadline_row("nb1"),
            engine.store.timers.timer_of("nb1"), engine.load("nb1").seq,
            engine.store.one("SELECT COUNT(*) AS n FROM orders")["n"])


def test_an_away_reply_from_the_seat_awaited_is_kept_unanswered_and_its_address_told_once(engine, clock):
    mover, _ = game(engine)
    address = f"{mover}@example.org"
    before = changes(engine)
    outcome, mails = arrive(engine, address.upper(), **OOO)  # a From in another case is the same seat
    assert outcome.outcome == OutcomeKind.ROBOT and "away reply kept" in outcome.detail
    (told,) = mails  # no answer: the notice alone, to the registered address
    assert told["To"] == address and told["Subject"] == away.TITLE
    assert told["In-Reply-To"] is None and told["Auto-Submitted"] == "auto-generated"
    text = " ".join(body(told).split())
    assert "nb1" in text and "ABSENCE <from> <to>" in text and "PASSWORD <your password>" in text
    assert "back on the 20th" not in text  # nothing of a mail whose From is only a claim
    (row,) = engine.store.timers.away_notices_in("nb1")
    assert (row.player, row.subject, row.last_seen, row.last_told) == (
        mover, "Out of office: back on the 20th", clock.now, clock.now)
    assert changes(engine) == before

    clock.advance(3 * DAY)
    outcome, mails = arrive(engine, address, subject="Automatic reply: orders", **OOO)
    assert outcome.outcome == OutcomeKind.ROBOT and mails == []  # within the week: kept, not told
    (row,) = engine.store.timers.away_notices_in("nb1")
    assert (row.subject, row.last_seen, row.last_told) == ("Automatic reply: orders", clock.now, clock.now - 3 * DAY)

    clock.advance(5 * DAY)  # 8 days after the first notice
    _, mails = arrive(engine, address, subject="x" * 300, **OOO)
    assert [m["To"] for m in mails] == [address]
    (row,) = engine.store.timers.away_notices_in("nb1")
    assert row.last_told == clock.now and row.subject == "x" * away.SUBJECT_KEPT
    assert changes(engine) == before


def test_the_signs_of_an_away_reply_are_its_subject_and_headers(engine):
    mover, _ = game(engine)
    for n, (subject, headers) in enumerate([("Out of Office", {}), ("re: orders", {"X_Autoreply": "yes"}),
                                             ("re: orders", {"Precedence": "auto_reply"})]):
        engine.store.db.execute("DELETE FROM away_notices")
        outcome, mails = arrive(engine, f"{mover}@example.org", subject=subject, **headers)
        assert "away reply kept" in outcome.detail, (subject, headers)
        assert len(mails) == 1


def test_away_replies_from_a_seat_not_awaited_a_stranger_a_bounce_or_a_list_do_nothing(engine):
    mover, other = game(engine)
    before = changes(engine)
    quiet = [
        (f"{other}@example.org", OOO),  # its game does not wait for this seat
        ("stranger@example.org", OOO),  # no seat at all
        (f"{mover}@example.org", {**OOO, "Return_Path": "<>"}),  # a bounce's sign
        (f"{mover}@example.org", {**OOO, "List_Id": "<friends.example.org>"}),  # a list's mail
        (f"{mover}@example.org", {"Precedence": "bulk", "X_Autoreply": "yes"}),
        (f"{mover}@example.org", {"Auto_Submitted": "auto-generated"}),  # a robot, not an away reply
        (f"{mover}@example.org", {"X_GM_Instance": "gm@localhost", **OOO}),  # gm's own
    ]
    for sender, headers in quiet:
        outcome, mails = arrive(engine, sender, **headers)
        assert outcome.outcome == OutcomeKind.ROBOT and mails == [], (sender, headers)
        assert "away reply" not in outcome.detail
    _, mails = arrive(engine, f"{mover}@example.org", subject="Undeliverable: orders")
    assert mails == []
    assert engine.store.timers.away_notices_in("nb1") == []
    assert changes(engine) == before


def test_a_finished_or_paused_wait_is_no_wait(engine):
    mover, _ = game(engine)
    engine.store.db.execute("UPDATE games SET status = 'paused' WHERE id = 'nb1'")
    _, mails = arrive(engine, f"{mover}@example.org", **OOO)
    assert mails == [] and engine.store.timers.away_notices_in("nb1") == []


def test_gm_players_shows_the_last_away_message(tmp_path, config):
    conf = tmp_path / "gm.yaml"
    store_line = f"store: {config.store}\n" if config.store else ""
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@example.test\n{store_line}")
    loaded = config_module.load(conf)
    engine = Engine(Store(loaded.database), loaded)
    try:
        mover, _ = game(engine)
        arrive(engine, f"{mover}@example.org", subject="Automatic reply: " + "away " * 30, **OOO)
    finally:
        engine.store.close()
    result = CliRunner().invoke(app, ["--config", str(conf), "players", "nb1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    (at,) = [i for i, line in enumerate(lines) if line.startswith("nb1") and f" {mover} " in line]
    shown = lines[at + 1]
    assert "away message" in shown and "Automatic reply: away" in shown and "told of ABSENCE" in shown
    assert len(shown) < 200 and "..." in shown
    assert not any("away message" in line for line in lines[:at] + lines[at + 2:])


def test_without_a_deadline_or_a_clock_the_reply_is_kept_and_nobody_is_told(engine, nb_game):
    """An ABSENCE only moves deadlines and stops clocks: a game with neither costs nobody a turn."""
    (mover,) = engine.load("nb1").rules.to_move(engine.load("nb1").state)
    outcome, mails = arrive(engine, f"{mover}@example.org", **OOO)
    assert mails == [] and "told" not in outcome.detail
    (row,) = engine.store.timers.away_notices_in("nb1")
    assert row.player == mover and row.last_told is None


def test_a_clock_game_waiting_is_told(engine):
    engine.create_game("neighbors", "nb1", SEATS, seed=5, options={"clock": "3d+1d/10d"})
    (mover,) = engine.load("nb1").rules.to_move(engine.load("nb1").state)
    _, mails = arrive(engine, f"{mover}@example.org", **OOO)
    assert [m["To"] for m in mails] == [f"{mover}@example.org"]


def test_a_fault_after_the_notice_loses_nothing_and_the_retry_tells_once(engine, monkeypatch):
    """The note and the notice are in the mail's one transaction: a fault later in it leaves
    neither; the mail set aside and judged again tells the address once, and once only."""
    from gm.service.intake import ingest
    from gm.service.outgoing.outbox import MailOutbox

    mover, _ = game(engine)
    real = MailOutbox.send_answers

    def fail(self):
        raise RuntimeError("the daemon dies here")

    monkeypatch.setattr(MailOutbox, "send_answers", fail)
    start = last_outbox_id(engine)
    raw = order_mail(f"{mover}@example.org", "Away until the 20th.", subject="Out of office", **OOO)
    assert engine.ingest(raw).outcome == OutcomeKind.ERROR
    assert outbox(engine, start) == [] and engine.store.timers.away_notices_in("nb1") == []
    monkeypatch.setattr(MailOutbox, "send_answers", real)
    row_id = engine.store.one("SELECT id FROM messages WHERE outcome = 'error'")["id"]
    assert ingest.retry(engine, row_id).outcome == OutcomeKind.ROBOT
    assert engine.ingest(raw).outcome == OutcomeKind.DUPLICATE
    assert [m["To"] for m in outbox(engine, start)] == [f"{mover}@example.org"]
    assert len(engine.store.timers.away_notices_in("nb1")) == 1


def test_a_password_in_an_away_subject_is_kept_masked(engine, clock):
    mover, _ = game(engine)
    arrive(engine, f"{mover}@example.org", subject="Automatic reply: GAME nb1 PASSWORD hunter2hunter2", **OOO)
    (row,) = engine.store.timers.away_notices_in("nb1")
    assert "hunter2" not in row.subject and row.subject.startswith("Automatic reply: GAME nb1 PASSWORD")


def test_one_notice_a_week_per_address_across_its_games(engine, clock):
    mover, _ = game(engine)
    engine.create_game("neighbors", "nb2", SEATS, seed=5, options={"deadline": "14d", "reminder": "0"})
    assert engine.load("nb2").rules.to_move(engine.load("nb2").state) == [mover]
    _, mails = arrive(engine, f"{mover}@example.org", **OOO)
    (told,) = mails
    assert "nb1" in body(told) and "nb2" in body(told)
    clock.advance(DAY)
    _, mails = arrive(engine, f"{mover}@example.org", **OOO)
    assert mails == []
    assert [len(engine.store.timers.away_notices_in(g)) for g in ("nb1", "nb2")] == [1, 1]
