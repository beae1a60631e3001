"""Every table of the store's current schema (after the last step of gm.store.steps), declared once.

Statements are built on these tables (gm.store.sql), the steps' PostgreSQL DDL is compiled from
them (gm.store.pgsteps), and tests/store/test_tables.py holds fresh and migrated stores, on each
back end, to them column by column: add a step, then mirror it here (a column a later step
added says which: ``info=added(N)``).  It imports SQLAlchemy: the daemon's start-up never does.

    INT     INTEGER on SQLite, BIGINT on PostgreSQL; ROWID the same, a table's INTEGER PRIMARY
            KEY: SQLite's rowid, on PostgreSQL an identity column
    REAL    REAL / DOUBLE PRECISION (times are seconds); TEXT on both; BLOB / BYTEA
    PACKED  a packed text (gm.store.packing), always bytes: BYTEA; TEXT on SQLite, as step 1
            declared it (changing a column's type there means a table rebuild)
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (BigInteger, CheckConstraint, Column, Double, ForeignKey, Identity, Index, Integer,
                        LargeBinary, MetaData, Table, Text, text)
from sqlalchemy.dialects import sqlite

INT = BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL = Double[float]().with_variant(sqlite.REAL(), "sqlite")
TEXT = Text()
BLOB = LargeBinary()
PACKED = LargeBinary().with_variant(Text(), "sqlite")
ROWID = BigInteger().with_variant(Integer(), "sqlite")


def where(condition: str) -> dict[str, Any]:
    """A partial index's condition, the same on both back ends."""
    return {"sqlite_where": text(condition), "postgresql_where": text(condition)}


def added(step: int) -> dict[str, int]:
    """A column's ``info``: the schema step that added it to its table (gm.store.pgsteps makes a
    table as it was when made, without the columns later steps added)."""
    return {"added": step}


metadata = MetaData()

# games: one row per game: its rule module (kind), seed, options (JSON), status (open | active | finished |
# paused), token salt.
games = Table(
    "games", metadata,
    Column("id", TEXT, primary_key=True),
    Column("kind", TEXT, nullable=False),
    Column("seed", INT, nullable=False),
    Column("options", TEXT, nullable=False),
    Column("status", TEXT, nullable=False),
    Column("created", REAL, nullable=False),
    Column("updated", REAL, nullable=False),
    Column("token_salt", TEXT, nullable=False, server_default=text("''"), info=added(9)),
)

# players: a game's seats: name, address, password hash, active, format and time zone, token generation,
# display name, calendar (SET CALENDAR), language (SET LANGUAGE).
players = Table(
    "players", metadata,
    Column("game_id", TEXT, ForeignKey("games.id"), primary_key=True),
    Column("seat", INT, nullable=False),
    Column("name", TEXT, primary_key=True),
    Column("email", TEXT, nullable=False),
    Column("pw_hash", TEXT, nullable=False),
    Column("active", INT, nullable=False, server_default=text("1")),
    Column("format", TEXT, info=added(4)),
    Column("timezone", TEXT, info=added(4)),
    Column("generation", INT, nullable=False, server_default=text("0"), info=added(5)),
    Column("display_name", TEXT, nullable=False, server_default=text("''"), info=added(18)),
    Column("calendar", TEXT, info=added(30)),
    Column("language", TEXT, info=added(34)),
)

# states: every state of a game: seq 0 = the set-up, then one per change; the rule module's versioned JSON,
# packed.
states = Table(
    "states", metadata,
    Column("game_id", TEXT, ForeignKey("games.id"), primary_key=True),
    Column("seq", INT, primary_key=True),
    Column("turn", INT, nullable=False),
    Column("state", PACKED, nullable=False),
    Column("created", REAL, nullable=False),
    Column("state_packing", TEXT, nullable=False, server_default=text("'utf8'"), info=added(21)),
    CheckConstraint("state_packing IN ('utf8', 'zlib')"),
)

