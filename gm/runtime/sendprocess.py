"""The SMTP client in a process of its own, so that sending and judging use two cores.

Judging and sending share one interpreter lock in one process, and the SMTP client took a
sixth of the judge's time.  ProcessTransport keeps the outbox logic in the daemon (the
sender's batch claims rows and records each result, gm.runtime.delivery) and hands only the
sending to a child, ``python -m gm.runtime.sendprocess``: rows go down a pipe (framed
pickles), the child sends them with the transport ``factory`` makes and answers one line a row.
The child loads no store and no rules and holds no secret but the SMTP login.  Should it die,
the rows it did not answer count as TransportDown (they keep their place; the next flush starts
a new child); should the daemon die, the child dies with it (Linux's parent-death signal), so
that nothing accepted goes unmarked and out twice.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import os
import signal
import subprocess
import sys
from multiprocessing.connection import Connection
from typing import IO, TYPE_CHECKING, Any, Callable, cast

from gm.core.logformat import clean_handler
from gm.runtime.transport import (Done, More, PermanentFailure, PolicyRefused, SenderRefused, TemporaryFailure,
                                  TransportDown)

if TYPE_CHECKING:
    from gm.runtime.smtp import SmtpTransport

log = logging.getLogger(__name__)

END = "end"  # the child's last line for a batch
WANT = "want"  # (WANT, n): the child's connections would take n more rows of a streaming batch
# The refusals flush() tells apart, rebuilt from their names on this side of the pipe.
KNOWN = {cls.__name__: cls for cls in (TransportDown, PermanentFailure, TemporaryFailure, SenderRefused,
                                       PolicyRefused)}


def portable(exc: Exception | None) -> tuple[str, str] | None:
    """An outcome the pipe can carry: None (accepted), or the refusal's kind and words."""
    if exc is None:
        return None
    kind = type(exc).__name__
    return (kind, str(exc)) if kind in KNOWN else ("other", f"{kind}: {exc}")


def rebuilt(outcome: tuple[str, str] | None) -> Exception | None:
    if outcome is None:
        return None
    kind, words = outcome
    return KNOWN[kind](words) if kind in KNOWN else RuntimeError(words)


def die_with(parent: int) -> None:
    """Have the kernel kill this process when ``parent`` dies (Linux), and leave at once if it
    has already gone."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:  # no libc to ask: the check before each message is left
            pass
    if os.getppid() != parent:
        raise SystemExit(0)


def serve(inbound: Connection, outbound: Connection, parent: int | None = None) -> None:
    """The child: make the transport the first message names, then send each batch that
    arrives and answer each row, until told to stop.  A batch that streams asks for more rows
    (WANT, n) as the transport's connections empty, and the parent answers with rows (or none)."""
    envelopes: dict[int, str] = {}
    try:
        transport: SmtpTransport = inbound.recv()(envelope=envelopes.__getitem__)
    except (EOFError, OSError):
        return
    try:
        while True:
            batch = inbound.recv()
            if batch is None:
                return
            rows, batch_envelopes, streaming = batch
            envelopes.clear()
            envelopes.update(batch_envelopes)

            def done(row: Any, exc: Exception | None) -> None:
                if parent is not None and os.getppid() != parent:  # the daemon is gone: send no more
                    raise SystemExit(0)
                outbound.send((row["id"], portable(exc)))

            async def ask(n: int) -> list[Any]:
                outbound.send((WANT, n))
                more: list[Any]
                more, more_envelopes = await asyncio.get_running_loop().run_in_executor(None, inbound.recv)
                envelopes.update(more_envelopes)
                return more

            transport.stream(rows, done, ask if streaming else None)
            outbound.send(END)
    except (EOFError, OSError, KeyboardInterrupt):  # the daemon went away: nothing left to answer
        return
    finally:
        transport.close()


