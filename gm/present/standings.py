"""The final standings of a game that ended: what its end mail says, whatever ended it (the
rules, a draw by agreement, a concession, the game master).

Pure functions of the rules, the state and the result: every player with their score, the
ones who left marked "(left)", the result line (a winner, a shared win, drawn, no winner),
and the address of the game's page when the archive is public.
"""

from __future__ import annotations

from typing import Any

from games.text import Text


def result_line(winners: list[str], drawn: bool) -> str:
    """One line: how the game came out (RULINGS G2 for a shared win, G6 for a draw)."""
    if drawn:
        return Text("Result: drawn by agreement (RULINGS G6); no winner.")
    if len(winners) > 1:
        return Text("Result: a shared win (RULINGS G2) for {names}.", names=", ".join(winners))
    if winners:
        return Text("Result: {name} wins.", name=winners[0])
    return Text("Result: no winner.")


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
    lines: list[str] = [Text("Final standings:")]
    for name in ranked:
        row = dict(name=f"{name:<20}", score=f"{scores.get(name, 0):>6}")
        lines.append(Text("  {name} {score}  (left)", **row) if name in gone else
                     Text("  {name} {score}  WINNER", **row) if name in winners else "  {name} {score}".format(**row))
    lines.append(result_line(list(winners), drawn))
    if page:
        lines.append(Text("The game's page in the archive: {page}", page=page))
    return lines
