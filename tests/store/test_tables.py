"""gm.store.tables is the schema the steps make: a fresh store, and stores migrated from the oldest
and the newest fixture store (tests/store/data), reflected on each back end, equal it exactly:
tables, columns (type per dialect, nullability, default, identity), primary keys, foreign keys,
unique constraints, checks and indexes.  A step not mirrored in tables.py fails here, naming the
table and column.  gm's own bookkeeping outside tables.py: PostgreSQL's gm_schema_version (the
counterpart of SQLite's PRAGMA user_version), and nothing else."""

from __future__ import annotations

import re
import shutil
import sqlite3

import pytest
import sqlalchemy as sa

from gm.store import Store, schema
from gm.store.changes import NewColumn
from gm.store.tables import metadata
from make_fixture_stores import REVISIONS, path_for

BOOKKEEPING = {"gm_schema_version"}
OLDEST, NEWEST = min(REVISIONS), max(REVISIONS)

# A real difference between the back ends, kept in view rather than smoothed over: SQLite lets a
# primary-key column that is not an INTEGER PRIMARY KEY hold NULL unless it says NOT NULL (an old
# SQLite quirk), so these reflect as nullable there; PostgreSQL makes every key column NOT NULL.
# (A NULL there is never written: every writer names the key.)
SQLITE_NULLABLE_KEYS = {
    "games.id", "deadlines.game_id", "results.game_id", "timers.game_id", "open_games.game_id",
    "address_codes.code_hash", "addresses.address", "pending_requests.code_hash", "holds.scope",
    "daemons.daemon_id", "address_settings.address",
    # INTEGER PRIMARY KEY: the rowid, which SQLite numbers when NULL is given
    "messages.id", "orders.id", "outbox.id", "reports.id", "history.id", "absences.id",
    "delivery_events.id", "credential_failures.id", "credential_locks.id", "outages.id",
}


def sql_words(text: str | None) -> str | None:
    """A default, index condition or check as comparable words: no casts, parentheses or case."""
    if text is None:
        return None
    text = re.sub(r"::[a-z ]+", "", str(text).lower())
    text = re.sub(r"= any \(array\[(.*?)\]\)", r"in (\1)", text)  # PostgreSQL's form of IN (...)
    return " ".join(text.replace("(", " ").replace(")", " ").replace(",", " ").split())


def declared(dialect: sa.engine.Dialect) -> dict[str, dict]:
    """tables.py as each table's description on this dialect."""
    out = {}
    for table in metadata.sorted_tables:
        columns = {}
        for c in table.columns:
            default = c.server_default.arg.text if isinstance(c.server_default, sa.DefaultClause) else None
            columns[c.name] = {"type": c.type.compile(dialect=dialect), "nullable": c.nullable,
                               "default": sql_words(default),
                               "identity": c.identity is not None and dialect.name == "postgresql"}
        out[table.name] = {
            "columns": columns,
            "primary key": tuple(c.name for c in table.primary_key.columns),
            "foreign keys": {(tuple(k.parent.name for k in fk.elements), fk.referred_table.name,
                              tuple(k.column.name for k in fk.elements)) for fk in table.foreign_key_constraints},
            "unique": {tuple(c.name for c in u.columns) for u in table.constraints
                       if isinstance(u, sa.UniqueConstraint)},
            "checks": {sql_words(c.sqltext.text) for c in table.constraints if isinstance(c, sa.CheckConstraint)},
            "indexes": {ix.name: (tuple(c.name for c in ix.columns), bool(ix.unique),
                                  sql_words(ix.dialect_options[dialect.name].get("where")))
                        for ix in table.indexes},
        }
    return out


def reflected(url: str) -> tuple[dict[str, dict], sa.engine.Dialect]:
    """The live schema of a store, described as ``declared`` describes tables.py."""
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        found = sa.inspect(engine)
        dialect = engine.dialect
        out = {}
        for name in found.get_table_names():
            if name in BOOKKEEPING:
                continue
            columns = {c["name"]: {"type": c["type"].compile(dialect=dialect), "nullable": c["nullable"],
                                   "default": sql_words(c.get("default")), "identity": bool(c.get("identity"))}
                       for c in found.get_columns(name)}
            if dialect.name == "sqlite":
                for column in columns:  # see SQLITE_NULLABLE_KEYS
                    if f"{name}.{column}" in SQLITE_NULLABLE_KEYS:
                        assert columns[column]["nullable"], f"{name}.{column}: no longer nullable on SQLite"
                        columns[column]["nullable"] = False
            out[name] = {
                "columns": columns,
                "primary key": tuple(found.get_pk_constraint(name)["constrained_columns"]),
                "foreign keys": {(tuple(fk["constrained_columns"]), fk["referred_table"],
                                  tuple(fk["referred_columns"])) for fk in found.get_foreign_keys(name)},
                "unique": {tuple(u["column_names"]) for u in found.get_unique_constraints(name)},
                "checks": {sql_words(c["sqltext"]) for c in found.get_check_constraints(name)},
                "indexes": {ix["name"]: (tuple(ix["column_names"]), bool(ix["unique"]),
                                         sql_words(ix.get("dialect_options", {}).get(f"{dialect.name}_where")))
                            for ix in found.get_indexes(name) if "duplicates_constraint" not in ix},
            }
        return out, dialect
    finally:
        engine.dispose()


