"""Queueing mail: compose it, store it in the outbox table, archive what a player was sent.

Everything here runs inside the caller's write transaction: a report is queued with the state
it reports, or not at all.  A mail being judged has its own MailOutbox: its answers leave as one
reply to its sender (the report of its move first), and what it makes gm send is bounded
(MAILS_PER_ADDRESS).  A turn's mails come as one batch of Letters (queue_batch);
gm.service.outgoing.strangers limits what is sent to senders without a password.
"""

from __future__ import annotations

import logging
from gm.core.value import changed
from importlib import import_module  # the DKIM module, only where a selector is configured
from typing import TYPE_CHECKING, Any, Callable

from gm.core import digest
from gm.core.addresses import mailbox_key
from gm.core.i18n import ENGLISH, LANGUAGES, translate
from gm.core.version import gm_version
from gm.core.model import GameView, Status
from gm.present import reports
from gm.mail.orders import game_tag, words_language
from gm.service.outgoing import strangers, threads
from gm.service.outgoing.holding import queue_status, queue_statuses
from gm.service.outgoing.letters import (PART_RULE as PART_RULE, Letter, PendingReply as PendingReply,
                                         ReplyPart as ReplyPart, calendars_of, files_of, joined as joined,
                                         reply_head)
from gm.service.outgoing.replies import ReplyTokens
from gm.service.outgoing.strangers import HOUR as HOUR, LIMITED_KINDS, STRANGER_BYTES as STRANGER_BYTES
from gm.store import Store

if TYPE_CHECKING:
    from gm.core.config import Config
    from gm.present.mailhtml import ReportPage
    from gm.mail.outbound import HtmlPart
    from gm.mail.inbound import Inbound

log = logging.getLogger(__name__)

MAILS_PER_ADDRESS = 3
"""The most mails one inbound mail makes gm queue to any one mailbox (gm.core.addresses.mailbox_key:
victim+1@ and VICTIM@ are victim@), beyond the game's normal reports (REPORT_KINDS: one per reader
per move).  Replies, press, notices, codes and alerts count together, whatever the mail holds; the
sender's one reply always has its place among them.  While a mail is handled (its MailOutbox)
Outbox.queue refuses, and logs, a mail past it, so the bound holds whichever code queues; the
commands check room_for() first to say so instead."""
REPORT_KINDS = ("report", "welcome")  # the game's normal reports: not counted by MAILS_PER_ADDRESS
# What the store keeps of a text that carried a password or a code, once it is sent (outbox.secret;
# the archive of a secret part keeps only this).
SECRET_NOTE = ("[This mail carried a password, a code or a reply address; gm keeps no copy of its "
               "text once it is sent.]\n")


def page_part(page: ReportPage | None, images: tuple, footer: str) -> HtmlPart | None:
    """The HTML part of a report's page with its reader's footer (None: no page)."""
    from gm.mail.outbound import HtmlPart  # the mail stack and the page, when a mail is written
    from gm.present import mailhtml

    return None if page is None else HtmlPart(mailhtml.render(changed(page, footer=footer)), images)


