"""RULINGS G8 (conditional orders) by mail: IF ... THEN lines kept, played, dropped, sealed.

Each test mails its lines and orders (engine.ingest) on both back ends; the lines a game plays
are its own moves, stored with origin "line", and every game replays (gm verify, RULINGS G1).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games import registry
from gm.present import archive, feeds
from gm.service.play import conditional, positions
from gm.service.records import audit
from support import PLAYERS, PLAYERS3, ahead, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True
REPO = Path(__file__).resolve().parents[3]


def send(engine, name: str, text: str, secrets: dict, game_id: str = "nb1"):
    """``name``'s mail to the game: (outcome, the mails it caused)."""
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id,
                                       password=secrets[name]))
    return outcome, outbox(engine, start)


def to(mails, name: str) -> list:
    return [m for m in mails if m["To"] == f"{name}@example.org"]


def origins(engine, game_id: str = "nb1") -> list[tuple[str, str]]:
    rows = engine.store.all("SELECT player, origin FROM orders WHERE game_id = :g AND accepted = 1 "
                            "ORDER BY seq", g=game_id)
    return [(r["player"], r["origin"]) for r in rows]


def line_rows(engine, game_id: str = "nb1") -> list:
    return engine.store.lines.of_game(game_id)


def verified(engine, game_id: str) -> None:
    report = audit.verify(engine, game_id)
    assert report.ok, report.text()


@pytest.fixture
def nb(engine):
    return engine.create_game("neighbors", "nb1", PLAYERS, seed=5)


def test_g8_a_line_sent_with_an_order_and_a_standing_line_play_a_chain_of_three_moves(engine, nb):
    a1 = ahead(engine, "nb1", [])[1][0]
    b1 = ahead(engine, "nb1", [a1])[1][0]
    a2 = ahead(engine, "nb1", [a1, b1])[1][0]
    outcome, mails = send(engine, "bob", f"IF {a1} THEN {b1}", nb)
    assert outcome.outcome == "help"
    (reply,) = to(mails, "bob")
    assert "Kept: IF" in body(reply) and "1. IF ada" in body(reply)
    assert not to(mails, "ada")  # sealed: ada hears nothing of it
    states = engine.store.one("SELECT COUNT(*) AS n FROM states")["n"]
    outcome, mails = send(engine, "ada", f"{a1}\nIF {b1} THEN {a2}", nb)
    assert outcome.outcome == "applied"
    # One mail, one transaction: ada's move, bob's answer from his line, ada's from hers.
    assert engine.store.one("SELECT COUNT(*) AS n FROM states")["n"] == states + 3
    assert origins(engine) == [("ada", "mail"), ("bob", "line"), ("ada", "line")]
    view = engine.load("nb1")
    assert view.rules.to_move(view.state) == ["bob"] and line_rows(engine) == []
    for name, mover in (("ada", "bob"), ("bob", "bob"), ("ada", "ada"), ("bob", "ada")):
        assert any(f"{mover}'s move" in body(m) and "played from a conditional order" in body(m)
                   for m in to(mails, name) if "report" in m["Subject"])
    # ada's own report of her line's move says what she has left: nothing (no mail of its own)
    own = [m for m in to(mails, "ada") if "you have no conditional lines left" in " ".join(body(m).split())]
    assert len(own) == 1 and "report" in own[0]["Subject"]
    assert not [m for m in mails if "conditional lines left" in body(m) and m["To"] != "ada@example.org"]
    verified(engine, "nb1")
    assert conditional.answered_by_line(engine, "nb1", view.seq - 2)  # ada's a1, answered by bob's line
    assert not conditional.answered_by_line(engine, "nb1", view.seq)


