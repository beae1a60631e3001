"""Caps count mailboxes, owners' mail is apart from strangers', and codes need the code: the
attacks of "Trust, round two" on gm's caps, one test each, driven through the real daemon path
(mails delivered into the inbox Maildir, one pass of gm.runtime.daemon.run, gm run --once), each
asserting every mail the daemon wrote to the outbox Maildir and the state after.  Unit tests of
gm.core.addresses.mailbox_key, the one key all of them count by, come first."""

from __future__ import annotations

import email.utils
import re
import uuid

import pytest

from bounce_fixtures import bounce, outbox_row
from gm.core import addresses
from gm.service.outgoing import observers
from gm.service.people import lobby
from mailroom import Mailroom, text_of
from support import EXAMPLE_LAYOUT, GM_ADDRESS, PLAYERS, order_mail

ADA, BOB = "ada@example.org", "bob@example.org"
REFEREE = "referee@example.org"


# --- the key ------------------------------------------------------------------------------------
@pytest.mark.parametrize("written, key", [
    ("victim@example.net", "victim@example.net"),
    ("VICTIM@Example.NET", "victim@example.net"),
    ("victim+0@example.net", "victim@example.net"),
    ("victim+a+b@example.net", "victim@example.net"),
    ('"victim"@example.net', "victim@example.net"),
    ('"Vic\\tim+x"@example.net', "victim@example.net"),
    ("v.i.c.t.i.m@gmail.com", "victim@gmail.com"),
    ("V.ictim+news@GoogleMail.com", "victim@gmail.com"),
    ("v.ictim@example.net", "v.ictim@example.net"),  # dots count everywhere else
    ("victim@example.net.evil", "victim@example.net.evil"),
    ("+tag@example.net", "+tag@example.net"),  # nothing before the +: kept whole
    ("zoë@Bücher.example", "zoë@xn--bcher-kva.example"),
    ("", ""),
    (None, ""),
])
def test_the_mailbox_key(written, key):
    assert addresses.mailbox_key(written) == key


def test_the_key_patterns_match_every_spelling_of_a_key():
    """The store narrows by these LIKE patterns before keying: every spelling must match one."""
    def like(pattern: str, text: str) -> bool:
        head, _, domain = pattern.partition("%@")
        return text.startswith(head) and text.endswith("@" + domain)

    spellings = ["victim@gmail.com", "v.i.c.t.i.m+x@googlemail.com", '"victim"@gmail.com', "vict.im@gmail.com",
                 "a_b+c@example.org", '"a_b"@example.org', "a_b@example.org", "victim+9@example.net"]
    for spelling in spellings:
        kept = addresses.normal(spelling)
        key = addresses.mailbox_key(kept)
        assert sum(like(p, kept) for p in addresses.key_patterns(key)) == 1, (spelling, key)
    assert addresses.key_patterns("victim@gmail.com") == (
        "v%@gmail.com", '"%@gmail.com', "v%@googlemail.com", '"%@googlemail.com')
    assert addresses.key_patterns("victim@example.net") == ("victim%@example.net", '"%@example.net')
    assert addresses.key_patterns("a_b@example.org") == ("a%@example.org", '"%@example.org')


# --- helpers ------------------------------------------------------------------------------------
def raw_mail(sender: str, text: str, to: str = GM_ADDRESS, subject: str = "hello", **headers: str) -> bytes:
    """A mail written byte for byte as given (its From exactly as the forger typed it)."""
    lines = [f"From: {sender}", f"To: {to}", f"Subject: {subject}", f"Date: {email.utils.formatdate()}",
             f"Message-ID: <{uuid.uuid4().hex}@example.org>"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    lines += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "", text, ""]
    return "\r\n".join(lines).encode()


def exchange(room: Mailroom, *raws: bytes):
    """``raws`` delivered, one pass of the daemon: every mail it wrote, as (envelope to, mail)."""
    for raw in raws:
        room.deliver(raw)
    return room.run()


def flat(msg) -> str:
    return " ".join(text_of(msg).split())


def code_of(msg) -> str:
    return re.search(r"CONFIRM (\w+)", msg["Subject"]).group(1)


def with_games(room: Mailroom) -> dict[str, str]:
    """nb1 (ada and bob seated, welcomes sent) and open1 waiting for players; nb1's passwords."""
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    lobby.open_game(room.engine, "neighbors", "open1", 3, seed=4)
    assert sorted(to for to, _ in room.run()) == [ADA, BOB]
    return secrets


