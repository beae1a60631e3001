"""Where the store holds a mail address: every table's columns, and the rows naming one address.

The catalogue is the one list of them, for whoever must find or erase what gm keeps about a
person (MY DATA: gm.service.people.mydata; forgetting).  A column is listed by how it holds one:
ADDRESS_COLUMNS hold an address in normal form (gm.core.addresses.normal); MAILBOX_COLUMNS hold
its mailbox_key; SEAT_COLUMNS name a seat (game, seat name), which an address holds through
``players.email``; MENTION_COLUMNS are free text that may quote an address among other words
(mail kept, bounce words, log details).  tests/store/test_addressdata.py fails when a table or a
text column is added to gm.store.tables without being listed here or there as holding none.

AddressData.rows_naming reads every row that names an address (exact match, without case) or
its mailbox key, or names a seat it holds; never a row that merely mentions it in free text.
"""

from __future__ import annotations

from typing import Any

from gm.core.addresses import mailbox_key, normal
from gm.store.mailboxhash import mailbox_hash
from gm.store.packing import unpack_mail, unpack_text
from gm.store.repository import Repository
from gm.store.sql import prepared, whole_rows

# table -> the columns whose value is an address (in normal form; older rows may differ in case)
ADDRESS_COLUMNS: dict[str, tuple[str, ...]] = {
    "players": ("email",),
    "messages": ("sender",),
    "outbox": ("recipient",),
    "observers": ("email",),
    "open_games": ("created_by",),
    "address_codes": ("new_email",),
    "delivery_events": ("address",),
    "addresses": ("address",),
    "credential_failures": ("sender",),
    "credential_locks": ("sender",),
    "pending_requests": ("address",),
    "history": ("actor",),  # an observer's or a lobby player's address; else a seat's name or "gm"
    "mail_threads": ("address",),
    "address_settings": ("address",),
    "address_paces": ("address",),
    "held_letters": ("address",),
    "digests": ("address",),
    "public_players": ("address",),
}

# table -> the columns holding an address's mailbox_key (caps and locks count by mailbox)
MAILBOX_COLUMNS: dict[str, tuple[str, ...]] = {
    "pending_requests": ("mailbox",),
    "away_notices": ("address_key",),
}

# table -> (its game column, its seat-name column): rows about a seat, whoever holds it
SEAT_COLUMNS: dict[str, tuple[str, str]] = {
    "players": ("game_id", "name"),
    "orders": ("game_id", "player"),
    "reports": ("game_id", "player"),
    "history": ("game_id", "actor"),
    "absences": ("game_id", "player"),
    "address_codes": ("game_id", "player"),
    "credential_failures": ("game_id", "player"),
    "credential_locks": ("game_id", "player"),
    "bounce_holds": ("game_id", "player"),
    "draw_proposals": ("game_id", "player"),
    "conditional_lines": ("game_id", "player"),
    "takebacks": ("game_id", "player"),
    "away_notices": ("game_id", "player"),
    "calendar_events": ("game_id", "player"),
    "seat_paces": ("game_id", "player"),
    "held_letters": ("game_id", "player"),
    "rated_results": ("game_id", "seat"),
}

# table -> free-text columns that may quote an address (read by nobody here; an erasure scrubs them)
MENTION_COLUMNS: dict[str, tuple[str, ...]] = {
    "players": ("display_name",),
    "messages": ("subject", "raw", "detail", "auth"),
    "outbox": ("subject", "raw", "last_error"),
    "reports": ("body",),
    "history": ("detail",),
    "orders": ("text", "canonical", "error"),
    "delivery_events": ("words",),
    "addresses": ("reason",),
    "holds": ("scope", "words", "refusal"),
    "state_overrides": ("detail",),
    "results": ("reason",),
    "pending_requests": ("actions",),
    "away_notices": ("subject",),
    "game_settings": ("value",),
    "conditional_lines": ("written",),
    "public_players": ("name", "name_key"),
    "tournament_entries": ("seat_name",),
}

