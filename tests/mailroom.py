"""The daemon on its Maildirs, as a test drives it (imported as ``mailroom``): mail delivered into
the inbox Maildir, one pass of gm.runtime.daemon.run, and what it wrote to the outbox Maildir; and
the search of a whole store for secrets (secrets at rest)."""

from __future__ import annotations

import base64
import email
import email.policy
import os
import quopri
import stat
import time
import zlib
from email.message import EmailMessage
from pathlib import Path

from gm.core import config as config_module
from gm.runtime import daemon
from gm.runtime.maildir import ensure_maildir
from gm.service.engine import Engine
from gm.store import Store
from gm.store.packing import MAIL_MARK
from support import GM_ADDRESS


class Mailroom:
    """A gm.yaml in ``tmp_path`` (``extra`` lines appended), its engine on ``clock``, its Maildirs."""

    def __init__(self, tmp_path: Path, extra: str = "", clock=time.time):
        conf = tmp_path / "gm.yaml"
        conf.write_text(f"data_dir: {tmp_path / 'gm-data'}\naddress: {GM_ADDRESS}\n{extra}")
        self.conf = str(conf)
        self.config = config_module.load(conf)
        self.engine = Engine(Store(self.config.database), self.config, clock)
        self.count = 0
        self.seen: set[str] = set()

    def deliver(self, raw: bytes) -> None:
        inbox = ensure_maildir(Path(self.config.inbox))
        self.count += 1
        (inbox / "tmp" / f"{self.count:04d}.in").write_bytes(raw)
        (inbox / "tmp" / f"{self.count:04d}.in").rename(inbox / "new" / f"{self.count:04d}.in")

    def run(self) -> list[tuple[str, EmailMessage]]:
        """One pass of the daemon; the mails it wrote to the outbox Maildir, as (envelope to, mail)."""
        daemon.run(self.engine, self.config, once=True)
        out = []
        new = Path(self.config.outbox) / "new"
        for path in sorted(new.iterdir()) if new.exists() else []:
            if path.name in self.seen:
                continue
            self.seen.add(path.name)
            envelope, _, rest = path.read_bytes().partition(b"\r\n")
            out.append((envelope.split(b":", 1)[1].strip().decode(),
                        email.message_from_bytes(rest, policy=email.policy.default)))
        return out

    def outcomes(self) -> list[str]:
        return [r["outcome"] for r in self.engine.store.all("SELECT outcome FROM messages ORDER BY id")]


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()


# --- searching the whole store ------------------------------------------------------------------------
def readings(value) -> list[str]:
    """Every way a stored value can be read: as text, unpacked (gm.store.packing), and, if it is a
    mail, each MIME part decoded from its transfer encoding."""
    if value is None or isinstance(value, (int, float)):
        return []
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogateescape")
    else:
        data = bytes(value)
    found = [data]
    for unpack in (lambda d: zlib.decompress(d[len(MAIL_MARK):]) if d.startswith(MAIL_MARK) else None,
                   zlib.decompress):
        try:
            unpacked = unpack(data)
        except zlib.error:
            continue
        if unpacked is not None:
            found.append(unpacked)
    texts = []
    for blob in found:
        texts.append(blob.decode("latin-1"))
        msg = email.message_from_bytes(blob, policy=email.policy.compat32)
        for part in msg.walk():
            if part.is_multipart():
                continue
            raw_payload = part.get_payload()
            payload = raw_payload.encode("latin-1", "replace") if isinstance(raw_payload, str) else b""
            for decode in (base64.b64decode, quopri.decodestring):
                try:
                    texts.append(decode(payload).decode("latin-1"))
                except Exception:
                    pass
    return texts


def leaks(engine, secrets: list[str]) -> list[tuple[str, str, str]]:
    """(table, column, secret) for every secret found anywhere in the store."""
    store = engine.store
    out = []
    for table in store.table_names():
        for row in store.all(f"SELECT * FROM {table}"):
            for column in row.keys():
                for text in readings(row[column]):
                    out += [(table, column, s) for s in secrets if s in text]
    return sorted(set(out))


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)
