"""Outbox rows dealt out to the SMTP connections ("lanes") of one sender.

Each recipient's mail takes one lane, in queue order, so that a player never
gets turn 5 before turn 4: a recipient with mail queued or in flight on a
lane keeps that lane for the rows claimed after it; a recipient with none
goes to the lane with the least to do.  The sender feeds the lanes as they
empty (gm.runtime.smtp.LaneStream), so rows dealt
later join lanes that are still sending.
"""

from __future__ import annotations

from collections import deque
from typing import Any

# Rows claimed per SMTP connection at a time: daemons sharing a store each claim a few, so that every
# daemon's connections have mail in flight (gm.runtime.delivery.Sender), and a lane that empties asks
# for this many more (gm.runtime.smtp.LaneStream).
PER_LANE = 4


class Lanes:
    def __init__(self, connections: int):
        self.queues: list[deque[Any]] = [deque() for _ in range(max(1, connections))]
        self.busy = [False] * len(self.queues)  # a row of the lane's in flight
        self.owner: dict[str, list[int]] = {}  # recipient -> [its lane, its rows dealt and not finished]

    def load(self, lane: int) -> int:
        return len(self.queues[lane]) + self.busy[lane]

    def deal(self, rows: list[Any]) -> None:
        """Deal rows, given in queue order, to the lanes: most rows first to the lane with the
        least, so that the lanes end together; a recipient already on a lane stays on it."""
        by_recipient: dict[str, list[Any]] = {}
        for row in rows:
            by_recipient.setdefault(row["recipient"].lower(), []).append(row)
        lane_of: dict[str, int] = {}
        loads = [self.load(n) for n in range(len(self.queues))]
        for recipient in sorted(by_recipient, key=lambda r: (-len(by_recipient[r]), by_recipient[r][0]["id"])):
            held = self.owner.get(recipient)
            lane = held[0] if held else min(range(len(loads)), key=lambda n: (loads[n], n))
            loads[lane] += len(by_recipient[recipient])
            lane_of[recipient] = lane
            entry = self.owner.setdefault(recipient, [lane, 0])
            entry[1] += len(by_recipient[recipient])
        for row in rows:  # queue order within each lane
            self.queues[lane_of[row["recipient"].lower()]].append(row)

    def take(self, lane: int) -> Any:
        """The lane's next row, now in flight; None when its queue is empty."""
        if not self.queues[lane]:
            return None
        self.busy[lane] = True
        return self.queues[lane].popleft()

    def finished(self, lane: int, row: Any) -> None:
        """The lane's row in flight was sent or refused: its recipient may change lanes once it has
        no other row on this one."""
        self.busy[lane] = False
        recipient = row["recipient"].lower()
        entry = self.owner.get(recipient)
        if entry is not None:
            entry[1] -= 1
            if entry[1] <= 0:
                del self.owner[recipient]

    def room(self, per_lane: int) -> int:
        """Rows that would top every lane up to ``per_lane`` queued."""
        return sum(max(0, per_lane - len(queue)) for queue in self.queues)

    def idle(self) -> bool:
        """Nothing queued and nothing in flight on any lane."""
        return not any(self.queues) and not any(self.busy)


def lanes_of(rows: list[Any], connections: int) -> dict[int, list[Any]]:
    """One batch dealt out to ``connections`` lanes at once (see Lanes.deal): lane -> its rows."""
    lanes = Lanes(connections)
    lanes.deal(rows)
    return {n: list(queue) for n, queue in enumerate(lanes.queues) if queue}
