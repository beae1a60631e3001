"""The typed config: every key one annotated line with its range, validated by pydantic.

``Expect(...)`` gives an error's words, so mistakes are refused at load, all at once, naming the
key and what it takes.  Paths in a file are read against its own folder; a path the GM gives
must exist, or for what gm makes itself, its folder must.  ``Config(...)`` built directly
(tests, tools) checks types but looks at no file.  Only gm.core.config imports this module, when
a config must be validated (its cache missed) or Config is named: building these models costs
more than a command's start otherwise takes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from gm.core import addresses
from gm.core.configrules import (EXISTS, FOLDER, MADE_PATHS, READ_PATHS, default_port, domain_of, is_server_store,
                                 server_password)


class Expect:
    """What a key takes, in the words of the error when a value does not fit ("KEY must be ...")."""

    def __init__(self, text: str):
        self.text = text


Seconds = Annotated[float, Field(gt=0), Expect("a number of seconds above 0, e.g. 30")]
Count = Annotated[int, Field(gt=0), Expect("a whole number above 0")]
Cap = Annotated[int, Field(ge=0), Expect("a whole number, 0 or more")]
Flag = Annotated[bool, Expect("true or false")]
Text = Annotated[str, Field(min_length=1), Expect("some text")]
Address = Annotated[str, Field(pattern=r"^[^@\s<>]+@[^@\s<>]+$"), Expect("a mail address, e.g. gm@example.org")]
# Paths: READ ones must exist where a file gives them; MADE ones are made by gm, in a folder that exists.
FilePath = Annotated[Path, Expect("a path to a file")]



def place(value: Any, info: ValidationInfo) -> Any:
    """A path read against the config file's folder, and checked to exist (only for a file); each
    check of the file system is kept in the context's ``checked``, for the cache (gm.core.config)."""
    if value is None or is_server_store(value):
        return value
    context = info.context or {}
    path = Path(value).expanduser()
    base = context.get("base")
    if base is not None and not path.is_absolute():
        path = Path(base) / path
    if context.get("check_paths"):
        checked = context.setdefault("checked", [])
        if info.field_name in READ_PATHS and info.field_name not in context.get("to_make", ()):
            if not path.exists():
                raise ValueError(f"{path} does not exist")
            checked.append((EXISTS, str(path)))
        elif path.parent != info.data.get("data_dir"):
            if not path.parent.is_dir():
                raise ValueError(f"the folder {path.parent} does not exist (gm makes {path.name}, not its folder)")
            checked.append((FOLDER, str(path.parent)))
    return path


class ServerConfig(BaseModel):
    """An IMAP or SMTP server.  The password never lives in the YAML itself."""

    model_config = ConfigDict(extra="forbid")

    host: Text = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535), Expect("a port number, 1 to 65535 (0: the default)")] = 0
    user: Text | None = None
    password_env: Annotated[str | None, Expect("the name of an environment variable")] = None
    password_file: FilePath | None = None
    tls: Annotated[Literal["implicit", "starttls", "none"], Expect("implicit, starttls or none")] = "none"
    tls_verify: Flag = True  # check the server's certificate and name (turn off only for a test server)
    timeout: Seconds = 30.0  # seconds before a silent server counts as a connection fault
    # seconds to wait after the 1st, 2nd, ... fault in a row
    backoff: Annotated[list[Annotated[float, Field(ge=0)]] | None, Field(min_length=1),
                       Expect("a list of seconds, e.g. [1, 5, 30]")] = None

    _placed = field_validator("password_file", mode="after")(place)

    def default_port(self, implicit: int, plain: int) -> int:
        return default_port(self, implicit, plain)

    def password(self) -> str | None:
        return server_password(self)


