"""What judging a mail reads of its game, in one statement on PostgreSQL (Store.read_game).

The game's row, newest state, players, timer, deadline, settings, approved
observers, conditional lines, thread roots, the seats' paces, the credential
locks, the players' delivery states and the public press: one round trip
each on PostgreSQL, so one SELECT here, whose rows the store remembers
(gm.store.reads) under the keys the methods reading them use.
Each set is a subquery, FULL JOINed ON false with the others, led by a marker
column (``"#players"``...) that tells the sets apart and orders them.  The same
statement draws the ids of the outbox rows judging will queue, so those rows
wait for the commit (gm.store.deferred).  It is PostgreSQL's own SQL with
%(name)s parameters: gm.store.postgres splices it into a larger statement.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gm.store import migrations
from gm.store.deferred import ROWS_AT_ONCE
from gm.store.pgrows import Row

# name -> (the set's SELECT after its marker column, the marker's order).  Parameters by name, psycopg's
# %(name)s, named apart from those of a statement it is spliced into (insert_unless: a messages row's
# "sender" column): %(read_game)s, %(read_sender)s, %(read_most)s
SETS: dict[str, tuple[str, str]] = {
    "games": ("* FROM games WHERE id = %(read_game)s", "id"),
    "states": ("* FROM (SELECT * FROM states WHERE game_id = %(read_game)s ORDER BY seq DESC LIMIT 1) AS s", "seq"),
    "players": ("* FROM players WHERE game_id = %(read_game)s", "seat"),
    "timers": ("due FROM timers WHERE game_id = %(read_game)s", "due"),
    "deadlines": ("* FROM deadlines WHERE game_id = %(read_game)s", "game_id"),
    "game_settings": ("key, value FROM game_settings WHERE game_id = %(read_game)s", "key"),
    "observers": ("email FROM observers WHERE game_id = %(read_game)s AND approved = 1", "since, email"),
    "conditional_lines": ("* FROM conditional_lines WHERE game_id = %(read_game)s", "id"),
    "mail_threads": ("address, root FROM mail_threads WHERE game_id = %(read_game)s", "address"),
    "seat_paces": ("* FROM seat_paces WHERE game_id = %(read_game)s", "player"),
    # gm.store.credentials.locks_until's statement
    "locks": ("name, until FROM (SELECT p.name AS name, (SELECT max(c.until) FROM credential_locks c WHERE "
              "c.game_id = p.game_id AND lower(c.player) = lower(p.name) AND c.sender = '') AS until "
              "FROM players p WHERE p.game_id = %(read_game)s UNION ALL SELECT NULL AS name, (SELECT max(until) "
              "FROM credential_locks WHERE sender = %(read_sender)s AND player = '') AS until) AS l",
              "name NULLS LAST"),
    # the players' addresses as the database lower-cases them, each with its addresses row (or NULLs)
    "addresses": ("k.address AS \"#key\", a.* FROM (SELECT DISTINCT lower(email) AS address FROM players "
                  "WHERE game_id = %(read_game)s) AS k LEFT JOIN addresses a ON a.address = k.address", "k.address"),
    # the public press since the turn before the newest state's (Reports.public_press: a report on
    # the turn this mail opens shows the press from the turn before it, which is no earlier)
    "press": ("* FROM reports WHERE game_id = %(read_game)s AND kind = 'press' AND player IS NULL "
              "AND audience = 'all' AND turn >= (SELECT turn FROM states WHERE game_id = %(read_game)s "
              "ORDER BY seq DESC LIMIT 1) - 1", "id"),
    # outbox ids drawn ahead for the mail judging it queues (Store.queue_outbox): one a seat and an
    # observer, and one more (a reply to a stranger, the GM's copy), at most OUTBOX_IDS
    "outbox_ids": ("id FROM (SELECT nextval(pg_get_serial_sequence('outbox', 'id')) AS id FROM generate_series(1, "
                   "LEAST((SELECT count(*) FROM players WHERE game_id = %(read_game)s AND active = 1) + "
                   "(SELECT count(*) FROM observers WHERE game_id = %(read_game)s AND approved = 1) + 1, "
                   "%(read_most)s))) AS ids", "id"),
}

# Outbox ids drawn at most: within one multi-row INSERT (gm.store.deferred.ROWS_AT_ONCE), so that
# the rows go in the statement of the reports that name them.
OUTBOX_IDS = ROWS_AT_ONCE


# The sets of tables a later schema step made, with that step: a test that rewinds the steps runs
# today's code as an older gm, whose store has no such table (the set is then read as empty).
SINCE_STEP = {"mail_threads": 28, "seat_paces": 29}


def statement(game_id: str, sender_key: str) -> tuple[str, dict[str, Any]]:
    """The one SELECT of every set, and its parameters (by name); ``sender_key``: the sender's
    mailbox hash (gm.store.mailboxhash), as its credential locks are kept."""
    return select_for(migrations.latest()), {"read_game": game_id, "read_sender": sender_key,
                                             "read_most": OUTBOX_IDS}


@lru_cache(maxsize=4)
def select_for(step: int) -> str:
    """The SELECT of every set whose table a store at schema ``step`` has."""
    return "SELECT * FROM " + " FULL JOIN ".join(  # every set, each a subquery
        (part if i == 0 else f"{part} ON false") for i, part in enumerate(
            f"(SELECT row_number() OVER (ORDER BY {order}) AS \"#{name}\", {select}) AS \"{name}\""
            for name, (select, order) in SETS.items() if SINCE_STEP.get(name, 0) <= step))


def split(names: list[str], rows: list[Any], sets: tuple[str, ...] = tuple(SETS)) -> dict[str, list[Row]]:
    """The result's rows, set by set (in each set's order), as Rows of the set's own columns
    (``sets``: the names of the sets, as their markers name them)."""
    starts = [(i, name[1:]) for i, name in enumerate(names) if name.startswith("#") and name[1:] in sets]
    bounds = [(set_name, first + 1, starts[k + 1][0] if k + 1 < len(starts) else len(names))
              for k, (first, set_name) in enumerate(starts)]
    found: dict[str, list[tuple[int, Row]]] = {name: [] for name in sets}
    for name, begin, end in bounds:
        index = {column.lower(): i for i, column in enumerate(names[begin:end])}
        marker = begin - 1
        for row in rows:
            if row[marker] is not None:
                found[name].append((row[marker], Row(tuple(row[begin:end]), index)))
    return {name: [row for _, row in sorted(pairs, key=lambda pair: pair[0])] for name, pairs in found.items()}
