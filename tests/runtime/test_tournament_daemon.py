"""Tournaments played by mail to the end through the daemon's passes (Engine.tick): a round robin
of 6, a Swiss of 9 over 4 rounds (two-player), a Swiss of 12 in tables of 4 (Fuzzy Borders).

Every game is ended by its players' mails, chosen from a seeded RNG: a few orders first or not,
then a resignation, or a draw agreed by all (a mix at a table of four), so wins, losses and draws
all happen.  The test then checks the pairings (no repeat in a Swiss, one bye a round for an odd
count and never two to one player) and recomputes the standings with its own small points,
Buchholz, Sonneborn-Berger and sum-of-ranks code over the games' rankings read back from the
store, which must equal what gm shows.
"""

from __future__ import annotations

import random
from collections import Counter

from gm.service.people import tournamentrounds, tournaments
from gm.service.table import ranking
from support import body, last_outbox_id, order_mail, outbox

BYE = 1.0


class Players:
    """The entrants' side: their welcomes read for passwords, their games ended by mail."""

    def __init__(self, engine, seed: int):
        self.engine, self.rng = engine, random.Random(seed)
        self.seen = 0
        self.passwords: dict[tuple[str, str], str] = {}
        self.endings: Counter[str] = Counter()

    def read_welcomes(self) -> None:
        for mail in outbox(self.engine, self.seen):
            if "Welcome" not in mail["Subject"]:
                continue
            text = body(mail)
            game_id = mail["Subject"].split("[gm ", 1)[1].split("]", 1)[0]
            (line,) = [x for x in text.splitlines() if x.strip().startswith("Your password: ")]
            self.passwords[game_id, mail["To"].split("@")[0]] = line.split(": ", 1)[1].strip()
        self.seen = last_outbox_id(self.engine)

    def send(self, game_id: str, name: str, text: str) -> None:
        self.engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id,
                                      password=self.passwords[game_id, name]))

    def some_orders(self, game_id: str) -> None:
        """A move or two by mail, as the rules take them (every player at once where they are simultaneous)."""
        for _ in range(self.rng.randint(1, 2)):
            view = self.engine.load(game_id)
            if view.status != "active":
                return
            for mover in view.rules.to_move(view.state):
                text = view.rules.random_order(self.engine.load(game_id).state, mover, self.rng)
                if text is not None:
                    self.send(game_id, mover, text)

    def end(self, game_id: str) -> None:
        """The game ended by its players' mails."""
        names = [p.name for p in self.engine.load(game_id).players]
        if self.rng.random() < 0.4:
            self.some_orders(game_id)
            self.endings["orders"] += 1
        how = self.rng.choice(["resign", "draw", "mixed"] if len(names) > 2 else ["resign", "resign", "draw"])
        self.endings[how] += 1
        order = self.rng.sample(names, len(names))
        resigning = {"resign": order[:-1], "draw": [], "mixed": order[:1]}[how]
        for name in resigning:
            self.send(game_id, name, self.rng.choice(["RESIGN", "CONCEDE"]))
        if how != "resign":
            for name in order[len(resigning):]:
                self.send(game_id, name, "DRAW")
        assert self.engine.load(game_id).status == "finished", (game_id, how)

    def play(self, tid: str) -> None:
        """Each round's games ended by mail, then the daemon's pass, to the tournament's end."""
        tournamentrounds.start(self.engine, tid)
        passes = 0
        while self.engine.store.tournaments.tournament(tid).status == "running":
            self.read_welcomes()
            row = self.engine.store.tournaments.tournament(tid)
            for game_id in sorted({s.game_id for s in self.engine.store.tournaments.round_seats(tid, row.round)
                                   if s.game_id}):
                self.end(game_id)
            done = self.engine.tick()
            assert any(d.startswith(f"tournament {tid}: ") for d in done), done
            passes += 1
            assert passes <= 20


# --- the test's own arithmetic ------------------------------------------------------------
def tables(engine, tid: str) -> dict[tuple[int, int], list]:
    found: dict[tuple[int, int], list] = {}
    for seat in engine.store.tournaments.table_seats(tid):
        found.setdefault((seat.round, seat.board), []).append(seat)
    return found


def tiers_read_back(engine, game_id: str, ids: dict[str, str]) -> list[list[str]]:
    """The game's final ranking (G11) from the store, as player ids."""
    return [[ids[name] for name in tier] for tier in ranking.final_ranking(engine.store, engine.load(game_id))]


