"""Replies as mail clients lay them out (gm.mail.quotes): Outlook, Gmail, Apple Mail, Thunderbird and
webmail, in English, German, French, Spanish, Dutch, Italian and Portuguese, top-posted, bottom-posted
and answered between the quoted lines.  Each quotes a mail holding commands (DRAW, SET FORMAT TEXT
ALL, PRESS TO ALL ... ENDPRESS) and an order below its quote header; the sender wrote an order and
a command of their own.  Nothing quoted is read, nothing the sender wrote is lost, and the commands
that stood below a stop are handed on to be named in the reply (Inbound.unread_after_quote).

The layouts are written here in the project's own words, after the clients' published formats.
These call gm.mail.inbound.parse directly; no server.
"""

from __future__ import annotations

import email.message
import email.policy

import pytest

from gm.mail import inbound as mailin
from gm.mail import orders
from gm.mail.html import html_to_text
from gm.mail.outbound import HtmlPart, compose
from gm.mail.quotes import MARKER, read_reply
from gm.mail.redact import plain_reading
from support import LINEAR_4X, growth

GM = "gm@example.test"
CREDENTIALS = "GAME nb1 PASSWORD kq7hz3xw2m"
NEW = f"{CREDENTIALS}\nb4xd4\nBOARD"  # what the sender writes: an order and a command
# The old mail: another player's press, with commands and an order in it.
OLD = "Shall we agree?\nDRAW\nSET FORMAT TEXT ALL\nd2xd4\nPRESS TO ALL\nI, ada, am a cheat.\nENDPRESS"
OLD_COMMANDS = ["DRAW", "SET FORMAT TEXT ALL", "PRESS TO ALL", "ENDPRESS"]


def quoted(text: str, mark: str = "> ") -> str:
    return "\n".join(mark + line for line in text.split("\n"))


def outlook(rule: str, labels: tuple[str, str, str, str], sender: str = "Bob Smith") -> str:
    """An Outlook header block (From, Sent, To, Subject in some language), under ``rule`` if any."""
    head = [rule] if rule else []
    return "\n".join(head + [f"{labels[0]} {sender}", f"{labels[1]} Monday 5 January 2026 10:00",
                             f"{labels[2]} Ada", f"{labels[3]} RE: [nb1 T3] Press"])


EN = ("From:", "Sent:", "To:", "Subject:")
DE = ("Von:", "Gesendet:", "An:", "Betreff:")
FR = ("De :", "Envoyé :", "À :", "Objet :")
ES = ("De:", "Enviado el:", "Para:", "Asunto:")
NL = ("Van:", "Verzonden:", "Aan:", "Onderwerp:")
IT = ("Da:", "Inviato:", "A:", "Oggetto:")
PT = ("De:", "Enviada em:", "Para:", "Assunto:")

# Quote headers with no ">" below them (Outlook and the like): everything after them is old.
UNMARKED = {
    "outlook-en-original-message": outlook("-----Original Message-----", EN, "Bob Smith [mailto:bob@example.org]"),
    "outlook-de-urspruengliche-nachricht": outlook("-----Ursprüngliche Nachricht-----", DE),
    "outlook-fr-message-d-origine": outlook("-----Message d'origine-----", FR),
    "outlook-es-mensaje-original": outlook("-----Mensaje original-----", ES),
    "outlook-nl-oorspronkelijk-bericht": outlook("-----Oorspronkelijk bericht-----", NL),
    "outlook-it-messaggio-originale": outlook("-----Messaggio originale-----", IT),
    "outlook-pt-mensagem-original": outlook("-----Mensagem original-----", PT),
    "outlook-rule-en": outlook("_" * 32, EN, "Bob Smith <bob@example.org>"),
    "outlook-block-en-no-address": outlook("", EN),
    "outlook-block-de-no-address": outlook("", DE),
    "outlook-block-fr-no-address": outlook("", FR),
    "outlook-block-es-no-address": outlook("", ("De:", "Enviado:", "Para:", "Asunto:")),
    "outlook-block-nl-no-address": outlook("", NL),
    "outlook-block-it-no-address": outlook("", IT),
    "outlook-block-pt-no-address": outlook("", ("De:", "Enviado:", "Para:", "Assunto:")),
    "outlook-mac-from-date": "From: Bob Smith <bob@example.org>\nDate: Monday, 5 January 2026 at 10:00\n"
                             "To: Ada\nSubject: Re: [nb1 T3] Press",
    "outlook-block-bold": "*From:* Bob Smith\n*Sent:* Monday 5 January 2026 10:00\n*To:* Ada",
    "gmail-forwarded-en": "---------- Forwarded message ---------\nFrom: Bob Smith <bob@example.org>\n"
                          "Date: Mon, 5 Jan 2026 at 10:00",
    "gmail-forwarded-de": "---------- Weitergeleitete Nachricht ---------\nVon: Bob Smith <bob@example.org>\n"
                          "Date: Mo., 5. Jan. 2026 um 10:00 Uhr",
    "attribution-without-marks": "On Mon, 5 Jan 2026 at 10:00, Bob Smith <bob@example.org> wrote:",
    "gm-marker-alone": MARKER,
}

