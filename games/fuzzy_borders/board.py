"""Influence, leaders and values of a Fuzzy Borders board (RULINGS FB2, FB3).

Nothing on the board is sticky: everything here is recomputed from the list
of claimed cells, so the board can never drift from the claims that made it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.hexgrid import Cell, HexGrid
from games.text import Text

CLAIMED_VALUE = 10  # FB3: a claimed cell is worth 10 to its claimer
MAX_LED_VALUE = 5  # FB3: a led cell is worth at most 5; worth 5 is "owned"


@lru_cache(maxsize=32)
def grid(side: int) -> HexGrid:
    return HexGrid(side)


@lru_cache(maxsize=32)
def cells_by_name(side: int) -> dict[str, Cell]:
    """Canonical cell name -> cell, to rebuild boards from stored names quickly."""
    board = grid(side)
    return {board.name(cell): cell for cell in board.cells}


@lru_cache(maxsize=32)
def influence_pattern(side: int, radius: int) -> dict[Cell, tuple[tuple[Cell, int], ...]]:
    """For each cell, the cells it influences when claimed and by how much (FB2).

    Influence R+1-d at distance d; cells off the board are simply absent,
    which is how influence that falls off the board is lost.
    """
    board = grid(side)
    return {
        cell: tuple((other, radius + 1 - d) for other, d in board.within(cell, radius))
        for cell in board.cells
    }


@dataclass(frozen=True)
class CellState:
    """What one cell is: claimed by someone, led by someone (with a value), or empty."""

    claimer: str | None = None
    leader: str | None = None
    influence: int = 0  # the leader's total influence (uncapped)

    @property
    def value(self) -> int:
        if self.claimer is not None:
            return CLAIMED_VALUE
        if self.leader is not None:
            return min(self.influence, MAX_LED_VALUE)
        return 0

    @property
    def owned(self) -> bool:
        return self.leader is not None and self.influence >= MAX_LED_VALUE

    @property
    def empty(self) -> bool:
        return self.claimer is None and self.leader is None

    def holder(self) -> str | None:
        """The player the cell counts for: its claimer or its leader."""
        return self.claimer or self.leader


class Board:
    """The analysed board: one CellState per cell, computed from the claims."""

    def __init__(self, side: int, radius: int, claims: dict[str, list[Cell]], players: list[str]):
        self.side = side
        self.radius = radius
        self.grid = grid(side)
        pattern = influence_pattern(side, radius)
        claimed: dict[Cell, str] = {}
        for player in players:
            for cell in claims.get(player, ()):
                claimed[cell] = player
        # influence[cell][player] = total, summed over all that player's claims (FB2)
        influence: dict[Cell, dict[str, int]] = {}
        for player in players:
            for cell in claims.get(player, ()):
                for other, amount in pattern[cell]:
                    per_player = influence.setdefault(other, {})
                    per_player[player] = per_player.get(player, 0) + amount
        self.influence = influence
        self.cells: dict[Cell, CellState] = {}
        self._claimable: dict[str, list[Cell]] = {}
        self._tallies: dict[str, dict[str, int]] | None = None
        for cell in self.grid.cells:
            if cell in claimed:
                # FB3: a claimed cell is never influenced
                self.cells[cell] = CellState(claimer=claimed[cell])
                continue
            totals = influence.get(cell)
            if not totals:
                self.cells[cell] = CellState()
                continue
            best = max(totals.values())
            leaders = [p for p, amount in totals.items() if amount == best]
            if best > 0 and len(leaders) == 1:
                self.cells[cell] = CellState(leader=leaders[0], influence=best)
            else:
                # FB3: a tie for the highest influence leaves the cell empty
                self.cells[cell] = CellState()

    def __getitem__(self, cell: Cell) -> CellState:
        return self.cells[cell]

    def empty_cells(self) -> list[Cell]:
        return [cell for cell, state in self.cells.items() if state.empty]

    def claimable_by(self, player: str) -> list[Cell]:
        """FB5: unclaimed cells that are empty or led by ``player``, in board order."""
        if player not in self._claimable:
            self._claimable[player] = [
                cell
                for cell, state in self.cells.items()
                if state.claimer is None and state.leader in (None, player)
            ]
        return list(self._claimable[player])

    def why_not(self, player: str, cell: Cell) -> str | None:
        """The reason ``player`` may not claim ``cell`` (FB5), or None when they may."""
        state = self.cells[cell]
        if state.claimer == player:
            return Text("you claimed it already")
        if state.claimer is not None:
            return Text("{player} claimed it already", player=state.claimer)
        if state.leader not in (None, player):
            return Text("it is under {leader}'s influence ({influence} against your {yours})",
                        leader=state.leader, influence=state.influence,
                        yours=self.influence[cell].get(player, 0))
        return None

    def _tally(self) -> dict[str, dict[str, int]]:
        """Per player: score, claimed, led and owned cells, counted in one pass."""
        if self._tallies is None:
            tallies: dict[str, dict[str, int]] = {}
            for state in self.cells.values():
                holder = state.holder()
                if holder is None:
                    continue
                tally = tallies.setdefault(
                    holder, {"score": 0, "claimed": 0, "led": 0, "owned": 0}
                )
                tally["score"] += state.value
                if state.claimer is not None:
                    tally["claimed"] += 1
                else:
                    tally["led"] += 1
                    tally["owned"] += state.owned
            self._tallies = tallies
        return self._tallies

    def scores(self, players: list[str]) -> dict[str, int]:
        tallies = self._tally()
        return {p: tallies[p]["score"] if p in tallies else 0 for p in players}

    def counts(self, player: str) -> dict[str, int]:
        tally = self._tally().get(player, {"claimed": 0, "led": 0, "owned": 0})
        return {key: tally[key] for key in ("claimed", "led", "owned")}
