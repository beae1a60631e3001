"""DKIM: signing the mail gm sends (RFC 6376), and making a key to sign it with.

With ``dkim_selector`` and ``dkim_key_file`` set, gm.service.outgoing.outbox signs each
message as it is queued, so a retry sends exactly the signed bytes (dkimpy: rsa-sha256,
relaxed/relaxed, over SIGNED_HEADERS; relaxed canonicalisation reads LF or CRLF alike).
The key is read once at start (Signer.from_config): a bad key file is a ConfigError then,
never a fault mid-turn.  generate_key() uses the ``cryptography`` package; dns_record()
is the TXT record to publish.  dkimpy is imported where it is used: it brings dnspython,
a tenth of a second a gm command without DKIM need not pay.
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gm.core.config import ConfigError

if TYPE_CHECKING:
    from gm.core.config import Config

log = logging.getLogger(__name__)

# The headers compose() writes that a reader relies on.  Those absent from a message (In-Reply-To
# and References on a report) are left out of h= by dkimpy.
SIGNED_HEADERS = (
    "From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References", "MIME-Version",
    "Content-Type", "Content-Transfer-Encoding", "Auto-Submitted",
)
CANONICALIZE = (b"relaxed", b"relaxed")
ALGORITHM = b"rsa-sha256"
MIN_BITS = 1024  # RFC 8301: verifiers refuse shorter RSA keys
DEFAULT_BITS = 2048
PUBLIC_EXPONENT = 65537
# Room compose() leaves for the DKIM-Signature header so a signed message still fits in
# MAX_OUTGOING_BYTES: a 2048-bit key's header is about 600 bytes, an 8192-bit key's under 1,900.
SIGNATURE_RESERVE = 2048

__all__ = ["DEFAULT_BITS", "MIN_BITS", "SIGNATURE_RESERVE", "SIGNED_HEADERS", "Signer", "dns_record", "domain_of",
           "generate_key", "public_key_b64"]


def domain_of(address: str) -> str:
    """The domain part of an address (``localhost`` for a bare name)."""
    return address.rsplit("@", 1)[-1].strip().lower() if "@" in address else "localhost"


@dataclass(frozen=True)
class Signer:
    """Signs raw messages for one selector and domain with one private key (PEM bytes)."""

    selector: str
    domain: str
    key: bytes
    key_file: str = ""  # where the key was read (from_config): what signs a mail finished later

    @property
    def reserve(self) -> int:
        """Room compose() leaves for this signer's DKIM-Signature header (SIGNATURE_RESERVE)."""
        return SIGNATURE_RESERVE

    @property
    def named(self) -> tuple[str, str, str] | None:
        """(selector, domain, key file): who signs a mail its sender finishes (gm.mail.outbound.
        compose's ``signer``), the key read from its file then, never kept in the store."""
        return (self.selector, self.domain, self.key_file) if self.key_file else None

    def __post_init__(self):
        bits = key_bits(self.key)  # raises ValueError for a key that is not an RSA private key
        if bits < MIN_BITS:
            raise ValueError(f"the key has {bits} bits; DKIM verifiers refuse fewer than {MIN_BITS}")

    @classmethod
    def from_config(cls, config: Config) -> "Signer | None":
        """The signer the config asks for, or None if it names no DKIM selector.

        Raises ConfigError when the key file is missing, unreadable or not an RSA private key.
        """
        if not config.dkim_selector:
            return None
        if not config.dkim_key_file:
            raise ConfigError("dkim_selector is set but dkim_key_file is not: name the private key file "
                              "(gm dkim keygen --out FILE makes one)")
        path = Path(config.dkim_key_file).expanduser()
        try:
            key = path.read_bytes()
        except OSError as exc:
            raise ConfigError(f"dkim_key_file {path}: cannot read it ({exc.strerror or exc}); "
                              "gm dkim keygen --out FILE makes one") from exc
        domain = config.dkim_domain or domain_of(config.address)
        try:
            return cls(config.dkim_selector, domain, key, str(path))
        except ValueError as exc:
            raise ConfigError(f"dkim_key_file {path}: {exc}") from exc

    def sign(self, raw: bytes) -> bytes:
        """``raw`` with a DKIM-Signature header in front (line ends as in ``raw``).

        A message dkimpy cannot sign is logged and returned unsigned: a report sent unsigned is
        better than a turn that cannot be committed.  A message its sender finishes (its pictures
        still to draw: gm.mail.outbound.is_later) is returned as it is: it is signed then.
        """
        from gm.mail.outbound import is_later

        if is_later(raw):
            return raw
        import dkim

        linesep = b"\r\n" if b"\r\n" in raw[:raw.find(b"\n") + 1] else b"\n"
        try:
            header = dkim.sign(raw, self.selector.encode("ascii"), self.domain.encode("ascii"), self.key,
                               canonicalize=CANONICALIZE, signature_algorithm=ALGORITHM,
                               include_headers=[h.encode("ascii") for h in SIGNED_HEADERS],
                               linesep=linesep)
        except (dkim.DKIMException, UnicodeError) as exc:
            log.error("DKIM: message left unsigned: %s", exc)
            return raw
        return header + raw

    def dns_record(self) -> str:
        return dns_record(self.selector, self.domain, self.key)


# --- keys ----------------------------------------------------------------------------
# Key generation and the public half come from the ``cryptography`` package: key generation is
# exactly the code a project should not write itself.  It is imported where it is used, like dkimpy.
def _private_key(pem: bytes):
    from cryptography.hazmat.primitives import serialization

    try:
        return serialization.load_pem_private_key(pem.replace(b"\r\n", b"\n"), password=None)
    except Exception as exc:  # garbage, a truncated file, an encrypted key
        raise ValueError(f"not a PEM RSA private key ({str(exc).splitlines()[0] if str(exc) else exc})") \
            from exc


def key_bits(pem: bytes) -> int:
    """The modulus size of a PEM RSA private key (PKCS#1 or PKCS#8); ValueError if it is not one."""
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = _private_key(pem)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValueError("not an RSA key")
    return key.key_size


def public_key_b64(pem: bytes) -> str:
    """The public half of a PEM RSA private key: SubjectPublicKeyInfo DER in base64, DKIM's p=."""
    from cryptography.hazmat.primitives import serialization

    der = _private_key(pem).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(der).decode("ascii")


def dns_record(selector: str, domain: str, pem: bytes) -> str:
    """The TXT record that publishes ``pem``'s public key, in zone-file form.

    A DNS character-string holds at most 255 bytes, so a longer value is given as several quoted
    strings, which resolvers join into one.
    """
    value = f"v=DKIM1; k=rsa; p={public_key_b64(pem)}"
    chunks = [value[i:i + 255] for i in range(0, len(value), 255)]
    return f"{selector}._domainkey.{domain} IN TXT " + " ".join(f'"{c}"' for c in chunks)


def generate_key(bits: int = DEFAULT_BITS) -> bytes:
    """A new RSA private key of ``bits`` bits (e = 65537), as PKCS#1 PEM."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    if bits < MIN_BITS or bits % 2:
        raise ValueError(f"the key size must be an even number of bits, at least {MIN_BITS}")
    key = rsa.generate_private_key(public_exponent=PUBLIC_EXPONENT, key_size=bits)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                             serialization.NoEncryption())
