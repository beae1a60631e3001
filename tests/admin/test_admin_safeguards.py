"""GM commands that let mistakes in (issue "Fair play and clear words"): gm new checks its players,
gm order is marked as the GM's, gm delete removes a game made by mistake, every override takes
its reason as -m/--why, and --help shows boolean flags as flags."""

from __future__ import annotations

import email
import email.policy
import json
import random

import pytest
from typer.testing import CliRunner

from games import registry
from gm.cli import app
from admin_helpers import run_gm as gm
from gm.mail.quotes import MARKER
from gm.store.packing import unpack_mail
from support import PLAYERS3

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

GAME_TABLES = ("games", "players", "states", "orders", "history", "game_settings", "deadlines",
               "absences", "state_overrides", "results", "timers", "reports")








def new(conf, *players, game_id="nb1", kind="neighbors", extra=()):
    args = ["new", kind, "--id", game_id, "--seed", "3", *extra]
    for player in players:
        args += ["--player", player]
    return gm(conf, *args)


def rows(store, table, game_id="nb1"):
    column = "id" if table == "games" else "game_id"
    return store.one(f"SELECT count(*) AS n FROM {table} WHERE {column} = :game", game=game_id)["n"]


def bodies(store, recipient, since=0):
    out = []
    for row in store.all("SELECT * FROM outbox WHERE recipient = :recipient AND id > :since ORDER BY id",
                         recipient=recipient, since=since):
        msg = email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)
        out.append((row["subject"], msg.get_body(("plain",)).get_content()))
    return out


# --- 1. gm new checks its players -------------------------------------------------------
@pytest.mark.parametrize("players, words", [
    (["ada=ada@", "bob=bob@example.org"], "'ada@' is not a mail address"),
    (["ada=ada example.org", "bob=bob@example.org"], "is not a mail address"),
    (["ada=a@example.org, c@example.org", "bob=bob@example.org"], "is not a mail address"),
    (["ada=<ada@example.org", "bob=bob@example.org"], "is not a mail address"),
    (["ada=ada@example.org", "bob=ADA@example.org"], "each player needs an address of their own"),
    (["ada=ada@example.org", "Ada=bob@example.org"], "two players are called ada and Ada"),
    (["=ada@example.org", "bob=bob@example.org"], "a player needs a name"),
    (["ada lovelace=ada@example.org", "bob=bob@example.org"], "a name is one word"),
    (["ada,bob=ada@example.org", "bob=bob@example.org"], "a name is one word"),
])
def test_new_refuses_bad_players_and_creates_nothing(conf, store, players, words):
    result = new(conf, *players)
    assert result.exit_code == 1, result.output
    assert words in result.stderr and "no game was created" in result.stderr
    assert store.games.every_game() == [] and store.all("SELECT * FROM outbox") == []
    assert all(rows(store, table) == 0 for table in GAME_TABLES)


def test_new_takes_a_named_address_as_its_addr_spec(conf, store):
    result = new(conf, "ada=Ada Lovelace <ada@example.org>", "bob= bob@example.org ")
    assert result.exit_code == 0, result.output
    assert [p["email"] for p in store.seats.players("nb1")] == ["ada@example.org", "bob@example.org"]


def test_replace_refuses_a_malformed_address(conf, store):
    new(conf, "ada=ada@example.org", "bob=bob@example.org")
    result = gm(conf, "replace", "nb1", "bob", "--email", "carol@", "-m", "bob left")
    assert result.exit_code == 1 and "not a mail address" in result.stderr
    assert store.seats.player("nb1", "bob")["email"] == "bob@example.org"


# --- 2. gm order is marked as the GM's ---------------------------------------------------
def test_gm_order_is_marked_in_the_report_and_verify_still_passes(conf, store):
    new(conf, "ada=ada@example.org", "bob=bob@example.org")
    before = store.one("SELECT max(id) AS n FROM outbox")["n"]
    shown = gm(conf, "show", "nb1", "--json").stdout
    legal = json.loads(shown)["legal"][0]
    result = gm(conf, "order", "nb1", "--as", "ada", legal, "-m", "ada asked by phone")
    assert result.exit_code == 0, result.output
    for address in ("ada@example.org", "bob@example.org"):
        ((subject, body),) = bodies(store, address, before)
        assert "report" in subject
        assert body.startswith(MARKER + "\n\nThe game master entered this order for ada: ")
    log = [r for r in store.history.history_of("nb1") if r["action"] == "order"][-1]
    assert log["actor"] == "gm:tester" and "ada asked by phone" in log["detail"]
    # The next one names its own player.
    bob_move = json.loads(gm(conf, "show", "nb1", "--json").stdout)["legal"][0]
    since = store.one("SELECT max(id) AS n FROM outbox")["n"]
    gm(conf, "order", "nb1", "--as", "bob", bob_move)
    assert all(b.startswith(MARKER + "\n\nThe game master entered this order for bob")
               for _, b in bodies(store, "ada@example.org", since))
    verified = gm(conf, "verify", "nb1")
    assert verified.exit_code == 0 and "OK" in verified.stdout, verified.stdout


