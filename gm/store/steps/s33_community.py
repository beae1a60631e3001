"""Step 33: ratings, tournaments and rematches (RULINGS G11).

public_players gives a seat name and address pair taking part in rated games or tournaments (or
an address, for all its seats, once it links them) an opaque id and a unique public name (pages
show the name, never the address).  rated_games says, per rated
game that ended, whether it was rated (G11: not when a player never moved); rated_results keeps
each player's rank and rating after it; ratings the current rating per kind.  tournaments,
tournament_entries and tournament_games hold the tournaments, who entered, and each round's
tables (a bye is a table without a game).  rematch_offers holds REMATCH offers after a game.
"""

from __future__ import annotations

from gm.store.changes import NewIndex, NewTable, Step

SQL = """
CREATE TABLE public_players (
    player_id TEXT NOT NULL PRIMARY KEY, -- 16 random hex digits: what ratings and entries refer to
    address TEXT NOT NULL,               -- the address, in lower case, as its seats have it
    seat_name TEXT NOT NULL,             -- the seat name it plays under; '' for all its seats (SET NAME ... ALL)
    name TEXT NOT NULL,                  -- the public name pages show
    name_key TEXT NOT NULL UNIQUE,       -- the name casefolded: no two alike
    chosen INTEGER NOT NULL,             -- 1: chosen by SET NAME ... ALL; 0: given by gm
    updated REAL NOT NULL
);
CREATE UNIQUE INDEX public_players_seat ON public_players (address, seat_name);
CREATE TABLE rated_games (
    game_id TEXT NOT NULL PRIMARY KEY,   -- a game with rated=true that ended
    kind TEXT NOT NULL,
    ended REAL NOT NULL,
    rated INTEGER NOT NULL,              -- 1: its ranking changed the ratings; 0: not rated
    reason TEXT NOT NULL                 -- why not rated ('' when rated)
);
CREATE TABLE rated_results (
    game_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    seat TEXT NOT NULL,                  -- the seat's name in that game
    rank INTEGER NOT NULL,               -- 1 = first; tied players share a rank (G11)
    ended REAL NOT NULL,
    mu REAL NOT NULL,                    -- the player's rating after the game
    sigma REAL NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE TABLE ratings (
    kind TEXT NOT NULL,
    player_id TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,              -- rated games played
    last_game TEXT NOT NULL,
    last_played REAL NOT NULL,
    PRIMARY KEY (kind, player_id)
);
CREATE TABLE tournaments (
    id TEXT NOT NULL PRIMARY KEY,
    kind TEXT NOT NULL,
    format TEXT NOT NULL,                -- round-robin | swiss
    rounds INTEGER NOT NULL,             -- rounds to play (round robin: set when it starts)
    table_size INTEGER NOT NULL,         -- players per game
    twice INTEGER NOT NULL,              -- round robin of two: every pairing twice, first move swapped
    options TEXT NOT NULL,               -- JSON of the games' options
    rated INTEGER NOT NULL,              -- its games are rated
    approval INTEGER NOT NULL,           -- JOIN TOURNAMENT waits for the GM's approval
    cap INTEGER NOT NULL,                -- the most entries
    status TEXT NOT NULL,                -- open | running | finished
    round INTEGER NOT NULL,              -- the round in play; 0 before the start
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE tournament_entries (
    tournament_id TEXT NOT NULL,
    player_id TEXT NOT NULL,             -- public_players.player_id
    seat_name TEXT NOT NULL,             -- the seat name its games give it
    status TEXT NOT NULL,                -- pending (awaiting approval) | entered | withdrawn
    entered REAL NOT NULL,
    withdrawn_round INTEGER,             -- the round in which it withdrew
    PRIMARY KEY (tournament_id, player_id)
);
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,              -- the table's number in its round, from 1; 0 for a bye
    player_id TEXT NOT NULL,             -- one row per player at the table
    seat INTEGER NOT NULL,               -- seat order at the table (0 moves first)
    game_id TEXT,                        -- NULL for a bye
    PRIMARY KEY (tournament_id, round, board, player_id)
);
CREATE TABLE rematch_offers (
    game_id TEXT NOT NULL PRIMARY KEY,   -- the two-player game that ended
    offered_by TEXT NOT NULL,            -- the seat that sent REMATCH first
    offered REAL NOT NULL,
    new_game_id TEXT                     -- the game it started once both asked
);
"""

TABLES = ("public_players", "rated_games", "rated_results", "ratings", "tournaments", "tournament_entries",
          "tournament_games", "rematch_offers")

STEP = Step(33, "ratings, tournaments and rematches", SQL,
            postgresql=(*(NewTable(name) for name in TABLES), NewIndex("public_players_seat")))