# messages: inbound mail: identity (source_key, e.g. imap:UIDVALIDITY:UID), raw bytes, outcome, the auth
# result of a mail set aside.
messages = Table(
    "messages", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("source_key", TEXT, nullable=False, unique=True),
    Column("message_id", TEXT),
    Column("sender", TEXT),
    Column("subject", TEXT),
    Column("raw", BLOB, nullable=False),
    Column("received", REAL, nullable=False),
    Column("game_id", TEXT),
    Column("outcome", TEXT, nullable=False),
    Column("detail", TEXT),
    Column("auth", TEXT, info=added(12)),
    Index("messages_mid", "message_id"),
)

# orders: every order, close, deadline or timer step: the 'now' the rules saw (replay uses it) and the state
# seq it produced.
orders = Table(
    "orders", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("game_id", TEXT, ForeignKey("games.id"), nullable=False),
    Column("action", TEXT, nullable=False),
    Column("player", TEXT),
    Column("turn", INT, nullable=False),
    Column("text", TEXT, nullable=False),
    Column("canonical", TEXT),
    Column("accepted", INT, nullable=False),
    Column("error", TEXT),
    Column("message_row", INT, ForeignKey("messages.id")),
    Column("origin", TEXT, nullable=False),
    Column("at", REAL, nullable=False),
    Column("seq", INT),
    Index("orders_game", "game_id", "id"),
    Index("orders_seq", "game_id", "seq"),
)

# outbox: outgoing mail, queued | held | sent | bounced | failed; Message-ID fixed at queue time; trimmed,
# secret, claimed_by.
outbox = Table(
    "outbox", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("message_id", TEXT, nullable=False, unique=True),
    Column("game_id", TEXT),
    Column("turn", INT),
    Column("kind", TEXT, nullable=False),
    Column("recipient", TEXT, nullable=False),
    Column("subject", TEXT, nullable=False),
    Column("raw", BLOB, nullable=False),
    Column("status", TEXT, nullable=False),
    Column("attempts", INT, nullable=False, server_default=text("0")),
    Column("next_attempt", REAL, nullable=False),
    Column("last_error", TEXT),
    Column("created", REAL, nullable=False),
    Column("sent", REAL),
    Column("trimmed", INT, nullable=False, server_default=text("0"), info=added(7)),
    Column("secret", INT, nullable=False, server_default=text("0"), info=added(8)),
    Column("claimed_by", TEXT, info=added(23)),
    Index("outbox_kind", "kind", "created"),
    Index("outbox_queue", "status", "next_attempt"),
    Index("outbox_recipient", "recipient", "created"),
    Index("outbox_untrimmed", "sent", **where("trimmed = 0 AND status = 'sent'")),
)

# reports: the archived words of each report, reply, notice and press (player NULL: the GM's copy), packed;
# audience, digest.
reports = Table(
    "reports", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("game_id", TEXT, nullable=False),
    Column("turn", INT, nullable=False),
    Column("seq", INT, nullable=False),
    Column("player", TEXT),
    Column("kind", TEXT, nullable=False),
    Column("body", PACKED, nullable=False),
    Column("outbox_id", INT, ForeignKey("outbox.id")),
    Column("created", REAL, nullable=False),
    Column("audience", TEXT, info=added(11)),
    Column("gm_version", TEXT, info=added(19)),
    Column("digest", TEXT, info=added(19)),
    Column("body_packing", TEXT, nullable=False, server_default=text("'utf8'"), info=added(22)),
    CheckConstraint("body_packing IN ('utf8', 'zlib')"),
    Index("reports_game", "game_id", "turn"),
    Index("reports_outbox", "outbox_id"),
)

# history: what happened to a game, by whom.
history = Table(
    "history", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("game_id", TEXT, nullable=False),
    Column("turn", INT, nullable=False),
    Column("actor", TEXT, nullable=False),
    Column("action", TEXT, nullable=False),
    Column("detail", TEXT),
    Column("at", REAL, nullable=False),
    Index("history_game", "game_id", "id"),
)