# tables whose address or mailbox column holds, since schema step 32, the mailbox's keyed hash
# (gm.store.mailboxhash: caps and locks outlive a forgetting); looked up by it as well
HASHED = ("credential_failures", "credential_locks", "pending_requests")

NAMING = tuple(sorted({*ADDRESS_COLUMNS, *MAILBOX_COLUMNS, *SEAT_COLUMNS}))  # the tables rows_naming reads


def build_by_address(sa: Any, t: Any, table: str) -> Any:
    """Every row of ``table`` whose address column is ``:address`` (without case) or whose mailbox
    column is ``:mailbox``."""
    target = t.metadata.tables[table]
    conditions = [sa.func.lower(target.c[c]) == sa.bindparam("address") for c in ADDRESS_COLUMNS.get(table, ())]
    conditions += [target.c[c] == sa.bindparam("mailbox") for c in MAILBOX_COLUMNS.get(table, ())]
    return whole_rows(sa, target).where(sa.or_(*conditions))


def build_by_seat(sa: Any, t: Any, table: str) -> Any:
    """Every row of ``table`` about the seat ``:player`` of game ``:game``."""
    target = t.metadata.tables[table]
    game, player = SEAT_COLUMNS[table]
    return whole_rows(sa, target).where(target.c[game] == sa.bindparam("game"),
                                        target.c[player] == sa.bindparam("player"))


# one statement a table and a way of naming, held here to be compiled ahead (gm.store.sql)
BY_ADDRESS = {table: prepared(lambda sa, t, table=table: build_by_address(sa, t, table))
              for table in sorted({*ADDRESS_COLUMNS, *MAILBOX_COLUMNS})}
BY_SEAT = {table: prepared(lambda sa, t, table=table: build_by_seat(sa, t, table)) for table in sorted(SEAT_COLUMNS)}

Seat = tuple[str, str]  # (game id, seat name)
Rows = dict[str, list[dict[str, Any]]]  # table -> its rows, each column -> value


def readable(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """A row with its packed columns unpacked: a report's body as text, an outbox mail as bytes."""
    if table == "reports" and row.get("body") is not None:
        row["body"] = unpack_text(row["body"], row.get("body_packing") or "utf8")
    elif table == "outbox" and row.get("raw") is not None:
        row["raw"] = unpack_mail(row["raw"])
    elif table == "messages" and row.get("raw") is not None:
        row["raw"] = bytes(row["raw"])
    return row


class AddressData(Repository):
    """The rows the store holds naming one address, table by table (the catalogue above)."""

    def seats_of(self, address: str) -> list[Seat]:
        """The seats ``address`` holds, (game, name), in every game (running or not)."""
        kept = normal(address) or address.strip().lower()
        rows = BY_ADDRESS["players"].run(self.store, address=kept, mailbox=None).fetchall()
        return sorted((row["game_id"], row["name"]) for row in rows)

    def rows_naming(self, address: str, tables: tuple[str, ...] = NAMING) -> Rows:
        """table -> every row naming ``address``, its mailbox key, or a seat it holds (each row
        once, in the store's order), for each of ``tables``; a table naming none is left out."""
        kept = normal(address) or address.strip().lower()
        key, hashed = mailbox_key(kept), mailbox_hash(self.store, kept)
        seats = self.seats_of(kept)
        found: Rows = {}
        for table in tables:
            rows: dict[tuple[Any, ...], dict[str, Any]] = {}
            if table in BY_ADDRESS:
                forms = [(kept, key), (hashed, hashed)] if table in HASHED else [(kept, key)]
                for address, mailbox in forms:
                    for row in BY_ADDRESS[table].run(self.store, address=address, mailbox=mailbox).fetchall():
                        rows.setdefault(tuple(row), dict(zip(row.keys(), row)))
            if table in BY_SEAT:
                for game, name in seats:
                    for row in BY_SEAT[table].run(self.store, game=game, player=name).fetchall():
                        rows.setdefault(tuple(row), dict(zip(row.keys(), row)))
            if rows:
                found[table] = [readable(table, row) for row in rows.values()]
        return found
