"""Every table gm keeps, as the ordered list of migration steps.

A database is at step N when ``PRAGMA user_version`` is N.  To change the
schema, append a step; never edit one that has shipped (databases in the
field already ran it).  A step is SQL (several statements, run one by one
inside the opening transaction) or a Python function given the connection,
for changes SQL alone cannot make (copying data, rebuilding a table).

Each back end runs a step in its own terms.  SQLite runs the step's SQL as
written (its text stays in sqlite_master).  PostgreSQL runs ``postgresql``:
the same changes named in terms of gm.store.tables (a table with these of its
columns, a column, an index by name, or portable SQL changing rows), compiled
by SQLAlchemy when the step runs (gm.store.pgsteps), so a column's type is
written once, in tables.py.  tests/store/test_pg_steps.py holds every step,
after every step, to the DDL PostgreSQL stores in the field ran
(tests/store/pg_steps_as_shipped.sql): no column's type or default in any
step differs from tables.py today.  Should a later step change one in
tables.py, the earlier steps would compile to the new declaration and that
test fails: the earlier step then names the column as it was, as Portable SQL
with a comment saying why.  A Python step writes portable SQL: ``:name``
parameters and a dict (SQLite runs it as written).

Databases made before user_version was used (gm up to schema "1" in the old
``meta`` table) have user_version 0 but already hold step 1's tables;
gm.store.migrations recognises them by their ``games`` table.  Step 2 ran
lazily in those databases (gm.deadlines.ensure_schema), if at all, hence its
``IF NOT EXISTS``.  The old ``meta`` table is left alone where it exists.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any, Callable

from gm.store.changes import Change, NewColumn, NewIndex, NewTable, Portable
from gm.store.packing import legacy_packed, unpack_text


@dataclass(frozen=True)
class Step:
    number: int
    name: str
    sql: str = ""  # SQLite's, exactly as shipped (a store's sqlite_master keeps its text)
    apply: Callable[[Any], None] | None = None  # given the back end's connection (sqlite3's or PgConnection)
    postgresql: tuple[Change, ...] = ()  # the same changes, compiled for PostgreSQL by gm.store.pgsteps


# Step 1: games, players, states, inbound mail, orders, outbox, reports, history.
# (Exactly the schema of gm/store.py before migrations, less its unread meta table.)
BASE = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,           -- JSON of the raw key=value options
    status TEXT NOT NULL,            -- active | finished | paused
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE players (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    pw_hash TEXT NOT NULL,           -- scrypt$n$r$p$salt_hex$hash_hex
    active INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, name)
);
CREATE TABLE states (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,            -- 0 = the set-up, then one per change
    turn INTEGER NOT NULL,
    state TEXT NOT NULL,             -- the rule module's versioned JSON
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    source_key TEXT NOT NULL UNIQUE, -- e.g. imap:UIDVALIDITY:UID, maildir:NAME, stdin:SHA256
    message_id TEXT,                 -- the Message-ID header, fallback identity
    sender TEXT,
    subject TEXT,
    raw BLOB NOT NULL,
    received REAL NOT NULL,
    game_id TEXT,
    outcome TEXT NOT NULL,           -- applied | rejected | ignored | robot | duplicate | help | error
    detail TEXT
);
CREATE INDEX messages_mid ON messages(message_id);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    action TEXT NOT NULL,            -- order | close
    player TEXT,
    turn INTEGER NOT NULL,
    text TEXT NOT NULL,
    canonical TEXT,
    accepted INTEGER NOT NULL,       -- 1: went through the rules, 0: refused
    error TEXT,
    message_row INTEGER REFERENCES messages(id),
    origin TEXT NOT NULL,            -- mail | gm | deadline | timer
    at REAL NOT NULL,                -- the 'now' the rules saw (replay uses it)
    seq INTEGER                      -- the state seq this order produced
);
CREATE INDEX orders_game ON orders(game_id, id);
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE, -- fixed at queue time so a resend is recognisable
    game_id TEXT,
    turn INTEGER,
    kind TEXT NOT NULL,              -- report | reply | welcome | notice
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    raw BLOB NOT NULL,               -- the whole RFC 5322 message
    status TEXT NOT NULL,            -- queued | sent | failed
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt REAL NOT NULL,
    last_error TEXT,
    created REAL NOT NULL,
    sent REAL
);
CREATE INDEX outbox_queue ON outbox(status, next_attempt);
CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    player TEXT,                     -- NULL: the GM's copy
    kind TEXT NOT NULL,              -- report | reply | notice | press
    body TEXT NOT NULL,
    outbox_id INTEGER REFERENCES outbox(id),
    created REAL NOT NULL
);
CREATE INDEX reports_game ON reports(game_id, turn);
CREATE TABLE history (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT,
    at REAL NOT NULL
);
"""

