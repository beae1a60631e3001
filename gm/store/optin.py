"""Requests waiting for their address to confirm them (OBSERVE, JOIN, CREATE: gm.service.people.optin).

Every statement is a SQLAlchemy Core construct on gm.store.tables, compiled once per back end
(gm.store.sql, as gm.store.daemons).  A request's mailbox, which the caps count by, is kept as
its keyed hash (gm.store.mailboxhash): the counts outlive the address's forgetting.
"""

from __future__ import annotations

from typing import Any

from gm.store.mailboxhash import mailbox_hash
from gm.store.repository import Repository
from gm.store.seatrows import OptInRow
from gm.store.sql import inserting, prepared, single

ADD_REQUEST = inserting("pending_requests", ("code_hash", "address", "mailbox", "actions", "created", "expires"))

REQUEST = prepared(lambda sa, t: sa.select(t.pending_requests).where(
    t.pending_requests.c.code_hash == sa.bindparam("code")))
CONFIRM = prepared(lambda sa, t: sa.update(t.pending_requests).where(
    t.pending_requests.c.code_hash == sa.bindparam("code"), t.pending_requests.c.confirmed.is_(None)).values(
    confirmed=sa.bindparam("now")))


def build_requests_since(sa: Any, t: Any, to_mailbox: bool, unconfirmed: bool) -> Any:
    """How many requests since ``since`` (to mailbox ``to``; only the unconfirmed)."""
    requests = t.pending_requests
    statement = sa.select(sa.func.count().label("n")).select_from(requests).where(
        requests.c.created >= sa.bindparam("since"))
    if to_mailbox:
        statement = statement.where(requests.c.mailbox == sa.bindparam("to"))
    if unconfirmed:
        statement = statement.where(requests.c.confirmed.is_(None))
    return statement


# one statement per shape (to one mailbox, only the unconfirmed), each held here to be compiled ahead
REQUESTS_SINCE = {(to_mailbox, unconfirmed): prepared(
    lambda sa, t, to_mailbox=to_mailbox, unconfirmed=unconfirmed: build_requests_since(sa, t, to_mailbox, unconfirmed))
    for to_mailbox in (False, True) for unconfirmed in (False, True)}


class OptIn(Repository):
    """Requests (OBSERVE, JOIN, CREATE) waiting for their address to confirm."""

    def add_pending_request(self, code_hash: str, address: str, mailbox: str, actions: list[str],
                            created: float, expires: float) -> None:
        self.store.insert_row(ADD_REQUEST, code_hash=code_hash, address=address.lower(),
                              mailbox=mailbox_hash(self.store, mailbox), actions="\n".join(actions), created=created,
                              expires=expires)

    def pending_request(self, code_hash: str) -> OptInRow | None:
        """The pending_requests row of ``code_hash`` (confirmed or not), or None."""
        return OptInRow.maybe(REQUEST.run(self.store, code=code_hash).fetchone())

    def confirm_pending_request(self, code_hash: str, now: float) -> int:
        """Mark a request confirmed (once: 0 when it was already)."""
        self._require_tx()
        return CONFIRM.run(self.store, code=code_hash, now=now).rowcount

    def pending_requests_since(self, since: float, mailbox: str | None = None,
                               unconfirmed: bool = False) -> int:
        """How many requests were made since ``since`` (to ``mailbox``; only unconfirmed ones)."""
        statement = REQUESTS_SINCE[mailbox is not None, bool(unconfirmed)]
        if mailbox is None:
            return int(single(statement.run(self.store, since=since))["n"])
        return int(single(statement.run(self.store, since=since, to=mailbox_hash(self.store, mailbox)))["n"])
