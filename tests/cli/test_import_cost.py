"""A command imports what it uses: `python -X importtime` of gm's way in, per path, against a list.

Not a timing (timings move with the machine): the modules each path imported,
read from -X importtime, must hold none of the modules listed as heavy for
that path.  The figures themselves are benchmarks/cli_start.py's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import order_mail
from gm.core import config as config_module
from gm.service.engine import Engine
from gm.store import Store, migrations, schema

# Never on these paths: the daemon's network (IMAP, SMTP), PostgreSQL on a SQLite store, SQLAlchemy
# (compiled ahead), pictures but for a report, DKIM signing when no key is configured.
NEVER = {"sqlalchemy", "aiosmtplib", "imapclient", "psycopg", "dkim", "cryptography", "flufl", "gm.runtime",
         "icalendar"}  # calendar parts: no reader here has SET CALENDAR ON
THE_SERVICE = {"gm.service", "gm.mail", "gm.present", "games", "jinja2", "PIL", "markupsafe"}
# A config validated once is read back from its cache (gm.core.config): no models, no YAML; a store
# at the last step loads no migration step; only a postgresql:// store loads its back end.
OPENING = {"gm.core.configmodel", "yaml", "gm.store.steps", "gm.store.schema", "gm.store.postgres"}
ENGINES = {"games.neighbors", "games.fuzzy_borders", "games.phalanx", "games.proximity", "games.pivot_pawns"}
HEAVY = {
    # gm --version alone is a plain form too: not even the CLI framework
    "version": NEVER | THE_SERVICE | {"gm.store", "gm.core.config", "pydantic", "yaml", "sqlite3",
                                      "importlib.metadata", "typer", "click"},
    # The plain forms of list, show and status run without the CLI framework (gm.cli.plain).
    "list": NEVER | THE_SERVICE | OPENING | {"pydantic", "typer", "click"},
    # gm show reads the store and renders the report: no outbox, no mail read or written
    "show": NEVER | OPENING | {"pydantic", "typer", "click", "PIL", "gm.service.intake", "gm.present.pictures.draw",
                               "gm.service.outgoing", "gm.mail", "email"},
    "status": NEVER | OPENING | ENGINES | {"pydantic", "PIL", "gm.service.intake", "gm.service.play", "typer",
                                           "click"},
    "help": NEVER | OPENING | ENGINES | {"typer", "click", "pydantic", "importlib.metadata", "PIL",
                                         "gm.present.pictures.draw", "gm.service.play",
                                         "gm.service.intake.orders", "gm.service.intake.held",
                                         # what the mail commands do, the reports and the archive
                                         "gm.service.people.playercommands", "gm.service.people.lobby",
                                         "gm.service.people.seats", "gm.service.outgoing.reports",
                                         "gm.present.archive", "xml",
                                         # compat32 is email.message's; the HTML reader, for HTML mail
                                         "email.policy", "gm.mail.html"},
    "order": NEVER | OPENING | {"typer", "click", "pydantic", "importlib.metadata", "PIL",
              "gm.present.pictures.draw"},  # the sender draws the pictures (gm.service.outgoing.later)
}

# Kept off a piped mail's way where it does not need them: the rules' module (a HELP names the games
# by their modules alone), DKIM with no selector configured, time zones until a reader names one,
# the HTML entities table until an HTML part is masked, the set-aside and held rooms until needed.
KEPT_OFF = {
    "help": {"games.base", "gm.mail.dkim", "zoneinfo", "html", "gm.service.intake.setaside",
             "gm.service.table.ratings", "openskill", "gm.store.tournaments"},
    "order": {"gm.mail.dkim", "zoneinfo", "gm.service.intake.held", "gm.service.table.ratings", "gm.store.community",
              "openskill", "gm.service.people.tournamentrounds", "gm.store.tournaments"},
}


def imported(*args: str, mail: bytes = b"", code: int = 0) -> set[str]:
    """Every module `gm ARGS` imported (with each package above it), from -X importtime."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gm.cli", *args], input=mail,
                          capture_output=True, env=env, timeout=120)
    lines = done.stderr.decode().splitlines()
    assert done.returncode == code, "\n".join(line for line in lines if not line.startswith("import time:"))
    names = {line.split("|")[-1].strip() for line in lines if line.startswith("import time:")}
    return {".".join(name.split(".")[:k]) for name in names for k in range(1, name.count(".") + 2)}


def heavy(path: str, modules: set[str]) -> list[str]:
    return sorted(modules & HEAVY[path])


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> tuple[Path, bytes]:
    """A config, a store with one game, and an order of its first mover to its seat's reply address."""
    return make_table(tmp_path_factory.mktemp("import-cost"))


@pytest.fixture
def own_table(tmp_path) -> tuple[Path, bytes]:
    """As ``table``, for a test whose order must be new to its store."""
    return make_table(tmp_path)


