"""The checks of `gm doctor` that talk to servers: IMAP, SMTP (and its view of gm's VERP
sender), DNS for the DKIM key, and this host's clock against the servers' clocks.  Each returns
Check lines; none sends mail unless asked.

The clock is read against the only outside clocks gm already talks to, no other network: the
INTERNALDATE the IMAP server gives a probe appended to gm's processed folder (flagged deleted and
expunged by its UID at once; only where the server has UIDPLUS), and the date in the SMTP
server's greeting where it gives one (Sendmail and Exchange do, Postfix does not).
"""

from __future__ import annotations

import asyncio
import email.utils
import re
import time
from dataclasses import dataclass
from typing import Callable

import aiosmtplib

from gm.core.config import ServerConfig
from gm.mail import dkim as dkim_keys
from gm.runtime import imapfolder
from gm.runtime.tls import tls_context

OK, WARN, FAIL = "ok", "warn", "FAIL"
LOOPBACK = ("127.0.0.1", "::1", "localhost")  # a relay here needs no TLS: nothing crosses a network
# Seconds of skew: ok within two minutes; a warning up to fifteen; beyond, deadlines, heartbeats
# and DKIM signatures (t=, x=) are read wrong enough to fail.
CLOCK_OK, CLOCK_FAIL = 120.0, 900.0
CLOCK_ADVICE = "set the system clock (NTP): deadlines, heartbeats and DKIM signatures read it"
PROBE = (b"From: gm doctor <gm-doctor@localhost>\r\nSubject: gm doctor clock probe\r\n\r\n"
         b"gm doctor reads the server's clock from this message's INTERNALDATE and removes it.\r\n")
DATE_IN_TEXT = re.compile(r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), +\d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d(?::\d\d)? "
                          r"(?:[+-]\d{4}|UT|GMT|[A-Z]{3})")


@dataclass(frozen=True)
class Check:
    name: str
    verdict: str  # OK, WARN or FAIL
    detail: str = ""
    advice: str = ""


def words(exc: BaseException) -> str:
    """What a server said, as text (imaplib's errors carry bytes, which imapclient's login error
    hands on as their repr: b'...')."""
    said = exc.args[0] if exc.args else exc
    if isinstance(said, str) and re.fullmatch(r"b(['\"]).*\1", said, re.S):
        said = said[2:-1].encode("latin-1", "replace")
    return said.decode("utf-8", "replace") if isinstance(said, bytes) else str(exc)


def clock_check(name: str, theirs: float, ours: float, what: str) -> Check:
    """This host's clock (``ours``) against a server's (``theirs``, read at the same moment)."""
    skew = ours - theirs
    said = f"{what}: this clock is {'ahead' if skew >= 0 else 'behind'} by {abs(skew):.0f} s"
    if abs(skew) <= CLOCK_OK:
        return Check(name, OK, said)
    return Check(name, WARN if abs(skew) <= CLOCK_FAIL else FAIL, said, CLOCK_ADVICE)


def date_in(text: str) -> float | None:
    """The first RFC 5322 date in ``text`` (a server's greeting), as epoch seconds."""
    match = DATE_IN_TEXT.search(text)
    if match is None:
        return None
    try:
        return email.utils.parsedate_to_datetime(match.group(0)).timestamp()
    except (TypeError, ValueError):
        return None


def imap_clock(client, folder: str) -> Check | None:
    """The server's clock from a probe's INTERNALDATE (see the module doc), appended to ``folder``
    flagged deleted (gm's search skips such mail) and expunged by its UID; None where the server
    has no UIDPLUS (no UID to expunge the probe alone by)."""
    if b"UIDPLUS" not in client.capabilities():
        return None
    before = time.time()
    said = client.append(folder, PROBE, flags=(b"\\Seen", b"\\Deleted"))
    after = time.time()
    match = re.search(rb"APPENDUID \d+ (\d+)", said if isinstance(said, bytes) else b"")
    if match is None:
        return None
    uid = int(match.group(1))
    client.select_folder(folder)
    try:
        client.normalise_times = False  # the date with its zone, not made naive local time
        data = client.fetch([uid], ["INTERNALDATE"]).get(uid, {})
    finally:
        client.uid_expunge([uid])
    when = data.get(b"INTERNALDATE")
    if when is None:
        return None
    return clock_check("clock vs IMAP", when.timestamp(), (before + after) / 2,
                       f"the server's INTERNALDATE {when.isoformat()}")


def imap_checks(server: ServerConfig, folder: str, processed: str, want_idle: bool) -> list[Check]:
    """Login, the inbox and processed folders, IDLE, the server's clock."""
    where = f"{server.host}:{server.default_port(993, 143)}"
    try:
        client = imapfolder.connect(server)
    except Exception as exc:
        return [Check("IMAP login", FAIL, f"{where}: {words(exc)}",
                      "check imap host, port, tls, user and the password file or variable")]
    checks = [Check("IMAP login", OK, f"{where} as {server.user}")]
    try:
        for name in (folder, processed):
            if client.folder_exists(name):
                checks.append(Check(f"IMAP folder {name}", OK))
            elif name == processed:
                checks.append(Check(f"IMAP folder {name}", OK, "missing; gm makes it on first run"))
            else:
                checks.append(Check(f"IMAP folder {name}", FAIL, "missing", "set imap_folder to a folder "
                                    "that exists"))
        idle = b"IDLE" in client.capabilities()
        if idle or not want_idle:
            checks.append(Check("IMAP IDLE", OK, "offered" if idle else "not used (imap_idle: false)"))
        else:
            checks.append(Check("IMAP IDLE", WARN, "not offered", "gm polls every poll_seconds instead"))
        try:
            # gm's processed folder where it is there already, else the inbox
            clock = imap_clock(client, processed if client.folder_exists(processed) else folder)
        except Exception as exc:  # a server that refuses the probe: say so, nothing more
            clock = Check("clock vs IMAP", WARN, f"not read: {words(exc)}")
        if clock is not None:
            checks.append(clock)
    finally:
        try:
            client.logout()
        except Exception:
            pass
    return checks