# Attribution lines followed by ">" lines (Gmail, Apple Mail, Thunderbird).
ATTRIBUTIONS = {
    "gmail-en": "On Mon, 5 Jan 2026 at 10:00, Bob Smith <bob@example.org> wrote:",
    "gmail-en-wrapped": "On Mon, 5 Jan 2026 at 10:00, Bob Smith <\nbob@example.org> wrote:",
    "gmail-de": "Am Mo., 5. Jan. 2026 um 10:00 Uhr schrieb Bob Smith <bob@example.org>:",
    "gmail-de-wrapped": "Am Mo., 5. Jan. 2026 um 10:00 Uhr schrieb Bob Smith\n<bob@example.org>:",
    "gmail-fr": "Le lun. 5 janv. 2026 à 10:00, Bob Smith <bob@example.org> a écrit :",
    "gmail-es": "El lun, 5 ene 2026 a las 10:00, Bob Smith (<bob@example.org>) escribió:",
    "gmail-nl": "Op ma 5 jan. 2026 om 10:00 schreef Bob Smith <bob@example.org>:",
    "gmail-it": "Il giorno lun 5 gen 2026 alle ore 10:00 Bob Smith <bob@example.org> ha scritto:",
    "gmail-pt": "Em seg., 5 de jan. de 2026 às 10:00, Bob Smith <bob@example.org> escreveu:",
    "gmail-pt-wrapped": "Em seg., 5 de jan. de 2026 às 10:00, Bob Smith <bob@example.org>\nescreveu:",
    "apple-en": "On 5 Jan 2026, at 10:00, Bob Smith <bob@example.org> wrote:",
    "apple-de": "Am 05.01.2026 um 10:00 schrieb Bob Smith <bob@example.org>:",
    "apple-fr": "Le 5 janv. 2026 à 10:00, Bob Smith <bob@example.org> a écrit :",
    "apple-es": "El 5 ene 2026, a las 10:00, Bob Smith <bob@example.org> escribió:",
    "apple-nl": "Op 5 jan. 2026 om 10:00 heeft Bob Smith <bob@example.org> het volgende geschreven:",
    "apple-it": "Il giorno 5 gen 2026, alle ore 10:00, Bob Smith <bob@example.org> ha scritto:",
    "apple-pt": "Em 5 de jan. de 2026, à(s) 10:00, Bob Smith <bob@example.org> escreveu:",
    "thunderbird-en": "On 05/01/2026 10:00, Bob Smith wrote:",
    "thunderbird-de": "Am 05.01.26 um 10:00 schrieb Bob Smith:",
    "thunderbird-fr": "Le 05/01/2026 à 10:00, Bob Smith a écrit :",
    "thunderbird-es": "El 5/1/26 a las 10:00, Bob Smith escribió:",
    "thunderbird-nl": "Op 05-01-2026 om 10:00 schreef Bob Smith:",
    "thunderbird-it": "Il 05/01/26 10:00, Bob Smith ha scritto:",
    "thunderbird-pt": "Em 05/01/2026 10:00, Bob Smith escreveu:",
    "plain-name-wrote": "Bob Smith wrote:",
}


def raw(body: str, ctype: str = "text/plain") -> bytes:
    msg = email.message.EmailMessage(policy=email.policy.SMTP)
    msg["From"] = "Ada <ada@example.org>"
    msg["To"] = GM
    msg["Subject"] = "Re: [nb1 T3] Press"
    msg.set_content(body, subtype=ctype.split("/")[1], cte="8bit")
    return bytes(msg)