class ProcessTransport:
    """A BatchTransport whose sending runs in a child process (see the module doc).

    ``factory(envelope=...)`` makes the real transport in the child; it must be
    picklable (a class and plain settings, through functools.partial).
    ``envelope(outbox_id)`` gives each row's envelope sender, here.
    """

    def __init__(self, factory: Callable[..., Any], envelope: Callable[[int], str]):
        self.factory = factory
        self.envelope = envelope
        self.describe = "the SMTP client's child process"  # named in `gm -v run`'s log
        self.streams = True  # send_many takes ``more``
        # the connections the child's transport sends over at once (its factory's), for the batch size
        self.connections = getattr(factory, "keywords", {}).get("connections")
        self.process: subprocess.Popen[bytes] | None = None
        self.to_child: Connection | None = None
        self.from_child: Connection | None = None

    def start(self) -> None:
        """Start the child ahead of the first batch: its interpreter loads while the daemon logs in
        and reads its first mail, when a core is free anyway."""
        self._child()

    def _child(self) -> tuple[Connection, Connection]:
        alive = self.process is not None and self.process.poll() is None
        if not alive or self.to_child is None or self.from_child is None:  # the pipes go with the child
            self._discard()
            # A fresh interpreter, not a fork: the daemon has threads (and a fork of the
            # benchmark's or a test's process would bring all of it along).
            self.process = subprocess.Popen([sys.executable, "-m", __name__, str(os.getpid())],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            stdin, stdout = cast(IO[bytes], self.process.stdin), cast(IO[bytes], self.process.stdout)  # PIPEs
            self.to_child = Connection(os.dup(stdin.fileno()), readable=False)
            self.from_child = Connection(os.dup(stdout.fileno()), writable=False)
            stdin.close()
            stdout.close()
            self.to_child.send(self.factory)
        return self.to_child, self.from_child

    def _discard(self) -> None:
        for conn in (self.to_child, self.from_child):
            if conn is not None:
                conn.close()
        if self.process is not None:
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = self.to_child = self.from_child = None

    # --- the BatchTransport protocol --------------------------------------------
    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        failures: list[Exception] = []
        self.send_many([{"id": outbox_id, "recipient": recipient, "raw": raw, "attempts": 0}],
                       lambda row, exc: failures.append(exc) if exc is not None else None)
        if failures:
            raise failures[0]

    def send_many(self, rows: list[Any], done: Done, more: More | None = None) -> None:
        """Send rows in the child; ``done`` is called here, as the child answers each row, and
        ``more`` (see gm.runtime.smtp.SmtpTransport.send_many) as the child asks for more."""
        if not rows:
            return
        by_id: dict[int, Any] = {}
        answered: set[int] = set()
        broken = False  # ``more`` failed: the stream ends with what it has

        def batch(rows: list[Any]) -> tuple[list[Any], dict[int, str]]:
            by_id.update((row["id"], row) for row in rows)
            return ([{"id": r["id"], "recipient": r["recipient"], "raw": r["raw"], "attempts": r["attempts"]}
                     for r in rows], {r["id"]: self.envelope(r["id"]) for r in rows})

        try:
            to_child, from_child = self._child()
            to_child.send((*batch(rows), more is not None))
            while True:
                answer = from_child.recv()
                if answer == END:
                    return
                if answer[0] == WANT:
                    got: list[Any] = []
                    if more is not None and not broken:
                        try:
                            got = more(answer[1])
                        except Exception:  # the store: said once, the rows claimed so far go
                            log.exception("claiming more mail to send failed")
                            broken = True
                    to_child.send(batch(got))
                    continue
                outbox_id, outcome = answer
                answered.add(outbox_id)
                done(by_id[outbox_id], rebuilt(outcome))
        except (EOFError, OSError) as exc:
            log.error("the SMTP process stopped (%s); unsent mail keeps its place", exc)
            self._discard()
            left = [row for row in by_id.values() if row["id"] not in answered]
            if left:
                done(left[0], TransportDown(f"the SMTP process stopped: {exc}"))

    def close(self) -> None:
        if self.to_child is not None:
            try:
                self.to_child.send(None)
            except OSError:
                pass
        self._discard()


def main() -> None:
    parent = int(sys.argv[1]) if len(sys.argv) > 1 else None
    if parent is not None:
        die_with(parent)
    inbound = Connection(os.dup(0), writable=False)
    outbound = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)  # print() and the like to stderr: the pipe carries only answers
    logging.basicConfig(level=logging.WARNING,
                        handlers=[clean_handler(logging.StreamHandler(), "gm-smtp: %(levelname)s %(message)s")])
    serve(inbound, outbound, parent)


if __name__ == "__main__":
    main()
