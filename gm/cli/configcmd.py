"""gm config check: the config as gm reads it, defaults filled in and secrets masked."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import typer

from gm.cli.common import HELP_STYLE, app, echo, fail, state

if TYPE_CHECKING:
    from gm.core import config as config_module

config_app = typer.Typer(no_args_is_help=True, rich_markup_mode=HELP_STYLE,
                         help="The config: check it before gm runs on it.")
app.add_typer(config_app, name="config")


def password_note(section: str, server: config_module.ServerConfig | None) -> str | None:
    """Where a server's password comes from (never the password itself)."""
    if server is None or not server.user:
        return None
    if server.password_env:
        told = "set" if server.password_env in os.environ else "NOT set in this shell"
        return f"# {section} password: from ${server.password_env} ({told}; not shown)"
    return f"# {section} password: from the file {server.password_file} (not shown)"


@config_app.command("check")
def check():
    """Every key with its effective value (defaults too), secrets masked; exit 1 on any error."""
    import yaml

    from gm.core import config as config_module

    try:
        conf = config_module.load(state["config"])
    except config_module.ConfigError as exc:
        fail(f"config errors:\n{exc}")
    echo(f"# {conf.source}: ok")
    echo(yaml.safe_dump(config_module.effective(conf), sort_keys=False, allow_unicode=True), nl=False)
    for section in ("imap", "smtp"):
        note = password_note(section, getattr(conf, section))
        if note:
            echo(note)
