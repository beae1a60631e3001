"""The schema steps' PostgreSQL DDL, compiled by SQLAlchemy from gm.store.tables (gm.store.pgsteps),
builds what PostgreSQL stores in the field ran: on a real server, one schema built step by step from
the DDL as shipped (pg_steps_as_shipped.sql) and one by this gm's steps (PostgresStore.migrate, one
step at a time), their catalogs compared after EVERY step: columns in order (type, NOT NULL, default,
identity and its sequence), constraints (primary keys, uniques, references, checks, by name and
definition) and indexes (by name and definition, with their WHERE)."""

from __future__ import annotations

import re
import shutil
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

from gm.store import Store, schema, tables
from gm.store.postgres import VERSION_TABLE, PgConnection
from make_fixture_stores import path_for
from old_stores import onto_postgresql, steps_up_to

SHIPPED = Path(__file__).with_name("pg_steps_as_shipped.sql")
LATEST = schema.STEPS[-1].number


def shipped() -> dict[int, dict[str, list[str]]]:
    """Each step's statements as shipped ("run"), and those its Python ran where a condition held
    ("where": condition -> statement, in order)."""
    steps: dict[int, dict[str, list]] = {}
    step = 0
    for line in SHIPPED.read_text().splitlines():
        if found := re.match(r"-- step (\d+): ", line):
            step = int(found.group(1))
            steps[step] = {"run": [], "where": []}
        elif found := re.match(r"-- where (.*?): (.*);$", line):
            steps[step]["where"].append((found.group(1), found.group(2)))
        elif line and not line.startswith("--"):
            steps[step]["run"].append(line.rstrip(";"))
    return steps


CATALOG = {
    "columns": """
        SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
               pg_get_expr(d.adbin, d.adrelid), a.attidentity,
               (SELECT s.relname || ' ' || q.seqtypid::regtype || ' ' || q.seqstart || ' ' || q.seqincrement
                       || ' ' || q.seqmin || ' ' || q.seqmax || ' ' || q.seqcycle
                  FROM pg_depend p JOIN pg_class s ON s.oid = p.objid JOIN pg_sequence q ON q.seqrelid = s.oid
                 WHERE p.refobjid = c.oid AND p.refobjsubid = a.attnum AND s.relkind = 'S')
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname <> %(version)s
           AND a.attnum > 0 AND NOT a.attisdropped
         ORDER BY c.relname, a.attnum""",
    "constraints": """
        SELECT c.relname, k.conname, k.contype, pg_get_constraintdef(k.oid)
          FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relname <> %(version)s
         ORDER BY c.relname, k.conname""",
    "indexes": """
        SELECT c.relname, i.relname, pg_get_indexdef(i.oid)
          FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relname <> %(version)s
         ORDER BY c.relname, i.relname""",
    "tables": """
        SELECT relname, relkind FROM pg_class
         WHERE relnamespace = current_schema()::regnamespace AND relname NOT LIKE %(version)s || '%%'
         ORDER BY relname""",
}


def catalog(url: str) -> dict[str, list[tuple]]:
    """What the schema at ``url`` holds, as PostgreSQL describes it (its own schema name left out)."""
    with closing(psycopg.connect(url, autocommit=True)) as db:
        name = db.execute("SELECT current_schema()").fetchone()[0]
        out = {}
        for part, sql in CATALOG.items():
            rows = db.execute(sql, {"version": VERSION_TABLE}).fetchall()
            out[part] = [tuple(str(v).replace(f"{name}.", "") if isinstance(v, str) else v for v in row)
                         for row in rows]
        return out


def run_shipped(url: str, statements: list[str]) -> None:
    with closing(psycopg.connect(url, autocommit=True)) as db, db.transaction():
        for statement in statements:
            db.execute(statement)


def migrated_to(url: str, step: int) -> None:
    """This gm's steps up to ``step`` run on the store at ``url`` (PostgresStore.migrate)."""
    with steps_up_to(step):
        store = Store(url)
        try:
            assert store.schema_version == step
        finally:
            store.close()


def test_the_frozen_ddl_names_every_step_that_shipped():
    steps = shipped()
    assert sorted(steps) == [s.number for s in schema.STEPS]
    for step in schema.STEPS:  # a step with SQL ran some on PostgreSQL; one without ran none
        assert bool(steps[step.number]["run"]) == bool(schema.statements(step.sql)), step.number
        assert bool(step.postgresql) == bool(schema.statements(step.sql)), step.number
    assert steps[24]["where"] == [("players lacks format", "ALTER TABLE players ADD COLUMN format TEXT"),
                                  ("players lacks timezone", "ALTER TABLE players ADD COLUMN timezone TEXT")]


