"""gm backup and gm restore: a store as one portable SQLite file, and back.

A SQLite store is copied with SQLite's online backup API (a reader: the daemon
goes on writing); a PostgreSQL store is read in one snapshot (Store.snapshot)
and its rows written into a new SQLite store (gm.store.copy), so a backup of
either back end restores into either.  The file is written beside its name,
made 0600, and renamed into place.  A restore opens a copy of the backup (opening
migrates), never the backup itself.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from gm.core import filemodes
from gm.store import migrations
from gm.store.base import Store
from gm.store.connection import SqliteStore
from gm.store.copy import Progress, copy_rows, quiet
from gm.store.errors import StoreError
from gm.store.sql import prepared

GAMES = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(t.games))


def backup(store: Store, path: str | Path, progress: Progress = quiet) -> int:
    """Write ``store`` to the SQLite file ``path`` (replacing it); returns the games in the backup."""
    path = Path(path)
    if isinstance(store, SqliteStore) and path.resolve() == Path(store.path).resolve():
        raise StoreError(f"{path} is the store itself: write the backup to another file")
    part = path.with_name(path.name + ".part")
    part.unlink(missing_ok=True)
    try:
        if isinstance(store, SqliteStore):
            filemodes.create_file(part)
            target = sqlite3.connect(str(part))
            try:
                store.db.backup(target, progress=lambda status, left, total: progress(total - left, total, "pages"))
            finally:
                target.close()
        else:
            copy = SqliteStore(part)
            try:
                copy_rows(store, copy, progress=progress)
            finally:
                copy.close()
        games = count_games(part)
        os.replace(part, path)
    except (OSError, sqlite3.Error) as exc:
        part.unlink(missing_ok=True)
        raise StoreError(f"cannot write the backup {path}: {exc}") from exc
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return games


def count_games(path: Path) -> int:
    db = sqlite3.connect(str(path))
    try:
        return int(db.execute(*GAMES.sql("sqlite")).fetchone()[0])  # a file, not (yet) a store
    finally:
        db.close()


@contextmanager
def opened(path: str | Path) -> Iterator[Store]:
    """The backup at ``path`` as a store (on a temporary copy: see the module doc)."""
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"no backup at {path}")
    with tempfile.TemporaryDirectory(prefix="gm-restore-") as folder:
        copy = Path(folder) / "backup.sqlite"
        shutil.copyfile(path, copy)
        db = sqlite3.connect(str(copy))
        try:
            step = migrations.current_step(db)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path} is not a gm backup: {exc}") from exc
        finally:
            db.close()
        if step == 0:
            raise StoreError(f"{path} is not a gm backup: it holds no games table")
        store = SqliteStore(copy, create=False)
        try:
            yield store
        finally:
            store.close()
