"""Sending the outbox over SMTP with aiosmtplib.

The daemon is synchronous (imapclient), so the transport keeps its own event
loop.  The outbox goes out over up to ``connections`` SMTP connections at
once, each kept from mail to mail and reopened when the server has closed it.
Each recipient's mail takes one connection, in queue order, so a player never
gets turn 5 before turn 4 (gm.runtime.lanes); a connection that has sent its
last queued mail asks the sender for more while that mail is still in flight,
so that no connection waits for the slowest of a batch (a relay that takes
50 ms a message kept the connections of a batch-at-a-time sender idle a third
of the time: benchmarks/shared_store.py, capacity).

Faults are sorted for the sender loop in gm.runtime.delivery: the server cannot be
reached (TransportDown: stop the batch, wait, then retry the queue in order),
the server refuses gm's envelope sender (SenderRefused, a 5xx at MAIL FROM: stop
the batch, hold the queue), the recipient's domain refuses gm's mail by policy
(PolicyRefused, a 5.7.x at RCPT or DATA: hold that domain's mail), the server
refuses this message for good (PermanentFailure, any other 5xx; and mail to an
address with a UTF-8 local part when the server does not offer SMTPUTF8), or anything
else (retry this message later).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

import aiosmtplib

from gm.core.addresses import needs_smtputf8
from gm.core.config import ServerConfig
from gm.runtime.lanes import PER_LANE, Lanes
from gm.runtime.transport import (Done, PermanentFailure, PolicyRefused, SenderRefused, TemporaryFailure,
                                  TransportDown, is_policy)
from gm.runtime.tls import tls_context

log = logging.getLogger(__name__)

CONNECTIONS = 4  # parallel SMTP connections when the config gives none
# What gm says, as a server would (RFC 6531 3.5), of mail to a UTF-8 address that the server
# cannot carry: a refusal of that address (gm.runtime.refusals), never a hold of the queue.
NO_SMTPUTF8 = "553 5.6.7"


class SmtpTransport:
    def __init__(self, server: ServerConfig, envelope_from: str = "", connections: int = CONNECTIONS,
                 envelope: Callable[[int], str] | None = None):
        self.server = server
        self.envelope_from = envelope_from
        # The envelope sender of outbox row n (VERP, gm.mail.verp); else envelope_from for every row.
        self.envelope = envelope or (lambda outbox_id: self.envelope_from)
        self.port = server.default_port(465, 587 if server.tls == "starttls" else 25)
        self.connections = max(1, connections)
        self.describe = f"SMTP {server.host}:{self.port}"  # named in `gm -v run`'s log
        self.streams = True  # send_many takes ``more`` (gm.runtime.delivery.flush)
        self._loop = asyncio.new_event_loop()
        self._clients: list[aiosmtplib.SMTP | None] = [None] * self.connections

    # --- the Transport protocol -------------------------------------------------
    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        self._loop.run_until_complete(self._send(0, recipient, raw, outbox_id))

    def send_many(self, rows: list, done: Done, more: Callable[[int], list] | None = None) -> None:
        """Send rows over parallel connections; see gm.runtime.delivery.flush for ``done``.

        ``more(n)``, if given, claims up to n more rows to send (none: nothing is due): it is asked
        whenever a lane has sent its last queued row, so that the lanes never wait for one another."""
        ask = None
        if more is not None:
            async def ask(n: int) -> list:
                return more(n)
        self.stream(rows, done, ask)

    def stream(self, rows: list, done: Done, ask: Callable[[int], Awaitable[list]] | None = None) -> None:
        """send_many, with an ``ask`` that may wait (the child process asks its parent for rows)."""
        self._loop.run_until_complete(self._stream(rows, done, ask))

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
    async def _stream(self, rows: list, done: Done, ask: Callable[[int], Awaitable[list]] | None) -> None:
        """Each lane sends its queue; a lane whose queue runs empty asks for more (one ask at a
        time, topping every lane up to PER_LANE rows) while its last row is still in flight.  The stream
        ends when every lane is idle and the last ask found nothing, or at once for every lane when
        the server is unreachable or refuses gm's sender."""
        lanes = Lanes(self.connections)
        lanes.deal(rows)
        down = asyncio.Event()  # the server is unreachable, or refuses gm's sender: every lane stops
        changed = asyncio.Condition()  # rows dealt, a row finished, or an ask came back
        # the ask in flight; the last ask found nothing; an ask failed (no more are made)
        state = {"asking": None, "dry": ask is None, "broken": False}

        async def refill() -> None:
            asked = lanes.room(PER_LANE)  # one claim tops every lane up: fewer, fuller claims
            try:
                got = await ask(asked)
            except Exception:  # claiming failed (the store): the stream ends with what it has
                log.exception("claiming more mail to send failed")
                state["broken"] = True
                got = []
            if down.is_set():
                got = []  # not sent: the sender gives back every row it claimed and did not send
            lanes.deal(got)
            # Fewer than asked for: the queue is drained, and asking again before a row is sent
            # would mostly find nothing (a statement for each empty lane as the judge trickles in)
            state["dry"] = len(got) < asked
            state["asking"] = None
            async with changed:
                changed.notify_all()

        def want_more() -> None:
            if ask is not None and state["asking"] is None and not state["dry"] and not down.is_set():
                state["asking"] = asyncio.ensure_future(refill())

        async def run(lane: int) -> None:
            while not down.is_set():
                row = lanes.take(lane)
                if row is None:
                    if state["asking"] is None and (state["dry"] or ask is None) and lanes.idle():
                        async with changed:
                            changed.notify_all()  # the others see the end too
                        return
                    want_more()
                    async with changed:
                        await changed.wait()
                    continue
                if not lanes.queues[lane]:
                    want_more()  # the next rows are claimed while this one is sent
                try:
                    await self._send(lane, row["recipient"], row["raw"], row["id"])
                except (TransportDown, SenderRefused) as exc:
                    lanes.finished(lane, row)
                    if not down.is_set():
                        down.set()
                        done(row, exc)
                    async with changed:
                        changed.notify_all()
                    return
                except Exception as exc:  # sorted by flush: failed for good, or retry later
                    lanes.finished(lane, row)
                    done(row, exc)
                else:
                    lanes.finished(lane, row)
                    done(row, None)
                state["dry"] = state["broken"]  # time has passed: more may be due now
                async with changed:
                    changed.notify_all()

        await asyncio.gather(*(run(lane) for lane in range(len(lanes.queues))))
        if state["asking"] is not None:  # its answer must be read before the next batch begins
            await state["asking"]

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
