"""The attacks, one test each, driven by mail through the real daemon path: mails delivered
into the inbox Maildir, one pass of gm.runtime.daemon.run (gm run --once), and the GM's command line
where the attack uses it.  Each test asserts the state after the attack and every mail the daemon
wrote to the outbox Maildir (recipients, subjects and the body facts that matter); its docstring
names the attack and what now happens to it."""

from __future__ import annotations

import email
import email.policy
import re
import signal
import time
import xml.etree.ElementTree as ET
from contextlib import contextmanager

from typer.testing import CliRunner

from bounce_fixtures import bounce, outbox_row
from gm.cli import app
from gm.core import passwords
from gm.service.outgoing import observers
from gm.service.people import lobby
from mailroom import Mailroom, leaks, mode, text_of
from support import EXAMPLE_LAYOUT, GM_ADDRESS, PLAYERS, PLAYERS3, Clock, order_mail

ADA, BOB, CY = "ada@example.org", "bob@example.org", "cy@example.org"
EVE, EVE2 = "eve@evil.example", "eve2@evil.example"
REFEREE = "referee@example.org"
VICTIM = "victim@example.net"
HOUR, DAY = 3600.0, 86400.0


# --- helpers ----------------------------------------------------------------------------------------
def flat(msg) -> str:
    return " ".join(text_of(msg).split())


def exchange(room: Mailroom, *raws: bytes) -> list[tuple[str, str, str]]:
    """``raws`` delivered to the inbox, one pass of the daemon: every mail it wrote to the outbox
    Maildir, as (envelope recipient, subject, flattened text)."""
    for raw in raws:
        room.deliver(raw)
    out = []
    for envelope, msg in room.run():
        assert msg["To"] == envelope
        out.append((envelope, msg["Subject"], flat(msg)))
    return out


def to(mails, address):
    return [m for m in mails if m[0] == address]


def code_in(subject: str) -> str:
    return re.search(r"CONFIRM (\w+)", subject).group(1)


def password_is(room, password: str, name: str = "ada", game_id: str = "nb1") -> bool:
    return passwords.verify(password, room.engine.store.seats.player(game_id, name)["pw_hash"])


def cli(room, *args, exit_code: int = 0) -> str:
    result = CliRunner().invoke(app, ["--config", room.conf, *args])
    assert result.exit_code == exit_code, result.output
    return result.output


def nb1(room, players=PLAYERS, **options) -> dict[str, str]:
    """Neighbors game nb1 (ada to move, Rb4xd4 legal) and its welcomes sent: the passwords."""
    secrets = room.engine.create_game("neighbors", "nb1", players, seed=5,
                                      options={"layout": EXAMPLE_LAYOUT, **options})
    welcomes = exchange(room)
    assert sorted(m[0] for m in welcomes) == sorted(a for _, a in players)
    assert all(m[1].endswith("Welcome to Neighbors") for m in welcomes)
    return secrets


def welcome_reply_to(room, address: str, game_id: str = "nb1") -> str:
    """The Reply-To of the newest mail to ``address`` about ``game_id`` in the outbox Maildir (as the
    player received it; the store keeps it masked): its seat's token."""
    mails = [email.message_from_bytes(path.read_bytes().partition(b"\r\n")[2], policy=email.policy.default)
             for path in sorted((room.config.outbox / "new").iterdir())]
    found = [m["Reply-To"] for m in mails if m["To"] == address and m["Reply-To"]
             and f"+{game_id}." in m["Reply-To"]]
    assert found
    return found[-1]


