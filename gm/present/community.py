"""The archive's community pages: a ladder per rated kind, a page per player, a page per tournament.

It renders what gm.service.records.communitypages.community_data gathers (public names, ratings,
rated results, tournament summaries; never an address) in the archive's layout, beside the game
pages: ladder-<kind>.html, player-<slug>.html with a rating plot per kind (player-<slug>-<kind>.png,
gm.present.pictures.ratingplot), tournament-<slug>.html.  File names come from slug(), safe in
a URL and a file system.  A page no longer in the data (a renamed player, a kind no longer rated)
is removed, so a name a player gave up does not stay published.  Pages are in the archive's
language (gm.present.archive.render): places, ranks and figures written as it writes them.
"""

from __future__ import annotations

import string
from pathlib import Path

from games.text import Text, mark
from gm.core import i18n, rating
from gm.present import archive

SAFE = frozenset(string.ascii_lowercase + string.digits + "-_")
PREFIXES = ("ladder-", "player-", "tournament-")  # the files this module writes, and prunes


def slug(text: str) -> str:
    """``text`` casefolded, as a file name: letters a-z, digits, - and _ kept, any other
    character as ~ and its UTF-8 bytes in hex (~ is in no public name, so two names casefolded
    apart never share a slug)."""
    return "".join(ch if ch in SAFE else "".join(f"~{byte:02x}" for byte in ch.encode("utf-8"))
                   for ch in text.casefold())


def ladder_page(kind: str) -> str:
    return f"ladder-{slug(kind)}.html"


def player_page(name: str) -> str:
    return f"player-{slug(name)}.html"


def plot_name(name: str, kind: str) -> str:
    return f"player-{slug(name)}-{slug(kind)}.png"


def tournament_page(tournament_id: str) -> str:
    return f"tournament-{slug(tournament_id)}.html"


def day(at: float, language: str = i18n.ENGLISH) -> str:
    """The date of a stamp, as the archive writes dates (UTC): its stamp without the time."""
    return archive.stamp(at, language).rsplit(" ", 2)[0]


def number(value: float, language: str = i18n.ENGLISH) -> str:
    """A score or tiebreak as read: 3, 2.5, 1.25 (2,5 in German and French)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if language == i18n.ENGLISH else i18n.format_number(float(text), language)


def shown(mu: float, sigma: float, games: int, language: str = i18n.ENGLISH) -> str:
    """The rating as gm.core.rating.shown writes it, its word "provisional" a sentence of the
    pages and its decimal point the language's (as number())."""
    text = rating.shown(mu, sigma, games)
    figure = text.removesuffix(" provisional")
    figure = figure if language == i18n.ENGLISH else figure.replace(".", ",")
    return Text("{figure} provisional", figure=figure) if text.endswith(" provisional") else figure


ORDINALS = (mark("{n}st"), mark("{n}nd"), mark("{n}rd"))  # 21st, 22nd, 23rd; 11th to 13th are "th"


