"""Quoted text is never read as the replier's own, nor an attached message as orders, through
the real daemon path: mails delivered into the inbox Maildir, one pass of gm.runtime.daemon.run
(gm run --once), every mail it wrote to the outbox Maildir.  The quoted mail is the one gm really
sent (bob's press, as ada received it), quoted as Outlook quotes it: without ">".  The quote layouts
of every client and language are in tests/mail/test_reply_corpus.py."""

from __future__ import annotations

import email.message
import email.policy

import pytest

from gm.mail.quotes import MARKER
from mailroom import Mailroom, text_of
from support import EXAMPLE_LAYOUT, GM_ADDRESS, PLAYERS, order_mail

ADA, BOB = "ada@example.org", "bob@example.org"
# bob's press: a trap for ada's reply, holding a draw, a setting and a press in her name
TRAP = ["Shall we call it a draw? Answer and I will agree.", "DRAW", "SET FORMAT TEXT ALL",
        "PRESS TO ALL", "I, ada, am a cheat."]
SENT = "Monday 5 January 2026 10:00"
# Outlook's header blocks above the quoted mail, in the languages the issue found read as new text
HEADERS = {
    "german-outlook": ["-----Ursprüngliche Nachricht-----", "Von: gm", f"Gesendet: {SENT}",
                       f"An: {ADA}", "Betreff: {subject}"],
    "english-outlook-no-address": ["From: gm", f"Sent: {SENT}", f"To: {ADA}", "Subject: {subject}"],
    "french-outlook": ["-----Message d'origine-----", "De : gm", f"Envoyé : {SENT}", f"À : {ADA}",
                       "Objet : {subject}"],
    "dutch-outlook": ["-----Oorspronkelijk bericht-----", "Van: gm", f"Verzonden: {SENT}",
                      f"Aan: {ADA}", "Onderwerp: {subject}"],
}


def exchange(room: Mailroom, *raws: bytes) -> list[tuple[str, str, str, object]]:
    """``raws`` delivered, one pass of the daemon: (envelope to, subject, text, mail) of each mail out."""
    for raw in raws:
        room.deliver(raw)
    return [(to, msg["Subject"], text_of(msg), msg) for to, msg in room.run()]


def nb1(room: Mailroom) -> dict[str, str]:
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
    exchange(room)  # the welcomes
    return secrets


def press_from_bob(room: Mailroom, secrets) -> tuple[str, str, str]:
    """bob's press to ada, as gm delivered it: (subject, text, ada's reply address)."""
    mails = exchange(room, order_mail(BOB, "PRESS TO ada\n" + "\n".join(TRAP) + "\nENDPRESS",
                                      game_id="nb1", password=secrets["bob"]))
    ((subject, text, msg),) = [(s, t, m) for to, s, t, m in mails if to == ADA]
    assert "DRAW" in text.splitlines() and msg["Reply-To"]
    return subject, text, msg["Reply-To"]


