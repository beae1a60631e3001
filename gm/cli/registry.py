"""Which module of gm.cli defines each command, and the click group that loads it on first use.

A command's module (and the service, mail stack or rule engines it imports)
is imported only when that command runs, or when --help lists it: so
``gm --version`` or ``gm list`` do not pay for what ``gm run`` needs.  The
modules register their commands on gm.cli.common.app; WHERE says, in
--help's order, which module to import for a name, and gm.cli.common's
group (a LazyGroup) imports it and builds the command from the app.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Any, Callable

import typer
from typer.core import TyperGroup

# Command -> its module in gm.cli; commands first, then the groups of commands (as --help lists them).
WHERE = {
    **dict.fromkeys(("new", "options", "start", "list", "show", "order", "process", "run", "outbox", "inbox",
                     "demo"), "play"),
    **dict.fromkeys(("deadline", "pause", "resume", "end", "draw", "concede", "rollback", "replace", "eject",
                     "edit", "resend", "delete", "broadcast", "settings", "observers", "clock"), "admin"),
    "takeback": "takebacks",
    "history": "archive", "verify": "archive",
    "export": "records", "import": "records",
    "lines": "linescmd",
    "players": "delivery", "deliveries": "delivery",
    "data": "datacmd",
    "backup": "storecmd", "restore": "storecmd",
    "ingest": "pipe", "init": "pipe",
    "doctor": "doctor",
    "forget": "forgetcmd",
    "status": "statuscmd",
    "ratings": "ratingscmd",
    "archive": "archive", "dkim": "dkim", "store": "storecmd", "seat": "seatcmd", "config": "configcmd",
    "tournament": "tournamentcmd",
}


def command_of(app: typer.Typer, name: str) -> Any:
    """The click command (or group) ``name``, imported from its module and built from its
    registration on ``app``."""
    from typer import main as typer_main

    importlib.import_module(f"gm.cli.{WHERE[name]}")
    settings = {"pretty_exceptions_short": app.pretty_exceptions_short, "rich_markup_mode": app.rich_markup_mode}
    for info in app.registered_commands:
        if (info.name or typer_main.get_command_name(info.callback.__name__)) == name:
            return typer_main.get_command_from_info(info, **settings)
    for group in app.registered_groups:
        if group.name == name:
            return typer_main.get_group_from_info(group, suggest_commands=app.suggest_commands, **settings)
    raise LookupError(f"gm.cli.{WHERE[name]} registers no command {name!r}")


class LazyCommands(MutableMapping):
    """The group's commands by name: every name of WHERE, each built when first looked up."""

    def __init__(self, loaded: MutableMapping[str, Any], build: Callable[[str], Any]):
        self.loaded = dict(loaded)
        self.build = build

    def __getitem__(self, name: str) -> Any:
        if name not in self.loaded:
            if name not in WHERE:
                raise KeyError(name)
            self.loaded[name] = self.build(name)
        return self.loaded[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self.loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*WHERE, *self.loaded]))

    def __len__(self) -> int:
        return len(set(WHERE) | set(self.loaded))


class LazyGroup(TyperGroup):
    """Typer's group, with its commands loaded on first use (LazyCommands); a subclass says
    how a command is built (command_of its app)."""

    def __init__(self, *, commands: Any = None, **attrs: Any):
        super().__init__(commands=commands, **attrs)
        self.commands = LazyCommands(self.commands, self.built)

    def built(self, name: str) -> Any:
        raise NotImplementedError
