"""gm's version (``gm.__version__``, the one place it is written; pyproject.toml reads it from
there), recorded with every report gm renders, so that `gm verify` knows a report worded by
another version."""

from __future__ import annotations

from gm import __version__


def gm_version() -> str:
    return __version__