def outlook_reply(to: str, subject: str, head: list[str], quoted: str, new: str) -> bytes:
    msg = email.message.EmailMessage(policy=email.policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = f"Ada <{ADA}>", to, f"RE: {subject}"
    lines = [new, ""] + [line.format(subject=subject) for line in head] + ["", quoted]
    msg.set_content("\n".join(lines), cte="8bit")
    return bytes(msg)


def nothing_done(room: Mailroom) -> None:
    """No draw proposed, no format changed, no press sent in ada's name."""
    assert [r["action"] for r in room.engine.store.history.history_of("nb1") if r["action"] == "draw"] == []
    assert room.engine.store.seats.player("nb1", "ada")["format"] is None


@pytest.mark.parametrize("layout", sorted(HEADERS))
def test_ada_answers_above_bobs_quoted_press_and_nothing_quoted_is_done(tmp_path, layout):
    """Attack: bob's press holds DRAW, SET FORMAT TEXT ALL and PRESS TO ALL ...; ada replies "Ok, sounds
    good." above it from Outlook (no ">"), to her reply address.  It was read as hers: a draw proposed
    in her name, her format changed in all her games, the press sent to ALL.  Now: the quote header
    ends the reading; nothing of it is done, nobody else gets a mail, and ada's one reply names the
    commands below the quote as not read."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    subject, text, reply_to = press_from_bob(room, secrets)
    mails = exchange(room, outlook_reply(reply_to, subject, HEADERS[layout], text, "Ok, sounds good."))
    nothing_done(room)
    assert [to for to, *_ in mails] == [ADA]  # no press to bob, no draw notice
    ((_, reply_subject, reply, _),) = mails
    flat = " ".join(reply.split())
    assert "(and 1 more)" in reply_subject and "Not read: these lines stand below the quoted part" in flat
    assert "DRAW SET FORMAT TEXT ALL PRESS TO ALL" in flat
    assert "I, ada, am a cheat" not in flat  # only the command lines are named


def test_ada_orders_above_a_quote_are_played_and_the_quote_is_not(tmp_path):
    """ada's order and her own command above the quoted press are read; nothing of the press is."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    subject, text, reply_to = press_from_bob(room, secrets)
    new = f"GAME nb1 PASSWORD {secrets['ada']}\nRb4xd4\nBOARD"
    mails = exchange(room, outlook_reply(GM_ADDRESS, subject, HEADERS["english-outlook-no-address"],
                                         text, new))
    assert room.outcomes()[-1] == "applied"
    nothing_done(room)
    assert sorted(to for to, *_ in mails) == [ADA, BOB]  # the reports of the move, nothing more
    (to_ada,) = [t for to, _, t, _ in mails if to == ADA]
    assert "Not read" in to_ada and "DRAW" in to_ada


def test_a_bottom_posted_order_below_the_quoted_report_is_read(tmp_path):
    """Thunderbird, bottom-posting: the report quoted with ">", ada's order below it."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    quoted = "\n".join("> " + line for line in ["GAME nb1 PASSWORD old", *TRAP])
    body = f"On 05/01/2026 10:00, gm wrote:\n{quoted}\n\nGAME nb1 PASSWORD {secrets['ada']}\nRb4xd4\n"
    exchange(room, order_mail(ADA, body))
    assert room.outcomes()[-1] == "applied"
    nothing_done(room)


def test_the_mails_gm_sends_start_with_its_marker_and_a_quote_below_it_is_not_read(tmp_path):
    """A client that quotes without ">" and without any header: gm's marker line ends the reading."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    subject, text, reply_to = press_from_bob(room, secrets)
    assert text.splitlines()[0] == MARKER
    mails = exchange(room, order_mail(ADA, f"Ok, sounds good.\n\n{text}", to=reply_to, subject=f"Re: {subject}"))
    nothing_done(room)
    assert [to for to, *_ in mails] == [ADA]


def test_an_order_below_a_signature_or_quote_header_is_named_as_not_read(tmp_path):
    """Reading stops at a signature or a quote header; an order the sender put below it is not
    judged (it may be someone else's), and the one reply names it as not read.  Below gm's own
    quoted mail nothing is named: that text is gm's, not the sender's."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    view = room.engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    order = view.rules.legal_orders(view.state, mover)[0]
    address = f"{mover}@example.org"
    seq = view.seq
    for layout in (["-- ", "Ada"], HEADERS["german-outlook"]):
        below = "\n".join(line.format(subject="[nb1 T1] report") for line in layout)
        mails = exchange(room, order_mail(address, f"Here is my move, see below.\n{below}\n{order}\n",
                                          game_id="nb1", password=secrets[mover]))
        assert room.engine.load("nb1").seq == seq  # nothing judged
        (reply,) = [text for to, _, text, _ in mails if to == address]
        assert "Not read: these lines stand below" in reply
        assert f"    {order}" in reply.splitlines()
    # the same order standing in gm's own mail, quoted below its marker: not named
    mails = exchange(room, order_mail(address, f"Thanks.\n{MARKER}\n{order}\n", game_id="nb1",
                                      password=secrets[mover]))
    (reply,) = [text for to, _, text, _ in mails if to == address]
    assert f"    {order}" not in reply.splitlines()


def rfc822_attached(html: str, attached_text: str) -> bytes:
    """An HTML-only mail with another mail attached (message/rfc822), its text holding commands."""
    inner = email.message.EmailMessage(policy=email.policy.SMTP)
    inner["From"], inner["To"], inner["Subject"] = BOB, ADA, "old mail"
    inner.set_content(attached_text)
    outer = email.message.EmailMessage(policy=email.policy.SMTP)
    outer["From"], outer["To"], outer["Subject"] = ADA, GM_ADDRESS, "orders"
    outer.set_content(html, subtype="html")
    outer.add_attachment(inner)
    return bytes(outer)


@pytest.mark.parametrize("disposition", ["attachment", "inline"])
def test_an_attached_message_is_never_read_as_orders(tmp_path, disposition):
    """Smaller gap: an HTML-only mail with an attached message/rfc822 had the attachment's text read
    as orders (the text part was preferred, wherever it was).  Now only the sender's own HTML is."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    raw = rfc822_attached(f"<p>GAME nb1 PASSWORD {secrets['ada']}</p><p>Rb4xd4</p>",
                          "DRAW\nSET FORMAT TEXT ALL\nPRESS TO ALL\nI, ada, am a cheat.\n")
    if disposition == "inline":  # an attached message shown inline is still not the sender's text
        raw = raw.replace(b"Content-Disposition: attachment", b"Content-Disposition: inline")
    mails = exchange(room, raw)
    assert room.outcomes()[-1] == "applied"
    nothing_done(room)
    assert sorted(to for to, *_ in mails) == [ADA, BOB]
