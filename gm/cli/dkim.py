"""gm dkim keygen: a private key to sign outgoing mail with, and the DNS record to publish."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from gm.cli.common import HELP_STYLE, app, fail, state
from gm.core import config as config_module
from gm.mail import dkim as dkim_keys

DEFAULT_KEY_FILE = Path("dkim.key")
DEFAULT_SELECTOR = "gm"

dkim_app = typer.Typer(no_args_is_help=True, rich_markup_mode=HELP_STYLE,
                       help="DKIM: signing the mail gm sends.")
app.add_typer(dkim_app, name="dkim")


@dkim_app.command("keygen")
def keygen(bits: int = typer.Option(dkim_keys.DEFAULT_BITS, "--bits", help="the RSA key size"),
           out: Optional[Path] = typer.Option(None, "--out", help="the private key file to write (default: "
                                              "the config's dkim_key_file, else dkim.key)"),
           selector: Optional[str] = typer.Option(None, "--selector", help="the selector named in the DNS "
                                                  "record (default: the config's dkim_selector, else gm)"),
           force: bool = typer.Option(False, "--force", help="replace an existing key file")):
    """Write a new DKIM private key (mode 0600) and print the DNS TXT record to publish."""
    try:
        conf = config_module.load(state["config"], to_make=("dkim_key_file",))
    except config_module.ConfigError as exc:
        fail(str(exc))
    path = (out or conf.dkim_key_file or DEFAULT_KEY_FILE).expanduser()
    selector = selector or conf.dkim_selector or DEFAULT_SELECTOR
    domain = conf.dkim_domain or dkim_keys.domain_of(conf.address)
    if path.exists() and not force:
        fail(f"{path} exists; give another --out, or --force to replace it (mail signed with the old key "
             "fails DKIM once its DNS record is gone)")
    try:
        key = dkim_keys.generate_key(bits)
    except ValueError as exc:
        fail(str(exc))
    try:
        if force:
            path.unlink(missing_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
        os.chmod(path, 0o600)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")
    typer.echo(f"Wrote a {bits}-bit RSA private key to {path} (mode 0600). Publish this DNS record:\n")
    typer.echo(dkim_keys.dns_record(selector, domain, key))
    settings = [f"dkim_selector: {selector}", f"dkim_key_file: {path.resolve()}"]
    if conf.dkim_domain:
        settings.append(f"dkim_domain: {domain}")
    typer.echo("\nthen sign with it: in the config,\n" + "\n".join(f"  {line}" for line in settings))