def differences(url: str) -> list[str]:
    """Every way the store at ``url`` differs from tables.py, one line each, naming table and column."""
    live, dialect = reflected(url)
    want = declared(dialect)
    out = [f"{t}: a table tables.py does not declare" for t in sorted(set(live) - set(want))]
    out += [f"{t}: declared in tables.py, missing from the {dialect.name} store" for t in sorted(set(want) - set(live))]
    for name in sorted(set(live) & set(want)):
        have, table = live[name], want[name]
        for column in sorted(set(have["columns"]) | set(table["columns"])):
            if column not in have["columns"]:
                out.append(f"{name}.{column}: declared in tables.py, missing from the {dialect.name} store")
            elif column not in table["columns"]:
                out.append(f"{name}.{column}: a column tables.py does not declare ({dialect.name})")
            else:
                for key, value in table["columns"][column].items():
                    if have["columns"][column][key] != value:
                        out.append(f"{name}.{column}: {key} is {have['columns'][column][key]!r} on {dialect.name}, "
                                   f"{value!r} in tables.py")
        for key in ("primary key", "foreign keys", "unique", "checks", "indexes"):
            if have[key] != table[key]:
                out.append(f"{name}: {key} on {dialect.name} {have[key]!r}, in tables.py {table[key]!r}")
    return out


def target_url(target) -> str:
    return target if isinstance(target, str) else f"sqlite:///{target}"


def test_a_fresh_store_has_exactly_the_tables_declared(store_target):
    Store(store_target).close()
    found = differences(target_url(store_target))
    assert not found, "\n".join(found)


def migrated_from(step: int, target, tmp_path, monkeypatch):
    """A store made at the fixture store's ``step`` holding its rows, then opened by this gm: on
    SQLite the fixture file itself; on PostgreSQL a schema made by the steps up to ``step``, the
    fixture's rows copied in (each table in the order the steps made them, keys included)."""
    made = path_for(step)
    if not isinstance(target, str):
        shutil.copyfile(made, target)
    else:
        monkeypatch.setattr(schema, "STEPS", [s for s in schema.STEPS if s.number <= step])
        old = Store(target)
        assert old.schema_version == step
        with sqlite3.connect(made) as source, old.write():
            source.row_factory = sqlite3.Row
            for (table,) in source.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid"):
                old.db.execute(f"DELETE FROM {table}", {})  # a Python step's own rows (step 32's secret): the copy's
                for row in source.execute(f"SELECT * FROM {table}"):
                    old.insert(table, **dict(row))
        assert old.one("SELECT count(*) AS n FROM games")["n"] >= 4
        old.close()
        monkeypatch.undo()
    store = Store(target)
    assert store.schema_version == schema.STEPS[-1].number
    store.close()


@pytest.mark.parametrize("step", [OLDEST, NEWEST], ids=lambda step: f"step{step:02d}")
def test_a_store_migrated_from_a_fixture_store_has_exactly_the_tables_declared(step, store_target, tmp_path,
                                                                                monkeypatch):
    migrated_from(step, store_target, tmp_path, monkeypatch)
    found = differences(target_url(store_target))
    assert not found, "\n".join(found)


def test_a_column_marked_added_in_tables_py_is_the_one_its_step_adds():
    """``info=added(N)`` in tables.py and step N's NewColumn say the same: gm.store.pgsteps makes a
    table as it was at its step by that mark (test_pg_steps holds the DDL it makes)."""
    marked = {(table.name, column.name): column.info["added"] for table in metadata.tables.values()
              for column in table.columns if "added" in column.info}
    added = {(change.table, change.column): step.number for step in schema.STEPS
             for change in step.postgresql if isinstance(change, NewColumn)}
    assert marked == added


def test_a_step_not_mirrored_in_tables_py_is_named_by_table_and_column(tmp_path, monkeypatch):
    extra = schema.Step(schema.STEPS[-1].number + 1, "unmirrored",
                        "ALTER TABLE daemons ADD COLUMN mood TEXT;\nCREATE INDEX daemons_seen ON daemons(last_seen);")
    monkeypatch.setattr(schema, "STEPS", [*schema.STEPS, extra])
    Store(tmp_path / "gm.sqlite").close()
    found = differences(target_url(tmp_path / "gm.sqlite"))
    assert "daemons.mood: a column tables.py does not declare (sqlite)" in found
    assert any(line.startswith("daemons: indexes on sqlite") and "daemons_seen" in line for line in found)
    assert len(found) == 2, found


@pytest.mark.parametrize("step", sorted(REVISIONS), ids=lambda step: f"step{step:02d}")
def test_every_fixture_store_migrated_on_sqlite_has_exactly_the_tables_declared(step, tmp_path):
    """Every store a released gm made, opened by this gm, has what tables.py declares (column order
    aside): the store made at step 5 lacked players.format and players.timezone until step 24."""
    target = tmp_path / "gm.sqlite"
    shutil.copyfile(path_for(step), target)
    Store(target).close()
    found = differences(target_url(target))
    assert not found, "\n".join(found)
