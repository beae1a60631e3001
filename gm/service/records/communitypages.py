"""The data of the archive's community pages (gm.present.community): ladders, players, tournaments.

Read from the store's community repository (ratings, rated results, public players) and the
tournaments' summaries (gm.service.people.tournaments), for `gm archive build` and the live
archive.  Only public names leave here: a player's address and seat names stay in the store.
A ladder and player pages exist only for kinds with rated games; a player page lists the kinds
the player is rated in, each with its results oldest first.
"""

from __future__ import annotations

from games import registry
from gm.service.context import Context


def title_of(kind: str) -> str:
    """A kind's title as players read it (the kind itself for one gm no longer has)."""
    try:
        return registry.get(kind).title
    except registry.UnknownGameKind:
        return kind


def community_data(ctx: Context) -> dict:
    """{"ladders": [...], "players": [...], "tournaments": [...]} as gm.present.community.write takes."""
    names: dict[str, str | None] = {}

    def name_of(player_id: str) -> str | None:
        if player_id not in names:
            player = ctx.store.community.player(player_id)
            names[player_id] = None if player is None else player.name
        return names[player_id]

    ladders, current = [], {}
    for kind in ctx.store.community.kinds_rated():
        rows = [row for row in ctx.store.community.ladder(kind) if name_of(row.player_id)]
        current.update({(kind, row.player_id): row for row in rows})
        ladders.append({"kind": kind, "title": title_of(kind), "rows": [
            {"name": name_of(row.player_id), "mu": row.mu, "sigma": row.sigma, "games": row.games,
             "last_game": row.last_game, "last_played": row.last_played} for row in rows]})
    sizes: dict[str, int] = {}
    players = [player_data(ctx, player_id, name_of(player_id), current, sizes)
               for player_id in dict.fromkeys(player_id for _, player_id in current)]
    players.sort(key=lambda player: player["name"].casefold())
    return {"ladders": ladders, "players": players, "tournaments": tournament_data(ctx)}


def player_data(ctx: Context, player_id: str, name: str, current: dict, sizes: dict[str, int]) -> dict:
    """A player's page: per kind rated, the current rating and each rated result (the game, when
    it ended, the rank of how many, the rating after it).  ``sizes``: players per game, kept
    across players (each game is counted once)."""
    kinds: dict[str, list[dict]] = {}
    for result in ctx.store.community.results_of(player_id):
        if result.game_id not in sizes:
            sizes[result.game_id] = len(ctx.store.community.results_of_game(result.game_id))
        kinds.setdefault(result.kind, []).append(
            {"game_id": result.game_id, "ended": result.ended, "rank": result.rank, "of": sizes[result.game_id],
             "mu": result.mu, "sigma": result.sigma})
    shown = []
    for kind, results in sorted(kinds.items()):
        rating = current.get((kind, player_id))
        if rating is not None:
            shown.append({"kind": kind, "title": title_of(kind), "mu": rating.mu, "sigma": rating.sigma,
                          "games": rating.games, "results": results})
    return {"name": name, "kinds": shown}


def tournament_data(ctx: Context) -> list[dict]:
    """Every tournament's summary (public names only), with its kind's title."""
    from gm.service.people import tournaments

    return [{**summary, "title": title_of(summary["kind"])}
            for summary in (tournaments.summary(ctx, tid) for tid in tournaments.every_tournament(ctx))]