# Step 2: the service tables of gm/deadlines.py (settings, deadlines, absences,
# GM-made states, results).  IF NOT EXISTS: older databases may have some.
SERVICE = """
CREATE TABLE IF NOT EXISTS game_settings (
    game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
);
CREATE TABLE IF NOT EXISTS deadlines (
    game_id TEXT PRIMARY KEY,
    start_seq INTEGER NOT NULL,      -- the state seq that opened the turn
    turn INTEGER NOT NULL,
    due REAL,                        -- NULL: this turn has no deadline
    reminded INTEGER NOT NULL DEFAULT 0,
    late INTEGER NOT NULL DEFAULT 0, -- the deadline was processed
    grace_done INTEGER NOT NULL DEFAULT 0,
    paused_at REAL,
    set_by TEXT NOT NULL DEFAULT 'option'
);
CREATE TABLE IF NOT EXISTS absences (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    start REAL NOT NULL,
    end REAL NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS state_overrides (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,            -- a state the GM made, not the rules
    action TEXT NOT NULL,            -- rollback | edit
    source_seq INTEGER,              -- rollback: the state restored
    detail TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,        -- a game ended by the GM or a forfeit
    reason TEXT NOT NULL,
    winners TEXT,                    -- JSON list, or NULL: as the rules say
    at REAL NOT NULL
);
"""

# Step 3: timers by due time (a tick reads only what is due), and indexes for every look-up
# the per-message path makes.  Every active game starts due at once: the first tick after the
# upgrade works out each game's real next time, as the tick always did for every game.
TIMERS = """
CREATE TABLE timers (
    game_id TEXT PRIMARY KEY,        -- one row per game with something ahead of it
    due REAL NOT NULL                -- the earliest moment its deadline steps or rules timer need the clock
);
CREATE INDEX timers_due ON timers(due);
INSERT INTO timers(game_id, due) SELECT id, 0 FROM games WHERE status = 'active';
CREATE INDEX outbox_recipient ON outbox(recipient, created);
CREATE INDEX outbox_kind ON outbox(kind, created);
CREATE INDEX orders_seq ON orders(game_id, seq);
CREATE INDEX history_game ON history(game_id, id);
CREATE INDEX absences_game ON absences(game_id);
"""

# Step 5 (issue 18, players help themselves by mail): open games waiting for players, observers,
# address changes waiting for their code, and each seat's token generation (a new password or
# address bumps it, so every reply address made before stops working).
SELF_SERVICE = """
ALTER TABLE players ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
CREATE TABLE open_games (
    game_id TEXT PRIMARY KEY,        -- a games row with status 'open': seats to fill, no state yet
    seats INTEGER NOT NULL,          -- it starts by itself when this many have joined
    min_seats INTEGER NOT NULL,      -- gm start may start it once this many have joined
    created_by TEXT NOT NULL         -- gm:<user>, or the address that sent CREATE
);
CREATE TABLE observers (
    game_id TEXT NOT NULL,
    email TEXT NOT NULL,             -- lower-cased
    approved INTEGER NOT NULL,       -- 0: waits for the GM (observers=approved)
    since REAL NOT NULL,
    PRIMARY KEY (game_id, email)
);
CREATE TABLE address_codes (
    code_hash TEXT PRIMARY KEY,      -- sha256 of the code mailed to the new address
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    new_email TEXT NOT NULL,
    expires REAL NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
);
"""

