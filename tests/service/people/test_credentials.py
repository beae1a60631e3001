"""The credential model, attacked by mail through the engine's ingest path: each test
asserts the seat's state after the attack and every mail gm queued for it."""

from __future__ import annotations

import re

from gm.core import passwords, tokens
from gm.service.people import credentials, guessing
from gm.service.play import lifecycle
from support import EXAMPLE_LAYOUT, body, last_outbox_id, order_mail, outbox

ADA, BOB = "ada@example.org", "bob@example.org"
EVE, EVE2 = "eve@evil.example", "eve2@evil.example"
REFEREE = "referee@example.org"
HOUR = 3600.0
ON_BOTH_BACKENDS = True  # the credential queries are portable SQL (gm/store/__init__.py)


def sent(engine, start):
    """Every mail queued since ``start``: (recipient, subject, flattened body)."""
    return [(m["To"], m["Subject"], " ".join(body(m).split())) for m in outbox(engine, start)]


def to(mails, address):
    return [m for m in mails if m[0] == address]


def mail(engine, sender, text, **kwargs):
    """Ingest one mail; returns (its outcome, every mail queued for it)."""
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail(sender, text, **kwargs))
    return outcome, sent(engine, start)


def seat(engine, name="ada", game_id="nb1"):
    return dict(engine.store.seats.player(game_id, name))


def code_in(subject):
    return re.search(r"CONFIRM (\w+)", subject).group(1)


def token_address(engine, address=ADA, game_id="nb1"):
    """The Reply-To of the last mail about ``game_id`` to ``address``: the seat's token."""
    (*_, last) = [m for m in outbox(engine) if m["To"] == address and m["Reply-To"]
                  and f"+{game_id}." in m["Reply-To"]]
    return last["Reply-To"]


def works(engine, password, sender=ADA):
    """``password`` opens ada's seat (a BOARD comes back)."""
    outcome, _ = mail(engine, sender, "BOARD", game_id="nb1", password=password)
    return outcome.outcome == "help"


# --- A seat taken back after its owner recovered it ---------------------------------------------
def test_a_seat_is_not_taken_back_after_its_owner_recovered_it(engine, nb_game):
    # eve has ada's password: she asks to move the seat to eve2 (and ada is told at once).
    _, mails = mail(engine, EVE, f"SET ADDRESS {EVE2}", game_id="nb1", password=nb_game["ada"])
    assert sorted(m[0] for m in mails) == sorted([EVE, EVE2, ADA])
    (eve_code_mail,) = to(mails, EVE2)
    (warning,) = to(mails, ADA)
    assert "A change of address was asked" in warning[1] and f"from {EVE}" in warning[2]
    assert "Address change started" in to(mails, EVE)[0][1]
    eve_code = code_in(eve_code_mail[1])
    # ada answers with PASSWORD RESET from her address, and confirms it from there.
    _, mails = mail(engine, ADA, "PASSWORD RESET nb1")
    ((address, subject, _),) = mails
    assert address == ADA and "confirm your password reset" in subject
    assert works(engine, nb_game["ada"], EVE)  # nothing changed before the confirmation
    _, mails = mail(engine, ADA, f"CONFIRM {code_in(subject)}")
    ((address, _, text),) = mails
    assert address == ADA
    new = re.search(r"\(seat ada\): (\w+)", text).group(1)
    # eve's still-pending code from eve2 no longer works.
    outcome, mails = mail(engine, EVE2, f"CONFIRM {eve_code}")
    ((address, _, text),) = mails
    assert address == EVE2 and "unknown, used or expired" in text
    assert seat(engine)["email"] == ADA
    assert not works(engine, nb_game["ada"], EVE) and works(engine, new)
    ended = {r["purpose"]: r["ended"] for r in engine.store.all("SELECT * FROM address_codes")}
    assert ended == {"address": "revoked by a confirmed PASSWORD RESET", "reset": "confirmed"}


