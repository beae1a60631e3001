"""Tournaments: a round robin or a Swiss of one game kind, its entries, and its standings.

A tournament is made open by the GM (``new``), takes entries (the GM's ``enter``, or JOIN
TOURNAMENT by mail: gm.service.people.tournamentmail), and is started by the GM; its rounds are
made in gm.service.people.tournamentrounds.  Each entry is a public player (store.community) under
the seat name its games give it; pages and replies show the public name, never an address.
Standings are computed from the games each round made (their G11 final ranking), the byes, and
the forfeits of a round robin's withdrawn players: nothing else is stored.
"""

from __future__ import annotations

import json
from typing import Any

from games import registry
from games.base import GameError
from gm.core import options as service_options
from games.text import Text, mark
from gm.core.model import ServiceError, Status
from gm.service.context import Context
from gm.service.people import lobby
from gm.service.table import games, ranking, ratings
from gm.service.table.tournamentscore import (MULTI_PLAYER_TIEBREAKS, TWO_PLAYER_TIEBREAKS, Standing, TableResult,
                                              standings)
from gm.store.tournaments import EntryRow, TableSeatRow, TournamentRow

FORMATS = ("round-robin", "swiss")
STARTED = mark("tournament {tournament} has started; it takes no more entries")
FORFEIT = mark("{result} (forfeit)")  # a table's result not played out
IN_WORDS = {"round-robin": mark("round-robin"), "swiss": mark("swiss"), "open": mark("open"),
            "running": mark("running"), "finished": mark("finished")}  # a format or a state, as mail says it
MAX_ID = 20  # characters of a tournament id: its games are <id>-r<round>-<board>
OPEN, RUNNING, FINISHED = "open", "running", "finished"
ENTERED, PENDING, WITHDRAWN = "entered", "pending", "withdrawn"
DEFAULT_CAP = 64


def lock_name(tournament_id: str) -> str:
    """What a write locks to change a tournament (never a game's id: it has a colon)."""
    return f"tournament:{tournament_id}"


def check_id(tournament_id: str) -> str:
    """A tournament id as stored (lower case); ServiceError when it is not one."""
    tid = tournament_id.strip()
    if not tid or len(tid) > MAX_ID:
        raise ServiceError(Text("a tournament id is 1 to {most} ASCII letters, digits and '-'", most=MAX_ID))
    return games.valid_new_game_id(tid)


def tournament(ctx: Context, tournament_id: str) -> TournamentRow:
    """The tournament's row; ServiceError when there is none."""
    row = ctx.store.tournaments.tournament(tournament_id.strip().lower())
    if row is None:
        raise ServiceError(Text("there is no tournament {name}", name=repr(tournament_id[:30])))
    return row


def table_size_for(kind: str, table_size: int | None) -> int:
    """Players a table: 2 for a two-player kind, else the size asked (within the kind's range)."""
    rules = registry.get(kind)
    if rules.max_players == 2:
        return 2
    if table_size is None:
        raise ServiceError(f"{rules.title} takes {rules.min_players} to {rules.max_players} players: "
                           "say how many a table (--table-size)")
    if not max(rules.min_players, 2) <= table_size <= rules.max_players:
        raise ServiceError(f"{rules.title} takes {rules.min_players} to {rules.max_players} players a table, "
                           f"not {table_size}")
    return table_size


def new(ctx: Context, tournament_id: str, kind: str, format_: str, rounds: int, table_size: int | None = None,
        twice: bool = False, rated: bool = False, approval: bool = False, cap: int = DEFAULT_CAP,
        options: dict[str, str] | None = None) -> str:
    """`gm tournament new`: an open tournament, checked whole before anything is stored."""
    tid = check_id(tournament_id)
    try:
        rules = registry.get(kind)
    except (KeyError, GameError, ValueError):
        raise ServiceError(f"there is no game kind {kind!r} (kinds: {', '.join(registry.available())})") from None
    if format_ not in FORMATS:
        raise ServiceError(f"a tournament's format is {' or '.join(FORMATS)}, not {format_!r}")
    size = table_size_for(rules.kind, table_size)
    if format_ == "swiss" and rounds < 1:
        raise ServiceError("a Swiss tournament plays at least one round (--rounds)")
    if twice and (format_ != "round-robin" or size != 2):
        raise ServiceError("--twice is for a round robin of two-player tables")
    if cap < 2:
        raise ServiceError("a tournament takes at least 2 entries (--cap)")
    options = dict(options or {})
    own = dict(options)
    service_options.split_options(own, rules.options)  # OptionError: refused now, as the kind's below
    rules.setup([f"seat{i}" for i in range(size)], own, 0)
    now = ctx.clock()
    with ctx.store.write(games=[lock_name(tid)]):
        if ctx.store.tournaments.tournament(tid) is not None:
            raise ServiceError(f"there is already a tournament {tid}")
        ctx.store.tournaments.add_tournament(TournamentRow(
            id=tid, kind=rules.kind, format=format_, rounds=rounds if format_ == "swiss" else 0, table_size=size,
            twice=int(twice), options=json.dumps(options, sort_keys=True), rated=int(rated),
            approval=int(approval), cap=cap, status=OPEN, round=0, created=now, updated=now))
    return f"tournament {tid} is open: {rules.title}, {format_}, tables of {size}"


