"""gm's version, as the installed package metadata gives it (pyproject.toml); recorded with every
report gm renders, so that `gm verify` knows a report worded by another version."""

from __future__ import annotations

import functools
from importlib import metadata


@functools.cache  # read once per process: each read parses the METADATA file (1.5 ms)
def gm_version() -> str:
    try:
        return metadata.version("gm")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"
