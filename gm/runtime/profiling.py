"""A cProfile of a daemon's threads, for benchmarks/shared_store.py --profile.

With GM_PROFILE_DIR set, each profiled thread of a `gm run` daemon writes its
profile to ``<dir>/<pid>-<thread>.prof`` when it ends (SIGTERM ends a daemon
cleanly), timed by the thread's CPU time.  Not profiled: the password checks'
worker threads and the SMTP child process.  Unset, this costs one environment
lookup per thread.
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
    import time

    # Each thread's CPU, not its waits: a judge waiting on PostgreSQL or an IDLE read costs the
    # cores nothing, and a wall-clock profile put the poll() of IDLE and psycopg's wait on top.
    profile = cProfile.Profile(time.thread_time)
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        Path(where).mkdir(parents=True, exist_ok=True)
        profile.dump_stats(str(Path(where) / f"{os.getpid()}-{thread}.prof"))
