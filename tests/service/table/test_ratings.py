"""Ratings of rated games (RULINGS G11, gm.service.table.ratings) through the service, on both back
ends: each way a game ends ranks its players as G11 says and changes their ratings by openskill's
Plackett-Luce figures for that ranking; a game in which a player never moved is not rated; an
unrated game changes nothing; a rollback takes a game's rating back."""

from __future__ import annotations

from openskill.models import PlackettLuce

from gm.service.play import lifecycle, positions
from gm.service.table import ratings
from support import EXAMPLE_LAYOUT, mark_all_sent, order_mail

ON_BOTH_BACKENDS = True

H, DAY = 3600.0, 86400.0
NAMES = ["ada", "bob", "cy", "dee"]


def new_game(engine, names=("ada", "bob"), game_id="nb1", rated="true", **options):
    options = {"layout": EXAMPLE_LAYOUT, **options} if len(names) == 2 else options
    return engine.create_game("neighbors", game_id, [(n, f"{n}@example.org") for n in names], seed=5,
                              options={**options, "rated": rated})


def send(engine, secrets, name, text, game_id="nb1"):
    return engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id, password=secrets[name]))


def move(engine, secrets, game_id="nb1", index=0) -> str:
    """The player to move mails a legal order; their name."""
    view = engine.load(game_id)
    (name,) = view.rules.to_move(view.state)
    legal = view.rules.legal_orders(view.state, name)
    send(engine, secrets, name, legal[index % len(legal)], game_id)
    return name


def everyone_moves(engine, secrets, game_id="nb1"):
    for _ in secrets:
        move(engine, secrets, game_id)


def by_name(engine, kind="neighbors"):
    """Each rated seat's (mu, sigma) and games, by its public name."""
    community = engine.store.community
    return {community.player(r.player_id).name: (r.mu, r.sigma, r.games) for r in community.ladder(kind)}


def ranks(engine, game_id="nb1"):
    return {r.seat: r.rank for r in engine.store.community.results_of_game(game_id)}


class Openskill:
    """openskill's own figures for a series of games, each player a team of one."""

    def __init__(self):
        self.model = PlackettLuce()
        self.skills = {}
        self.games = {}

    def game(self, ranked: dict[str, int]):
        names = sorted(ranked, key=lambda n: (ranked[n], n))  # the order gm rates them in
        teams = [[self.skills.get(n) or self.model.rating()] for n in names]
        for name, [after] in zip(names, self.model.rate(teams, ranks=[ranked[n] for n in names])):
            self.skills[name] = after
            self.games[name] = self.games.get(name, 0) + 1
        return self

    def figures(self):
        return {n: (r.mu, r.sigma, self.games[n]) for n, r in self.skills.items()}


def test_a_concession_ranks_the_one_left_first_and_rates_once(engine):
    secrets = new_game(engine)
    everyone_moves(engine, secrets)
    send(engine, secrets, "bob", "CONCEDE")
    assert engine.load("nb1").status == "finished"
    assert ranks(engine) == {"ada": 1, "bob": 2}
    assert engine.store.community.rated_game("nb1").rated == 1
    assert by_name(engine) == Openskill().game({"ada": 1, "bob": 2}).figures()
    with engine.store.write():  # a game is rated once
        ratings.game_ended(engine.store, engine.load("nb1"), engine.clock())
    assert by_name(engine)["ada"][2] == 1


def test_a_draw_ties_everyone_still_in(engine):
    secrets = new_game(engine)
    everyone_moves(engine, secrets)
    send(engine, secrets, "ada", "DRAW")
    send(engine, secrets, "bob", "DRAW")
    assert ranks(engine) == {"ada": 1, "bob": 1}
    assert by_name(engine) == Openskill().game({"ada": 1, "bob": 1}).figures()


def test_a_shared_win_the_gm_declared_ties_the_winners(engine):
    secrets = new_game(engine, NAMES[:3])
    everyone_moves(engine, secrets)
    lifecycle.end(engine, "nb1", "agreed at the table", winners=["cy", "ada"])
    assert ranks(engine) == {"ada": 1, "cy": 1, "bob": 3}
    assert by_name(engine) == Openskill().game({"ada": 1, "bob": 3, "cy": 1}).figures()


