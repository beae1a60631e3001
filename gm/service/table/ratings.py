"""Ratings from rated games (RULINGS G11): openskill's Plackett-Luce model, per game kind.

When a game with the option rated=true and two or more players ends, its final ranking
(gm.service.table.ranking: tiers, tied players sharing a rank) is one ``model.rate`` of teams of
one, from each player's rating in that kind (a new player: openskill's default).  The game is
rated once; a game in which some player never sent a move of their own is not rated, and says
why.  A GM's rollback that sets a rated game running again takes its results back: the kind's
ratings are recomputed from the results that remain, game by game in the order they ended,
which is also how results moved to a linked player (SET NAME ... ALL) count again.
"""

from __future__ import annotations

from datetime import datetime, timezone
from itertools import groupby
from typing import Any, Iterable

from games.text import Plural, Text
from games import registry
from gm.core import rating
from gm.core.model import GameView
from gm.service.table import deadlines, ranking
from gm.store import Store
from gm.store.community import RatedGameRow, RatedResultRow, RatingRow

COMMUNITY_LOCK = "community"  # the shared lock (store.locks) of the public players and ratings
OWN_MOVES = ("mail", "line")  # the origins of an order the player made (not the GM's, not a deadline's)
Skill = tuple[float, float]  # (mu, sigma)


def lock(store: Store) -> None:
    """Hold the public players and ratings for this transaction (on PostgreSQL, beside other
    games' writes): every change of them takes it first, so none is lost and no name doubled."""
    store.locks.lock_shared(COMMUNITY_LOCK)


def model() -> Any:
    """openskill's Plackett-Luce model, its defaults (imported only when a rated game ends)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate(before: list[Skill | None], ranks: list[int]) -> list[Skill]:
    """Each player's (mu, sigma) after one game: openskill's rate of teams of one, ``ranks`` 1
    best and equal for a tie; None before: a new player.  Callers give the players in one order,
    by rank and then seat name (in_order), so that a rating recomputed is the same to the bit."""
    plackett_luce = model()
    teams = [[plackett_luce.rating() if skill is None else plackett_luce.rating(mu=skill[0], sigma=skill[1])]
             for skill in before]
    return [(team[0].mu, team[0].sigma) for team in plackett_luce.rate(teams, ranks=ranks)]


def in_order(rows: list[RatedResultRow]) -> list[RatedResultRow]:
    """A game's results in the order rate takes them: by rank, then seat name."""
    return sorted(rows, key=lambda r: (r.rank, r.seat))


def is_rated(store: Store, game_id: str) -> bool:
    """Whether the game's settings say rated=true."""
    return deadlines.settings(store, game_id).get("rated") == "true"


def never_moved(store: Store, view: GameView) -> list[str]:
    """The players who never made a move of their own in the game."""
    moved = {row.player for row in store.turns.accepted_orders(view.id)
             if row.action == "order" and row.origin in OWN_MOVES}
    return [name for name in view.rules.players(view.state) if name not in moved]


def placed(store: Store, view: GameView, now: float) -> list[tuple[str, str, int]]:
    """(player id, seat, rank) of each player, best first: G11's tiers, a tied tier sharing the
    rank of its first (1, 1, 3).  A player holding two seats counts once, at the better."""
    address = {seat.name: seat.email for seat in view.players}
    rows: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    above = 0
    for tier in ranking.final_ranking(store, view):
        for name in tier:
            player_id = store.community.player_id_for(address[name], name, now)
            if player_id not in seen:
                seen.add(player_id)
                rows.append((player_id, name, above + 1))
        above += len(tier)
    return rows


def game_ended(store: Store, view: GameView, now: float) -> None:
    """Rate a rated game that ended (inside the end's write), once: its results and the new
    ratings, or, where some player never moved, the reason it is not rated."""
    if not is_rated(store, view.id) or store.community.rated_game(view.id) is not None:
        return
    if len(view.rules.players(view.state)) < 2:
        return
    lock(store)
    kind = view.row.kind
    idle = never_moved(store, view)
    if idle:
        reason = f"{', '.join(idle)} never made a move"
        store.community.record_game(RatedGameRow(view.id, kind, now, 0, reason))
        return
    store.community.record_game(RatedGameRow(view.id, kind, now, 1, ""))
    rows = in_order([RatedResultRow(view.id, player_id, kind, seat, rank, now, 0.0, 0.0)
                     for player_id, seat, rank in placed(store, view, now)])
    before = [store.community.rating(kind, row.player_id) for row in rows]
    after = rate([None if b is None else (b.mu, b.sigma) for b in before], [row.rank for row in rows])
    for row, old, (mu, sigma) in zip(rows, before, after):
        store.community.add_result(row.changed(mu=mu, sigma=sigma))
        store.community.set_rating(RatingRow(kind, row.player_id, mu, sigma, (old.games if old else 0) + 1,
                                             view.id, now))