# --- caps counted by exact address -------------------------------------------------------------
def test_forty_spellings_of_one_mailbox_get_its_ten_answers_and_no_more(tmp_path):
    """Attack: HELP from victim+0@ ... victim+29@, "victim"@ and VICTIM@ (forged): 40 answers
    reached one mailbox in one run.  Now: the per-mailbox cap (10 an hour) counts them as one."""
    room = Mailroom(tmp_path, "error_replies_per_hour: 10\n")
    spellings = [f"victim+{n}@example.net" for n in range(30)] + [
        '"victim"@example.net', "VICTIM@example.net", "Victim@Example.NET", '"victim+x"@example.net',
        "victim@EXAMPLE.net", "ViCtIm+9@example.net", "victim+@example.net", "VICTIM+LIST@example.net",
        '"VICTIM"@example.net', "victim@example.net"]
    assert len(spellings) == 40
    mails = exchange(room, *(raw_mail(s, "HELP") for s in spellings))
    answers = [m for _, m in mails]  # each to one of the spellings: all to the victim's one mailbox
    assert len(answers) == 10
    assert "last answer gm sends" in flat(answers[-1]) and not any("last answer" in flat(m) for m in answers[:-1])
    assert room.outcomes() == ["help"] * 40  # every mail kept, as any mail is


def test_gmail_dots_and_googlemail_are_one_mailbox_for_the_confirmation_caps(tmp_path):
    """Attack: OBSERVE nb1 from victim@gmail.com, v.ictim@, vi.ctim@, victim@googlemail.com ...
    (forged): six codes reached one Gmail mailbox.  Now: one, while it is unanswered; a day's cap."""
    room = Mailroom(tmp_path)
    with_games(room)
    spellings = ["victim@gmail.com", "v.ictim@gmail.com", "vi.c.tim@gmail.com", "victim@googlemail.com",
                 "V.I.C.T.I.M@GoogleMail.com", "vic.tim+x@gmail.com"]
    mails = exchange(room, *(raw_mail(s, "OBSERVE nb1") for s in spellings))
    (code,) = [m for _, m in mails]
    assert code["Subject"].startswith("CONFIRM ") and mails[0][0] == "victim@gmail.com"
    # Answered, the next one may go (to any spelling), up to the day's cap of three in all.
    room.deliver(raw_mail("victim@gmail.com", "", subject="Re: " + code["Subject"]))
    assert [to for to, _ in room.run()] == ["victim@gmail.com"]
    sent = []
    for spelling in spellings[1:]:
        mails = exchange(room, raw_mail(spelling, "OBSERVE nb1"))
        for to, msg in mails:
            sent.append(to)
            exchange(room, raw_mail(to, "", subject="Re: " + msg["Subject"]))
    assert sent == spellings[1:3]  # three codes today to the mailbox, whatever its spellings
    assert room.engine.store.one("SELECT count(*) AS n FROM pending_requests")["n"] == 3


def test_create_counts_open_games_by_mailbox(tmp_path):
    """Attack: CREATE from ann@, ann+1@, ANN@ and "ann"@ (each confirmed by its own spelling): one
    mailbox opened more than 3 games waiting for players.  Now: the fourth is refused."""
    room = Mailroom(tmp_path, "player_create_kinds: [neighbors]\nconfirmations_per_address_per_day: 10\n")
    spellings = ["ann@example.net", "ann+1@example.net", "ANN@example.net", '"ann"@example.net']
    answers = []
    for n, spelling in enumerate(spellings):
        mails = exchange(room, raw_mail(spelling, f"CREATE neighbors op{n} 2"))
        (msg,) = [m for _, m in mails]
        if not msg["Subject"].startswith("CONFIRM "):
            answers.append(flat(msg))
            continue
        (answer,) = [m for _, m in exchange(room, raw_mail(spelling, "", subject="Re: " + msg["Subject"]))]
        answers.append(flat(answer))
    assert ["is open: 2 seats" in a for a in answers] == [True, True, True, False]
    assert "This address has 3 games waiting for players already" in answers[3]
    assert room.engine.store.games.game("op3") is None
    assert room.engine.store.selfservice.open_games_created_by("ANN+other@example.net") == 3