def test_g8_a_line_naming_another_move_is_dropped_and_the_turn_waits(engine, nb):
    legal = ahead(engine, "nb1", [])[1]
    a1, other = legal[0], legal[1]
    b1 = ahead(engine, "nb1", [a1])[1][0]
    send(engine, "bob", f"IF {a1} THEN {b1}", nb)
    assert len(line_rows(engine)) == 1
    outcome, mails = send(engine, "ada", other, nb)
    assert outcome.outcome == "applied" and line_rows(engine) == []
    assert origins(engine) == [("ada", "mail")]
    view = engine.load("nb1")
    assert view.rules.to_move(view.state) == ["bob"]  # bob's turn waits for his order
    outcome, mails = send(engine, "bob", "LINES", nb)
    assert "no conditional lines standing" in body(to(mails, "bob")[0])


def test_g8_a_conditional_move_illegal_when_its_time_comes_is_dropped_and_its_sender_told(engine, nb):
    view = engine.load("nb1")
    rules = view.rules
    for a1 in ahead(engine, "nb1", [])[1]:
        move_a = rules.parse_order(view.state, "ada", a1)
        for b1 in ahead(engine, "nb1", [a1])[1]:
            after_a = rules.submit(view.state, "ada", move_a, 0).state
            source = rules.parse_order(after_a, "bob", b1).source
            if source not in (move_a.source, move_a.target):
                break
        else:
            continue
        break
    send(engine, "bob", f"IF {a1} THEN {b1}", nb)
    data = rules.dump(view.state)
    board = list(data["board"])
    board[source[1] * 7 + source[0]] = "."  # the GM takes away the piece bob's answer moves
    positions.edit_state(engine, "nb1", {**data, "board": "".join(board)}, who="gm", why="a test",
                         base_seq=view.seq)
    outcome, mails = send(engine, "ada", a1, nb)
    assert outcome.outcome == "applied"
    assert origins(engine) == [("ada", "mail")]  # bob's move was not played
    (dropped,) = [m for m in to(mails, "bob") if m["Subject"].endswith("Conditional move dropped")]
    assert f"Your conditional move {b1}" in body(dropped) and "could not be played" in body(dropped)
    assert not any("Conditional" in m["Subject"] for m in to(mails, "ada"))
    view = engine.load("nb1")
    assert view.rules.to_move(view.state) == ["bob"] and line_rows(engine) == []
    verified(engine, "nb1")


def test_g8_lines_are_sealed_from_the_other_players_the_archive_the_feed_and_gm_show(engine, nb):
    a1 = ahead(engine, "nb1", [])[1][0]
    b1, b_other = ahead(engine, "nb1", [a1])[1][:2]
    a2 = ahead(engine, "nb1", [a1, b_other])[1][0]
    start = last_outbox_id(engine)
    send(engine, "bob", f"IF {a1} THEN {b_other}\nLINES", nb)
    send(engine, "ada", f"{a1}\nIF {b1} THEN {a2}", nb)  # ada's line never plays: bob's does
    sent = outbox(engine, start)
    assert origins(engine) == [("ada", "mail"), ("bob", "line")]
    for mail in to(sent, "bob"):  # bob learns nothing of ada's line; ada nothing of bob's until it plays
        assert f"THEN {a2}" not in body(mail) and f"IF {b1}" not in body(mail)
    for mail in to(sent, "ada"):
        assert f"THEN {b_other}" not in body(mail)
    for row in engine.store.reports.reports_of("nb1"):  # what each reader's HISTORY keeps
        assert f"THEN {a2}" not in row["body"] or row["player"] == "ada"
    data = audit.archive_data(engine, "nb1")  # the public archive page and its feed
    texts = [json.dumps(data, default=str),
             feeds.atom({**data, "page": archive.page_name("nb1")}, "localhost").decode()]
    view = engine.load("nb1")
    texts.append(json.dumps(view.rules.view(view.state, None), default=str))
    for text in texts:
        assert f"THEN {a2}" not in text and f"THEN {b_other}" not in text
        assert "conditional line" not in text.lower()
    assert "conditional_lines" not in str(data)


