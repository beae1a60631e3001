"""Bounces from tests/fixtures/bounces, filled in so that each points at one of gm's outbox rows."""

from __future__ import annotations

from pathlib import Path

BOUNCES = Path(__file__).parent / "fixtures" / "bounces"
PERMANENT = ["dsn-sendmail", "postfix", "exim", "qmail", "exchange", "yahoo", "aol", "gmail", "office365"]
TEMPORARY = ["postfix-delayed"]
NOT_BOUNCES = ["not-a-bounce-out-of-office", "not-a-bounce-delivered"]  # to a VERP address, failing nothing
QUOTE_THE_ORIGINAL = [name for name in PERMANENT + TEMPORARY if name != "aol"]  # AOL's quotes nothing


def outbox_row(store, recipient: str, kind: str | None = None):
    """The newest outbox row to ``recipient`` (of ``kind``, if given)."""
    sql, params = "SELECT * FROM outbox WHERE recipient = :recipient", {"recipient": recipient}
    if kind is not None:
        sql, params = sql + " AND kind = :kind", {**params, "kind": kind}
    return store.one(sql + " ORDER BY id DESC LIMIT 1", **params)


def bounce(name: str, row, verp, to: str | None = None) -> bytes:
    """Fixture ``name`` bouncing outbox ``row``: delivered to the row's VERP address (``verp``
    a gm.mail.verp.Verp), or to ``to`` if given (a plain address, or a forged one)."""
    recipient = row["recipient"]
    values = {
        "VERP": to or verp.envelope(row["id"]),
        "RECIPIENT": recipient,
        "LOCAL": recipient.partition("@")[0],
        "MESSAGE_ID": row["message_id"],
        "MESSAGE_ID_BARE": row["message_id"].strip("<>"),
        "GM": verp.address,
    }
    raw = (BOUNCES / f"{name}.eml").read_bytes()
    for key, value in values.items():
        raw = raw.replace(f"%%{key}%%".encode(), value.encode())
    assert b"%%" not in raw
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
