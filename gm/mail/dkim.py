"""DKIM: signing the mail gm sends (RFC 6376), and making a key to sign it with.

When the config names ``dkim_selector`` and ``dkim_key_file`` (``dkim_domain``
defaults to the domain of ``address``), gm.service.outbox signs every message
as it is queued, so the outbox stores the signed bytes and a retry sends
exactly them.  Signing is dkimpy's: rsa-sha256, relaxed/relaxed, over the
headers in SIGNED_HEADERS.

compose() writes LF line ends and the signature header is folded with LF
too; relaxed canonicalisation reads either, and the SMTP client sends CRLF,
so the signature verifies on the bytes the server receives.

The key is read and parsed once, when the service starts (Signer.from_config):
a missing, unreadable or malformed key file is a ConfigError then, never a
fault in the middle of a turn.

generate_key() makes an RSA key in pure Python (the standard library's
``secrets`` and ``pow``), so ``gm dkim keygen`` needs neither OpenSSL nor
the ``cryptography`` package; dns_record() is the TXT record to publish.

dkimpy is imported where it is used: it brings dnspython, a tenth of a second
that a gm command with no DKIM key has no need to pay.
"""

from __future__ import annotations

import base64
import logging
import math
import secrets
from dataclasses import dataclass
from pathlib import Path

from gm.core.config import Config, ConfigError

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
RSA_ENCRYPTION_OID = bytes.fromhex("2a864886f70d010101")  # 1.2.840.113549.1.1.1

__all__ = ["DEFAULT_BITS", "MIN_BITS", "SIGNED_HEADERS", "Signer", "dns_record", "domain_of",
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
            return cls(config.dkim_selector, domain, key)
        except ValueError as exc:
            raise ConfigError(f"dkim_key_file {path}: {exc}") from exc

    def sign(self, raw: bytes) -> bytes:
        """``raw`` with a DKIM-Signature header in front (line ends as in ``raw``).

        A message dkimpy cannot sign is logged and returned unsigned: a report sent unsigned is
        better than a turn that cannot be committed.
        """
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
def key_bits(pem: bytes) -> int:
    """The modulus size of a PEM RSA private key (PKCS#1 or PKCS#8); ValueError if it is not one."""
    from dkim.crypto import parse_pem_private_key

    try:
        key = parse_pem_private_key(pem.replace(b"\r\n", b"\n"))
    except Exception as exc:  # dkimpy's ASN.1 reader raises more than UnparsableKeyError on garbage
        raise ValueError(f"not a PEM RSA private key ({str(exc).splitlines()[0] if str(exc) else exc})") \
            from exc
    return key["modulus"].bit_length()


def public_key_b64(pem: bytes) -> str:
    """The public half of a PEM RSA private key: SubjectPublicKeyInfo DER in base64, DKIM's p=."""
    from dkim.crypto import parse_pem_private_key

    key = parse_pem_private_key(pem.replace(b"\r\n", b"\n"))
    rsa_public = _sequence(_integer(key["modulus"]), _integer(key["publicExponent"]))
    algorithm = _sequence(_der(0x06, RSA_ENCRYPTION_OID), _der(0x05, b""))
    spki = _sequence(algorithm, _der(0x03, b"\x00" + rsa_public))
    return base64.b64encode(spki).decode("ascii")


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
    if bits < MIN_BITS or bits % 2:
        raise ValueError(f"the key size must be an even number of bits, at least {MIN_BITS}")
    while True:
        p, q = _prime(bits // 2), _prime(bits - bits // 2)
        n = p * q
        if p != q and n.bit_length() == bits:
            break
    if p < q:
        p, q = q, p
    d = pow(PUBLIC_EXPONENT, -1, math.lcm(p - 1, q - 1))
    der = _sequence(*(_integer(v) for v in (0, n, PUBLIC_EXPONENT, d, p, q, d % (p - 1), d % (q - 1),
                                            pow(q, -1, p))))
    body = base64.b64encode(der).decode("ascii")
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return ("-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(lines)
            + "\n-----END RSA PRIVATE KEY-----\n").encode("ascii")


SMALL_PRIMES = [n for n in range(3, 2000) if all(n % d for d in range(2, int(n ** 0.5) + 1))]


def _prime(bits: int) -> int:
    """A random prime of exactly ``bits`` bits (top two bits set) with p - 1 prime to e."""
    while True:
        candidate = secrets.randbits(bits) | (0b11 << (bits - 2)) | 1
        if any(candidate % s == 0 for s in SMALL_PRIMES):
            continue
        if (candidate - 1) % PUBLIC_EXPONENT == 0:
            continue
        if _probably_prime(candidate):
            return candidate


def _probably_prime(n: int, rounds: int = 40) -> bool:
    """Miller-Rabin with random bases."""
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(rounds):
        a = 2 + secrets.randbelow(n - 3)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def _der(tag: int, content: bytes) -> bytes:
    size = len(content)
    if size < 0x80:
        length = bytes([size])
    else:
        raw = size.to_bytes((size.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + length + content


def _integer(value: int) -> bytes:
    return _der(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))  # a leading 0: never negative


def _sequence(*items: bytes) -> bytes:
    return _der(0x30, b"".join(items))