# Step 6 (issue 19): delivery events per address (a refusal at send time, a bounce that came
# back) and each address's delivery state.  Outbox rows gain the statuses 'held' (not sent while
# the address bounces) and 'bounced' (refused for good; last_error holds the server's words).
DELIVERY = """
CREATE TABLE delivery_events (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL,           -- the recipient, lower-cased
    outbox_id INTEGER REFERENCES outbox(id),
    at REAL NOT NULL,
    permanent INTEGER NOT NULL,      -- 1: refused for good (5xx, Action: failed); 0: for now (4xx, delayed)
    source TEXT NOT NULL,            -- smtp: refused at send time | bounce: a bounce mail
    message_row INTEGER REFERENCES messages(id),  -- the bounce mail, if one
    words TEXT NOT NULL,             -- what the server said, capped
    settled INTEGER NOT NULL DEFAULT 0  -- 1: the address's state has taken it into account
);
CREATE INDEX delivery_events_address ON delivery_events(address, at);
CREATE INDEX delivery_events_unsettled ON delivery_events(id) WHERE settled = 0;
CREATE TABLE addresses (
    address TEXT PRIMARY KEY,        -- lower-cased
    state TEXT NOT NULL,             -- ok | soft-failing | bouncing
    since REAL NOT NULL,             -- when it entered this state
    reason TEXT,                     -- the failure that put it there
    last_probe REAL                  -- bouncing: when the last message was let through as a probe
);
CREATE INDEX addresses_state ON addresses(state);
"""

# Step 7 (issue 16): a report with its picture is 30-40 KB, and a 975-move game sent 1,950 of
# them; the store keeps a sent mail whole for a day, then as words (gm.service.records.retention).
# trimmed = 1: nothing more to leave out (a text mail from the start).  Rows from before this
# step are looked at once.  reports_outbox: the archived words of a mail, found by its id.
TRIMMED = """
ALTER TABLE outbox ADD COLUMN trimmed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_untrimmed ON outbox(sent) WHERE trimmed = 0 AND status = 'sent';
CREATE INDEX reports_outbox ON reports(outbox_id);
"""

# Step 8 (issue 27): a mail that carries a password or a code is marked, so that its stored copy
# can be blanked once it is sent (no secret outlives its sending in the store).
SECRET_MAIL = """
ALTER TABLE outbox ADD COLUMN secret INTEGER NOT NULL DEFAULT 0;
"""

# Step 9 (issue 27): the credential model (gm.service.people.credentials).  games.token_salt: a random
# value drawn when a game is made, under the HMAC of its reply tokens ('' for games made before,
# whose tokens keep working).  address_codes holds every code a seat's credentials wait on:
# purpose 'address' (to the new address), 'revert' (to the old one, 7 days), 'reset' (to the
# registered address); ended says why a code no longer works (confirmed, superseded, ...).
# credential_failures: each wrong password (player '' when the sender holds no seat of the game,
# a guess at every seat); credential_locks: a seat ('' sender) or a sender ('' game and player)
# refused passwords until ``until``.
CREDENTIALS = """
ALTER TABLE games ADD COLUMN token_salt TEXT NOT NULL DEFAULT '';
ALTER TABLE address_codes ADD COLUMN purpose TEXT NOT NULL DEFAULT 'address';
ALTER TABLE address_codes ADD COLUMN created REAL NOT NULL DEFAULT 0;
ALTER TABLE address_codes ADD COLUMN ended TEXT;
CREATE INDEX address_codes_seat ON address_codes(game_id, player);
CREATE TABLE credential_failures (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,            -- '' : the sender holds no seat of the game
    sender TEXT NOT NULL,            -- lower-cased From
    at REAL NOT NULL
);
CREATE INDEX credential_failures_seat ON credential_failures(game_id, player, at);
CREATE INDEX credential_failures_sender ON credential_failures(sender, at);
CREATE TABLE credential_locks (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,           -- '' with player '': a sender's lock
    player TEXT NOT NULL,
    sender TEXT NOT NULL,            -- '' : a seat's lock
    since REAL NOT NULL,
    until REAL NOT NULL
);
CREATE INDEX credential_locks_seat ON credential_locks(game_id, player, until);
CREATE INDEX credential_locks_sender ON credential_locks(sender, until);
"""

# Step 10 (issue 27): double opt-in.  OBSERVE, JOIN and CREATE wait here until the address they
# name answers the code mailed to it (gm.service.people.optin); only then is anything else recorded.
# actions: the mail's command lines, one a line.  code_hash: sha256 of the code, never the code.
OPT_IN = """
CREATE TABLE pending_requests (
    code_hash TEXT PRIMARY KEY,
    address TEXT NOT NULL,           -- lower-cased: the address that must confirm
    mailbox TEXT NOT NULL,           -- the address without its +tag: what the caps count
    actions TEXT NOT NULL,           -- OBSERVE nb1 / JOIN open1 ada / CREATE neighbors nb9 3, a line each
    created REAL NOT NULL,
    expires REAL NOT NULL,
    confirmed REAL                   -- NULL until the address answered the code
);
CREATE INDEX pending_requests_mailbox ON pending_requests(mailbox, created);
CREATE INDEX pending_requests_created ON pending_requests(created);
"""

