"""Delivery: what became of each message after it left (refusals, bounces) and each address's state.

Its statements are SQLAlchemy Core constructs on gm.store.tables, compiled once per back end
(gm.store.sql); set_address_state's upsert is each dialect's own INSERT ... ON CONFLICT.
"""

from __future__ import annotations

from typing import Any, Callable

from gm.store.mailrows import AddressEventRow, AddressStateRow, DeliveryEventRow, SentMailRow
from gm.store.repository import Repository
from gm.store.sql import constant, insert_of, inserting, prepared, updating

ADD_EVENT = inserting("delivery_events", ("address", "outbox_id", "at", "permanent", "source", "message_row", "words"))
REFUSED = updating("outbox", where=("id",), set=("status", "attempts", "last_error"))  # as MARK_FAILED's shape
SETTLE_EVENT = updating("delivery_events", where=("id",), set=("settled",))
PROBED = updating("addresses", where=("address",), set=("last_probe",))
BOUNCED = updating("outbox", where=("id",), set=("status", "last_error"))
ADD_HOLD = inserting("holds", ("scope", "since", "reason", "words", "refusal", "next_probe"))
HOLD_PROBED = updating("holds", where=("scope",), set=("probes", "next_probe", "words"))
HOLD_TOLD = updating("holds", where=("scope",), set=("told",))

MAX_WORDS = 500  # characters of a server's words kept per event

UNSETTLED = prepared(lambda sa, t: sa.select(t.delivery_events).where(
    t.delivery_events.c.settled == constant(sa, 0)).order_by(t.delivery_events.c.id).limit(sa.bindparam("most")))
UNSETTLED_OF = prepared(lambda sa, t: sa.select(t.delivery_events).where(
    t.delivery_events.c.settled == constant(sa, 0), t.delivery_events.c.address == sa.bindparam("address")).order_by(
    t.delivery_events.c.id).limit(sa.bindparam("most")))


def events_of(sa: Any, t: Any) -> Any:
    e, o = t.delivery_events, t.outbox
    return sa.select(e, o.c.subject, o.c.game_id, o.c.status).select_from(
        e.outerjoin(o, o.c.id == e.c.outbox_id)).where(e.c.address == sa.bindparam("address")).order_by(
        e.c.at.desc(), e.c.id.desc()).limit(sa.bindparam("most"))


EVENTS_OF = prepared(events_of)
# CAST as before on each back end: SQLite truncates, PostgreSQL rounds
FAILURE_DAYS = prepared(lambda sa, t: sa.select(sa.cast(
    t.delivery_events.c.at.op("/")(sa.literal_column("86400")), sa.Integer).label("day")).distinct().where(
    t.delivery_events.c.address == sa.bindparam("address"), t.delivery_events.c.permanent == 0,
    t.delivery_events.c.at >= sa.bindparam("since")))
ADDRESS = prepared(lambda sa, t: sa.select(t.addresses).where(t.addresses.c.address == sa.bindparam("address")))
ADDRESSES = prepared(lambda sa, t: sa.select(t.addresses).where(
    t.addresses.c.address.in_(sa.bindparam("addresses", expanding=True))), lists=("addresses",))


def address_upsert(dialect: str) -> Callable[[Any, Any], Any]:
    """The builder of set_address_state's upsert on this dialect: a new state forgets the last probe."""
    def build(sa: Any, t: Any) -> Any:
        new = insert_of(dialect)(t.addresses).values(address=sa.bindparam("address"), state=sa.bindparam("state"),
                                                     since=sa.bindparam("since"), reason=sa.bindparam("reason"))
        return new.on_conflict_do_update(index_elements=[t.addresses.c.address], set_=dict(
            state=new.excluded.state, since=new.excluded.since, reason=new.excluded.reason, last_probe=sa.null()))
    return build


SET_ADDRESS_STATE = prepared(address_upsert("sqlite"), postgresql=address_upsert("postgresql"))
IN_STATE = prepared(lambda sa, t: sa.select(t.addresses).where(t.addresses.c.state == sa.bindparam("state")).order_by(
    t.addresses.c.since))


def seats_at(sa: Any, t: Any) -> Any:
    p, g = t.players, t.games
    return sa.select(p.c.game_id, p.c.name, g.c.status).select_from(p.join(g, g.c.id == p.c.game_id)).where(
        p.c.active == 1, sa.func.lower(p.c.email) == sa.bindparam("address")).order_by(p.c.game_id, p.c.seat)


SEATS_AT = prepared(seats_at)


def outbox_row(sa: Any, t: Any, by: Any) -> Any:
    o = t.outbox.c
    return sa.select(o.id, o.message_id, o.game_id, o.turn, o.kind, o.recipient, o.subject, o.status, o.sent).where(
        o[by] == sa.bindparam("key"))


OUTBOX_ROW = {by: prepared(lambda sa, t, by=by: outbox_row(sa, t, by)) for by in ("id", "message_id")}
HOLD_QUEUED = prepared(lambda sa, t: sa.update(t.outbox).where(
    t.outbox.c.status == "queued", sa.func.lower(t.outbox.c.recipient) == sa.bindparam("address")).values(
    status="held"))
RELEASE_HELD = prepared(lambda sa, t: sa.update(t.outbox).where(
    t.outbox.c.status == "held", sa.func.lower(t.outbox.c.recipient) == sa.bindparam("address")).values(
    status="queued", next_attempt=sa.bindparam("now")))
