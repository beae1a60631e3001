"""The catalogue of where the store holds an address (gm.store.addressdata) is whole: every table
and every text or bytes column of gm.store.tables is either in it or listed here as holding no
address, so a new one cannot be added without saying which.  And AddressData.rows_naming, on each
back end, finds a row of every catalogued table put in for one address and none of another's."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import LargeBinary, Text

from gm.store import addressdata
from gm.store.addressdata import (ADDRESS_COLUMNS, MAILBOX_COLUMNS, MENTION_COLUMNS, NAMING, SEAT_COLUMNS,
                                  AddressData)
from gm.store.tables import metadata
from addressrows import ADA, BOB, GAME, put_game, put_rows

# table -> its text or bytes columns that hold no address (codes, kinds, states, gm's own ids...)
HOLDS_NO_ADDRESS: dict[str, tuple[str, ...]] = {
    "games": ("id", "kind", "options", "status", "token_salt"),
    "players": ("pw_hash", "format", "timezone", "calendar", "language"),
    "states": ("game_id", "state", "state_packing"),
    "messages": ("source_key", "message_id", "game_id", "outcome"),  # a Message-ID names a host, not a mailbox
    "orders": ("action", "origin"),
    "outbox": ("message_id", "game_id", "kind", "status", "claimed_by"),
    "reports": ("kind", "audience", "gm_version", "digest", "body_packing"),
    "history": ("action",),
    "game_settings": ("game_id", "key"),
    "deadlines": ("game_id", "set_by"),
    "absences": (),
    "state_overrides": ("game_id", "action"),
    "results": ("game_id", "winners"),  # winners: seat names
    "timers": ("game_id",),
    "open_games": ("game_id",),
    "observers": ("game_id",),
    "address_codes": ("code_hash", "purpose", "ended"),
    "delivery_events": ("source",),
    "addresses": ("state",),
    "credential_failures": (),
    "credential_locks": (),
    "pending_requests": ("code_hash",),
    "bounce_holds": (),
    "holds": ("reason",),
    "daemons": ("daemon_id", "host", "took_over_from"),
    "outages": ("kind",),
    "draw_proposals": (),
    "conditional_lines": ("steps",),
    "takebacks": ("answer",),
    "mail_threads": ("game_id", "root"),  # root: a Message-ID gm made
    "away_notices": (),
    "address_settings": ("format", "timezone", "calendar", "language"),
    "calendar_events": (),
    "seat_paces": ("mail_pace",),
    "address_paces": ("mail_pace",),
    "held_letters": ("events",),
    "digests": (),
    "store_secrets": ("name", "secret"),
    "rated_games": ("game_id", "kind", "reason"),
    "public_players": ("player_id", "seat_name"),
    "rematch_offers": ("game_id", "offered_by", "new_game_id"),  # a seat name, never an address
    "rated_results": ("player_id", "kind"),
    "ratings": ("kind", "player_id", "last_game"),
    "tournaments": ("id", "kind", "format", "options", "status"),
    "tournament_entries": ("tournament_id", "player_id", "status"),
    "tournament_games": ("tournament_id", "player_id", "game_id"),
}

CATALOGUE = (ADDRESS_COLUMNS, MAILBOX_COLUMNS, SEAT_COLUMNS, MENTION_COLUMNS)


def catalogued(table: str) -> set[str]:
    return {column for part in CATALOGUE for column in part.get(table, ())}


def test_every_table_of_the_schema_is_catalogued_or_said_to_hold_no_address():
    assert set(metadata.tables) == set(HOLDS_NO_ADDRESS), "add the table to gm/store/addressdata.py or here"


def test_every_text_column_is_catalogued_or_said_to_hold_no_address():
    unlisted = {f"{name}.{c.name}" for name, table in metadata.tables.items() for c in table.c
                if isinstance(c.type, (Text, LargeBinary))
                and c.name not in catalogued(name) | set(HOLDS_NO_ADDRESS.get(name, ()))}
    assert unlisted == set(), "say in gm/store/addressdata.py (or here: none) how each holds an address"


def test_the_catalogue_names_only_columns_the_schema_has_and_none_twice_over():
    for name in {t for part in CATALOGUE for t in part}:
        assert catalogued(name) <= set(metadata.tables[name].c.keys()), name
        assert not catalogued(name) & set(HOLDS_NO_ADDRESS[name]), name


# --- the rows naming an address ---------------------------------------------------------------
@pytest.fixture
def store(store):
    with store.write():
        put_game(store)
        put_rows(store, ADA)
        put_rows(store, BOB)
    return store


def words(rows: dict[str, list[dict[str, Any]]]) -> str:
    return " ".join(str(v if not isinstance(v, bytes) else v.decode()) for table in rows.values()
                    for row in table for v in row.values()).lower()


def test_rows_naming_an_address_are_those_of_every_catalogued_table_and_none_of_anothers(store):
    found = AddressData(store).rows_naming("ADA+Games@Example.ORG")
    assert set(found) == set(NAMING)
    assert {table: len(rows) for table, rows in found.items()} == {
        table: 2 if table == "history" else 1 for table in NAMING}
    assert "bob" not in words(found)
    assert found["players"][0]["email"] == ADA
    assert found["reports"][0]["body"] == "body of Ada"  # unpacked
    assert found["outbox"][0]["raw"] == b"raw of Ada"


def test_an_address_holding_no_seat_is_found_by_address_and_mailbox_alone(store):
    found = AddressData(store).rows_naming("ada@example.org")  # ada's mailbox key, not her address
    assert set(found) == set(MAILBOX_COLUMNS)
    assert AddressData(store).seats_of("ada@example.org") == []
    assert AddressData(store).seats_of(ADA) == [(GAME, "Ada")]


def test_a_table_may_be_read_alone(store):
    assert set(AddressData(store).rows_naming(BOB, tables=("observers", "players"))) == {"observers", "players"}
    assert addressdata.NAMING == tuple(sorted(NAMING))