# game_settings: a game's settings, key = value.
game_settings = Table(
    "game_settings", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("key", TEXT, primary_key=True),
    Column("value", TEXT, nullable=False),
)

# deadlines: each game's current turn deadline: due (NULL: none), reminded, late, grace_done, paused_at.
deadlines = Table(
    "deadlines", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("start_seq", INT, nullable=False),
    Column("turn", INT, nullable=False),
    Column("due", REAL),
    Column("reminded", INT, nullable=False, server_default=text("0")),
    Column("late", INT, nullable=False, server_default=text("0")),
    Column("grace_done", INT, nullable=False, server_default=text("0")),
    Column("paused_at", REAL),
    Column("set_by", TEXT, nullable=False, server_default=text("'option'")),
)

# absences: a player's announced absence from start to end.
absences = Table(
    "absences", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("game_id", TEXT, nullable=False),
    Column("player", TEXT, nullable=False),
    Column("start", REAL, nullable=False),
    Column("end", REAL, nullable=False),
    Column("created", REAL, nullable=False),
    Index("absences_game", "game_id"),
)

# state_overrides: a state the GM made, not the rules: rollback | edit.
state_overrides = Table(
    "state_overrides", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("seq", INT, primary_key=True),
    Column("action", TEXT, nullable=False),
    Column("source_seq", INT),
    Column("detail", TEXT),
)

# results: a game ended by the GM or a forfeit: reason, winners (JSON list, NULL: as the rules say).
results = Table(
    "results", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("reason", TEXT, nullable=False),
    Column("winners", TEXT),
    Column("at", REAL, nullable=False),
)

# timers: one row per game with something ahead of it: the earliest moment its deadline steps or rules timer
# need the clock.
timers = Table(
    "timers", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("due", REAL, nullable=False),
    Index("timers_due", "due"),
)

# open_games: a games row with status 'open': seats to fill, no state yet.
open_games = Table(
    "open_games", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("seats", INT, nullable=False),
    Column("min_seats", INT, nullable=False),
    Column("created_by", TEXT, nullable=False),
)

# observers: who watches a game (email lower-cased); approved = 0 waits for the GM.
observers = Table(
    "observers", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("email", TEXT, primary_key=True),
    Column("approved", INT, nullable=False),
    Column("since", REAL, nullable=False),
)

# address_codes: every code a seat's credentials wait on (sha256 of it): purpose address | revert | reset;
# ended says why it stopped.
address_codes = Table(
    "address_codes", metadata,
    Column("code_hash", TEXT, primary_key=True),
    Column("game_id", TEXT, nullable=False),
    Column("player", TEXT, nullable=False),
    Column("new_email", TEXT, nullable=False),
    Column("expires", REAL, nullable=False),
    Column("used", INT, nullable=False, server_default=text("0")),
    Column("purpose", TEXT, nullable=False, server_default=text("'address'"), info=added(9)),
    Column("created", REAL, nullable=False, server_default=text("0"), info=added(9)),
    Column("ended", TEXT, info=added(9)),
    Index("address_codes_seat", "game_id", "player"),
)

# delivery_events: delivery events per address: a refusal at send time (smtp) or a bounce mail; settled once
# the address's state took it in.
delivery_events = Table(
    "delivery_events", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("address", TEXT, nullable=False),
    Column("outbox_id", INT, ForeignKey("outbox.id")),
    Column("at", REAL, nullable=False),
    Column("permanent", INT, nullable=False),
    Column("source", TEXT, nullable=False),
    Column("message_row", INT, ForeignKey("messages.id")),
    Column("words", TEXT, nullable=False),
    Column("settled", INT, nullable=False, server_default=text("0")),
    Index("delivery_events_address", "address", "at"),
    Index("delivery_events_unsettled", "id", **where("settled = 0")),
)