# --- entries ----------------------------------------------------------------------------
def entry_problem(ctx: Context, row: TournamentRow, name: str, address: str) -> str | None:
    """Why ``address`` cannot enter ``row`` as ``name`` now, or None."""
    if row.status != OPEN:
        return Text(STARTED, tournament=row.id)
    why = lobby.check_name(name)
    if why:
        return why
    if not address or "@" not in address:
        return Text("an entry needs an address to mail its games to")
    entries = [e for e in ctx.store.tournaments.entries(row.id) if e.status != WITHDRAWN]
    if len(entries) >= row.cap:
        return Text("tournament {tournament} is full ({cap} entries)", tournament=row.id, cap=row.cap)
    if any(e.seat_name.casefold() == name.casefold() for e in entries):
        return Text("someone in tournament {tournament} is already called {name}; choose another name",
                    tournament=row.id, name=name)
    if any(address_of(ctx, e.player_id) == address.lower() for e in entries):
        return Text("this address has already entered tournament {tournament}; one entry per address",
                    tournament=row.id)
    return None


def address_of(ctx: Context, player_id: str) -> str:
    """The address a player's games are mailed to ('' if it is gone)."""
    player = ctx.store.community.player(player_id)
    return player.address if player is not None else ""


def public_name(ctx: Context, player_id: str) -> str:
    """The name pages and replies show of a player: its public name, never an address."""
    player = ctx.store.community.player(player_id)
    return player.name if player is not None else "(gone)"


def enter(ctx: Context, tournament_id: str, name: str, address: str, by_mail: bool = False) -> str:
    """An entry (the GM's, or a confirmed JOIN TOURNAMENT: pending where the tournament waits for
    the GM's approval); ServiceError with nothing changed when it cannot be."""
    with ctx.store.write(games=[lock_name(tournament_id.strip().lower())]):
        row = tournament(ctx, tournament_id)
        problem = entry_problem(ctx, row, name, address)
        if problem:
            raise ServiceError(problem)
        now = ctx.clock()
        ratings.lock(ctx.store)  # a new public name is unique across every writer
        player_id = ctx.store.community.player_id_for(address.lower(), name, now)
        status = PENDING if by_mail and row.approval else ENTERED
        ctx.store.tournaments.add_entry(row.id, player_id, name, status, now)
    if status == PENDING:
        return Text("{name} asked to enter tournament {tournament}; the game master approves entries first",
                    name=name, tournament=row.id)
    return Text("{name} entered tournament {tournament}", name=name, tournament=row.id)


def entry_named(ctx: Context, row: TournamentRow, name: str) -> EntryRow:
    """The entry of seat name ``name`` (any case); ServiceError when there is none."""
    found = [e for e in ctx.store.tournaments.entries(row.id) if e.seat_name.casefold() == name.casefold()]
    if not found:
        raise ServiceError(Text("nobody called {name} entered tournament {tournament}", name=repr(name[:30]),
                                tournament=row.id))
    return found[0]


def approve(ctx: Context, tournament_id: str, name: str) -> str:
    """`gm tournament approve ID NAME`: a pending entry is entered (the cap counts it already)."""
    with ctx.store.write(games=[lock_name(tournament_id.strip().lower())]):
        row = tournament(ctx, tournament_id)
        entry = entry_named(ctx, row, name)
        if entry.status != PENDING:
            raise ServiceError(f"{entry.seat_name} is {entry.status} in tournament {row.id}, not pending")
        if row.status != OPEN:
            raise ServiceError(Text(STARTED, tournament=row.id))
        ctx.store.tournaments.set_entry(row.id, entry.player_id, ENTERED)
    return f"{entry.seat_name} entered tournament {row.id}"