# Step 12 (issue 27, secrets at rest): a mail set aside with an error keeps the result of its
# authentication (``messages.auth``: "password <game> <seat>", "token <game> <seat>" or "none"),
# not its password, which is masked in the copy kept (gm.mail.redact); gm inbox --retry uses it.
# bounce_holds: each time bouncing=wait held a player's deadline (once per turn, capped by the
# game's absence_total), so nobody escapes the late policy by bouncing her own mail.
SECRETS_AT_REST = """
ALTER TABLE messages ADD COLUMN auth TEXT;
CREATE TABLE bounce_holds (
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    start_seq INTEGER NOT NULL,      -- the state seq that opened the turn held
    seconds REAL NOT NULL,           -- how long the deadline was held
    at REAL NOT NULL,
    PRIMARY KEY (game_id, player, start_seq)
);
"""

# Step 11 (issue 27): who a press message went to is data, set when it is sent: 'all' (PRESS TO
# ALL: public, shown in the archive, the feed and every player's report), 'players' (named
# players) or 'gm' (the game master alone); NULL for what is not press.  Public views read
# only audience = 'all'.  Rows sent before this step are classified once, below.
PRESS_AUDIENCE = """
ALTER TABLE reports ADD COLUMN audience TEXT;
"""


def press_audience_of(body: str) -> str:
    """The audience of a press message archived before step 11, read from the header gm's
    press template wrote above the text (its "To:" line, before the first blank line), never
    from the text below it, which the sender wrote."""
    header = body.split("\n\n", 1)[0].split("\n")
    if not header[0].startswith("Press in game "):
        return "players"  # not gm's layout: never public
    for i, line in enumerate(header):
        if line.startswith("To: "):
            rest = [more.strip() for more in header[i + 1:] if more.startswith(" ")]  # wrapped
            labels = [label.strip() for label in " ".join([line[4:]] + rest).split(",")]
            if labels[:1] == ["ALL"]:
                return "all"
            return "gm" if labels == ["GM"] else "players"
    return "players"  # not gm's layout: never public


def classify_old_press(db) -> None:
    """Step 11's data: every press row archived before it gets its audience (SQL cannot read a
    compressed body; gm.store.packing)."""
    rows = db.execute("SELECT id, body FROM reports WHERE kind = 'press' AND audience IS NULL", {}).fetchall()
    for row in rows:
        db.execute("UPDATE reports SET audience = :audience WHERE id = :id",
                   {"audience": press_audience_of(unpack_text(*legacy_packed(row[1]))), "id": row[0]})


# Step 13 (issue 28): mail held because the server refuses gm itself, not a recipient: scope
# 'sender' (a 5xx at MAIL FROM, or the same refusal for two or more domains: the whole queue
# waits, but mail to gm_address) or 'domain:<d>' (a policy refusal, 5.7.x, by one domain).
# One retry (a probe) at next_probe, backing off; told = 1 once the GM has been mailed.
HOLDS = """
CREATE TABLE holds (
    scope TEXT PRIMARY KEY,          -- sender | domain:<domain, lower-cased>
    since REAL NOT NULL,             -- the first refusal
    reason TEXT NOT NULL,            -- what gm made of it
    words TEXT NOT NULL,             -- the server's words, capped
    refusal TEXT NOT NULL,           -- code and enhanced status, e.g. '554 5.7.1'
    probes INTEGER NOT NULL DEFAULT 0,  -- retries refused so far
    next_probe REAL NOT NULL,        -- when one message may be tried again
    told INTEGER NOT NULL DEFAULT 0  -- 1: the GM has been mailed about it
);
"""

# Step 14 (issue 28): outages are weather.  Each daemon writes its heartbeat row on every tick
# (``sending_down_since``: when its sender thread found the SMTP server unreachable, NULL while it
# sends), so that after a restart gm knows how long it was away.  ``outages``: each stretch of time
# gm could not send or was not running; the deadlines that fell inside one move by its length once
# it is over (``applied``).  ``finish`` is NULL while the outage lasts.
OUTAGES = """
CREATE TABLE daemons (
    daemon_id TEXT PRIMARY KEY,      -- host:pid:random, one per running daemon
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started REAL NOT NULL,
    last_seen REAL NOT NULL,
    sending_down_since REAL
);
CREATE TABLE outages (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,              -- sending | stopped
    start REAL NOT NULL,
    finish REAL,
    applied INTEGER NOT NULL DEFAULT 0
);
"""