def test_a_later_leaver_ranks_above_an_earlier_one(engine):
    secrets = new_game(engine, NAMES)
    everyone_moves(engine, secrets)
    send(engine, secrets, "dee", "RESIGN")
    send(engine, secrets, "bob", "RESIGN")
    lifecycle.end(engine, "nb1", "time to stop", winners=["cy"])
    assert ranks(engine) == {"cy": 1, "ada": 2, "bob": 3, "dee": 4}


def test_a_loss_on_time_ranks_the_late_player_last(engine, clock):
    secrets = new_game(engine, clock="1d")
    mark_all_sent(engine)
    everyone_moves(engine, secrets)
    clock.advance(H)
    first = move(engine, secrets)
    clock.advance(DAY + 60)
    engine.tick()
    view = engine.load("nb1")
    assert view.status == "finished"
    late = next(n for n in secrets if n != first)
    assert ranks(engine) == {first: 1, late: 2}
    assert by_name(engine) == Openskill().game({first: 1, late: 2}).figures()


def test_the_rules_end_ranks_by_the_rules_winner(engine):
    secrets = new_game(engine)
    for _ in range(400):
        if engine.load("nb1").status == "finished":
            break
        move(engine, secrets)
    view = engine.load("nb1")
    assert view.rules.is_over(view.state)
    winners = view.rules.winners(view.state)  # this game ends in a shared win (a tie)
    expected = {n: 1 if n in winners else 1 + len(winners) for n in secrets}
    assert ranks(engine) == expected
    assert by_name(engine) == Openskill().game(expected).figures()


def test_a_game_in_which_a_player_never_moved_is_not_rated(engine):
    secrets = new_game(engine, NAMES[:3])
    move(engine, secrets)
    send(engine, secrets, "cy", "RESIGN")
    lifecycle.end(engine, "nb1", "stopped", winners=["ada"])
    row = engine.store.community.rated_game("nb1")
    assert (row.rated, row.reason) == (0, "bob, cy never made a move")
    assert engine.store.community.results_of_game("nb1") == [] and by_name(engine) == {}


def test_an_unrated_game_changes_nothing(engine):
    secrets = new_game(engine, rated="false")
    everyone_moves(engine, secrets)
    send(engine, secrets, "bob", "CONCEDE")
    assert engine.store.community.rated_game("nb1") is None and engine.store.community.kinds_rated() == []


def series(engine, games):
    """Rated three-player games, each ended by the GM with these winners; openskill's figures."""
    expected = Openskill()
    for n, winners in enumerate(games):
        game_id = f"s{n}"
        secrets = new_game(engine, NAMES[:3], game_id=game_id)
        everyone_moves(engine, secrets, game_id)
        lifecycle.end(engine, game_id, "series", winners=winners)
        expected.game({name: 1 if name in winners else 1 + len(winners) for name in NAMES[:3]})
    return expected


FIXED = [["ada"], ["bob"], ["ada", "cy"], ["ada"], ["cy"], ["bob", "cy"]]


def test_ratings_after_a_series_equal_openskills_own(engine):
    expected = series(engine, FIXED)
    assert by_name(engine) == expected.figures()
    with engine.store.write():
        assert ratings.recompute(engine.store, "neighbors") == 3
    assert by_name(engine) == expected.figures()  # recomputed from the results: the same
    history = engine.store.community.results_of(engine.store.community.by_name("ada").player_id)
    assert [r.game_id for r in history] == [f"s{n}" for n in range(len(FIXED))]


def test_a_rollback_takes_a_games_rating_back_and_it_is_rated_again_when_it_ends(engine):
    series(engine, FIXED[:2])
    secrets = new_game(engine, NAMES[:3], game_id="s9")
    everyone_moves(engine, secrets, "s9")
    lifecycle.end(engine, "s9", "first end", winners=["cy"])
    positions.rollback(engine, "s9", 1, why="misread")
    assert engine.store.community.rated_game("s9") is None
    assert by_name(engine) == series_figures(FIXED[:2])
    lifecycle.end(engine, "s9", "second end", winners=["bob"])
    assert by_name(engine) == series_figures(FIXED[:2] + [["bob"]])


def series_figures(games):
    expected = Openskill()
    for winners in games:
        expected.game({name: 1 if name in winners else 1 + len(winners) for name in NAMES[:3]})
    return expected.figures()
