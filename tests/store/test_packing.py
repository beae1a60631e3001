"""Packed texts are bytes with their packing recorded (schema steps 21 and 22): what
was stored reads back exactly, whatever its first bytes, on both back ends; and stores made
before the steps are converted once, their rows read as that gm wrote them."""

from __future__ import annotations

import zlib

import pytest

from gm.store import Store
from gm.store.packing import COMPRESS_OVER, UTF8, ZLIB, legacy_packed, pack_text, unpack_text
from gm.store.postgres import VERSION_TABLE, PostgresStore
from gm.store.steps import s21_state_packing

T = 1_800_000_000.0

# Texts whose first bytes are zlib's header, or nearly: "x^" and "x\x01" make a valid header
# (0x785E and 0x7801 are multiples of 31, RFC 1950), "x\x9c" and "x\xda" are the usual headers'
# characters (as text their UTF-8 differs).  Each short (stored as UTF-8) and long (compressed).
ZLIB_LOOKING = ["x^ marks the spot", "x\x01 after a control character", "x\x9c", "x\xdaz"]
TEXTS = ZLIB_LOOKING + [t + " and on" * COMPRESS_OVER for t in ZLIB_LOOKING]


def test_a_text_that_begins_like_zlib_data_is_recorded_as_text():
    for text in ZLIB_LOOKING:
        assert pack_text(text) == (text.encode(), UTF8)
        assert unpack_text(*pack_text(text)) == text
    assert legacy_packed(b"x^ marks the spot") == (b"x^ marks the spot", UTF8)  # PostgreSQL's old form
    assert legacy_packed("x^ marks the spot") == (b"x^ marks the spot", UTF8)  # SQLite's
    squeezed = zlib.compress(b"x^ marks the spot" * 100)
    assert legacy_packed(squeezed) == (squeezed, ZLIB)
    with pytest.raises(UnicodeDecodeError):  # neither zlib nor text: the migration stops, nothing guessed
        legacy_packed(b"x^\xff\xfe")
    with pytest.raises(TypeError):  # a text given where bytes are recorded: refused, not guessed
        unpack_text("x^ marks the spot", UTF8)


def test_reports_that_begin_like_zlib_data_read_back_exactly(store_target):
    store = Store(store_target)
    try:
        with store.write():
            store.games.add_game("g1", "neighbors", 1, "{}", T)
            for i, text in enumerate(TEXTS):
                store.reports.add_report("g1", 1, i, "ada", "press", text, None, T)
        assert [r["body"] for r in store.reports.reports_of("g1")] == TEXTS
        packings = [r["body_packing"] for r in store.all("SELECT body_packing FROM reports ORDER BY id")]
        assert packings == [UTF8] * len(ZLIB_LOOKING) + [ZLIB] * len(ZLIB_LOOKING)
    finally:
        store.close()


def test_a_store_from_before_step_21_is_converted_and_reads_back_exactly(store_target, monkeypatch):
    """Rows written as gm wrote them before step 21 (SQLite: the text itself, or zlib bytes;
    PostgreSQL: the UTF-8 bytes or the zlib bytes), then the steps run once on opening."""
    long_state = {"trail": ["x^"] * COMPRESS_OVER, "seed": 7}
    store = Store(store_target)
    pg = isinstance(store, PostgresStore)
    with store.write():
        store.games.add_game("g1", "neighbors", 1, "{}", T)
        store.turns.add_state("g1", 1, {"a": "x^"}, T)
        store.turns.add_state("g1", 1, long_state, T + 1)
        for n in range(4):
            store.turns.add_state("g1", 1, {"n": n}, T + 2)
        for i, text in enumerate(TEXTS):
            store.reports.add_report("g1", 1, i, "ada", "press", text, None, T)
    run = store.db.raw if pg else store.db.execute
    if not pg:  # SQLite kept a short text as text
        run("UPDATE states SET state = CAST(state AS TEXT) WHERE state_packing = 'utf8'")
        run("UPDATE reports SET body = CAST(body AS TEXT) WHERE body_packing = 'utf8'")
        assert {r[0] for r in run("SELECT typeof(body) FROM reports")} == {"text", "blob"}
    for table in ("public_players", "rated_games", "rated_results", "ratings", "tournaments",  # step 33's
                  "tournament_entries", "tournament_games", "rematch_offers",
                  "store_secrets", "away_notices", "calendar_events",  # steps 32's, 31's and 30's
                  "digests", "held_letters", "address_paces", "seat_paces",  # step 29's
                  "mail_threads", "takebacks", "conditional_lines"):  # steps 28's to 26's, undone first
        run(f"DROP TABLE {table}")
    run("ALTER TABLE players DROP COLUMN language")  # step 34's
    run("ALTER TABLE address_settings DROP COLUMN language")
    run("ALTER TABLE players DROP COLUMN calendar")  # step 30's
    run("ALTER TABLE address_settings DROP COLUMN calendar")
    for column in ("took_over_at", "took_over_from"):  # step 23's
        run(f"ALTER TABLE daemons DROP COLUMN {column}")
    run("ALTER TABLE outbox DROP COLUMN claimed_by")
    run("ALTER TABLE states DROP COLUMN state_packing")  # back to step 20
    run("ALTER TABLE reports DROP COLUMN body_packing")
    run(f"UPDATE {VERSION_TABLE} SET version = 20" if pg else "PRAGMA user_version = 20")
    store.close()
    monkeypatch.setattr(s21_state_packing, "BATCH", 3)  # converted 3 rows at a time: 6 states, 8 reports
    store = Store(store_target)
    try:
        assert store.schema_version >= 22
        assert [r["body"] for r in store.reports.reports_of("g1")] == TEXTS
        states = [store.turns.state_data(r) for r in store.turns.states_of("g1")]
        assert states == [{"a": "x^"}, long_state, *({"n": n} for n in range(4))]
        assert [r["state_packing"] for r in store.turns.states_of("g1")] == [UTF8, ZLIB] + [UTF8] * 4
        assert {type(r["body"]) for r in store.all("SELECT body FROM reports")} == {bytes}
    finally:
        store.close()