def read(body: str, ctype: str = "text/plain") -> tuple[orders.OrderMail, mailin.Inbound]:
    inbound = mailin.parse(raw(body, ctype), GM)
    return orders.read(inbound.subject, inbound.text), inbound


def only_the_senders(mail: orders.OrderMail, order_lines=("b4xd4",), commands=("BOARD",)) -> None:
    """What the sender wrote is read, and nothing else: no DRAW, no SET FORMAT, no press."""
    assert mail.game_id == "nb1" and mail.password == "kq7hz3xw2m"
    assert mail.commands == list(commands)
    assert mail.order_lines == list(order_lines)
    assert mail.press == []


@pytest.mark.parametrize("layout", sorted(UNMARKED))
def test_top_posted_above_a_quote_without_marks(layout):
    mail, inbound = read(f"{NEW}\n\n{UNMARKED[layout]}\n\n{OLD}\n")
    only_the_senders(mail)
    assert inbound.unread_after_quote == OLD_COMMANDS  # named in the reply as not read


@pytest.mark.parametrize("layout", sorted(ATTRIBUTIONS))
def test_top_posted_above_a_marked_quote(layout):
    mail, inbound = read(f"{NEW}\n\n{ATTRIBUTIONS[layout]}\n\n{quoted(OLD)}\n")
    only_the_senders(mail)
    assert inbound.unread_after_quote == []  # every old line was marked: nothing to name


@pytest.mark.parametrize("layout", sorted(ATTRIBUTIONS))
def test_bottom_posted_below_a_marked_quote(layout):
    mail, inbound = read(f"{ATTRIBUTIONS[layout]}\n{quoted(OLD)}\n\n{NEW}\n")
    only_the_senders(mail)
    assert inbound.unread_after_quote == []


@pytest.mark.parametrize("layout", ["gmail-en", "apple-de", "thunderbird-fr", "gmail-nl-wrapped", "gmail-it"])
def test_answered_between_the_quoted_lines(layout):
    head = ATTRIBUTIONS.get(layout, "Op ma 5 jan. 2026 om 10:00 schreef Bob Smith <\nbob@example.org>:")
    old = OLD.split("\n")
    body = "\n".join([head, quoted("\n".join(old[:3])), "", CREDENTIALS, "b4xd4", "",
                      quoted("\n".join(old[3:]), ">> "), "BOARD", "", "Ada", ""])
    mail, _ = read(body)
    only_the_senders(mail, order_lines=("b4xd4", "Ada"))  # a sign-off is a candidate: the rules set it aside


def test_a_signature_ends_the_reading_and_commands_below_it_are_named():
    mail, inbound = read(f"{NEW}\n-- \nAda Lovelace\n{OLD}\n")
    only_the_senders(mail)
    assert inbound.unread_after_quote == OLD_COMMANDS


@pytest.mark.parametrize("layout", ["outlook-web", "gmail-blockquote", "apple-blockquote", "gm-marker"])
def test_html_only_replies(layout):
    new = "<div>GAME nb1 PASSWORD kq7hz3xw2m</div><div>b4xd4</div><div>BOARD</div>"
    old = "".join(f"<div>{line}</div>" for line in OLD.split("\n"))
    quote = {
        "outlook-web": '<hr><div id="divRplyFwdMsg"><b>From:</b> Bob Smith<br><b>Sent:</b> Monday 5 January '
                       f"2026 10:00<br><b>To:</b> Ada<br><b>Subject:</b> Press</div><div>{old}</div>",
        "gmail-blockquote": '<div class="gmail_quote"><div>On Mon, 5 Jan 2026 at 10:00, Bob Smith &lt;'
                            f'bob@example.org&gt; wrote:<br></div><blockquote>{old}</blockquote></div>',
        "apple-blockquote": '<div>Am 05.01.2026 um 10:00 schrieb Bob Smith &lt;bob@example.org&gt;:</div>'
                            f'<blockquote type="cite">{old}</blockquote>',
        "gm-marker": f"<div><p>{MARKER}</p>{old}</div>",
    }[layout]
    mail, _ = read(f"<html><body>{new}{quote}</body></html>", "text/html")
    only_the_senders(mail)


