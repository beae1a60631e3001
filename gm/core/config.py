"""Settings: an embedded default that needs no mail account, or a YAML file.

Without a config file gm keeps everything under ``./gm-data/``: the SQLite
database, an inbox Maildir the daemon reads and an outbox Maildir that
outgoing mail is written to instead of being sent.  config.example.yaml
documents every key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    pass


SERVER_STORE_SCHEMES = ("postgresql://", "postgres://")


def is_server_store(target: object) -> bool:
    """Does ``target`` name a database server (a postgresql:// URL) rather than a SQLite file?"""
    return isinstance(target, str) and target.startswith(SERVER_STORE_SCHEMES)


@dataclass
class ServerConfig:
    """An IMAP or SMTP server.  The password never lives in the YAML itself."""

    host: str = "127.0.0.1"
    port: int = 0
    user: str | None = None
    password_env: str | None = None
    password_file: str | None = None
    tls: str = "none"  # implicit | starttls | none
    tls_verify: bool = True  # check the server's certificate and name (turn off only for a test server)
    timeout: float = 30.0  # seconds before a silent server counts as a connection fault
    backoff: list[float] | None = None  # seconds to wait after the 1st, 2nd, ... fault in a row

    def default_port(self, implicit: int, plain: int) -> int:
        return self.port or (implicit if self.tls == "implicit" else plain)

    def password(self) -> str | None:
        if self.password_env:
            value = os.environ.get(self.password_env)
            if value is None:
                raise ConfigError(f"environment variable {self.password_env} is not set")
            return value
        if self.password_file:
            return Path(self.password_file).expanduser().read_text().strip()
        return None


@dataclass
class Config:
    data_dir: Path = Path("gm-data")
    database: Path | str | None = None  # the SQLite file, or a postgresql:// URL (see store)
    store: str | None = None  # where games are kept: a SQLite file path or postgresql://user@host/db
    address: str = "gm@localhost"  # the mailbox players write to
    name: str = "gm, the game master"
    gm_address: str | None = None  # the human game master, copied on trouble
    inbox: Path | None = None  # Maildir read when no IMAP server is configured
    outbox: Path | None = None  # Maildir written when no SMTP server is configured
    imap: ServerConfig | None = None
    imap_folder: str = "INBOX"
    imap_processed: str = "gm-processed"
    imap_idle: bool = True  # wait with IDLE when the server offers it; false: poll
    poll_seconds: float = 30.0
    tick_seconds: float = 30.0  # how often the daemon looks for deadlines and timers that are due
    smtp: ServerConfig | None = None
    smtp_connections: int = 4  # SMTP connections used at once to send a batch of reports
    smtp_process: bool = True  # the SMTP client in a child process (gm.runtime.sendprocess); false: a thread
    max_message_bytes: int = 1_000_000
    error_replies_per_hour: int = 10  # replies needing no password (help, errors), per address
    unauthenticated_replies_per_hour: int = 500  # the same, to all addresses together
    dkim_selector: str | None = None  # sign outgoing mail with DKIM (with dkim_key_file)
    dkim_domain: str | None = None  # the signing domain, d= (default: the domain of address)
    dkim_key_file: Path | None = None  # the RSA private key, PEM (gm dkim keygen makes one)
    # Players help themselves (issue 18): replies to reports need no password when reply_tokens
    # is on (the mailbox must take plus addresses, gm+anything@host); the secret that signs the
    # tokens is kept in this file, outside the database (made 0600 on first use).
    reply_tokens: bool = True
    reply_token_secret_file: Path | None = None  # default: <data_dir>/reply-token.secret
    # The key of the digests that confirmation codes are stored as (gm.core.codes), made 0600 on
    # first use: outside the database, so a stolen one cannot be searched for its codes.
    code_secret_file: Path | None = None  # default: <data_dir>/code-secret
    player_create_kinds: list[str] = field(default_factory=list)  # kinds players may CREATE by mail
    # Double opt-in (issue 27): OBSERVE, JOIN and CREATE wait for the address to answer a code.
    # Caps on those code mails, counted per address they go to and in total; reaching the total
    # mails gm_address once an hour.  max_observers: the observers one game takes.
    confirmations_per_address_per_day: int = 3  # and never a 2nd while one sent today is unanswered
    confirmations_per_hour: int = 100
    max_observers: int = 50
    verp: bool = True  # envelope sender <local>+bounce-<id>-<tag>@<domain>; false: no plus addressing
    verp_secret_file: Path | None = None  # the VERP tags' key, made 0600 on first use (default data_dir/verp-secret)
    message_id_domain: str | None = None  # the right-hand side of every Message-ID (default: address's domain)
    archive_dir: Path | None = None  # the daemon keeps the archive site here, current after every turn
    # Files gm makes are 0600, folders 0700; with a group name, the data folder is given to that
    # group (mode 2770) and files are 0660, so a GM's CLI can share the store with the daemon's user.
    group: str | None = None
    source: str = "embedded default"
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        self.data_dir = Path(self.data_dir)
        if self.store is not None:
            self.database = str(self.store)
        if is_server_store(self.database):
            self.database = str(self.database)
        else:
            self.database = Path(self.database) if self.database else self.data_dir / "gm.sqlite"
        self.inbox = Path(self.inbox) if self.inbox else self.data_dir / "inbox"
        self.outbox = Path(self.outbox) if self.outbox else self.data_dir / "outbox"
        self.dkim_key_file = Path(self.dkim_key_file).expanduser() if self.dkim_key_file else None
        self.reply_token_secret_file = (Path(self.reply_token_secret_file).expanduser()
                                        if self.reply_token_secret_file
                                        else self.data_dir / "reply-token.secret")
        self.code_secret_file = (Path(self.code_secret_file).expanduser() if self.code_secret_file
                                 else self.data_dir / "code-secret")
        if not isinstance(self.player_create_kinds, list) or not all(
                isinstance(k, str) for k in self.player_create_kinds):
            raise ConfigError("player_create_kinds: a list of game kinds, e.g. [neighbors]")
        self.player_create_kinds = [k.strip().lower() for k in self.player_create_kinds]
        self.verp_secret_file = (Path(self.verp_secret_file).expanduser() if self.verp_secret_file
                                 else self.data_dir / "verp-secret")
        self.archive_dir = Path(self.archive_dir).expanduser() if self.archive_dir else None
        if isinstance(self.dkim_selector, int) and not isinstance(self.dkim_selector, bool):
            self.dkim_selector = str(self.dkim_selector)  # YAML reads `dkim_selector: 2025` as a number

    @property
    def domain(self) -> str:
        """The domain of our address: Content-IDs and the archive feed's ids are made in it."""
        return self.address.rpartition("@")[2] or "localhost"


def _check_mail_names(config: Config, source: str) -> None:
    """message_id_domain must be a domain: it is written into every Message-ID (<...@domain>)."""
    value = config.message_id_domain
    if value is not None and (not isinstance(value, str) or not value.strip() or not value.isascii()
                              or any(c.isspace() or c in "<>@\"()[],;:\\" for c in value)):
        raise ConfigError(f"{source}: message_id_domain must be a domain, e.g. example.org")


def _check_dkim(config: Config, source: str) -> None:
    """The DKIM keys' shape; the key file itself is read when the service starts (gm.mail.dkim)."""
    for key in ("dkim_selector", "dkim_domain"):
        value = getattr(config, key)
        if value is not None and (not isinstance(value, str) or not value.strip() or not value.isascii()
                                  or any(c.isspace() or c in ";=" for c in value.strip())):
            raise ConfigError(f"{source}: {key} must be a DNS name, e.g. gm2025 or example.org")
    if config.dkim_key_file and not config.dkim_selector:
        raise ConfigError(f"{source}: dkim_key_file is set but dkim_selector is not")
    if config.dkim_selector and not config.dkim_key_file:
        raise ConfigError(f"{source}: dkim_selector is set but dkim_key_file is not "
                          "(gm dkim keygen --out FILE makes a key)")


def _server(raw: Any, section: str) -> ServerConfig | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ConfigError(f"{section}: expected a mapping")
    if "password" in raw:
        raise ConfigError(f"{section}: put the password in password_env or password_file, not the YAML")
    known = set(ServerConfig.__dataclass_fields__)
    unknown = set(raw) - known
    if unknown:
        raise ConfigError(f"{section}: unknown keys {sorted(unknown)}")
    server = ServerConfig(**raw)
    if server.tls not in {"implicit", "starttls", "none"}:
        raise ConfigError(f"{section}.tls must be implicit, starttls or none")
    if server.backoff is not None:
        if not isinstance(server.backoff, list) or not server.backoff or not all(
            isinstance(v, (int, float)) and v >= 0 for v in server.backoff
        ):
            raise ConfigError(f"{section}.backoff must be a list of seconds, e.g. [1, 5, 30]")
    if server.user and not (server.password_env or server.password_file):
        raise ConfigError(f"{section}: a user needs password_env or password_file")
    return server


def load(path: str | Path | None = None) -> Config:
    """The config at ``path``, $GM_CONFIG, ./gm.yaml, or the embedded default."""
    candidate = path or os.environ.get("GM_CONFIG")
    if candidate is None and Path("gm.yaml").exists():
        candidate = "gm.yaml"
    if candidate is None:
        return Config()
    import yaml

    try:
        raw = yaml.safe_load(Path(candidate).read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read config {candidate}: {exc}") from exc
    if not isinstance(raw, dict):
        raise ConfigError(f"{candidate}: expected a mapping at the top")
    raw = dict(raw)
    imap = raw.pop("imap", None)
    smtp = raw.pop("smtp", None)
    imap_conf = _server(imap, "imap")
    known = set(Config.__dataclass_fields__) - {"imap", "smtp", "source", "extra"}
    unknown = set(raw) - known
    if unknown:
        raise ConfigError(f"{candidate}: unknown keys {sorted(unknown)}")
    config = Config(**raw, imap=imap_conf, smtp=_server(smtp, "smtp"), source=str(candidate))
    if config.group is not None and (not isinstance(config.group, str) or not config.group.strip()):
        raise ConfigError(f"{candidate}: group must be the name of a group, e.g. gm")
    _check_dkim(config, str(candidate))
    _check_mail_names(config, str(candidate))
    return config
