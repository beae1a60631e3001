"""One IMAP session on the orders folder: log in, search, fetch, flag and move.

A message is known by ``imap:UIDVALIDITY:UID``; it is read with BODY.PEEK[] so that reading
alone never marks it, and flagged \\Seen and moved to the processed folder only after the
transaction of everything it caused has committed (gm.runtime.imap).  Where two daemons
share the mailbox, ours_to_move says which of them moves a message both judged.
"""

from __future__ import annotations

import logging
import os

from imapclient import IMAPClient

from gm.core.config import ServerConfig
from gm.runtime.tls import tls_context

log = logging.getLogger(__name__)

PROCESSED_KEYWORD = "$GmProcessed"
# For the crash tests: GM_CRASH_AT=after-commit|after-flag ends the process at that point.
CRASH_ENV = "GM_CRASH_AT"


def crash_point(name: str) -> None:
    """End the process here if the crash tests' CRASH_ENV names this point."""
    if os.environ.get(CRASH_ENV) == name:
        log.error("crash hook %s: exiting now", name)
        logging.shutdown()
        os._exit(70)


def connect(server: ServerConfig) -> IMAPClient:
    """A logged-in IMAPClient with the config's TLS mode."""
    context = tls_context(server) if server.tls != "none" else None
    port = server.default_port(993, 143)
    client = IMAPClient(server.host, port=port, ssl=server.tls == "implicit", ssl_context=context,
                        timeout=server.timeout)
    try:
        if server.tls == "starttls":
            client.starttls(context)
        if server.user:
            client.login(server.user, server.password() or "")
    except BaseException:
        close_session(client)
        raise
    return client


def close_session(client: IMAPClient | None) -> None:
    """Drop a session's socket, quietly."""
    if client is None:
        return
    try:
        client.shutdown()  # no LOGOUT: after a fault it could wait for a dead server
    except Exception:
        pass


class Mailbox:
    """One logged-in session on the orders folder."""

    def __init__(self, client: IMAPClient, folder: str, processed: str):
        self.client = client
        self.folder = folder
        self.processed = processed
        if not client.folder_exists(processed):
            client.create_folder(processed)
        info = client.select_folder(folder)
        self.uidvalidity = int(info[b"UIDVALIDITY"])
        caps = client.capabilities()
        self.can_move = b"MOVE" in caps
        self.can_uid_expunge = b"UIDPLUS" in caps
        self.can_idle = b"IDLE" in caps
        flags = info.get(b"PERMANENTFLAGS", ())
        self.keywords = b"\\*" in flags
        self.others: dict[int, float] = {}  # uid -> when found committed by another daemon
        self.slice_keys: dict[int, str] = {}  # uid -> what slices divide the mailbox by (gm.runtime.slices)
        self.arrived: dict[int, float] = {}  # uid -> when the server says it came (INTERNALDATE)

    def changed(self) -> bool:
        """NOOP: did new mail arrive since the last command?"""
        _, responses = self.client.noop()
        return any(isinstance(r, tuple) and len(r) > 1 and r[1] in (b"EXISTS", b"RECENT")
                   for r in responses)

    def key(self, uid: int) -> str:
        return f"imap:{self.uidvalidity}:{uid}"

    def pending(self) -> list[int]:
        return sorted(self.client.search(["NOT", "DELETED"]))

    def forget_gone(self, still: set[int]) -> None:
        """Forget what is noted of messages no longer in the folder (``still``: those that are)."""
        self.others = {u: at for u, at in self.others.items() if u in still}
        self.slice_keys = {u: k for u, k in self.slice_keys.items() if u in still}
        self.arrived = {u: at for u, at in self.arrived.items() if u in still}

    def fetch(self, uids: list[int], limit: int) -> dict[int, bytes]:
        """The messages, each cut at limit + 1 bytes: enough to see one is too big; when each
        came is noted in ``arrived``."""
        part = f"BODY.PEEK[]<0.{limit + 1}>"
        out = {}
        for uid, data in self.client.fetch(uids, [part, "INTERNALDATE"]).items():
            raw = next((v for k, v in data.items() if k.startswith(b"BODY[")), None)
            if raw is not None:
                out[uid] = bytes(raw)
            came = data.get(b"INTERNALDATE")
            if came is not None:
                self.arrived[uid] = came.timestamp()
        return out

    def done(self, uids: list[int]) -> None:
        """Flag the processed messages and move them out of the inbox."""
        if not uids:
            return
        flags = [b"\\Seen", PROCESSED_KEYWORD.encode()] if self.keywords else [b"\\Seen"]
        self.client.add_flags(uids, flags, silent=True)
        crash_point("after-flag")
        if self.can_move:
            self.client.move(uids, self.processed)
            return
        self.client.copy(uids, self.processed)
        self.client.add_flags(uids, [b"\\Deleted"], silent=True)
        if self.can_uid_expunge:
            self.client.uid_expunge(uids)
        else:
            self.client.expunge()


def ours_to_move(box: Mailbox, uid: int, outcome: str, now: float, wait: float) -> bool:
    """Does this daemon move the message?  Yes unless another committed it just now (that one
    moves it; both moving at once may copy it twice) and it has not stayed ``wait`` since.  Never
    one another daemon is judging now (busy): looked at again soon, it is a duplicate or, if that
    daemon died, judged here."""
    if outcome == "busy":
        box.others.setdefault(uid, now)
        return False
    if outcome != "duplicate" or wait <= 0:
        box.others.pop(uid, None)
        return True
    first = box.others.setdefault(uid, now)
    if now - first >= wait:
        del box.others[uid]
        return True
    return False
