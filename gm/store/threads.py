"""The root of each reader's thread of a game: the Message-ID of the game's first mail to them.

Read once a transaction per game (on PostgreSQL with the rest of the game: gm.store.gameload),
written at the commit with the transaction's other rows (gm.store.deferred); a root once kept
is never replaced, so two writers racing on one reader keep the first.
"""

from __future__ import annotations

from typing import Any, Callable

from gm.store import migrations
from gm.store.repository import Repository
from gm.store.sql import bound, insert_of, prepared

ROOTS = prepared(lambda sa, t: sa.select(t.mail_threads.c.address, t.mail_threads.c.root).where(
    t.mail_threads.c.game_id == sa.bindparam("game")))


def _keep_root(dialect: str) -> Callable[[Any, Any], Any]:
    def statement(sa: Any, t: Any) -> Any:
        columns = ("game_id", "address", "root", "made")
        return insert_of(dialect)(t.mail_threads).values(
            {c: sa.bindparam(c) for c in columns}).on_conflict_do_nothing(index_elements=["game_id", "address"])
    return statement


KEEP_ROOT = prepared(_keep_root("sqlite"), postgresql=_keep_root("postgresql"))
THREADS_STEP = 28  # the schema step that made mail_threads


def in_schema() -> bool:
    """Whether this gm's schema has the table: a test that rewinds the steps runs today's code as
    an older gm, which threaded no mail."""
    return migrations.latest() >= THREADS_STEP


class MailThreads(Repository):
    """Each game's thread roots, by reader."""

    def roots(self, game_id: str) -> dict[str, str]:
        """The root Message-ID of each reader (lower-cased address) of ``game_id``."""
        if not in_schema():
            return {}
        return self.store.remembered("mail_threads", ("game", game_id), lambda: {
            r["address"]: r["root"] for r in ROOTS.run(self.store, game=game_id).fetchall()})

    def keep_root(self, game_id: str, address: str, root: str, now: float) -> None:
        """``root`` begins the thread of ``address`` in ``game_id``, unless one began it already."""
        self._require_tx()
        if not in_schema():
            return
        address = address.lower()
        roots = dict(self.roots(game_id))
        if address in roots:
            return
        roots[address] = root
        kind = self.store.kind
        self.store.defer("mail_threads", "keep", lambda rows: [bound(KEEP_ROOT, kind, dict(
            zip(("game_id", "address", "root", "made"), row))) for row in rows], (game_id, address, root, now))
        self.store.remember_written("mail_threads", ("game", game_id), roots)
