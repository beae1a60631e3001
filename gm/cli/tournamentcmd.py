"""gm tournament: round robins and Swiss tournaments of one game kind (gm.service.people.tournaments).

new opens one for entries; add enters a player (or players enter by mail: JOIN TOURNAMENT);
approve takes a pending entry; start pairs round 1 and makes its games; the daemon makes each next
round once a round has ended, and next forces it; withdraw takes a player out of the pairings;
show and list print the standings and the tournaments.
"""

from __future__ import annotations

from typing import List, Optional

import typer

from gm.cli.common import BY, HELP_STYLE, WHY, app, echo, open_engine, parse_pairs, run

tournament_app = typer.Typer(no_args_is_help=True, rich_markup_mode=HELP_STYLE,
                             help="Tournaments: round robin or Swiss, their entries, rounds and standings.")
app.add_typer(tournament_app, name="tournament")


@tournament_app.command("new")
def new(tournament_id: str,
        kind: str = typer.Option(..., "--kind", help="the game kind every table plays"),
        format_: str = typer.Option(..., "--format", help="round-robin or swiss"),
        rounds: int = typer.Option(0, "--rounds", help="rounds of a Swiss (a round robin's are set at the start)"),
        table_size: Optional[int] = typer.Option(None, "--table-size", help="players a table, for a kind of "
                                                 "more than two (a two-player kind: 2)"),
        twice: bool = typer.Option(False, "--twice", help="round robin: every pairing twice, seats swapped"),
        rated: bool = typer.Option(False, "--rated", help="its games are rated (rated=true)"),
        approval: bool = typer.Option(False, "--approval", help="JOIN TOURNAMENT waits for gm tournament approve"),
        cap: int = typer.Option(64, "--cap", help="the most entries"),
        option: List[str] = typer.Option([], "--option", "-o", help="an option key=value of its games, as gm new "
                                         "takes them (gm options KIND)")) -> None:
    """Open a tournament for entries: gm tournament new ID --kind KIND --format round-robin|swiss --rounds N."""
    from gm.service.people import tournaments

    echo(run(tournaments.new, open_engine(), tournament_id, kind, format_, rounds, table_size, twice, rated,
             approval, cap, dict(parse_pairs(option, "--option"))))


@tournament_app.command("add")
def add(tournament_id: str, player: List[str] = typer.Argument(..., help="NAME=ADDRESS, one or more")) -> None:
    """Enter players: gm tournament add ID NAME=ADDRESS ..."""
    from gm.service.people import tournaments

    engine = open_engine()
    for name, address in parse_pairs(player, "NAME=ADDRESS"):
        echo(run(tournaments.enter, engine, tournament_id, name, address))


@tournament_app.command("approve")
def approve(tournament_id: str, name: str) -> None:
    """Take an entry waiting for approval (JOIN TOURNAMENT of a tournament made with --approval)."""
    from gm.service.people import tournaments

    echo(run(tournaments.approve, open_engine(), tournament_id, name))


@tournament_app.command("start")
def start(tournament_id: str) -> None:
    """Close the entries, pair round 1 and make its games (each player is mailed a welcome)."""
    from gm.service.people import tournamentrounds

    echo(run(tournamentrounds.start, open_engine(), tournament_id))


@tournament_app.command("next")
def next_round(tournament_id: str, why: Optional[str] = WHY, by: Optional[str] = BY) -> None:
    """The next round now (the daemon makes it by itself once every game of a round has ended).
    Games of the round still running go on and count once they end; their players are paired anyway."""
    from gm.service.people import tournamentrounds

    echo(run(tournamentrounds.force_next, open_engine(), tournament_id, who=by, why=why))


@tournament_app.command("withdraw")
def withdraw(tournament_id: str, name: str, why: Optional[str] = WHY, by: Optional[str] = BY) -> None:
    """Withdraw a player: not paired again; in a round robin its later games are lost by forfeit.
    A game it plays now goes on. The player is told, with the reason (-m)."""
    from gm.service.people import tournaments

    echo(run(tournaments.withdraw_by_gm, open_engine(), tournament_id, name, who=by, why=why))


@tournament_app.command("show")
def show(tournament_id: str) -> None:
    """The standings with their tiebreaks, every round's tables and results, the entries."""
    from gm.service.people import tournamentmail, tournaments

    engine = open_engine()
    row = run(tournaments.tournament, engine, tournament_id)
    for line in tournamentmail.standings_lines(engine, row) + tournamentmail.entry_lines(engine, row):
        echo(line)


@tournament_app.command("list")
def list_tournaments() -> None:
    """Every tournament: id, kind, format, status, round."""
    from gm.service.people import tournaments

    engine = open_engine()
    ids = tournaments.every_tournament(engine)
    if not ids:
        echo("no tournaments yet (gm tournament new)")
    for tid in ids:
        row = tournaments.tournament(engine, tid)
        echo(f"{row.id:<20} {row.kind:<14} {row.format:<11} {row.status:<8} round {row.round} of {row.rounds}")