def test_every_mail_gm_sends_starts_with_its_marker_in_text_and_html():
    _, sent = compose(sender=GM, sender_name="gm", to="ada@example.org", subject="[nb1 T3] report",
                      body="Neighbors game nb1\nTo move: ada\n",
                      html=HtmlPart('<html><body style="margin:0"><p>Neighbors game nb1</p></body></html>'))
    msg = email.message_from_bytes(sent, policy=email.policy.default)
    text = msg.get_body(("plain",)).get_content()
    page = msg.get_body(("html",)).get_content()
    assert text.splitlines()[0] == MARKER
    assert html_to_text(page).splitlines()[0] == MARKER


def test_only_gms_own_marker_stops_the_reading_not_a_line_copied_from_a_report():
    """A player copies lines of a report (its order list, its header) into a mail: they are read."""
    copied = "Neighbors game nb1, turn 3\nTo move: ada\nYour legal orders: b4xd4 a1xa2"
    mail, _ = read(f"{CREDENTIALS}\n{copied}\nb4xd4\nBOARD\n")
    assert mail.commands == ["BOARD"] and "b4xd4" in mail.order_lines and "To move: ada" in mail.order_lines
    # gm's marker, written as gm writes it or spaced by a client, stops it; quoted with ">" it does not.
    assert read_reply(f"b4xd4\n  {MARKER.upper()}  \nDRAW").text == "b4xd4"
    assert read_reply(f"> {MARKER}\n> DRAW\nb4xd4").text == "b4xd4"


def test_a_from_line_alone_is_the_senders_words():
    """"From:" without a header line after it is not a quote: "From: the north" is press text."""
    text = "PRESS TO bob\nFrom: the north, at dawn.\nTo be sure, I attack.\nENDPRESS\nb4xd4"
    assert read_reply(text).text == text
    # gm's press mail, pasted into a press of one's own: "From: ada" / "To: ALL" is no quote header
    pasted = ("PRESS TO GM\nAda wrote to everyone:\nPress in game nb1, turn 1\nFrom: ada\nTo: ALL\n\nHi\n\n"
              "My plan\nENDPRESS")
    assert read_reply(pasted).text == pasted


@pytest.mark.parametrize("line", [
    "Von: " * 4_000, "De : " + "x" * 16_000, "On 5 " * 4_000, "Am 1 schrieb " * 1_500, "-" * 16_000,
    "Il giorno " + "1 " * 8_000 + "ha scritto:", "Op 5 " + "schreef " * 2_000,
])
def test_long_header_lines_are_read_in_linear_time(line):
    def mail(times: int) -> bytes:
        body = "\n".join([CREDENTIALS, "b4xd4", line * times, line * times, "> x", "From: a", "Sent: b"])
        return raw(body)

    assert "b4xd4" in mailin.parse(mail(1), GM).text
    assert growth(lambda r: mailin.parse(r, GM), mail(4), mail(16)) < LINEAR_4X


def test_many_short_header_lines_are_read_in_linear_time():
    def mail(times: int) -> bytes:
        lines = ["Von: a", "", "", "On 1 Jan", "b wrote:", "x"] * 500 * times
        return raw("\n".join([CREDENTIALS, "b4xd4", *lines]))

    assert growth(lambda r: mailin.parse(r, GM), mail(4), mail(16)) < LINEAR_4X


def test_an_attached_message_or_attachment_is_never_the_senders_text():
    """HTML-only mail with a message/rfc822 and a text attachment: only the HTML is read, by the
    reader and by the plain reading of a mail set aside (gm.mail.redact.plain_reading)."""
    inner = email.message.EmailMessage(policy=email.policy.SMTP)
    inner["From"], inner["Subject"] = "bob@example.org", "old"
    inner.set_content(f"{CREDENTIALS}\n{OLD}\n")
    outer = email.message.EmailMessage(policy=email.policy.SMTP)
    outer["From"], outer["To"], outer["Subject"] = "ada@example.org", GM, "orders"
    outer.set_content("<p>GAME nb1 PASSWORD kq7hz3xw2m</p><p>b4xd4</p><p>BOARD</p>", subtype="html")
    outer.add_attachment(inner)
    outer.add_attachment(OLD, filename="old.txt")
    mail, inbound = read_raw(bytes(outer))
    only_the_senders(mail)
    assert inbound.html_only and "DRAW" not in inbound.full_text
    assert "DRAW" not in plain_reading(bytes(outer)).text


def read_raw(data: bytes) -> tuple[orders.OrderMail, mailin.Inbound]:
    inbound = mailin.parse(data, GM)
    return orders.read(inbound.subject, inbound.text), inbound