# addresses: each address's delivery state: ok | soft-failing | bouncing, since when, the last probe.
addresses = Table(
    "addresses", metadata,
    Column("address", TEXT, primary_key=True),
    Column("state", TEXT, nullable=False),
    Column("since", REAL, nullable=False),
    Column("reason", TEXT),
    Column("last_probe", REAL),
    Index("addresses_state", "state"),
)

# credential_failures: each wrong password (player '': the sender holds no seat of the game).
credential_failures = Table(
    "credential_failures", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("game_id", TEXT, nullable=False),
    Column("player", TEXT, nullable=False),
    Column("sender", TEXT, nullable=False),
    Column("at", REAL, nullable=False),
    Index("credential_failures_seat", "game_id", "player", "at"),
    Index("credential_failures_sender", "sender", "at"),
)

# credential_locks: a seat (sender '') or a sender (game and player '') refused passwords until ``until``.
credential_locks = Table(
    "credential_locks", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("game_id", TEXT, nullable=False),
    Column("player", TEXT, nullable=False),
    Column("sender", TEXT, nullable=False),
    Column("since", REAL, nullable=False),
    Column("until", REAL, nullable=False),
    Index("credential_locks_seat", "game_id", "player", "until"),
    Index("credential_locks_sender", "sender", "until"),
)

# pending_requests: OBSERVE, JOIN and CREATE waiting for the address they name to answer its code (double
# opt-in).
pending_requests = Table(
    "pending_requests", metadata,
    Column("code_hash", TEXT, primary_key=True),
    Column("address", TEXT, nullable=False),
    Column("mailbox", TEXT, nullable=False),
    Column("actions", TEXT, nullable=False),
    Column("created", REAL, nullable=False),
    Column("expires", REAL, nullable=False),
    Column("confirmed", REAL),
    Index("pending_requests_created", "created"),
    Index("pending_requests_mailbox", "mailbox", "created"),
)

# bounce_holds: each time bouncing=wait held a player's deadline, once per turn.
bounce_holds = Table(
    "bounce_holds", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("player", TEXT, primary_key=True),
    Column("start_seq", INT, primary_key=True),
    Column("seconds", REAL, nullable=False),
    Column("at", REAL, nullable=False),
)

# holds: mail held because the server refuses gm's sender or a domain refuses gm; one probe at next_probe.
holds = Table(
    "holds", metadata,
    Column("scope", TEXT, primary_key=True),
    Column("since", REAL, nullable=False),
    Column("reason", TEXT, nullable=False),
    Column("words", TEXT, nullable=False),
    Column("refusal", TEXT, nullable=False),
    Column("probes", INT, nullable=False, server_default=text("0")),
    Column("next_probe", REAL, nullable=False),
    Column("told", INT, nullable=False, server_default=text("0")),
)

# daemons: one heartbeat row per running daemon: last_seen, SMTP down since, inbox backlog, whose work
# it took over.
daemons = Table(
    "daemons", metadata,
    Column("daemon_id", TEXT, primary_key=True),
    Column("host", TEXT, nullable=False),
    Column("pid", INT, nullable=False),
    Column("started", REAL, nullable=False),
    Column("last_seen", REAL, nullable=False),
    Column("sending_down_since", REAL),
    Column("inbox_handled", INT, info=added(20)),
    Column("inbox_left", INT, info=added(20)),
    Column("backlog_since", REAL, info=added(20)),
    Column("took_over_from", TEXT, info=added(23)),
    Column("took_over_at", REAL, info=added(23)),
)

# outages: each stretch of time gm could not send or was not running (finish NULL while it lasts).
outages = Table(
    "outages", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("kind", TEXT, nullable=False),
    Column("start", REAL, nullable=False),
    Column("finish", REAL),
    Column("applied", INT, nullable=False, server_default=text("0")),
)

# draw_proposals: the draw proposals standing in each game, one per player at most.
draw_proposals = Table(
    "draw_proposals", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("player", TEXT, primary_key=True),
    Column("turn", INT, nullable=False),
    Column("made", REAL, nullable=False),
)

