"""The one Jinja2 environment per output kind: text (reports, mail) and HTML (the archive site).

Templates live in the top-level ``templates`` package, installed with gm.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

import jinja2


def template_dir() -> str:
    return str(files("templates"))


@lru_cache(maxsize=2)
def environment(html: bool = False) -> jinja2.Environment:
    """Strict (an unknown name is an error); HTML output escapes every value."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir()),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=not html,
        autoescape=html,
        auto_reload=False,  # templates are part of the release: no stat() per render
    )
