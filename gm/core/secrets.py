"""Server secrets kept outside the database: a file of random bytes, made 0600 on first use.

A secret that lives beside the data it protects is no secret once the
database is copied (a backup, a bug report), so each secret gm keys an HMAC
with is a file of its own, named in the config.  One small function for all
of them (the VERP return addresses of gm.mail.verp, the reply tokens of gm.core.tokens),
each with its own file so one can be replaced without the others.
"""

from __future__ import annotations

import os
from pathlib import Path

from gm.core import filemodes

SECRET_BYTES = 32  # 256 bits, HMAC-SHA256's own block strength
MIN_SECRET_CHARS = 32  # a file holding less than this (hex) is refused, not trusted


class SecretError(ValueError):
    """A secret file that exists but cannot be read or holds too little to trust."""


def load_or_create(path: Path) -> bytes:
    """The secret in ``path``; on first use a new random one is written there (mode 0600).

    The file is created with O_EXCL, so two processes starting at once agree
    on one secret (the loser reads the winner's).  Raises SecretError for an
    unreadable or too short file (never silently replaced: mail already sent
    carries addresses signed with it).
    """
    path = Path(path).expanduser()
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    filemodes.make_dirs(path.parent)
    try:  # 0600, or 0660 in a shared data folder (gm.core.filemodes)
        fd = filemodes.open_new(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return _read(path)
    with os.fdopen(fd, "w") as handle:
        import secrets as random_source  # only when a secret is made (reading one needs no random)

        handle.write(random_source.token_hex(SECRET_BYTES) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return _read(path)


def _read(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise
    except (OSError, UnicodeError) as exc:
        raise SecretError(f"secret file {path}: cannot read it ({exc})") from exc
    if len(text) < MIN_SECRET_CHARS:
        raise SecretError(f"secret file {path}: holds {len(text)} characters, fewer than "
                          f"{MIN_SECRET_CHARS}; remove it and gm makes a new one")
    return text.encode("ascii")
