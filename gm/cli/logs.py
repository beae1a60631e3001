"""Where gm's commands log: stderr as configured by ``gm -v``, and a log file of the config's."""

from __future__ import annotations

import logging
from pathlib import Path

from gm.core.logformat import clean_handler

LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


def log_to_file(path: Path, level: int = logging.WARNING) -> logging.Handler | None:
    """Send log lines (and tracebacks) to ``path`` as well; None if it cannot be opened.

    The file is made 0600 (0660 in a shared data folder), never its folder."""
    from gm.core import filemodes

    try:
        if not Path(path).parent.is_dir():
            return None
        filemodes.create_file(Path(path))
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        return None
    clean_handler(handler, LOG_FORMAT)
    handler.setLevel(level)
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > level or root.level == logging.NOTSET:
        root.setLevel(level)
    return handler