DNS_NAME = Expect("a DNS name, e.g. gm2025 or example.org")


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")

    data_dir: Annotated[Path, Expect("a folder (made if missing, in a folder that exists)")] = Path("gm-data")
    database: Annotated[Path | str | None, Expect("a SQLite file or a postgresql:// URL")] = None
    store: Annotated[str | None, Expect("a SQLite file or postgresql://user@host/db")] = None
    address: Address = "gm@localhost"  # the mailbox players write to
    name: Text = "gm, the game master"
    gm_address: Address | None = None  # the human game master, copied on trouble
    inbox: Annotated[Path | None, Expect("an existing Maildir folder")] = None  # read when no IMAP server
    outbox: FilePath | None = None  # Maildir written when no SMTP server is configured
    imap: Annotated[ServerConfig | None, Expect("a mapping of server settings (host, port, ...)")] = None
    imap_folder: Text = "INBOX"
    imap_processed: Text = "gm-processed"
    imap_idle: Flag = True  # wait with IDLE when the server offers it; false: poll
    poll_seconds: Seconds = 30.0
    tick_seconds: Seconds = 30.0  # how often the daemon looks for deadlines and timers that are due
    status_beat_seconds: Seconds = 600.0  # gm status: unhealthy when no daemon beat (or gm run --once) this long
    status_outbox_seconds: Seconds = 3600.0  # gm status: unhealthy when the oldest queued mail waits this long
    status_inbox_seconds: Seconds = 600.0  # gm status: unhealthy when every poll has left mail in the inbox this long
    metrics_port: Annotated[int, Field(ge=1, le=65535), Expect("a port number, 1 to 65535")] | None = None
    metrics_host: Text = "127.0.0.1"  # where metrics_port listens (Prometheus metrics; pip install gm[metrics])
    smtp: Annotated[ServerConfig | None, Expect("a mapping of server settings (host, port, ...)")] = None
    smtp_connections: Count = 4  # SMTP connections used at once to send a batch of reports
    smtp_process: Flag = True  # the SMTP client in a child process (gm.runtime.sendprocess); false: a thread
    max_message_bytes: Annotated[int, Field(gt=0), Expect("a whole number of bytes above 0")] = 1_000_000
    error_replies_per_hour: Cap = 10  # replies needing no password (help, errors), per mailbox
    unauthenticated_replies_per_hour: Cap = 500  # the same, to all addresses together
    press_per_seat_per_hour: Cap = 20  # press messages one seat sends an hour (gm.service.play.press)
    gm_alerts_per_hour: Cap = 30  # mail to gm_address that players and strangers cause (gmalerts)
    dkim_selector: Annotated[str | None, DNS_NAME] = None  # sign outgoing mail with DKIM (with dkim_key_file)
    dkim_domain: Annotated[str | None, DNS_NAME] = None  # the signing domain, d= (default: address's domain)
    dkim_key_file: FilePath | None = None  # the RSA private key, PEM (gm dkim keygen makes one)
    # Players help themselves: replies to reports need no password when reply_tokens
    # is on (the mailbox must take plus addresses, gm+anything@host); the secret that signs the
    # tokens is kept in this file, outside the database (made 0600 on first use).
    reply_tokens: Flag = True
    reply_token_secret_file: FilePath | None = None  # default: <data_dir>/reply-token.secret
    # The key of the digests that confirmation codes are stored as (gm.core.codes), made 0600 on
    # first use: outside the database, so a stolen one cannot be searched for its codes.
    code_secret_file: FilePath | None = None  # default: <data_dir>/code-secret
    # kinds players may CREATE by mail
    player_create_kinds: Annotated[list[str], Expect("a list of game kinds, e.g. [neighbors]")] = Field(
        default_factory=list)
    # whether CREATE by mail may open a rated game (CREATE <kind> <id> [<seats>] RATED): off, so
    # that throwaway addresses cannot farm a rating; the GM's and tournaments' games may be rated
    player_rated: Flag = False
    # Double opt-in: OBSERVE, JOIN and CREATE wait for the address to answer a code.
    # Caps on those code mails, counted per mailbox they go to (gm.core.addresses.mailbox_key) and
    # in total to addresses without a seat; reaching the total mails gm_address once an hour.
    # max_observers: the observers one game takes.
    confirmations_per_address_per_day: Cap = 3  # and never a 2nd while one sent today is unanswered
    confirmations_per_hour: Cap = 100
    max_observers: Cap = 50
    verp: Flag = True  # envelope sender <local>+bounce-<id>-<tag>@<domain>; false: no plus addressing
    verp_secret_file: FilePath | None = None  # the VERP tags' key, made 0600 on first use (default: data_dir)
    # the right-hand side of every Message-ID (default: address's domain)
    message_id_domain: Annotated[str | None, Expect("a domain, e.g. example.org")] = None
    archive_dir: FilePath | None = None  # the daemon keeps the archive site here, current after every turn
    # Where players read archive_dir on the web (e.g. https://example.org/games/): a game's end mail
    # links its page there.  None: the archive is not public, and no mail links it.
    archive_url: Annotated[str | None, Expect("a web address, e.g. https://example.org/games/")] = None
    # The language the archive site is written in (its pages' words; names and notation stay as they are).
    archive_language: Annotated[Literal["en", "de", "fr"], Expect("en, de or fr")] = "en"
    # Files gm makes are 0600, folders 0700; with a group name, the data folder is given to that
    # group (mode 2770) and files are 0660, so a GM's CLI can share the store with the daemon.
    group: Annotated[str | None, Expect("the name of a group, e.g. gm")] = None
    # Where log lines and tracebacks go (default: stderr; for `gm ingest`, <data_dir>/gm.log, as the
    # MTA copies stderr into delivery reports and bounces).
    log_file: FilePath | None = None
    source: str = "embedded default"
    extra: dict[str, Any] = Field(default_factory=dict)

    _placed = field_validator(*(k for k in (*READ_PATHS, *MADE_PATHS) if k != "password_file"),
                              mode="after")(place)

    @field_validator("store", mode="after")
    @classmethod
    def _store_placed(cls, value: Any, info: ValidationInfo) -> Any:
        return value if value is None or is_server_store(value) else str(place(value, info))

    @field_validator("dkim_selector", "dkim_domain", mode="before")
    @classmethod
    def _dns_name(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # YAML reads `dkim_selector: 2025` as a number
        if value is not None and (not isinstance(value, str) or not value.strip() or not value.isascii()
                                  or any(c.isspace() or c in ";=" for c in value.strip())):
            raise ValueError("must be a DNS name, e.g. gm2025 or example.org")
        return value

    @field_validator("message_id_domain", mode="before")
    @classmethod
    def _domain(cls, value: Any) -> Any:
        """Written into every Message-ID (<...@domain>): a domain, nothing a header could break on."""
        if value is not None and (not isinstance(value, str) or not value.strip() or not value.isascii()
                                  or any(c.isspace() or c in "<>@\"()[],;:\\" for c in value)):
            raise ValueError("must be a domain, e.g. example.org")
        return value

    @field_validator("archive_url", mode="before")
    @classmethod
    def _web_address(cls, value: Any) -> Any:
        """Written into mail as it is: an http(s) address, one word of ASCII."""
        if value is not None and (not isinstance(value, str) or not value.isascii()
                                  or not value.startswith(("https://", "http://"))
                                  or len(value.split()) != 1 or value.strip() != value):
            raise ValueError("must be a web address, e.g. https://example.org/games/")
        return value

    @field_validator("address", "gm_address", mode="after")
    @classmethod
    def _address(cls, value: Any, info: ValidationInfo) -> Any:
        """In the form gm keeps every address (gm.core.addresses: an IDN domain in A-label form).
        gm's own address must be ASCII: its plus addresses are on every mail gm sends."""
        if value is None:
            return value
        kept = addresses.normal(value)
        if kept is None or (info.field_name == "address" and not kept.isascii()):
            raise ValueError("must be a mail address, e.g. gm@example.org"
                             + (" (gm's own with an ASCII local part)" if info.field_name == "address" else ""))
        return kept

    @field_validator("group", mode="before")
    @classmethod
    def _group(cls, value: Any) -> Any:
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ValueError("must be the name of a group, e.g. gm")
        return value

    @model_validator(mode="after")
    def _defaults(self) -> "Config":
        """The paths that default to places inside data_dir."""
        self.data_dir = Path(self.data_dir)
        if self.store is not None:
            self.database = str(self.store)
        if is_server_store(self.database):
            self.database = str(self.database)
        else:
            self.database = Path(self.database) if self.database else self.data_dir / "gm.sqlite"
        self.inbox = Path(self.inbox) if self.inbox else self.data_dir / "inbox"
        self.outbox = Path(self.outbox) if self.outbox else self.data_dir / "outbox"
        self.reply_token_secret_file = self.reply_token_secret_file or self.data_dir / "reply-token.secret"
        self.code_secret_file = self.code_secret_file or self.data_dir / "code-secret"
        self.verp_secret_file = self.verp_secret_file or self.data_dir / "verp-secret"
        self.player_create_kinds = [k.strip().lower() for k in self.player_create_kinds]
        return self

    @property
    def domain(self) -> str:
        return domain_of(self.address)

    def dumped(self) -> dict[str, Any]:
        """Every key as JSON has it (paths as text)."""
        return self.model_dump(mode="json")


# --- errors, in the GM's words -------------------------------------------------------------------
def expectation(loc: tuple[int | str, ...]) -> tuple[str, str | None]:
    """The dotted key an error is about (imap.tls), and what that key takes."""
    model: Any = Config
    names: list[str] = []
    expected = None
    for part in loc:
        fields = getattr(model, "model_fields", None)
        if not isinstance(part, str) or fields is None or part not in fields:
            break
        names.append(part)
        info = fields[part]
        annotation = info.annotation
        # Expect on the field itself, or inside an optional one (FilePath | None)
        marks = [*info.metadata, *(m for a in getattr(annotation, "__args__", ())
                                   for m in getattr(a, "__metadata__", ()))]
        expected = next((m.text for m in marks if isinstance(m, Expect)), expected)
        model = next((a for a in getattr(annotation, "__args__", (annotation,)) if hasattr(a, "model_fields")),
                     None)
    return ".".join(names) or "the config", expected


def describe(exc: ValidationError) -> list[str]:
    """One line per mistake: the key, and what it takes (unknown keys grouped per section)."""
    lines: list[str] = []
    unknown: dict[str, list[str]] = {}
    for error in exc.errors(include_url=False):
        loc = error["loc"]
        if error["type"] == "extra_forbidden":
            unknown.setdefault(".".join(str(p) for p in loc[:-1]), []).append(str(loc[-1]))
            continue
        key, expected = expectation(loc)
        if error["type"] == "value_error":
            words = str(error["ctx"]["error"])
            if words.startswith("must "):
                lines.append(f"{key} {words}")
            else:
                lines.append(f"{key}: {words}" + (f" ({key} must be {expected})" if expected else ""))
        else:
            lines.append(f"{key} must be {expected or error['msg'].lower()}, not {error['input']!r}")
    for section, keys in unknown.items():
        lines.append(f"{section + ': ' if section else ''}unknown keys {sorted(keys)}")
    return lines


def cross_checks(raw: dict[str, Any]) -> list[str]:
    """Keys that only make sense together, checked on what the file says (so even beside type errors)."""
    problems = []
    if raw.get("dkim_key_file") and not raw.get("dkim_selector"):
        problems.append("dkim_key_file is set but dkim_selector is not")
    if raw.get("dkim_selector") and not raw.get("dkim_key_file"):
        problems.append("dkim_selector is set but dkim_key_file is not (gm dkim keygen --out FILE makes a key)")
    for section in ("imap", "smtp"):
        server = raw.get(section)
        if not isinstance(server, dict):
            continue
        if "password" in server:
            problems.append(f"{section}: put the password in password_env or password_file, not the YAML")
        if server.get("user") and not (server.get("password_env") or server.get("password_file")):
            problems.append(f"{section}: a user needs password_env or password_file")
    return problems


def validated(raw: dict[str, Any], source: str, to_make: tuple[str, ...]
              ) -> tuple[Config | None, list[str], list[tuple[str, str]]]:
    """The config a file's mapping ``raw`` gives (None if any problem), every problem (one line
    each, the file not named), and the checks of the file system it passed (EXISTS, FOLDER)."""
    problems = cross_checks(raw)
    for section in ("imap", "smtp"):
        if isinstance(raw.get(section), dict):  # said above in better words than "unknown key"
            raw[section] = {k: v for k, v in raw[section].items() if k != "password"}
    reserved = sorted(k for k in ("source", "extra") if k in raw)
    if reserved:
        problems.append(f"unknown keys {reserved}")
    context: dict[str, Any] = {"base": Path(source).parent, "check_paths": True, "to_make": to_make}
    config = None
    try:
        config = Config.model_validate({**{k: v for k, v in raw.items() if k not in reserved},
                                        "source": source}, context=context)
    except ValidationError as exc:
        problems = describe(exc) + problems
    return (None if problems else config), problems, context.get("checked", [])
