"""A removed seat's credentials end with it: the game master's commands on the command line (gm
replace, eject, concede, rollback, delete) and the player's own by mail (RESIGN, CONCEDE, LEAVE),
then the codes and reply address the one who left still holds, tried by mail through ingest."""

from __future__ import annotations

import re

import pytest

from gm.core import config as config_file
from gm.service.people import credentials
from support import EXAMPLE_LAYOUT, body, last_outbox_id, order_mail, outbox

ADA, ADA2, ADA3 = "ada@example.org", "ada@two.example", "ada@three.example"
BOB, CAROL, CY, EVE = "bob@example.org", "carol@example.org", "cy@example.org", "eve@evil.example"
DAY = 86400.0
DEAD = "unknown, used or expired"
ON_BOTH_BACKENDS = True  # the credential queries are portable SQL (gm/store/__init__.py)


@pytest.fixture
def gm(config, tmp_path):
    """`gm --config ...` on the engine's own store, as the game master "tester" runs it."""
    from typer.testing import CliRunner

    from gm.cli import app

    path = tmp_path / "gm.yaml"
    path.write_text(f"data_dir: {config.data_dir}\naddress: {config.address}\n"
                    + (f"store: {config.store}\n" if config.store else ""))
    assert config_file.load(path).database == config.database

    def run(*args):
        result = CliRunner().invoke(app, ["--config", str(path), *args], env={"GM_USER": "tester"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result
    return run


def mail(engine, sender, text, **kwargs):
    """Ingest one mail; (its outcome, [(to, subject, flattened body)] of every mail queued for it)."""
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(sender, text, **kwargs))
    return outcome, [(m["To"], m["Subject"], " ".join(body(m).split())) for m in outbox(engine, start)]


def code_to(mails, address):
    (subject,) = [m[1] for m in mails if m[0] == address and m[1].startswith("CONFIRM ")]
    return re.search(r"CONFIRM (\w+)", subject).group(1)


def token_of(engine, address, game_id="nb1"):
    """The seat's reply address in gm's latest mail about ``game_id`` to ``address``."""
    (*_, last) = [m for m in outbox(engine) if m["To"] == address and f"+{game_id}." in (m["Reply-To"] or "")]
    return last["Reply-To"]


def every_code_waiting(engine, password):
    """ada moves to ADA2 (so ADA holds a revert code), then asks to move to ADA3 (an address code
    there) and for a PASSWORD RESET (a reset code at ADA2): {code: address it answers from}."""
    _, mails = mail(engine, ADA, f"SET ADDRESS {ADA2}", game_id="nb1", password=password)
    _, mails = mail(engine, ADA2, f"CONFIRM {code_to(mails, ADA2)}")
    codes = {code_to(mails, ADA): ADA}
    _, mails = mail(engine, ADA2, f"SET ADDRESS {ADA3}", game_id="nb1", password=password)
    codes[code_to(mails, ADA3)] = ADA3
    _, mails = mail(engine, ADA2, "PASSWORD RESET nb1")
    codes[code_to(mails, ADA2)] = ADA2
    assert len(engine.store.pending_codes("nb1", "ada", ("address", "revert", "reset"), engine.clock())) == 3
    return codes


def assert_dead(engine, codes, token):
    """Each code is refused as unknown and changes nothing; the reply address reads nothing."""
    before = [dict(p) for p in engine.store.players("nb1")]
    for code, address in codes.items():
        outcome, mails = mail(engine, address, f"CONFIRM {code}")
        assert [m[0] for m in mails] == [address] and DEAD in mails[0][2], (address, mails)
        assert "new password" not in mails[0][2].lower()
    outcome, mails = mail(engine, ADA2, "BOARD", to=token)
    assert outcome.outcome == "rejected" and "not valid" in outcome.detail, outcome.detail
    assert [m[0] for m in mails] == [ADA2]
    assert [dict(p) for p in engine.store.players("nb1")] == before


# --- gm replace ---------------------------------------------------------------------------------
def test_gm_replace_ends_the_revert_code_the_one_who_left_was_mailed(engine, nb_game, gm):
    _, mails = mail(engine, ADA, f"SET ADDRESS {ADA2}", game_id="nb1", password=nb_game["ada"])
    _, mails = mail(engine, ADA2, f"CONFIRM {code_to(mails, ADA2)}")
    revert = code_to(mails, ADA)  # ada keeps the 7-day way back at her old address
    assert gm("replace", "nb1", "ada", "--email", CAROL, "-m", "ada left").exit_code == 0
    outcome, mails = mail(engine, ADA, f"CONFIRM {revert}")
    assert engine.store.player("nb1", "ada")["email"] == CAROL
    assert [m[0] for m in mails] == [ADA] and DEAD in mails[0][2]
    ended = engine.store.all("SELECT purpose, ended FROM address_codes WHERE purpose = 'revert'")
    assert [(r["purpose"], r["ended"]) for r in ended] == [("revert", "revoked by gm replace (seat given to "
                                                           f"{CAROL})")]


def test_gm_replace_ends_a_change_of_address_still_waiting(engine, nb_game, gm):
    _, mails = mail(engine, ADA, f"SET ADDRESS {ADA2}", game_id="nb1", password=nb_game["ada"])
    code = code_to(mails, ADA2)
    assert gm("replace", "nb1", "ada", "--email", CAROL, "-m", "ada left").exit_code == 0
    outcome, mails = mail(engine, ADA2, f"CONFIRM {code}")
    assert engine.store.player("nb1", "ada")["email"] == CAROL
    assert [m[0] for m in mails] == [ADA2] and DEAD in mails[0][2]


def test_gm_replace_refuses_an_address_that_holds_another_seat_of_the_game(engine, nb_game, gm):
    start = last_outbox_id(engine)
    refused = gm("replace", "nb1", "ada", "--email", "Bob@Example.org", "-m", "swap")
    assert refused.exit_code == 1 and "another seat of game nb1" in refused.output and "bob" in refused.output
    assert engine.store.player("nb1", "ada")["email"] == ADA and engine.store.player("nb1", "ada")["generation"] == 0
    assert outbox(engine, start) == []
    # The seat's own address (a new password for the same player) and a free one still work.
    assert gm("replace", "nb1", "ada", "--email", ADA, "-m", "new password").exit_code == 0
    assert gm("replace", "nb1", "ada", "--email", CAROL, "-m", "ada left").exit_code == 0


# --- every way a seat is removed ------------------------------------------------------------------
def by_gm(*args):
    return lambda engine, gm, password: gm(*args, "-m", "gone").exit_code == 0


def by_mail(command):
    def send(engine, gm, password):
        outcome, _ = mail(engine, ADA2, command, game_id="nb1", password=password)
        return outcome.outcome == "help"
    return send


@pytest.mark.parametrize("remove", [
    by_gm("replace", "nb1", "ada", "--email", CAROL), by_gm("eject", "nb1", "ada"),
    by_gm("concede", "nb1", "ada"), by_mail("RESIGN"), by_mail("CONCEDE")],
    ids=["gm replace", "gm eject", "gm concede", "RESIGN", "CONCEDE"])
def test_a_removed_seat_takes_every_code_and_token_with_it(engine, nb_game, gm, remove):
    codes = every_code_waiting(engine, nb_game["ada"])
    token = token_of(engine, ADA2)
    assert remove(engine, gm, nb_game["ada"])
    assert_dead(engine, codes, token)
    rows = engine.store.all("SELECT used, ended FROM address_codes")
    assert len(rows) == 4 and all(r["used"] for r in rows)  # one confirmed, three revoked
    assert sum((r["ended"] or "").startswith("revoked by ") for r in rows) == 3


def play_one(engine):
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    assert engine.gm_order("nb1", mover, view.rules.legal_orders(view.state, mover)[0]).outcome == "applied"


def test_a_rollback_to_before_an_ejection_gives_back_no_old_code_or_token(engine, gm):
    engine.create_game("neighbors", "nb1", [("ada", ADA), ("bob", BOB), ("cy", CY)], seed=5,
                       options={"layout": EXAMPLE_LAYOUT})
    (welcome,) = [m for m in outbox(engine) if m["To"] == ADA]
    password = re.search(r"Your password: (\w+)", body(welcome)).group(1)
    play_one(engine)
    turn = engine.load("nb1").turn  # a turn that began before the ejection
    play_one(engine)
    codes = every_code_waiting(engine, password)
    token = token_of(engine, ADA2)
    assert gm("eject", "nb1", "ada", "-m", "vanished").exit_code == 0
    assert gm("rollback", "nb1", "--to", str(turn), "-m", "ejected by mistake").exit_code == 0
    assert engine.store.player("nb1", "ada")["active"]  # seated again, with a new reply address
    assert_dead(engine, codes, token)
    outcome, _ = mail(engine, ADA2, "BOARD", to=token_of(engine, ADA2))
    assert outcome.outcome == "help"


def test_gm_delete_leaves_nothing_a_game_made_again_under_its_id_honours(engine, nb_game, gm):
    codes = every_code_waiting(engine, nb_game["ada"])
    token = token_of(engine, ADA2)
    assert gm("delete", "nb1", "--yes").exit_code == 0
    engine.create_game("neighbors", "nb1", [("ada", ADA2), ("bob", BOB)], seed=5,
                       options={"layout": EXAMPLE_LAYOUT})
    assert_dead(engine, codes, token)


def test_leave_ends_the_seats_reset_code(engine):
    from gm.service.people import lobby

    lobby.open_game(engine, "neighbors", "nb7", 3, min_seats=2, seed=4)
    _, mails = mail(engine, ADA, "JOIN nb7 ada")
    _, mails = mail(engine, ADA, "", subject=f"Re: CONFIRM {code_to(mails, ADA)}")
    password = re.search(r"Your password: (\w+)", mails[0][2]).group(1)
    _, mails = mail(engine, ADA, "PASSWORD RESET nb7")
    code = code_to(mails, ADA)
    outcome, _ = mail(engine, ADA, f"LEAVE nb7\nPASSWORD {password}")
    assert engine.store.players("nb7") == []
    _, mails = mail(engine, ADA, f"CONFIRM {code}")
    assert [m[0] for m in mails] == [ADA] and DEAD in mails[0][2]
    (row,) = engine.store.all("SELECT used, ended FROM address_codes")
    assert row["used"] and row["ended"] == "revoked by LEAVE"


# --- reads by a reply token from another address ------------------------------------------------
def test_reads_with_the_reply_address_from_elsewhere_are_told_to_the_owner_once_a_day(engine, nb_game, clock):
    token = token_of(engine, ADA)
    outcome, mails = mail(engine, EVE, "BOARD", to=token, subject="Re: [nb1 T1] report")
    assert outcome.outcome == "help" and EVE in [m[0] for m in mails]  # eve reads the board
    (told,) = [m for m in mails if m[0] == ADA]
    assert "Your reply address was used from another address" in told[1]
    assert f"a mail from {EVE}" in told[2] and "BOARD" in told[2] and "PASSWORD RESET nb1" in told[2]
    assert sorted(m[0] for m in mails) == [ADA, EVE]
    # Within the day: answered, not told again.
    clock.advance(DAY - 60)
    _, mails = mail(engine, EVE, "HISTORY", to=token)
    assert [m[0] for m in mails] == [EVE]
    # The owner's own reads are never told.
    _, mails = mail(engine, ADA, "BOARD", to=token)
    assert [m[0] for m in mails] == [ADA]
    # A day after the last notice: told once more.
    clock.advance(120)
    _, mails = mail(engine, EVE, "BOARD\nHISTORY", to=token)
    assert sorted(m[0] for m in mails) == [ADA, EVE]  # one answer, one notice
    (told,) = [m for m in mails if m[0] == ADA]
    assert "BOARD, HISTORY" in told[2]
    lines = [r for r in engine.store.history_of("nb1") if r["action"] == credentials.READ_ELSEWHERE]
    assert len(lines) == 2 and all(r["actor"] == "ada" for r in lines)