# conditional_lines: the IF ... THEN lines standing in each game (RULINGS G8), one row a line.
conditional_lines = Table(
    "conditional_lines", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("game_id", TEXT, nullable=False),
    Column("player", TEXT, nullable=False),
    Column("seq", INT, nullable=False),
    Column("steps", TEXT, nullable=False),
    Column("written", TEXT, nullable=False),
    Column("made", REAL, nullable=False),
)

# takebacks: the takeback asked for in each game (RULINGS G9): the mover's ask and the accepts.
takebacks = Table(
    "takebacks", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("player", TEXT, primary_key=True),
    Column("seq", INT, nullable=False),
    Column("answer", TEXT, nullable=False),
    Column("made", REAL, nullable=False),
)

# mail_threads: the Message-ID of each game's first mail to each reader (lower-cased), the root of the
# reader's thread of that game (gm.service.outgoing.threads).
mail_threads = Table(
    "mail_threads", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("address", TEXT, primary_key=True),
    Column("root", TEXT, nullable=False),
    Column("made", REAL, nullable=False),
)

# away_notices: the out-of-office replies seen from a seat's address while its game waited for it
# (gm.service.intake.away): when the last came, its subject, when the address was last told.
away_notices = Table(
    "away_notices", metadata,
    Column("address_key", TEXT, primary_key=True),
    Column("game_id", TEXT, primary_key=True),
    Column("player", TEXT, primary_key=True),
    Column("last_seen", REAL, nullable=False),
    Column("subject", TEXT, nullable=False),
    Column("last_told", REAL),
)

# address_settings: SET ... ALL: the format, time zone, calendar and language setting an address gives every seat it
# holds and takes later.
address_settings = Table(
    "address_settings", metadata,
    Column("address", TEXT, primary_key=True),
    Column("format", TEXT),
    Column("timezone", TEXT),
    Column("updated", REAL, nullable=False),
    Column("calendar", TEXT, info=added(30)),
    Column("language", TEXT, info=added(34)),
)

# calendar_events: the deadline event each reader was last sent per seat and turn (SET CALENDAR).
calendar_events = Table(
    "calendar_events", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("player", TEXT, primary_key=True),
    Column("turn", INT, primary_key=True),
    Column("sequence", INT, nullable=False),
    Column("due", REAL, nullable=False),
    Column("cancelled", INT, nullable=False, server_default=text("0")),
    Column("updated", REAL, nullable=False),
)

# seat_paces: how often a seat is mailed (SET MAIL), a row only for a seat that is not mailed each report.
seat_paces = Table(
    "seat_paces", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("player", TEXT, primary_key=True),
    Column("mail_pace", TEXT, nullable=False),
    Column("mail_at", INT),
)

# address_paces: SET MAIL ... ALL: the pace an address gives every seat it holds and takes later.
address_paces = Table(
    "address_paces", metadata,
    Column("address", TEXT, primary_key=True),
    Column("mail_pace", TEXT, nullable=False),
    Column("mail_at", INT),
)

# held_letters: reports SET MAIL MYTURN or DAILY keeps back from a reader (gm.service.outgoing.pace): the
# events of each, for the next mail of the game to that reader or the address's digest.
held_letters = Table(
    "held_letters", metadata,
    Column("id", ROWID, Identity(), primary_key=True),
    Column("address", TEXT, nullable=False),
    Column("game_id", TEXT, nullable=False),
    Column("player", TEXT, nullable=False),
    Column("turn", INT, nullable=False),
    Column("events", TEXT, nullable=False),
    Column("held", REAL, nullable=False),
    Index("held_letters_reader", "game_id", "player"),
    Index("held_letters_address", "address"),
)

# digests: the one daily digest an address has coming (SET MAIL DAILY), by when it is due.
digests = Table(
    "digests", metadata,
    Column("address", TEXT, primary_key=True),
    Column("due", REAL, nullable=False),
    Index("digests_due", "due"),
)

