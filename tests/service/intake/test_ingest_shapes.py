"""What `gm ingest` writes besides an order, a bounce, a wrong password and a player's settings,
runs statements declared at module level (gm.store.sql.inserting, updating), so compiled ahead: none
is made at run time, which would load SQLAlchemy into a process an MTA starts once per mail
(tests/test_startup_imports.py proves it for an order mail)."""

from __future__ import annotations

from bounce_fixtures import bounce, outbox_row
from gm.store import sql
from support import PLAYERS, mark_all_sent, order_mail

ON_BOTH_BACKENDS = True  # SQLite and PostgreSQL

ADDRESS = dict(PLAYERS)


def made_at_run_time() -> set:
    """The shapes run so far that no module declares (not compiled ahead)."""
    return {key for key, (statement,) in sql.SHAPED.items() if statement.compiled and statement.name is None}


def test_a_bounce_a_wrong_password_and_settings_by_mail_run_only_declared_shapes(engine, nb_game):
    before = made_at_run_time()  # by earlier tests in this process (generic Store.insert...)
    settings = engine.ingest(order_mail(ADDRESS["ada"], "SET FORMAT TEXT\nSET TIMEZONE Europe/Paris",
                                        game_id="nb1", password=nb_game["ada"]))
    assert settings.outcome == "help", settings.detail  # commands only: answered, no order
    assert engine.store.player("nb1", "ada")["timezone"] == "Europe/Paris"
    assert engine.store.player("nb1", "ada")["format"] == "text"
    wrong = engine.ingest(order_mail(ADDRESS["bob"], "PASS", game_id="nb1", password="not-it"))
    assert wrong.outcome != "applied"
    mark_all_sent(engine)
    welcome = outbox_row(engine.store, ADDRESS["bob"], "welcome")
    bounced = engine.ingest(bounce("postfix", welcome, engine.verp))
    assert engine.store.outbox_row(welcome["id"])["status"] == "bounced", bounced.detail
    assert made_at_run_time() - before == set()
