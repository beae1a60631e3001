"""``python -m gm.cli``: the same as the ``gm`` command."""

from gm.cli import console

console()
