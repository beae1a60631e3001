"""The GM's override, deadline and archive commands, registered on the main CLI app."""

from __future__ import annotations


def register(app) -> None:
    """Add this module's commands to ``app`` (called once by gm.cli)."""
