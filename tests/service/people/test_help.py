"""HELP is generated from the table that dispatches the mail commands."""

from __future__ import annotations

import pytest

from gm.mail import orders
from gm.service.people import mailcommands, playercommands
from gm.service.play import lifecycle
from support import body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL


def help_reply(engine, password, sender="ada@example.org"):
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, "HELP", game_id="nb1", password=password))
    (reply,) = outbox(engine, start)
    return body(reply)


def test_every_command_the_grammar_reads_has_a_help_line_and_every_handler_a_command():
    words = {c.word for c in mailcommands.COMMANDS}
    grammar_only = {"GAME", "PASSWORD", "PASS", "ENDPRESS"}  # the GAME line; a press block's end
    assert orders.COMMAND_WORDS - grammar_only <= words
    assert set(mailcommands.HANDLERS) <= words
    for command in mailcommands.COMMANDS:
        assert any(line.startswith(command.usage) for line in mailcommands.help_lines())


def test_help_lists_every_command_and_the_press_mode(engine, nb_game):
    text = help_reply(engine, nb_game["ada"])
    for command in mailcommands.COMMANDS:
        assert command.usage in text, command.usage
    assert "Press in this game: on; your name is shown." in text
    lifecycle.change_settings(engine, "nb1", {"press": "grey"})
    assert "your name is not shown (grey press)" in help_reply(engine, nb_game["ada"])
    assert all(len(line) <= 72 for line in text.splitlines())


def test_general_help_lists_the_commands_too(engine):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("new@example.net", "HELP"))
    (reply,) = outbox(engine, start)
    assert "ABSENCE <from> <to>" in body(reply) and "Games run here:" in body(reply)


@pytest.mark.parametrize("args, turns", [("", (8, 12)), ("ALL", (1, 12)), ("all", (1, 12)),
                                         ("7", (7, 7)), ("3-5", (3, 5))])
def test_history_ranges(args, turns):
    assert playercommands.history_range(args, 12) == turns


@pytest.mark.parametrize("args", ["3-", "x", "1 2", "-4"])
def test_history_range_refuses_other_forms(args):
    with pytest.raises(ValueError):
        playercommands.history_range(args, 12)


def test_a_bare_history_sends_the_last_turns_and_says_how_to_get_the_rest(engine, clock):
    secrets = engine.create_game("neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "bob@example.org")],
                                 seed=3)
    for _ in range(7):
        view = engine.load("nb1")
        (mover,) = view.rules.to_move(view.state)
        engine.gm_order("nb1", mover, view.rules.legal_orders(view.state, mover)[0])
    current = engine.load("nb1").turn
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "HISTORY", game_id="nb1", password=secrets["ada"]))
    (reply,) = outbox(engine, start)
    text = body(reply)
    first = current - mailcommands.HISTORY_TURNS + 1
    assert f"turns {first} to {current}" in text and f"===== Turn {first} =====" in text
    assert f"===== Turn {first - 1} =====" not in text and "HISTORY ALL" in text
    everything = playercommands.history_for_player(engine, engine.load("nb1"), "ada", (1, current))
    assert "===== Turn 1 =====" in everything


def test_set_with_an_unknown_setting_says_what_can_be_set_and_changes_nothing(engine, nb_game):
    before = [tuple(r) for r in engine.store.all("SELECT * FROM players ORDER BY seat")]
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "SET COLOUR purple", game_id="nb1", password=nb_game["ada"]))
    (reply,) = outbox(engine, start)
    assert "gm knows no setting 'COLOUR'" in body(reply) and "You can set:" in body(reply)
    assert [tuple(r) for r in engine.store.all("SELECT * FROM players ORDER BY seat")] == before
