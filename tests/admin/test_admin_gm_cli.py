"""The GM's command line as the GM meets it (issue "At the table", GM CLI): gm options KIND lists
every option with its default and meaning, an unknown option names them all, every override takes
-m/--why into the history, gm edit reopens the editor on an edit it cannot save, and gm deadline
reads the forms a GM types and lists them on a mistake.  Through the CLI on a real store."""

from __future__ import annotations

import sys
import textwrap

import pytest

from admin_helpers import run_gm as gm
from admin_helpers import T0
from games import registry
from gm.core import options, times








def new_game(conf, kind="neighbors", game_id="nb1", extra=()):
    players = ["ada=ada@example.org", "bob=bob@example.org", "cyd=cyd@example.org"][:3 if kind != "neighbors" else 2]
    args = ["new", kind, "--id", game_id, "--seed", "3", *extra]
    for player in players:
        args += ["--player", player]
    result = gm(conf, *args)
    assert result.exit_code == 0, result.stderr
    return result


def log_of(store, game_id, action):
    return [r for r in store.history.history_of(game_id) if r["action"] == action]


# --- gm options KIND, and an unknown option ----------------------------------------------------------
def test_gm_options_lists_the_games_and_the_service_options_with_default_and_meaning(conf):
    shown = gm(conf, "options", "neighbors")
    assert shown.exit_code == 0, shown.stderr
    text = " ".join(shown.stdout.split())  # the meanings are wrapped at 78 columns
    assert "neighbors_rule NB5: capture only from the last landing's file or row (default: false)" in text
    assert "layout 42 characters" in text
    for key, option in options.SERVICE.items():  # deadline, reminder, grace, late, press...
        assert f"{key} {' '.join(option.help.split())} (default: {option.default or 'none'})" in text, key
    assert "reminder how long before the deadline" in text and "(default: 24h)" in text
    assert all(len(line) <= 78 for line in shown.stdout.splitlines())
    unknown = gm(conf, "options", "chess")
    assert unknown.exit_code == 1 and "neighbors, fuzzy-borders" in unknown.stderr
    assert "meaning: gm options KIND" in " ".join(gm(conf, "new", "--help").stdout.split())


def test_an_unknown_option_names_every_option_the_game_and_the_service_take(conf, store):
    for extra in ([], ["--open", "2"]):
        refused = gm(conf, "new", "neighbors", "--id", "nb1", "-o", "bogus=1", "-o", "press=grey",
                     *(extra or ["--player", "ada=ada@example.org", "--player", "bob=bob@example.org"]))
        assert refused.exit_code == 1
        message = refused.stderr
        assert "unknown option 'bogus'" in message
        for key in [*registry.get("neighbors").options, *options.SERVICE]:
            assert key in message, (key, message)
        assert store.games.game("nb1") is None
    new_game(conf, extra=["-o", "reminder=12h", "-o", "neighbors_rule=true"])  # both kinds still taken
    assert "reminder     12h" in gm(conf, "settings", "nb1").stdout


# --- -m/--why on every override ----------------------------------------------------------------------
OVERRIDES = [["deadline"], ["pause"], ["resume"], ["end"], ["rollback"], ["replace"], ["eject"], ["edit"],
             ["resend"], ["settings"], ["order"], ["process"], ["broadcast"], ["start"], ["seat", "reset"],
             ["seat", "address"], ["players"], ["draw"], ["concede"], ["observers"]]


def test_every_override_takes_m_why(conf):
    for command in OVERRIDES:
        assert "-m, --why" in gm(conf, *command, "--help").stdout, command


@pytest.mark.skipif("fuzzy-borders" not in registry.available(), reason="games/fuzzy_borders not importable")
def test_gm_process_m_goes_into_the_history(conf, store):
    new_game(conf, kind="fuzzy-borders", game_id="fb1", extra=["-o", "side=5"])
    done = gm(conf, "process", "fb1", "-m", "cyd is ill, we go on without her")
    assert done.exit_code == 0, done.stderr
    (row,) = log_of(store, "fb1", "process")
    assert row["detail"] == "why: cyd is ill, we go on without her" and row["actor"] == "gm:tester"
    assert "why: cyd is ill, we go on without her" in gm(conf, "history", "fb1", "--log").stdout


def test_gm_broadcast_and_start_m_go_into_the_history(conf, store):
    new_game(conf)
    assert gm(conf, "broadcast", "nb1", "Server moves on Friday.", "-m", "maintenance").exit_code == 0
    assert log_of(store, "nb1", "broadcast")[-1]["detail"] == "Server moves on Friday.; why: maintenance"
    assert gm(conf, "new", "neighbors", "--id", "nb2", "--open", "2").exit_code == 0
    with store.write():  # both seats taken (as by JOIN; the game would start at the next mail)
        store.seats.add_player("nb2", 0, "ada", "ada@example.org", "x")
        store.seats.add_player("nb2", 1, "bob", "bob@example.org", "x")
    started = gm(conf, "start", "nb2", "-m", "bob never came")
    assert started.exit_code == 0, started.stderr
    assert log_of(store, "nb2", "start")[-1]["detail"] == "why: bob never came"


def test_gm_observers_m_goes_into_the_history(conf, store):
    new_game(conf)
    with store.write():  # cy asked to observe (as by a confirmed OBSERVE) in a game with observers=approved
        store.selfservice.add_observer("nb1", "cy@example.org", False, 0.0)
    done = gm(conf, "observers", "nb1", "--approve", "cy@example.org", "-m", "cy is ada's coach",
              "--by", "gm:lee")
    assert done.exit_code == 0, done.stderr
    (row,) = log_of(store, "nb1", "observer approved")
    assert row["detail"] == "cy@example.org; why: cy is ada's coach" and row["actor"] == "gm:lee"