def test_every_step_builds_on_postgresql_what_the_shipped_ddl_built(pg_server):
    as_shipped, now = pg_server.fresh_url(), pg_server.fresh_url()
    steps = shipped()
    for step in schema.STEPS:
        run_shipped(as_shipped, steps[step.number]["run"])
        migrated_to(now, step.number)
        before, after = catalog(as_shipped), catalog(now)
        for part in CATALOG:
            assert after[part] == before[part], f"step {step.number}: {part} differ"
    final = catalog(now)  # and it is a schema: every table of gm.store.tables, with keys and indexes
    assert {row[0] for row in final["columns"]} == set(tables.metadata.tables)
    assert sum(1 for row in final["constraints"] if row[2] == "p") == len(tables.metadata.tables)
    assert ("outbox", "outbox_untrimmed",
            "CREATE INDEX outbox_untrimmed ON outbox USING btree (sent) "
            "WHERE ((trimmed = 0) AND (status = 'sent'::text))") in final["indexes"]


def test_a_store_whose_step_4_was_empty_gets_the_same_columns_from_step_24(pg_server, monkeypatch):
    """The stores made at step 5 by f472c83 (step 4 reserved, empty): step 24's Python adds
    players.format and players.timezone as the shipped step did."""
    as_shipped, now = pg_server.fresh_url(), pg_server.fresh_url()
    steps = shipped()
    monkeypatch.setattr(schema, "STEPS", [s for s in schema.STEPS if s.number != 4])
    for step in schema.STEPS:
        if step.number == 24:
            run_shipped(as_shipped, [statement for _, statement in steps[24]["where"]])
        else:
            run_shipped(as_shipped, steps[step.number]["run"])
        migrated_to(now, step.number)
        assert catalog(now) == catalog(as_shipped), f"step {step.number}"
        if step.number == 24:  # later steps add columns of their own after these
            columns = [row[2] for row in catalog(now)["columns"] if row[0] == "players"]
            assert columns[-2:] == ["format", "timezone"]  # added last, by step 24


@pytest.mark.parametrize("step", [5, 9, 21])
def test_the_steps_ddl_is_sqlalchemys_compilation_of_tables_py(step):
    """What the PostgreSQL steps run is made from gm.store.tables, not written out: a sample."""
    from gm.store import pgsteps

    made = [" ".join(sql.split()) for sql, _ in pgsteps.statements(schema.STEPS[step - 1])]
    expected = {
        5: "ALTER TABLE players ADD COLUMN generation BIGINT DEFAULT 0 NOT NULL",
        9: "CREATE INDEX credential_locks_sender ON credential_locks (sender, until)",
        21: "ALTER TABLE states ADD COLUMN state_packing TEXT DEFAULT 'utf8' NOT NULL "
            "CHECK (state_packing IN ('utf8', 'zlib'))",
    }[step]
    assert expected in made


def test_a_step_with_sql_and_no_postgresql_changes_is_refused(pg_url, monkeypatch):
    Store(pg_url).close()
    lonely = schema.Step(LATEST + 1, "sqlite only", "ALTER TABLE outbox ADD COLUMN failed REAL;")
    monkeypatch.setattr(schema, "STEPS", [*schema.STEPS, lonely])
    with pytest.raises(ValueError, match=f"schema step {LATEST + 1} names no changes on PostgreSQL"):
        Store(pg_url)
    monkeypatch.undo()
    store = Store(pg_url)
    assert store.schema_version == LATEST
    store.close()


@pytest.mark.parametrize("step", [None, 2, 5], ids=["fresh", "step02", "step05"])
def test_migrating_on_postgresql_runs_no_sqlite_sql(step, pg_url, tmp_path, monkeypatch):
    """A fresh store, and the fixture stores of steps 2 and 5 (whose Python steps have rows to change,
    and step 24 its columns to add) migrated to the latest step: every statement is PostgreSQL's own
    (``raw``) or portable SQL with a dict, none SQLite's with positional parameters (which nothing
    translates any more)."""
    if step is not None:
        path = tmp_path / f"store_step{step:02d}.sqlite"
        shutil.copyfile(path_for(step), path)
        assert onto_postgresql(path, pg_url) == step
    positional: list[str] = []
    execute = PgConnection.execute

    def watched(self, sql, params=()):
        if not isinstance(params, dict):
            positional.append(sql)
        return execute(self, sql, params)

    monkeypatch.setattr(PgConnection, "execute", watched)
    store = Store(pg_url)
    try:
        assert store.schema_version == LATEST
        assert positional == []
    finally:
        store.close()