# --- 1. A seat taken back after its owner recovered it ------------------------------------------------
def test_a_seat_is_not_taken_back_after_its_owner_recovered_it(tmp_path):
    """Attack: eve, with ada's password, sends SET ADDRESS eve2; ada sends PASSWORD RESET; eve then
    sends the still-pending CONFIRM <code> from eve2.  Now: ada is told of the address change at
    once; her confirmed reset revokes every pending code, so eve2's CONFIRM is answered "unknown,
    used or expired", and the seat, its mail and its new password stay ada's."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    mails = exchange(room, order_mail(EVE, f"SET ADDRESS {EVE2}", game_id="nb1", password=secrets["ada"]))
    assert sorted(m[0] for m in mails) == sorted([ADA, EVE, EVE2])
    (warning,) = to(mails, ADA)
    assert "A change of address was asked" in warning[1] and f"from {EVE}" in warning[2]
    assert "Address change started" in to(mails, EVE)[0][1]
    eve_code = code_in(to(mails, EVE2)[0][1])
    # ada recovers the seat: PASSWORD RESET, confirmed from her registered address.
    ((address, subject, _),) = exchange(room, order_mail(ADA, "PASSWORD RESET nb1"))
    assert address == ADA and "confirm your password reset" in subject
    ((address, _, text),) = exchange(room, order_mail(ADA, f"CONFIRM {code_in(subject)}"))
    assert address == ADA
    new = re.search(r"\(seat ada\): (\w+)", text).group(1)
    # eve's pending code, sent from eve2: refused, and only eve2 hears of it.
    ((address, _, text),) = exchange(room, order_mail(EVE2, f"CONFIRM {eve_code}"))
    assert address == EVE2 and "unknown, used or expired" in text
    seat = room.engine.store.seats.player("nb1", "ada")
    assert seat["email"] == ADA and password_is(room, new) and not password_is(room, secrets["ada"])
    ended = {r["purpose"]: r["ended"] for r in room.engine.store.all("SELECT * FROM address_codes")}
    assert ended == {"address": "revoked by a confirmed PASSWORD RESET", "reset": "confirmed"}
    assert room.outcomes() == ["help"] * 4


# --- 2. gm as a spam amplifier -----------------------------------------------------------------------
def test_forged_observe_and_join_mails_subscribe_nobody_and_mail_strangers_only_capped_codes(tmp_path):
    """Attack: OBSERVE nb2 from many forged From lines made that many observers, each mailed every
    report after; one forged OBSERVE fb1 / OBSERVE nb1 / OBSERVE pg1 / JOIN open1 victim subscribed
    a third party to three games and gave it a seat.  Now: nothing is subscribed until the address
    answers a code; one code mail per request mail, at most confirmations_per_hour of them, and
    one alert to the GM; the next move mails the players alone."""
    room = Mailroom(tmp_path, f"gm_address: {REFEREE}\n")
    room.config.confirmations_per_hour = 10
    engine = room.engine
    secrets = engine.create_game("neighbors", "nb2", PLAYERS, seed=6, options={"layout": EXAMPLE_LAYOUT})
    engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    engine.create_game("pivot-pawns", "pg1", PLAYERS, seed=7)
    lobby.open_game(engine, "neighbors", "open1", 3, seed=4)
    assert len(exchange(room)) == 8  # the welcomes
    strangers = [f"stranger{i:02d}@example.net" for i in range(30)]
    mails = exchange(room, order_mail(VICTIM, "OBSERVE fb1\nOBSERVE nb1\nOBSERVE pg1\nJOIN open1 victim"),
                     *(order_mail(s, "OBSERVE nb2") for s in strangers))
    codes = [m for m in mails if m[0] != REFEREE and m[1].startswith("CONFIRM ")]
    assert [m[0] for m in codes] == [VICTIM] + strangers[:9]
    # Past the total, the other strangers get a short answer each, and no code.
    refusals = [m for m in mails if m[0] != REFEREE and m not in codes]
    assert [m[0] for m in refusals] == strangers[9:] and all("too many OBSERVE" in m[2] for m in refusals)
    for line in ("OBSERVE fb1", "OBSERVE nb1", "OBSERVE pg1", "JOIN open1 victim"):
        assert f"({line})" in codes[0][2]
    assert "ignore this mail: nothing happens" in codes[0][2]
    (alert,) = to(mails, REFEREE)
    assert "10 confirmation codes in the last hour" in alert[2]
    assert engine.store.all("SELECT * FROM observers") == []
    assert engine.store.seats.players("open1") == []
    assert all(observers.following(engine, g) == [] for g in ("fb1", "nb1", "nb2", "pg1"))
    # The next legal move mails the two players, nobody who never asked.
    mails = exchange(room, order_mail(ADA, "Rb4xd4", game_id="nb2", password=secrets["ada"]))
    assert sorted(m[0] for m in mails) == [ADA, BOB]
    assert room.outcomes()[-1] == "applied"


# --- 3. Private press in public ------------------------------------------------------------------
PUBLIC = "Hello all, from ada."
SECRET = "bob: secret plan against cy"
QUOTING = f"Ada wrote to everyone:\nPress in game nb1, turn 1\nFrom: ada\nTo: ALL\n\n{PUBLIC}\n\n{SECRET}"


def test_press_to_gm_quoting_public_press_is_never_shown_in_public(tmp_path):
    """Attack: a PRESS TO GM quoting an earlier public press (so its text holds "To: ALL") was
    taken for public press: shown in every player's HTML report, the archive and the Atom feed.
    Now: each press message's audience is stored as data; bob's goes to the GM alone and no
    report, archive page or feed shows it."""
    room = Mailroom(tmp_path, f"gm_address: {REFEREE}\n")
    secrets = nb1(room, PLAYERS3, press="white", format="html")
    mails = exchange(room, order_mail(ADA, f"PRESS TO ALL\n{PUBLIC}\nENDPRESS", game_id="nb1",
                                      password=secrets["ada"]))
    assert sorted(m[0] for m in mails) == [ADA, BOB, CY]
    assert all(PUBLIC in m[2] for m in to(mails, BOB) + to(mails, CY))
    mails = exchange(room, order_mail(BOB, f"PRESS TO GM\n{QUOTING}\nENDPRESS", game_id="nb1",
                                      password=secrets["bob"]))
    assert sorted(m[0] for m in mails) == [BOB, REFEREE]
    assert SECRET in to(mails, REFEREE)[0][2] and "From: bob" in to(mails, REFEREE)[0][2]
    assert "delivered" in to(mails, BOB)[0][2]
    # ada moves: every report (text and HTML parts) carries ada's public press, never bob's.
    room.deliver(order_mail(ADA, "Rb4xd4", game_id="nb1", password=secrets["ada"]))
    reports = room.run()
    assert sorted(t for t, _ in reports) == [ADA, BOB, CY]
    for _, msg in reports:
        parts = "\n".join(p.get_content() for p in msg.walk() if p.get_content_maintype() == "text")
        assert msg.get_content_type() == "multipart/alternative"
        assert PUBLIC in parts and SECRET not in parts, msg["To"]
    # The archive site and its feed, as the GM builds them.
    assert "archive written" in cli(room, "archive", "build", str(tmp_path / "site"))
    page = (tmp_path / "site" / "game-nb1.html").read_text()
    feed = ET.fromstring((tmp_path / "site" / "game-nb1.atom").read_bytes())
    feed_text = " ".join(el.text or "" for el in feed.iter())
    assert PUBLIC in page and SECRET not in page
    assert PUBLIC in feed_text and SECRET not in feed_text
    # Who each press went to is stored with every copy.
    rows = room.engine.store.all("SELECT player, audience FROM reports WHERE kind = 'press' ORDER BY id")
    assert [(r["player"], r["audience"]) for r in rows] == [("bob", "all"), ("cy", "all"), (None, "all"),
                                                             (None, "gm")]


# --- 4. A reply token is a full credential, silently -----------------------------------------------
def test_a_reply_token_plays_but_cannot_change_or_leave_the_seat(tmp_path):
    """Attack: with only ada's reply token, from any address, SET PASSWORD, SET ADDRESS and RESIGN
    worked and ada was told nothing.  Now: those (and ABSENCE) are refused as needing the password,
    the seat unchanged; orders and press by token from another address work and ada is told."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    token = welcome_reply_to(room, ADA)
    for command in ("SET PASSWORD corvid-lantern-77", f"SET ADDRESS {EVE2}", "RESIGN", "ABSENCE +1d +3d"):
        ((address, subject, text),) = exchange(room, order_mail(EVE, command, to=token,
                                                                subject="Re: [nb1 T1] Welcome"))
        assert address == EVE and "needs your password" in text, command
        assert "refused (no password)" in subject
    seat = room.engine.store.seats.player("nb1", "ada")
    assert seat["email"] == ADA and seat["active"] and password_is(room, secrets["ada"])
    assert room.engine.store.all("SELECT * FROM address_codes") == []
    assert room.engine.store.all("SELECT * FROM absences") == []
    # Orders and press with the token, from eve's address: played, and ada is told of both.
    mails = exchange(room, order_mail(EVE, "Rb4xd4\nPRESS TO bob\nhello\nENDPRESS", to=token,
                                      subject="Re: [nb1 T1] Welcome"))
    assert room.outcomes()[-1] == "applied" and len(room.engine.load("nb1").state.moves) == 1
    assert sorted((m[0], m[1]) for m in mails) == [
        (ADA, "[gm nb1] Neighbors report"), (ADA, "[gm nb1] Orders from another address"),
        (ADA, "[gm nb1] Press from another address"), (BOB, "[gm nb1] Neighbors report"),
        (BOB, "[gm nb1] Press from ada"), (EVE, "[gm nb1] Press delivered: Re: [nb1 T1] Welcome")]
    assert all("Neighbors game nb1, turn 2" in m[2] for m in mails if m[1].endswith("Neighbors report"))
    assert all(f"from {EVE}" in m[2] and "PASSWORD RESET nb1" in m[2] for m in mails if "another" in m[1])


