"""A new SQLite store gives back the pages that trimmed or deleted rows free, a few at a time."""

from __future__ import annotations

import sqlite3

from gm.store import Store


def pragma(store, name: str) -> int:
    return int(store.db.execute(f"PRAGMA {name}").fetchone()[0])


def fill_and_empty(store) -> None:
    """Rows of 30 KB each, then none: their pages are free."""
    with store.write():
        for _ in range(100):
            store.db.execute("INSERT INTO history (game_id, turn, actor, action, detail, at) "
                             "VALUES ('g1', 1, 'gm', 'note', :detail, 0)", {"detail": "x" * 30000})
    with store.write():
        store.db.execute("DELETE FROM history")


def test_a_new_store_gives_back_its_free_pages_as_asked(tmp_path):
    store = Store(tmp_path / "gm.sqlite")
    try:
        assert pragma(store, "auto_vacuum") == 2  # incremental
        fill_and_empty(store)
        free, pages = pragma(store, "freelist_count"), pragma(store, "page_count")
        assert free >= 700
        assert store.release_free_pages(10) == 10
        assert pragma(store, "freelist_count") == free - 10
        assert pragma(store, "page_count") <= pages - 10  # (and any pointer-map page they needed)
        while store.release_free_pages(1000):
            pass
        assert pragma(store, "freelist_count") == 0 and pragma(store, "page_count") <= pages - free
    finally:
        store.close()


def test_a_file_made_without_auto_vacuum_keeps_its_free_pages(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE kept (a)")  # made by another tool, before gm opened it
    db.close()
    store = Store(path)
    try:
        assert pragma(store, "auto_vacuum") == 0
        fill_and_empty(store)
        free = pragma(store, "freelist_count")
        assert free and store.release_free_pages(10) == 0 and pragma(store, "freelist_count") == free
    finally:
        store.close()