TAKEOVERS = """
-- the daemon (daemons.daemon_id) that last claimed the row to send it; NULL: none yet, or SQLite
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
-- the last dead daemon whose claimed, unsent mail this daemon sent, and when it claimed it
ALTER TABLE daemons ADD COLUMN took_over_from TEXT;
ALTER TABLE daemons ADD COLUMN took_over_at REAL;
"""


# Steps 21 and 22 (issue 33): a packed text is always bytes, and how it was packed is recorded
# beside it (gm.store.packing: utf8 | zlib).  Before, the column held the text itself or its
# compressed bytes, and reads told them apart by the bytes: on PostgreSQL a short report
# beginning "x^" (zlib's header, as text) read as compressed data.  The DEFAULT only lets SQLite
# add a NOT NULL column; every writer names the packing, and the step's data below sets it for
# every row there is.  (On SQLite the columns keep their declared type TEXT: changing it means a
# table rebuild, which the steps avoid (gm.store); what they hold is BLOBs from now on.)
PACKING_COLUMN = ("ALTER TABLE {table} ADD COLUMN {column} TEXT NOT NULL DEFAULT 'utf8' "
                  "CHECK ({column} IN ('utf8', 'zlib'));")
BATCH = 500  # rows converted per read, so a large store's states are never all in memory


def repack(db, table: str, keys: tuple[str, ...], column: str) -> None:
    """Every row's packed ``column`` as bytes, with its packing (decided, this once, by
    gm.store.packing.legacy_packed), read in batches in the order of the table's key."""
    names = ", ".join(keys)
    marks = ", ".join(f":key{i}" for i in range(len(keys)))  # the key's values, named key0, key1...
    after: dict = {}
    while True:
        if after:  # the rows after the last one done, by the key (a row value, as both take it)
            where = f"WHERE ({names}) > ({marks}) " if len(keys) > 1 else f"WHERE {names} > :key0 "
        else:
            where = ""
        rows = db.execute(f"SELECT {names}, {column} FROM {table} {where}ORDER BY {names} LIMIT {BATCH}",
                          after).fetchall()
        cond = " AND ".join(f"{k} = :key{i}" for i, k in enumerate(keys))
        for row in rows:
            packed, packing = legacy_packed(row[len(keys)])
            db.execute(f"UPDATE {table} SET {column} = :packed, {column}_packing = :packing WHERE {cond}",
                       {"packed": packed, "packing": packing, **key_of(row, len(keys))})
        if len(rows) < BATCH:
            return
        after = key_of(rows[-1], len(keys))


def key_of(row, size: int) -> dict:
    """A row's key (its first ``size`` values) as repack's parameters, key0, key1..."""
    return {f"key{i}": value for i, value in enumerate(tuple(row)[:size])}


def pack_states(db) -> None:
    """Step 21's data: every state as bytes with its packing."""
    repack(db, "states", ("game_id", "seq"), "state")


def pack_reports(db) -> None:
    """Step 22's data: every archived report's body as bytes with its packing."""
    repack(db, "reports", ("id",), "body")


def fuzzy_borders_keep_their_rules(db) -> None:
    """Step 15's data (issue 29): every Fuzzy Borders game begun before FB8 was built gets
    ``empty_turns=none`` in its stored options, the rules it began with.  ``gm verify`` replays
    a game from those options (gm.service.records.audit); without the key the replay would take FB8's
    default, and its states and reports would differ from the stored ones.  A game not begun
    yet (open, no state) takes the default when it starts, like any game made from now on."""
    rows = db.execute("SELECT id, options FROM games WHERE kind = 'fuzzy-borders' AND EXISTS "
                      "(SELECT 1 FROM states WHERE states.game_id = games.id)", {}).fetchall()
    for row in rows:
        options = json.loads(row[1])
        if "empty_turns" not in options:
            options["empty_turns"] = "none"
            db.execute("UPDATE games SET options = :options WHERE id = :id",
                       {"options": json.dumps(options), "id": row[0]})



