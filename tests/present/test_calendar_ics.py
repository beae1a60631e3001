"""gm.present.calendar: the iCalendar objects of a deadline, read back with icalendar."""

from __future__ import annotations

from datetime import timedelta

from icalendar import Calendar

from gm.present import calendar as ics

DUE = 1_800_259_200.0  # 2027-01-18 08:00 UTC
NOW = 1_800_000_000.0


def deadline(seat: str = "ada", sequence: int = 0, **values) -> ics.Deadline:
    return ics.Deadline(**{"game_id": "nb1", "seat": seat, "turn": 3, "due": DUE, "sequence": sequence,
                           "zone": "Europe/Berlin", "local": "Mon 18 Jan 09:00 CET (08:00 UTC)", **values})


def read(raw: bytes):
    cal = Calendar.from_ical(raw)
    (event,) = cal.walk("VEVENT")
    return cal, event


def test_publish_is_an_event_with_an_alarm_a_day_before_and_asks_nothing():
    cal, event = read(ics.calendar([deadline()], ics.PUBLISH, "example.org", "gm@example.org", NOW))
    assert str(cal["METHOD"]) == "PUBLISH" and str(cal["VERSION"]) == "2.0"
    assert event.decoded("DTSTART").timestamp() == DUE and event.decoded("DTSTART").utcoffset() == timedelta(0)
    assert event.decoded("DTEND").utcoffset() == timedelta(0)
    assert str(event["STATUS"]) == "CONFIRMED" and int(event["SEQUENCE"]) == 0
    assert "ATTENDEE" not in event and "RSVP" not in event.to_ical().decode()
    (alarm,) = event.walk("VALARM")
    assert alarm.decoded("TRIGGER") == -timedelta(days=1)
    assert "Europe/Berlin" in str(event["DESCRIPTION"]) and "09:00 CET" in str(event["DESCRIPTION"])


def test_cancel_keeps_the_uid_with_a_higher_sequence():
    _, published = read(ics.calendar([deadline()], ics.PUBLISH, "example.org", "gm@example.org", NOW))
    cal, cancelled = read(ics.calendar([deadline(sequence=1)], ics.CANCEL, "example.org", "gm@example.org", NOW))
    assert str(cal["METHOD"]) == "CANCEL" and str(cancelled["STATUS"]) == "CANCELLED"
    assert str(cancelled["UID"]) == str(published["UID"]) and int(cancelled["SEQUENCE"]) == 1
    assert not cancelled.walk("VALARM")


def test_the_uid_is_stable_and_safe_whatever_the_seat_is_called():
    odd = 'Ada, the "Great"; of\nLovelace\\'
    first = ics.uid("nb1", odd, 3, "example.org")
    assert first == ics.uid("nb1", odd, 3, "example.org") != ics.uid("nb1", odd, 4, "example.org")
    assert first != ics.uid("nb1", "ada", 3, "example.org")
    assert all(c.isalnum() or c in "-_.@" for c in first)
    assert all(c.isalnum() or c in "-_.@" for c in ics.uid("g;1,\n x", "ada", 1, "example.org"))


def test_every_text_is_escaped_by_the_library():
    odd = 'Ada, the "Great"; of\nLovelace\\'
    raw = ics.calendar([deadline(seat=odd, game_id="g,1;x")], ics.PUBLISH, "example.org", "gm@example.org", NOW)
    assert b"Ada\\, the \"Great\"\\; of\\nLovelace\\\\" in raw.replace(b"\r\n ", b"")
    _, event = read(raw)
    assert odd in str(event["SUMMARY"]) and odd in str(event["DESCRIPTION"]) and "g,1;x" in str(event["SUMMARY"])
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))  # folded (RFC 5545 3.1)


def test_a_clock_event_says_the_time_runs_out():
    _, event = read(ics.calendar([deadline(clock=True)], ics.PUBLISH, "example.org", "gm@example.org", NOW))
    assert "clock runs out" in str(event["SUMMARY"])
