"""Sending the outbox over SMTP with aiosmtplib.

The daemon is synchronous (imapclient), so the transport keeps its own event
loop and one SMTP connection that is reused from message to message and
reopened when the server has closed it.  Faults are sorted for the sender
loop in gm.delivery: the server cannot be reached (TransportDown: wait, then
retry the queue in order), the server refuses this message for good
(PermanentFailure, a 5xx), or anything else (retry this message later).
"""

from __future__ import annotations

import asyncio
import logging
import ssl

import aiosmtplib

from gm.config import ServerConfig
from gm.delivery import PermanentFailure, TransportDown

log = logging.getLogger(__name__)


def tls_context(server: ServerConfig) -> ssl.SSLContext:
    context = ssl.create_default_context()
    if not server.tls_verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


class SmtpTransport:
    def __init__(self, server: ServerConfig, envelope_from: str = ""):
        self.server = server
        self.envelope_from = envelope_from
        self.port = server.default_port(465, 587 if server.tls == "starttls" else 25)
        self._loop = asyncio.new_event_loop()
        self._client: aiosmtplib.SMTP | None = None

    # --- the Transport protocol -------------------------------------------------
    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        self._loop.run_until_complete(self._send(recipient, raw))

    def close(self) -> None:
        if self._client is not None:
            try:
                self._loop.run_until_complete(asyncio.wait_for(self._client.quit(), 5))
            except Exception:  # the server may already be gone
                pass
            self._client = None
        self._loop.close()

    # --- internals ------------------------------------------------------------------
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

    def _drop(self) -> None:
        if self._client is not None:
            self._client.close()
        self._client = None

    async def _send(self, recipient: str, raw: bytes) -> None:
        for attempt in (1, 2):
            if self._client is None or not self._client.is_connected:
                self._drop()
                self._client = await self._connect()
            try:
                await self._client.sendmail(self.envelope_from, [recipient], raw)
                return
            except aiosmtplib.SMTPRecipientsRefused as exc:
                codes = [e.code for e in exc.recipients]
                self._drop()
                if codes and all(500 <= c < 600 for c in codes):
                    raise PermanentFailure(str(exc)) from exc
                raise
            except aiosmtplib.SMTPServerDisconnected as exc:
                # An idle connection the server closed: reopen once, then call it down.
                self._drop()
                if attempt == 2:
                    raise TransportDown(str(exc)) from exc
            except aiosmtplib.SMTPResponseException as exc:
                self._reset_after_error()
                if 500 <= exc.code < 600:
                    raise PermanentFailure(f"{exc.code} {exc.message}") from exc
                raise
            except (aiosmtplib.SMTPConnectError, aiosmtplib.SMTPTimeoutError, OSError,
                    asyncio.TimeoutError) as exc:
                self._drop()
                raise TransportDown(str(exc)) from exc

    def _reset_after_error(self) -> None:
        # After a refused transaction the connection may be mid-dialogue: start afresh.
        self._drop()
