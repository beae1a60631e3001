"""VERP: the envelope sender of every message names its outbox row, so a bounce names it too.

A message goes out with the envelope sender ``<local>+bounce-<outbox id>-<tag>@<domain>``,
the tag being HMAC-SHA256 of the id under a server secret (gm.core.secrets), cut to
TAG_CHARS lower-case hex digits (some servers fold the local part's case).  A bounce tells
which message failed whatever its text says, and one whose tag does not check is ignored.
``verp: false`` turns it off for mailboxes without plus addressing; bounces are then
matched by the quoted Message-ID (gm.service.outgoing.bounces).  Addresses are read with
string methods, in time linear in their length.
"""

from __future__ import annotations

import hashlib
import hmac
from gm.core.value import valueclass
from typing import TYPE_CHECKING

from gm.core.secrets import load_or_create

if TYPE_CHECKING:
    from gm.core.config import Config

TAG = "bounce"
TAG_CHARS = 16  # 64 bits of HMAC: guessing one takes 2**63 tries on average
MAX_ID_DIGITS = 18


@valueclass(frozen=True)
class VerpMatch:
    """An address of our VERP form: the outbox id it names and whether its tag checks."""

    outbox_id: int
    valid: bool


@valueclass(frozen=True)
class Verp:
    address: str  # our own address: its local part and domain frame the VERP address
    secret: bytes
    enabled: bool = True

    def tag(self, outbox_id: int) -> str:
        return hmac.new(self.secret, f"{TAG}:{outbox_id}".encode("ascii"), hashlib.sha256).hexdigest()[:TAG_CHARS]

    def envelope(self, outbox_id: int) -> str:
        """The envelope sender for outbox row ``outbox_id`` (our plain address when VERP is off)."""
        if not self.enabled or "@" not in self.address:
            return self.address
        local, _, domain = self.address.rpartition("@")
        return f"{local}+{TAG}-{outbox_id}-{self.tag(outbox_id)}@{domain}"

    def match(self, address: str) -> VerpMatch | None:
        """The outbox row an address of our VERP form names, or None if it is not of that form.

        The form is checked whether or not VERP is on now: bounces of mail sent
        before it was turned off still arrive.
        """
        found = parse(address, self.address)
        if found is None:
            return None
        outbox_id, tag = found
        return VerpMatch(outbox_id, hmac.compare_digest(tag, self.tag(outbox_id)))


def parse(address: str, our_address: str) -> tuple[int, str] | None:
    """(outbox id, tag) of an address of our VERP form (its tag not checked), else None."""
    address = address.strip().strip("<>").strip().lower()
    local, at, domain = address.rpartition("@")
    our_local, _, our_domain = our_address.lower().rpartition("@")
    if not at or domain != our_domain:
        return None
    prefix = f"{our_local}+{TAG}-"
    if not local.startswith(prefix):
        return None
    number, dash, tag = local[len(prefix):].partition("-")
    if not dash or not number.isdigit() or not number.isascii() or len(number) > MAX_ID_DIGITS:
        return None
    return int(number), tag


def first_of_ours(addresses: list[str], our_address: str) -> str | None:
    """The first of ``addresses`` that has our VERP form (its tag not checked), else None."""
    for address in addresses:
        if parse(address, our_address) is not None:
            return address
    return None


def from_config(config: Config) -> Verp:
    """Our Verp, its secret read from (or made in) the config's verp_secret_file."""
    return Verp(config.address, load_or_create(config.verp_secret_file), bool(config.verp))
