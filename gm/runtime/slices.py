"""Daemons sharing one mailbox take it by slices, as Mailman 3's runners share a queue.

Without slices every daemon fetched, read (its password checks run) and tried
every message, and all but one found it taken by another or already stored:
with N daemons N times the reading, and the store's claim met N times a mail.
Now each daemon judges the messages whose key falls in its own slice: the key is
the game a mail names, else its sender (gm.service.intake.ingest.slice_key: the
body is fetched and read, a fraction of a millisecond; the password check and
the judging are what is saved); the living daemons are the rows of the heartbeat
table (gm.service.outgoing.outages) seen within a few ticks, and a key belongs
to the daemon with the highest hash of (daemon, key) (rendezvous hashing: when a
daemon comes or goes, only its own keys move).  One game's mail stays with one
daemon, which judges it in the order it came: a key by sender alone let a
second-round order of a game be judged, and refused, before the first-round one
that another daemon had not reached yet.

Slices only share the work; they guarantee nothing.  Exactly once is still the
store's claim on the message (gm.store.pglocks.claim_message) and its stored key,
as before: two daemons that disagree for a moment about who lives (one started
or died between their looks) may both try a message, and one finds it busy or
a duplicate.  A message left to another daemon that is still in the inbox
``wait`` seconds after it came (or this daemon first saw it) is taken here too
when its owner died (its heartbeat row is still fresh, but the store says its
session is gone: Store.alive_daemons); an owner the store shows alive is behind
with a backlog, and its mail is taken only after ``wait_alive``.  Taking a busy
owner's mail after 2 s had two daemons read, check the password of, and try
the same mail: with 4 daemons on 2 cores 664 ingests for 200 mails, the password
checks of the extra 464 on cores that were already full (benchmarks/shared_store.py).
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
