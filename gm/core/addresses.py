"""Mail addresses as people have them: one form for every address gm stores, compares and sends to.

normal() is the one door: an address from the GM, a mail's From, SET ADDRESS or the config comes
out of it in the form gm keeps, or not at all.  That form is NFC-normalised; without case (the
domain by RFC 5321, the local part so nobody plays twice as Ada@ and ada@); with its domain in
A-label form (IDNA 2008 with the UTS 46 mapping of the ``idna`` package, as mail clients map what
people type); and with a UTF-8 local part kept as it is, mail to which needs SMTPUTF8 (RFC 6531;
needs_smtputf8, gm.runtime.smtp).

Linear time, whatever comes in: a domain is encoded only within MAX_DOMAIN characters and labels
of MAX_LABEL (the punycode encoder is quadratic in a label's length); an A-label is never decoded.
"""

from __future__ import annotations

import unicodedata


from gm.core import text as safe_text

MAX_ADDR_SPEC = 254  # octets (RFC 5321 4.5.3.1.3: a path of 256 with its brackets)
MAX_LOCAL = 64  # octets of the local part (RFC 5321 4.5.3.1.1; RFC 6531 counts UTF-8 octets)
MAX_DOMAIN = 253  # characters of a domain name
MAX_LABEL = 63  # characters of one label
MAX_DISPLAY_NAME = 100  # characters of a display name kept for a seat

# RFC 5322 3.2.3 atext, the ASCII characters of an unquoted local part (besides the dots);
# RFC 6531 adds every non-ASCII character (UTF8-non-ascii) that is printable and not a space.
_ATEXT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")
_LDH = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
_REPLACEMENT = "\ufffd"  # what a byte that was not UTF-8 became: never part of an address


def _local_ok(local: str) -> bool:
    if not local or len(local.encode("utf-8")) > MAX_LOCAL:
        return False
    if len(local) >= 2 and local[0] == '"' and local[-1] == '"':  # a quoted string: ASCII only
        inner = local[1:-1]
        return inner.isascii() and inner.isprintable() and '"' not in inner.replace('\\"', "")
    if local[0] == "." or local[-1] == "." or ".." in local:
        return False
    return all(c in _ATEXT or c == "." or (not c.isascii() and c.isprintable() and not c.isspace()
                                            and c != _REPLACEMENT and ord(c) not in safe_text.UNSAFE)
               for c in local)


def _ascii_domain(domain: str) -> str | None:
    """A domain of LDH labels (or a [literal]), lower-cased; None if it is not one."""
    domain = domain.lower()
    if domain[0] == "[" and domain[-1] == "]":
        inner = domain[1:-1]
        return domain if inner and inner.isprintable() and not any(c in "[]\\ " for c in inner) else None
    labels = domain.split(".")
    if len(domain) > MAX_DOMAIN or not all(0 < len(label) <= MAX_LABEL and all(c in _LDH for c in label)
                                           for label in labels):
        return None
    return domain


def a_label_domain(domain: str) -> str | None:
    """The domain in A-label form, lower-cased (``Bücher.Example`` -> ``xn--bcher-kva.example``);
    None if it is not a domain mail can go to."""
    if not domain or len(domain) > MAX_DOMAIN:
        return None
    if domain.isascii():
        return _ascii_domain(domain)
    import idna  # an IDN domain's alone (most mail's domain is ASCII)

    try:
        mapped = idna.uts46_remap(domain, std3_rules=True, transitional=False)
        if len(mapped) > MAX_DOMAIN or any(len(label) > MAX_LABEL for label in mapped.split(".")):
            return None  # before the quadratic encoder sees it
        return _ascii_domain(idna.encode(mapped).decode("ascii"))
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


def normal(address: str | None) -> str | None:
    """The form gm keeps of an addr-spec (``local@domain``, no display name, no brackets), or None
    if it is not an address mail can be sent to: see the module's doc."""
    if not address:
        return None
    address = address.strip()
    if not address or len(address) > 4 * MAX_ADDR_SPEC:
        return None
    local, at, domain = address.rpartition("@")
    if not at or not domain:
        return None
    local = unicodedata.normalize("NFC", unicodedata.normalize("NFC", local).lower())
    if not _local_ok(local):
        return None
    a_label = a_label_domain(unicodedata.normalize("NFC", domain))
    if a_label is None:
        return None
    result = f"{local}@{a_label}"
    return result if len(result.encode("utf-8")) <= MAX_ADDR_SPEC else None


