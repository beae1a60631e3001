"""Sentences a catalogue can give in another language: English as they are made, the
template and its values kept for a translation.

``Text("no piece at {cell}", cell="c3")`` is the str "no piece at c3" everywhere it is
used as a str (tests, logs, the English mail), and carries "no piece at {cell}" and
{"cell": "c3"} for ``localize``, which looks the template up in a catalogue (GNU gettext's
machine objects: gm.core.i18n gives gm's and the games' catalogues as one) and fills in
the values, themselves localized when they are Texts.  A template missing from a
catalogue stays English (gettext's rule: that text only).  Joining a Text to a str gives
a plain English str: a sentence is translated whole or not at all.
"""

from __future__ import annotations

from typing import Any, Protocol


class Catalogue(Protocol):
    """What ``localize`` needs of a catalogue: gettext.NullTranslations and its kin."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class Text(str):
    """An English sentence from ``template`` (str.format fields) and ``values``."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, /, **values: Any) -> Text:
        self = super().__new__(cls, template.format(**values) if values else template)
        self.template = template
        self.values = values
        return self

    def __reduce__(self) -> Any:  # copy and pickle keep the template
        return (rebuild, (type(self), self.template, self.values, getattr(self, "plural", None)))

    def pattern(self, catalogue: Catalogue) -> str:
        """The template in the catalogue's language (English where it has none)."""
        return catalogue.gettext(self.template)


class Plural(Text):
    """A sentence with a count: ``Plural("{n} game", "{n} games", n=3)`` -> "3 games"; the
    catalogue picks the form its language uses for ``n`` (German and French have their own rule)."""

    plural: str

    def __new__(cls, singular: str, plural: str, /, **values: Any) -> Plural:
        n = values["n"]
        self = super().__new__(cls, singular if n == 1 else plural, **values)
        self.template, self.plural = singular, plural
        return self

    def pattern(self, catalogue: Catalogue) -> str:
        return catalogue.ngettext(self.template, self.plural, self.values["n"])


def rebuild(cls: type, template: str, values: dict[str, Any], plural: str | None) -> Text:
    """Text's unpickler (module level, as pickle needs)."""
    if plural is not None:
        return Plural(template, plural, **values)
    return cls(template, **values)


def localize(value: Any, catalogue: Catalogue) -> Any:
    """``value`` in the catalogue's language when it is a Text (its Text values too); any other
    value as it is.  A catalogue entry whose fields do not match gives the English sentence."""
    if not isinstance(value, Text):
        return value
    values = {key: localize(item, catalogue) for key, item in value.values.items()}
    try:
        return value.pattern(catalogue).format(**values)
    except (KeyError, IndexError, ValueError):
        return str.__str__(value)


def reason(exc: BaseException) -> str:
    """What an error says, to pass on to a player: the Text it was raised with (a game's, or the
    service's), to be said in the reader's language; else its English words (str(exc))."""
    said = exc.args[0] if len(exc.args) == 1 else None
    return said if isinstance(said, Text) else str(exc)


def mark(template: str) -> str:
    """``template`` as it is, marked for the catalogues: a sentence written apart from the Text
    that says it (a table of texts, ``Text(TABLE[key], ...)``)."""
    return template