def withdraw(ctx: Context, tournament_id: str, name: str) -> str:
    """A player withdraws (the GM's `gm tournament withdraw`, or WITHDRAW TOURNAMENT confirmed): it is
    not paired again, and a round robin's later pairings of it are forfeits; a game it plays now
    goes on (it may RESIGN it)."""
    with ctx.store.write(games=[lock_name(tournament_id.strip().lower())]):
        row = tournament(ctx, tournament_id)
        entry = entry_named(ctx, row, name)
        if entry.status == WITHDRAWN:
            raise ServiceError(Text("{name} has already withdrawn from tournament {tournament}",
                                    name=entry.seat_name, tournament=row.id))
        if row.status == FINISHED:
            raise ServiceError(Text("tournament {tournament} is over", tournament=row.id))
        ctx.store.tournaments.set_entry(row.id, entry.player_id, WITHDRAWN, row.round)
    if row.status == RUNNING:
        return Text("{name} withdrew from tournament {tournament}; a game it plays now goes on (RESIGN ends it)",
                    name=entry.seat_name, tournament=row.id)
    return Text("{name} withdrew from tournament {tournament}", name=entry.seat_name, tournament=row.id)


def withdraw_by_gm(ctx: Context, tournament_id: str, name: str, who: str | None = None,
                   why: str | None = None) -> str:
    """`gm tournament withdraw ID NAME`: withdraw, and the player told (with the reason)."""
    with ctx.store.write(games=[lock_name(tournament_id.strip().lower())]):
        told = withdraw(ctx, tournament_id, name)
        row = tournament(ctx, tournament_id)
        entry = entry_named(ctx, row, name)
        address = address_of(ctx, entry.player_id)
        lines = [Text("The game master ({who}) withdrew you ({name}) from tournament {tournament}: you are not "
                      "paired again.", who=who or "gm", name=entry.seat_name, tournament=row.id),
                 *([Text("Why: {why}", why=why)] if why else [])]
        if address:
            ctx.outbox.queue(address, Text("Tournament {tournament}: withdrawn", tournament=row.id), ctx.outbox.render(
                "answer", lines=lines, game_id=None), kind="notice")
    return told


def roster(ctx: Context, row: TournamentRow) -> list[EntryRow]:
    """The players of a tournament: the entered ones (and, once it runs, those who withdrew after
    the start), in the order they entered."""
    return [e for e in ctx.store.tournaments.entries(row.id)
            if e.status == ENTERED or (e.status == WITHDRAWN and (e.withdrawn_round or 0) >= 1)]


def playing(ctx: Context, row: TournamentRow) -> list[EntryRow]:
    """The players still paired: entered and not withdrawn."""
    return [e for e in ctx.store.tournaments.entries(row.id) if e.status == ENTERED]


# --- standings ------------------------------------------------------------------------------
def tables_of(seats: list[TableSeatRow]) -> dict[tuple[int, int], list[TableSeatRow]]:
    """The rows grouped by (round, board), each in seat order."""
    tables: dict[tuple[int, int], list[TableSeatRow]] = {}
    for seat in seats:
        tables.setdefault((seat.round, seat.board), []).append(seat)
    return tables


def game_tiers(ctx: Context, game_id: str, seat_ids: dict[str, str]) -> tuple[tuple[str, ...], ...] | None:
    """A finished game's final ranking as tiers of player ids (G11); None while it runs (or when the
    GM deleted it)."""
    row = ctx.store.games.game(game_id)
    if row is None or row.status != Status.FINISHED:
        return None
    view = games.load(ctx.store, game_id)
    return tuple(tuple(seat_ids[name] for name in tier if name in seat_ids)
                 for tier in ranking.final_ranking(ctx.store, view))


def forfeit_tiers(table: list[TableSeatRow], withdrawn: set[str]) -> tuple[tuple[str, ...], ...] | None:
    """A table not played because a player withdrew: those still in win; nobody scores when all withdrew."""
    stayed = tuple(s.player_id for s in table if s.player_id not in withdrawn)
    gone = tuple(s.player_id for s in table if s.player_id in withdrawn)
    return (stayed, gone) if stayed and gone else None


Tiers = tuple[tuple[str, ...], ...]


def table_results(ctx: Context, row: TournamentRow) -> tuple[list[TableResult], dict[str, int],
                                                             dict[tuple[int, int], Tiers | None]]:
    """(every finished table's result, the byes a player had, every table's tiers by (round, board):
    None while it plays)."""
    entries = {e.player_id: e for e in ctx.store.tournaments.entries(row.id)}
    withdrawn = {p for p, e in entries.items() if e.status == WITHDRAWN}
    results: list[TableResult] = []
    byes: dict[str, int] = {}
    tiers_of: dict[tuple[int, int], Tiers | None] = {}
    for (round_, board), table in tables_of(ctx.store.tournaments.table_seats(row.id)).items():
        if board == 0:
            for seat in table:
                byes[seat.player_id] = byes.get(seat.player_id, 0) + 1
            continue
        game_id = table[0].game_id
        if game_id is None:
            tiers = forfeit_tiers(table, withdrawn)
        else:
            tiers = game_tiers(ctx, game_id, {entries[s.player_id].seat_name: s.player_id for s in table})
        tiers_of[round_, board] = tiers
        if tiers is not None:
            results.append(TableResult(round_, tuple(s.player_id for s in table), tiers))
    return results, byes, tiers_of


