"""A seat's credentials at rest: its codes waiting for an answer, wrong passwords, lock-outs.

Only gm.service.people.credentials writes these (and players.pw_hash, generation, email).

Every statement is a SQLAlchemy Core construct on gm.store.tables, compiled once per back end
(gm.store.sql, as gm.store.daemons).  A seat's name is compared as SQL's lower() has it on both.
A sender is kept and looked up as its mailbox's keyed hash (gm.store.mailboxhash), never as
the address: its failures and locks outlive the address's forgetting.
"""

from __future__ import annotations

from typing import Any

from gm.store import selfservice as selfservice_sql
from gm.store.mailboxhash import mailbox_hash
from gm.store.repository import Repository
from gm.store.seatrows import CodeRow, PasswordStandingRow
from gm.store.sql import inserting, prepared, single, updating

ADD_CODE = inserting("address_codes", ("code_hash", "game_id", "player", "new_email", "expires", "purpose", "created"))
CODE_USED = updating("address_codes", where=("code_hash",), set=("used", "ended"))
ADD_FAILURE = inserting("credential_failures", ("game_id", "player", "sender", "at"))
ADD_LOCK = inserting("credential_locks", ("game_id", "player", "sender", "since", "until"))
SET_PW_HASH = updating("players", where=("game_id", "name"), set=("pw_hash",))


def same_name(sa: Any, column: Any, key: str) -> Any:
    """``column`` names the seat of parameter ``key``, case-insensitively (SQL's lower())."""
    return sa.func.lower(column) == sa.func.lower(sa.bindparam(key))


# One statement per number of purposes asked for (parameters purpose0, purpose1, ...), each held
# here so that it is compiled ahead (gm.store.sql): there are three purposes.
PENDING_CODES = {count: prepared(lambda sa, t, count=count: sa.select(t.address_codes).where(
    t.address_codes.c.game_id == sa.bindparam("game"), same_name(sa, t.address_codes.c.player, "seat"),
    t.address_codes.c.purpose.in_([sa.bindparam(f"purpose{i}") for i in range(count)]),
    t.address_codes.c.used == 0, t.address_codes.c.expires > sa.bindparam("now")).order_by(
    t.address_codes.c.created, t.address_codes.c.code_hash)) for count in (1, 2, 3)}
LAST_CODE_AT = prepared(lambda sa, t: sa.select(sa.func.max(t.address_codes.c.created).label("at")).where(
    t.address_codes.c.game_id == sa.bindparam("game"), same_name(sa, t.address_codes.c.player, "seat"),
    t.address_codes.c.purpose == sa.bindparam("what")))
SEAT_FAILURES = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(
    t.credential_failures).where(
    t.credential_failures.c.game_id == sa.bindparam("game"),
    sa.or_(same_name(sa, t.credential_failures.c.player, "seat"), t.credential_failures.c.player == ""),
    t.credential_failures.c.at > sa.bindparam("since")))
SENDER_FAILURES = prepared(lambda sa, t: sa.select(sa.func.count().label("n")).select_from(
    t.credential_failures).where(
    t.credential_failures.c.sender == sa.bindparam("address"), t.credential_failures.c.at > sa.bindparam("since")))
SEAT_LOCK_UNTIL = prepared(lambda sa, t: sa.select(sa.func.max(t.credential_locks.c.until).label("until")).where(
    t.credential_locks.c.game_id == sa.bindparam("game"), same_name(sa, t.credential_locks.c.player, "seat"),
    t.credential_locks.c.sender == ""))
SENDER_LOCK_UNTIL = prepared(lambda sa, t: sa.select(sa.func.max(t.credential_locks.c.until).label("until")).where(
    t.credential_locks.c.sender == sa.bindparam("sender_key"), t.credential_locks.c.player == ""))


def build_locks_until(sa: Any, t: Any) -> Any:
    """Each seat of a game with the end of its latest lock, then (name NULL) the sender's."""
    seat, lock = t.players.alias("p"), t.credential_locks.alias("c")
    seat_until = sa.select(sa.func.max(lock.c.until)).where(
        lock.c.game_id == seat.c.game_id, sa.func.lower(lock.c.player) == sa.func.lower(seat.c.name),
        lock.c.sender == "").scalar_subquery()
    return sa.union_all(
        sa.select(seat.c.name.label("name"), seat_until.label("until")).where(seat.c.game_id == sa.bindparam("game")),
        sa.select(sa.null().label("name"), SENDER_LOCK_UNTIL.build(sa, t).scalar_subquery().label("until")))


LOCKS_UNTIL = prepared(build_locks_until)


def build_password_standing(sa: Any, t: Any) -> Any:
    """The seats of a game at an address (both lower-cased), in seat order, each with its password
    hash, the end of its latest lock, and the end of the address's own latest lock."""
    seat, lock = t.players.alias("p"), t.credential_locks.alias("c")
    seat_until = sa.select(sa.func.max(lock.c.until)).where(
        lock.c.game_id == seat.c.game_id, sa.func.lower(lock.c.player) == sa.func.lower(seat.c.name),
        lock.c.sender == "").scalar_subquery()
    return sa.select(seat.c.name, seat.c.pw_hash, seat_until.label("seat_until"),
                     SENDER_LOCK_UNTIL.build(sa, t).scalar_subquery().label("sender_until")).where(
        seat.c.game_id == sa.bindparam("game"),
        sa.func.lower(seat.c.email) == sa.func.lower(sa.bindparam("address"))).order_by(seat.c.seat)


