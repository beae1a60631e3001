"""The helpers every rule module shares (games.base)."""

from __future__ import annotations

import pytest

from games import registry
from games.base import Game, NotYourTurnError, OptionError, duration_seconds
from games.fuzzy_borders import GAME as FUZZY
from games.pivot_pawns import parse_duration as pivot_timer
from games.proximity import parse_time_bank
from gm_parts import parse_duration as deadline_span

H, D = 3600, 86400


@pytest.mark.parametrize("text,seconds", [
    ("72h", 72 * H), ("3d", 3 * D), ("1d12h", 36 * H), ("90m", 5400), ("1h30m", 5400),
    ("1.5h", 5400), ("3600", 3600), ("1h30", 3630), (" 2 D 3 H ", 2 * D + 3 * H),
])
def test_durations_as_gms_write_them(text, seconds):
    assert duration_seconds(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "h", "-3h", "24x", "30 30h", "1h 30 30", "2h30m-1s"])
def test_what_is_not_a_duration(text):
    with pytest.raises(ValueError):
        duration_seconds(text)


def test_a_bare_number_is_refused_where_the_unit_is_required():
    assert duration_seconds("45s", unit_required=True) == 45
    with pytest.raises(ValueError):
        duration_seconds("24", unit_required=True)  # hours or seconds? ask, do not guess


def test_every_timed_option_reads_durations_alike():
    # Fuzzy Borders' reopen (FB6), Pivot Pawns' timer, Proximity's time bank (PX8)
    # and the service's deadlines all read "1d12h" the same way now.
    assert FUZZY.check_options({"reopen": "1d12h"})["reopen"] == 36 * H
    assert pivot_timer("timer", "1d12h") == 36 * H
    assert parse_time_bank("1d12h") == 36 * H
    assert deadline_span("1d12h") == 36 * H
    for refuse in (lambda: FUZZY.check_options({"reopen": "24"}), lambda: pivot_timer("timer", "soon"),
                   lambda: parse_time_bank("0h"), lambda: deadline_span("30 30h")):
        with pytest.raises(OptionError):
            refuse()
    assert pivot_timer("timer", "off") is None and parse_time_bank("off") is None


# --- the turn check, written once in Game.parse_order / Game.submit ---------------------

@pytest.mark.parametrize("kind", sorted(registry.MODULES))
def test_every_game_refuses_orders_from_outside_and_out_of_turn_alike(kind):
    rules = registry.get(kind)
    players = ["ada", "bob"]
    state = rules.start(rules.setup(players, {}, 5), 1_800_000_000.0)
    for call in (lambda: rules.parse_order(state, "zed", "x"),
                 lambda: rules.submit(state, "zed", "x", 1_800_000_000.0)):
        with pytest.raises(NotYourTurnError, match="zed does not play in this game"):
            call()
    waiting = rules.to_move(state)
    idle = [p for p in players if p not in waiting]
    if rules.simultaneous:
        assert waiting == players  # everyone may send orders at the start
        return
    (idle,) = idle
    wording = f"it is not your turn (waiting for {', '.join(waiting)})"
    with pytest.raises(NotYourTurnError) as refused:
        rules.parse_order(state, idle, "x")  # refused before the text is read
    assert str(refused.value) == wording  # the service's wording (tests/service/intake/test_mail_orders.py)
    with pytest.raises(NotYourTurnError, match=r"it is not your turn \(waiting for"):
        rules.submit(state, idle, "x", 1_800_000_000.0)


def test_a_game_cannot_override_the_common_checks():
    for name in ("parse_order", "submit", "check_turn"):
        with pytest.raises(TypeError, match=name):
            type("Cheat", (Game,), {name: lambda self, *args: None})


@pytest.mark.parametrize("kind", sorted(registry.MODULES))
def test_every_game_package_keeps_its_game_in_rules_py(kind):
    import importlib

    module = importlib.import_module(registry.MODULES[kind])
    if hasattr(module, "__path__"):  # a package: rules.py holds the Game, re-exported
        rules = importlib.import_module(registry.MODULES[kind] + ".rules")
        assert module.GAME is rules.GAME and type(rules.GAME).__module__ == rules.__name__
    assert registry.get(kind) is module.GAME and isinstance(module.GAME, Game)
