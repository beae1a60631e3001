"""Sending the outbox over SMTP with aiosmtplib.

The daemon is synchronous (imapclient), so the transport keeps its own event
loop.  A batch from the outbox goes out over up to ``connections`` SMTP
connections at once, each reused from batch to batch and reopened when the
server has closed it.  Within a batch each recipient's mail takes one
connection, in queue order, and a batch ends before the next begins, so a
player never gets turn 5 before turn 4 (lanes_of).

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
from typing import Callable

import aiosmtplib

from gm.core.addresses import needs_smtputf8
from gm.core.config import ServerConfig
from gm.runtime.transport import (Done, PermanentFailure, PolicyRefused, SenderRefused, TemporaryFailure,
                                  TransportDown, is_policy)
from gm.runtime.tls import tls_context

log = logging.getLogger(__name__)

CONNECTIONS = 4  # parallel SMTP connections when the config gives none
# What gm says, as a server would (RFC 6531 3.5), of mail to a UTF-8 address that the server
# cannot carry: a refusal of that address (gm.runtime.refusals), never a hold of the queue.
NO_SMTPUTF8 = "553 5.6.7"


def lanes_of(rows: list, connections: int) -> dict[int, list]:
    """The batch split over the connections: each recipient's rows in one lane, in queue order
    (flush waits for the whole batch before the next, so order holds across batches too), and
    the recipients dealt out most rows first to the lane with the fewest, so that the lanes end
    together.  (A hash of the recipient left one lane with twice the mean of a 20-mail batch
    while the others idled: fewer messages in flight against a relay that takes 50 ms each.)"""
    by_recipient: dict[str, list] = {}
    for row in rows:
        by_recipient.setdefault(row["recipient"].lower(), []).append(row)
    loads = [0] * max(1, connections)
    lanes: dict[int, list] = {}
    for recipient in sorted(by_recipient, key=lambda r: (-len(by_recipient[r]), by_recipient[r][0]["id"])):
        lane = min(range(len(loads)), key=lambda n: (loads[n], n))
        loads[lane] += len(by_recipient[recipient])
        lanes.setdefault(lane, []).extend(by_recipient[recipient])
    place = {id(row): n for n, row in enumerate(rows)}
    for lane_rows in lanes.values():
        lane_rows.sort(key=lambda row: place[id(row)])  # queue order within the lane
    return lanes


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
        self._loop = asyncio.new_event_loop()
        self._clients: list[aiosmtplib.SMTP | None] = [None] * self.connections

    # --- the Transport protocol -------------------------------------------------
    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        self._loop.run_until_complete(self._send(0, recipient, raw, outbox_id))

    def send_many(self, rows: list, done: Done) -> None:
        """Send a batch over parallel connections; see gm.runtime.delivery.flush for ``done``."""
        self._loop.run_until_complete(self._send_lanes(lanes_of(rows, self.connections), done))

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
    async def _send_lanes(self, lanes: dict[int, list], done: Done) -> None:
        down = asyncio.Event()  # the server is unreachable, or refuses gm's sender: every lane stops

        async def run(lane: int, rows: list) -> None:
            for row in rows:
                if down.is_set():
                    return
                try:
                    await self._send(lane, row["recipient"], row["raw"], row["id"])
                except (TransportDown, SenderRefused) as exc:
                    if not down.is_set():
                        down.set()
                        done(row, exc)
                    return
                except Exception as exc:  # sorted by flush: failed for good, or retry later
                    done(row, exc)
                    continue
                done(row, None)

        await asyncio.gather(*(run(lane, rows) for lane, rows in lanes.items()))

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
