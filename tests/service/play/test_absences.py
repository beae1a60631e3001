"""Absences: a total per player per game, and everyone is told."""

from __future__ import annotations

from support import body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

DAY = 86400.0


def absence(engine, password, args, sender="ada@example.org"):
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, f"ABSENCE {args}", game_id="nb1", password=password))
    return outbox(engine, start)


def test_absences_stop_at_the_total_and_say_what_is_left(engine, nb_game, clock):
    # Default: at most 14 days each, 30 days in all.
    for n in range(2):
        mails = absence(engine, nb_game["ada"], f"+{n * 15 + 1}d +{n * 15 + 14}d")
        assert any("Absence recorded" in m["Subject"] for m in mails)
    refused = absence(engine, nb_game["ada"], "+31d +44d")  # a third 13 days: 39 in all
    (reply,) = [m for m in refused if m["To"] == "ada@example.org"]
    text = " ".join(body(reply).split())
    assert "30 days in all" in text and "4 days are left" in text
    assert len(engine.store.timers.absences_of("nb1")) == 2
    ok = absence(engine, nb_game["ada"], "+31d +35d")  # 4 days still fit
    assert any("Absence recorded" in m["Subject"] for m in ok)


def test_every_player_is_told_of_an_absence(engine, nb_game):
    mails = absence(engine, nb_game["ada"], "+1d +3d")
    told = [m for m in mails if m["To"] == "bob@example.org"]
    assert len(told) == 1 and "ada will be away" in body(told[0])
    assert [m["To"] for m in mails if "Absence recorded" in m["Subject"]] == ["ada@example.org"]
