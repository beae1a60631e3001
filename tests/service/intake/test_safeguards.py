"""Trust in the service: time before orders, edits that lose nothing, bounded replies,
and a message that cannot be handled set aside without stopping the next."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.core.model import ServiceError
from gm.mail import inbound as mail_in
from gm.mail.redact import redact
from gm.service.play import positions
from support import body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

DAY = 86400.0
PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]


def mails_to(engine, address, since=0):
    return [m for m in outbox(engine, since) if m["To"] == address]


# --- RULINGS G4: time is checked before orders ------------------------------------------
def test_g4_a_bid_after_the_bid_timer_counts_for_the_next_round(engine, clock):
    secrets = engine.create_game("pivot-pawns", "pp1", PLAYERS, seed=5)
    assert engine.ingest(order_mail("ada@example.org", "BID 3: red/blue green/red red/black",
                                     game_id="pp1", password=secrets["ada"])).outcome == "sealed"
    clock.advance(DAY + 60)  # the 24 h bid timer ran out; nobody ticked
    late = engine.ingest(order_mail("bob@example.org", "BID 2: red/blue green/red",
                                    game_id="pp1", password=secrets["bob"]))
    assert late.outcome == "sealed"
    view = engine.load("pp1")
    assert view.turn == 2  # round 1 was closed by its timer first, with ada's bid alone
    rows = engine.store.all("SELECT action, player, turn, origin FROM orders WHERE game_id = 'pp1' "
                            "AND accepted = 1 ORDER BY id")
    assert [tuple(r) for r in rows] == [("order", "ada", 1, "mail"), ("close", None, 1, "timer"),
                                        ("order", "bob", 2, "mail")]


def test_g4_an_order_illegal_on_the_next_turn_is_refused_saying_the_turn_had_closed(engine, clock):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=5,
                                 options={"deadline": "24h"})
    assert engine.ingest(order_mail("ada@example.org", "J10", game_id="fb1",
                                    password=secrets["ada"])).outcome == "sealed"
    clock.advance(DAY + 60)  # the deadline passed before bob's claim was judged
    start = last_outbox_id(engine)
    late = engine.ingest(order_mail("bob@example.org", "J10", game_id="fb1", password=secrets["bob"]))
    assert late.outcome == "rejected"
    assert "turn 1 had closed" in late.detail and "RULINGS G4" in late.detail
    view = engine.load("fb1")
    assert view.turn == 2
    assert [c["cell"] for c in view.rules.dump(view.state)["claims"]["ada"]] == ["J10"]
    (reply,) = [m for m in mails_to(engine, "bob@example.org", start) if "refused" in m["Subject"]]
    assert "turn 1 had closed" in " ".join(body(reply).split())


# --- gm edit loses no update ---------------------------------------------------------------
@pytest.fixture
def nb(engine):
    return engine.create_game("neighbors", "nb1", PLAYERS, seed=7)


def first_move(engine):
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    return mover, view.rules.legal_orders(view.state, mover)[0]


def test_an_edit_is_refused_when_a_turn_was_adjudicated_while_the_editor_was_open(engine, nb, tmp_path,
                                                                                  monkeypatch):
    mover, move = first_move(engine)
    editor = tmp_path / "editor.py"
    # The "GM" edits the file, and meanwhile the daemon adjudicates a move (here: in this
    # process, between the read and the save, which is exactly the window that matters).
    editor.write_text("import json, sys\np = sys.argv[1]\nd = json.load(open(p))\n"
                      "d['neighbors_rule'] = True\njson.dump(d, open(p, 'w'))\n")
    real_run = positions.subprocess.run

    def editor_then_a_move(*args, **kwargs):
        result = real_run(*args, **kwargs)
        assert engine.gm_order("nb1", mover, move).outcome == "applied"
        return result

    monkeypatch.setattr(positions.subprocess, "run", editor_then_a_move)
    with pytest.raises(ServiceError, match="changed while you were editing"):
        positions.edit_interactive(engine, "nb1", editor=f"{sys.executable} {editor}")
    after = engine.load("nb1")
    assert len(after.state.moves) == 1 and after.state.neighbors_rule is False  # the move stands
    assert not engine.store.all("SELECT * FROM history WHERE action = 'edit'")


def test_gm_edit_file_carries_its_base_and_refuses_a_stale_one(engine, nb, tmp_path, config):
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {config.data_dir}\naddress: gm@localhost\nstore: '{config.database}'\n")
    runner = CliRunner()
    shown = runner.invoke(app, ["--config", str(conf), "show", "nb1", "--json"])
    data = json.loads(shown.stdout)
    data["state"]["neighbors_rule"] = True
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    mover, move = first_move(engine)
    assert engine.gm_order("nb1", mover, move).outcome == "applied"  # the game moves on
    stale = runner.invoke(app, ["--config", str(conf), "edit", "nb1", "--file", str(edited)])
    assert stale.exit_code == 1 and "changed while you were editing" in stale.stderr
    assert engine.load("nb1").state.neighbors_rule is False
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(data["state"]))
    no_base = runner.invoke(app, ["--config", str(conf), "edit", "nb1", "--file", str(bare)])
    assert no_base.exit_code == 1 and "--base" in no_base.stderr
    fresh = json.loads(runner.invoke(app, ["--config", str(conf), "show", "nb1", "--json"]).stdout)
    fresh["state"]["neighbors_rule"] = True
    edited.write_text(json.dumps(fresh))
    ok = runner.invoke(app, ["--config", str(conf), "edit", "nb1", "--file", str(edited)])
    assert ok.exit_code == 0, ok.stderr
    assert engine.load("nb1").state.neighbors_rule is True


# --- bounded replies ---------------------------------------------------------------------------
def test_five_hundred_help_lines_get_one_reply(engine, nb):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "HELP\n" * 500, game_id="nb1", password=nb["ada"]))
    replies = outbox(engine, start)
    assert len(replies) == 1 and replies[0]["To"] == "ada@example.org"


def test_replies_go_to_from_never_to_reply_to(engine, nb):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("stranger@example.net", "HELP\n", Reply_To="victim@example.com"))
    engine.ingest(order_mail("ada@example.org", "BOARD", game_id="nb1", password=nb["ada"],
                             Reply_To="victim@example.com"))
    assert [m["To"] for m in outbox(engine, start)] == ["stranger@example.net", "ada@example.org"]


def test_strangers_get_one_notice_when_their_limit_starts_then_nothing(engine, nb, config):
    config.error_replies_per_hour = 3
    start = last_outbox_id(engine)
    for n in range(6):
        engine.ingest(order_mail("pest@example.net", f"HELP {n}\n", subject=f"help {n}"))
        engine.ingest(order_mail("pest@example.net", f"GAME nope{n}\nb1xb2\n"))
    replies = outbox(engine, start)
    assert len(replies) == 3
    assert ["last answer" in body(m) for m in replies] == [False, False, True]
    assert engine.store.one("SELECT COUNT(*) AS n FROM messages")["n"] == 12  # every mail kept


def test_the_hourly_limit_for_all_strangers_together(engine, nb, config, clock):
    config.unauthenticated_replies_per_hour = 4
    start = last_outbox_id(engine)
    for n in range(7):
        engine.ingest(order_mail(f"s{n}@example.net", "HELP\n"))
    assert len(outbox(engine, start)) == 4
    # A registered player's answers are not counted against strangers' limit.
    engine.ingest(order_mail("ada@example.org", "BOARD", game_id="nb1", password=nb["ada"]))
    assert len(outbox(engine, start)) == 5
    clock.advance(3601)  # a new hour
    engine.ingest(order_mail("s9@example.net", "HELP\n"))
    assert len(outbox(engine, start)) == 6


# --- a message that cannot be handled is set aside -----------------------------------------------
def test_a_message_that_breaks_the_reader_is_set_aside_and_can_be_retried(engine, nb, monkeypatch, tmp_path,
                                                                        config, breaking_reader):
    real_parse = breaking_reader
    mover, move = first_move(engine)
    broken = order_mail(f"{mover}@example.org", move, game_id="nb1", password=nb[mover], X_Trigger="BOOM")
    assert engine.ingest(broken).outcome == "error"
    assert engine.ingest(broken).outcome == "duplicate"  # stored once, never applied twice
    (row,) = engine.store.all("SELECT * FROM messages WHERE outcome = 'error'")
    assert "the reader broke" in row["detail"]
    # Kept masked: the password is gone, its authentication is kept instead.
    assert bytes(row["raw"]) == redact(broken) and nb[mover].encode() not in bytes(row["raw"])
    assert b"X-Trigger: BOOM" in bytes(row["raw"]) and row["auth"] == f"password nb1 {mover}"
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {config.data_dir}\naddress: gm@localhost\nstore: '{config.database}'\n")
    listing = CliRunner().invoke(app, ["--config", str(conf), "inbox", "--failed"])
    assert f"#{row['id']}" in listing.stdout and "the reader broke" in listing.stdout
    monkeypatch.setattr(mail_in, "parse", real_parse)  # the fault is fixed
    retried = CliRunner().invoke(app, ["--config", str(conf), "inbox", "--retry", str(row["id"])])
    assert retried.exit_code == 0 and "applied" in retried.stdout
    assert len(engine.load("nb1").state.moves) == 1
    again = CliRunner().invoke(app, ["--config", str(conf), "inbox", "--retry", str(row["id"])])
    assert again.exit_code == 1  # no longer set aside: a retry cannot apply it twice
    assert len(engine.load("nb1").state.moves) == 1


def test_five_hundred_board_lines_in_a_game_mail_get_one_board(engine, nb):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "BOARD\n" * 500 + "board\n", game_id="nb1", password=nb["ada"]))
    (reply,) = outbox(engine, start)
    assert body(reply).count(" a b c d e f g") == 2  # one board: its file letters above and below
