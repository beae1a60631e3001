"""The rows of mail in, the outbox, delivery and the daemons, as records (gm.store.record).

Each record's fields are the columns its statement selects, typed as either back end reads them
(INT int, REAL float, TEXT str, BLOB bytes).  A column a later schema step added has a default,
so a row of an older store still makes a record.
"""

from __future__ import annotations

from gm.store.record import Record, record


@record
class MessageRow(Record):
    """A stored inbound mail (messages): what came in and what became of it."""

    id: int
    source_key: str
    message_id: str | None
    sender: str | None
    subject: str | None
    raw: bytes
    received: float
    game_id: str | None
    outcome: str
    detail: str | None
    auth: str | None = None


@record
class InboxLine(Record):
    """A line of ``gm inbox``: an inbound mail without its bytes."""

    id: int
    sender: str | None
    subject: str | None
    received: float
    outcome: str
    detail: str | None
    game_id: str | None


@record
class OutboxRow(Record):
    """A row of the outbox, every column (``raw`` packed, as stored: gm.store.packing)."""

    id: int
    message_id: str
    game_id: str | None
    turn: int | None
    kind: str
    recipient: str
    subject: str
    raw: bytes
    status: str
    attempts: int
    next_attempt: float
    last_error: str | None
    created: float
    sent: float | None
    trimmed: int = 0
    secret: int = 0
    claimed_by: str | None = None


@record
class SentMailRow(Record):
    """An outbox row without its bytes: what a bounce or a refusal is matched with."""

    id: int
    message_id: str
    game_id: str | None
    turn: int | None
    kind: str
    recipient: str
    subject: str
    status: str
    sent: float | None


@record
class DueMail(Record):
    """A queued mail a sender claimed: ``raw`` the mail to send, ``packed`` its bytes as stored
    (the sent copy reuses its packed body: gm.store.packing.repack_mail)."""

    id: int
    recipient: str
    raw: bytes
    packed: bytes
    attempts: int
    secret: int


@record
class HoldRow(Record):
    """A delivery hold (holds): mail to ``scope`` waits while the server refuses it."""

    scope: str
    since: float
    reason: str
    words: str
    refusal: str
    probes: int
    next_probe: float
    told: int


@record
class DeliveryEventRow(Record):
    """A delivery event (delivery_events): a refusal at send time or a bounce that came back."""

    id: int
    address: str
    outbox_id: int | None
    at: float
    permanent: int
    source: str
    message_row: int | None
    words: str
    settled: int


@record
class AddressEventRow(DeliveryEventRow):
    """A delivery event with its mail's subject, game and status (None: no outbox row)."""

    subject: str | None
    game_id: str | None
    status: str | None


@record
class AddressStateRow(Record):
    """An address's delivery state (addresses): ok, soft-failing or bouncing, since when."""

    address: str
    state: str
    since: float
    reason: str | None
    last_probe: float | None


@record
class DaemonRow(Record):
    """A daemon's heartbeat row (daemons)."""

    daemon_id: str
    host: str
    pid: int
    started: float
    last_seen: float
    sending_down_since: float | None
    inbox_handled: int | None = None
    inbox_left: int | None = None
    backlog_since: float | None = None
    took_over_from: str | None = None
    took_over_at: float | None = None


@record
class OutageRow(Record):
    """A stretch gm could not send or was not running (outages; ``finish`` None while it lasts)."""

    id: int
    kind: str
    start: float
    finish: float | None
    applied: int


@record
class MessageOutcome(Record):
    """An inbound mail's row id and outcome (the metrics)."""

    id: int
    outcome: str


@record
class EventMark(Record):
    """A delivery event's row id and whether it was permanent (the metrics)."""

    id: int
    permanent: int


@record
class ReportDeliveryRow(Record):
    """A report's (or welcome's) mail of a turn: to whom, its status, when sent, after how many tries."""

    recipient: str
    status: str
    sent: float | None
    attempts: int


@record
class ArchiveMarkRow(Record):
    """What a game's archive page shows changed by: status, newest state seq, newest report
    archived, seats taken (None: no state or report yet)."""

    id: str
    status: str
    last_seq: int | None
    last_report: int | None
    seats_taken: int