# --- gm edit: an edit that cannot be saved is opened again, as typed ----------------------------------
EDITOR = textwrap.dedent("""\
    import json, pathlib, sys
    path, folder = pathlib.Path(sys.argv[1]), pathlib.Path({folder!r})
    seen = sorted(folder.glob("seen-*"))
    text = path.read_text()
    (folder / f"seen-{{len(seen)}}").write_text(text)
    step = {steps!r}[len(seen)]
    if step == "typo":  # a comma too many: not JSON
        path.write_text(text.replace('"neighbors_rule": false', '"neighbors_rule": true,,'))
    elif step == "refused":  # JSON the rules refuse
        data = json.loads(text)
        data["board"] = "X" * 42
        path.write_text(json.dumps(data, indent=2))
    elif step == "fix":  # the first text shown, with the option on
        data = json.loads((folder / "seen-0").read_text())
        data["neighbors_rule"] = True
        path.write_text(json.dumps(data, indent=2))
    elif step == "empty":
        path.write_text("")
    """)  # "same": the file saved as it was shown


def edit_with(conf, tmp_path, *steps):
    folder = tmp_path / "editor"
    folder.mkdir()
    script = tmp_path / "editor.py"
    script.write_text(EDITOR.format(folder=str(folder), steps=list(steps)))
    result = gm(conf, "edit", "nb1", "-m", "fix the position",
                env={"VISUAL": "", "EDITOR": f"{sys.executable} {script}"})
    return result, [p.read_text() for p in sorted(folder.glob("seen-*"))]


def neighbors_rule(store):
    return store.turns.state_data(store.turns.latest_state("nb1"))["neighbors_rule"]


def test_gm_edit_reopens_a_json_typo_with_the_text_typed_and_the_error_on_top(conf, store, tmp_path):
    new_game(conf)
    result, seen = edit_with(conf, tmp_path, "typo", "fix")
    assert result.exit_code == 0, result.stderr
    assert len(seen) == 2
    notes = [line for line in seen[1].splitlines() if line.startswith("#")]
    assert notes[0] == "# gm edit nb1: refused, nothing saved:" and "not JSON" in notes[1]
    assert any("empty file" in line and "give up" in line for line in notes)
    assert '"neighbors_rule": true,,' in seen[1]  # what the GM typed is kept
    assert neighbors_rule(store) is True
    assert log_of(store, "nb1", "edit")[-1]["detail"].endswith("why: fix the position")


def test_gm_edit_reopens_a_state_the_rules_refuse(conf, store, tmp_path):
    new_game(conf)
    result, seen = edit_with(conf, tmp_path, "refused", "fix")
    assert result.exit_code == 0, result.stderr
    assert len(seen) == 2 and seen[1].startswith("# gm edit nb1: refused")
    assert '"board": "' + "X" * 42 in seen[1]
    assert neighbors_rule(store) is True


@pytest.mark.parametrize("give_up", ["empty", "same"])
def test_gm_edit_gives_up_on_an_empty_or_unchanged_file(conf, store, tmp_path, give_up):
    new_game(conf)
    seq = store.turns.latest_state("nb1")["seq"]
    result, seen = edit_with(conf, tmp_path, "typo", give_up)
    assert len(seen) == 2 and "abandoned" in result.stdout + result.stderr
    assert result.exit_code == (0 if give_up == "empty" else 1)
    assert store.turns.latest_state("nb1")["seq"] == seq and not log_of(store, "nb1", "edit")


# --- gm deadline: the forms a GM types ---------------------------------------------------------------
def test_parse_when_reads_every_form():
    # T0 is Monday 2025-03-03 11:06:40 UTC.
    def read(text):
        return times.format_stamp(times.parse_when(text, T0))
    assert read("tomorrow 18:00") == "2025-03-04 18:00 UTC"
    assert read("tomorrow") == "2025-03-04 11:06 UTC"
    assert read("today 18:00") == "2025-03-03 18:00 UTC"
    assert read("fri 18:00") == read("Friday 18:00") == "2025-03-07 18:00 UTC"
    assert read("friday") == read("fri") == "2025-03-07 11:06 UTC"
    assert read("mon") == "2025-03-10 11:06 UTC"  # a weekday alone is the next one, not today
    assert read("+48h") == "2025-03-05 11:06 UTC"
    assert read("2026-12-01 18:00") == read("2026-12-01T18:00") == "2026-12-01 18:00 UTC"
    assert read("2026-12-01T18:00Z") == read("2026-12-01 18:00 UTC") == "2026-12-01 18:00 UTC"
    assert read("2026-12-01T18:00+01:00") == "2026-12-01 17:00 UTC"


def test_gm_deadline_takes_tomorrow_weekdays_and_iso_and_lists_the_forms(conf, store):
    new_game(conf)
    for words in (["tomorrow", "18:00"], ["fri", "18:00"], ["friday"], ["tomorrow"]):
        done = gm(conf, "deadline", "nb1", *words, "-m", "slow week")
        assert done.exit_code == 0, (words, done.stderr)
        assert "deadline of turn 1" in done.stdout
    assert gm(conf, "deadline", "nb1", "2099-12-01T18:00", "-m", "far").exit_code == 0
    assert log_of(store, "nb1", "deadline")[-1]["detail"] == "2099-12-01 18:00 UTC; why: far"
    assert log_of(store, "nb1", "deadline")[0]["detail"].endswith("18:00 UTC; why: slow week")
    refused = gm(conf, "deadline", "nb1", "soonish")
    assert refused.exit_code == 1
    for form in ("+48h", "tomorrow 18:00", "fri 18:00", "friday", "2026-12-01 18:00", "2026-12-01T18:00"):
        assert form in refused.stderr, form
