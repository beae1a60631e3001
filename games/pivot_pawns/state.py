"""The Pivot Pawns state, and its JSON form with validation.

In JSON, cards are named by tableau coordinate (A1..E3: column letter, row
number) or by card number 0..14 in the tableau list, pawns by colour, icons
by name, so that a GM can read and edit a state by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from games.base import OrderSyntaxError, StateError, dump_drawn, dump_left, json_number, load_drawn, load_left
from games.pivot_pawns import deck
from games.pivot_pawns.orders import PivotMove, parse_solution, solution_text

ROUNDS = deck.CARDS  # one round per target token


@dataclass(frozen=True)
class SealedBid:
    pivots: int
    solution: tuple[PivotMove, ...]
    time: float  # when this number was bid: ties go to the earlier (PP4)
    seq: int  # order of receipt within the round, for bids at equal times


@dataclass(frozen=True)
class Attempt:
    """One bid tried when a round closed."""

    player: str
    pivots: int
    solution: tuple[PivotMove, ...]
    reason: str | None  # None: valid


@dataclass(frozen=True)
class RoundRecord:
    round: int
    token: int
    start: tuple[int, ...]  # card of each pawn at the start of the round
    winner: str | None
    attempts: tuple[Attempt, ...]
    par: int | None  # fewest pivots possible; None: no solution existed
    par_solution: tuple[PivotMove, ...] | None


@dataclass
class PivotState:
    seed: int
    players: list[str]
    timer: float | None  # seconds from the first bid to the close; None: no timer
    tableau: tuple[int, ...]  # card number at each position, row by row
    pawns: tuple[int, ...]  # card of each pawn, by colour
    round: int  # 1..15
    token: int | None  # this round's target token; None once the game is over
    bag: tuple[int, ...]  # tokens not drawn yet
    bids: dict[str, SealedBid] = field(default_factory=dict)
    passes: list[str] = field(default_factory=list)
    first_bid: float | None = None
    seq: int = 0
    tokens: dict[str, list[int]] = field(default_factory=dict)
    history: list[RoundRecord] = field(default_factory=list)
    # Players removed from the game (G5), in the order they left: no bids, no
    # passes; their tokens stay for the record, but they never win.
    left: tuple[str, ...] = ()
    drawn: bool = False  # over by agreement (G6)

    @property
    def remaining(self) -> list[str]:
        return [p for p in self.players if p not in self.left]

    @property
    def over(self) -> bool:
        """After 15 rounds, once nobody is left to bid (G5), once one player is left of a game
        begun with two or more (G7: that player wins), or drawn by agreement (G6)."""
        return (self.token is None or not self.remaining or self.drawn
                or len(self.remaining) < 2 <= len(self.players))


def copy_state(state: PivotState) -> PivotState:
    """A copy safe to change: the containers are new, their items are immutable."""
    return replace(
        state,
        players=list(state.players),
        bids=dict(state.bids),
        passes=list(state.passes),
        tokens={p: list(won) for p, won in state.tokens.items()},
        history=list(state.history),
    )


def coordinate(position: int) -> str:
    """Tableau position 0..14 (row by row) -> 'A1'..'E3'."""
    row, column = divmod(position, deck.COLUMNS)
    return f"{'ABCDE'[column]}{row + 1}"


def position_of(text: str) -> int:
    text = str(text).strip().upper()
    if len(text) != 2 or text[0] not in "ABCDE" or text[1] not in "123":
        raise StateError(f"{text!r} is not a tableau coordinate A1..E3")
    return (int(text[1]) - 1) * deck.COLUMNS + "ABCDE".index(text[0])


def card_coordinate(state: PivotState, card: int) -> str:
    return coordinate(state.tableau.index(card))


# --- dump -------------------------------------------------------------------


def _attempt_json(attempt: Attempt) -> dict:
    return {
        "player": attempt.player,
        "bid": attempt.pivots,
        "solution": solution_text(attempt.solution) if attempt.solution else "",
        "failure": attempt.reason,
    }


def dump(state: PivotState, version: int) -> dict:
    def coord(card: int) -> str:
        return card_coordinate(state, card)

    return dump_drawn(dump_left({
        "version": version,
        "seed": state.seed,
        "players": list(state.players),
        "timer_seconds": state.timer,
        "tableau": [
            [state.tableau[row * deck.COLUMNS + col] for col in range(deck.COLUMNS)]
            for row in range(deck.ROWS)
        ],
        "pawns": {deck.COLOURS[c]: coord(card) for c, card in enumerate(state.pawns)},
        "round": state.round,
        "token": None if state.token is None else deck.ICON_NAMES[state.token],
        "bag": [deck.ICON_NAMES[t] for t in state.bag],
        "bids": {
            player: {
                "bid": bid.pivots,
                "solution": solution_text(bid.solution) if bid.solution else "",
                "time": bid.time,
                "seq": bid.seq,
            }
            for player, bid in state.bids.items()
        },
        "passes": list(state.passes),
        "first_bid_time": state.first_bid,
        "seq": state.seq,
        "tokens": {p: [deck.ICON_NAMES[t] for t in won] for p, won in state.tokens.items()},
        "history": [
            {
                "round": r.round,
                "token": deck.ICON_NAMES[r.token],
                "start": {deck.COLOURS[c]: coord(card) for c, card in enumerate(r.start)},
                "winner": r.winner,
                "attempts": [_attempt_json(a) for a in r.attempts],
                "par": r.par,
                "par_solution": (None if r.par_solution is None
                                 else solution_text(r.par_solution) if r.par_solution else ""),
            }
            for r in state.history
        ],
    }, state.left), state.drawn)


# --- load -------------------------------------------------------------------


def _need(data: dict, key: str, kinds, what: str):
    if key not in data:
        raise StateError(f"state: {what} ({key!r}) is missing")
    value = data[key]
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in _tuple(kinds)):
        raise StateError(f"state: {what} ({key!r}) has the wrong type: {value!r}")
    return value


def _tuple(kinds) -> tuple:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _icon(name, what: str) -> int:
    if not isinstance(name, str) or name.strip().lower() not in deck.ICON_BY_NAME:
        raise StateError(f"state: {what}: {name!r} is not an icon name")
    return deck.ICON_BY_NAME[name.strip().lower()]


def _token(name, what: str) -> int:
    icon = _icon(name, what)
    if icon not in deck.TOKENS:
        raise StateError(f"state: {what}: {name!r} is not a centre icon, so not a token")
    return icon


def _solution(text, what: str) -> tuple[PivotMove, ...]:
    if not isinstance(text, str):
        raise StateError(f"state: {what} must be a string like 'red/blue green/red'")
    try:
        return parse_solution(text)
    except OrderSyntaxError as exc:
        raise StateError(f"state: {what}: {exc}") from None


def _pawns(raw, tableau: tuple[int, ...], what: str) -> tuple[int, ...]:
    if not isinstance(raw, dict) or set(raw) != set(deck.COLOURS):
        raise StateError(f"state: {what} must map each of {', '.join(deck.COLOURS)} to a card")
    cards = tuple(tableau[position_of(raw[c])] for c in deck.COLOURS)
    if len(set(cards)) != len(cards):
        raise StateError(f"state: {what}: two pawns on one card")
    return cards


def load(data: dict) -> PivotState:
    seed = _need(data, "seed", int, "the seed")
    players = _need(data, "players", list, "the player list")
    if not players or not all(isinstance(p, str) and p for p in players) or len(set(players)) != len(players):
        raise StateError("state: players must be different non-empty names")
    timer = json_number(data.get("timer_seconds"), "state: timer_seconds", optional=True)
    if timer is not None and timer < 0:
        raise StateError("state: timer_seconds must not be negative")
    tableau = _tableau(data)
    pawns = _pawns(data.get("pawns"), tableau, "pawns")
    round_number = _need(data, "round", int, "the round")
    if not 1 <= round_number <= ROUNDS:
        raise StateError(f"state: round must be 1..{ROUNDS}")
    token = data.get("token")
    token = None if token is None else _token(token, "token")
    bag = tuple(_token(t, "bag") for t in _need(data, "bag", list, "the bag"))
    won = _tokens_won(data, players)
    history = [_record(r, tableau, players) for r in _need(data, "history", list, "the history")]
    _check_tokens(history, bag, token, won, round_number)
    sealed = _bids(data, players)
    passes = _need(data, "passes", list, "the passes")
    if any(p not in players or p in sealed for p in passes) or len(set(passes)) != len(passes):
        raise StateError("state: passes must be players without a bid, each once")
    first_bid = json_number(data.get("first_bid_time"), "state: first_bid_time", optional=True)
    if (first_bid is None) != (not sealed):
        raise StateError("state: first_bid_time must be set exactly when there are bids")
    if token is None and (sealed or passes):
        raise StateError("state: a finished game has no bids")
    left = load_left(data, players)
    if any(p in sealed or p in passes for p in left):
        raise StateError("state: a player who has left has no bid and no pass (G5)")
    drawn = load_drawn(data)
    remaining = len(players) - len(left)
    if (drawn or remaining < 2 <= len(players)) and (sealed or passes):
        raise StateError("state: a finished game has no bids (G6, G7)")
    seq = _need(data, "seq", int, "the bid counter")
    if any(b.seq >= seq for b in sealed.values()):
        raise StateError("state: the bid counter must exceed every bid's seq")
    return PivotState(
        seed=seed,
        players=list(players),
        timer=timer,
        tableau=tableau,
        pawns=pawns,
        round=round_number,
        token=token,
        bag=bag,
        bids=sealed,
        passes=list(passes),
        first_bid=first_bid,
        seq=seq,
        tokens=won,
        history=history,
        left=left,
        drawn=drawn,
    )


def _tokens_won(data: dict, players: list[str]) -> dict:
    """The tokens each player has won, as icon numbers."""
    tokens = _need(data, "tokens", dict, "the tokens won")
    if set(tokens) != set(players):
        raise StateError("state: tokens must list every player")
    won = {p: [_token(t, f"tokens of {p}") for t in tokens[p]] if isinstance(tokens[p], list) else None
           for p in players}
    if any(v is None for v in won.values()):
        raise StateError("state: each player's tokens must be a list of icon names")
    return won


def _tableau(data: dict) -> tuple[int, ...]:
    """The 15 cards, row by row, each once."""
    rows = _need(data, "tableau", list, "the tableau")
    if len(rows) != deck.ROWS or not all(isinstance(r, list) and len(r) == deck.COLUMNS for r in rows):
        raise StateError("state: the tableau must be 3 rows of 5 card numbers")
    tableau = tuple(card for row in rows for card in row)
    if sorted(tableau) != list(range(deck.CARDS)) or any(isinstance(c, bool) for c in tableau):
        raise StateError("state: the tableau must hold each card 0..14 once")
    return tableau


def _check_tokens(history: list[RoundRecord], bag: tuple[int, ...], token: int | None,
                  won: dict, round_number: int) -> None:
    """The rounds in order, and every token in exactly one place: the bag, on the table, won,
    or discarded."""
    if [r.round for r in history] != list(range(1, len(history) + 1)):
        raise StateError("state: the history must hold rounds 1, 2, ... in order")
    played = [r.token for r in history]
    if sorted(list(bag) + ([token] if token is not None else []) + played) != list(range(ROUNDS)):
        raise StateError("state: the bag, the current token and the history must hold each token once")
    if sorted(t for w in won.values() for t in w) != sorted(r.token for r in history if r.winner):
        raise StateError("state: the tokens won do not match the winners in the history")
    if token is None and (bag or len(history) != ROUNDS):
        raise StateError("state: without a current token all 15 rounds must be played")
    if token is not None and len(history) != round_number - 1:
        raise StateError("state: the round number must be one more than the rounds played")
    if token is None and round_number != ROUNDS:
        raise StateError(f"state: a finished game stands at round {ROUNDS}")


def _bids(data: dict, players: list[str]) -> dict[str, SealedBid]:
    """The sealed bids of the open round, by player."""
    bids = _need(data, "bids", dict, "the bids")
    sealed = {}
    for player, raw in bids.items():
        if player not in players or not isinstance(raw, dict):
            raise StateError(f"state: bid of unknown player {player!r}")
        pivots = _need(raw, "bid", int, f"{player}'s bid")
        solution = _solution(raw.get("solution", ""), f"{player}'s solution")
        # PP4: a solution may run past the landing (those pivots are ignored),
        # so it may hold more pivots than the bid; a bid above 0 needs one.
        if pivots < 0 or (pivots and not solution):
            raise StateError(f"state: {player}'s solution does not fit the bid of {pivots}")
        sealed[player] = SealedBid(
            pivots, solution, json_number(raw.get("time"), f"state: {player}'s bid time"),
            _need(raw, "seq", int, f"{player}'s bid seq")
        )
    return sealed


def _record(raw, tableau: tuple[int, ...], players: list[str]) -> RoundRecord:
    if not isinstance(raw, dict):
        raise StateError("state: each history entry must be an object")
    winner = raw.get("winner")
    if winner is not None and winner not in players:
        raise StateError(f"state: history winner {winner!r} is not a player")
    attempts = []
    for a in _need(raw, "attempts", list, "attempts"):
        if not isinstance(a, dict) or a.get("player") not in players:
            raise StateError("state: each attempt names a player")
        reason = a.get("failure")
        if reason is not None and not isinstance(reason, str):
            raise StateError("state: an attempt's failure is text or null")
        attempts.append(
            Attempt(a["player"], _need(a, "bid", int, "attempt bid"),
                    _solution(a.get("solution", ""), "attempt solution"), reason)
        )
    valid = [a.player for a in attempts if a.reason is None]
    if valid != ([winner] if winner else []) or (winner and attempts[-1].reason is not None):
        raise StateError("state: a round's winner must be its last attempt, the only valid one")
    par = raw.get("par")
    if par is not None and (isinstance(par, bool) or not isinstance(par, int) or par < 0):
        raise StateError("state: par must be a whole number or null")
    par_solution = raw.get("par_solution")
    par_solution = None if par_solution is None else _solution(par_solution, "par solution")
    return RoundRecord(
        round=_need(raw, "round", int, "history round"),
        token=_token(raw.get("token"), "history token"),
        start=_pawns(raw.get("start"), tableau, "history start"),
        winner=winner,
        attempts=tuple(attempts),
        par=par,
        par_solution=par_solution,
    )
