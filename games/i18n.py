"""The games' own catalogues: games/locale/<language>/LC_MESSAGES/<game>.mo, compiled from
the .po beside each (scripts/catalogs.py).  gm chains them behind its own (gm.core.i18n);
the games never need gm to be translated."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # gettext compiles a regex when imported: loaded only for a catalogue
    import gettext

LOCALE = Path(__file__).resolve().parent / "locale"


def catalogue_files(root: Path, language: str) -> list[Path]:
    """The compiled catalogues of ``language`` under ``root`` (<language>/LC_MESSAGES/*.mo), sorted."""
    return sorted((root / language / "LC_MESSAGES").glob("*.mo"))


def chained(files: list[Path]) -> gettext.NullTranslations:
    """One catalogue of many: the first file's, falling back to the next, and so on; none: English."""
    import gettext

    first: gettext.NullTranslations = gettext.NullTranslations()
    for count, path in enumerate(files):
        with path.open("rb") as handle:
            catalogue = gettext.GNUTranslations(handle)
        if count == 0:
            first = catalogue
        else:
            first.add_fallback(catalogue)
    return first


@lru_cache(maxsize=8)
def translations(language: str) -> gettext.NullTranslations:
    """The games' catalogue of ``language`` (English: none, the texts are English)."""
    return chained(catalogue_files(LOCALE, language))
