"""An Atom 1.0 feed of a game (RFC 4287): one entry per turn, so followers can watch it in a
feed reader.  Written with xml.etree, which escapes every value; ids are tag: URIs
(RFC 4151) made of the gm instance's domain, the game's start date, the game and the turn,
so they never change when the site moves.  Links are relative to the feed's own address.
Every text passes gm.core.text.for_xml: a stored text holding a character XML 1.0 forbids
(a NUL, an ESC...) leaves it out rather than make the feed unreadable."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import partial
from typing import TYPE_CHECKING

from games.text import Text
from gm.core import i18n
from gm.core.text import for_xml

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

ATOM = "http://www.w3.org/2005/Atom"


def feed_name(game_id: str) -> str:
    return f"game-{game_id}.atom"


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _tag(domain: str, game: dict, rest: str = "") -> str:
    day = datetime.fromtimestamp(game["created_at"], timezone.utc).strftime("%Y-%m-%d")
    return f"tag:{domain},{day}:gm/{game['id']}{rest}"


def atom(game: dict, domain: str, language: str = i18n.ENGLISH) -> bytes:
    """The feed of ``game`` (gm.service.records.audit.archive_data, with "page" set) as UTF-8 XML,
    its words in ``language`` (the archive's)."""
    import xml.etree.ElementTree as ET  # loaded when a feed is written, not with every report

    ET.register_namespace("", ATOM)

    def sub(parent, name: str, text: str | None = None, **attrs) -> ET.Element:
        element = ET.SubElement(parent, f"{{{ATOM}}}{name}", attrs)
        if text is not None:
            element.text = for_xml(text)
        return element

    feed = ET.Element(f"{{{ATOM}}}feed")
    sub(feed, "id", _tag(domain, game))
    said = partial(i18n.translate, language=language)
    sub(feed, "title", said(Text("{title} game {game}", title=game["title"], game=game["id"])))
    sub(feed, "subtitle", said(Text("{status}, turn {turn}: {scores}", status=game["status"], turn=game["turn"],
                                    scores=", ".join(f"{p['name']} {p['score']}" for p in game["players"]))))
    turns = [t for t in game["turns"] if t.get("report")]
    sub(feed, "updated", _when(max([game["updated_at"]] + [t["at"] for t in turns if t.get("at")])))
    author = sub(feed, "author")
    sub(author, "name", said(Text("gm, the game master")))
    sub(feed, "link", rel="alternate", type="text/html", href=game["page"])
    sub(feed, "link", rel="self", type="application/atom+xml", href=feed_name(game["id"]))
    for turn in reversed(turns):  # newest first, as readers expect
        entry = sub(feed, "entry")
        sub(entry, "id", _tag(domain, game, f"/turn/{turn['turn']}"))
        sub(entry, "title", said(Text("{title} game {game}, turn {turn}", title=game["title"], game=game["id"],
                                      turn=turn["turn"])))
        sub(entry, "updated", _when(turn.get("at") or game["updated_at"]))
        sub(entry, "link", rel="alternate", type="text/html", href=f"{game['page']}#turn-{turn['turn']}")
        sub(entry, "content", turn["report"] + "".join("\n" + body for body in turn["press"]), type="text")
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True) + b"\n"