# store_secrets: the store's own random secrets by name ('mailbox': the key of the mailbox hash that caps
# and locks count by, gm.store.mailboxhash).
store_secrets = Table(
    "store_secrets", metadata,
    Column("name", TEXT, primary_key=True),
    Column("secret", TEXT, nullable=False),
    Column("made", REAL, nullable=False),
)

# public_players: a seat name and address pair (or an address for all its seats) in rated games or
# tournaments, by an opaque id, with its unique public name.
public_players = Table(
    "public_players", metadata,
    Column("player_id", TEXT, primary_key=True),
    Column("address", TEXT, nullable=False),
    Column("seat_name", TEXT, nullable=False),
    Column("name", TEXT, nullable=False),
    Column("name_key", TEXT, nullable=False, unique=True),
    Column("chosen", INT, nullable=False),
    Column("updated", REAL, nullable=False),
    Index("public_players_seat", "address", "seat_name", unique=True),
)

# rated_games: each rated game that ended, and whether it was rated (RULINGS G11).
rated_games = Table(
    "rated_games", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("kind", TEXT, nullable=False),
    Column("ended", REAL, nullable=False),
    Column("rated", INT, nullable=False),
    Column("reason", TEXT, nullable=False),
)

# rated_results: each player's rank in a rated game and rating after it.
rated_results = Table(
    "rated_results", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("player_id", TEXT, primary_key=True),
    Column("kind", TEXT, nullable=False),
    Column("seat", TEXT, nullable=False),
    Column("rank", INT, nullable=False),
    Column("ended", REAL, nullable=False),
    Column("mu", REAL, nullable=False),
    Column("sigma", REAL, nullable=False),
)

# ratings: a player's current rating per game kind (openskill's Plackett-Luce mu and sigma).
ratings = Table(
    "ratings", metadata,
    Column("kind", TEXT, primary_key=True),
    Column("player_id", TEXT, primary_key=True),
    Column("mu", REAL, nullable=False),
    Column("sigma", REAL, nullable=False),
    Column("games", INT, nullable=False),
    Column("last_game", TEXT, nullable=False),
    Column("last_played", REAL, nullable=False),
)

# tournaments: a round robin or Swiss of one game kind, its games' options, where it stands.
tournaments = Table(
    "tournaments", metadata,
    Column("id", TEXT, primary_key=True),
    Column("kind", TEXT, nullable=False),
    Column("format", TEXT, nullable=False),
    Column("rounds", INT, nullable=False),
    Column("table_size", INT, nullable=False),
    Column("twice", INT, nullable=False),
    Column("options", TEXT, nullable=False),
    Column("rated", INT, nullable=False),
    Column("approval", INT, nullable=False),
    Column("cap", INT, nullable=False),
    Column("status", TEXT, nullable=False),
    Column("round", INT, nullable=False),
    Column("created", REAL, nullable=False),
    Column("updated", REAL, nullable=False),
)

# tournament_entries: who entered a tournament (pending approval, entered, withdrawn).
tournament_entries = Table(
    "tournament_entries", metadata,
    Column("tournament_id", TEXT, primary_key=True),
    Column("player_id", TEXT, primary_key=True),
    Column("seat_name", TEXT, nullable=False),
    Column("status", TEXT, nullable=False),
    Column("entered", REAL, nullable=False),
    Column("withdrawn_round", INT),
)

# tournament_games: each round's tables, a row per player (board 0 and no game: a bye).
tournament_games = Table(
    "tournament_games", metadata,
    Column("tournament_id", TEXT, primary_key=True),
    Column("round", INT, primary_key=True),
    Column("board", INT, primary_key=True),
    Column("player_id", TEXT, primary_key=True),
    Column("seat", INT, nullable=False),
    Column("game_id", TEXT),
)

# rematch_offers: REMATCH after a two-player game, and the game it started once both asked.
rematch_offers = Table(
    "rematch_offers", metadata,
    Column("game_id", TEXT, primary_key=True),
    Column("offered_by", TEXT, nullable=False),
    Column("offered", REAL, nullable=False),
    Column("new_game_id", TEXT),
)
