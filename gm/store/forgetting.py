"""An address forgotten in every row of the store, both back ends (FORGET ME, gm forget).

Rows that are about the address alone go (its delivery state and events, settings, paces,
digests, held letters, thread roots, away notices, subscriptions); kept mail from or to it
keeps its row (orders and reports point at it) with its words blanked, and mail not sent yet
is never sent; then every cell of the columns gm.store.addressdata lists as holding an
address, packed ones unpacked, has it (any case) replaced by its pseudonym
(gm.store.mailboxhash).  Caps and locks are keyed by the mailbox hash already and stay.
``wipe_freed`` then clears SQLite's freed pages: no byte of the file keeps the address.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable

from gm.core import addresses
from gm.store import packing

CHECKPOINT_TRIES = 5  # times the WAL is truncated again while a reader holds it
CHECKPOINT_PAUSE = 0.2  # seconds, more each time

# (table, column) rows equal to the address (lower-cased) are deleted
DELETED = (("delivery_events", "address"), ("addresses", "address"), ("address_settings", "address"),
           ("address_paces", "address"), ("digests", "address"), ("held_letters", "address"),
           ("mail_threads", "address"), ("observers", "email"))
# (table, column naming the address, what the mail's words become): kept mail, blanked
BLANKED = (("messages", "sender", {"raw": b"", "subject": "", "detail": None}),
           ("outbox", "recipient", {"raw": b"", "subject": "", "last_error": None}))
# packed columns, each with how to read and write it: (table, column, packing column or None: a mail)
PACKED = (("reports", "body", "body_packing"), ("outbox", "raw", None))


def forget_address(store: Any, address: str, pseudonym: str) -> int:
    """Forget ``address`` in every row (inside a write); how many cells changed."""
    store.locks.lock_store()
    if store.kind == "sqlite":  # what the erase frees is zeroed, not merely marked free
        store.db.execute("PRAGMA secure_delete = ON")
    address = address.lower()
    changed = 0
    for table, column in DELETED:
        changed += store.db.execute(f"DELETE FROM {table} WHERE lower({column}) = :address",
                                    {"address": address}).rowcount
    changed += store.db.execute("DELETE FROM away_notices WHERE address_key = :key",
                                {"key": addresses.mailbox_key(address)}).rowcount
    changed += store.db.execute("UPDATE outbox SET status = 'failed' WHERE lower(recipient) = :address "
                                "AND status IN ('queued', 'held')", {"address": address}).rowcount  # never sent now
    for table, column, blanks in BLANKED:
        sets = ", ".join(f"{name} = :{name}" for name in blanks)
        changed += store.db.execute(f"UPDATE {table} SET {sets} WHERE lower({column}) = :address",
                                    {**blanks, "address": address}).rowcount
    changed += replace_everywhere(store, address, pseudonym)
    store.forget_reads()
    return int(changed)


def games_seated(store: Any, address: str) -> list[str]:
    """The games where ``address`` holds or held a seat, running or not."""
    return [row["game_id"] for row in store.db.execute(
        "SELECT DISTINCT game_id FROM players WHERE lower(email) = :address ORDER BY game_id",
        {"address": address.lower()})]


def replacer(address: str, pseudonym: str) -> Callable[[str], str]:
    """A text with every spelling of ``address`` in any case replaced (a literal pattern: linear)."""
    pattern = re.compile(re.escape(address), re.IGNORECASE)
    return lambda text: pattern.sub(pseudonym, text)


def replace_everywhere(store: Any, address: str, pseudonym: str) -> int:
    """The address replaced in every column the catalogue says may hold one (gm.store.addressdata:
    as an address, a mailbox key, or words that may quote it)."""
    from gm.store import tables  # the columns' types (SQLAlchemy): a rare command loads them

    swap, changed = replacer(address, pseudonym), 0
    packed = {(t, c) for t, c, _ in PACKED}
    for table, columns in catalogued().items():
        target = tables.metadata.tables[table]
        keys = [c.name for c in target.primary_key.columns]
        for column in columns:
            if (table, column) in packed:
                changed += replace_packed(store, table, column, keys, swap)
            else:
                blob = target.c[column].type.python_type is bytes
                changed += replace_plain(store, table, (column, blob), keys, address, swap)
    return changed


def catalogued() -> dict[str, list[str]]:
    """table -> every column gm.store.addressdata lists as holding an address in any form."""
    from gm.store import addressdata

    found: dict[str, list[str]] = {}
    for part in (addressdata.ADDRESS_COLUMNS, addressdata.MAILBOX_COLUMNS, addressdata.MENTION_COLUMNS):
        for table, columns in part.items():
            found.setdefault(table, []).extend(c for c in columns if c not in found[table])
    return found


def matching(store: Any, column: str, blob: bool) -> str:
    """SQL for ``column`` (of bytes: ``blob``) as lower-cased text, to find an address in it with LIKE."""
    if store.kind == "postgresql" and blob:
        return f"lower(encode({column}, 'escape'))"
    return f"lower(CAST({column} AS TEXT))"


def like_pattern(address: str) -> str:
    """A LIKE pattern (ESCAPE '!') finding ``address`` anywhere in a text: its own % and _ literal."""
    escaped = address.replace("!", "!!").replace("%", "!%").replace("_", "!_")
    return f"%{escaped}%"


def replace_plain(store: Any, table: str, named: tuple[str, bool], keys: list[str], address: str,
                  swap: Callable[[str], str]) -> int:
    """The cells of a plain text or blob column (``named``: its name, whether of bytes) holding
    the address, rewritten."""
    column, blob = named
    rows = store.db.execute(f"SELECT {', '.join(keys)}, {column} AS cell FROM {table} "
                            f"WHERE {matching(store, column, blob)} LIKE :pattern ESCAPE '!'",
                            {"pattern": like_pattern(address)}).fetchall()
    changed = 0
    for row in rows:
        cell = row["cell"]
        if isinstance(cell, str):
            new: Any = swap(cell)
        else:
            new = swap(bytes(cell).decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
        if new != cell:
            changed += set_cell(store, table, column, keys, row, new)
    return changed


def replace_packed(store: Any, table: str, column: str, keys: list[str], swap: Callable[[str], str]) -> int:
    """The cells of a packed column holding the address (read whole, unpacked), rewritten."""
    packing_column = next(p for t, c, p in PACKED if (t, c) == (table, column))
    extra = f", {packing_column} AS packing" if packing_column else ""
    changed = 0
    for row in store.db.execute(f"SELECT {', '.join(keys)}, {column} AS cell{extra} FROM {table}", {}).fetchall():
        if packing_column:
            text = packing.unpack_text(row["cell"], row["packing"])
            new_text = swap(text)
            if new_text != text:
                cell, kind = packing.pack_text(new_text)
                changed += set_cell(store, table, column, keys, row, cell, {packing_column: kind})
        else:
            raw = packing.unpack_mail(row["cell"]) if row["cell"] else b""
            new_raw = swap(raw.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
            if new_raw != raw:
                changed += set_cell(store, table, column, keys, row, packing.pack_mail(new_raw))
    return changed


def set_cell(store: Any, table: str, column: str, keys: list[str], row: Any, value: Any,
             more: dict[str, Any] | None = None) -> int:
    """One cell (and ``more`` of its row) set, the row found by its primary key."""
    values = {"new_value": value, **(more or {})}
    sets = ", ".join([f"{column} = :new_value", *(f"{name} = :{name}" for name in (more or {}))])
    where = " AND ".join(f"{key} = :key_{key}" for key in keys)
    params = {**values, **{f"key_{key}": row[key] for key in keys}}
    return int(store.db.execute(f"UPDATE {table} SET {sets} WHERE {where}", params).rowcount)


def wipe_freed(store: Any) -> bool:
    """No byte of the freed pages left (outside any transaction): on SQLite, the WAL checkpointed
    into the file, a VACUUM rewriting it, and the WAL truncated (tried again while a reader holds
    it); on PostgreSQL a VACUUM (no row is left to read; its WAL and disk are like backups).
    False: a reader held SQLite's WAL throughout, to be wiped again later."""
    if store.kind == "postgresql":
        for table in store.table_names():
            store.db.raw(f"VACUUM {table}")
        return True
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.db.execute("VACUUM")
    for attempt in range(CHECKPOINT_TRIES):
        busy = store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        if not busy:
            store.db.execute("PRAGMA secure_delete = OFF")
            return True
        time.sleep(CHECKPOINT_PAUSE * (attempt + 1))
    return False
