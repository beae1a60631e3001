"""A game record (gm.service.table.gamerecord) as plain text a person reads, and its schema.

After PGN: headers in brackets, then the moves numbered by turn in each game's own notation
(several moves of a turn under one number), with draws, takebacks, GM-set positions,
withheld orders and closes as comments in braces; then the result, the standings and, for
Proximity, the full trail tables (PX10).  Every line fits 78 columns but the trail tables'
own, which the rules lay out.  The headers and comments are PGN's, in English; the result and
standings are said in the language asked for.  Pure functions of the record.
"""

from __future__ import annotations

import json
import textwrap
from datetime import datetime, timezone
from typing import Any

from games.text import Text
from gm.core import i18n
from gm.present.standings import result_line

WIDTH = 78
SCHEMA_FILE = "record.schema.json"


def schema() -> dict[str, Any]:
    """The record's JSON Schema (draft 2020-12), the package file gm/present/record.schema.json."""
    from importlib.resources import files

    data: dict[str, Any] = json.loads(files("gm.present").joinpath(SCHEMA_FILE).read_text("utf-8"))
    return data


def render(record: dict[str, Any], language: str = i18n.ENGLISH) -> str:
    """The record as text: headers, numbered moves, result, standings (and trail tables), the
    result and standings in ``language``."""
    lines = headers(record) + [""] + move_lines(record["moves"]) + [""] + ending(record, language)
    if record.get("trail"):
        lines += [""] + list(record["trail"])
    return "\n".join(line.rstrip() for line in lines) + "\n"


def header(name: str, value: Any) -> list[str]:
    """One PGN header, [Name "value"], wrapped (never past WIDTH) when the value is long."""
    text = f'[{name} "{str(value).replace(chr(34), chr(39))}"]'
    return textwrap.wrap(text, WIDTH, subsequent_indent="  ", break_on_hyphens=False) or [text]


def headers(record: dict[str, Any]) -> list[str]:
    """Game, kind, seed, options, players in seat order, result, date (UTC), whose view."""
    game = record["game"]
    options = game.get("options") or {}
    when = datetime.fromtimestamp(game["created"], timezone.utc).strftime("%Y.%m.%d")
    out = header("Game", game["id"]) + header("Kind", game["kind"]) + header("Seed", game["seed"])
    if options:
        out += header("Options", ", ".join(f"{k}={v}" for k, v in sorted(options.items())))
    out += header("Players", ", ".join(p["name"] for p in sorted(record["players"], key=lambda p: p["seat"])))
    out += header("Result", result_tag(record["result"]))
    out += header("Date", when) + header("Status", game["status"]) + header("View", record["view"])
    return out


def result_tag(result: dict[str, Any]) -> str:
    """The Result header: "*" for a game under way (as PGN), else who won or "drawn"."""
    if not result["over"]:
        return "*"
    if result["drawn"]:
        return "drawn"
    winners = result["winners"]
    return ", ".join(winners) + (" win" if len(winners) > 1 else " wins") if winners else "no winner"


def move_lines(moves: list[dict[str, Any]]) -> list[str]:
    """Each turn's number once, then its moves, one a line, wrapped under their start."""
    out: list[str] = []
    turn = None
    for move in moves:
        number = ""
        if move["turn"] != turn:
            turn = move["turn"]
            number = f"{turn}."
        out += textwrap.wrap(move_text(move), WIDTH, initial_indent=f"{number:<5}",
                             subsequent_indent=" " * 7, break_on_hyphens=False)
    return out or ["(no moves)"]


def move_text(move: dict[str, Any]) -> str:
    """One move in the game's notation, or a comment in braces for what is not an order."""
    action, who = move["action"], move.get("player")
    origin = "" if move["origin"] in ("mail", "") else f" {{{move['origin']}}}"
    if move.get("withheld"):  # what everyone was told of it, its first sentence (the JSON has all)
        told = next(iter(move.get("public") or []), "").partition(". ")[0].rstrip(".") or "an order"
        return f"{who}: {{sealed: {told}}}"
    if action == "order":
        return f"{who}: {' '.join(move['text'].split())}{origin}"
    if action == "close":
        return f"{{turn closed{by(move['origin'])}}}"
    if action == "draw":
        return f"{{drawn by agreement{by(move['origin'])}}}"
    if action == "takeback":
        return f"{{{who} takes back {' '.join(move['text'].split())}}}"
    return set_comment(move)


def set_comment(move: dict[str, Any]) -> str:
    """A position the GM made: time on a clock, a rollback, an edit (a seat leaving is one)."""
    made = move.get("set") or {}
    if made.get("kind") == "clock":
        return f"{{clock: {move['text']}}}"
    if made.get("kind") == "rollback":
        return f"{{the GM rolled back {move['text']}}}"
    return f"{{the GM set the position: {move['text']}}}"


def by(origin: str) -> str:
    return f" by {origin}" if origin and origin != "mail" else ""


def ending(record: dict[str, Any], language: str = i18n.ENGLISH) -> list[str]:
    """The result (or that the game goes on), why it ended, and the standings, in ``language``."""
    def said(text: Text) -> str:
        return str(i18n.translate(text, language))

    result = record["result"]
    if not result["over"]:
        out = [said(Text("The game is under way.")), said(Text("Standings so far:"))]
    else:
        out = [said(result_line(result["winners"], result["drawn"]))]
        if result.get("reason"):
            out += textwrap.wrap(said(Text("Why: {reason}", reason=result["reason"])), WIDTH, subsequent_indent="  ")
        out.append(said(Text("Final standings:")))
    for row in record["standings"]:
        rank = f"{row['rank']}." if row.get("rank") else ""
        score = "" if row.get("score") is None else f"{row['score']:g}"
        left = "  " + said(Text("(left)")) if row.get("left") else ""
        out.append(f"  {rank:<4}{row['name'][:40]:<40} {score:>8}{left}")
    return out