# --- 5. Tokens outlive their game ---------------------------------------------------------------------
def test_a_recreated_game_id_never_honours_the_old_games_tokens(tmp_path):
    """Attack: gm delete nb3, then gm new ... --id nb3 with the same seat names: the old game's
    reply tokens worked in the new game.  Now: the tokens' key covers a random value set at each
    creation; the old token is refused with one reply and the game is unchanged."""
    room = Mailroom(tmp_path)
    new = ("new", "neighbors", "--id", "nb3", "--player", f"ada={ADA}", "--player", f"bob={BOB}",
           "--seed", "5", "--option", f"layout={EXAMPLE_LAYOUT}")
    assert "game nb3 started" in cli(room, *new)
    assert sorted(m[0] for m in exchange(room)) == [ADA, BOB]
    old = welcome_reply_to(room, ADA, "nb3")
    assert "deleted" in cli(room, "delete", "nb3", "--yes")
    assert "game nb3 started" in cli(room, *new)
    welcomes = exchange(room)
    assert sorted(m[0] for m in welcomes) == [ADA, BOB]
    fresh = welcome_reply_to(room, ADA, "nb3")
    assert fresh != old
    ((address, subject, text),) = exchange(room, order_mail(ADA, "Rb4xd4", to=old))
    assert address == ADA and room.outcomes()[-1] == "rejected" and "Not done" in subject
    assert "a reply address of game nb3 that is not valid" in text and "Nothing was changed." in text
    assert not room.engine.load("nb3").state.moves
    mails = exchange(room, order_mail(ADA, "Rb4xd4", to=fresh))
    assert room.outcomes()[-1] == "applied" and sorted(m[0] for m in mails) == [ADA, BOB]