def test_g8_lines_are_checked_when_sent_and_a_bad_one_is_refused_whole(engine, nb):
    a1 = ahead(engine, "nb1", [])[1][0]
    b1 = ahead(engine, "nb1", [a1])[1][0]
    outcome, mails = send(engine, "bob", f"IF {a1} THEN {b1} IF zz9 THEN a1xa1\nIF {a1} THEN", nb)
    (reply,) = to(mails, "bob")
    text = body(reply)
    assert "Lines refused" in reply["Subject"] and text.count("Refused, nothing of it kept") == 2
    assert "zz9" in text and "an empty move after THEN" in text
    assert line_rows(engine) == []
    outcome, mails = send(engine, "ada", f"IF {b1} THEN {a1}", nb)  # ada is to move: no line first
    assert "would be your turn" in body(to(mails, "ada")[0]) and line_rows(engine) == []
    too_many = "\n".join(f"IF {a1} THEN {b1}" for _ in range(11))
    outcome, mails = send(engine, "bob", too_many, nb)
    text = body(to(mails, "bob")[0])
    assert text.count("Kept:") == 10 and "10 lines standing, the most a seat keeps" in text
    outcome, mails = send(engine, "bob", "CLEAR nb1", nb)
    assert "10 conditional line(s) ended" in body(to(mails, "bob")[0]) and line_rows(engine) == []


def test_g8_a_line_names_at_most_twenty_moves(engine):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    played: list[str] = []
    for _ in range(22):
        played.append(ahead(engine, "nb1", played)[1][0])
    words = " ".join(f"IF {played[i]} THEN {played[i + 1]}" for i in range(0, 22, 2))
    outcome, mails = send(engine, "bob", words, secrets)
    assert "a line names at most 20" in body(to(mails, "bob")[0]) and line_rows(engine) == []


def test_g8_where_two_lines_name_the_same_moves_the_later_counts(engine, nb):
    a1 = ahead(engine, "nb1", [])[1][0]
    first, later = ahead(engine, "nb1", [a1])[1][:2]
    send(engine, "bob", f"IF {a1} THEN {first}", nb)
    send(engine, "bob", f"IF {a1} THEN {later}", nb)
    view = engine.load("nb1")
    after_a1 = view.rules.submit(view.state, "ada", view.rules.parse_order(view.state, "ada", a1), 0).state
    expected = str(view.rules.parse_order(after_a1, "bob", later))
    send(engine, "ada", a1, nb)
    (row,) = engine.store.all("SELECT canonical, origin FROM orders WHERE player = 'bob'")
    assert row["origin"] == "line" and row["canonical"] == expected and line_rows(engine) == []
    verified(engine, "nb1")


def test_g8_with_three_players_the_if_part_names_every_other_players_move(engine):
    secrets = engine.create_game("neighbors", "nb3", PLAYERS3, seed=4)
    a1 = ahead(engine, "nb3", [])[1][0]
    b1 = ahead(engine, "nb3", [a1])[1][0]
    c1 = ahead(engine, "nb3", [a1, b1])[1][0]
    a2 = ahead(engine, "nb3", [a1, b1, c1])[1][0]
    b2 = ahead(engine, "nb3", [a1, b1, c1, a2])[1][0]
    outcome, mails = send(engine, "cy", f"IF {a1} THEN {c1}", secrets, "nb3")
    assert "it would be bob's turn, not yours" in body(to(mails, "cy")[0])
    send(engine, "cy", f"IF {a1} ; {b1} THEN {c1} IF {a2} ; {b2} THEN "
         f"{ahead(engine, 'nb3', [a1, b1, c1, a2, b2])[1][0]}", secrets, "nb3")
    send(engine, "ada", a1, secrets, "nb3")
    assert len(line_rows(engine, "nb3")) == 1
    outcome, mails = send(engine, "bob", b1, secrets, "nb3")
    assert origins(engine, "nb3") == [("ada", "mail"), ("bob", "mail"), ("cy", "line")]
    (lines,) = [m for m in to(mails, "cy") if "your lines still standing" in " ".join(body(m).split())]
    assert "report" in lines["Subject"] and f"1. IF ada {a2} ; bob {b2} THEN" in " ".join(body(lines).split())
    assert not [m for m in mails if "still standing" in body(m) and m["To"] != "cy@example.org"]
    verified(engine, "nb3")


