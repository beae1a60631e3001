"""What a config's keys mean, without pydantic: the paths it names, its servers' rules, its errors.

Shared by gm.core.config (which reads a kept config without pydantic) and gm.core.configmodel
(the pydantic models that validate one), so that each rule is written once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol


class ConfigError(ValueError):
    """What is wrong with a config: ``problems`` holds one line per mistake."""

    def __init__(self, message: str, problems: list[str] | None = None, source: str | None = None):
        super().__init__(message)
        self.problems = problems or [message]
        self.source = source

    def one_line(self) -> str:
        """Every problem on one line (gm ingest's stderr, which an MTA reports): the file named once."""
        return (f"{self.source}: " if self.source else "") + "; ".join(self.problems)


SERVER_STORE_SCHEMES = ("postgresql://", "postgres://")
# Paths: READ ones must exist where a file gives them; MADE ones are made by gm, in a folder that exists.
READ_PATHS = ("inbox", "dkim_key_file", "password_file")
MADE_PATHS = ("data_dir", "database", "outbox", "archive_dir", "log_file", "reply_token_secret_file",
              "code_secret_file", "verp_secret_file")
EXISTS, FOLDER = "exists", "folder"  # the checks a file's paths passed: the path exists, the folder is one


def is_server_store(target: object) -> bool:
    """Does ``target`` name a database server (a postgresql:// URL) rather than a SQLite file?"""
    return isinstance(target, str) and target.startswith(SERVER_STORE_SCHEMES)


class Server(Protocol):
    """What the rules of a server's settings read: ServerConfig, or one read back from the cache."""

    @property
    def port(self) -> int: ...
    @property
    def tls(self) -> str: ...
    @property
    def password_env(self) -> str | None: ...
    @property
    def password_file(self) -> Path | None: ...


def default_port(server: Server, implicit: int, plain: int) -> int:
    return server.port or (implicit if server.tls == "implicit" else plain)


def server_password(server: Server) -> str | None:
    """The server's password, from the environment variable or the file the config names."""
    if server.password_env:
        value = os.environ.get(server.password_env)
        if value is None:
            raise ConfigError(f"environment variable {server.password_env} is not set")
        return value
    if server.password_file:
        return Path(server.password_file).expanduser().read_text().strip()
    return None


def domain_of(address: str) -> str:
    """The domain of our address: Content-IDs and the archive feed's ids are made in it."""
    return address.rpartition("@")[2] or "localhost"