# --- owners' budgets apart from strangers' --------------------------------------------------------
def test_a_reset_code_goes_to_the_owner_after_strangers_used_up_their_total(tmp_path):
    """Attack: HELP from five forged strangers fills the hourly total of answers to strangers;
    then every PASSWORD RESET code was silently not sent.  Now: the owner's code goes."""
    room = Mailroom(tmp_path, f"unauthenticated_replies_per_hour: 4\ngm_address: {REFEREE}\n")
    with_games(room)
    strangers = [f"stranger{n}@example.net" for n in range(6)]
    told = exchange(room, *(raw_mail(s, "HELP") for s in strangers))
    assert [to for to, _ in told if to != REFEREE] == strangers[:4]
    mails = exchange(room, raw_mail(ADA, "PASSWORD RESET nb1"), raw_mail("stranger9@example.net", "HELP"))
    ((to, code),) = mails
    assert to == ADA and "confirm your password reset" in code["Subject"]
    (alert,) = [m for to, m in told if to == REFEREE]  # the total reached: the GM told, once
    assert "answered 4 mails that needed no password" in flat(alert)
    (answer,) = [m for _, m in exchange(room, raw_mail(ADA, "", subject="Re: " + code["Subject"]))]
    assert answer["Subject"].startswith("[gm nb1] New password for nb1")


def test_an_observe_flood_leaves_owners_their_codes_and_strangers_an_answer(tmp_path):
    """Attack: forged OBSERVEs use up confirmations_per_hour; after it every JOIN, OBSERVE and
    CREATE was dropped without a word.  Now: a seat's address still gets its code, a stranger gets
    a short answer (within the caps on answers to strangers), and the GM is told once."""
    room = Mailroom(tmp_path, f"confirmations_per_hour: 5\ngm_address: {REFEREE}\n")
    with_games(room)
    strangers = [f"stranger{n}@example.net" for n in range(8)]
    mails = exchange(room, *(raw_mail(s, "OBSERVE nb1") for s in strangers))
    codes = [to for to, m in mails if m["Subject"].startswith("CONFIRM ")]
    assert codes == strangers[:5]
    refused = [(to, flat(m)) for to, m in mails if to != REFEREE and to not in codes]
    assert [to for to, _ in refused] == strangers[5:]
    assert all("too many OBSERVE, JOIN and CREATE requests" in text for _, text in refused)
    assert len([to for to, _ in mails if to == REFEREE]) == 1
    # ada holds a seat: her JOIN gets its code; a new stranger's gets an answer; the GM hears no more.
    mails = exchange(room, raw_mail(ADA, "JOIN open1 ada"), raw_mail("late@example.net", "JOIN open1 late"))
    by_to = {to: m for to, m in mails}
    assert sorted(by_to) == [ADA, "late@example.net"]
    assert by_to[ADA]["Subject"].startswith("CONFIRM ") and "(JOIN open1 ada)" in flat(by_to[ADA])
    assert "too many OBSERVE" in flat(by_to["late@example.net"])
    (answer,) = [m for _, m in exchange(room, raw_mail(ADA, "", subject="Re: " + by_to[ADA]["Subject"]))]
    assert "You have joined game open1" in flat(answer)
    assert [p["email"] for p in room.engine.store.seats.players("open1")] == [ADA]
    assert observers.following(room.engine, "nb1") == []


# --- confirmations need the code -----------------------------------------------------------------
def test_only_a_reply_that_carries_the_code_or_answers_its_mail_confirms(tmp_path):
    """Attack: a forged OBSERVE from a ticket system's address; its acknowledgment, sent to the
    code mail's gm+confirm.<code>@ Reply-To with no code in it, confirmed it.  Now: the address
    alone confirms nothing; a robot's mail never; a person's reply carrying the code, or answering
    the code mail, does."""
    room = Mailroom(tmp_path)
    with_games(room)
    desk, person = "helpdesk@example.com", "pat@example.com"
    ((_, code_mail),) = exchange(room, raw_mail(desk, "OBSERVE nb1"))
    confirm_to = code_mail["Reply-To"]
    assert confirm_to == f"gm+confirm.{code_of(code_mail)}@{GM_ADDRESS.partition('@')[2]}"
    ack = raw_mail(desk, "Thank you for contacting us. We will get back to you within 2 days.",
                   to=confirm_to, subject="Request received [#4711]")
    # A robot's reply carrying the code (RFC 3834 Auto-Submitted): never read.
    robot = raw_mail(desk, f"CONFIRM {code_of(code_mail)}", to=confirm_to, subject="Re: " + code_mail["Subject"],
                     Auto_Submitted="auto-replied")
    ((to, answer),) = exchange(room, ack, robot)  # the ack is any mail gm cannot read: one answer
    assert to == desk and "Nothing was changed" in flat(answer) and not answer["Subject"].startswith("CONFIRM")
    assert room.outcomes()[-2:] == ["rejected", "robot"]
    assert observers.following(room.engine, "nb1") == []
    assert room.engine.store.one("SELECT confirmed FROM pending_requests")["confirmed"] is None
    # A person's reply whose client kept no subject, answering the code mail: that is an answer.
    ((_, pat_code),) = exchange(room, raw_mail(person, "OBSERVE nb1"))
    reply = raw_mail(person, "yes please", to=pat_code["Reply-To"], subject="hello",
                     In_Reply_To=pat_code["Message-ID"])
    ((to, answer),) = exchange(room, reply)
    assert to == person and "You now follow game nb1" in flat(answer)
    # And the desk's person, replying by hand with the code in the subject, confirms too.
    ((to, answer),) = exchange(room, raw_mail(desk, "ok", to=confirm_to, subject="Re: " + code_mail["Subject"]))
    assert to == desk and "You now follow game nb1" in flat(answer)
    assert sorted(observers.following(room.engine, "nb1")) == [desk, person]


