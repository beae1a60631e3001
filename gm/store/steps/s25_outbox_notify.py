"""Step 25: mail queued wakes every daemon's sender (PostgreSQL alone: a notification at commit).

An INSERT into outbox notifies, at its commit, on a channel of this schema's own
(gm.store.pgoutbox.QUEUED_CHANNEL), so that every daemon sharing the store wakes its sender
(gm.runtime.queuedwatch).  One notification a statement, not a row; PostgreSQL folds a
transaction's alike into one.  SQLite: nothing (one daemon a store).
"""

from __future__ import annotations

from typing import Any

from gm.store.changes import Step


def outbox_notifies_queued_mail(db: Any) -> None:
    """The trigger and its function, made again where they exist (a test that rewinds a store's
    step runs the later steps again)."""
    if getattr(db, "kind", "sqlite") != "postgresql":
        return
    db.raw("CREATE OR REPLACE FUNCTION gm_outbox_queued() RETURNS trigger LANGUAGE plpgsql AS "
           "$$BEGIN PERFORM pg_notify('gm_outbox_' || md5(current_schema()), ''); RETURN NULL; END$$")
    db.raw("DROP TRIGGER IF EXISTS outbox_queued ON outbox")
    db.raw("CREATE TRIGGER outbox_queued AFTER INSERT ON outbox FOR EACH STATEMENT "
           "EXECUTE FUNCTION gm_outbox_queued()")


STEP = Step(25, "mail queued wakes every daemon's sender (PostgreSQL: a notification at commit)", "",
            outbox_notifies_queued_mail)
