"""gm's tables as SQLAlchemy Core ``Table`` objects, with real types (spike of issue 33).

Only the tables on the path of one order mail are declared here: the spike
measured whether statements built from them (compiled once, from
SQLAlchemy's compiled cache) cost the SQLite store more than 5% per mail
against sqlite3 directly.  The schema itself is still made by the numbered
steps of gm.store.schema; these declarations must match what they make.
"""

from __future__ import annotations

from sqlalchemy import (BigInteger, Column, Float, LargeBinary, MetaData, String, Table, Text, bindparam,
                        func, select)

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", Text, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("token_salt", Text, nullable=False),
)

players = Table(
    "players", metadata,
    Column("game_id", Text, primary_key=True),
    Column("seat", BigInteger, nullable=False),
    Column("name", Text, primary_key=True),
    Column("email", Text, nullable=False),
    Column("pw_hash", Text, nullable=False),
    Column("active", BigInteger, nullable=False),
    Column("format", Text),
    Column("timezone", Text),
    Column("generation", BigInteger, nullable=False),
    Column("display_name", Text, nullable=False),
)

addresses = Table(
    "addresses", metadata,
    Column("address", Text, primary_key=True),
    Column("state", Text, nullable=False),
    Column("since", Float, nullable=False),
    Column("reason", Text),
    Column("last_probe", Float),
)

messages = Table(
    "messages", metadata,
    Column("id", BigInteger, primary_key=True),
    Column("source_key", Text, nullable=False, unique=True),
    Column("message_id", Text),
    Column("sender", Text),
    Column("subject", Text),
    Column("raw", LargeBinary, nullable=False),
    Column("received", Float, nullable=False),
    Column("game_id", Text),
    Column("outcome", Text, nullable=False),
    Column("detail", Text),
    Column("auth", String),
)

game_settings = Table(
    "game_settings", metadata,
    Column("game_id", Text, primary_key=True),
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)

# The hottest statements of one order mail (benchmarks/scale.py's count), built once.
GAME_BY_ID = select(games).where(games.c.id == bindparam("game_id"))
SEATS_OF_ADDRESS = (select(players)
                    .where(players.c.game_id == bindparam("game_id"),
                           func.lower(players.c.email) == func.lower(bindparam("email")))
                    .order_by(players.c.seat))
ADDRESS = select(addresses).where(addresses.c.address == bindparam("address"))
MESSAGE_BY_SOURCE = select(messages).where(messages.c.source_key == bindparam("source_key"))
SETTINGS_OF_GAME = select(game_settings.c.key, game_settings.c.value).where(
    game_settings.c.game_id == bindparam("game_id"))