# --- backscatter -------------------------------------------------------------------------------
def bounce_of(engine, address: str) -> bytes:
    """A real bounce (its valid VERP address) of the newest mail to ``address``, its own Message-ID."""
    raw = bounce("dsn-sendmail", outbox_row(engine.store, address), engine.verp)
    return raw.replace(b"5ANE2BsX011002@mx", f"{uuid.uuid4().hex}@mx".encode(), 1)


def test_a_bounce_for_an_address_with_no_seat_mails_the_gm_nothing(tmp_path):
    """Attack: HELP forged from addresses that do not exist; each answer bounced, and each bounce
    mailed the GM "Mail to X bounces ... Seats at this address: none".  Now: the address is held,
    nobody is told; a seat's address bouncing still tells the GM and the other players."""
    room = Mailroom(tmp_path, f"gm_address: {REFEREE}\n")
    with_games(room)
    ghosts = [f"ghost{n}@nowhere.example" for n in range(3)]
    mails = exchange(room, *(raw_mail(g, "HELP") for g in ghosts))
    assert sorted(to for to, _ in mails) == ghosts
    engine = room.engine
    assert exchange(room, *(bounce_of(engine, g) for g in ghosts)) == []
    assert all(engine.store.delivery.address_state(g)["state"] == "bouncing" for g in ghosts)
    # An observer's address is a subscription: its bounce is news.
    ((_, code),) = exchange(room, raw_mail("watcher@nowhere.example", "OBSERVE nb1"))
    exchange(room, raw_mail("watcher@nowhere.example", "", subject="Re: " + code["Subject"]))
    mails = exchange(room, bounce_of(engine, "watcher@nowhere.example"))
    assert [(to, m["Subject"]) for to, m in mails] == [(REFEREE, "[gm] Mail to watcher@nowhere.example bounces")]
    # A seat's address bouncing: the GM and the other player are told, as before.
    mails = exchange(room, bounce_of(engine, BOB))
    assert sorted((to, m["Subject"]) for to, m in mails) == sorted([
        (REFEREE, f"[gm] Mail to {BOB} bounces"), (ADA, "[gm nb1] Player not receiving mail")])
    assert "Seats at this address: bob in nb1" in flat(dict(mails)[REFEREE])


def test_the_sender_address_lock_is_one_per_mailbox():
    from gm.store.locks import address_lock
    assert address_lock("Victim+1@Example.net") == address_lock('"victim"@example.net') == "address:victim@example.net"
    assert address_lock("v.ictim@googlemail.com") == address_lock("victim@gmail.com")
    assert address_lock(None) == address_lock("") == "address:"


def test_order_mail_is_not_counted_as_a_stranger(tmp_path):
    """A registered player's mail with her password is answered past the strangers' caps."""
    room = Mailroom(tmp_path, "unauthenticated_replies_per_hour: 1\n")
    secrets = with_games(room)
    assert len(exchange(room, raw_mail("s1@example.net", "HELP"), raw_mail("s2@example.net", "HELP"))) == 1
    mails = exchange(room, order_mail(ADA, "BOARD", game_id="nb1", password=secrets["ada"]))
    assert [to for to, _ in mails] == [ADA]
