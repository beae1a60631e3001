"""Press: players writing to each other, or to the game master, through gm.

    PRESS TO <names|ALL|GM>      (names split by commas and/or spaces)
    any text
    ENDPRESS

The game's ``press`` setting: ``none`` (refused), ``white`` (sender named) or
``grey`` (sender hidden).  Each copy is archived with the turn and keeps its
audience as data (ALL, PLAYERS or GM_ONLY): public views read that field, never
the text.  A reader gets at most one press mail per mail sent (blocks to the
same players merged, at most MAX_LISTS lists), within config
``press_per_seat_per_hour``; press to GM counts as the game master's alerts.
"""

from __future__ import annotations

import secrets
from games.text import Text
from gm.core.i18n import ENGLISH
from gm.core.value import field, valueclass
from typing import Sequence

from gm.core.model import AUDIENCE_ALL, AUDIENCE_GM, AUDIENCE_PLAYERS, GameView, Seat
from gm.mail.inbound import Inbound
from gm.service.outgoing import gmalerts, observers
from gm.service.outgoing.outbox import HOUR, MAILS_PER_ADDRESS, PART_RULE
from gm.service.outgoing.reportmail import language_of
from gm.service.people import credentials
from gm.service.table import deadlines
from gm.service.context import Context

MAX_PRESS = 20_000  # characters of one message (the blocks of a mail to the same players, together)
MAX_LISTS = 3  # different lists of recipients one mail sends press to; further blocks are refused
GM = "GM"
ALL, PLAYERS, GM_ONLY = AUDIENCE_ALL, AUDIENCE_PLAYERS, AUDIENCE_GM  # reports.audience
# Grey press leaves after a random delay, never in the batch of mail that the sender's own
# orders cause (a bid's news names its author, and the timing would name the press's).
GREY_DELAY = (10 * 60, 40 * 60)  # seconds


@valueclass
class Message:
    """The blocks of one mail to one list of recipients, sent as one press message."""

    recipients: list[Seat]
    labels: list[str]  # as the message's "To:" shows them (names or ALL, then GM)
    to_gm: bool
    audience: str
    texts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n\n".join(self.texts)


def send_all(ctx: Context, view: GameView, player: Seat, blocks: Sequence[tuple[Sequence[str] | str, str]],
             inbound: Inbound) -> None:
    """Every PRESS block of one mail (in the ingest transaction), with one answer to the sender.

    Blocks to the same recipients are one message (up to MAX_PRESS characters), at most
    MAX_LISTS lists a mail, within config ``press_per_seat_per_hour``; each recipient gets one
    press mail, and what was merged or refused is said in the sender's one reply."""
    if not blocks:
        return
    mode = deadlines.settings(ctx.store, view.id)["press"]
    sender = player.name
    messages: dict[tuple[str, ...], Message] = {}
    told: list[str] = []  # refusals, each said once
    merged = 0
    allowed = ctx.config.press_per_seat_per_hour - ctx.store.history.actions_since(
        view.id, sender, "press", ctx.clock() - HOUR)
    for targets, text in blocks:
        names = [targets] if isinstance(targets, str) else list(targets)
        problem = _problem(ctx, view, sender, names, text, mode)
        message = None if problem else _message(view, sender, names)
        key = tuple(sorted(message.labels)) if message else ()  # PRESS TO bob, cy is PRESS TO cy, bob
        if message is not None and key in messages:
            message = messages[key]
            if len(message.text) + len(text) > MAX_PRESS:
                problem = Text("Your press to {to} came to more than {most} characters in this mail; "
                               "what came after that was not delivered.", to=_told(message), most=MAX_PRESS)
            else:
                merged += 1
        elif message is not None and len(messages) >= MAX_LISTS:
            problem = Text("One mail sends press to at most {most} different lists of players; the blocks "
                           "to further lists were not delivered. Send them in another mail.", most=MAX_LISTS)
        elif message is not None and len(messages) >= allowed:
            problem = Text("A player sends at most {most} press messages an hour; this one was not "
                           "delivered. Send it again later.", most=ctx.config.press_per_seat_per_hour)
        elif message is not None:
            messages[key] = message
        if problem:
            if problem not in told:
                told.append(problem)
            continue
        message.texts.append(text)
    delivered = _deliver(ctx, view, sender, list(messages.values()), mode, told)
    lines: list[str] = [Text("Your press to {to} was delivered without your name (grey press).", to=_told(m))
                        if mode == "grey" else Text("Your press to {to} was delivered.", to=_told(m))
                        for m in delivered]
    if merged:
        lines.append(Text("Blocks to the same players went as one message ({merged} merged), one mail "
                          "to each of them.", merged=merged))
    if delivered:
        ctx.outbox.reply(inbound, view, Text("Press delivered"), ctx.outbox.notice_body(view, lines + told),
                         kind="reply", archive_player=sender)
        credentials.notify_press_elsewhere(ctx, view, player, inbound, [m.text for m in delivered])
    else:
        ctx.outbox.reply(inbound, view, Text("Press not delivered"), ctx.outbox.error_body(view, together(told)),
                         kind="error")