def test_a_confirmed_move_mails_the_old_address_a_code_that_moves_the_seat_back(engine, nb_game):
    _, mails = mail(engine, EVE, f"SET ADDRESS {EVE2}", game_id="nb1", password=nb_game["ada"])
    outcome, mails = mail(engine, EVE2, f"CONFIRM {code_in(to(mails, EVE2)[0][1])}")
    assert seat(engine)["email"] == EVE2
    (revert_mail,) = to(mails, ADA)  # the old address: what changed, when, and the way back
    assert "now receives its mail at eve2@evil.example" in revert_mail[2] and "7 days" in revert_mail[2]
    assert sorted(m[0] for m in mails) == [ADA, EVE2]
    # eve (now registered) resets the password from eve2: the revert code survives it.
    _, mails = mail(engine, EVE2, "PASSWORD RESET nb1")
    _, mails = mail(engine, EVE2, f"CONFIRM {code_in(mails[0][1])}")
    eve_password = re.search(r"\(seat ada\): (\w+)", mails[0][2]).group(1)
    # ada replies to the revert mail: the seat is hers again, with a password only she receives.
    _, mails = mail(engine, ADA, "", subject="Re: " + revert_mail[1])
    assert seat(engine)["email"] == ADA
    assert sorted(m[0] for m in mails) == [ADA, EVE2]
    (reply,) = to(mails, ADA)
    new = re.search(r"\(seat ada\): (\w+)", reply[2]).group(1)
    assert "Your seat moved back" in to(mails, EVE2)[0][1]
    assert works(engine, new) and not works(engine, eve_password, EVE2)
    assert not works(engine, nb_game["ada"], EVE)


def test_a_later_set_address_or_set_password_supersedes_waiting_codes(engine, nb_game):
    _, first = mail(engine, ADA, "SET ADDRESS ada@one.example", game_id="nb1", password=nb_game["ada"])
    _, second = mail(engine, ADA, "SET ADDRESS ada@two.example", game_id="nb1", password=nb_game["ada"])
    code = code_in(to(first, "ada@one.example")[0][1])
    _, mails = mail(engine, "ada@one.example", f"CONFIRM {code}")
    assert [m[0] for m in mails] == ["ada@one.example"] and "unknown, used or expired" in mails[0][2]
    assert seat(engine)["email"] == ADA
    _, mails = mail(engine, ADA, "SET PASSWORD corvid-lantern-77", game_id="nb1", password=nb_game["ada"])
    assert [m[0] for m in mails] == [ADA]  # the reply goes to the registered address: no second notice
    code = code_in(to(second, "ada@two.example")[0][1])
    _, mails = mail(engine, "ada@two.example", f"CONFIRM {code}")
    assert "unknown, used or expired" in mails[0][2] and seat(engine)["email"] == ADA


def test_a_waiting_reset_freezes_address_changes_until_it_expires(engine, nb_game, clock):
    _, mails = mail(engine, ADA, "SET ADDRESS ada@new.example", game_id="nb1", password=nb_game["ada"])
    code = code_in(mails[0][1] if mails[0][0] == "ada@new.example" else mails[1][1])
    mail(engine, ADA, "PASSWORD RESET nb1")
    _, mails = mail(engine, "ada@new.example", f"CONFIRM {code}")
    assert [m[0] for m in mails] == ["ada@new.example"] and "PASSWORD RESET of this seat waits" in mails[0][2]
    _, mails = mail(engine, ADA, "SET ADDRESS ada@other.example", game_id="nb1", password=nb_game["ada"])
    assert [m[0] for m in mails] == [ADA] and "waits for its confirmation" in mails[0][2]
    clock.advance(credentials.RESET_HOURS * HOUR + 1)  # the reset expired unconfirmed: the freeze ends
    _, mails = mail(engine, "ada@new.example", f"CONFIRM {code}")
    assert seat(engine)["email"] == "ada@new.example" and "now receives its mail" in to(mails, "ada@new.example")[0][2]