def make_table(folder: Path) -> tuple[Path, bytes]:
    conf = folder / "gm.yaml"
    conf.write_text(f"data_dir: {folder / 'data'}\naddress: gm@example.test\n")
    config = config_module.load(conf)
    engine = Engine(Store(config.database), config)
    try:
        engine.create_game("neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "bob@example.org")], seed=3)
        view = engine.load("nb1")
        (mover,) = view.rules.to_move(view.state)
        sender = f"{mover}@example.org"
        order = order_mail(sender, view.rules.legal_orders(view.state, mover)[0],
                           to=engine.outbox.tokens.reply_to("nb1", sender), subject="Re: [nb1] report")
    finally:
        engine.store.close()
    return conf, order


def test_gm_version_imports_nothing_of_gm_but_the_command_line():
    assert heavy("version", imported("--version")) == []


def test_gm_list_reads_the_store_without_the_service(table):
    conf, _ = table
    assert heavy("list", imported("--config", str(conf), "list")) == []


def test_gm_show_renders_the_report_without_typer_or_pictures(table):
    conf, _ = table
    assert heavy("show", imported("--config", str(conf), "show", "nb1")) == []


def test_gm_status_reads_the_service_without_the_rules_or_typers_validators(table):
    conf, _ = table
    assert heavy("status", imported("--config", str(conf), "status", code=1)) == []  # 1: no daemon runs


def test_gm_ingest_of_a_strangers_help_takes_no_typer_and_no_pictures(table):
    conf, _ = table
    mail = order_mail("stranger@example.net", "HELP", subject="help")
    assert heavy("help", imported("--config", str(conf), "ingest", "-", mail=mail)) == []


def test_a_strangers_help_after_the_first_takes_no_jinja(table):
    """The HELP text is rendered once and kept (gm.present.kept): another stranger's HELP reads it."""
    conf, _ = table
    for sender in ("first@example.net", "second@example.net"):
        modules = imported("--config", str(conf), "ingest", "-", mail=order_mail(sender, "HELP", subject="help"))
    assert heavy("help", modules) == [] and "jinja2" not in modules


def test_gm_ingest_of_an_order_takes_no_typer_and_no_network(table):
    conf, order = table
    assert heavy("order", imported("--config", str(conf), "ingest", "-", mail=order)) == []


def test_a_strangers_help_loads_no_rules_dkim_time_zones_or_html_entities(table):
    conf, _ = table
    mail = order_mail("third@example.net", "HELP", subject="help")
    assert sorted(imported("--config", str(conf), "ingest", "-", mail=mail) & KEPT_OFF["help"]) == []


def test_an_order_without_a_dkim_selector_or_a_time_zone_loads_neither(own_table):
    conf, order = own_table
    assert sorted(imported("--config", str(conf), "ingest", "-", mail=order) & KEPT_OFF["order"]) == []


def test_the_lists_catch_a_heavy_import(table):
    """The probe sees what it must: gm show renders the report (the service, the rules, Jinja)."""
    conf, _ = table
    assert {"gm.service", "games", "jinja2"} <= set(heavy("list", imported("--config", str(conf), "show", "nb1")))


def test_a_store_opens_at_the_last_step_without_loading_the_steps():
    """migrations.LAST_STEP stands for the last step until the steps load: it must be that step."""
    assert migrations.LAST_STEP == schema.STEPS[-1].number


def test_a_kept_config_is_validated_again_when_a_path_it_checked_is_gone(tmp_path):
    """The cache hides no error: the inbox it found is removed, and the next load says so."""
    (tmp_path / "mail").mkdir()
    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\ninbox: mail\n")
    assert config_module.load(conf).inbox == tmp_path / "mail"
    assert type(config_module.load(conf)) is config_module.CachedConfig  # read back
    (tmp_path / "mail").rmdir()
    with pytest.raises(config_module.ConfigError) as raised:
        config_module.load(conf)
    gone = tmp_path / "mail"
    assert raised.value.problems == [f"inbox: {gone} does not exist (inbox must be an existing Maildir folder)"]


def test_every_command_registered_is_in_the_table_of_where_commands_are():
    """A command gm.cli.registry.WHERE does not name would never load: none may be missing."""
    import importlib
    import pkgutil

    import gm.cli
    from gm.cli.common import app
    from gm.cli.registry import WHERE
    from typer.main import get_command_name

    for module in pkgutil.iter_modules(gm.cli.__path__):
        if module.name != "__main__":
            importlib.import_module(f"gm.cli.{module.name}")
    registered = [info.name or get_command_name(info.callback.__name__) for info in app.registered_commands]
    registered += [group.name for group in app.registered_groups]
    assert sorted(registered) == sorted(WHERE)
