"""Storage: games, players, states, orders, mail, outbox, reports, service records.

    gm.store.base        Store: the one interface; Store(target) opens the back end it names
    gm.store.connection  SQLite (a file path; the embedded default): WAL, BEGIN IMMEDIATE
    gm.store.postgres    PostgreSQL (a postgresql:// URL): a store several daemons share
    gm.store.pglocks     its locks: per game, per shared row, store-wide; deadlocks run again
    gm.store.dialect     the SQLite-style SQL translated for PostgreSQL; rows like sqlite3.Row
    gm.store.schema      every table, as the ordered migration steps
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

The portable subset.  The store's SQL (the mixins' named queries, schema
steps, Python steps through ``db.execute``) is written once, in SQLite's
dialect, and runs on both back ends when it keeps to this subset;
gm.store.dialect translates it for PostgreSQL mechanically:

- parameters as ``?`` (never named ones); a literal ``%`` is fine;
- ``INSERT OR IGNORE INTO t (...)`` and ``INSERT OR REPLACE INTO t (cols) ...``
  (always with a column list; REPLACE updates the other columns on a clash of
  the table's PRIMARY KEY, so a table written that way needs one);
- column types INTEGER (64-bit), INTEGER PRIMARY KEY (numbered by the
  database), REAL, TEXT, BLOB; a row's new id from ``Store.insert()``, never
  from ``cursor.lastrowid``;
- SQL keywords in upper case; the lower-case word ``end`` is the column
  ``absences.end`` (quoted for PostgreSQL, which reserves it);
- LIKE ignores the case of ASCII letters on both (ILIKE on PostgreSQL);
- functions both have: lower, upper, count, max, min, sum, coalesce, abs,
  length; no strftime/datetime/julianday (pass times in as parameters: they
  are REAL seconds), no ``||`` on non-text, no GLOB, no ``rowid``;
- values of a column's own type (a str for TEXT, an int for INTEGER; a bool
  is stored as 0/1); packed texts (gm.store.packing) are bytes with their
  packing in the column beside them, ``states.state`` and ``reports.body``
  (dialect.PACKED: add any new such column there);
- schema steps: CREATE TABLE / INDEX [IF NOT EXISTS], ALTER TABLE ADD COLUMN,
  DROP, INSERT ... SELECT; nothing that needs SQLite's table rebuild.  No
  PRAGMA or sqlite_master anywhere but gm.store.connection and migrations.

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
