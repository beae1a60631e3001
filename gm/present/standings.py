"""The final standings of a game that ended: what its end mail says, whatever ended it (the
rules, a draw by agreement, a concession, the game master).

Pure functions of the rules, the state and the result: every player with their score, the
ones who left marked "(left)", the result line (a winner, a shared win, drawn, no winner),
and the address of the game's page when the archive is public.
"""

from __future__ import annotations

from typing import Any


def result_line(winners: list[str], drawn: bool) -> str:
    """One line: how the game came out (RULINGS G2 for a shared win, G6 for a draw)."""
    if drawn:
        return "Result: drawn by agreement (RULINGS G6); no winner."
    if len(winners) > 1:
        return f"Result: a shared win (RULINGS G2) for {', '.join(winners)}."
    if winners:
        return f"Result: {winners[0]} wins."
    return "Result: no winner."


def final_standings(rules: Any, state: Any, winners: list[str] | None = None,
                    page: str | None = None) -> list[str]:
    """The lines of the final standings: the players still in by score (best first, then in
    seat order), then those who left; the result; the game's page.  ``winners`` None: as the
    rules say (the GM may have declared others: gm end --winner)."""
    scores = rules.scores(state)
    gone = rules.removed(state)
    drawn = rules.is_drawn(state)
    if winners is None:
        winners = rules.winners(state)
    players = rules.players(state)
    ranked = sorted(players, key=lambda p: (p in gone, -scores.get(p, 0), players.index(p)))
    lines = ["Final standings:"]
    for name in ranked:
        mark = "  (left)" if name in gone else "  WINNER" if name in winners else ""
        lines.append(f"  {name:<20} {scores.get(name, 0):>6}{mark}")
    lines.append(result_line(list(winners), drawn))
    if page:
        lines.append(f"The game's page in the archive: {page}")
    return lines