# --- 6. A forged PASSWORD RESET locks a player out ------------------------------------------------
def test_a_forged_password_reset_changes_nothing(tmp_path):
    """Attack: a PASSWORD RESET with a forged From changed the password at once (ten times an hour
    below the cap on answers to strangers; above it, the new password was never even sent).  Now:
    a reset only mails the registered address a code and changes nothing until it is confirmed
    from there; more forged resets within the hour mail ada nothing more; strangers using up the
    cap on answers to them hold up no owner's code (the seat's own limit is its cap)."""
    room = Mailroom(tmp_path, "unauthenticated_replies_per_hour: 4\n")
    secrets = nb1(room)
    mails = exchange(room, *(order_mail(ADA, "PASSWORD RESET nb1") for _ in range(5)))
    assert password_is(room, secrets["ada"])
    assert [m[0] for m in mails] == [ADA] and "confirm your password reset" in mails[0][1]
    # Strangers use up the hourly cap on answers to mail that needs no password ...
    strangers = [f"stranger{n}@example.net" for n in range(5)]
    mails = exchange(room, *(order_mail(s, "HELP") for s in strangers))
    assert [m[0] for m in mails] == strangers[:4]  # the reset's code mail is not theirs to count
    assert "gm is answering too many mails this hour" in mails[-1][2]
    # ... and then a forged reset of bob's seat: bob's code still goes to bob, nothing changed.
    mails = exchange(room, order_mail(BOB, "PASSWORD RESET nb1"))
    assert [m[0] for m in mails] == [BOB] and "confirm your password reset" in mails[0][1]
    assert password_is(room, secrets["bob"], "bob") and password_is(room, secrets["ada"])
    resets = [r["detail"] for r in room.engine.store.history.history_of("nb1") if r["action"] == "reset"]
    assert len(resets) == 6 and "code was mailed" in resets[-1]
    assert room.engine.store.seats.player("nb1", "bob")["email"] == BOB


