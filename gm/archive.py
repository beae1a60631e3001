"""The archive of turn reports: `gm history` and a static HTML site.

    gm archive build DIR                 index.html + one page per game
    python -m gm.archive screenshot DIR out.png [PAGE]
                                         a PNG of a page, by headless Chromium
                                         (Debian: apt-get install -y chromium)

A game's page shows each turn's report as it was mailed (the ASCII board in
a <pre> block), links to the previous and next turn, press sent to ALL and
the final result.  Reports are the ones a player received: sealed orders of
an open turn never appear.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from gm import deadlines

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars"]


class BrowserMissing(RuntimeError):
    pass


def stamp(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


# --- gm history -----------------------------------------------------------------
def history_text(engine, game_id: str, turn: int | None = None, log_only: bool = False) -> str:
    deadlines.ensure_schema(engine.store)
    loaded = engine.load(game_id)
    gid = loaded.id
    out = [f"History of game {gid} ({loaded.rules.title}, {loaded.row['status']})"
           + (f", turn {turn}" if turn is not None else ""), ""]
    logs = engine.store.all("SELECT * FROM history WHERE game_id = ? ORDER BY id", gid)
    out.append("Log (when, turn, who, what):")
    for row in logs:
        if turn is not None and row["turn"] != turn:
            continue
        out.append(f"  {stamp(row['at'])}  T{row['turn']:<3} {row['actor']:<14} {row['action']:<10} "
                   f"{row['detail'] or ''}".rstrip())
    if log_only:
        return "\n".join(out) + "\n"
    sql = "SELECT * FROM reports WHERE game_id = ?" + (" AND turn = ?" if turn is not None else "") + " ORDER BY id"
    rows = engine.store.all(sql, gid, *([turn] if turn is not None else []))
    out += ["", f"Messages sent ({len(rows)}):"]
    for row in rows:
        who = row["player"] or "archive"
        out.append("")
        out.append(f"----- turn {row['turn']}, {row['kind']} to {who}, {stamp(row['created'])} -----")
        out.append(row["body"].rstrip())
    return "\n".join(out) + "\n"


# --- the site ---------------------------------------------------------------------
@lru_cache(maxsize=1)
def environment():
    import jinja2

    from gm.render import template_dir

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir()),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def page_name(game_id: str) -> str:
    return f"game-{game_id}.html"


def game_data(engine, game_id: str) -> dict:
    loaded = engine.load(game_id)
    rules, state, store = loaded.rules, loaded.state, engine.store
    first = loaded.players[0]["name"]
    turns: dict[int, dict] = {}
    for row in store.all("SELECT * FROM reports WHERE game_id = ? AND kind = 'report' ORDER BY seq, id",
                         loaded.id):
        # one report per turn: the latest one, preferably as the first seat saw it
        entry = turns.setdefault(row["turn"], {"turn": row["turn"], "report": None, "press": [], "who": None})
        if entry["report"] is None or row["player"] == first or entry["who"] != first:
            entry["report"], entry["who"] = row["body"], row["player"]
    for row in store.all("SELECT * FROM reports WHERE game_id = ? AND kind = 'press' AND player IS NULL "
                         "ORDER BY id", loaded.id):
        if "\nTo: ALL\n" in row["body"]:
            entry = turns.setdefault(row["turn"], {"turn": row["turn"], "report": None, "press": [], "who": None})
            entry["press"].append(row["body"].split("\n--\n")[0].rstrip())
    ordered = [turns[t] for t in sorted(turns)]
    for i, entry in enumerate(ordered):
        entry["prev"] = ordered[i - 1]["turn"] if i > 0 else None
        entry["next"] = ordered[i + 1]["turn"] if i + 1 < len(ordered) else None
    result = store.one("SELECT * FROM results WHERE game_id = ?", loaded.id)
    over = rules.is_over(state) or loaded.row["status"] == "finished"
    scores = rules.scores(state)
    winners = rules.winners(state) if rules.is_over(state) else []
    reason = None
    if result is not None:
        reason = result["reason"]
        if result["winners"]:
            winners = json.loads(result["winners"])
    return {
        "id": loaded.id,
        "title": rules.title,
        "kind": rules.kind,
        "status": loaded.row["status"],
        "over": over,
        "turn": rules.turn(state),
        "players": [{"name": p["name"], "score": scores.get(p["name"], 0), "active": bool(p["active"]),
                     "winner": p["name"] in winners} for p in loaded.players],
        "winners": winners,
        "reason": reason,
        "created": stamp(loaded.row["created"]),
        "updated": stamp(loaded.row["updated"]),
        "turns": ordered,
        "page": page_name(loaded.id),
    }


def build(engine, directory: str | Path, games: list[str] | None = None) -> Path:
    """Write the site; returns the index path."""
    deadlines.ensure_schema(engine.store)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    env = environment()
    ids = games or [row["id"] for row in engine.store.games()]
    data = [game_data(engine, gid) for gid in ids]
    built = datetime.fromtimestamp(engine.clock(), timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    for game in data:
        html = env.get_template("archive/game.html.j2").render(game=game, built=built)
        _write(directory / game["page"], html)
    _write(directory / "index.html", env.get_template("archive/index.html.j2").render(games=data, built=built))
    _write(directory / "archive.css", env.get_template("archive/archive.css.j2").render())
    return directory / "index.html"


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# --- the browser --------------------------------------------------------------------
def find_browser() -> str:
    for name in (os.environ.get("GM_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise BrowserMissing("no headless Chromium found: apt-get install -y chromium "
                         "(or set GM_CHROMIUM to a Chrome/Chromium binary)")


def _chromium(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    browser = find_browser()
    with tempfile.TemporaryDirectory(prefix="gm-chromium-") as profile:
        return subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, timeout=timeout, check=False)


def dump_dom(page: str | Path) -> str:
    """The DOM of a page after Chromium loaded and laid it out."""
    result = _chromium(["--dump-dom", Path(page).resolve().as_uri()])
    if result.returncode != 0:
        raise RuntimeError(f"chromium failed: {result.stderr.decode(errors='replace')[-500:]}")
    return result.stdout.decode("utf-8", errors="replace")


def screenshot(page: str | Path, out: str | Path, size: str = "1000,1400") -> Path:
    """A PNG of a page, for a person to look at."""
    out = Path(out).resolve()
    result = _chromium([f"--screenshot={out}", f"--window-size={size}", Path(page).resolve().as_uri()])
    if result.returncode != 0 or not out.exists():
        raise RuntimeError(f"chromium failed: {result.stderr.decode(errors='replace')[-500:]}")
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] != "screenshot":
        print("usage: python -m gm.archive screenshot DIR out.png [PAGE]", file=sys.stderr)
        return 2
    directory, out = Path(argv[1]), Path(argv[2])
    page = directory / (argv[3] if len(argv) > 3 else "index.html")
    if directory.is_file():
        page = directory
    try:
        print(screenshot(page, out))
    except BrowserMissing as exc:
        print(f"gm: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