HOLD = prepared(lambda sa, t: sa.select(t.holds).where(t.holds.c.scope == sa.bindparam("scope")))
HOLDS = prepared(lambda sa, t: sa.select(t.holds).order_by(t.holds.c.since, t.holds.c.scope))
END_HOLD = prepared(lambda sa, t: sa.delete(t.holds).where(t.holds.c.scope == sa.bindparam("scope")))


def hurry(sa: Any, t: Any, pattern: bool) -> Any:
    """Make the queued mail kept waiting past ``now`` due now (where ``pattern``: to the addresses it matches)."""
    o = t.outbox.c
    update = sa.update(t.outbox).where(o.status == "queued", o.next_attempt > sa.bindparam("now"))
    # SQLite's LIKE ignores ASCII case, as PostgreSQL's ILIKE does
    update = update.where(o.recipient.ilike(sa.bindparam("pattern"))) if pattern else update
    return update.values(next_attempt=sa.bindparam("now"))


HURRY = {pattern: prepared(lambda sa, t, pattern=pattern: hurry(sa, t, pattern)) for pattern in (False, True)}


class Delivery(Repository):
    """Delivery events (bounces) and each address's delivery state."""

    def add_delivery_event(self, address: str, outbox_id: int | None, at: float, permanent: bool,
                           source: str, words: str, message_row: int | None = None) -> int:
        return self.store.insert_row(ADD_EVENT, address=address.lower(), outbox_id=outbox_id, at=at,
                                     permanent=int(permanent), source=source, message_row=message_row,
                                     words=words[:MAX_WORDS])

    def record_refusal(self, outbox_id: int, address: str, attempts: int, words: str, at: float) -> None:
        """The SMTP server refused a message for good as it was sent (a 5xx): the sender thread
        marks it bounced and leaves the event for the service to settle (gm.service.outgoing.delivery_state)."""
        self.store.update_rows(REFUSED, id=outbox_id, status="bounced", attempts=attempts, last_error=words[:MAX_WORDS])
        self.add_delivery_event(address, outbox_id, at, True, "smtp", words)

    def unsettled_events(self, limit: int = 100, address: str | None = None) -> list[DeliveryEventRow]:
        """The failures not yet taken into their address's state (``address``: of that one only)."""
        if address is not None:
            return DeliveryEventRow.every(UNSETTLED_OF.run(self.store, address=address.lower(), most=limit).fetchall())
        return DeliveryEventRow.every(UNSETTLED.run(self.store, most=limit).fetchall())

    def settle_event(self, event_id: int) -> None:
        self.store.update_rows(SETTLE_EVENT, id=event_id, settled=1)

    def delivery_events(self, address: str, limit: int = 100) -> list[AddressEventRow]:
        """An address's events, newest first, each with its message's subject and game."""
        return AddressEventRow.every(EVENTS_OF.run(self.store, address=address.lower(), most=limit).fetchall())

    def temporary_failure_days(self, address: str, since: float) -> set[int]:
        """The UTC days (as day numbers) with a temporary failure of ``address`` since ``since``."""
        return {r["day"] for r in FAILURE_DAYS.run(self.store, address=address.lower(), since=since).fetchall()}

    def address_state(self, address: str) -> AddressStateRow | None:
        return self.store.remembered("addresses", ("address", address.lower()), lambda: AddressStateRow.maybe(
            ADDRESS.run(self.store, address=address.lower()).fetchone()))

    def read_address_states(self, addresses: list[str]) -> None:
        """Read the states of these addresses in one statement, remembered for address_state in
        this write transaction (a game's mail goes to several: gm.store.reads)."""
        if not self.store.depth:
            return  # nothing is remembered outside a write transaction
        wanted = sorted(a for a in {a.lower() for a in addresses if a}
                        if not self.store.already_read("addresses", ("address", a))[0])
        if not wanted:
            return
        found = {r.address: r for r in AddressStateRow.every(ADDRESSES.run(self.store, addresses=wanted).fetchall())}
        for address in wanted:
            self.store.remember_written("addresses", ("address", address), found.get(address))

    def set_address_state(self, address: str, state: str, since: float, reason: str | None) -> None:
        SET_ADDRESS_STATE.run(self.store, address=address.lower(), state=state, since=since, reason=reason)

    def set_last_probe(self, address: str, at: float) -> None:
        self.store.update_rows(PROBED, address=address.lower(), last_probe=at)

    def addresses_in_state(self, state: str) -> list[AddressStateRow]:
        return AddressStateRow.every(IN_STATE.run(self.store, state=state).fetchall())

    def outbox_row(self, outbox_id: int) -> SentMailRow | None:
        return SentMailRow.maybe(OUTBOX_ROW["id"].run(self.store, key=outbox_id).fetchone())

    def outbox_by_message_id(self, message_id: str) -> SentMailRow | None:
        return SentMailRow.maybe(OUTBOX_ROW["message_id"].run(self.store, key=message_id).fetchone())

    def mark_bounced(self, outbox_id: int, words: str) -> None:
        """A message refused for good, at send time or by a bounce that came back."""
        self.store.update_rows(BOUNCED, id=outbox_id, status="bounced", last_error=words[:MAX_WORDS])
