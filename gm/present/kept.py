"""Texts that depend on nothing but their template and plain values, kept once rendered.

A stranger's HELP is the same text for every stranger until the templates, gm or
the config change, and an MTA starts a process for each such mail: rendering it
there would load Jinja (about the cost of the CLI framework) for a fixed text.
kept_text renders it once and keeps it in a folder of gm's data (mode 0600 files
in a 0700 folder), under a key made of everything the text depends on: the
template files and the catalogues (names, sizes and modification times), gm's
version, the template name, the language and the values.  A folder that cannot be written is no fault: the text is
rendered each time then.  A text written again removes the template's texts a week
old, so keys the templates left behind do not pile up.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from gm.core.version import gm_version

ENGLISH = "en"  # gm.core.i18n.ENGLISH, without loading the catalogues' module for a kept text


def templates_fingerprint() -> list[tuple[str, int, int]]:
    """(path, size, modification time) of every template file, of every compiled catalogue and
    of the module that renders them: a template or translation edited, added or removed makes
    another key."""
    import templates

    from gm.core import i18n
    from gm.present import reports

    seen = [(reports.__file__, *stat_of(reports.__file__))]
    for top in (list(templates.__path__)[0], str(i18n.LOCALE)):
        for root, folders, files in os.walk(top):
            folders.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                seen.append((path, *stat_of(path)))
    return seen


def stat_of(path: str) -> tuple[int, int]:
    found = os.stat(path)
    return found.st_size, found.st_mtime_ns


def key_of(template: str, values: dict, language: str = ENGLISH) -> str:
    """The key of ``template`` rendered in ``language`` with ``values`` (plain JSON values only)."""
    made = json.dumps([gm_version(), template, values, templates_fingerprint()]
                      + ([language] if language != ENGLISH else []), sort_keys=True)
    return hashlib.sha256(made.encode()).hexdigest()


def kept_text(folder: Path, template: str, language: str = ENGLISH, **values: object) -> str:
    """templates/mail/``template`` rendered in ``language`` with ``values``
    (gm.present.reports.render_text), read from ``folder`` when it was rendered before from the
    very same inputs."""
    path = folder / f"{template}-{key_of(template, values, language)}.txt"
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    from gm.present.reports import render_text

    text = render_text(template, language, **values)
    forget_old(folder, template)
    keep(path, text)
    return text


def forget_old(folder: Path, template: str, days: float = 7) -> None:
    """Remove ``template``'s kept texts written more than ``days`` ago (a kept text still used
    is rendered again once)."""
    before = time.time() - days * 86400
    try:
        for path in folder.glob(f"{template}-*.txt"):
            if path.stat().st_mtime < before:
                path.unlink(missing_ok=True)
    except OSError:
        pass


def keep(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a reader never sees half a file)."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(part, path)
    except OSError:
        try:
            part.unlink(missing_ok=True)
        except OSError:
            pass