# --- 7. One mail, 26 s of CPU ----------------------------------------------------------------------------
class TooSlow(Exception):
    pass


@contextmanager
def at_most(seconds: int):
    """Stop the block with TooSlow after ``seconds`` (the old punycode decoder took minutes)."""
    def stop(signum, frame):
        raise TooSlow(f"over {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def mail_in_charset(charset: str, text: bytes) -> bytes:
    return (f"From: Ada <{ADA}>\r\nTo: {GM_ADDRESS}\r\nSubject: orders\r\n"
            f"Message-ID: <{charset}-{len(text)}@example.org>\r\nMIME-Version: 1.0\r\n"
            f'Content-Type: text/plain; charset="{charset}"\r\n\r\n').encode() + text


def test_a_punycode_or_base64_charset_is_answered_at_once_and_changes_nothing(tmp_path):
    """Attack: charset="punycode" on a 900 KB part made CPython's quadratic decoder run for tens of
    seconds; charset="base64" raised and the body was dropped without a word.  Now: only text
    charsets are decoded; each mail is answered at once with a reply saying gm cannot read its
    character set, and nothing changes."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    hostile = mail_in_charset("punycode", b"b" * 900_000)
    assert len(hostile) < room.config.max_message_bytes  # read, not refused as too large
    base64_mail = mail_in_charset("base64", f"GAME nb1 PASSWORD {secrets['ada']}\r\nb4xd4\r\n".encode())
    began = time.process_time()  # CPU, which a loaded machine does not stretch as it does the wall clock
    with at_most(10):
        mails = exchange(room, hostile, base64_mail)
    assert time.process_time() - began < 2.0
    assert [m[0] for m in mails] == [ADA, ADA]
    for (_, _, text), charset in zip(mails, ("punycode", "base64")):
        assert f"gm could not read your mail (its character set '{charset}' is not one gm can read" in text
        assert "Nothing was changed." in text
    assert room.outcomes() == ["rejected", "rejected"]
    assert not room.engine.load("nb1").state.moves


# --- 8. Passwords at rest, in clear, world-readable --------------------------------------------------
def test_no_password_is_kept_in_clear_and_the_files_are_the_users_alone(tmp_path):
    """Attack: read plaintext passwords from welcome and reset mails in the outbox, order mails in
    `messages`, or world-readable files (gm.sqlite, gm-data/, outbox Maildir).  Once handed on,
    the mails are blanked or stored redacted (no password, code or token anywhere in the store),
    and the store, data folder and Maildir files are 0600/0700."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    token = welcome_reply_to(room, ADA).split("@")[0].rpartition(".")[2]
    mails = exchange(room, order_mail(ADA, "Rb4xd4", game_id="nb1", password=secrets["ada"],
                                      subject=f"GAME nb1 PASSWORD {secrets['ada']}"))
    assert sorted(m[0] for m in mails) == [ADA, BOB] and room.outcomes() == ["applied"]
    # The welcomes and the order mail handed on: no password or token is left in the store.
    found = leaks(room.engine, [secrets["ada"], secrets["bob"], token])
    assert found == [], found
    data = tmp_path / "gm-data"
    assert mode(data) == 0o700 and mode(room.config.database) == 0o600
    assert all(mode(p) == 0o600 for p in (room.config.outbox / "new").iterdir())
    # A PASSWORD RESET and its confirmation: the code and the new password are not kept either.
    ((address, subject, _),) = exchange(room, order_mail(ADA, "PASSWORD RESET nb1"))
    assert address == ADA and "confirm your password reset" in subject
    code = code_in(subject)
    ((address, subject, text),) = exchange(room, order_mail(ADA, "Yes.", subject=f"Re: {subject}"))
    assert address == ADA and "new password" in subject.lower()
    new = re.search(r"\(seat ada\): (\w+)", text).group(1)
    assert password_is(room, new)
    found = leaks(room.engine, [secrets["ada"], secrets["bob"], new, code, token])
    assert found == [], found
    (order,) = room.engine.store.all("SELECT raw, subject FROM messages WHERE outcome = 'applied'")
    assert "[redacted]" in order["subject"]
    written = list((room.config.outbox / "new").iterdir())
    assert len(written) == 6 and all(mode(p) == 0o600 for p in written)
    assert mode(room.config.outbox) == mode(room.config.inbox) == 0o700


# --- 9. No throttle on guessing ---------------------------------------------------------------------
def test_guessing_passwords_is_throttled_and_the_owners_and_the_gm_are_told(tmp_path):
    """Attack: 40 wrong passwords then the right one were all read, the last accepted, and nobody
    was told; SET PASSWORD took a chosen 8-character password.  Now: after 10 wrong passwords an
    hour the sender (and the seat) is refused for an hour, the right password too; each seat's
    owner and the GM get one notice; a chosen password needs 10 characters and no common one."""
    clock = Clock()
    room = Mailroom(tmp_path, f"gm_address: {REFEREE}\n", clock)
    secrets = nb1(room)
    guesses = [order_mail(EVE, "BOARD", game_id="nb1", password=f"guess-{n:04d}") for n in range(40)]
    mails = exchange(room, *guesses, order_mail(EVE, "BOARD", game_id="nb1", password=secrets["ada"]))
    assert room.outcomes() == ["rejected"] * 41
    details = [r["detail"] for r in room.engine.store.all("SELECT detail FROM messages ORDER BY id")]
    assert "refuses passwords" in details[-1]
    assert [m[1] for m in to(mails, ADA)] == ["[gm nb1] Wrong passwords for your seat"]
    assert [m[1] for m in to(mails, BOB)] == ["[gm nb1] Wrong passwords for your seat"]
    assert sorted(m[1] for m in to(mails, REFEREE)) == [
        f"[gm] Passwords from {EVE} refused for an hour",
        "[nb1] Passwords of seat ada refused for an hour", "[nb1] Passwords of seat bob refused for an hour"]
    assert len(to(mails, EVE)) == 10 and len(mails) == 15  # eve: the hourly cap on error replies
    assert room.engine.store.one("SELECT count(*) AS n FROM credential_failures")["n"] == 10
    assert password_is(room, secrets["ada"]) and not room.engine.load("nb1").state.moves
    # An hour on, ada chooses an 8-character password: refused, the old one kept.
    clock.advance(HOUR + 1)
    ((address, _, text),) = exchange(room, order_mail(ADA, "SET PASSWORD abcd1234", game_id="nb1",
                                                      password=secrets["ada"]))
    assert address == ADA and "a password is 10 to 64 characters long" in text
    assert password_is(room, secrets["ada"]) and room.outcomes()[-1] == "help"


# --- 10. A player forges a bounce of her own mail -------------------------------------------------
def test_a_forged_bounce_of_her_own_welcome_counts_for_nothing(tmp_path):
    """Attack: a player mailed gm@ a DSN quoting her own welcome's Message-ID (no VERP tag): she was
    marked bouncing and, with bouncing=wait, her deadline moved every day: she never forfeited.
    Now: with VERP on only a bounce to a valid VERP address counts; the forged one is read as a
    robot's mail, answered by nobody, and at the deadline she forfeits."""
    clock = Clock()
    room = Mailroom(tmp_path, f"gm_address: {REFEREE}\n", clock)
    engine = room.engine
    engine.create_game("neighbors", "dl1", PLAYERS, seed=7, options={
        "deadline": "24h", "reminder": "0", "grace": "0", "late": "forfeit", "bouncing": "wait"})
    assert sorted(m[0] for m in exchange(room)) == [ADA, BOB]
    view = engine.load("dl1")
    (name,) = view.rules.to_move(view.state)
    address = dict(PLAYERS)[name]
    welcome = outbox_row(engine.store, address, "welcome")
    forged = bounce("dsn-sendmail", welcome, engine.verp, to=GM_ADDRESS)
    assert welcome["message_id"].encode() in forged
    assert exchange(room, forged) == []
    assert room.outcomes() == ["robot"]
    assert engine.store.delivery.address_state(address) is None and engine.store.delivery.delivery_events(address) == []
    clock.advance(DAY + HOUR)
    mails = exchange(room)
    assert engine.load("dl1").status == "finished"
    assert engine.store.results.result_of("dl1")["reason"].startswith(f"{name} forfeited")
    assert sorted((m[0], m[1]) for m in mails) == sorted(
        [(address, "[gm dl1] Late")] + [(a, "[gm dl1] Game over") for _, a in PLAYERS])
    assert all("Game dl1, turn 1:" in m[2] for m in mails)


# --- 11. Control characters reach the GM's terminal and break the feed ----------------------------
TITLE, HIDE = "\x1b]0;owned\x07", "\x1b[8m"
HOSTILE = f"{TITLE}{HIDE}hidden\x00\x9b2J\u202egnp.exe end"


def test_escape_sequences_in_mail_never_reach_the_gms_terminal_or_the_feed(tmp_path):
    """Attack: ESC sequences in a subject or a press came out raw in `gm inbox` and `gm history`
    (title and clipboard writes, hidden text) and made the Atom feed stop being XML.  Now: C0/C1
    controls, bidi overrides and NUL are removed at the door from every stored subject, name, press
    and order line; no mail, CLI listing or feed holds them."""
    room = Mailroom(tmp_path)
    secrets = nb1(room, press="white")
    mails = exchange(room, order_mail(f"Ada {HIDE}<{ADA}>", f"PRESS TO ALL\n{HOSTILE}\nENDPRESS\nRb4xd4",
                                      game_id="nb1", password=secrets["ada"], subject=f"orders {TITLE}{HIDE}x"))
    assert room.outcomes() == ["applied"]
    # the press and the reports; ada's report is her one reply, the press confirmed in it
    assert sorted(m[0] for m in mails) == [ADA, BOB, BOB]
    ((_, subject, text),) = to(mails, ADA)
    assert subject == "[gm nb1] Neighbors report" and "Your press to" in text
    assert "Neighbors game nb1, turn 2" in text
    for m in mails:
        assert not any(c in "".join(m) for c in "\x1b\x07\x00\x9b\u202e"), m[1]
    (press,) = [m for m in to(mails, BOB) if "Press" in m[1]]
    assert "hidden2Jgnp.exe end" in press[2]
    assert room.engine.store.one("SELECT subject FROM messages")["subject"] == "orders ]0;owned[8mx"
    for args in (["inbox"], ["history", "nb1"]):
        shown = cli(room, *args)
        assert not any(c in shown for c in "\x1b\x07\x00\x9b\u202e"), (args, shown)
    assert "orders ]0;owned[8mx" in cli(room, "inbox")
    assert "hidden2Jgnp.exe end" in cli(room, "history", "nb1")
    cli(room, "archive", "build", str(tmp_path / "site"))
    feed = ET.fromstring((tmp_path / "site" / "game-nb1.atom").read_bytes())
    assert "hidden2Jgnp.exe end" in " ".join(el.text or "" for el in feed.iter())


# --- 12. Look-alike ids ----------------------------------------------------------------------------
def test_look_alike_game_ids_are_refused_by_mail_and_on_the_command_line(tmp_path):
    """Attack: CREATE accepted `nЬ1` (a Cyrillic soft sign) and `ＮＢ３` (full-width), ids that look
    like nb1 and nb3.  Now: new game ids are ASCII letters, digits and '-'; CREATE by mail answers
    "Not created" naming the character, and `gm new` refuses the same."""
    room = Mailroom(tmp_path, "player_create_kinds: [neighbors]\n")
    for game_id, code in (("n\u042c1", "U+042C"), ("\uff2e\uff22\uff13", "U+FF2E")):
        ((address, subject, text),) = exchange(room, order_mail(ADA, f"CREATE neighbors {game_id} 2"))
        assert address == ADA and "Not created" in subject
        assert "ASCII letters, digits and '-'" in text and code in text
        output = cli(room, "new", "neighbors", "--id", game_id, "--player", f"ada={ADA}", "--player",
                     f"bob={BOB}", exit_code=1)
        assert "ASCII letters, digits and '-'" in output and code in output
    assert room.engine.store.games.every_game() == [] and exchange(room) == []
    assert room.engine.store.all("SELECT * FROM pending_requests") == []
