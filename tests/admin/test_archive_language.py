"""The archive in the GM's language (config archive_language): every page of a German or French
build says lang="de"/"fr" and none of the archive templates' English sentences that the English
build of the same games shows, its turn reports, dates, places and figures are the language's;
the daemon's live archive writes in that language, and writes the site again in full when the
language changes; the config takes en, de or fr only."""

from __future__ import annotations

import html.parser
import json
import re
import sys
from pathlib import Path

import pytest

from gm.core.config import Config, ConfigError
from gm.core import config as config_module
from gm.present import archive as site
from gm.present import community
from gm.runtime.livearchive import STATE_FILE, LiveArchive
from gm.service.engine import Engine
from gm.service.records import audit
from gm.store import Store
from admin_helpers import neighbors_move, run_gm
from support import PLAYERS, PLAYERS3

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import catalogs  # noqa: E402

DAY = 86400.0
T0 = 1_800_000_000.0
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}|<[^>]*>")


class Words(html.parser.HTMLParser):
    """A page's words a reader meets: text outside <pre> (the reports) and the title, alt and
    aria-label attributes (not a rating plot's alt, written by gm.present.pictures)."""

    def __init__(self):
        super().__init__()
        self.pre, self.chunks, self.lang = 0, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.pre += tag == "pre"
        self.lang = attrs.get("lang", self.lang) if tag == "html" else self.lang
        self.chunks += [value for key, value in attrs.items()
                        if key in ("title", "aria-label") or (key == "alt" and attrs.get("class") != "plot")]

    def handle_endtag(self, tag):
        self.pre -= tag == "pre"

    def handle_data(self, data):
        if not self.pre:
            self.chunks.append(data)


def words_of(path: Path) -> Words:
    reader = Words()
    reader.feed(path.read_text(encoding="utf-8"))
    return reader


def sentence_pieces(language: str) -> list[tuple[str, str]]:
    """The English literal pieces of the archive area's sentences (between placeholders and tags),
    with the language's translation of the sentence they are from."""
    from babel.messages.pofile import read_po

    with catalogs.po_path("archive", language).open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    pieces = []
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = " ".join(message.string if isinstance(message.string, tuple) else (message.string,))
        for text in ids:
            for piece in PLACEHOLDER.split(text.replace("&lt;", "<").replace("&gt;", ">")):
                piece = piece.strip(" ,.;:()\n")
                if re.search(r"[A-Za-z]{3}", piece):
                    pieces.append((piece, strings))
    return pieces


def play(engine, game_id, moves):
    for _ in range(moves):
        view = engine.load(game_id)
        if view.rules.is_over(view.state):
            return
        mover, move = neighbors_move(engine, game_id)
        assert engine.gm_order(game_id, mover, move).outcome == "applied"


def community_data() -> dict:
    results = [{"game_id": f"nb{i}", "ended": T0 + i * DAY, "rank": 1 + i % 3, "of": 3, "mu": 25.0 + i,
                "sigma": 7.0 - i} for i in range(1, 5)]
    row = {"name": "ada", "mu": 29.0, "sigma": 3.0, "games": 4, "last_game": "nb4", "last_played": T0 + 4 * DAY}
    return {"ladders": [{"kind": "neighbors", "title": "Neighbors", "rows": [row]},
                        {"kind": "phalanx", "title": "Phalanx", "rows": []}],
            "players": [{"name": "ada", "kinds": [{"kind": "neighbors", "title": "Neighbors", "mu": 29.0,
                                                    "sigma": 3.0, "games": 4, "results": results}]}],
            "tournaments": [
                {"id": "cup", "kind": "neighbors", "title": "Neighbors", "format": "swiss", "rounds": 2, "round": 1,
                 "status": "running", "rated": True, "tiebreaks": ["Buchholz", "Sonneborn-Berger"],
                 "standings": [{"place": 1, "name": "ada", "points": 1.5, "games": 1, "tiebreaks": [0.5, 0.25]},
                               {"place": 2, "name": "bob", "points": 0.0, "games": 1, "tiebreaks": [1.0, 0.0],
                                "withdrawn": True}],
                 "rounds_played": [{"round": 1, "tables": [{"board": 1, "players": ["ada", "bob"],
                                                            "game_id": "cup-r1-1", "result": "1-0"}],
                                    "byes": ["cy"]}]},
                {"id": "trio", "kind": "neighbors", "title": "Neighbors", "format": "round-robin", "rounds": 1,
                 "round": 0, "status": "open", "rated": False, "tiebreaks": ["sum of ranks"], "standings": [],
                 "rounds_played": []}]}


def recruiting() -> list[dict]:
    return [{"id": "op1", "title": "Neighbors", "kind": "neighbors", "status": "recruiting", "recruiting": True,
             "seats": 3, "free": 2, "over": False, "turn": 0, "players": [{"name": "ada"}], "winners": [],
             "reason": None, "created": "2027-01-15 08:00 UTC", "created_at": T0,
             "updated": "2027-01-15 08:00 UTC", "updated_at": T0}]


@pytest.fixture
def games(engine):
    """A finished game and one in play."""
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    play(engine, "nb1", 1000)
    engine.create_game("neighbors", "nb2", PLAYERS3, seed=5)
    play(engine, "nb2", 3)
    return engine