def own_standings(engine, tid: str) -> dict[str, tuple]:
    """name -> (points, games, tiebreaks) computed here from the games' rankings and the byes."""
    two = engine.store.tournaments.tournament(tid).table_size == 2
    entries = engine.store.tournaments.entries(tid)
    ids = {e.seat_name: e.player_id for e in entries}
    points: Counter[str] = Counter()
    games: Counter[str] = Counter()
    played = []  # (player, opponent, score against it) and ranks
    ranks: Counter[str] = Counter()
    for (_, board), table in tables(engine, tid).items():
        if board == 0:
            for seat in table:
                points[seat.player_id] += BYE
            continue
        tiers = tiers_read_back(engine, table[0].game_id, ids)
        for place, tier in enumerate(tiers):
            better = sum(len(t) for t in tiers[:place])
            worse = sum(len(t) for t in tiers[place + 1:])
            for player in tier:
                games[player] += 1
                points[player] += worse + 0.5 * (len(tier) - 1)
                ranks[player] += better + 1
                for other_place, other_tier in enumerate(tiers):
                    for other in other_tier:
                        if other != player:
                            played.append((player, other, 1.0 if place < other_place else 0.5 if place == other_place
                                           else 0.0))
    names = {e.player_id: engine.store.community.player(e.player_id).name for e in entries}
    result = {}
    for player in names:
        if two:
            buchholz = sum(points[o] for p, o, _ in played if p == player)
            sonneborn = sum(points[o] * s for p, o, s in played if p == player)
            breaks: tuple = (buchholz, sonneborn)
        else:
            breaks = (float(ranks[player]),)
        result[names[player]] = (points[player], games[player], breaks)
    return result


def check_standings(engine, tid: str) -> list[dict]:
    info = tournaments.summary(engine, tid)
    assert info["status"] == "finished"
    own = own_standings(engine, tid)
    shown = {s["name"]: (s["points"], s["games"], tuple(s["tiebreaks"])) for s in info["standings"]}
    assert shown.keys() == own.keys()
    for name, (points, games, breaks) in own.items():
        assert shown[name][0] == points and shown[name][1] == games, name
        assert len(shown[name][2]) == len(breaks), name
        assert all(abs(a - b) < 1e-9 for a, b in zip(shown[name][2], breaks)), (name, shown[name], breaks)
    # Best first: points, then each tiebreak (greater is better, but for the sum of ranks); equal: one place.
    sign = 1 if len(info["tiebreaks"]) == 2 else -1
    keys = [(s["points"], *(sign * t for t in s["tiebreaks"])) for s in info["standings"]]
    assert keys == sorted(keys, reverse=True)
    for i, line in enumerate(info["standings"]):
        assert line["place"] == 1 + sum(1 for k in keys if k > keys[i])
    assert "@" not in repr(info)
    return info["standings"]


def pairs_of(engine, tid: str) -> list[frozenset[str]]:
    return [frozenset(s.player_id for s in table) for (_, board), table in tables(engine, tid).items() if board]


def byes_by_round(engine, tid: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for (round_, board), table in tables(engine, tid).items():
        found.setdefault(round_, [])
        if board == 0:
            found[round_] += [s.player_id for s in table]
    return found


def enter(engine, tid: str, count: int) -> list[str]:
    names = [f"p{i:02d}" for i in range(count)]
    for name in names:
        tournaments.enter(engine, tid, name, f"{name}@example.org")
    return names


# --- the tournaments ------------------------------------------------------------------------
def test_a_round_robin_of_six_played_by_mail(engine):
    tournaments.new(engine, "rr6", "proximity", "round-robin", 0)
    enter(engine, "rr6", 6)
    players = Players(engine, 6)
    players.play("rr6")
    pairs = pairs_of(engine, "rr6")
    assert len(pairs) == 15 and len(set(pairs)) == 15  # every pair once
    assert engine.store.tournaments.tournament("rr6").round == 5
    assert all(not byes for byes in byes_by_round(engine, "rr6").values())
    check_standings(engine, "rr6")
    assert players.endings["resign"] and players.endings["draw"] and players.endings["orders"]
    finals = [m for m in outbox(engine) if "final standings" in m["Subject"]]
    assert len(finals) == 6 and all("example.org" not in body(m) for m in finals)


def test_a_swiss_of_nine_over_four_rounds_played_by_mail(engine):
    tournaments.new(engine, "sw9", "proximity", "swiss", 4)
    enter(engine, "sw9", 9)
    players = Players(engine, 9)
    players.play("sw9")
    pairs = pairs_of(engine, "sw9")
    assert len(pairs) == 16 and len(set(pairs)) == 16  # no repeat pairing
    byes = byes_by_round(engine, "sw9")
    assert sorted(byes) == [1, 2, 3, 4] and all(len(b) == 1 for b in byes.values())
    given = [p for b in byes.values() for p in b]
    assert len(set(given)) == 4  # never twice to one player
    check_standings(engine, "sw9")
    assert players.endings["resign"] and players.endings["draw"]


def test_a_swiss_of_twelve_in_tables_of_four_played_by_mail(engine):
    tournaments.new(engine, "fb12", "fuzzy-borders", "swiss", 3, table_size=4)
    names = enter(engine, "fb12", 12)
    players = Players(engine, 12)
    players.play("fb12")
    found = tables(engine, "fb12")
    for round_ in (1, 2, 3):
        seated = [s.player_id for (r, board), table in found.items() if r == round_ for s in table]
        assert len(seated) == 12 == len(set(seated))
        assert all(len(t) == 4 for (r, b), t in found.items() if r == round_ and b)
    standings = check_standings(engine, "fb12")
    assert sorted(s["name"] for s in standings) == names
    assert players.endings["resign"] and players.endings["draw"] and players.endings["mixed"]
