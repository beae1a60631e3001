"""Daemons sharing one mailbox take it by slices, as Mailman 3's runners share a queue.

Each daemon judges the messages whose key falls in its slice: the key is the game a mail
names, else its sender (gm.service.intake.ingest.slice_key), so one game's mail is judged
by one daemon in the order it came.  The living daemons are the heartbeat rows seen within
a few ticks (gm.service.outgoing.outages), and a key belongs to the one with the highest
hash of (daemon, key): rendezvous hashing, so only a leaving daemon's keys move.  Slices
only share the work: exactly once is the store's claim and stored key.  Mail left to
another daemon is taken here after ``wait`` when its owner died (store.locks.alive_daemons), and
only after ``wait_alive`` when it lives but is behind: taking it sooner has two daemons
check the same passwords on cores already full (benchmarks/shared_store.py).
"""

from __future__ import annotations

import time
import zlib
from typing import Callable, Iterable

WAIT = 2.0  # seconds a message in a dead daemon's slice may stay before this daemon takes it too
WAIT_ALIVE = 60.0  # seconds, for a message of a daemon the store shows alive (behind, or wedged)
FRESH_TICKS = 3  # a daemon whose heartbeat is older than this many ticks (and FRESH_AT_LEAST) is gone
FRESH_AT_LEAST = 10.0  # seconds


def owner(members: list[str], key: str) -> str:
    """The daemon among ``members`` (never empty) whose slice holds mail of ``key``."""
    return max(members, key=lambda daemon: (zlib.crc32(f"{daemon}\n{key}".encode()), daemon))


def living(rows: Iterable, me: str, now: float, tick_seconds: float) -> list[str]:
    """The daemons seen within a few ticks (heartbeat rows: daemon_id, last_seen), and ``me``."""
    fresh_after = now - max(FRESH_TICKS * tick_seconds, FRESH_AT_LEAST)
    return sorted({row["daemon_id"] for row in rows if float(row["last_seen"]) >= fresh_after} | {me})


class Slices:
    """One daemon's view: who lives (looked up once per pass) and which messages it left to whom."""

    def __init__(self, me: str, tick_seconds: float, wait: float = WAIT, clock: Callable[[], float] = time.time,
                 wait_alive: float = WAIT_ALIVE):
        self.me = me
        self.tick_seconds = tick_seconds
        self.wait = wait
        self.wait_alive = wait_alive
        self.clock = clock
        self.members = [me]
        self.left: dict[int, tuple[float, float]] = {}  # uid -> (when first left to another, how long)

    def look(self, rows: Iterable) -> None:
        """The heartbeat rows as they are now."""
        self.members = living(rows, self.me, self.clock(), self.tick_seconds)

    @property
    def alone(self) -> bool:
        return self.members == [self.me]

    def mine(self, uids: list[int], keys: dict[int, str], arrived: dict[int, float] | None = None,
             alive: set[str] | None = None) -> list[int]:
        """Of these messages (``keys``: uid -> its slice key; one missing or empty falls by its
        uid), those to judge here now: its slice's, and those left to another for long enough since
        they came (``arrived``: the server's INTERNALDATE), so that a daemon started just now takes
        at once what waited for a dead one, or since this daemon first saw them: ``wait`` for an
        owner not in ``alive`` (the other daemons the store shows alive), ``wait_alive`` for one in it."""
        now = self.clock()
        arrived = arrived or {}
        alive = alive or set()
        out = []
        for uid in uids:
            holder = self.me if self.alone else owner(self.members, keys.get(uid) or f"uid:{uid}")
            if holder == self.me:
                self.left.pop(uid, None)
                out.append(uid)
                continue
            first = min(self.left.get(uid, (now, 0.0))[0], arrived.get(uid, now))
            wait = self.wait_alive if holder in alive else self.wait
            self.left[uid] = (first, wait)
            if now - first >= wait:
                out.append(uid)  # its owner is gone or far behind: taken here (the claim keeps it once)
        return out

    def others(self) -> list[str]:
        """The other daemons this one leaves mail to."""
        return [member for member in self.members if member != self.me]

    def forget(self, pending: Iterable[int]) -> None:
        """Drop what left the inbox."""
        still = set(pending)
        self.left = {uid: left for uid, left in self.left.items() if uid in still}

    def next_look(self) -> float | None:
        """Seconds until a message left to another is due here, or None where none is left."""
        if not self.left:
            return None
        return max(0.0, min(first + wait for first, wait in self.left.values()) - self.clock())
