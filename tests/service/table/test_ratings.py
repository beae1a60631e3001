"""Ratings of rated games (RULINGS G11, gm.service.table.ratings) through the service, on both back
ends: each way a game ends ranks its players as G11 says and changes their ratings by openskill's
Plackett-Luce figures for that ranking; a game in which a player never moved is not rated; an
unrated game changes nothing; a rollback takes a game's rating back."""

from __future__ import annotations

import json

from openskill.models import PlackettLuce

from gm.service.play import lifecycle, positions
from gm.service.table import ratings
from support import EXAMPLE_LAYOUT, ask, confirmed, mark_all_sent, order_mail

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

    def game(self, ranked: dict[str, int], seats: dict[str, str] | None = None):
        """One game's ranks by player; ``seats``: the seat a player had, if not its name (gm rates
        the players in order of rank and seat: the same figures to the last bit)."""
        seat = {**{n: n for n in ranked}, **(seats or {})}
        names = sorted(ranked, key=lambda n: (ranked[n], seat[n]))
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


def test_a_forfeit_gives_the_others_a_shared_win(engine):
    secrets = new_game(engine, NAMES[:3])
    everyone_moves(engine, secrets)
    with engine.store.write(games=["nb1"]):
        lifecycle.forfeit(engine, engine.load("nb1"), "bob", "deadline", "no orders")
    assert ranks(engine) == {"ada": 1, "cy": 1, "bob": 3}


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


def test_set_name_gives_a_unique_public_name(engine):
    secrets = new_game(engine)
    assert "Your public name is now Lovelace" in ask(engine, "ada@example.org", "SET NAME Lovelace",
                                                     game_id="nb1", password=secrets["ada"])
    taken = ask(engine, "bob@example.org", "SET NAME LOVELACE", game_id="nb1", password=secrets["bob"])
    assert "another player has the public name 'Lovelace'" in taken
    for bad in ("x", "ada@example.org", "a" * 31, "two words"):
        assert "a public name is 2 to 30" in ask(engine, "bob@example.org", f"SET NAME {bad}", game_id="nb1",
                                                   password=secrets["bob"])
    assert "Lovelace" in ask(engine, "ada@example.org", "SET NAME Lovelace", game_id="nb1",
                             password=secrets["ada"])  # one's own name again: kept
    community = engine.store.community
    row = community.by_name("lovelace")
    assert (row.address, row.seat_name, row.chosen) == ("ada@example.org", "ada", 1)
    assert community.by_name("bob") is None  # refused: nothing made for bob


def test_set_name_all_joins_every_seat_of_an_address_and_its_ratings(engine):
    """ada plays as seat ada in s0 and as seat red in s1: two players until SET NAME ... ALL."""
    rivals = [("bob", "bob@example.org"), ("cy", "cy@example.org")]
    for game_id, seat, winners in (("s0", "ada", ["ada"]), ("s1", "red", ["bob"])):
        secrets = engine.create_game("neighbors", game_id, [(seat, "ada@example.org"), *rivals], seed=5,
                                     options={"rated": "true"})
        everyone_moves(engine, secrets, game_id)
        lifecycle.end(engine, game_id, "series", winners=winners)
    assert set(by_name(engine)) == {"ada", "red", "bob", "cy"}
    answer = ask(engine, "ada@example.org", "SET NAME Countess ALL", game_id="s1", password=secrets["red"])
    assert "every seat of ada@example.org" in answer
    expected = Openskill().game({"Countess": 1, "bob": 2, "cy": 2}, {"Countess": "ada"}).game(
        {"bob": 1, "Countess": 2, "cy": 2}, {"Countess": "red"})
    assert by_name(engine) == expected.figures()
    linked = engine.store.community.by_name("countess")
    assert [r.seat for r in engine.store.community.results_of(linked.player_id)] == ["ada", "red"]
    secrets = engine.create_game("neighbors", "s2", [("blue", "ada@example.org"), *rivals], seed=5,
                                 options={"rated": "true"})
    everyone_moves(engine, secrets, "s2")
    lifecycle.end(engine, "s2", "series", winners=["blue"])
    assert by_name(engine)["Countess"][2] == 3  # a later seat counts for the linked player