def _message(view: GameView, sender: str, names: list[str]) -> Message:
    """The recipients of a PRESS TO line (checked by _problem)."""
    to_gm = any(_is_gm(n) for n in names)
    if any(n.upper() == "ALL" for n in names):
        recipients, labels = [p for p in view.seated if p.name != sender], ["ALL"]
    else:
        recipients = []
        for found in (view.player(n) for n in names if not _is_gm(n)):
            assert found is not None  # _problem refused a name of no seat
            if all(found.name != p.name for p in recipients):
                recipients.append(found)
        labels = [p.name for p in recipients]
    audience = ALL if labels == ["ALL"] else PLAYERS if recipients else GM_ONLY
    return Message(recipients, labels + [GM] if to_gm else labels, to_gm, audience)


def _told(message: Message) -> str:
    """Whom a message went to, as the sender's answer says it."""
    names = ", ".join(label for label in message.labels if label != GM)
    if not message.to_gm:
        return names
    return Text("{names}, the game master", names=names) if names else Text("the game master")


def together(sentences: list[str]) -> str:
    """Sentences one after another, as one answer (each said in the reader's language)."""
    said = sentences[0]
    for sentence in sentences[1:]:
        said = Text("{said} {sentence}", said=said, sentence=sentence)
    return said


def _deliver(ctx: Context, view: GameView, sender: str, messages: list[Message], mode: str | None,
             told: list[str]) -> list[Message]:
    """One mail to each recipient with every message meant for them; archived and logged per
    message.  Returns the messages delivered (a full mailbox or GM cap is added to ``told``)."""
    if not messages:
        return []
    shown = Text("anonymous (grey press)") if mode == "grey" else sender
    label = Text("Press from {sender}", sender=shown)
    later = None
    if mode == "grey":
        later = ctx.clock() + secrets.SystemRandom().uniform(*GREY_DELAY)
    said: dict[tuple[int, str], str] = {}

    def body(message: Message, language: str = ENGLISH) -> str:  # each reader's in their language
        key = (id(message), language)
        if key not in said:
            said[key] = ctx.outbox.render("press", language=language, game_id=view.id, turn=view.turn,
                                          sender=shown, to=", ".join(message.labels), text=message.text)
        return said[key]

    readers: dict[str, list[Message]] = {}
    for message in messages:
        for p in message.recipients:
            readers.setdefault(p.name, []).append(message)
    for name, theirs in readers.items():
        seat = view.player(name)
        assert seat is not None  # a recipient of _message: a seat of the game
        email = seat.email
        if not ctx.outbox.room_for(email):
            told.append(Text("{name} was not sent your press: this mail made gm write to them as often "
                             "as one mail may ({most} mails).", name=name, most=MAILS_PER_ADDRESS))
            continue
        language = language_of(seat)
        oid = ctx.outbox.to_game(view, email, label, PART_RULE.join(body(m, language) for m in theirs),
                                 not_before=later, language=language)
        for message in theirs:
            ctx.outbox.archive(view, name, "press", body(message, language), oid, audience=message.audience)
    public = [body(m) for m in messages if m.audience == ALL]
    if public:  # public press: the observers read it too
        observers.send(ctx, view, label, PART_RULE.join(public), not_before=later)
    to_gm = [body(m) for m in messages if m.to_gm]
    if to_gm and gmalerts.send(ctx, label, PART_RULE.join(to_gm), view=view, not_before=later) is None:
        told.append(Text("The game master was not sent your press: gm mails them at most {most} alerts "
                         "an hour.", most=ctx.config.gm_alerts_per_hour))
    for message in messages:
        # The archive's copy is what the recipients read; the history log names the sender.
        ctx.outbox.archive(view, None, "press", body(message), None, audience=message.audience)
        ctx.store.history.log(view.id, view.turn, sender, "press", f"to {', '.join(message.labels)} ({mode})",
                              ctx.clock())
    return messages


def _is_gm(name: str) -> bool:
    return name.upper() == GM


def _problem(ctx: Context, view: GameView, sender: str, names: list[str], text: str,
             mode: str | None) -> str | None:
    """Why this press cannot be delivered, or None."""
    if mode == "none":
        return Text("Press is off in this game (option press: none); your message was not delivered.")
    if not text.strip():
        return Text("Your PRESS block was empty; nothing was delivered.")
    if len(text) > MAX_PRESS:
        return Text("Press messages are limited to {most} characters.", most=MAX_PRESS)
    if not names:
        return Text("Your PRESS TO line named nobody; nothing was delivered.")
    if any(_is_gm(n) for n in names) and not ctx.config.gm_address:
        return Text("This game has no game master address, so PRESS TO GM cannot be delivered; "
                    "nothing was delivered.")
    if any(_is_gm(n) for n in names) and not gmalerts.admit(ctx, f"press from {sender}"):
        return Text("gm mails the game master at most {most} alerts an hour, and has this hour; your "
                    "PRESS TO GM was not delivered. Send it again later.", most=ctx.config.gm_alerts_per_hour)
    for target in names:
        if target.upper() == "ALL" or _is_gm(target):
            continue
        found = view.player(target)
        if found is None or not found.active:
            return Text("There is no player {name} to write to (players: {players}, or ALL, or GM for "
                        "the game master); your press was not delivered.", name=repr(target),
                        players=", ".join(view.seated_names))
        if found.name == sender:
            return Text("You cannot send press to yourself.")
    return None