class Outbox:
    """The service's outbox: it queues mail, in each reader's language, and answers mail (for_mail: one reply)."""

    answers: PendingReply | None = None  # the answers being gathered: only a MailOutbox has them
    draw_later = False  # pictures drawn by the sender (gm.service.outgoing.later): set by gm ingest
    chosen: str | None = None  # the answers' language, where the case set it (language)

    def __init__(self, store: Store, config: Config, clock: Callable[[], float]):
        self.store = store
        self.config = config
        self.clock = clock
        # Read the DKIM key now, at start: a bad key file is a ConfigError here, not at a message.
        self.signer = import_module("gm.mail.dkim").Signer.from_config(config) if config.dkim_selector else None
        self.tokens = ReplyTokens(config, store)

    # --- languages -------------------------------------------------------------
    @property
    def language(self) -> str:
        """The answers' language as known without their game; the case may set it (SET LANGUAGE)."""
        return self.answer_language(None)

    @language.setter
    def language(self, code: str | None) -> None:
        self.chosen = code

    def answer_language(self, view: GameView | str | None) -> str:
        """The language of the answers to the mail being handled, about ``view`` (a game, its id)."""
        if self.chosen or self.answers is None:
            return self.chosen or ENGLISH
        return self.reader_language(view, self.answers.inbound.reply_address)

    def reader_language(self, view: GameView | str | None, to: str) -> str:
        """The language of a mail to ``to``: its seat's in ``view`` (a game, its id), else its address's
        (SET LANGUAGE ALL), else, from the sender being answered, its command words' (HILFE); English."""
        said = self.store.seats.language_of(view if view is None or isinstance(view, str) else view.id, to)
        return said if said in LANGUAGES else self.words_language(to) or ENGLISH

    def words_language(self, to: str) -> str | None:
        """The language of the command words of the mail being handled (HILFE), if ``to`` sent it."""
        pending = self.answers
        if pending is not None and to.lower() == pending.inbound.reply_address.lower():
            pending.words = pending.words or (words_language(pending.inbound.text, pending.inbound.subject),)
            return pending.words[0]
        return None

    # --- bodies -------------------------------------------------------------
    def render(self, template: str, language: str | None = None, **context: Any) -> str:
        """A mail template, our address filled in, in ``language`` (None: answer_language of its game)."""
        context.setdefault("address", self.config.address)
        language = language or self.answer_language(context.get("game_id"))
        return reports.render_text(template, language=language, **context)

    def notice_body(self, view: GameView, lines: list[str], language: str | None = None) -> str:
        return self.render("notice", language=language, game_id=view.id, turn=view.turn, lines=lines)

    def error_body(self, view: GameView | None, message: str, language: str | None = None) -> str:
        return self.render("error", language=language, message=message, game_id=view.id if view else None)

    # --- queueing -------------------------------------------------------------
    def queue(self, to: str, subject: str, body: str, *, kind: str, answer: bool = False,
              **fields: Any) -> int | None:
        """Compose one message and queue it (``fields``: as _put takes them); returns its id, or
        None past the bound on the mails of the mail being handled (MAILS_PER_ADDRESS).
        ``answer``: it is the one answer to the mail being handled."""
        if not self._count(to, kind, answer):
            return None
        status = queue_status(self.store, to, self.clock(), self.config.gm_address)
        return self._put(to, subject, body, kind=kind, status=status, **fields)

    def _put(self, to: str, subject: str, body: str, *, kind: str, status: str,
             game_id: str | None = None, turn: int | None = None, in_reply_to: str | None = None,
             references=(), auto: str = "auto-generated", not_before: float | None = None,
             headers: tuple[tuple[str, str], ...] = (), html: HtmlPart | None = None,
             secret: bool = False, calendar: tuple[bytes, ...] = (), files: tuple = (),
             language: str = ENGLISH) -> int:
        """Compose one counted message and store it in the outbox as ``status`` (sent from
        ``not_before``, if given).  With ``html`` it is multipart/alternative: ``body`` as text,
        then the HTML page.  ``secret``: it carries a password or a code, so its stored copy
        must not outlive its sending (outbox.secret).  ``files``: attached; ``language``: its
        Content-Language.  With DKIM configured the stored bytes are
        signed, so every retry sends the same signature.  A mail about a game goes in its
        reader's thread of it (gm.service.outgoing.threads)."""
        message_id, raw = threads.compose(
            self.store, self.config, to=to, subject=subject, body=body, now=self.clock(), auto=auto,
            game_id=game_id, in_reply_to=in_reply_to, references=references, headers=headers, html=html,
            reserve=0 if self.signer is None else self.signer.reserve, calendars=calendar, turn=turn,
            attachments=files, signer=None if self.signer is None else self.signer.named, language=language)
        raw = raw if self.signer is None else self.signer.sign(raw)  # unless its sender finishes it
        return self.store.outbox.queue_outbox(message_id, to, subject, raw, kind=kind, now=self.clock(),
                                              game_id=game_id, turn=turn, not_before=not_before,
                                              status=status, secret=secret)

    def _count(self, to: str, kind: str, answer: bool) -> bool:
        """Count a mail to ``to`` against the bound of the mail being handled; False (logged):
        past it."""
        pending = self.answers
        if pending is None or kind in REPORT_KINDS:
            return True
        key = mailbox_key(to)
        if (not answer and not self.room_for(to)) or (
                answer and pending.queued.get(key, 0) >= MAILS_PER_ADDRESS):
            log.warning("not queued to %s (%s): the mail being handled has caused %d mails there",
                        to, kind, MAILS_PER_ADDRESS)
            return False
        pending.queued[key] = pending.queued.get(key, 0) + 1
        return True

    def room_for(self, to: str) -> bool:
        """Another mail to ``to`` (not the answer) fits the bound of the mail being handled: its
        sender's address keeps a place for the answer."""
        pending = self.answers
        if pending is None:
            return True
        key = mailbox_key(to)
        kept = int(key == mailbox_key(pending.inbound.reply_address))
        return pending.queued.get(key, 0) + kept < MAILS_PER_ADDRESS

    def to_game(self, view: GameView, to: str, label: str, body: str, *, kind: str = "notice",
                headers: tuple[tuple[str, str], ...] = (), language: str | None = None,
                **threading: Any) -> int | None:
        """Queue a message about a game, its subject tagged ``[gm id]`` (orders.game_tag) so a
        reply names the game; to a seat, with the seat's reply address (gm.service.outgoing.replies);
        its subject and footer in ``language`` (None: its reader's, reader_language)."""
        language = language or self.reader_language(view, to)
        reply = self.reply_headers(view.id, to)
        return self.queue(to, f"{game_tag(view.id)} {translate(label, language)}",
                          reports.with_footer(body, self.footer(view, to, bool(reply), language)), kind=kind,
                          game_id=view.id, turn=view.turn, headers=tuple(headers) + reply, language=language,
                          **threading)

    def footers(self, view: GameView, readers: dict[str, str],
                languages: dict[str, str] | None = None) -> dict[str, str]:
        """The footer (see footer) of a mail about ``view`` to each reader (name: address), in each
        one's language (``languages`` by name; English for one not in it)."""
        tokens = self.tokens.reply_to_all(view.id, list(readers.values()))
        return {name: self.footer(view, to, bool(tokens[to]), (languages or {}).get(name, ENGLISH))
                for name, to in readers.items()}

    def queue_batch(self, view: GameView, letters: list[Letter]) -> None:
        """Queue a batch of mails about ``view`` in order (a turn's reports): each reader's reply
        address and footer found in one pass, the sender's report the lead of its one reply
        (lead), the others queued and archived, counted as queue() counts them."""
        tokens = self.tokens.reply_to_all(view.id, [letter.to for letter in letters])
        languages = {letter.to: letter.language for letter in letters}
        footers = {to: self.footer(view, to, bool(token), languages[to]) for to, token in tokens.items()}
        mails = []
        for letter in letters:
            if not (letter.lead and self._leads(view, letter, footers[letter.to])):
                mails.append(letter)
        counted = [x for x in mails if self._count(x.to, x.kind, False)]
        statuses = queue_statuses(self.store, [x.to for x in counted], self.clock(),
                                  self.config.gm_address)
        for letter, status in zip(counted, statuses):
            footer, body = footers[letter.to], reports.with_footer(letter.body, footers[letter.to])
            threading = {} if letter.answers is None else {
                "in_reply_to": letter.answers.message_id, "references": letter.answers.references}
            reply = (("Reply-To", tokens[letter.to]),) if tokens[letter.to] else ()
            notes = tuple(translate(note, letter.language) for note in letter.notes)
            oid = self._put(letter.to, f"{game_tag(view.id)} {translate(letter.label, letter.language)}",
                            reports.with_footer("\n".join(notes + (body,)), footer),
                            kind=letter.kind, status=status, game_id=view.id, turn=view.turn,
                            not_before=letter.not_before, headers=letter.headers + reply,
                            html=page_part(letter.page, letter.images, footer), calendar=letter.calendar,
                            files=letter.files, language=letter.language, **threading)
            if letter.archived:
                for note in notes:
                    self.archive(view, letter.player, "notice", note, oid)
                self.archive(view, letter.player, letter.kind, body, oid)

    def _leads(self, view: GameView, letter: Letter, footer: str) -> bool:
        """Put ``letter`` first in the reply to the mail it answers, if one is gathered; else False."""
        if not self.replying_to(letter.answers):
            return False
        self.reply_report(letter.answers, view, letter, page_part(letter.reply_page, letter.images, footer))
        for title, text in letter.reply_notes:
            self.reply(letter.answers, view, title, translate(text, letter.language), kind="notice",
                       archive_player=letter.player)
        return True

    def footer(self, view: GameView, to: str, replies: bool, language: str = ENGLISH) -> str:
        """The footer of a mail about ``view`` to ``to`` in ``language``: how to send orders, for the
        address of a seat still in a game that is running (``replies``: the mail carries the seat's
        reply address); none for a game that is over or paused, a seat that left, an observer, the GM."""
        row = self.store.games.game(view.id)
        if row is None or row.status != Status.ACTIVE.value or view.rules.is_over(view.state):
            return ""
        if not any(p.active for p in self.store.seats.players_at(view.id, to)):
            return ""
        return reports.footer(view.id, reports.REPLY if replies else reports.PASSWORD, language)

    def reply_headers(self, game_id: str, to: str) -> tuple[tuple[str, str], ...]:
        """Reply-To the seat's own reply address, when ``to`` holds a seat of the game."""
        reply = self.tokens.reply_to(game_id, to)
        return (("Reply-To", reply),) if reply else ()

    def archive(self, view: GameView, player: str | None, kind: str, body: str,
                outbox_id: int | None, audience: str | None = None) -> None:
        """Keep what a player was sent (``player`` None: the archive's own copy); ``audience``:
        who a press message went to (gm.service.play.press).  A report keeps the version that
        rendered it and the digest of what it shows (RULINGS G1: gm verify checks it)."""
        shown = digest.dumps(digest.report_digest(view.rules, view.state)) if kind == "report" else None
        self.store.reports.archive_report(view.id, view.turn, view.seq, player, kind, body, outbox_id,
                              self.clock(), audience=audience, gm_version=gm_version(), digest=shown)

    # --- replies to a mail ------------------------------------------------------
    def for_mail(self, inbound: Inbound) -> MailOutbox:
        """This outbox as the mail ``inbound`` sees it while it is judged: its answers gathered
        into one reply (MailOutbox.send_answers), the mails it causes bounded."""
        return MailOutbox(self, inbound)

    def reply(self, inbound: Inbound, view: GameView | None, label: str, body: str,
              kind: str, archive_player: str | None = None, html: HtmlPart | None = None,
              secret: bool = False, calendar: tuple[bytes, ...] = (), files: tuple = ()) -> None:
        """Answer a mail (gathered into one reply by the mail's own MailOutbox).  ``html``: the
        part's HTML alternative, used when the reply has no other part.  ``secret``: the part
        carries a password or a code (the whole reply is then stored as secret); ``files``: attached."""
        part = ReplyPart(view, label, body, kind, archive_player, html, secret, calendar=calendar, files=files)
        if self.replying_to(inbound):
            self.answers.parts.append(part)
            return
        self._send_reply(inbound, [part])

    def reply_rendered(self, inbound: Inbound, view: GameView | None, label: str, template: str,
                       kind: str, archive_player: str | None = None, **context: Any) -> None:
        """reply() with a body rendered here from ``template`` and ``context`` (render), in the
        answers' language."""
        body = self.render(template, language=self.answer_language(view), **context)
        self.reply(inbound, view, label, body, kind, archive_player)

    def replying_to(self, inbound: Inbound | None) -> bool:
        """Answers to ``inbound`` are being gathered (for_mail) and not yet sent."""
        return inbound is not None and self.answers is not None and self.answers.inbound is inbound

    def reply_report(self, inbound: Inbound, view: GameView, letter: Letter, html: HtmlPart | None) -> None:
        """The report ``letter.player`` gets of the move their mail made (with its calendar and files),
        as the lead of its one reply (replying_to must hold); archived as their report when sent."""
        assert self.replying_to(inbound)
        self.answers.parts.insert(0, ReplyPart(view, letter.label, letter.body, "report", letter.player, html,
                                               False, True, letter.calendar, letter.files))

    def authenticated(self, inbound: Inbound) -> None:
        """The sender of ``inbound`` gave a seat's password or reply address: its answer is not
        cut at STRANGER_BYTES."""
        if self.replying_to(inbound):
            self.answers.authenticated = True

    def once(self, inbound: Inbound, what: str) -> bool:
        """True the first time ``what`` is asked for while ``inbound`` is handled (a command that
        one mail may do once, e.g. SET ADDRESS); always True outside a mail's own outbox."""
        if not self.replying_to(inbound):
            return True
        first = what not in self.answers.done
        self.answers.done.add(what)
        return first

    def for_stranger(self, inbound: Inbound | None) -> bool:
        """The answer to ``inbound`` goes to a sender who has not authenticated."""
        return not (self.replying_to(inbound) and self.answers.authenticated)

    def _send_reply(self, inbound: Inbound, parts: list[ReplyPart]) -> int | None:
        to = inbound.reply_address
        if not to:
            log.info("no reply: the mail has no usable From address")
            return None
        limited = all(p.kind in LIMITED_KINDS for p in parts)
        view = next((p.view for p in parts if p.view is not None), None)
        headers = self.reply_headers(view.id, to) if view else ()
        language = self.answer_language(view)
        if view is not None:  # one footer, under the last answer (and in its archived copy)
            last = parts[-1]
            parts = parts[:-1] + [changed(last, body=reports.with_footer(
                last.body, self.footer(view, to, bool(headers), language)))]
        body = joined(parts)
        notice = strangers.limit_notice(self, to) if limited else ""
        if notice is None:
            return None
        room = STRANGER_BYTES - 2 * len(notice.encode("utf-8"))  # its wrapping, with room to spare
        cut = self.for_stranger(inbound) and len(body.encode("utf-8")) > room
        if cut:
            body = strangers.cut(self.config, body, room)
        if notice:
            body = strangers.with_notice(body, notice)
        subject, html, kind = reply_head(parts, view, inbound.subject, language, limited)
        oid = self.queue(to, subject[:200], body, kind=kind,
                         game_id=view.id if view else None, turn=view.turn if view else None,
                         in_reply_to=inbound.message_id, references=inbound.references,
                         auto="auto-replied", headers=headers, html=None if cut else html,
                         secret=any(p.secret for p in parts), answer=True, calendar=calendars_of(parts),
                         files=files_of(parts), language=language)
        self.archive_parts(parts, oid)
        return oid

    def cut_for_stranger(self, body: str, most: int = STRANGER_BYTES) -> str:
        """``body`` within ``most`` bytes (strangers.cut)."""
        return strangers.cut(self.config, body, most)

    def alert_gm(self, subject: str, lines: list[str]) -> bool:
        """Tell the game master a cap on strangers is reached (strangers.alert_gm)."""
        return strangers.alert_gm(self, subject, lines)

    def archive_parts(self, parts: list[ReplyPart], outbox_id: int | None) -> None:
        """Keep what each answer about a game said, as part of the mail ``outbox_id``."""
        for part in parts:
            if part.view is not None:
                self.archive(part.view, part.archive_player,
                             part.kind if part.kind not in LIMITED_KINDS else "reply",
                             SECRET_NOTE if part.secret else part.body, outbox_id)

    def take_reply(self, inbound: Inbound) -> list[ReplyPart]:
        """The answers gathered for ``inbound`` so far, taken out of its reply: another mail to the
        same sender carries them (one mail per mail received)."""
        if not self.replying_to(inbound):
            return []
        parts, self.answers.parts = self.answers.parts, []
        return parts


class MailOutbox(Outbox):
    """The outbox as one mail sees it while it is judged: the service's store, config, clock, DKIM
    signer and reply tokens, with the mail's answers (gathered into one reply) and the count of
    what it queued (MAILS_PER_ADDRESS).  Made for the mail and dropped with it."""

    def __init__(self, service: Outbox, inbound: Inbound):
        self.store, self.config, self.clock = service.store, service.config, service.clock
        self.signer, self.tokens = service.signer, service.tokens
        self.draw_later = service.draw_later
        self.answers = PendingReply(inbound)

    def send_answers(self) -> int | None:
        """Send the gathered answers as one message; returns its outbox id (None: nothing sent).
        After it this outbox answers at once, as the service's does."""
        pending = self.answers
        try:
            if pending is None or not pending.parts:
                return None
            return self._send_reply(pending.inbound, pending.parts)  # counted in its bound
        finally:
            self.answers = None
