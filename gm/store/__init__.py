"""Storage: games, players, states, orders, mail, outbox, reports, service records.

    gm.store.base        Store: the one interface; Store(target) opens the back end it names
    gm.store.connection  SQLite (a file path; the embedded default): WAL, BEGIN IMMEDIATE
    gm.store.postgres    PostgreSQL (a postgresql:// URL): a store several daemons share
    gm.store.pglocks     its locks: per game, per shared row, store-wide; deadlocks run again
    gm.store.pgrows      PostgreSQL's rows read as sqlite3.Row; packed texts as bytes
    gm.store.schema      every table, as the ordered migration steps
    gm.store.pgsteps     a step's PostgreSQL DDL, compiled by SQLAlchemy from gm.store.tables
    gm.store.tables      every table declared once (SQLAlchemy Core), held to the steps by a test
    gm.store.sql         Core statements compiled once per dialect, run on the store's connection
    gm.store.migrations  the step a database is at; runs the missing steps on open
    gm.store.copy        gm store copy: every row from one store into another
    gm.store.backup      gm backup, gm restore: a store as one SQLite file and back
    gm.store.games       games, players, history        (mixed into Store)
    gm.store.turns       states, orders                  (mixed into Store)
    gm.store.mail        messages, outbox, reports       (mixed into Store)
    gm.store.service     settings, deadlines, absences, overrides, results, draw proposals
    gm.store.selfservice open games, observers, address codes, token generations
    gm.store.delivery    delivery events, each address's delivery state (bounces)
    gm.store.optin       OBSERVE, JOIN, CREATE waiting for their address to confirm
    gm.store.daemons     daemon heartbeats and outages (deadlines that wait for gm)
    gm.store.reads       reads remembered within one write transaction, forgotten on a write

Three kinds of SQL, none translated from another dialect (issue 33):

- The store's statements are SQLAlchemy Core on gm.store.tables (``prepared``
  in gm.store.sql), compiled once per dialect, ahead of time for those held at
  module level (gm/store/compiled_sql.py: `gm ingest` never loads SQLAlchemy),
  and run on the store's own driver connection; a write of a fixed shape is
  declared so too (sql.inserting, sql.updating, sql.upsert).
- PostgreSQL's own SQL where only it has the feature (advisory locks, the
  outbox claim with SKIP LOCKED, a game's reads in one statement, unnest):
  gm.store.postgres, pglocks, gameload, with %(name)s parameters (``db.raw``).
- Hand-written SQL outside those (tests, one-off tools, the schema steps'
  Python) is portable text: ``:name`` parameters with a dict
  (``store.one(sql, name=...)``, ``db.execute(sql, {...})``), which SQLite runs
  as written and PostgreSQL as SQLAlchemy's ``text()`` compiles it
  (sql.portable); positional ``?`` is refused there.  Keep to what both take:
  ``INSERT ... ON CONFLICT (key) DO UPDATE SET c = excluded.c`` or ``DO
  NOTHING`` (not INSERT OR REPLACE/IGNORE); ``"end"`` quoted (PostgreSQL
  reserves it); LIKE compares case on PostgreSQL and not on SQLite, so write
  ``lower(x) LIKE lower(:p)`` (Core: ``ilike``); functions both have (lower,
  count, max, coalesce...; no strftime: times are REAL seconds, passed in); a
  bool is stored as 0/1; packed texts (gm.store.packing) are bytes with their
  packing beside them, ``states.state`` and ``reports.body`` (pgrows.PACKED).

The schema steps (gm.store.schema) keep SQLite's SQL as shipped and name the
same changes for PostgreSQL in terms of gm.store.tables (gm.store.pgsteps);
no PRAGMA or sqlite_master anywhere but gm.store.connection and migrations.

Reads go through ``one()``/``all()`` or ``db.execute(sql, params)``; a row
is read by column name or by index, as sqlite3.Row.  Writes run inside
``with store.write():``.  tests/store runs every store test on both back
ends (PostgreSQL from Debian's package, started by a fixture).
"""

from gm.store.errors import MigrationError, SchemaTooNew, StoreError
from gm.store.base import Store, is_url
from gm.store.connection import SqliteStore
from gm.store.postgres import PostgresStore

__all__ = ["MigrationError", "PostgresStore", "SchemaTooNew", "SqliteStore", "Store", "StoreError", "is_url"]
