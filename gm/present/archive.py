"""The archive site: a static HTML page per game, an index, and an Atom feed per game.

It renders what gm.service.records.audit.archive_data gathers (``gm archive build DIR``),
and the daemon keeps it current with the same functions (gm.runtime.livearchive).  A
game's page shows each turn's picture and report as an observer sees them, press sent to
ALL and the result, never a sealed order; a finished game's page links its public record
(record_files).  The index also links the community pages (gm.present.community).  The
site is in one language (config ``archive_language``): the templates' sentences, the codes
of WORDS and any Text in the data; names, ids and notation stay as they are.  Every file
is written whole or not at all (gm.core.filemodes.replace_file), so a web server never
serves half a page; a file whose content is unchanged is not written again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from games.text import Text, mark
from gm.core import filemodes, i18n
from gm.core.times import format_stamp
from gm.present import feeds

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


# The words the archive's data carries as codes (a game's or a tournament's status, a format, a
# tiebreak), each said in the site's language by ``words``.
WORDS = {"open": mark("open"), "active": mark("active"), "paused": mark("paused"),
         "finished": mark("finished"), "recruiting": mark("recruiting"), "running": mark("running"),
         "round-robin": mark("round-robin"), "swiss": mark("swiss"), "sum of ranks": mark("sum of ranks")}


def words(language: str) -> Callable[[Any], Any]:
    """The templates' ``word``: a code of WORDS in ``language``, any other value as it is."""
    return lambda value: i18n.translate(Text(WORDS[value]), language) if value in WORDS else value


def stamp(at: float, language: str) -> str:
    """A time as the archive's pages write it, in ``language``'s manner (UTC)."""
    return format_stamp(at, language=language)


def dated(game: dict, language: str) -> dict:
    """A game's index entry with its dates written for ``language`` (English: as it is)."""
    if language == i18n.ENGLISH or "created_at" not in game:
        return game
    return {**game, "created": stamp(game["created_at"], language), "updated": stamp(game["updated_at"], language)}


def render(name: str, language: str, **values: Any) -> bytes:
    """The archive template ``name`` in ``language`` with ``values`` (every Text in them said in
    it) and ``word`` (words), as UTF-8."""
    from gm.present.templates import environment  # Jinja, when a page is written

    page = environment(html=True, language=language).get_template(f"archive/{name}")
    return page.render(word=words(language), **i18n.localized(values, language)).encode("utf-8")


def page_name(game_id: str) -> str:
    return f"game-{game_id}.html"


def picture_name(game_id: str, turn: int) -> str:
    return f"game-{game_id}-turn-{turn}.png"


def record_files(record: dict) -> dict[str, bytes]:
    """A game's record (gm.service.table.gamerecord) as its two files, named by the game:
    ``<id>.json`` (the record, gm/present/record.schema.json) and ``<id>.txt`` (its text form).
    The archive publishes a finished game's beside its page; the end mail and RECORD attach them."""
    from gm.present import recordtext

    game_id = record["game"]["id"]
    return {f"{game_id}.json": (json.dumps(record, indent=1, ensure_ascii=False) + "\n").encode("utf-8"),
            f"{game_id}.txt": recordtext.render(record).encode("utf-8")}


def rules_dir() -> Traversable:
    """Each game's rules in gm's own words, published beside the pages as text.  They are written
    in docs/rules/ for people to read; gm/present/rulepages is a link to that folder, so that the
    installed package carries the same files as package data (pyproject.toml), read from there
    (found when pages are written: a report needs only a page's name)."""
    from importlib.resources import files

    return files("gm.present").joinpath("rulepages")


def rules_name(kind: str) -> str:
    return f"rules-{kind}.txt"


def write_rules(directory: Path, kind: str) -> tuple[str | None, list[Path]]:
    """The rules page of ``kind`` beside the game pages: (its file name, or None for a game
    without one; the files written)."""
    source = rules_dir() / f"{kind}.md"
    if not source.is_file():
        return None, []
    return rules_name(kind), write_file(directory / rules_name(kind), source.read_bytes())


def build(directory: str | Path, data: list[dict], built_at: float, domain: str = "localhost",
          recruiting: list[dict] = (), community: dict | None = None, language: str = i18n.ENGLISH) -> Path:
    """Write the site for the games' ``data`` (gm.service.records.audit.archive_data); returns the index,
    which also lists the ``recruiting`` games (open, no page yet: gm.service.records.audit.index_entry)
    and links the ladders and tournaments (``community``: gm.present.community.index_links)."""
    directory = Path(directory)
    for game in data:
        write_game(directory, game, built_at, domain, language)
    return write_index(directory, [*data, *recruiting], built_at, community, language)


def write_game(directory: str | Path, game: dict, built_at: float, domain: str = "localhost",
               language: str = i18n.ENGLISH) -> list[Path]:
    """A game's page, its Atom feed and the pictures its data carries; returns the files written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    game.setdefault("page", page_name(game["id"]))
    game.setdefault("feed", feeds.feed_name(game["id"]))
    written = []
    for turn in game["turns"]:  # each turn's picture beside its page, named by game and turn
        turn["image"] = None
        if turn.get("picture") or turn.get("picture_kept"):
            turn["image"] = picture_name(game["id"], turn["turn"])
        if turn.get("picture"):
            written += write_file(directory / turn["image"], turn["picture"])
    game["rules_page"], rules_written = write_rules(directory, game["kind"]) if "kind" in game else (None, [])
    written += rules_written
    written += write_record(directory, game)
    html = render("game.html.j2", language, game=dated(game, language), built=stamp(built_at, language))
    written += write_file(directory / game["page"], html)
    written += write_file(directory / game["feed"], feeds.atom(game, domain))
    return written


def write_record(directory: Path, game: dict) -> list[Path]:
    """A finished game's record files (record_files: ``game["record"]``) beside its page, named
    in ``game["record_files"]`` for the page's links; a game without them (running) has none
    there, and any left from before it ran again (a rollback) are removed."""
    files = game.get("record") or {}
    game["record_files"] = list(files)
    for stale in (directory / f"{game['id']}.json", directory / f"{game['id']}.txt"):
        if stale.name not in files:
            stale.unlink(missing_ok=True)
    return [path for name, data in files.items() for path in write_file(directory / name, data)]


def write_index(directory: str | Path, games: list[dict], built_at: float, community: dict | None = None,
                language: str = i18n.ENGLISH) -> Path:
    """The index of games (gm.service.records.audit.index_entry each), with links to the ladders and
    tournaments (``community``: gm.present.community.index_links), and the style sheet."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for game in games:
        game.setdefault("page", page_name(game["id"]))
        game.setdefault("feed", feeds.feed_name(game["id"]))
    links = community or {"ladders": [], "tournaments": []}
    html = render("index.html.j2", language, games=[dated(game, language) for game in games], community=links,
                  built=stamp(built_at, language))
    write_file(directory / "index.html", html)
    write_file(directory / "archive.css", render("archive.css.j2", language))
    return directory / "index.html"


def write_file(path: Path, data: bytes) -> list[Path]:
    """Written whole or not at all (a web server never serves half a file), and only if it
    changed; returns [path] if written (gm.core.filemodes.replace_file)."""
    try:
        if path.read_bytes() == data:
            return []
    except OSError:
        pass
    filemodes.replace_file(path, data)
    return [path]