@pytest.mark.parametrize("kind", ["fuzzy-borders", "pivot-pawns"])
def test_g8_simultaneous_games_have_no_conditional_orders(engine, kind):
    secrets = engine.create_game(kind, "g1", PLAYERS, seed=2)
    outcome, mails = send(engine, "ada", "IF A1 THEN B2", secrets, "g1")
    (reply,) = to(mails, "ada")
    text = " ".join(body(reply).split())
    assert "has no conditional orders (RULINGS G8)" in text and line_rows(engine, "g1") == []


def test_gm_lines_and_help_name_the_lines(engine, nb):
    a1 = ahead(engine, "nb1", [])[1][0]
    b1 = ahead(engine, "nb1", [a1])[1][0]
    send(engine, "bob", f"IF {a1} THEN {b1}", nb)
    (shown,) = conditional.game_lines(engine, "nb1")
    assert shown.startswith("bob ") and f"THEN {b1}" in shown
    outcome, mails = send(engine, "ada", "HELP", nb)
    text = " ".join(body(to(mails, "ada")[0]).split())
    assert "IF <theirs> THEN <yours>" in text and "at most 10 lines of at most 20 moves" in text
    assert "LINES [<id>]" in text and "CLEAR [<id>]" in text


KILLER = """
import os, signal, sys
sys.path.insert(0, {tests!r})
from gm.core.config import Config
from gm.service.engine import Engine
from gm.service.play import conditional
from gm.store import Store
from support import Clock

real = conditional.answer

def answer_then_die(ctx, view, play, now):
    if conditional.due(ctx, view) is not None:  # the trigger is played, its answer is next
        os.kill(os.getpid(), signal.SIGKILL)
    real(ctx, view, play, now)

conditional.answer = answer_then_die
config = Config(data_dir={data!r}, address="gm@localhost", store={store!r})
engine = Engine(Store(config.database), config, clock=Clock())
engine.ingest(open({raw!r}, "rb").read())
"""


def test_g8_a_kill_between_trigger_and_answer_loses_neither(engine, nb, config, tmp_path):
    a1 = ahead(engine, "nb1", [])[1][0]
    b1 = ahead(engine, "nb1", [a1])[1][0]
    send(engine, "bob", f"IF {a1} THEN {b1}", nb)
    raw = order_mail("ada@example.org", a1, game_id="nb1", password=nb["ada"])
    (tmp_path / "mail.eml").write_bytes(raw)
    script = KILLER.format(tests=str(REPO / "tests"), data=str(config.data_dir), store=config.store,
                           raw=str(tmp_path / "mail.eml"))
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=dict(os.environ),
                          capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr.decode()
    assert origins(engine) == []  # neither the trigger nor the answer: the mail was never judged
    assert len(line_rows(engine)) == 1
    outcome = engine.ingest(raw)  # the mail comes again (it stayed in the inbox)
    assert outcome.outcome == "applied"
    assert origins(engine) == [("ada", "mail"), ("bob", "line")]
    verified(engine, "nb1")


# --- random play: moves from random lines end where the same moves sent by hand end --------------

MOVES = 24  # per game: enough for several lines to play, quick enough for the suite


def random_moves(engine, kind: str, seed: int, names: list[str]) -> list[tuple[str, str]]:
    """A random sequence of (player, move text) from the start of a game of ``kind``."""
    rules = registry.get(kind)
    rng = random.Random(f"g8-{kind}-{seed}")
    state = rules.start(rules.setup(names, {}, seed), 0)
    moves = []
    while len(moves) < MOVES and not rules.is_over(state):
        (mover,) = rules.to_move(state)
        text = rules.random_order(state, mover, rng)
        if text is None:
            break
        text = " ".join(text.split())
        moves.append((mover, text))
        state = rules.submit(state, mover, rules.parse_order(state, mover, text), 0).state
    return moves


