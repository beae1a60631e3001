"""A tournament's rounds: the start, each round's games, the next round once a round has ended.

A round's tables come from gm.service.table.pairing (a round robin's whole schedule is fixed at the
start from the players in the order they entered; a Swiss round is paired from the standings
then).  Each table is a game ``<tid>-r<round>-<board>`` made as ``gm new`` makes one (seats named
by the entries' seat names in the table's seat order, ``rated=true`` for a rated tournament, a
welcome to each seat); a bye is a row of board 0 without a game.  The daemon's pass (``advance``)
pairs the next round in one transaction once every game of the round has ended; after the last,
the tournament is finished and every entrant is mailed the final standings.
"""

from __future__ import annotations

import json
import logging
import random

from games import registry
from games.text import Text
from gm.core import options as service_options
from gm.core import passwords
from gm.core.model import ServiceError, Status
from gm.core.rating import ordinal
from gm.service.context import Context
from gm.service.people import lobby, mailcommands, tournamentmail
from gm.service.people import tournaments as tour
from gm.service.table import deadlines
from gm.service.table.pairing import Entrant, PairingError, Round, round_robin, swiss_pairs, swiss_tables
from gm.service.table.tournamentscore import BYE_POINTS
from gm.store import StoreError
from gm.store.locks import retry_conflicts
from gm.store.tournaments import EntryRow, TournamentRow

log = logging.getLogger(__name__)


def game_id_of(tournament_id: str, round_: int, board: int) -> str:
    return f"{tournament_id}-r{round_}-{board}"


def schedule(ctx: Context, row: TournamentRow) -> list[Round]:
    """A round robin's every round, from its roster in the order they entered (fixed at the start)."""
    return round_robin([e.player_id for e in tour.roster(ctx, row)], twice=bool(row.twice))


def start(ctx: Context, tournament_id: str) -> str:
    """`gm tournament start ID`: no more entries; round 1 is paired and its games made and welcomed."""
    with ctx.store.write(games=[tour.lock_name(tournament_id.strip().lower())]):
        row = tour.tournament(ctx, tournament_id)
        if row.status != tour.OPEN:
            raise ServiceError(f"tournament {row.id} has started already")
        players = tour.playing(ctx, row)
        if len(players) < 2:
            raise ServiceError(f"tournament {row.id} has {len(players)} player(s) entered; it needs 2 to start")
        if row.format == "round-robin" and row.table_size > 2:
            raise ServiceError("a round robin seats two a table: this kind's tournament of tables of "
                               f"{row.table_size} is a Swiss (--format swiss)")
        if row.format == "swiss" and len(players) < row.table_size:
            raise ServiceError(f"tournament {row.id} has {len(players)} players, fewer than a table of "
                               f"{row.table_size}")
        rounds = len(schedule(ctx, row)) if row.format == "round-robin" else row.rounds
        ctx.store.tournaments.set_progress(row.id, tour.RUNNING, 0, rounds, ctx.clock())
        made = begin_round(ctx, tour.tournament(ctx, row.id))
    return f"tournament {row.id} started with {len(players)} players, {rounds} rounds; {made}"


def entrants(ctx: Context, row: TournamentRow) -> list[Entrant]:
    """The players still paired, as the Swiss pairing sees them (standings, seats, byes, meetings)."""
    points = {s.player: s.points for s in tour.current_standings(ctx, row)}
    firsts: dict[str, int] = {}
    seconds: dict[str, int] = {}
    byes: dict[str, int] = {}
    met: dict[str, set[str]] = {}
    for (_, board), table in tour.tables_of(ctx.store.tournaments.table_seats(row.id)).items():
        for seat in table:
            if board == 0:
                byes[seat.player_id] = byes.get(seat.player_id, 0) + 1
                continue
            counts = firsts if seat.seat == 0 else seconds
            counts[seat.player_id] = counts.get(seat.player_id, 0) + 1
            met.setdefault(seat.player_id, set()).update(s.player_id for s in table if s is not seat)
    return [Entrant(e.player_id, points.get(e.player_id, 0.0), rating_of(ctx, row.kind, e.player_id),
                    firsts.get(e.player_id, 0), seconds.get(e.player_id, 0), byes.get(e.player_id, 0),
                    frozenset(met.get(e.player_id, ()))) for e in tour.playing(ctx, row)]