def build(directory: Path, engine, language: str) -> list[Path]:
    """The site in ``language``, as gm archive build writes it."""
    data = [audit.archive_data(engine, game_id, language=language) for game_id in ("nb1", "nb2")]
    given = community_data()
    community.write(directory, given, engine.clock(), language)
    site.build(directory, data, engine.clock(), "example.test", recruiting(), community.index_links(given), language)
    return sorted(directory.glob("*.html"))


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_build_in_german_or_french_has_no_english_sentence_of_the_templates(games, tmp_path, language):
    english = {path.name: words_of(path) for path in build(tmp_path / "en", games, "en")}
    other = {path.name: words_of(path) for path in build(tmp_path / language, games, language)}
    assert set(other) == set(english) and len(english) >= 6
    assert all(page.lang == "en" for page in english.values())
    assert all(page.lang == language for page in other.values())
    shown, left = 0, []
    for piece, translation in sentence_pieces(language):
        word = re.compile(r"(?<!\w)" + re.escape(piece) + r"(?!\w)")
        for name, page in english.items():
            if not any(word.search(chunk) for chunk in page.chunks):
                continue
            shown += 1
            if word.search(translation) is None and any(word.search(chunk) for chunk in other[name].chunks):
                left.append((name, piece))
    assert shown >= 60, "the English build shows the templates' sentences"
    assert not left, f"English left in the {language} build: {left[:10]}"


def reports(page: Path) -> list[str]:
    return re.findall(r'<pre class="report">(.*?)</pre>', page.read_text(encoding="utf-8"), re.S)


def test_reports_dates_places_and_figures_follow_the_language(games, tmp_path):
    build(tmp_path / "en", games, "en")
    build(tmp_path / "de", games, "de")
    english, german = reports(tmp_path / "en" / "game-nb2.html"), reports(tmp_path / "de" / "game-nb2.html")
    assert len(german) == len(english) >= 4
    assert all(ours != theirs for ours, theirs in zip(german, english)), "each turn's report in German"
    player = (tmp_path / "de" / "player-ada.html").read_text(encoding="utf-8")
    assert "2. von 3" in player and "1. von 3" in player and "Wertung" in player
    tournament = (tmp_path / "de" / "tournament-cup.html").read_text(encoding="utf-8")
    ladder = (tmp_path / "de" / "ladder-neighbors.html").read_text(encoding="utf-8")
    assert "19.01.2027" in ladder and "20,0 ±3,0 vorläufig" in ladder
    assert "provisional" not in ladder.replace('class="player provisional"', "")
    assert "<td>1,5</td>" in tournament and "Schweizer System" in tournament and "(zurückgezogen)" in tournament
    build(tmp_path / "fr", games, "fr")
    player = (tmp_path / "fr" / "player-ada.html").read_text(encoding="utf-8")
    assert "1er sur 3" in player and "2e sur 3" in player and "19 janv. 2027" in player


def test_gm_archive_build_writes_in_the_configured_language(engine, tmp_path):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    play(engine, "nb1", 2)
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {engine.config.data_dir}\naddress: gm@localhost\narchive_language: fr\n")
    result = run_gm(conf, "archive", "build", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    pages = sorted((tmp_path / "site").glob("*.html"))
    assert {page.name for page in pages} >= {"index.html", "game-nb1.html"}
    assert all(words_of(page).lang == "fr" for page in pages)
    assert "Tour 1" in (tmp_path / "site" / "game-nb1.html").read_text(encoding="utf-8")


def test_the_live_archive_writes_in_the_configured_language_and_again_when_it_changes(tmp_path, clock):
    def live(language: str) -> tuple[LiveArchive, Store]:
        config = Config(data_dir=tmp_path / "gm-data", address="gm@localhost", archive_language=language)
        store = Store(config.database)
        return LiveArchive(Engine(store, config, clock=clock), tmp_path / "site"), store

    archive, store = live("de")
    archive.engine.create_game("neighbors", "nb1", PLAYERS, seed=4)
    play(archive.engine, "nb1", 2)
    assert archive.refresh() == ["nb1"]
    page = tmp_path / "site" / "game-nb1.html"
    assert words_of(page).lang == "de" and "Zug 1" in page.read_text(encoding="utf-8")
    assert words_of(tmp_path / "site" / "index.html").lang == "de"
    assert json.loads((tmp_path / "site" / STATE_FILE).read_text())["language"] == "de"
    store.close()
    archive, store = live("en")  # the GM changed the language: every page is written again
    assert archive.refresh() == ["nb1"]
    assert words_of(page).lang == "en" and "Turn 1" in page.read_text(encoding="utf-8")
    store.close()


def test_the_config_takes_en_de_or_fr_for_the_archive(tmp_path):
    assert Config(data_dir=tmp_path).archive_language == "en"
    assert Config(data_dir=tmp_path, archive_language="fr").archive_language == "fr"
    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {tmp_path}\narchive_language: xx\n")
    with pytest.raises(ConfigError) as refused:
        config_module.load(path)
    assert "archive_language must be en, de or fr" in str(refused.value)
    path.write_text(f"data_dir: {tmp_path}\narchive_language: de\n")
    assert config_module.load(path).archive_language == "de"
