"""The Pivot Pawns rules behind the common Game interface (simultaneous, 1-12 players).

rules/pivot-pawns.txt with RULINGS PP1-PP6 and G1-G5, over 15 rounds.  Each
round a target token is drawn; players send sealed bids (a number of pivots
with the solution), announced to all by number only.  ``to_move`` lists every
player still in the game for as long as the round is open: anyone may bid,
lower a bid or pass until bidding closes.  ``ready`` is True once every player
still in has bid or passed, or when the timer after the first bid has run out;
``close_turn`` then tries the bids lowest first (ties by time) and draws the
next token.  A removed player (G5, ``leave``) is a player who never bids.
"""

from __future__ import annotations

import itertools
from typing import Any

from games.base import (
    Event,
    Game,
    GameError,
    IllegalOrderError,
    Option,
    duration_option,
    format_duration,
    Result,
    seeded_rng,
)
from games.pivot_pawns import accessible, board, deck, orders, solver
from games.pivot_pawns import state as states
from games.pivot_pawns.orders import Bid, Pass, PivotMove, solution_text
from games.pivot_pawns.state import ROUNDS, Attempt, PivotState, RoundRecord, SealedBid
from games.text import Plural, Text, mark

ROUND_PAWNS = (mark("red pawn"), mark("green pawn"), mark("blue pawn"), mark("yellow pawn"),
               mark("black pawn"))
NOTATION = mark("""\
Pivot Pawns orders (one per mail; case and extra spaces do not matter):

  BID 3: red/blue green/red red/black
      A bid of 3 pivots with its solution.  Each pivot is written
      moving pawn/pivot pawn: red/blue moves the red pawn to the third
      card of the line through the red and blue pawns' cards (the card
      that shows the icon both cards share).  Colours may be shortened
      to r, g, b, y, k (k is black).  The solution may run over several
      lines; the colon is optional.
  BID 0
      The active pawn already stands on the target card.
  PASS
      You do not bid this round (you may still bid later while bidding
      is open).  When every player has bid or passed, bidding closes.

Your bid is announced to everyone as a number (so are a PASS and a
repeated bid); your solution stays sealed and is confirmed to you
alone. Until bidding closes you may send a lower bid, or the same bid
with a new solution (it keeps its place in the tie order); a higher
bid, or PASS after a bid, is refused. Your solution ends when the
active pawn lands on the target card: pivots written after that are
ignored (PP4), and the landing must come within your bid. Bids are
judged on the pawns as they stand when the round began (G3). The round
report shows the winning solution and the par, the fewest pivots
possible.

Board: columns A-E, rows 1-3.  Each cell shows its coordinate, the pawn
on it (@RED), * for the target card, the centre icon in CAPITALS and the
six other icons, each with its colour (r g b y k).""")

def parse_duration(name: str, value: Any) -> float | None:
    """'24h', '90m', '1h30m', '3600' (seconds), or 'none' for no timer (PP4)."""
    return duration_option(name, value, off=True, zero=True)