def rating_of(ctx: Context, kind: str, player_id: str) -> float:
    rating = ctx.store.community.rating(kind, player_id)
    return 0.0 if rating is None else ordinal(rating.mu, rating.sigma)


def pairing(ctx: Context, row: TournamentRow, round_: int) -> Round:
    """The tables of round ``round_``: the round robin's scheduled one, or a Swiss pairing now."""
    if row.format == "round-robin":
        return schedule(ctx, row)[round_ - 1]
    if row.table_size == 2:
        return swiss_pairs(entrants(ctx, row))
    smallest = max(registry.get(row.kind).min_players, 2)
    return swiss_tables(entrants(ctx, row), row.table_size, smallest)


def begin_round(ctx: Context, row: TournamentRow) -> str:
    """The next round of a running tournament, paired, its games made and welcomed (in the
    caller's transaction); after the last round, the end.  What was done, in words."""
    round_ = row.round + 1
    if round_ > row.rounds:
        return finish(ctx, row)
    try:
        paired = pairing(ctx, row, round_)
    except PairingError as exc:  # a Swiss with no pairing left that repeats none: it ends here
        log.info("tournament %s ends after round %d: %s", row.id, row.round, exc)
        return finish(ctx, row)
    entries = {e.player_id: e for e in ctx.store.tournaments.entries(row.id)}
    playing = {e.player_id for e in tour.playing(ctx, row)}
    for board, table in enumerate(paired.tables, start=1):
        if all(p in playing for p in table):
            game_id = game_id_of(row.id, round_, board)
            make_game(ctx, row, game_id, [entries[p] for p in table])
        else:
            game_id = None  # a withdrawn player's pairing: a forfeit, no game
            for player_id in set(table) & playing:
                tell_no_game(ctx, row, round_, player_id, Text("your opponent withdrew: you win by forfeit"))
        for seat, player_id in enumerate(table):
            ctx.store.tournaments.add_table_seat(row.id, round_, board, player_id, seat, game_id)
    for player_id in paired.byes:
        ctx.store.tournaments.add_table_seat(row.id, round_, 0, player_id, 0, None)
        tell_no_game(ctx, row, round_, player_id, Text("you have a bye ({points} point)",
                                                       points=f"{BYE_POINTS:g}"))
    ctx.store.tournaments.set_progress(row.id, tour.RUNNING, round_, row.rounds, ctx.clock())
    return f"round {round_}: {len(paired.tables)} table(s), {len(paired.byes)} bye(s)"


def tell_no_game(ctx: Context, row: TournamentRow, round_: int, player_id: str, why: str) -> None:
    """A player without a game this round is told why (a bye, a forfeit), and how to follow the tournament."""
    address = tour.address_of(ctx, player_id)
    if address:
        lines = [Text("Tournament {tournament}, round {round}: {why}. No game for you this round; the next "
                      "round comes once this one's games have ended. STANDINGS {tournament} shows where it "
                      "stands.", tournament=row.id, round=round_, why=why)]
        ctx.outbox.queue(address, Text("Tournament {tournament}: round {round}", tournament=row.id, round=round_),
                         ctx.outbox.render(
            "answer", lines=lines, game_id=None), kind="notice")