PASSWORD_STANDING = prepared(build_password_standing)
END_SEAT_LOCKS = prepared(lambda sa, t: sa.update(t.credential_locks).where(
    t.credential_locks.c.game_id == sa.bindparam("game"), same_name(sa, t.credential_locks.c.player, "seat"),
    t.credential_locks.c.sender == "", t.credential_locks.c.until > sa.bindparam("now")).values(
    until=sa.bindparam("now")))


class Credentials(Repository):
    """Codes, failures and locks of seats' credentials."""

    def add_credential_code(self, code_hash: str, game_id: str, player: str, purpose: str, email: str,
                            created: float, expires: float) -> None:
        """A code mailed to ``email``: 'address' (the new address), 'revert' (the old one) or 'reset'."""
        self.store.insert_row(ADD_CODE, code_hash=code_hash, game_id=game_id, player=player,
                              new_email=email, expires=expires, purpose=purpose, created=created)

    def pending_codes(self, game_id: str, name: str, purposes: tuple[str, ...], now: float) -> list[CodeRow]:
        """A seat's codes of these purposes still waiting (unused, unexpired), oldest first."""
        purposes = tuple(dict.fromkeys(purposes))
        statement = PENDING_CODES.get(len(purposes))
        if statement is not None:
            return CodeRow.every(statement.run(self.store, game=game_id, seat=name, now=now, **{
                f"purpose{i}": purpose for i, purpose in enumerate(purposes)}))
        # none, or more than the three there are: each purpose's, in the same order
        rows = [row for purpose in purposes for row in CodeRow.every(PENDING_CODES[1].run(
            self.store, game=game_id, seat=name, now=now, purpose0=purpose))]
        return sorted(rows, key=lambda row: (row.created, row.code_hash))

    def last_code_at(self, game_id: str, name: str, purpose: str) -> float | None:
        """When the seat's latest code of ``purpose`` was made (None: never)."""
        row = LAST_CODE_AT.run(self.store, game=game_id, seat=name, what=purpose).fetchone()
        return row["at"] if row is not None else None

    def end_code(self, code_hash: str, why: str) -> None:
        """The code no longer works: ``why`` is confirmed, superseded, revoked..."""
        self.store.update_rows(CODE_USED, code_hash=code_hash, used=1, ended=why)

    def add_credential_failure(self, game_id: str, player: str, sender: str, at: float) -> None:
        self.store.insert_row(ADD_FAILURE, game_id=game_id, player=player, sender=mailbox_hash(self.store, sender),
                              at=at)

    def seat_failures_since(self, game_id: str, name: str, since: float) -> int:
        """Wrong passwords aimed at this seat since ``since`` (from its address or a stranger's)."""
        row = single(SEAT_FAILURES.run(self.store, game=game_id, seat=name, since=since))
        return int(row["n"])

    def sender_failures_since(self, sender: str, since: float) -> int:
        row = single(SENDER_FAILURES.run(self.store, address=mailbox_hash(self.store, sender), since=since))
        return int(row["n"])

    def add_credential_lock(self, game_id: str, player: str, sender: str, since: float,
                            until: float) -> None:
        self.store.insert_row(ADD_LOCK, game_id=game_id, player=player, sender=mailbox_hash(self.store, sender),
                              since=since, until=until)

    def seat_lock_until(self, game_id: str, name: str) -> float | None:
        """The end of the seat's latest lock (None: never locked)."""
        row = self.store.remembered("credential_locks", ("seat", game_id, name), lambda: SEAT_LOCK_UNTIL.run(
            self.store, game=game_id, seat=name).fetchone())
        return row["until"] if row is not None else None

    def locks_until(self, game_id: str, sender: str) -> tuple[float | None, dict[str, float | None]]:
        """sender_lock_until(sender), and seat_lock_until of every seat of the game by its name,
        in one statement."""
        rows = self.store.remembered(("players", "credential_locks"), ("locks_until", game_id, sender),
                                     lambda: LOCKS_UNTIL.run(self.store, game=game_id,
                                                             sender_key=mailbox_hash(self.store, sender)).fetchall())
        seats = {r["name"]: r["until"] for r in rows if r["name"] is not None}
        return next(r["until"] for r in rows if r["name"] is None), seats

    def password_standing(self, game_id: str, address: str) -> list[PasswordStandingRow]:
        """The seats of ``game_id`` at ``address``, each with ``pw_hash``, ``seat_until`` (its
        lock's end) and ``sender_until`` (the address's), in one statement: what a password's
        head start reads (gm.service.intake.ingest.prepare), outside any transaction."""
        return PasswordStandingRow.every(PASSWORD_STANDING.run(self.store, game=game_id, address=address,
                                                               sender_key=mailbox_hash(self.store, address)))

    def sender_lock_until(self, sender: str) -> float | None:
        row = SENDER_LOCK_UNTIL.run(self.store, sender_key=mailbox_hash(self.store, sender)).fetchone()
        return row["until"] if row is not None else None

    def end_seat_locks(self, game_id: str, name: str, now: float) -> None:
        """A reset confirmed from the registered address: the seat's lock ends now."""
        self._require_tx()
        END_SEAT_LOCKS.run(self.store, game=game_id, seat=name, now=now)

    def address_code(self, code_hash: str) -> CodeRow | None:
        """The address_codes row of ``code_hash`` (used or not), or None."""
        return CodeRow.maybe(selfservice_sql.ADDRESS_CODE.run(self.store, code=code_hash).fetchone())