def players_have_their_settings(db) -> None:
    """Step 24's repair: a store made at step 5 by the gm of its day (f472c83, where step 4 was
    "reserved", empty; the columns came as step 4 after it) was at version 5 without
    players.format and players.timezone, and every later step passed it by, so SET FORMAT and
    SET TIMEZONE had no column to write (found by issue 33's port: a whole-row read listing them).
    The columns are added where they are missing; every other store has them, and is left as is.
    The columns a table has are read from an empty SELECT: the same on both back ends."""
    cursor = db.execute("SELECT * FROM players LIMIT 0", {})
    have = {column[0] for column in cursor.description}
    for column in ("format", "timezone"):
        if column not in have:
            add_column(db, f"ALTER TABLE players ADD COLUMN {column} TEXT", NewColumn("players", column))


def add_column(db, sqlite_sql: str, change: NewColumn) -> None:
    """A column a Python step adds: on SQLite by the step's SQL as written, on PostgreSQL as
    gm.store.pgsteps compiles the change.  The connection says which: the PostgreSQL store's
    (gm.store.postgres.PgConnection, its ``raw`` taking PostgreSQL's own SQL) carries psycopg."""
    if hasattr(db, "psycopg"):
        from gm.store import pgsteps  # SQLAlchemy, at migration time only

        db.raw(pgsteps.statement(change))
    else:
        db.execute(sqlite_sql)

def outbox_notifies_queued_mail(db) -> None:
    """Step 25, PostgreSQL's alone: an INSERT into outbox notifies, at its commit, on a channel
    of this schema's own (gm.store.postgres.QUEUED_CHANNEL), so that every daemon sharing the
    store wakes its sender (gm.runtime.queuedwatch).  One notification a statement, not a row;
    PostgreSQL folds a transaction's alike into one.  SQLite: nothing (one daemon a store)."""
    if getattr(db, "kind", "sqlite") != "postgresql":
        return
    # made again where it exists: a test that rewinds a store's step runs the later steps again
    db.raw("CREATE OR REPLACE FUNCTION gm_outbox_queued() RETURNS trigger LANGUAGE plpgsql AS "
           "$$BEGIN PERFORM pg_notify('gm_outbox_' || md5(current_schema()), ''); RETURN NULL; END$$")
    db.raw("DROP TRIGGER IF EXISTS outbox_queued ON outbox")
    db.raw("CREATE TRIGGER outbox_queued AFTER INSERT ON outbox FOR EACH STATEMENT "
           "EXECUTE FUNCTION gm_outbox_queued()")


# Step 16 (issue 31, RULINGS G6): the draw proposals standing in each game, one per player at
# most; a proposal stands until the end of the turn after ``turn`` (gm.service.people.draws).
DRAW_PROPOSALS = """
CREATE TABLE draw_proposals (
    game_id TEXT NOT NULL,
    player TEXT NOT NULL,
    turn INTEGER NOT NULL,           -- the turn it was made in
    made REAL NOT NULL,
    PRIMARY KEY (game_id, player)
);
"""

# SET ... ALL: the settings an address gives every seat it holds and every seat it takes later
# (a new seat starts with them: gm.store.games.add_player).  ``address`` lower-cased.
ADDRESS_SETTINGS = """
CREATE TABLE address_settings (
    address TEXT PRIMARY KEY,
    format TEXT, -- html or text; NULL: each game's option
    timezone TEXT, -- an IANA name; NULL: UTC
    updated REAL NOT NULL
);
"""


