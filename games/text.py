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

from typing import Any, Iterable, Protocol


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


def recover(text: str | None, templates: Iterable[str]) -> str | None:
    """``text`` (English, as a state stored it) as the Text of the first of ``templates`` that
    makes it, its values read back from it (plain str); else ``text`` as it is.  A state keeps
    its sentences as plain JSON strings: this gives them back their translation when loaded."""
    if not text or isinstance(text, Text):
        return text
    for template in templates:
        values = read_fields(text, template)
        if values is not None and Text(template, **values) == text:
            return Text(template, **values)
    return text


def recover_sentence(text: str, templates: Iterable[str], plurals: Iterable[tuple[str, str]] = (),
                     fields: dict[str, Iterable[str]] | None = None) -> str:
    """``text`` as recover() gives it, its fields too (``fields``: a field's name -> the templates
    of its sentences) and a count sentence (``plurals``: (singular, plural) pairs) back as its
    Plural; ``text`` as it is where none of them makes it exactly."""
    pairs = list(plurals)
    found = recover(text, [*templates, *(form for pair in pairs for form in pair)])
    if not isinstance(found, Text) or found is text:
        return text
    values = {key: recover(value, (fields or {}).get(key, ())) for key, value in found.values.items()}
    pair = next((pair for pair in pairs if found.template in pair), None)
    if pair is None:
        return Text(found.template, **values)
    count = str(found.values.get("n", ""))  # as read from the line
    if not count.isdigit():
        return text
    made = Plural(pair[0], pair[1], **{**values, "n": int(count)})
    return made if made == text else text


def read_fields(text: str, template: str) -> dict[str, str] | None:
    """The values of ``template``'s fields in ``text`` (each up to the next literal part, found by
    str.find: linear), or None where the literal parts are not there in order."""
    import string

    parts = list(string.Formatter().parse(template))
    values: dict[str, str] = {}
    at = 0
    for index, (literal, name, _spec, _conversion) in enumerate(parts):
        if not text.startswith(literal, at):
            return None
        at += len(literal)
        if name is None:
            continue
        following = parts[index + 1][0] if index + 1 < len(parts) else ""
        end = len(text) if not following else text.find(following, at)
        if end < 0:
            return None
        values[name], at = text[at:end], end
    return values if at == len(text) else None


def mark(template: str) -> str:
    """``template`` as it is, marked for the catalogues: a sentence written apart from the Text
    that says it (a table of texts, ``Text(TABLE[key], ...)``)."""
    return template


LINE_BREAK = mark("{above}\n{below}")  # two lines of one text, each translated on its own


def in_lines(lines: Iterable[str]) -> str:
    """``"\\n".join(lines)`` in English, each line's Text kept for its translation (lines said
    as one text: an answer, the standings above a report)."""
    joined: str | None = None
    for line in lines:
        joined = line if joined is None else Text(LINE_BREAK, above=joined, below=line)
    return joined if joined is not None else ""