def test_nothing_done_with_the_password_alone_ends_a_waiting_reset(engine, nb_game):
    _, mails = mail(engine, ADA, "PASSWORD RESET nb1")
    code = code_in(mails[0][1])
    mail(engine, EVE, "SET PASSWORD corvid-lantern-77", game_id="nb1", password=nb_game["ada"])
    mail(engine, EVE, "PASSWORD RESET nb1 ada")  # within the hour: no second code, the first stands
    assert credentials.reset_waiting(engine, "nb1", "ada")
    _, mails = mail(engine, ADA, f"CONFIRM {code}")
    new = re.search(r"\(seat ada\): (\w+)", mails[0][2]).group(1)
    assert works(engine, new) and not works(engine, "corvid-lantern-77", EVE)


# --- A reply token is a full credential, silently ------------------------------------------------
def test_a_reply_token_plays_but_cannot_change_or_leave_the_seat(engine, nb_game):
    token = token_address(engine)
    before, bob = seat(engine), seat(engine, "bob")
    for command in ("SET PASSWORD corvid-lantern-77", f"SET ADDRESS {EVE2}", "RESIGN", "ABSENCE +1d +3d"):
        outcome, mails = mail(engine, EVE, command, to=token, subject="Re: [nb1 T1] report")
        ((address, subject, text),) = mails
        assert address == EVE and "needs your password" in text, command
        assert "refused (no password)" in subject
    assert seat(engine) == before and seat(engine, "bob") == bob
    assert engine.store.all("SELECT * FROM address_codes") == []
    assert engine.store.all("SELECT * FROM absences") == []
    assert engine.load("nb1").player("ada")["active"]
    # Orders and press with the token from another address work, and the owner is told.
    seq = engine.load("nb1").seq
    outcome, mails = mail(engine, EVE, "Rb4xd4\nPRESS TO bob\nhello\nENDPRESS", to=token,
                          subject="Re: [nb1 T1] report")
    assert outcome.outcome == "applied" and engine.load("nb1").seq == seq + 1
    told = [m[1] for m in to(mails, ADA)]
    assert any("Orders from another address" in s for s in told)
    assert any("Press from another address" in s for s in told)
    assert {m[0] for m in mails} <= {ADA, BOB, EVE}


# --- Tokens outlive their game ----------------------------------------------------------------------
def test_a_recreated_game_id_never_honours_the_old_games_tokens(engine, nb_game):
    players = [("ada", ADA), ("bob", BOB)]
    engine.create_game("neighbors", "nb3", players, seed=5, options={"layout": EXAMPLE_LAYOUT})
    old = token_address(engine, ADA, "nb3")
    lifecycle.delete_game(engine, "nb3")
    start = last_outbox_id(engine)
    engine.create_game("neighbors", "nb3", players, seed=5, options={"layout": EXAMPLE_LAYOUT})
    new = token_address(engine, ADA, "nb3")
    assert new != old and seat(engine, "ada", "nb3")["generation"] == 0
    assert sorted(m[0] for m in sent(engine, start)) == [ADA, BOB]  # the two welcomes
    seq = engine.load("nb3").seq
    outcome, mails = mail(engine, ADA, "Rb4xd4", to=old)
    assert outcome.outcome == "rejected" and "not valid" in outcome.detail
    assert [m[0] for m in mails] == [ADA] and engine.load("nb3").seq == seq
    outcome, _ = mail(engine, ADA, "Rb4xd4", to=new)
    assert outcome.outcome == "applied"


def test_a_game_made_before_token_salts_keeps_its_tokens(engine, nb_game):
    with engine.store.write():
        engine.store.update("games", {"id": "nb1"}, token_salt="")
    secret = engine.outbox.tokens.secret()
    unsalted = tokens.reply_address("gm@localhost", "nb1", "ada", tokens.make(secret, "nb1", "ada", 0))
    outcome, _ = mail(engine, ADA, "Rb4xd4", to=unsalted)
    assert outcome.outcome == "applied"


