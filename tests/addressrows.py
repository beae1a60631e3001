"""Rows of two people in every table the address catalogue reads (gm.store.addressdata), for the
tests that a person's rows come back and another's never do: each value tells whose it is."""

from __future__ import annotations

from typing import Any

from sqlalchemy import LargeBinary, Text

from gm.core.addresses import mailbox_key
from gm.store.addressdata import ADDRESS_COLUMNS, MAILBOX_COLUMNS, NAMING, SEAT_COLUMNS
from gm.store.tables import metadata

ADA, BOB = "ada+games@example.org", "bob@example.net"
SEATS = {ADA: "Ada", BOB: "Bob"}
GAME = "g1"


def filler(table: str, column: Any, who: str) -> Any:
    """A value of the column's type for one person's row: the person's address, mailbox key or
    seat where the catalogue says so, else a value telling whose row it is."""
    name = column.name
    if name in ADDRESS_COLUMNS.get(table, ()):
        return who
    if name in MAILBOX_COLUMNS.get(table, ()):
        return mailbox_key(who)
    if table in SEAT_COLUMNS and name in SEAT_COLUMNS[table]:
        return GAME if name == SEAT_COLUMNS[table][0] else SEATS[who]
    if name.endswith("_packing"):
        return "utf8"
    if column.foreign_keys and column.nullable:
        return None
    if isinstance(column.type, LargeBinary):
        return f"{name} of {SEATS[who]}".encode()
    if isinstance(column.type, Text):
        return f"{name} of {SEATS[who]}"
    return 1


def put_game(store) -> None:
    store.insert("games", id=GAME, kind="neighbors", seed=1, options="{}", status="active", created=1.0, updated=1.0)


def put_rows(store, who: str) -> None:
    """One row of ``who`` in every table rows_naming reads (and a history row by seat name)."""
    for table in NAMING:
        columns = [c for c in metadata.tables[table].c if c.identity is None]
        store.insert(table, **{c.name: filler(table, c, who) for c in columns})
    store.insert("history", game_id=GAME, turn=1, actor=SEATS[who], action="set", detail="format", at=1.0)