@pytest.mark.skipif("fuzzy-borders" not in registry.available(), reason="games/fuzzy_borders not importable")
def test_gm_order_in_a_simultaneous_game_is_named_in_the_confirmation_and_the_report(conf, store):
    new(conf, *(f"{n}={a}" for n, a in PLAYERS3), game_id="fb1", kind="fuzzy-borders",
        extra=("-o", "side=5"))
    rules = registry.get("fuzzy-borders")
    rng = random.Random(3)
    state = rules.load(store.turns.state_data(store.turns.latest_state("fb1")))
    before = store.one("SELECT max(id) AS n FROM outbox")["n"]
    for name in rules.to_move(state):
        text = rules.random_order(rules.load(store.turns.state_data(store.turns.latest_state("fb1"))), name, rng)
        assert gm(conf, "order", "fb1", "--as", name, text).exit_code == 0
    mails = bodies(store, "ada@example.org", before)
    assert any("Orders received" in s and "The game master entered this order for ada" in b
               for s, b in mails)
    reports = [b for s, b in mails if "report" in s]
    assert reports and reports[-1].startswith(MARKER + "\n\nThe game master entered the orders of ada, bob, cy")
    verified = gm(conf, "verify", "fb1")
    assert verified.exit_code == 0 and "OK" in verified.stdout, verified.stdout


# --- 3. gm delete -----------------------------------------------------------------------
def test_delete_needs_yes_and_removes_every_row_of_the_game(conf, store):
    new(conf, "ada=ada@example.org", "bob=bob@example.org")
    new(conf, "ada=ada@example.org", "bob=bob@example.org", game_id="nb2")
    gm(conf, "settings", "nb1", "press=grey", "-m", "quiet table")
    gm(conf, "deadline", "nb1", "+48h", "-m", "slow week")
    assert all(rows(store, t) for t in ("games", "players", "states", "history", "game_settings",
                                        "deadlines", "reports"))
    outbox_before = store.one("SELECT count(*) AS n FROM outbox")["n"]
    refused = gm(conf, "delete", "nb1")
    assert refused.exit_code == 1 and "--yes" in refused.stderr and rows(store, "games") == 1
    done = gm(conf, "delete", "nb1", "--yes")
    assert done.exit_code == 0 and "game nb1 deleted" in done.stdout, done.output
    assert all(rows(store, table) == 0 for table in GAME_TABLES)
    assert store.one("SELECT count(*) AS n FROM outbox")["n"] == outbox_before  # the mail stays
    assert all(rows(store, t, "nb2") for t in ("games", "players", "states", "reports"))
    assert "no game called" in gm(conf, "delete", "nb1", "--yes").stderr
    assert "nb1" not in gm(conf, "list").stdout
    # The id is free again.
    assert new(conf, "ada=ada@example.org", "bob=bob@example.org").exit_code == 0


def test_delete_refuses_a_played_game_unless_forced(conf, store):
    new(conf, "ada=ada@example.org", "bob=bob@example.org")
    move = json.loads(gm(conf, "show", "nb1", "--json").stdout)["legal"][0]
    gm(conf, "order", "nb1", "--as", "ada", move)
    gm(conf, "end", "nb1", "-m", "a test")
    refused = gm(conf, "delete", "nb1", "--yes")
    assert refused.exit_code == 1 and "accepted order" in refused.stderr and "--force" in refused.stderr
    assert rows(store, "orders") and rows(store, "results")
    done = gm(conf, "delete", "nb1", "--yes", "--force")
    assert done.exit_code == 0, done.output
    assert all(rows(store, table) == 0 for table in GAME_TABLES)


# --- 4. one way to give a reason -------------------------------------------------------
def test_end_takes_its_reason_with_m_and_still_as_an_argument(conf, store):
    for game_id in ("nb1", "nb2", "nb3"):
        new(conf, "ada=ada@example.org", "bob=bob@example.org", game_id=game_id)
    assert gm(conf, "end", "nb1", "-m", "agreed a draw").exit_code == 0
    assert gm(conf, "end", "nb2", "--why", "agreed a draw", "--winner", "ada").exit_code == 0
    assert gm(conf, "end", "nb3", "agreed a draw").exit_code == 0  # the old way still works
    for game_id in ("nb1", "nb2", "nb3"):
        assert store.results.result_of(game_id)["reason"] == "agreed a draw"
        end_log = [r for r in store.history.history_of(game_id) if r["action"] == "end"][-1]
        assert "why: agreed a draw" in end_log["detail"]
    new(conf, "ada=ada@example.org", "bob=bob@example.org", game_id="nb4")
    missing = gm(conf, "end", "nb4")
    assert missing.exit_code == 1 and "-m REASON" in missing.stderr
    twice = gm(conf, "end", "nb4", "one reason", "-m", "another")
    assert twice.exit_code == 1 and store.games.game("nb4")["status"] == "active"


def test_every_override_takes_m_and_why(conf, store):
    new(conf, "ada=ada@example.org", "bob=bob@example.org")
    for command in ("deadline", "pause", "resume", "end", "rollback", "replace", "eject", "edit",
                    "resend", "settings", "order"):
        text = gm(conf, command, "--help").stdout
        assert "-m, --why" in text, command
    gm(conf, "settings", "nb1", "press=grey", "-m", "quiet table")
    log = [r for r in store.history.history_of("nb1") if r["action"] == "settings"][-1]
    assert log["detail"] == "press=grey; why: quiet table"


# --- 5. --help shows flags as flags --------------------------------------------------------
def test_help_shows_no_bool_type():
    commands = [[]] + [[c.name] for c in app.registered_commands if c.name] + \
        [[c.callback.__name__] for c in app.registered_commands if not c.name] + \
        [["archive"], ["archive", "build"], ["archive", "screenshot"]]
    runner = CliRunner()
    for command in commands:
        result = runner.invoke(app, [*command, "--help"])
        assert result.exit_code == 0, (command, result.output)
        assert "<bool>" not in result.output, command
        assert "--help" in result.output
    shown = runner.invoke(app, ["show", "--help"]).output
    assert "--json " in shown and "one JSON object" in shown
    assert "--yes " in runner.invoke(app, ["delete", "--help"]).output
