"""The catalogues: complete in German and French, each placeholder kept, checked by pybabel,
compiled as committed; and the machinery that reads them (games.text, gm.core.i18n)."""

from __future__ import annotations

import copy
import pickle
import string
import subprocess
import sys
from pathlib import Path

import pytest

from games.text import Plural, Text, localize
from gm.core import i18n

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import catalogs  # noqa: E402

CATALOGUES = [(area, language) for area in catalogs.AREAS for language in catalogs.LANGUAGES]


def fields(text: str) -> set[str]:
    """The placeholders of a sentence: str.format's {name} and the templates' %(name)s."""
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    rest = text.replace("%%", "")
    while "%(" in rest:
        rest = rest[rest.index("%(") + 2:]
        names.add("%" + rest[:rest.index(")")])
    return names


def read(area: str, language: str):
    from babel.messages.pofile import read_po

    with catalogs.po_path(area, language).open("rb") as handle:
        return read_po(handle, locale=language)


@pytest.mark.parametrize("area,language", CATALOGUES)
def test_each_catalogue_is_what_the_code_asks_and_compiled(area, language):
    po, mo = catalogs.rendered(catalogs.updated(area, language))
    path = catalogs.po_path(area, language)
    assert path.read_bytes() == po, f"{path}: run python scripts/catalogs.py"
    assert path.with_suffix(".mo").read_bytes() == mo, f"{path}: run python scripts/catalogs.py"


@pytest.mark.parametrize("area,language", CATALOGUES)
def test_every_sentence_is_translated_with_its_placeholders(area, language):
    missing, broken = [], []
    for message in read(area, language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or message.fuzzy:
            missing.append(ids[0])
            continue
        wanted = fields(ids[-1]) | fields(ids[0])
        for text in strings:
            extra = fields(text) - wanted
            lost = wanted - fields(text) - ({"n", "%n", "%num"} if len(ids) > 1 else set())
            if extra or lost:
                broken.append((ids[0], text))
    assert not missing, f"{area} ({language}) lacks {len(missing)}: {missing[:5]}"
    assert not broken, f"{area} ({language}) placeholders differ: {broken[:5]}"


@pytest.mark.parametrize("area,language", CATALOGUES)
def test_pybabel_compiles_each_catalogue_without_an_error(area, language, tmp_path):
    path = catalogs.po_path(area, language)
    out = tmp_path / "out.mo"
    done = subprocess.run([str(Path(sys.executable).with_name("pybabel")), "compile", "-i", str(path),
                           "-o", str(out), "-l", language, "--statistics"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "error" not in done.stderr.lower(), done.stderr
    assert out.read_bytes() == path.with_suffix(".mo").read_bytes()


def test_a_text_is_english_and_keeps_its_template_through_copies():
    text = Text("no piece at {cell}", cell=Text("the {side} corner", side="left"))
    assert text == "no piece at the left corner"
    for again in (copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert again == text and again.template == "no piece at {cell}"
        assert again.values["cell"].template == "the {side} corner"
    many = Plural("{n} game", "{n} games", n=3)
    assert many == "3 games" and Plural("{n} game", "{n} games", n=1) == "1 game"
    assert pickle.loads(pickle.dumps(many)).plural == "{n} games"


class Catalogue:
    """A catalogue of two sentences, with a wrong entry: what localize does with each."""

    table = {"no piece at {cell}": "keine Figur auf {cell}", "the {side} corner": "die {side} Ecke",
             "bad {x}": "schlecht {y}"}

    def gettext(self, message):
        return self.table.get(message, message)

    def ngettext(self, singular, plural, n):
        return "{n} Spiel" if n == 1 else "{n} Spiele"


def test_localize_translates_a_text_and_its_texts_and_falls_back_per_sentence():
    text = Text("no piece at {cell}", cell=Text("the {side} corner", side="left"))
    assert localize(text, Catalogue()) == "keine Figur auf die left Ecke"
    assert localize(Text("unknown {x}", x=1), Catalogue()) == "unknown 1"  # not in it: English
    assert localize(Text("bad {x}", x=1), Catalogue()) == "bad 1"  # a broken entry: English
    assert localize(Plural("{n} game", "{n} games", n=2), Catalogue()) == "2 Spiele"
    assert localize("plain", Catalogue()) == "plain"


def test_languages_are_read_from_codes_and_names():
    assert [i18n.language_code(word) for word in ("de", "DE", "de-AT", "Deutsch", "francais", "fr_CA",
                                                  "en", "es", "")] == \
        ["de", "de", "de", "de", "fr", "fr", "en", None, None]


def test_english_translates_nothing_and_localized_walks_values():
    text = Text("no piece at {cell}", cell="c3")
    assert i18n.translate(text, "en") is text
    values = {"a": [text, ("x", text)], "b": 3}
    assert i18n.localized(values, "en") is values
    assert i18n.localized(values, "de") == values  # no German for it yet: English, walked
