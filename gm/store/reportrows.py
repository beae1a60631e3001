"""The rows of the reports archive, as records (gm.store.record).

A reports row's body is stored packed (gm.store.packing); its record holds the text as sent, so
no reader unpacks it.  Each field is a column the statements select (``*``: a store an older gm
left is read too), typed as either back end reads it; a column a later schema step added has a
default.
"""

from __future__ import annotations

from gm.store.record import Record, record
from gm.store.sql import Row


@record
class ReportRow(Record):
    """An archived text (reports): a report, reply, notice or press sent to ``player`` (None: the
    GM's copy), ``body`` the text as sent; ``body_packing`` how the store keeps it."""

    id: int
    game_id: str
    turn: int
    seq: int
    player: str | None
    kind: str
    body: str
    outbox_id: int | None
    created: float
    audience: str | None = None
    gm_version: str | None = None
    digest: str | None = None
    body_packing: str = "utf8"


def report_row(row: Row, body: str) -> ReportRow:
    """The record of a reports row, ``body`` its text (unpacked: gm.store.mail.Reports.report_body)."""
    present = {name.lower() for name in row.keys()}
    values = {name: row[name] for name in ReportRow.columns if name in present}
    values["body"] = body
    return ReportRow(**values)


@record
class UntrimmedMail(Record):
    """A sent mail that may still hold pictures: its id, ``raw`` the mail (unpacked), and whether
    its words are archived in reports too (then trimming may leave out its text)."""

    id: int
    raw: bytes
    archived: bool
