"""A cProfile of a daemon's threads, for benchmarks/shared_store.py --profile.

With GM_PROFILE_DIR set, each profiled thread of a `gm run` daemon writes its
profile to ``<dir>/<pid>-<thread>.prof`` when it ends (SIGTERM ends a daemon
cleanly).  Unset, this costs one environment lookup per thread.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Iterator

PROFILE_ENV = "GM_PROFILE_DIR"


@contextlib.contextmanager
def profiled(thread: str) -> Iterator[None]:
    where = os.environ.get(PROFILE_ENV)
    if not where:
        yield
        return
    import cProfile

    profile = cProfile.Profile()
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        Path(where).mkdir(parents=True, exist_ok=True)
        profile.dump_stats(str(Path(where) / f"{os.getpid()}-{thread}.prof"))