def test_ratings_by_mail_show_names_never_addresses(engine):
    series(engine, FIXED[:2])
    every = ask(engine, "stranger@example.net", "RATINGS")
    assert "Neighbors (neighbors): 3 rated players" in every and "provisional" in every
    assert "@" not in every.split("Neighbors (neighbors)")[1]
    one = ask(engine, "stranger@example.net", "RATINGS neighbors")
    assert all(f". {name}" in one for name in ("ada", "bob", "cy")) and "example.org" not in one
    assert "write RATINGS for every game's ladder" in ask(engine, "stranger@example.net", "RATINGS chess")


def test_create_by_mail_is_rated_only_where_the_config_allows_it(engine):
    engine.config.player_create_kinds = ["neighbors"]
    refused = ask(engine, "ada@example.org", "CREATE neighbors nb9 3 RATED")
    assert "cannot open rated games on this server" in " ".join(refused.split())
    assert engine.store.games.game("nb9") is None
    assert "game nb8 is open" in confirmed(engine, "ada@example.org", "CREATE neighbors nb8")
    engine.config.player_rated = True
    assert "game nb9 is open: 3 seats" in confirmed(engine, "ada@example.org", "CREATE neighbors nb9 3 rated")
    assert ratings.is_rated(engine.store, "nb9") and not ratings.is_rated(engine.store, "nb8")


def test_gm_ratings_shows_the_ladders_and_recomputes(engine, tmp_path):
    from typer.testing import CliRunner

    from gm.cli import app

    series(engine, FIXED[:3])
    conf = tmp_path / "gm.yaml"
    store = f"store: {engine.config.store}\n" if engine.config.store else ""
    conf.write_text(f"data_dir: {engine.config.data_dir}\naddress: gm@localhost\n{store}")

    def gm(*args):
        return CliRunner().invoke(app, ["--config", str(conf), "ratings", *args], env={"GM_USER": "tester"})

    shown = gm("neighbors")
    assert shown.exit_code == 0, shown.output
    assert "Neighbors (neighbors): 3 rated players" in shown.output and "example.org" not in shown.output
    assert gm().output == "\n".join(ratings.ladders_text(engine.store, None)) + "\n"
    before = by_name(engine)
    again = gm("recompute", "neighbors")
    assert again.exit_code == 0 and "the ratings of 3 players recomputed" in again.output
    assert by_name(engine) == before
    assert gm("recompute").exit_code != 0 and gm("chess").exit_code != 0


def test_my_data_holds_the_addresss_public_players_ratings_results_and_entries(engine):
    from gm.service.people import mydata, tournaments

    secrets = new_game(engine)
    everyone_moves(engine, secrets)
    send(engine, secrets, "bob", "CONCEDE")
    tournaments.new(engine, "cup", "neighbors", "swiss", rounds=2, table_size=2)
    tournaments.enter(engine, "cup", "ada", "ada@example.org")
    data = mydata.gather(engine.store, engine.config, "ada@example.org", engine.clock())
    (player,) = data["public_players"]
    assert player["public_name"] == "ada" and player["seats"] == "ada"
    (rating,) = player["ratings"]
    assert rating["kind"] == "neighbors" and rating["games"] == 1
    assert [(r["game_id"], r["rank"]) for r in player["rated_results"]] == [("nb1", 1)]
    assert [(t["tournament"], t["status"]) for t in player["tournaments"]] == [("cup", "entered")]
    assert "bob@example.org" not in json.dumps(data)
    assert mydata.gather(engine.store, engine.config, "eve@example.org", engine.clock())["public_players"] == []