def current_standings(ctx: Context, row: TournamentRow) -> list[Standing]:
    """The standings now, from the tables finished so far."""
    results, byes, _ = table_results(ctx, row)
    return standings([e.player_id for e in roster(ctx, row)], results, byes, row.table_size == 2)


def tiebreak_names(row: TournamentRow) -> tuple[str, ...]:
    return TWO_PLAYER_TIEBREAKS if row.table_size == 2 else MULTI_PLAYER_TIEBREAKS


# --- what pages and replies show ----------------------------------------------------------
def every_tournament(ctx: Context) -> list[str]:
    """Every tournament's id, newest first."""
    return [row.id for row in ctx.store.tournaments.every_tournament()]


ORDINALS = {1: mark("{place}st"), 2: mark("{place}nd"), 3: mark("{place}rd"),
            0: mark("{place}th")}  # by the last digit (0: every other)
SHARED = mark("{place}=")  # a place two players share
PLACED = mark("{name} {place}")  # a player and their place at a table
LISTED = mark("{earlier}, {later}")  # a list of places


def ordinal_place(place: int, shared: bool) -> str:
    """``1st``, ``2nd=`` (shared) in the reader's language: German ``1.``, French ``1er``, ``2e``
    (the first place has a text of its own: French says 1er but 21e)."""
    if place == 1:
        said = Text("1st")
    else:
        digit = place % 10 if place % 100 not in (11, 12, 13) else 0
        said = Text(ORDINALS.get(digit, ORDINALS[0]), place=place)
    return Text(SHARED, place=said) if shared else said


def listed(items: list[str]) -> str:
    """``a, b, c`` with each item's Text kept for its translation."""
    joined = items[0]
    for item in items[1:]:
        joined = Text(LISTED, earlier=joined, later=item)
    return joined


def result_text(seated: list[str], tiers: tuple[tuple[str, ...], ...] | None, names: dict[str, str],
                forfeit: bool) -> str:
    """A table's result in words: '1-0', '½-½' for two, 'ada 1st, bob 2nd…' for more; 'playing'."""
    if tiers is None:
        return Text("not played") if forfeit else Text("playing")
    if len(seated) == 2:
        first = tiers[0]
        text = "½-½" if len(first) == 2 else ("1-0" if first == (seated[0],) else "0-1")
        return Text(FORFEIT, result=text) if forfeit else text
    places: list[str] = []
    place = 1
    for tier in tiers:
        places += [Text(PLACED, name=names[p], place=ordinal_place(place, len(tier) > 1)) for p in tier]
        place += len(tier)
    return Text(FORFEIT, result=listed(places)) if forfeit else listed(places)


def summary(ctx: Context, tournament_id: str) -> dict[str, Any]:
    """The tournament as pages and replies show it: standings with their tiebreaks, and every round's
    tables with their results and byes; public names only, never an address."""
    row = tournament(ctx, tournament_id)
    names = {e.player_id: public_name(ctx, e.player_id) for e in ctx.store.tournaments.entries(row.id)}
    withdrawn = {e.player_id for e in ctx.store.tournaments.entries(row.id) if e.status == WITHDRAWN}
    results, byes, tiers_of = table_results(ctx, row)
    lines = standings([e.player_id for e in roster(ctx, row)], results, byes, row.table_size == 2)
    rounds: dict[int, dict[str, Any]] = {}
    for (round_, board), table in tables_of(ctx.store.tournaments.table_seats(row.id)).items():
        played = rounds.setdefault(round_, {"round": round_, "tables": [], "byes": []})
        seated = [s.player_id for s in table]
        if board == 0:
            played["byes"] += [names[p] for p in seated]
            continue
        played["tables"].append({"board": board, "players": [names[p] for p in seated], "game_id": table[0].game_id,
                                 "result": result_text(seated, tiers_of[round_, board], names,
                                                       table[0].game_id is None)})
    return {"id": row.id, "kind": row.kind, "format": row.format, "rounds": row.rounds, "round": row.round,
            "status": row.status, "rated": bool(row.rated), "tiebreaks": list(tiebreak_names(row)),
            "standings": [{"place": s.place, "name": names[s.player], "points": s.points, "games": s.games,
                           "tiebreaks": [float(t) for t in s.tiebreaks], "withdrawn": s.player in withdrawn}
                          for s in lines],
            "rounds_played": [rounds[r] for r in sorted(rounds)]}
