"""Which charsets mail text is decoded with, and decoding with them.

A mail names its charset, and Python has a codec for many a name that is no
text charset: ``punycode`` (a decoder quadratic in its input: 26 s for a 900 KB
part), ``idna``, the bytes-to-bytes codecs (``base64``, ``zlib``, ``bz2``,
``rot13``...) and the escape codecs.  Only the codecs of TEXT_CODECS are used,
each linear in its input; gm.mail.inbound refuses a body in any other charset
(its sender is told) and reads an encoded word in one as UTF-8.
"""

from __future__ import annotations

import codecs

# The charsets mail text is decoded with, by the codec's own name (codecs.lookup(..).name, so
# every alias of one is taken): Python's text codecs less punycode and idna (a quadratic
# decoder), the escape codecs, charmap and undefined; every one decodes 1 MB in well under
# 0.1 s (benchmarks/hostile_mail.py).  Bytes-to-bytes codecs (base64, zlib, bz2, rot13, uu,
# hex, quopri) are not text codecs and are never used.
TEXT_CODECS = frozenset({
    "ascii", "utf-8", "utf-8-sig", "utf-7", "utf-16", "utf-16-be", "utf-16-le",
    "utf-32", "utf-32-be", "utf-32-le",
    "iso8859-1", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-5", "iso8859-6", "iso8859-7",
    "iso8859-8", "iso8859-9", "iso8859-10", "iso8859-11", "iso8859-13", "iso8859-14", "iso8859-15",
    "iso8859-16",
    "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
    "cp037", "cp273", "cp424", "cp437", "cp500", "cp720", "cp737", "cp775", "cp850", "cp852",
    "cp855", "cp856", "cp857", "cp858", "cp860", "cp861", "cp862", "cp863", "cp864", "cp865",
    "cp866", "cp869", "cp874", "cp875", "cp1006", "cp1026", "cp1125", "cp1140",
    "koi8-r", "koi8-t", "koi8-u", "kz1048", "ptcp154", "tis-620", "hp-roman8", "palmos",
    "mac-arabic", "mac-croatian", "mac-cyrillic", "mac-farsi", "mac-greek", "mac-iceland",
    "mac-latin2", "mac-roman", "mac-romanian", "mac-turkish",
    "big5", "big5hkscs", "cp932", "cp949", "cp950", "euc_jis_2004", "euc_jisx0213", "euc_jp",
    "euc_kr", "gb18030", "gb2312", "gbk", "hz", "johab", "shift_jis", "shift_jis_2004",
    "shift_jisx0213", "iso2022_jp", "iso2022_jp_1", "iso2022_jp_2", "iso2022_jp_2004",
    "iso2022_jp_3", "iso2022_jp_ext", "iso2022_kr",
})
# Labels that say the sender's program did not know the charset (RFC 1428): read like a
# missing one, as UTF-8 with replacement characters.
UNDECLARED = frozenset({"unknown-8bit", "x-unknown", "unknown"})
MAX_CHARSET_NAME = 40  # a longer "charset" is no charset's name


def text_codec(charset: str | None) -> str | None:
    """The codec of a declared charset if it is one of TEXT_CODECS, else None."""
    name = (charset or "").strip().strip('"').lower()
    if not name or len(name) > MAX_CHARSET_NAME:
        return None
    try:
        codec = codecs.lookup(name).name
    except (LookupError, TypeError, ValueError):
        return None
    return codec if codec in TEXT_CODECS else None


def readable_charset(charset: str | None) -> bool:
    """Whether a body in this charset can be read: a text charset of ours, or none declared."""
    name = (charset or "").strip().strip('"').lower()
    return not name or name in UNDECLARED or text_codec(name) is not None


def decode_bytes(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """Decode with the declared charset, in time linear in ``data``; a charset that is not one
    of TEXT_CODECS (unknown, or not a text codec) gives UTF-8 with replacement characters and
    a problem that says so (see readable_charset)."""
    problem = None
    name = text_codec(charset)
    if name is None and not readable_charset(charset):
        problem = f"unreadable charset {str(charset)[:MAX_CHARSET_NAME]!r}"
    if name is None:
        try:
            return data.decode("utf-8"), problem
        except UnicodeDecodeError:
            return data.decode("utf-8", "replace"), problem or "undeclared charset, not UTF-8"
    try:
        return data.decode(name), problem
    except UnicodeDecodeError:
        return data.decode(name, "replace"), f"text not valid in {name}"
