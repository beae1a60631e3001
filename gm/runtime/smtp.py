"""Sending the outbox over SMTP with aiosmtplib.

The daemon is synchronous (imapclient), so the transport keeps its own event loop.  The outbox
goes out over up to ``connections`` SMTP connections ("lanes", gm.runtime.lanes), each kept from
mail to mail; each recipient's mail takes one lane, in queue order.  A lane that has sent its
last queued mail asks the sender for more while that mail is in flight, so no lane waits for
the slowest of a batch (benchmarks/shared_store.py).

Faults are sorted for gm.runtime.delivery: the server cannot be reached (TransportDown), refuses
gm's envelope sender (SenderRefused, 5xx at MAIL FROM), refuses by policy (PolicyRefused,
5.7.x), refuses this message for good (PermanentFailure: any other 5xx, or a UTF-8 address
without SMTPUTF8), or for now (TemporaryFailure, or anything else: retried later).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

import aiosmtplib

from gm.core.addresses import needs_smtputf8
from gm.core.config import ServerConfig
from gm.runtime.lanes import PER_LANE, Lanes
from gm.runtime.transport import (Done, More, PermanentFailure, PolicyRefused, SenderRefused, TemporaryFailure,
                                  TransportDown, is_policy)
from gm.runtime.tls import tls_context

log = logging.getLogger(__name__)

CONNECTIONS = 4  # parallel SMTP connections when the config gives none
# What gm says, as a server would (RFC 6531 3.5), of mail to a UTF-8 address that the server
# cannot carry: a refusal of that address (gm.runtime.refusals), never a hold of the queue.
NO_SMTPUTF8 = "553 5.6.7"

Ask = Callable[[int], Awaitable[list[Any]]]  # up to n more rows, perhaps after a wait
Send = Callable[[int, str, bytes, int], Awaitable[None]]  # send on lane: recipient, raw, outbox id


class SmtpTransport:
    """A BatchTransport over parallel SMTP connections (gm.runtime.transport)."""

    def __init__(self, server: ServerConfig, envelope_from: str = "", connections: int = CONNECTIONS,
                 envelope: Callable[[int], str] | None = None):
        self.server = server
        self.envelope_from = envelope_from
        # The envelope sender of outbox row n (VERP, gm.mail.verp); else envelope_from for every row.
        self.envelope = envelope or (lambda outbox_id: self.envelope_from)
        self.port = server.default_port(465, 587 if server.tls == "starttls" else 25)
        self.connections = max(1, connections)
        self.describe = f"SMTP {server.host}:{self.port}"  # named in `gm -v run`'s log
        self.streams = True  # send_many takes ``more``
        self._loop = asyncio.new_event_loop()
        self._clients: list[aiosmtplib.SMTP | None] = [None] * self.connections

    # --- the BatchTransport protocol --------------------------------------------
    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        self._loop.run_until_complete(self._send(0, recipient, raw, outbox_id))

    def send_many(self, rows: list[Any], done: Done, more: More | None = None) -> None:
        """Send rows over parallel connections, calling ``done`` for each.

        ``more(n)``, if given, claims up to n more rows to send (none: nothing is due): it is asked
        whenever a lane has sent its last queued row, so that the lanes never wait for one another."""
        ask = None
        if more is not None:
            async def ask(n: int) -> list[Any]:
                return more(n)
        self.stream(rows, done, ask)

    def stream(self, rows: list[Any], done: Done, ask: Ask | None = None) -> None:
        """send_many, with an ``ask`` that may wait (the child process asks its parent for rows)."""
        self._loop.run_until_complete(self._stream(rows, done, ask))

    def start(self) -> None:
        """Nothing to start: connections open as mail goes."""

    def close(self) -> None:
        for lane, client in enumerate(self._clients):
            if client is not None:
                try:
                    self._loop.run_until_complete(asyncio.wait_for(client.quit(), 5))
                except Exception:  # the server may already be gone
                    pass
                self._clients[lane] = None
        self._loop.close()

    # --- internals ------------------------------------------------------------------
    async def _stream(self, rows: list[Any], done: Done, ask: Ask | None) -> None:
        await LaneStream(self.connections, self._send, done, ask).run(rows)

    async def _connect(self) -> aiosmtplib.SMTP:
        server = self.server
        client = aiosmtplib.SMTP(
            hostname=server.host, port=self.port, timeout=server.timeout,
            use_tls=server.tls == "implicit", start_tls=server.tls == "starttls",
            tls_context=tls_context(server) if server.tls != "none" else None,
        )
        try:
            await client.connect()
            if server.user:
                await client.login(server.user, server.password() or "")
        except aiosmtplib.SMTPAuthenticationError as exc:
            client.close()
            raise TransportDown(f"SMTP login refused: {exc}") from exc
        except (aiosmtplib.SMTPException, OSError, asyncio.TimeoutError) as exc:
            client.close()
            raise TransportDown(f"cannot reach {server.host}:{self.port}: {exc}") from exc
        return client

    async def _drop(self, lane: int, polite: bool = True) -> None:
        """End a lane's session with QUIT (a bare close looks like a lost connection to the
        server, and some count those against the client); close if the server is gone."""
        client, self._clients[lane] = self._clients[lane], None
        if client is None:
            return
        if polite and client.is_connected:
            try:
                await asyncio.wait_for(client.quit(), min(5, self.server.timeout))
                return
            except Exception:  # the server hung up or is mid-reply: drop the socket
                pass
        client.close()

    async def _send(self, lane: int, recipient: str, raw: bytes, outbox_id: int) -> None:
        for attempt in (1, 2):
            client = self._clients[lane]
            if client is None or not client.is_connected:
                await self._drop(lane)
                client = self._clients[lane] = await self._connect()
            try:
                await client.sendmail(self.envelope(outbox_id), [recipient], raw,
                                      mail_options=["SMTPUTF8"] if needs_smtputf8(recipient) else ())
                return
            except aiosmtplib.SMTPNotSupported as exc:  # checked against EHLO before anything is sent
                raise PermanentFailure(f"{NO_SMTPUTF8} {self.describe} does not offer SMTPUTF8, which mail "
                                       f"to {recipient} needs (its local part is not ASCII); enable "
                                       "SMTPUTF8 on the server, or give the seat an ASCII address") from exc
            except aiosmtplib.SMTPRecipientsRefused as exc:
                codes = [e.code for e in exc.recipients]
                await self._drop(lane)
                words = "; ".join(f"{e.code} {e.message}" for e in exc.recipients)  # as a bounce quotes them
                if codes and all(500 <= c < 600 for c in codes):
                    raise (PolicyRefused if is_policy(words) else PermanentFailure)(words) from exc
                if codes and all(400 <= c < 500 for c in codes):
                    raise TemporaryFailure(words) from exc
                raise
            except aiosmtplib.SMTPServerDisconnected as exc:
                # An idle connection the server closed: reopen once, then call it down.
                await self._drop(lane)
                if attempt == 2:
                    raise TransportDown(str(exc)) from exc
            except aiosmtplib.SMTPResponseException as exc:
                # After a refused transaction the connection may be mid-dialogue: start afresh.
                await self._drop(lane)
                words = f"{exc.code} {exc.message}"
                if 500 <= exc.code < 600 and isinstance(exc, aiosmtplib.SMTPSenderRefused):
                    raise SenderRefused(words) from exc  # gm's return address, not the recipient
                if 500 <= exc.code < 600:
                    raise (PolicyRefused if is_policy(words) else PermanentFailure)(words) from exc
                raise
            except (aiosmtplib.SMTPConnectError, aiosmtplib.SMTPTimeoutError, OSError,
                    asyncio.TimeoutError) as exc:
                await self._drop(lane, polite=False)  # a server that does not answer: no QUIT to wait on
                raise TransportDown(str(exc)) from exc


class LaneStream:
    """One send_many over the lanes.

    Each lane sends its queue; a lane whose queue runs empty asks for more (one ask at a time,
    topping every lane up to PER_LANE rows) while its last row is still in flight.  The stream
    ends when every lane is idle and the last ask found nothing, or at once for every lane when
    the server is unreachable or refuses gm's sender.
    """

    def __init__(self, connections: int, send: Send, done: Done, ask: Ask | None):
        self.lanes = Lanes(connections)
        self.send, self.done, self.ask = send, done, ask
        self.down = asyncio.Event()  # the server is unreachable, or refuses gm's sender: every lane stops
        self.changed = asyncio.Condition()  # rows dealt, a row finished, or an ask came back
        self.asking: asyncio.Future[None] | None = None  # the ask in flight
        self.dry = ask is None  # the last ask found nothing
        self.broken = False  # an ask failed: no more are made

    async def run(self, rows: list[Any]) -> None:
        self.lanes.deal(rows)
        await asyncio.gather(*(self.lane(lane) for lane in range(len(self.lanes.queues))))
        if self.asking is not None:  # its answer must be read before the next batch begins
            await self.asking

    async def notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    def want_more(self) -> None:
        if self.ask is not None and self.asking is None and not self.dry and not self.down.is_set():
            self.asking = asyncio.ensure_future(self.refill(self.ask))

    async def refill(self, ask: Ask) -> None:
        asked = self.lanes.room(PER_LANE)  # one claim tops every lane up: fewer, fuller claims
        try:
            got = await ask(asked)
        except Exception:  # claiming failed (the store): the stream ends with what it has
            log.exception("claiming more mail to send failed")
            self.broken = True
            got = []
        if self.down.is_set():
            got = []  # not sent: the sender gives back every row it claimed and did not send
        self.lanes.deal(got)
        # Fewer than asked for: the queue is drained, and asking again before a row is sent
        # would mostly find nothing (a statement for each empty lane as the judge trickles in)
        self.dry = len(got) < asked
        self.asking = None
        await self.notify()

    async def lane(self, lane: int) -> None:
        """One connection: send its rows in order until the stream ends or the server is down."""
        lanes = self.lanes
        while not self.down.is_set():
            row = lanes.take(lane)
            if row is None:
                if self.asking is None and (self.dry or self.ask is None) and lanes.idle():
                    await self.notify()  # the others see the end too
                    return
                self.want_more()
                async with self.changed:
                    await self.changed.wait()
                continue
            if not lanes.queues[lane]:
                self.want_more()  # the next rows are claimed while this one is sent
            if not await self.send_row(lane, row):
                return
            self.dry = self.broken  # time has passed: more may be due now
            await self.notify()

    async def send_row(self, lane: int, row: Any) -> bool:
        """Send one row and tell ``done``; False when every lane must stop."""
        try:
            await self.send(lane, row["recipient"], row["raw"], row["id"])
        except (TransportDown, SenderRefused) as exc:
            self.lanes.finished(lane, row)
            if not self.down.is_set():
                self.down.set()
                self.done(row, exc)
            await self.notify()
            return False
        except Exception as exc:  # sorted by the sender's batch: failed for good, or retry later
            self.lanes.finished(lane, row)
            self.done(row, exc)
        else:
            self.lanes.finished(lane, row)
            self.done(row, None)
        return True
