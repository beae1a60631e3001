"""The one Jinja2 environment per output kind: text (reports, mail) and HTML (the archive site).

Templates live in the top-level ``templates`` package, installed with gm.
"""

from __future__ import annotations

import hashlib
import logging
from functools import lru_cache
from typing import Callable

import jinja2
import jinja2.bccache
import jinja2.filters

from gm.core import i18n

log = logging.getLogger(__name__)


def template_dir() -> str:
    """The folder of the templates package (package data: a folder wherever gm is installed,
    as Jinja's loader needs), found without importlib.resources' machinery."""
    import templates

    return str(list(templates.__path__)[0])


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept across processes, in Jinja's own per-user folder
    (<tmp>/_jinja2-cache-<uid>, mode 0700, its owner checked).  Compiling the report templates
    costs a process 30-150 ms (profiled: up to 1.5 ms an order of a 100-order
    `gm run --once`, and the whole of it for each `gm ingest` an MTA starts).  An entry is
    used only for the very source it was compiled from (Jinja checks a checksum of it).  A
    cache that cannot be written is no fault: the template is compiled each time then."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError as exc:
            log.debug("template cache not written: %s", exc)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except OSError as exc:
            log.debug("template cache not read: %s", exc)


def template_cache(options: dict) -> TemplateCache | None:
    """The cache of an environment made with ``options``, or None where Jinja finds no safe folder
    for it (then every process compiles).  Jinja keys an entry by the template's name and
    source alone, but the code compiled depends on the options too (trim_blocks,
    autoescape, ...): each set of options, and each template folder, gets entries of its own."""
    tag = hashlib.sha256(repr((sorted(options.items()), template_dir())).encode()).hexdigest()[:16]
    try:
        return TemplateCache(pattern=f"__gm_{tag}_%s.cache")
    except (OSError, RuntimeError) as exc:
        log.debug("no template cache: %s", exc)
        return None


@lru_cache(maxsize=8)
def environment(html: bool = False, language: str = i18n.ENGLISH) -> jinja2.Environment:
    """Strict (an unknown name is an error); HTML output escapes every value.  Each language
    has its own: ``_()``, ``ngettext()`` and ``{% trans %}`` read its catalogue (Jinja's i18n
    extension), every printed value that is a games.text.Text is said in it, and the global
    ``language`` names it (an HTML page's lang)."""
    options = dict(
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=not html,
        autoescape=html,
        auto_reload=False,  # templates are part of the release: no stat() per render
    )
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(template_dir()), undefined=jinja2.StrictUndefined,
                             bytecode_cache=template_cache(dict(options, i18n=True, finalize=language != i18n.ENGLISH)),
                             extensions=["jinja2.ext.i18n"],
                             finalize=None if language == i18n.ENGLISH else translated(language), **options)
    env.install_gettext_translations(i18n.translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.globals["language"] = language
    env.filters["wordwrap"] = wordwrap
    env.filters["t"] = said
    return env


def translated(language: str) -> Callable[[object], object]:
    """The finalize of ``language``'s environment: a Text printed is printed in that language."""
    return lambda value: i18n.translate(value, language)


@jinja2.pass_environment
def said(env: jinja2.Environment, value: object) -> object:
    """The ``t`` filter: a Text in the environment's language before another filter works on it
    (``{{ message | t | upper }}``); wordwrap does it itself."""
    return i18n.translate(value, env.globals["language"])


def sentence(template: str, macro: str, language: str = i18n.ENGLISH, **values: object) -> str:
    """The macro ``macro`` of the text template ``template`` with ``values``, its lines joined with
    a space: a message written across lines in the template, said as one line (a refusal, a note
    that is wrapped where it is placed)."""
    text = getattr(environment(language=language).get_template(template).module, macro)(**values)
    return " ".join(line.strip() for line in str(text).strip().split("\n"))


@jinja2.pass_environment
def wordwrap(env: jinja2.Environment, s: str, width: int = 79, break_long_words: bool = True,
             wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    """Jinja's wordwrap, giving exactly its text, without textwrap's cost where it is plain.

    Every report wraps its list of legal orders (hundreds of words), and textwrap's
    regex chunking was a tenth of the CPU of judging an order.  Words separated by
    single spaces, none with a hyphen or longer than the width, wrap greedily: a
    word goes on the line if it fits.  Anything else goes to Jinja's own filter.
    """
    s = i18n.translate(s, env.globals["language"])
    words = s.split(" ")
    plain = ("-" not in s and "\n" not in s and "\t" not in s and "\r" not in s and "" not in words
             and all(len(word) <= width for word in words))
    if not plain or not s.isprintable():
        return jinja2.filters.do_wordwrap(env, s, width, break_long_words, wrapstring, break_on_hyphens)
    lines, line = [], words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return (env.newline_sequence if wrapstring is None else wrapstring).join(lines)
