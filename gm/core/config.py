"""Settings: an embedded default that needs no mail account, or a YAML file, typed with pydantic.

Without a config file gm keeps everything under ``./gm-data/``: the SQLite database, an inbox
Maildir the daemon reads and an outbox Maildir written to instead of sending.
config.example.yaml documents every key; gm.core.configmodel types each, and says what is wrong.

A command reads its config before it does anything, and building the pydantic models costs more
than the rest of a short command's start.  So a config once validated is kept, as JSON, in a
per-user folder (0700, as Jinja keeps the templates' bytecode), keyed by the file's bytes, its
path, $HOME and gm's code, with the checks of the file system it passed (READ_PATHS exist, the
folders of what gm makes): a later load with the same key whose checks still hold reads it back
without pydantic or YAML; anything else is validated again, so every error is as the models say.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm.core.configrules import (EXISTS, MADE_PATHS, READ_PATHS, SERVER_STORE_SCHEMES, ConfigError, default_port,
                                 domain_of, is_server_store, server_password)

if TYPE_CHECKING:
    from gm.core.configmodel import Config, ServerConfig

__all__ = ["MADE_PATHS", "READ_PATHS", "SERVER_STORE_SCHEMES", "Config", "ConfigError", "ServerConfig", "effective",
           "is_server_store", "load", "masked"]


def __getattr__(name: str) -> Any:
    if name in ("Config", "ServerConfig"):  # the pydantic models, loaded when named
        from gm.core import configmodel

        return getattr(configmodel, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- a validated config, kept ------------------------------------------------------------------
class CachedServer:
    """A ServerConfig read back from the cache: its keys as attributes."""

    def __init__(self, keys: dict[str, Any]):
        self.__dict__.update(keys)

    def default_port(self, implicit: int, plain: int) -> int:
        return default_port(self, implicit, plain)  # type: ignore[arg-type]  # ServerConfig's keys

    def password(self) -> str | None:
        return server_password(self)  # type: ignore[arg-type]


class CachedConfig:
    """A Config read back from the cache: its keys as attributes, in Config's order."""

    def __init__(self, keys: dict[str, Any]):
        self.__dict__.update(keys)

    @property
    def domain(self) -> str:
        return domain_of(self.address)  # type: ignore[attr-defined]  # Config's keys

    def dumped(self) -> dict[str, Any]:
        """Every key as JSON has it (paths as text), as Config.dumped."""
        return {key: plain(value) for key, value in self.__dict__.items()}


def plain(value: Any) -> Any:
    """A kept config's value as JSON has it."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, CachedServer):
        return {key: plain(v) for key, v in value.__dict__.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def tagged(value: Any) -> Any:
    """A validated value as JSON that says what it was: a path, a server's settings."""
    if isinstance(value, Path):
        return {"path": str(value)}
    if hasattr(type(value), "model_fields"):  # a ServerConfig
        return {"server": {key: tagged(getattr(value, key)) for key in type(value).model_fields}}
    if isinstance(value, list):
        return [tagged(v) for v in value]
    if isinstance(value, dict):
        return {"dict": value}
    return value


def untagged(value: Any) -> Any:
    if isinstance(value, dict):
        (tag, inner), = value.items()
        if tag == "path":
            return Path(inner)
        if tag == "server":
            return CachedServer({key: untagged(v) for key, v in inner.items()})
        return inner
    if isinstance(value, list):
        return [untagged(v) for v in value]
    return value


def cache_folder() -> Path | None:
    """The current user's folder for kept configs, made 0700; None where it is not safely ours."""
    folder = Path(os.environ.get("TMPDIR") or "/tmp") / f"gm-config-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not os.path.isdir(folder) or os.path.islink(folder) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return folder


def cache_key(source: str, text: bytes) -> str:
    """What a kept config depends on: the file, where it is, $HOME (paths may start with ~) and
    gm's code (its version and the models' module)."""
    from gm import __version__

    models = Path(__file__).with_name("configmodel.py")
    try:
        code = f"{models.stat().st_mtime_ns}:{models.stat().st_size}"
    except OSError:
        code = "?"
    parts = [source, os.environ.get("HOME", ""), __version__, code, hashlib.sha256(text).hexdigest()]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def kept(source: str, key: str) -> CachedConfig | None:
    """The config kept for ``source`` under ``key``, if its checks of the file system still hold."""
    folder = cache_folder()
    if folder is None:
        return None
    try:
        record = json.loads((folder / f"{hashlib.sha256(source.encode()).hexdigest()}.json").read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    for check, path in record["checks"]:
        if not (os.path.exists(path) if check == EXISTS else os.path.isdir(path)):
            return None
    return CachedConfig({name: untagged(value) for name, value in record["keys"].items()})


def keep(candidate: str | Path, source: str, key: str, text: bytes, config: Config,
         checks: list[tuple[str, str]]) -> None:
    """Keep a config just validated from ``text``, unless the file changed meanwhile (written
    whole or not at all; a cache that cannot be written only costs the next command time)."""
    folder = cache_folder()
    if folder is None:
        return
    import tempfile

    record = {"key": key, "checks": checks,
              "keys": {name: tagged(getattr(config, name)) for name in type(config).model_fields}}
    try:
        if Path(candidate).read_bytes() != text:
            return
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "w") as out:
            json.dump(record, out)
        os.replace(temporary, folder / f"{hashlib.sha256(source.encode()).hexdigest()}.json")
    except OSError:
        Path(temporary).unlink(missing_ok=True)


def load(path: str | Path | None = None, to_make: tuple[str, ...] = ()) -> Config:
    """The config at ``path``, $GM_CONFIG, ./gm.yaml, or the embedded default.

    ``to_make``: keys naming a file the command is about to make (gm dkim keygen), so only
    its folder need exist (such a load is never kept).
    """
    candidate = path or os.environ.get("GM_CONFIG")
    if candidate is None and Path("gm.yaml").exists():
        candidate = "gm.yaml"
    if candidate is None:
        from gm.core.configmodel import Config

        return Config()
    source = str(Path(candidate).absolute())
    try:
        text: bytes | None = Path(candidate).read_bytes()
    except OSError:
        text = None  # said below, as reading it says it
    key = cache_key(source, text) if text is not None and not to_make else None
    hit = kept(source, key) if key is not None else None
    if hit is not None:
        return hit  # type: ignore[return-value]  # Config's keys, as validated before
    import yaml

    try:
        raw = yaml.safe_load(Path(candidate).read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read config {candidate}: {exc}") from exc
    if not isinstance(raw, dict):
        raise ConfigError(f"{candidate}: expected a mapping at the top")
    from gm.core import configmodel

    config, problems, checks = configmodel.validated({str(k): v for k, v in raw.items()}, source, to_make)
    if config is None:  # no config without a problem said
        raise ConfigError("\n".join(f"{source}: {p}" for p in problems), problems, source)
    if key is not None and text is not None:
        keep(candidate, source, key, text, config, checks)
    return config


def masked(target: object) -> str:
    """A store target fit to print: a postgresql:// URL without its password."""
    text = str(target)
    if not is_server_store(text):
        return text
    scheme, _, rest = text.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not at or ":" not in userinfo:
        return text
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{host}"


def effective(config: Config) -> dict[str, Any]:
    """The config as gm uses it, defaults filled in, secrets masked: what `gm config check` prints.

    Passwords never live in the YAML; a secret file is named, never read."""
    data = {key: value for key, value in config.dumped().items() if key not in ("extra", "source")}
    for key in ("database", "store"):
        if data.get(key) is not None:
            data[key] = masked(data[key])
    return data
