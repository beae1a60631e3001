"""`gm demo`: a whole Neighbors game played by mail through the Maildirs.

Order mails are written into the inbox as the two players would send them,
the daemon runs once after each, and the reports are read back from the
outbox: the same path a real game takes, with no mail account.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import random
import uuid
from pathlib import Path

from gm.runtime.delivery import flush
from gm.runtime.maildir import MaildirTransport, ensure_maildir, process_maildir
from gm.service.engine import Engine

PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]


def order_mail(sender: str, to: str, game_id: str, password: str, text: str) -> bytes:
    msg = email.message.EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = f"{game_id} orders"
    msg["Date"] = email.utils.formatdate()
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@example.org>"
    msg.set_content(f"GAME {game_id} PASSWORD {password}\n{text}\n")
    return bytes(msg)


def post(inbox: Path, raw: bytes) -> None:
    ensure_maildir(inbox)
    name = f"demo-{uuid.uuid4().hex}"
    (inbox / "tmp" / name).write_bytes(raw)
    (inbox / "tmp" / name).rename(inbox / "new" / name)


def play_demo(engine: Engine, seed: int, echo) -> str:
    config = engine.config
    existing = {row.id for row in engine.store.games.every_game()}
    n = 1
    while f"demo{n}" in existing:
        n += 1
    game_id = f"demo{n}"
    secrets = engine.create_game("neighbors", game_id, PLAYERS, seed=seed)
    transport = MaildirTransport(config.outbox)
    flush(engine.store, transport)
    echo(f"Started Neighbors game {game_id} for ada and bob (seed {seed}).")
    rng = random.Random(seed)
    moves = 0
    while True:
        loaded = engine.load(game_id)
        if loaded.rules.is_over(loaded.state):
            break
        (mover,) = loaded.rules.to_move(loaded.state)
        capture = rng.choice(loaded.rules.legal_orders(loaded.state, mover))
        address = dict(PLAYERS)[mover]
        post(config.inbox, order_mail(address, config.address, game_id, secrets[mover], capture))
        process_maildir(engine, config.inbox)
        flush(engine.store, transport)
        moves += 1
    loaded = engine.load(game_id)
    final = engine.report_body(loaded, loaded.state, None, [])
    echo(final)
    sent = engine.store.outbox.sent_count(game_id)
    echo(f"{moves} order mails went through {config.inbox}/;")
    echo(f"{sent} reports and welcomes are in {config.outbox}/new/ (one file per mail).")
    echo(f"Database: {config.database}.  Try: gm show {game_id}, gm outbox --all")
    return game_id
