"""The archive's community pages on fixed data (gm.present.community): a ladder per kind, a page
per player with a rating plot, a page per tournament, linked from the index; every field shown,
every name escaped, the plot's bytes the same for the same figures, its alt text the figures."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from gm.core import rating
from gm.present import archive as site
from gm.present import community
from gm.present.pictures import ratingplot

DAY = 86400.0
T0 = 1_800_000_000.0  # 2027-01-15
ODD = "<b&o>"  # no public name has these, but a page escapes whatever it is given


def results(game_ids, mu0, sigma0, of=2):
    return [{"game_id": gid, "ended": T0 + i * DAY, "rank": 1 + i % of, "of": of,
             "mu": mu0 + i, "sigma": sigma0 - 0.5 * i} for i, gid in enumerate(game_ids)]


def data():
    ada = results(["nb1", "nb2", "nb3", "nb4", "nb5", "nb6"], 26.0, 7.0)
    odd = results(["nb1"], 24.0, 7.5)
    return {
        "ladders": [{"kind": "neighbors", "title": "Neighbors", "rows": [
            {"name": "ada", "mu": 31.0, "sigma": 4.5, "games": 6, "last_game": "nb6", "last_played": T0 + 5 * DAY},
            {"name": ODD, "mu": 24.0, "sigma": 7.5, "games": 1, "last_game": "nb1", "last_played": T0}]}],
        "players": [
            {"name": "ada", "kinds": [{"kind": "neighbors", "title": "Neighbors", "mu": 31.0, "sigma": 4.5,
                                       "games": 6, "results": ada}]},
            {"name": ODD, "kinds": [{"kind": "neighbors", "title": "Neighbors", "mu": 24.0, "sigma": 7.5,
                                     "games": 1, "results": odd}]}],
        "tournaments": [{
            "id": "cup", "kind": "neighbors", "title": "Neighbors", "format": "swiss", "rounds": 3, "round": 2,
            "status": "running", "rated": True, "tiebreaks": ["Buchholz", "Sonneborn-Berger"],
            "standings": [
                {"place": 1, "name": "ada", "points": 2.0, "games": 2, "tiebreaks": [1.5, 1.25]},
                {"place": 2, "name": ODD, "points": 1.5, "games": 2, "tiebreaks": [2.0, 0.75]},
                {"place": 3, "name": "cy", "points": 0.5, "games": 1, "tiebreaks": [3.0, 0.0]}],
            "rounds_played": [
                {"round": 1, "tables": [{"board": 1, "players": ["ada", ODD], "game_id": "cup-r1-1",
                                         "result": "1-0"}], "byes": ["cy"]},
                {"round": 2, "tables": [{"board": 1, "players": [ODD, "cy"], "game_id": "cup-r2-1",
                                         "result": "½-½"},
                                        {"board": 2, "players": ["ada", "dee"], "game_id": "cup-r2-2",
                                         "result": "playing"}], "byes": []}]}],
    }


@pytest.fixture
def site_dir(tmp_path):
    given = data()
    community.write(tmp_path, given, T0 + 6 * DAY)
    site.build(tmp_path, [], T0 + 6 * DAY, community=community.index_links(given))
    return tmp_path


def read(directory, name):
    return (directory / name).read_text(encoding="utf-8")


def test_file_names_are_safe_and_one_per_name():
    names = ["ada", "Ada.B", "a_b-c", "ada.b", ODD, "Zoë", "..", "a~2e"]
    slugs = [community.slug(name) for name in names]
    assert all(re.fullmatch(r"[a-z0-9_~-]+", s) for s in slugs)
    assert community.slug("Ada.B") == community.slug("ada.b")  # one name casefolded, one page
    assert len(set(slugs)) == len(set(name.casefold() for name in names))
    assert community.player_page("..") == "player-~2e~2e.html"


def test_the_ladder_shows_every_field(site_dir):
    page = read(site_dir, "ladder-neighbors.html")
    rows = re.findall(r'<tr class="player[^"]*">(.*?)</tr>', page, re.S)
    assert len(rows) == 2
    first, second = rows
    assert '<td class="place">1</td>' in first and '<a href="player-ada.html">ada</a>' in first
    assert rating.shown(31.0, 4.5, 6) in first and "provisional" not in first
    assert '<td class="games">6</td>' in first
    assert '<a href="game-nb6.html">nb6</a> 2027-01-20' in first
    assert '<td class="place">2</td>' in second and rating.shown(24.0, 7.5, 1) in second
    assert "provisional" in second and "2027-01-15" in second
    assert 'class="player provisional"' in page
    assert f"provisional until {rating.PROVISIONAL_GAMES} rated games of Neighbors" in page


def test_the_player_page_shows_ratings_results_and_a_plot(site_dir):
    page = read(site_dir, "player-ada.html")
    assert "<h1>ada</h1>" in page and "<h2>Neighbors</h2>" in page
    assert rating.shown(31.0, 4.5, 6) in page and "after 6 rated games" in page
    assert 'href="ladder-neighbors.html"' in page
    rows = re.findall(r'<tr class="result">(.*?)</tr>', page, re.S)
    assert len(rows) == 6
    newest = rows[0]  # newest first
    assert '<a href="game-nb6.html">nb6</a>' in newest and "2027-01-20" in newest
    assert "2nd of 2" in newest and rating.shown(31.0, 4.5, 6) in newest
    assert "1st of 2" in rows[-1] and rating.shown(26.0, 7.0, 1) in rows[-1]
    (img,) = re.findall(r'<img class="plot"[^>]*>', page)
    assert 'src="player-ada-neighbors.png"' in img
    figures = [rating.ordinal(26.0 + i, 7.0 - 0.5 * i) for i in range(6)]
    alt = re.search(r'alt="([^"]*)"', img).group(1)
    assert alt == ratingplot.alt_text("ada", "Neighbors", figures).replace("'", "&#39;")
    assert all(f"{value:.1f}" in alt for value in figures) and "6 rated games" in alt
    with Image.open(site_dir / "player-ada-neighbors.png") as plot:
        assert plot.format == "PNG" and plot.size == (ratingplot.WIDTH, ratingplot.HEIGHT)


def test_the_tournament_page_shows_standings_rounds_and_byes(site_dir):
    page = read(site_dir, "tournament-cup.html")
    assert "<h1>Tournament cup</h1>" in page and "swiss" in page and "round 2" in page
    assert '<th class="tiebreak">Buchholz</th><th class="tiebreak">Sonneborn-Berger</th>' in page
    standings = re.findall(r'<tr class="standing">(.*?)</tr>', page, re.S)
    assert len(standings) == 3
    assert '<a href="player-ada.html">ada</a></td><td>2</td><td>2</td>' in standings[0]
    assert '<td class="tiebreak">1.5</td><td class="tiebreak">1.25</td>' in standings[0]
    assert "<td>1.5</td>" in standings[1] and '<td class="tiebreak">0.75</td>' in standings[1]
    assert '<td class="name">cy</td>' in standings[2]  # no rated games: no page to link
    assert '<section class="round" id="round-1">' in page and '<section class="round" id="round-2">' in page
    assert '<a href="game-cup-r1-1.html">cup-r1-1</a>' in page and '<td class="result">1-0</td>' in page
    assert '<td class="result">½-½</td>' in page and '<td class="result">playing</td>' in page
    assert '<p class="byes">Bye: cy.</p>' in page


def test_the_index_links_ladders_and_tournaments(site_dir):
    index = read(site_dir, "index.html")
    assert '<a href="ladder-neighbors.html">Neighbors</a>: 2 rated players' in index
    assert '<a href="tournament-cup.html">cup</a>: Neighbors, running' in index


def test_a_name_is_escaped_everywhere(site_dir):
    odd_page = community.player_page(ODD)
    assert (site_dir / odd_page).exists() and odd_page == "player-~3cb~26o~3e.html"
    for path in site_dir.iterdir():
        if path.suffix == ".html":
            text = path.read_text(encoding="utf-8")
            assert ODD not in text, path.name
    assert "&lt;b&amp;o&gt;" in read(site_dir, "ladder-neighbors.html")
    assert f'<a href="{odd_page}">&lt;b&amp;o&gt;</a>' in read(site_dir, "tournament-cup.html")


def test_the_plot_is_the_same_for_the_same_figures_and_carries_no_text():
    figures = [0.0, 1.5, 3.25, 2.0, 4.0]
    first = ratingplot.plot(figures)
    assert first == ratingplot.plot(list(figures))
    assert first != ratingplot.plot([0.0, 1.5, 3.25, 2.0, 4.5])
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert not any(chunk in first for chunk in (b"tEXt", b"iTXt", b"zTXt", b"tIME"))
    assert ratingplot.plot([5.0])[:8] == b"\x89PNG\r\n\x1a\n"  # one game: one dot
    with pytest.raises(ValueError):
        ratingplot.plot([])


def test_a_page_no_longer_in_the_data_is_removed(site_dir):
    (site_dir / "game-nb1.html").write_text("a game page")
    given = data()
    given["players"] = given["players"][:1]
    given["ladders"][0]["rows"] = given["ladders"][0]["rows"][:1]
    given["tournaments"] = []
    written = community.write(site_dir, given, T0 + 6 * DAY)
    assert not (site_dir / community.player_page(ODD)).exists()
    assert not (site_dir / community.plot_name(ODD, "neighbors")).exists()
    assert not (site_dir / "tournament-cup.html").exists()
    assert (site_dir / "player-ada.html").exists() and (site_dir / "game-nb1.html").exists()
    assert site_dir / "player-ada.html" not in written  # unchanged: not written again
