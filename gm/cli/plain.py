"""The plain forms of the commands run most, read without the CLI framework's parsing.

``gm list``, ``gm show ID [--json]``, ``gm status [--json]`` and ``gm ingest [FILE|-]``,
after the plain root options ``-c PATH`` and ``-v``, and ``gm --version`` alone, are what a
GM types dozens of times a day and what cron, a container's health check and an MTA's pipe
run.  Typer reads a command line well but pays for it: it builds a validator for every
parameter, most of a ``gm list``.  These forms go straight to the command's own function;
any other form (a --help, an option not listed here, a missing argument) is Typer's, which
says what is wrong.
"""

from __future__ import annotations

import importlib
from typing import Callable

CONFIG_FLAGS = ("--config", "-c")
VERBOSE_FLAGS = ("--verbose", "-v")


class Plain:
    """A command read plainly: its module in gm.cli, its function, how many arguments it takes,
    and its flags (each a keyword of the function, True when given).  A plain class: a named
    tuple's class is made by compiling code, which every gm command would pay."""

    __slots__ = ("module", "function", "arguments", "flags")

    def __init__(self, module: str, function: str, arguments: int, flags: dict[str, str]):
        self.module, self.function, self.arguments, self.flags = module, function, arguments, flags


PLAIN = {
    "list": Plain("glance", "list_games", 0, {}),
    "show": Plain("glance", "show", 1, {"--json": "as_json"}),
    "status": Plain("glance", "status", 0, {"--json": "as_json"}),
}


def root_options(args: list[str]) -> tuple[str | None, bool, list[str]] | None:
    """(config, verbose, the command and what follows) when the options before the command
    are plain ``-c PATH`` and ``-v``; None for anything else (Typer's)."""
    config, verbose, rest = None, False, list(args)
    while rest and not (rest[0] in PLAIN or rest[0] == "ingest"):
        flag = rest.pop(0)
        if flag in VERBOSE_FLAGS:
            verbose = True
        elif flag in CONFIG_FLAGS and rest and rest[0] and not rest[0].startswith("-"):
            config = rest.pop(0)
        else:
            return None
    return (config, verbose, rest) if rest else None


def ingest_source(rest: list[str]) -> str | None:
    """The FILE (- for stdin) of ``ingest [FILE]``; None for another form (an option: Typer's)."""
    if len(rest) > 2:
        return None
    source = rest[1] if len(rest) == 2 else "-"
    return None if source.startswith("-") and source != "-" else source


def command_call(plain: Plain, rest: list[str]) -> dict[str, object] | None:
    """The keywords of ``plain``'s function for ``rest`` (the command's words after its name);
    None when they are not its plain form."""
    words, flags = [], {keyword: False for keyword in plain.flags.values()}
    for word in rest:
        if word in plain.flags:
            flags[plain.flags[word]] = True
        elif word.startswith("-") or len(words) == plain.arguments:
            return None
        else:
            words.append(word)
    if len(words) != plain.arguments:
        return None
    return {"args": words, **flags}


def read(args: list[str]) -> Callable[[], int] | None:
    """What runs ``gm ARGS`` when it is a plain form (returning the exit status); None when
    Typer must read it."""
    if args == ["--version"]:
        return print_version
    options = root_options(args)
    if options is None:
        return None
    config, verbose, (name, *rest) = options
    if name == "ingest":
        source = ingest_source([name, *rest])
        if source is None:
            return None
        return lambda: ingest_from_mta(source, config, verbose)
    call = command_call(PLAIN[name], rest)
    if call is None:
        return None
    return lambda: run_plain(name, PLAIN[name], call, config, verbose)


def print_version() -> int:
    """``gm --version``: its one line (Typer's eager option prints it too: gm.cli.common.show_version)."""
    from gm.core.version import gm_version

    print(f"gm {gm_version()}")
    return 0


def ingest_from_mta(source: str, config: str | None, verbose: bool) -> int:
    from gm.cli import piped

    return piped.ingest_from_mta(source, config, verbose)


def run_plain(name: str, plain: Plain, call: dict, config: str | None, verbose: bool) -> int:
    """Run the command as Typer would once it had read the line, without Typer: the root
    options set (gm.cli.base), its function called; its exit status (a ``gm: why`` failure ends
    it with its code, as a SystemExit)."""
    from pathlib import Path

    from gm.cli import base

    base.set_up(Path(config) if config else None, verbose, name)
    function = getattr(importlib.import_module(f"gm.cli.{plain.module}"), plain.function)
    keywords = {key: value for key, value in call.items() if key != "args"}
    return function(*call["args"], **keywords)
