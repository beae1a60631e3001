"""The languages gm writes in, and their catalogues.

Every player-facing sentence is English as the code makes it (games.text.Text, or a
template's ``_()`` and ``{% trans %}``); a catalogue gives it in German or French.
gm's catalogues are gm/locale/<language>/LC_MESSAGES/*.mo, one per area of the code, with
the games' own (games.i18n) behind them; scripts/catalogs.py extracts and compiles them.
English loads nothing.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games import i18n as games_i18n
from games.text import Text, localize

if TYPE_CHECKING:  # gettext compiles a regex when imported: loaded for a catalogue only
    import gettext

ENGLISH = "en"
LANGUAGES = ("en", "de", "fr")  # the order HELP lists them in
NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}  # each in its own language
LOCALE = Path(__file__).resolve().parent.parent / "locale"


def language_code(word: str) -> str | None:
    """``de``, ``DE``, ``de-AT``, ``Deutsch`` -> "de"; None: not a language gm writes."""
    head = word.strip().lower().replace("_", "-").split("-")[0]
    for code, name in NAMES.items():
        if head in (code, name.lower(), name.lower().replace("ç", "c")):
            return code
    return None


class Untranslated:
    """English's catalogue: every text as the code wrote it (gettext's NullTranslations without
    importing gettext, which an English mail never needs)."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


@lru_cache(maxsize=8)
def translations(language: str) -> gettext.NullTranslations | Untranslated:
    """gm's catalogue of ``language`` with the games' behind it; English (or an unknown
    language): none, every text as the code wrote it."""
    if language not in LANGUAGES or language == ENGLISH:
        return Untranslated()
    catalogue = games_i18n.chained(games_i18n.catalogue_files(LOCALE, language))
    catalogue.add_fallback(games_i18n.translations(language))
    return catalogue


def translate(value: Any, language: str) -> Any:
    """A Text in ``language`` (a plain str: a fixed string, such as ``str(Text)``, or notation, as it is)."""
    if language == ENGLISH or not isinstance(value, Text):
        return value
    return localize(value, translations(language))


def localized(value: Any, language: str) -> Any:
    """``value`` with every Text in it translated: into dicts, lists and tuples (a template's
    values), other objects as they are."""
    if language == ENGLISH:
        return value
    if isinstance(value, Text):
        return localize(value, translations(language))
    if isinstance(value, dict):
        return {key: localized(item, language) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(localized(item, language) for item in value) if type(value) in (list, tuple) \
            else value
    return value


def format_number(value: float, language: str) -> str:
    """``value`` as a reader of ``language`` writes it (CLDR's through Babel): 1512.5 is
    ``1.512,5`` in German, ``1 512,5`` in French; English as Python writes it, Babel unloaded."""
    if language not in LANGUAGES or language == ENGLISH:
        return str(value)
    from babel.numbers import format_decimal

    return format_decimal(value, locale=language, decimal_quantization=False)