class PivotPawns(Game[PivotState, Bid | Pass]):
    kind = "pivot-pawns"
    title = "Pivot Pawns"
    min_players = 1
    max_players = 12
    simultaneous = True
    state_version = 1
    options = {
        "timer": Option(
            "24h",
            "how long bidding stays open after the first bid of a round (PP4), "
            "e.g. 24h, 90m, 1h30m; 'none' waits for every player or the GM",
        ),
    }

    # --- set-up ------------------------------------------------------------
    def convert_options(self, raw: dict) -> dict:
        return {"timer": parse_duration("timer", raw.get("timer"))}

    def setup(self, players: list[str], options: dict, seed: int) -> PivotState:
        self.check_players(players)
        settings = self.check_options({k: v for k, v in (options or {}).items()})
        tableau = list(range(deck.CARDS))
        seeded_rng(seed, "tableau").shuffle(tableau)  # PP2
        placements = [
            cards
            for cards in itertools.permutations(deck.STARTING_CARDS)
            if all(deck.CENTRE_COLOUR[card] != colour for colour, card in enumerate(cards))
        ]
        pawns = seeded_rng(seed, "pawns").choice(placements)  # PP2
        state = PivotState(
            seed=seed,
            players=list(players),
            timer=settings["timer"],
            tableau=tuple(tableau),
            pawns=tuple(pawns),
            round=1,
            token=None,
            bag=tuple(deck.TOKENS),
            tokens={p: [] for p in players},
        )
        self._draw(state)
        return state

    def _draw(self, state: PivotState) -> None:
        """Draw this round's token from the bag (G1: a fresh seeded draw per round)."""
        bag = list(state.bag)
        token = seeded_rng(state.seed, "draw", state.round).choice(bag)
        bag.remove(token)
        state.token, state.bag = token, tuple(bag)

    # --- orders --------------------------------------------------------------
    def read_order(self, state: PivotState, player: str, text: str) -> Bid | Pass:
        order = orders.parse(text)
        self._check_order(state, player, order)
        return order

    def _check_order(self, state: PivotState, player: str, order: Bid | Pass) -> None:
        standing = state.bids.get(player)
        if isinstance(order, Pass):
            if standing is not None:
                raise IllegalOrderError(Text(
                    "you bid {bid} this round and cannot withdraw it; you may send a lower bid (PP3)",
                    bid=standing.pivots))
            return
        if standing is not None and order.pivots > standing.pivots:
            raise IllegalOrderError(Text(
                "you bid {bid} this round; a bid may be lowered, never raised (PP3), so {new} is "
                "refused", bid=standing.pivots, new=order.pivots))
        for number, pivot in enumerate(order.solution, start=1):
            if pivot.moving == pivot.pivot:
                raise IllegalOrderError(Text(
                    "pivot {number} ({pivot}): a pawn cannot pivot around itself; name two "
                    "different pawns", number=number, pivot=str(pivot)))

    def step(self, state: PivotState, player: str, order: Any, now: float) -> Result[PivotState]:
        if isinstance(order, str):
            order = orders.parse(order)
        self._check_order(state, player, order)
        new = states.copy_state(state)
        if isinstance(order, Pass):
            if player not in new.passes:
                new.passes.append(player)
            return Result(
                new,
                [
                    Event(Text("{player} passes", player=player), kind="pass", data={"player": player}),
                    Event(
                        Text("You pass this round; you may still bid while bidding is open."),
                        kind="sealed",
                        to=(player,),
                    ),
                ],
            )
        standing = new.bids.get(player)
        if standing is not None and standing.pivots == order.pivots:
            # Same number: a new solution; the bid keeps its time (PP3, PP4).
            when, seq = standing.time, standing.seq
            public = Text("{player} sends a new solution for the bid of {bid}", player=player,
                          bid=order.pivots)
        else:
            when, seq = float(now), new.seq
            new.seq += 1
            if standing is None:
                public = Text("{player} bids {bid}", player=player, bid=order.pivots)
            else:
                public = Text("{player} lowers the bid from {old} to {bid}", player=player,
                              old=standing.pivots, bid=order.pivots)
        new.bids[player] = SealedBid(order.pivots, order.solution, when, seq)
        if player in new.passes:
            new.passes.remove(player)
        if new.first_bid is None:
            new.first_bid = float(now)  # the timer starts with the first bid (PP4)
        data = {"player": player, "bid": order.pivots, "time": when,
                "closes_at": self.timer(new)}
        return Result(
            new,
            [
                Event(Text("{news}. {closing}", news=public, closing=self._closing_words(new)),
                      kind="bid", data=data),
                Event(
                    Text("Your sealed bid of {bid}: {solution}", bid=order.pivots,
                         solution=solution_text(order.solution)),
                    kind="sealed",
                    to=(player,),
                    data={**data, "solution": solution_text(order.solution)},
                ),
            ],
        )

    def _closing_words(self, state: PivotState) -> Text:
        """When bidding closes (PP4), for the public news of a bid."""
        if all(p in state.bids or p in state.passes for p in state.remaining):
            return Text("Every player has bid or passed, so bidding closes now (PP4).")
        timer = self.timer(state)
        if timer is None:
            return Text("Bidding closes when every player has bid or passed, or at the "
                        "round deadline, whichever comes first (PP4; this game has no timer).")
        return Text("Bidding closes when every player has bid or passed, at {when} "
                    "(the timer, {span} after the first bid), or at the "
                    "round deadline, whichever comes first (PP4).", when=board.utc(timer),
                    span=format_duration(state.timer))

    # --- the round -----------------------------------------------------------
    def ready(self, state: PivotState, now: float) -> bool:
        if state.over:
            return False
        if all(p in state.bids or p in state.passes for p in state.remaining):
            return True
        deadline = self.timer(state)
        return deadline is not None and now >= deadline

    def timer(self, state: PivotState) -> float | None:
        if state.over or state.first_bid is None or state.timer is None:
            return None
        return state.first_bid + state.timer

    def close_turn(self, state: PivotState, now: float) -> Result[PivotState]:
        if state.over:
            raise GameError(Text("the game is over; there is no round to close"))
        new = states.copy_state(state)
        token, start = new.token, new.pawns
        active, target = deck.ICON_COLOUR[token], deck.target_card(token)
        label = deck.ICON_NAMES[token]
        events: list[Event] = []
        attempts, winner = _try_bids(new, start, events)
        if winner is None:
            discard = Text("No bids: the {token} token is discarded", token=Text(label)) if not new.bids \
                else Text("No valid bid: the {token} token is discarded", token=Text(label))
            events.append(Event(discard, kind="discard"))
        par_solution = solver.solve(start, active, target)
        par = None if par_solution is None else len(par_solution)
        events.append(_par_event(par_solution))
        new.history.append(
            RoundRecord(
                round=new.round,
                token=token,
                start=start,
                winner=winner,
                attempts=tuple(attempts),
                par=par,
                par_solution=None if par_solution is None else tuple(PivotMove(m, q) for m, q in par_solution),
            )
        )
        new.bids, new.passes, new.first_bid, new.seq = {}, [], None, 0
        if new.bag:
            new.round += 1
            self._draw(new)
            events.append(Event(self._round_line(new), kind="draw"))
        else:
            new.token = None
            events.append(Event(Text("After {rounds} rounds the game is over.", rounds=ROUNDS), kind="end"))
        return Result(new, events)

    def _round_line(self, state: PivotState) -> Text:
        token = state.token
        where = states.card_coordinate(state, deck.target_card(token))
        return Text("Round {round}: token {token}, {pawn} to {card}", round=state.round,
                    token=board.icon_label(token), pawn=Text(ROUND_PAWNS[deck.ICON_COLOUR[token]]),
                    card=where)

    # --- questions -----------------------------------------------------------
    def legal_orders(self, state: PivotState, player: str) -> list[str] | None:
        return None  # the solutions cannot be listed

    def random_order(self, state: PivotState, player: str, rng) -> str | None:
        """A bid the player may send: optimal, a random walk, a blunder, or PASS."""
        if state.over or player in state.left:
            return None
        standing = state.bids.get(player)
        cap = standing.pivots if standing else orders.MAX_BID
        active, target = deck.ICON_COLOUR[state.token], deck.target_card(state.token)
        roll = rng.random()
        if roll < 0.1 and standing is None:
            return "PASS"
        if roll < 0.45:
            best = solver.solve(state.pawns, active, target)
            pivots = best if best is not None else []
        else:
            pivots = self._random_walk(state.pawns, active, target, rng, rng.randint(0, 4))
        if roll > 0.9:  # a blunder: a random, possibly illegal pivot appended
            m, q = rng.sample(range(5), 2)
            pivots = pivots + [(m, q)]
        if not pivots and state.pawns[active] != target:
            m, q = rng.sample(range(5), 2)
            pivots = [(m, q)]
        number = len(pivots)
        if number > cap:
            pivots, number = pivots[:cap], cap
            if number == 0 and state.pawns[active] != target:
                return None if standing else "PASS"
        if rng.random() < 0.2 and number < cap:
            number = rng.randint(number, min(cap, number + 2))
        text = solution_text([PivotMove(m, q) for m, q in pivots]) if pivots else ""
        return f"BID {number}: {text}" if pivots else f"BID {number}"

    @staticmethod
    def _random_walk(cards, active, target, rng, steps) -> list[tuple[int, int]]:
        placement, pivots = list(cards), []
        for _ in range(steps):
            moves = []
            for m in range(5):
                for q in range(5):
                    if m == q:
                        continue
                    landing = deck.destination(placement[m], placement[q])
                    if landing in placement:
                        continue
                    if deck.CENTRE_COLOUR[landing] == m and landing != target:
                        continue
                    moves.append((m, q, landing))
            if not moves:
                break
            m, q, landing = rng.choice(moves)
            placement[m] = landing
            pivots.append((m, q))
            if m == active and landing == target:
                break
        return pivots

    def players(self, state: PivotState) -> list[str]:
        return list(state.players)

    def turn(self, state: PivotState) -> int:
        return state.round

    def to_move(self, state: PivotState) -> list[str]:
        """Every player while the round is open: anyone may bid, lower or pass."""
        return [] if state.over else state.remaining

    def waiting(self, state: PivotState) -> list[str]:
        """Who has neither bid nor passed this round (a bidder may still lower their bid)."""
        return [p for p in self.to_move(state) if p not in state.bids and p not in state.passes]

    def is_over(self, state: PivotState) -> bool:
        return state.over

    def leave(self, state: PivotState, player: str, now: float) -> Result[PivotState]:
        """G5 with PP4: a removed player is a player who never bids again.

        Their bid and sealed solution of the open round are withdrawn and never
        tried (the round is adjudicated after they left), a pass of theirs no
        longer counts, and bidding closes once every player still in has bid
        or passed, here at once if they all have.  The timer keeps running
        from the first bid while other bids stand; it stops when none is left.
        Their tokens stay counted for the record, but they never win.  With
        nobody left the game ends (nobody wins); with one player left of a game
        begun with two or more, that player wins at once (G7).  A game begun
        with one player (Pivot Pawns allows it) plays on until it leaves.
        """
        self.check_leave(state, player)
        new = states.copy_state(state)
        new.left = state.left + (player,)
        note = []
        withdrawn = new.bids.pop(player, None)
        if withdrawn is not None:
            note.append(Text("Their bid of {bid} is withdrawn and will not be tried.",
                             bid=withdrawn.pivots))
            if not new.bids:
                new.first_bid = None  # PP4: no bid stands, so no timer runs
        if player in new.passes:
            new.passes.remove(player)
        won = len(new.tokens[player])
        note.append(Plural("Their {n} token stay on the record, but they can no longer win.",
                           "Their {n} tokens stay on the record, but they can no longer win.", n=won))
        reason = note[0] if len(note) == 1 else Text("{first} {second}", first=note[0], second=note[1])
        events = [self.left_event(player, reason)]
        if not new.remaining:
            new.bids, new.passes, new.first_bid = {}, [], None
            events.append(Event(Text("Nobody is left to bid: the game is over, and nobody wins."),
                                kind="end", data={"winners": []}))
            return Result(new, events)
        if new.over:  # G7: one player left of a game begun with two or more wins at once
            new.bids, new.passes, new.first_bid = {}, [], None
            (winner,) = new.remaining
            events.append(Event(Text("Only {winner} is left: the game is over, and {winner} wins "
                                     "(RULINGS G7).", winner=winner), kind="end", data={"winners": [winner]}))
            return Result(new, events)
        if self.ready(new, now):  # everyone still in has bid or passed: bidding closes
            events.append(Event(Text("Every player still in has bid or passed, so bidding closes "
                                     "now (PP4)."), kind="info"))
            closed = self.close_turn(new, now)
            return Result(closed.state, events + closed.events)
        return Result(new, events)

    def mark_drawn(self, state: PivotState) -> PivotState:
        """G6: over and drawn; the bids of the open round are never tried, no timer runs."""
        new = states.copy_state(state)
        new.drawn = True
        new.bids, new.passes, new.first_bid = {}, [], None
        return new

    def scores(self, state: PivotState) -> dict[str, int]:
        return {p: len(state.tokens[p]) for p in state.players}

    def par(self, state: PivotState) -> tuple[int | None, list[tuple[int, int]] | None]:
        """Fewest pivots for the current round and one such solution (None: none)."""
        if state.over:
            return None, None
        best = solver.solve(state.pawns, deck.ICON_COLOUR[state.token], deck.target_card(state.token))
        return (None if best is None else len(best)), best

    # --- presentation --------------------------------------------------------
    def render_board(self, state: PivotState, viewer: str | None = None) -> str:
        return board.render(state)

    def describe(self, state: PivotState, viewer: str | None = None) -> list[str]:
        return list(accessible.describe(state, viewer))

    def board_table(self, state: PivotState, viewer: str | None = None) -> tuple[list[str], list[list[str]]]:
        return accessible.board_table(state)

    def view(self, state: PivotState, viewer: str | None = None) -> dict:
        par = None
        if viewer is None and not state.over:
            pivots, best = self.par(state)
            par = (pivots, "" if not best else solution_text([PivotMove(m, q) for m, q in best]))
        return board.view(state, viewer, par)

    def help_text(self) -> str:
        from games import rulings  # the rulings' text, only when HELP is asked for

        return Text("{notation}\n\nRulings that apply to this game:\n\n{rulings}", notation=Text(NOTATION),
                    rulings=rulings.help_block("PP"))

    # --- JSON ----------------------------------------------------------------
    def dump(self, state: PivotState) -> dict:
        return states.dump(state, self.state_version)

    def load(self, data: dict) -> PivotState:
        self.check_version(data)
        return states.load(data)