def ordinal_word(place: int) -> Text:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st (1., 2. in German; 1er, 2e in French: the
    first place has a sentence of its own)."""
    if place == 1:
        return Text("1st")
    if 10 <= place % 100 <= 20 or place % 10 not in (1, 2, 3):
        return Text("{n}th", n=place)
    return Text(ORDINALS[place % 10 - 1], n=place)


def ladder_rows(ladder: dict, pages: set[str], language: str = i18n.ENGLISH) -> list[dict]:
    """A ladder's rows as shown: place (equal ratings share one), public name and page, the rating
    with its uncertainty (and "provisional"), games, last game and its date."""
    rows, place, previous = [], 0, None
    for position, row in enumerate(ladder["rows"], start=1):
        figure = round(rating.ordinal(row["mu"], row["sigma"]), 1)
        place = place if figure == previous else position
        previous = figure
        rows.append({"place": place, "name": row["name"],
                     "page": player_page(row["name"]) if row["name"] in pages else None,
                     "rating": shown(row["mu"], row["sigma"], row["games"], language),
                     "provisional": rating.provisional(row["games"]), "games": row["games"],
                     "last_game": row["last_game"], "last_page": archive.page_name(row["last_game"]),
                     "last_date": day(row["last_played"], language)})
    return rows


def player_kinds(player: dict, language: str = i18n.ENGLISH) -> list[dict]:
    """Each kind a player is rated in, as the player page shows it: rating, games, the plot's
    file and words, and the results (game and page, date, rank of how many, rating after)."""
    kinds = []
    for kind in player["kinds"]:
        values = [rating.ordinal(r["mu"], r["sigma"]) for r in kind["results"]]
        results = [{"game_id": r["game_id"], "page": archive.page_name(r["game_id"]), "date": day(r["ended"], language),
                    "rank": Text("{place} of {total}", place=ordinal_word(r["rank"]), total=r["of"]),
                    "rating": shown(r["mu"], r["sigma"], count, language)}
                   for count, r in enumerate(kind["results"], start=1)]
        from gm.present.pictures import ratingplot  # Pillow, when a page with a plot is written

        kinds.append({"kind": kind["kind"], "title": kind["title"], "ladder": ladder_page(kind["kind"]),
                      "rating": shown(kind["mu"], kind["sigma"], kind["games"], language),
                      "games": kind["games"],
                      "plot": plot_name(player["name"], kind["kind"]) if values else None,
                      "plot_bytes": ratingplot.plot(values) if values else None,
                      "alt": ratingplot.alt_text(player["name"], kind["title"], values),
                      "results": list(reversed(results))})  # newest first
    return kinds


def tournament_view(summary: dict, pages: set[str], language: str = i18n.ENGLISH) -> dict:
    """A tournament summary (gm.service.people.tournaments.summary) with its page, each name's
    player page where it has one, each game's page, and its figures as read."""
    def who(name: str) -> dict:
        return {"name": name, "page": player_page(name) if name in pages else None}

    standings = [{**row, "who": who(row["name"]), "points": number(row["points"], language),
                  "tiebreaks": [number(value, language) for value in row["tiebreaks"]]}
                 for row in summary["standings"]]
    rounds = [{"round": played["round"], "byes": [who(name) for name in played["byes"]],
               "tables": [{**table, "who": [who(name) for name in table["players"]],
                           "page": archive.page_name(table["game_id"]) if table.get("game_id") else None}
                          for table in played["tables"]]}
              for played in summary["rounds_played"]]
    return {**summary, "page": tournament_page(summary["id"]), "standings": standings, "rounds_played": rounds}


def index_links(data: dict) -> dict:
    """What the archive's index links: each ladder and each tournament."""
    return {"ladders": [{"kind": ladder["kind"], "title": ladder["title"], "page": ladder_page(ladder["kind"]),
                         "players": len(ladder["rows"])} for ladder in data["ladders"]],
            "tournaments": [{"id": t["id"], "title": t.get("title", t["kind"]), "status": t["status"],
                             "page": tournament_page(t["id"])} for t in data["tournaments"]]}


def write(directory: str | Path, data: dict, built_at: float, language: str = i18n.ENGLISH) -> list[Path]:
    """Every ladder, player and tournament page (and plot) of ``data`` in ``language``; removes the
    community files of an earlier build that ``data`` no longer has.  Returns the files written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    built = archive.stamp(built_at, language)
    pages = {player["name"] for player in data["players"]}
    files: dict[str, bytes] = {}
    for ladder in data["ladders"]:
        files[ladder_page(ladder["kind"])] = archive.render(
            "ladder.html.j2", language, ladder=ladder, rows=ladder_rows(ladder, pages, language),
            provisional_games=rating.PROVISIONAL_GAMES, built=built)
    for player in data["players"]:
        kinds = player_kinds(player, language)
        files.update({kind["plot"]: kind["plot_bytes"] for kind in kinds if kind["plot"]})
        files[player_page(player["name"])] = archive.render("player.html.j2", language, player=player,
                                                            kinds=kinds, built=built)
    for summary in data["tournaments"]:
        view = tournament_view(summary, pages, language)
        files[view["page"]] = archive.render("tournament.html.j2", language, t=view, built=built)
    for stale in directory.iterdir():
        if stale.name.startswith(PREFIXES) and stale.suffix in (".html", ".png") and stale.name not in files:
            stale.unlink(missing_ok=True)
    return [path for name, content in files.items() for path in archive.write_file(directory / name, content)]