def line_for(moves: list[tuple[str, str]], start: int, name: str, steps: int) -> str | None:
    """An IF line of ``name`` naming the moves from ``start``: the others' moves, then theirs."""
    words, theirs = [], []
    for mover, text in moves[start:]:
        if mover != name:
            theirs.append(text)
            continue
        if not theirs:
            return None
        words.append(f"IF {' ; '.join(theirs)} THEN {text}")
        theirs = []
        if len(words) == steps:
            break
    return " ".join(words) or None


def played(engine, game_id: str) -> int:
    return engine.store.one("SELECT COUNT(*) AS n FROM orders WHERE game_id = :g AND accepted = 1",
                            g=game_id)["n"]


@pytest.mark.parametrize(("kind", "seed"), [("neighbors", 1), ("neighbors", 2), ("phalanx", 1),
                                           ("proximity", 1)])
def test_random_play_with_moves_from_random_lines_ends_where_the_same_moves_by_hand_end(engine, kind, seed):
    names = ["ada", "bob", "cy"][:3 if kind == "neighbors" and seed == 2 else 2]
    players = [(n, f"{n}@example.org") for n in names]
    by_hand = engine.create_game(kind, "hand", players, seed=seed)
    by_lines = engine.create_game(kind, "lines", players, seed=seed)
    moves = random_moves(engine, kind, seed, names)
    for mover, text in moves:
        assert send(engine, mover, text, by_hand, "hand")[0].outcome == "applied"
    rng = random.Random(seed)
    from_lines = 0
    while (done := played(engine, "lines")) < len(moves):
        mover, text = moves[done]
        for name in names:
            if name != mover and rng.random() < 0.5:
                line = line_for(moves, done, name, rng.randint(1, 3))
                decoy = line_for(moves, max(0, done - 1), name, 1)  # usually names other moves
                sent = "\n".join(x for x in (decoy, line) if x)
                if sent:
                    send(engine, name, sent, by_lines, "lines")
        if played(engine, "lines") == done:
            assert send(engine, mover, text, by_lines, "lines")[0].outcome == "applied"
        from_lines += origins(engine, "lines")[-1][1] == "line"
    hand, lines = engine.load("hand"), engine.load("lines")
    assert hand.rules.dump(hand.state) == lines.rules.dump(lines.state)
    assert played(engine, "lines") == len(moves)
    assert sum(origin == "line" for _, origin in origins(engine, "lines")) >= 3
    verified(engine, "hand")
    verified(engine, "lines")


def test_gm_lines_on_the_command_line_and_a_takeback_ends_the_lines_after_the_move(engine, nb, config, tmp_path):
    from typer.testing import CliRunner

    from gm.cli import app

    a1 = ahead(engine, "nb1", [])[1][0]
    b1 = ahead(engine, "nb1", [a1])[1][0]
    a2 = ahead(engine, "nb1", [a1, b1])[1][0]
    b2 = ahead(engine, "nb1", [a1, b1, a2])[1][0]
    send(engine, "bob", f"IF {a1} THEN {b1} IF {a2} THEN {b2}", nb)
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {config.data_dir}\naddress: gm@localhost\n"
                    + (f"store: {config.store}\n" if config.store else ""))
    result = CliRunner().invoke(app, ["--config", str(conf), "lines", "nb1"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("bob ") and f"IF ada {a1} THEN {b1} IF ada {a2} THEN {b2}" in result.output
    shown = CliRunner().invoke(app, ["--config", str(conf), "show", "nb1", "--json"])
    assert shown.exit_code == 0 and json.loads(shown.output)  # gm show: the game, never its lines
    assert "THEN" not in shown.output and "conditional" not in shown.output.lower()
    before = engine.load("nb1").seq
    send(engine, "ada", a1, nb)  # bob's line answers, and stands on for a2
    (line,) = line_rows(engine)
    assert line.seq > before
    made = engine.store.one("SELECT seq FROM orders WHERE player = 'ada' AND accepted = 1")["seq"]
    with engine.store.write(games=["nb1"]):  # as a takeback (RULINGS G9) undoing ada's a1
        assert conditional.drop_lines_naming(engine, "nb1", made) == 1
    assert line_rows(engine) == []
