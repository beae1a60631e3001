"""The digest of what a report shows (RULINGS G1): its turn, the position (a hash of the rules'
dumped state), the scores and the result.  Stored with each report; `gm verify` compares it with
the replay's, so a report worded by another version of gm is still checked on what it shows."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def position_hash(dumped: dict[str, Any]) -> str:
    """The position as the rules dump it, hashed (key order fixed)."""
    text = json.dumps(dumped, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def report_digest(rules: Any, state: Any) -> dict[str, Any]:
    """What a report of ``state`` shows: turn, position, scores, result (winners when over)."""
    over = rules.is_over(state)
    result = ("drawn" if rules.is_drawn(state) else sorted(rules.winners(state))) if over else None
    return {"turn": rules.turn(state), "position": position_hash(rules.dump(state)),
            "scores": {str(k): v for k, v in sorted(rules.scores(state).items())}, "result": result}


def dumps(digest: dict[str, Any]) -> str:
    return json.dumps(digest, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def differences(stored: dict[str, Any], replayed: dict[str, Any]) -> list[str]:
    """The fields of what a report shows that the replay does not reproduce."""
    return [f"{key} {stored.get(key)!r} != {replayed.get(key)!r}"
            for key in ("turn", "position", "scores", "result") if stored.get(key) != replayed.get(key)]