def recompute(store: Store, kind: str) -> int:
    """A kind's ratings again from its results, game by game in the order they ended (after a
    result was taken back or moved); each result's rating after its game too.  How many players."""
    lock(store)
    current: dict[str, RatingRow] = {}
    results = store.community.results_of_kind(kind)
    store.community.clear_ratings(kind)
    for game_id, game in groupby(results, key=lambda r: r.game_id):
        rows = in_order(list(game))
        before = [current.get(r.player_id) for r in rows]
        after = rate([None if b is None else (b.mu, b.sigma) for b in before], [r.rank for r in rows])
        for row, old, (mu, sigma) in zip(rows, before, after):
            store.community.set_result_rating(game_id, row.player_id, mu, sigma)
            current[row.player_id] = RatingRow(kind, row.player_id, mu, sigma, (old.games if old else 0) + 1,
                                               game_id, row.ended)
    for rating_row in current.values():
        store.community.set_rating(rating_row)
    return len(current)


def recompute_kinds(store: Store, kinds: Iterable[str]) -> None:
    for kind in sorted(set(kinds)):
        recompute(store, kind)


def game_reopened(store: Store, game_id: str) -> None:
    """A finished game runs again (the GM's rollback or edit): its rating is taken back, and the
    kind's ratings recomputed without it.  Nothing for a game that was not rated."""
    lock(store)
    row = store.community.rated_game(game_id)
    if row is None:
        return
    store.community.forget_game(game_id)
    if row.rated:
        recompute(store, row.kind)


def link(store: Store, address: str, name: str, now: float) -> str:
    """SET NAME ... ALL: every seat of ``address`` counts for one player named ``name`` (the
    caller checked it is free): the results of its pairs move to it and the ratings of their
    kinds are recomputed.  The linked player's id."""
    lock(store)
    linked = store.community.link(address, name, now)
    kinds: set[str] = set()
    for pair in store.community.players_of(address):
        if pair.player_id != linked:
            kinds |= store.community.move_results(pair.player_id, linked)
    recompute_kinds(store, kinds)
    return linked


TOP = 10  # players of each kind a ladder of every kind shows


def kind_named(word: str) -> str | None:
    """The game kind a word names (any case, '_' for '-'), or None."""
    name = word.strip().lower().replace("_", "-")
    return name if name in registry.MODULES else None


def kind_title(kind: str) -> str:
    """A game kind's title (its name, for a kind this gm no longer has)."""
    try:
        return registry.get(kind).title
    except registry.UnknownGameKind:
        return kind


def ladder_lines(store: Store, kind: str, most: int | None = None) -> list[str]:
    """A kind's ladder as text, best first: place, public name, the rating shown (gm.core.rating),
    rated games and the date of the last; never an address.  ``most``: the first so many."""
    rows = store.community.ladder(kind)
    shown = rows if most is None else rows[:most]
    lines: list[str] = [Plural("{title} ({kind}): {n} rated player", "{title} ({kind}): {n} rated players",
                               n=len(rows), title=kind_title(kind), kind=kind)]
    for place, row in enumerate(shown, 1):
        player = store.community.player(row.player_id)
        name = player.name if player is not None else "?"
        last = datetime.fromtimestamp(row.last_played, timezone.utc).strftime("%Y-%m-%d")
        lines.append(Text("{place}. {name} {rating} {games}  last {last}", place=f"{place:>4}", name=f"{name:<30}",
                          rating=f"{rating.shown(row.mu, row.sigma, row.games):<24}", last=last,
                          games=Plural("{n:>4} game ", "{n:>4} games", n=row.games)))
    if len(rows) > len(shown):
        lines.append(Text("      ... and {more} more", more=len(rows) - len(shown)))
    return lines


def ladders_text(store: Store, kind: str | None) -> list[str]:
    """RATINGS and gm ratings: one kind's whole ladder, or every rated kind's first TOP."""
    if kind is not None:
        return ladder_lines(store, kind)
    kinds = store.community.kinds_rated()
    if not kinds:
        return [Text("No rated game has ended here yet.")]
    lines: list[str] = []
    for each in kinds:
        lines += ladder_lines(store, each, TOP) + [""]
    return lines[:-1]