# Each step's changes on PostgreSQL, in terms of gm.store.tables (the Step's ``postgresql``): the same
# tables, columns and indexes, in the same order, as the SQL above; compiled by gm.store.pgsteps.
# Steps 15 and 24 change no table by SQL (their Python does what is needed, on both back ends).
PG_1 = (
    NewTable("games", "id kind seed options status created updated"),
    NewTable("players", "game_id seat name email pw_hash active"),
    NewTable("states", "game_id seq turn state created"),
    NewTable("messages", "id source_key message_id sender subject raw received game_id outcome detail"),
    NewIndex("messages_mid"),
    NewTable("orders", "id game_id action player turn text canonical accepted error message_row origin at seq"),
    NewIndex("orders_game"),
    NewTable("outbox", "id message_id game_id turn kind recipient subject raw status attempts next_attempt "
                       "last_error created sent"),
    NewIndex("outbox_queue"),
    NewTable("reports", "id game_id turn seq player kind body outbox_id created"),
    NewIndex("reports_game"),
    NewTable("history", "id game_id turn actor action detail at"),
)
PG_2 = (
    NewTable("game_settings", "game_id key value", if_not_exists=True),
    NewTable("deadlines", "game_id start_seq turn due reminded late grace_done paused_at set_by", if_not_exists=True),
    NewTable("absences", "id game_id player start end created", if_not_exists=True),
    NewTable("state_overrides", "game_id seq action source_seq detail", if_not_exists=True),
    NewTable("results", "game_id reason winners at", if_not_exists=True),
)
PG_3 = (
    NewTable("timers", "game_id due"),
    NewIndex("timers_due"),
    Portable("INSERT INTO timers(game_id, due) SELECT id, 0 FROM games WHERE status = 'active'"),
    NewIndex("outbox_recipient"),
    NewIndex("outbox_kind"),
    NewIndex("orders_seq"),
    NewIndex("history_game"),
    NewIndex("absences_game"),
)
PG_4 = (
    NewColumn("players", "format"),
    NewColumn("players", "timezone"),
)
PG_5 = (
    NewColumn("players", "generation"),
    NewTable("open_games", "game_id seats min_seats created_by"),
    NewTable("observers", "game_id email approved since"),
    NewTable("address_codes", "code_hash game_id player new_email expires used"),
)
PG_6 = (
    NewTable("delivery_events", "id address outbox_id at permanent source message_row words settled"),
    NewIndex("delivery_events_address"),
    NewIndex("delivery_events_unsettled"),
    NewTable("addresses", "address state since reason last_probe"),
    NewIndex("addresses_state"),
)
PG_7 = (
    NewColumn("outbox", "trimmed"),
    NewIndex("outbox_untrimmed"),
    NewIndex("reports_outbox"),
)
PG_8 = (
    NewColumn("outbox", "secret"),
)
PG_9 = (
    NewColumn("games", "token_salt"),
    NewColumn("address_codes", "purpose"),
    NewColumn("address_codes", "created"),
    NewColumn("address_codes", "ended"),
    NewIndex("address_codes_seat"),
    NewTable("credential_failures", "id game_id player sender at"),
    NewIndex("credential_failures_seat"),
    NewIndex("credential_failures_sender"),
    NewTable("credential_locks", "id game_id player sender since until"),
    NewIndex("credential_locks_seat"),
    NewIndex("credential_locks_sender"),
)
PG_10 = (
    NewTable("pending_requests", "code_hash address mailbox actions created expires confirmed"),
    NewIndex("pending_requests_mailbox"),
    NewIndex("pending_requests_created"),
)
PG_11 = (
    NewColumn("reports", "audience"),
)
PG_12 = (
    NewColumn("messages", "auth"),
    NewTable("bounce_holds", "game_id player start_seq seconds at"),
)
PG_13 = (
    NewTable("holds", "scope since reason words refusal probes next_probe told"),
)
PG_14 = (
    NewTable("daemons", "daemon_id host pid started last_seen sending_down_since"),
    NewTable("outages", "id kind start finish applied"),
)
PG_16 = (
    NewTable("draw_proposals", "game_id player turn made"),
)
PG_17 = (
    NewTable("address_settings", "address format timezone updated"),
)
PG_18 = (
    NewColumn("players", "display_name"),
)
PG_19 = (
    NewColumn("reports", "gm_version"),
    NewColumn("reports", "digest"),
)
PG_20 = (
    NewColumn("daemons", "inbox_handled"),
    NewColumn("daemons", "inbox_left"),
    NewColumn("daemons", "backlog_since"),
)
PG_21 = (
    NewColumn("states", "state_packing"),
)
PG_22 = (
    NewColumn("reports", "body_packing"),
)
PG_23 = (
    NewColumn("outbox", "claimed_by"),
    NewColumn("daemons", "took_over_from"),
    NewColumn("daemons", "took_over_at"),
)