GAME = PivotPawns()


def _try_bids(new: PivotState, start: tuple[int, ...], events: list[Event]) -> tuple[list[Attempt], str | None]:
    """Try the bids in order (PP4) from the round's start: the first whose solution lands the
    active pawn on the target within its bid wins the token and moves the pawns.  Appends each
    bid's event; returns the attempts and the winner, or None."""
    token = new.token
    active, target = deck.ICON_COLOUR[token], deck.target_card(token)
    label = deck.ICON_NAMES[token]
    attempts: list[Attempt] = []
    for player in board.bid_order(new):
        bid = new.bids[player]
        after, played, reason = solver.apply(
            start, [(p.moving, p.pivot) for p in bid.solution], active, target
        )
        if reason is None and played > bid.pivots:  # PP4: the landing must come within the bid
            reason = Text("{pawn} lands on the target card at pivot {number}, beyond the bid of {bid}",
                          pawn=Text(deck.PAWN_NAMES[active]), number=played, bid=bid.pivots)
        attempts.append(Attempt(player, bid.pivots, bid.solution, reason))
        if reason is None:
            new.pawns = tuple(after)
            new.tokens[player].append(token)
            events.append(
                Event(
                    Text("{player} wins the {token} token with a bid of {bid}", player=player,
                         token=Text(label), bid=bid.pivots),
                    kind="win",
                    data={"player": player, "bid": bid.pivots, "token": label},
                )
            )
            events.append(
                Event(Text("  solution: {solution}", solution=solution_text(bid.solution)), kind="solution")
            )
            return attempts, player
        events.append(
            Event(
                Text("{player}'s bid of {bid} fails: {reason}", player=player, bid=bid.pivots, reason=reason),
                kind="fail",
                data={"player": player, "bid": bid.pivots, "solution": solution_text(bid.solution)},
            )
        )
    return attempts, None


def _par_event(par_solution) -> Event:
    """The round's par: the fewest pivots that land the pawn, with one way to do it."""
    if par_solution is None:
        return Event(Text("Par: no solution existed this round"), kind="par")
    moves = solution_text([PivotMove(m, q) for m, q in par_solution])
    return Event(Plural("Par: {n} pivot, e.g. {moves}", "Par: {n} pivots, e.g. {moves}",
                        n=len(par_solution), moves=moves), kind="par", data={"par": len(par_solution)})