# --- A forged PASSWORD RESET locks a player out -------------------------------------------------
def test_a_forged_password_reset_changes_nothing_and_mails_the_owner_once_an_hour(engine, nb_game):
    before = seat(engine)
    _, mails = mail(engine, ADA, "PASSWORD RESET nb1")  # From: ada, forged
    ((address, subject, _),) = mails
    assert address == ADA and "confirm your password reset" in subject
    for _ in range(9):  # more forged resets within the hour: nothing more reaches ada
        assert mail(engine, ADA, "PASSWORD RESET nb1")[1] == []
        _, mails = mail(engine, EVE, "PASSWORD RESET nb1 ada")  # and by name, from anywhere
        assert [m[0] for m in mails] == [EVE] and "nothing was reset" in mails[0][2]
    assert seat(engine) == before and works(engine, nb_game["ada"])
    history = [r["detail"] for r in engine.store.history.history_of("nb1") if r["action"] == "reset"]
    assert len(history) == 19 and sum("not sent" in d for d in history) == 18


def test_a_reset_that_cannot_be_mailed_changes_nothing_and_is_recorded(engine, nb_game, clock):
    engine.config.unauthenticated_replies_per_hour = 3
    for n in range(3):  # strangers use up the hourly cap on mail that needs no password ...
        mail(engine, f"stranger{n}@example.net", "HELP")
    before = seat(engine)
    outcome, mails = mail(engine, ADA, "PASSWORD RESET nb1")
    # ... which is theirs: the owner's code still goes (the seat's own limit is its cap).
    assert [(m[0], "confirm your password reset" in m[1]) for m in mails] == [(ADA, True)]
    assert seat(engine) == before and works(engine, nb_game["ada"])
    (recorded,) = [r["detail"] for r in engine.store.history.history_of("nb1") if r["action"] == "reset"]
    assert "code was mailed" in recorded
    # The address bouncing: nothing mailed, nothing changed, the attempt recorded.
    clock.advance(HOUR + 1)
    with engine.store.write():
        engine.store.insert("addresses", address=ADA, state="bouncing", since=clock.now)
    assert mail(engine, ADA, "PASSWORD RESET nb1")[1] == [] and seat(engine) == before
    assert "bounces" in engine.store.history.history_of("nb1")[-1]["detail"]


# --- No throttle on guessing ----------------------------------------------------------------------
def test_guessing_is_throttled_and_the_owner_and_the_gm_are_told_once(engine, nb_game, clock):
    engine.config.gm_address = REFEREE
    start = last_outbox_id(engine)
    for n in range(40):
        outcome = engine.ingest(order_mail(EVE, "BOARD", game_id="nb1", password=f"guess-{n:04d}"))
        assert outcome.outcome == "rejected"
    outcome = engine.ingest(order_mail(EVE, "BOARD", game_id="nb1", password=nb_game["ada"]))
    assert outcome.outcome == "rejected" and "refuses passwords" in outcome.detail  # the right one too
    mails = sent(engine, start)
    assert [m[1] for m in to(mails, ADA)] == ["[gm nb1] Wrong passwords for your seat"]
    assert [m[1] for m in to(mails, BOB)] == ["[gm nb1] Wrong passwords for your seat"]
    assert sorted(m[1] for m in to(mails, REFEREE)) == [
        "[gm] Passwords from eve@evil.example refused for an hour",
        "[nb1] Passwords of seat ada refused for an hour", "[nb1] Passwords of seat bob refused for an hour"]
    assert len(to(mails, EVE)) == 10  # the hourly cap on error replies
    assert len(mails) == 15
    assert engine.store.one("SELECT count(*) AS n FROM credential_failures")["n"] == 10
    # ada's own address with the right password: refused while the seat is locked ...
    assert not works(engine, nb_game["ada"])
    # ... but her reply token passes the lock-out.
    outcome, mails = mail(engine, ADA, "BOARD", to=token_address(engine))
    assert outcome.outcome == "help" and "Board" in mails[0][1]
    clock.advance(HOUR + 1)
    assert works(engine, nb_game["ada"])


def test_a_players_own_mistakes_lock_only_her_seat(engine, nb_game):
    engine.config.gm_address = REFEREE
    start = last_outbox_id(engine)
    for n in range(guessing.FAILURE_LIMIT):
        engine.ingest(order_mail(ADA, "BOARD", game_id="nb1", password=f"typo-{n:04d}"))
    mails = sent(engine, start)
    assert len([m for m in to(mails, ADA) if "Wrong passwords" in m[1]]) == 1
    assert to(mails, BOB) == [] and len(to(mails, REFEREE)) == 2  # seat ada, sender ada
    assert not works(engine, nb_game["ada"]) and works(engine, nb_game["bob"], BOB)