def smtp_checks(server: ServerConfig, sender: str, send_test: str | None = None,
                raw: bytes | None = None) -> list[Check]:
    """Connect, TLS, AUTH, and MAIL FROM:<sender> (then RSET); a test mail only to ``send_test``."""
    return asyncio.run(_smtp_checks(server, sender, send_test, raw))


async def _smtp_checks(server: ServerConfig, sender: str, send_test: str | None, raw: bytes | None) -> list[Check]:
    port = server.default_port(465, 587 if server.tls == "starttls" else 25)
    where = f"{server.host}:{port}"
    client = aiosmtplib.SMTP(hostname=server.host, port=port, timeout=server.timeout,
                             use_tls=server.tls == "implicit", start_tls=server.tls == "starttls",
                             tls_context=tls_context(server) if server.tls != "none" else None)
    try:
        greeting = await client.connect()
    except Exception as exc:
        return [Check("SMTP connect", FAIL, f"{where}: {exc}", "check smtp host, port and tls")]
    checks = [Check("SMTP connect", OK, where)]
    theirs = date_in(greeting.message)
    if theirs is not None:
        checks.append(clock_check("clock vs SMTP", theirs, time.time(), "the date in the server's greeting"))
    try:
        if server.tls == "none" and server.host in LOOPBACK:
            checks.append(Check("SMTP TLS", OK, "none (a relay on this host)"))
        elif server.tls == "none":
            checks.append(Check("SMTP TLS", WARN, "tls: none", "use starttls or implicit on a relay "
                                "beyond this host"))
        else:
            checks.append(Check("SMTP TLS", OK, server.tls))
        if server.user:
            try:
                await client.login(server.user, server.password() or "")
                checks.append(Check("SMTP AUTH", OK, f"as {server.user}"))
            except aiosmtplib.SMTPException as exc:
                checks.append(Check("SMTP AUTH", FAIL, str(exc), "check smtp user and password"))
                return checks
        else:
            checks.append(Check("SMTP AUTH", OK, "none configured"))
        try:
            await client.mail(sender)
            checks.append(Check("SMTP MAIL FROM", OK, f"<{sender}> accepted"))
        except aiosmtplib.SMTPResponseException as exc:
            checks.append(Check("SMTP MAIL FROM", FAIL, f"<{sender}> refused: {exc.code} {exc.message}",
                                "let the relay accept plus addresses, or set verp: false"))
            return checks
        await client.rset()
        if send_test:
            try:
                await client.sendmail(sender, [send_test], raw or b"")
                checks.append(Check("SMTP test mail", OK, f"sent to {send_test}"))
            except aiosmtplib.SMTPException as exc:
                checks.append(Check("SMTP test mail", FAIL, str(exc)))
    finally:
        try:
            await client.quit()
        except Exception:
            client.close()
    return checks


TxtLookup = Callable[[str], "list[str] | None"]


def dns_txt(name: str) -> list[str] | None:
    """The TXT strings at ``name`` from the system's resolver; None when dnspython is absent."""
    try:
        import dns.resolver
    except ImportError:
        return None
    try:
        answer = dns.resolver.resolve(name, "TXT", lifetime=5)
    except Exception:
        return []
    return [b"".join(rdata.strings).decode("ascii", "replace") for rdata in answer]


def published_key(record: str) -> str:
    """The p= of a DKIM TXT record (spaces dropped), or ''."""
    for tag in record.split(";"):
        key, _, value = tag.strip().partition("=")
        if key.strip() == "p":
            return "".join(value.split())
    return ""


def dkim_check(pem: bytes, selector: str, domain: str, lookup: TxtLookup | None = dns_txt) -> Check:
    """The key's public half against the record published at selector._domainkey.domain."""
    try:
        ours = dkim_keys.public_key_b64(pem)
    except ValueError as exc:
        return Check("DKIM key", FAIL, str(exc), "gm dkim keygen makes one")
    name = f"{selector}._domainkey.{domain}"
    record = dkim_keys.dns_record(selector, domain, pem)
    answers = lookup(name) if lookup is not None else None
    if answers is None:
        return Check("DKIM DNS", WARN, "not looked up (pip install gm[dns])", f"publish: {record}")
    if not answers:
        return Check("DKIM DNS", WARN, f"no TXT record at {name}", f"publish: {record}")
    if any(published_key(text) == ours for text in answers):
        return Check("DKIM DNS", OK, f"{name} matches the key")
    return Check("DKIM DNS", FAIL, f"{name} publishes another key", f"publish: {record}")