def same(a: str | None, b: str | None) -> bool:
    """Whether two addresses are one (compared in the form normal() gives)."""
    na = normal(a)
    return na is not None and na == normal(b)


def needs_smtputf8(address: str) -> bool:
    """Mail to this address (in normal form) can go only through a server offering SMTPUTF8."""
    return not address.isascii()


def display_name(text: str | None) -> str:
    """A display name as gm keeps it: cleaned as every text from outside is (gm.core.text.clean),
    on one line, quotes around it dropped, at most MAX_DISPLAY_NAME characters."""
    name = " ".join(safe_text.clean(text or "").split())
    if len(name) >= 2 and name[0] == name[-1] == '"':
        name = " ".join(name[1:-1].split())
    return name[:MAX_DISPLAY_NAME]


# Providers whose mailboxes answer to more than one spelling, by the provider's own rules:
# domain -> (the domain its key uses, whether dots in the local part count).  Gmail ignores
# dots, and googlemail.com is the same mailbox as gmail.com.
_PROVIDERS = {"gmail.com": ("gmail.com", False), "googlemail.com": ("gmail.com", False)}


def mailbox_key(address: str | None) -> str:
    """The mailbox an address delivers to, as every cap and lock counts it: without case, quoting
    removed (``"victim"@x`` is ``victim@x``), a ``+tag`` dropped, and the known providers' own
    rules applied (Gmail: dots ignored, googlemail.com is gmail.com).  Only a key, never an address
    to send to: two addresses with one key are one person's as far as caps go.  "" for nothing."""
    if not address:
        return ""
    kept = normal(address) or address.strip().lower()
    local, at, domain = kept.rpartition("@")
    if not at:
        return kept
    local = _unquoted(local).lower()
    local = local.partition("+")[0] or local  # "+tag@x" alone is an address of its own
    domain, dots_count = _PROVIDERS.get(domain, (domain, True))
    if not dots_count:
        local = local.replace(".", "") or local
    return f"{local}@{domain}"


def keyed_mailbox(secret: bytes, address: str | None) -> str:
    """The mailbox of ``address`` (mailbox_key) as caps and locks keep it: HMAC-SHA256 under
    ``secret`` (the store's: gm.store.mailboxhash), 64 hex digits; "" for nothing.  Never the
    address: a limit outlives the address's forgetting without keeping it."""
    import hashlib
    import hmac

    key = mailbox_key(address)
    return hmac.new(secret, key.encode("utf-8"), hashlib.sha256).hexdigest() if key else ""


def key_patterns(key: str) -> tuple[str, ...]:
    """SQL LIKE patterns that every address gm keeps (normal form) whose mailbox_key is ``key``
    matches: a few, cheap to look up, that may match more (the caller keys what they find).  An
    address of the key begins with its local part (with a provider that ignores dots, with its
    first letter), or is quoted; its domain is one of those that map to the key's."""
    local, _, domain = key.rpartition("@")
    ignores_dots = not _PROVIDERS.get(domain, (domain, True))[1]
    stem = local[:1] if ignores_dots else local
    for i, char in enumerate(stem):  # LIKE's own characters end the stem: the pattern only widens
        if char in "%_\\":
            stem = stem[:i]
            break
    domains = sorted({d for d, (kept, _) in _PROVIDERS.items() if kept == domain} | {domain})
    return tuple(f"{start}%@{d}" for d in domains for start in ((stem, '"') if stem else ("",)))


def _unquoted(local: str) -> str:
    """A local part without its quoting: ``"vic\\"tim"`` -> ``vic"tim``; any other as it is."""
    if len(local) < 2 or local[0] != '"' or local[-1] != '"':
        return local
    out, escaped = [], False
    for char in local[1:-1]:
        if char == "\\" and not escaped:
            escaped = True
            continue
        out.append(char)
        escaped = False
    return "".join(out)