# --- password policy and hashing --------------------------------------------------------------------
def test_a_chosen_password_gets_the_stronger_hash_and_old_weak_ones_are_rehashed(engine, nb_game):
    assert passwords.cost(seat(engine)["pw_hash"]) == passwords.N  # generated: the cheap hash
    mail(engine, ADA, "SET PASSWORD corvid-lantern-77", game_id="nb1", password=nb_game["ada"])
    assert passwords.cost(seat(engine)["pw_hash"]) == passwords.CHOSEN_N
    with engine.store.write():  # a chosen password stored at the old, cheap cost
        engine.store.seats.rehash_seat_password("nb1", "ada", passwords.hash_password("old-choice-99"))
    generation = seat(engine)["generation"]
    assert works(engine, "old-choice-99")
    after = seat(engine)
    assert passwords.cost(after["pw_hash"]) == passwords.CHOSEN_N and after["generation"] == generation
    assert passwords.verify("old-choice-99", after["pw_hash"])


def test_the_deny_list_is_a_few_thousand_common_passwords():
    common = passwords.common_passwords()
    assert len(common) > 2000 and {"password123", "qwertyuiop", "iloveyou"} <= common
    assert passwords.chosen_problem("corvid-lantern-77") is None
    assert "common" in passwords.chosen_problem("Password123")


# --- the game master ----------------------------------------------------------------------------
def test_the_gm_resets_and_readdresses_a_seat_through_the_same_model(engine, nb_game):
    _, mails = mail(engine, ADA, "SET ADDRESS ada@new.example", game_id="nb1", password=nb_game["ada"])
    start = last_outbox_id(engine)
    lifecycle.reset_seat(engine, "nb1", "ada", who="gm:tester", why="lost her mail")
    ((address, subject, text),) = sent(engine, start)
    assert address == ADA and "Your new password" in subject and "Reason: lost her mail" in text
    new = re.search(r"Your new password: (\w+)", text).group(1)
    assert works(engine, new) and not works(engine, nb_game["ada"])
    assert engine.store.credentials.pending_codes("nb1", "ada", ("address",), engine.clock()) == []
    start = last_outbox_id(engine)
    lifecycle.readdress_seat(engine, "nb1", "ada", "ada@work.example", who="gm:tester", why="asked by phone")
    mails = sent(engine, start)
    assert sorted(m[0] for m in mails) == [ADA, "ada@work.example"]
    assert "Your seat moved" in to(mails, ADA)[0][1] and "asked by phone" in to(mails, ADA)[0][2]
    newer = re.search(r"Your new password: (\w+)", to(mails, "ada@work.example")[0][2]).group(1)
    assert seat(engine)["email"] == "ada@work.example" and works(engine, newer, "ada@work.example")
    history = [(r["actor"], r["action"]) for r in engine.store.history.history_of("nb1")][-2:]
    assert history == [("gm:tester", "password"), ("gm:tester", "address")]


def test_gm_seat_commands_on_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from gm.cli import app

    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")
    runner = CliRunner()

    def gm(*args):
        return runner.invoke(app, ["--config", str(conf), *args])

    assert gm("new", "neighbors", "--id", "nb1", "--player", f"ada={ADA}", "--player", f"bob={BOB}").exit_code == 0
    refused = gm("seat", "reset", "nb1", "ada")
    assert refused.exit_code == 1 and "-m REASON" in refused.output
    done = gm("seat", "reset", "nb1", "ada", "-m", "lost it", "--by", "gm:kim")
    assert done.exit_code == 0 and f"mailed to {ADA}" in done.output
    moved = gm("seat", "address", "nb1", "ada", "ada@work.example", "-m", "new job")
    assert moved.exit_code == 0 and "moved to ada@work.example" in moved.output