STEPS: list[Step] = [
    Step(1, "games, players, states, mail, orders, outbox, reports, history", BASE, postgresql=PG_1),
    Step(2, "settings, deadlines, absences, state overrides, results", SERVICE, postgresql=PG_2),
    Step(3, "timers by due time; indexes of the per-message look-ups", TIMERS, postgresql=PG_3),
    Step(4, "a player's own report format and time zone (SET FORMAT, SET TIMEZONE)", """
-- format: html or text, NULL for the game's option; timezone: an IANA name, NULL for UTC
ALTER TABLE players ADD COLUMN format TEXT;
ALTER TABLE players ADD COLUMN timezone TEXT;
""", postgresql=PG_4),
    Step(5, "open games, observers, address codes, seat token generations", SELF_SERVICE, postgresql=PG_5),
    Step(6, "delivery events and the delivery state of each address", DELIVERY, postgresql=PG_6),
    Step(7, "sent mail keeps its pictures for a day (outbox.trimmed)", TRIMMED, postgresql=PG_7),
    Step(8, "mail that carries a password or a code (outbox.secret)", SECRET_MAIL, postgresql=PG_8),
    Step(9, "credentials: token salts, every pending code, wrong passwords and lock-outs", CREDENTIALS,
         postgresql=PG_9),
    Step(10, "OBSERVE, JOIN and CREATE waiting for the address to confirm", OPT_IN, postgresql=PG_10),
    Step(11, "who each press message went to (reports.audience)", PRESS_AUDIENCE, classify_old_press, postgresql=PG_11),
    Step(12, "the authentication of a mail set aside; bouncing=wait holds", SECRETS_AT_REST, postgresql=PG_12),
    Step(13, "mail held while the server refuses gm's sender or a domain refuses gm (holds)", HOLDS, postgresql=PG_13),
    Step(14, "daemon heartbeats and outages (deadlines wait for gm)", OUTAGES, postgresql=PG_14),
    Step(15, "Fuzzy Borders games begun before FB8 keep empty_turns=none", "",
         fuzzy_borders_keep_their_rules),
    Step(16, "draw proposals standing (DRAW, RULINGS G6)", DRAW_PROPOSALS, postgresql=PG_16),
    Step(17, "a player's settings for all their games (SET FORMAT ... ALL, SET TIMEZONE ... ALL)",
         ADDRESS_SETTINGS, postgresql=PG_17),
    Step(18, "a seat's display name, as its address was given (players.display_name)", """
-- 'Zoë Ångström' of "Zoë Ångström <zoë@example.org>", cleaned (gm.core.addresses); '' for none
ALTER TABLE players ADD COLUMN display_name TEXT NOT NULL DEFAULT '';
""", postgresql=PG_18),
    Step(19, "the version of gm that rendered each report and a digest of what it shows", """
-- gm_version: gm --version when rendered, digest: JSON of turn, position hash, scores, result
-- (gm.core.digest).  NULL in reports stored before this step: verify checks those against the
-- states rows and the replay instead, RULINGS G1
ALTER TABLE reports ADD COLUMN gm_version TEXT;
ALTER TABLE reports ADD COLUMN digest TEXT;
""", postgresql=PG_19),
    Step(20, "each daemon's inbox backlog after its last poll (gm status)", """
-- inbox_handled: messages its last poll handled, inbox_left: messages still in the inbox when it
-- ended (come meanwhile, or left to another daemon), backlog_since: since when every poll has
-- ended with mail left (NULL when the last one emptied the inbox).  NULL before its first poll
ALTER TABLE daemons ADD COLUMN inbox_handled INTEGER;
ALTER TABLE daemons ADD COLUMN inbox_left INTEGER;
ALTER TABLE daemons ADD COLUMN backlog_since REAL;
""", postgresql=PG_20),
    Step(21, "a state is always bytes, its packing recorded (states.state_packing)",
         PACKING_COLUMN.format(table="states", column="state_packing"), pack_states, postgresql=PG_21),
    Step(22, "an archived report is always bytes, its packing recorded (reports.body_packing)",
         PACKING_COLUMN.format(table="reports", column="body_packing"), pack_reports, postgresql=PG_22),
    Step(23, "which daemon claimed each outbox row, and which took over a dead one's work", TAKEOVERS,
         postgresql=PG_23),
    Step(24, "players.format and players.timezone where a store made at step 5 lacks them", "",
         players_have_their_settings),
    Step(25, "mail queued wakes every daemon's sender (PostgreSQL: a notification at commit)", "",
         outbox_notifies_queued_mail),
]


def statements(sql: str) -> list[str]:
    """Split a script into statements (sqlite3.complete_statement knows comments and quotes)."""
    out, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        raise ValueError(f"incomplete SQL statement: {buf.strip()[:80]!r}")
    return out
