"""The message catalogues: extract every sentence, update each language's .po, compile the .mo.

    python scripts/catalogs.py            # update every area's .po files and compile them
    python scripts/catalogs.py --check    # exit 1 when any .po or .mo is not what the code asks

An area is a set of source files with one .po per language (AREAS; each area has an owner,
so no two changes write one file).  Sentences are what the code marks: ``Text("...")``,
``Plural("...", "...")`` and ``mark("...")`` (games.text) in Python, ``_()``, ``ngettext()``
and ``{% trans %}`` in templates (Jinja's i18n extension).  Updating keeps every translation
whose English is unchanged, adds the new sentences untranslated and drops the ones gone;
tests/core/test_catalogs.py then fails until each is translated.  The .mo files are compiled
with Babel and committed: gm reads them with the standard library's gettext.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LANGUAGES = ("de", "fr")  # English is the source
GM_LOCALE, GAMES_LOCALE = ROOT / "gm" / "locale", ROOT / "games" / "locale"
GAMES = ("fuzzy_borders", "neighbors", "phalanx", "pivot_pawns", "proximity")

# name -> (folder of its catalogues, the files it covers as glob patterns under ROOT); a file
# matched by two areas belongs to the first listed.
AREAS: dict[str, tuple[Path, tuple[str, ...]]] = {
    "settings": (GM_LOCALE, ("gm/service/people/playersettings.py", "gm/service/people/setcommands.py")),
    "wiring": (GM_LOCALE, tuple(f"gm/service/outgoing/{name}.py" for name in (
        "outbox", "reportmail", "reports", "replies", "letters", "digests")) + (
        "gm/service/table/deadlines.py", "gm/service/records/audit.py")),
    "core": (GM_LOCALE, ("gm/core/*.py", "gm/mail/*.py", "gm/service/*.py", "gm/cli/*.py",
                         "templates/mail/help.txt.j2", "gm/service/people/mailcommands.py",
                         "gm/service/intake/words.py", "gm/service/intake/commands.py")),
    "mail": (GM_LOCALE, ("templates/mail/*.j2", "templates/report.txt.j2", "gm/present/reports.py",
                         "gm/present/mailhtml.py", "gm/present/standings.py", "gm/present/kept.py",
                         "gm/present/calendar.py", "gm/present/recordtext.py", "gm/present/feeds.py",
                         "gm/present/pictures/*.py")),
    "archive": (GM_LOCALE, ("templates/archive/*.j2", "gm/present/archive.py", "gm/present/community.py")),
    "intake": (GM_LOCALE, ("gm/service/intake/*.py", "gm/service/outgoing/*.py")),
    "play": (GM_LOCALE, ("gm/service/play/*.py", "gm/service/records/*.py", "gm/service/table/*.py")),
    "people": (GM_LOCALE, ("gm/service/people/*.py",)),
    "games": (GAMES_LOCALE, ("games/*.py",)),
    **{game: (GAMES_LOCALE, (f"games/{game}/*.py", f"templates/{game.replace('_', '-')}/*.j2"))
       for game in GAMES},
}
FIXED_DATE = datetime.datetime(2026, 11, 29, tzinfo=datetime.timezone.utc)  # no churn per run
MARKERS = {"Text": 1, "Plural": 2, "mark": 1}


def python_messages(path: Path) -> list[str | tuple[str, str]]:
    """The sentences a Python file marks, in order (an f-string marked is an error: its
    fields cannot be translated)."""
    found: list[str | tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else None
        count = MARKERS.get(name or "")
        if not count or len(node.args) < count:
            continue
        args = node.args[:count]
        if any(isinstance(arg, ast.JoinedStr) for arg in args):
            raise SystemExit(f"{path}:{node.lineno}: an f-string marked for translation")
        if all(isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in args):
            texts = [arg.value for arg in args]  # type: ignore[attr-defined]
            found.append(texts[0] if count == 1 else (texts[0], texts[1]))
    return found


def template_messages(path: Path) -> list[str | tuple[str, str]]:
    """The sentences of a template (``_()``, ``ngettext()``, ``{% trans %}``), in order."""
    from gm.present.templates import environment

    found: list[str | tuple[str, str]] = []
    for _line, _function, message in environment().extract_translations(path.read_text()):
        if isinstance(message, str):
            found.append(message)
        elif message and message[0] is not None:
            found.append((message[0], message[1]) if len(message) > 1 and message[1] else message[0])
    return found


def area_files(area: str) -> list[Path]:
    """The files of an area, those of an area listed before it left out."""
    earlier = set()
    for name, (_root, patterns) in AREAS.items():
        if name == area:
            break
        earlier |= {path for pattern in patterns for path in ROOT.glob(pattern)}
    return [path for pattern in AREAS[area][1] for path in sorted(ROOT.glob(pattern)) if path not in earlier]


def area_messages(area: str) -> list[str | tuple[str, str]]:
    """Every sentence of an area, each once, in the order of its files and lines."""
    seen: dict[str, str | tuple[str, str]] = {}
    for path in area_files(area):
        read = template_messages if path.suffix == ".j2" else python_messages
        for message in read(path):
            seen.setdefault(message if isinstance(message, str) else message[0], message)
    return list(seen.values())


def po_path(area: str, language: str) -> Path:
    return AREAS[area][0] / language / "LC_MESSAGES" / f"{area}.po"


def updated(area: str, language: str):  # -> babel.messages.Catalog
    """The area's catalogue of ``language`` with the code's sentences, translations kept."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    old = None
    path = po_path(area, language)
    if path.exists():
        with path.open("rb") as handle:
            old = read_po(handle, locale=language)
    new = Catalog(locale=language, domain=area, project="gm", version="0.2", fuzzy=False,
                  creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                  copyright_holder="the gm authors", msgid_bugs_address="")
    for message in area_messages(area):
        before = old.get(message if isinstance(message, str) else message[0]) if old else None
        string = before.string if before is not None and before.id == message else \
            ("" if isinstance(message, str) else ("",) * new.num_plurals)
        new.add(message, string, flags=before.flags if before is not None and before.id == message else ())
    return new


def rendered(catalog) -> tuple[bytes, bytes]:
    """The .po and the .mo of a catalogue, as bytes."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import write_po

    po, mo = io.BytesIO(), io.BytesIO()
    write_po(po, catalog, width=100, omit_header=False, sort_output=False, include_lineno=False)
    write_mo(mo, catalog, use_fuzzy=False)
    return po.getvalue(), mo.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when out of date")
    parser.add_argument("areas", nargs="*", help="only these areas (default: all)")
    args = parser.parse_args()
    stale = []
    for area in args.areas or AREAS:
        for language in LANGUAGES:
            po, mo = rendered(updated(area, language))
            path = po_path(area, language)
            for target, data in ((path, po), (path.with_suffix(".mo"), mo)):
                if not target.exists() or target.read_bytes() != data:
                    stale.append(str(target.relative_to(ROOT)))
                    if not args.check:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(data)
    for name in stale:
        print(("out of date: " if args.check else "written: ") + name)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