def make_game(ctx: Context, row: TournamentRow, game_id: str, seated: list[EntryRow]) -> None:
    """One table's game, as `gm new` makes one: seats named by the entries, a welcome with its
    password to each; rated when the tournament is."""
    rules = registry.get(row.kind)
    options = json.loads(row.options)
    service = service_options.split_options(options, rules.options)
    if row.rated:
        service = service_options.check_settings({**service, "rated": "true"})
    names = [e.seat_name for e in seated]
    seed = random.SystemRandom().randrange(2**31)
    secrets = {name: passwords.generate() for name in names}
    with ctx.store.write(games=[game_id]):
        if ctx.store.games.game(game_id):
            raise ServiceError(f"there is already a game {game_id}")
        ctx.store.games.add_game(game_id, rules.kind, seed, json.dumps(options), ctx.clock())
        for seat, entry in enumerate(seated):
            ctx.store.seats.add_player(game_id, seat, entry.seat_name, tour.address_of(ctx, entry.player_id),
                                       passwords.hash_password(secrets[entry.seat_name]))
        deadlines.save_settings(ctx.store, game_id, service)
        lobby.begin_play(ctx, rules, game_id, seed, options, names, mailcommands.send_welcome, secrets,
                         who=f"tournament {row.id}")


def round_over(ctx: Context, row: TournamentRow) -> bool:
    """Has every game of the round in play ended?"""
    game_ids = {s.game_id for s in ctx.store.tournaments.round_seats(row.id, row.round) if s.game_id}
    for game_id in game_ids:
        game = ctx.store.games.game(game_id)
        if game is not None and game.status != Status.FINISHED:
            return False
    return True


def advance(ctx: Context) -> list[str]:
    """The daemon's pass: each running tournament whose round has ended gets its next round (or its
    end), each in one transaction; returns what was done.  Reads the running tournaments only; one
    tournament's fault is logged and does not stop the others."""
    done = []
    for row in ctx.store.tournaments.with_status(tour.RUNNING):
        try:
            done += retry_conflicts(advance_one, ctx, row)
        except StoreError:
            raise  # the database is down: not this tournament's fault
        except Exception:
            log.exception("the next round of tournament %s failed", row.id)
    return done


def advance_one(ctx: Context, row: TournamentRow) -> list[str]:
    """The next round of one tournament, if its round has ended (and no other pass made it)."""
    if not round_over(ctx, row):
        return []
    with ctx.store.write(games=[tour.lock_name(row.id)]):
        now_row = ctx.store.tournaments.tournament(row.id)
        if now_row is None or now_row.status != tour.RUNNING or now_row.round != row.round:
            return []  # another pass did it
        return [f"tournament {row.id}: " + begin_round(ctx, now_row)]


def force_next(ctx: Context, tournament_id: str, who: str | None = None, why: str | None = None) -> str:
    """`gm tournament next ID`: the next round now, even while games of this one still run: those
    go on, and count in the standings once they end; their players are paired again meanwhile.
    Each new game's history says who forced it, and why."""
    with ctx.store.write(games=[tour.lock_name(tournament_id.strip().lower())]):
        row = tour.tournament(ctx, tournament_id)
        if row.status != tour.RUNNING:
            raise ServiceError(f"tournament {row.id} is {row.status}, not running")
        running = not round_over(ctx, row)
        told = begin_round(ctx, row)
        for seat in ctx.store.tournaments.round_seats(row.id, row.round + 1):
            if seat.game_id and seat.seat == 0:
                ctx.store.history.log(seat.game_id, 0, who or "gm", "tournament",
                                      "round made by gm tournament next" + (f"; why: {why}" if why else ""),
                                      ctx.clock())
    return told + ("; games of the round before still run: they go on and count once they end" if running else "")


def finish(ctx: Context, row: TournamentRow) -> str:
    """The end: finished, and every entrant mailed the final standings (in the caller's transaction)."""
    ctx.store.tournaments.set_progress(row.id, tour.FINISHED, row.round, row.round, ctx.clock())
    row = tour.tournament(ctx, row.id)
    body = ctx.outbox.render("answer", lines=tournamentmail.standings_lines(ctx, row), game_id=None)
    for entry in tour.roster(ctx, row):
        address = tour.address_of(ctx, entry.player_id)
        if address:
            ctx.outbox.queue(address, Text("Tournament {tournament}: final standings", tournament=row.id), body,
                             kind="notice")
    return "finished; the final standings mailed to every player"
