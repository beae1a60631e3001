"""The daemon on the embedded Maildirs: exactly once, even after a crash."""

from __future__ import annotations

from support import eml
from gm.runtime.daemon import run
from gm.runtime.maildir import maildir_key, process_maildir
from gm.runtime.delivery import flush
from gm.runtime.maildir import MaildirTransport, ensure_maildir


def deliver(inbox, name, raw):
    ensure_maildir(inbox)
    (inbox / "new" / name).write_bytes(raw)


def test_crash_between_commit_and_move_does_not_apply_twice(engine, nb_game, config):
    raw = eml("plain.eml", game="nb1", password=nb_game["ada"])
    deliver(config.inbox, "1700000000.M1.host", raw)
    # The daemon commits the message's effects, then dies before moving the file.
    engine.ingest(raw, maildir_key("1700000000.M1.host"))
    assert len(engine.load("nb1").state.moves) == 1
    queued = engine.store.one("SELECT COUNT(*) AS n FROM outbox")["n"]
    # The restarted daemon finds the file still in new/.
    done = process_maildir(engine, config.inbox)
    assert done == [("1700000000.M1.host", "duplicate")]
    assert len(engine.load("nb1").state.moves) == 1
    assert engine.store.one("SELECT COUNT(*) AS n FROM outbox")["n"] == queued
    assert list((config.inbox / "new").iterdir()) == []
    assert [p.name for p in (config.inbox / "cur").iterdir()] == ["1700000000.M1.host:2,S"]


def test_run_once_processes_inbox_and_delivers_outbox(engine, nb_game, config):
    deliver(config.inbox, "a.host", eml("plain.eml", game="nb1", password=nb_game["ada"]))
    run(engine, config, once=True)
    assert engine.load("nb1").state.moves[-1].notation() == "Rb4xd4"
    files = sorted((config.outbox / "new").iterdir())
    # Two welcomes and two reports, each written once.
    assert len(files) == 4
    assert engine.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status != 'sent'")["n"] == 0
    # Flushing again sends nothing more.
    assert flush(engine.store, MaildirTransport(config.outbox)) == 0
    assert len(list((config.outbox / "new").iterdir())) == 4


class DownTransport:
    def __init__(self):
        self.up = False
        self.sent = []

    def send(self, recipient, raw, outbox_id):
        if not self.up:
            raise ConnectionRefusedError("server down")
        self.sent.append(outbox_id)


def test_outbox_keeps_mail_while_the_transport_is_down(engine, nb_game, clock):
    transport = DownTransport()
    assert flush(engine.store, transport, now=clock()) == 0
    row = engine.store.one("SELECT * FROM outbox ORDER BY id LIMIT 1")
    assert row["status"] == "queued" and row["attempts"] == 1 and "server down" in row["last_error"]
    transport.up = True
    assert flush(engine.store, transport, now=clock()) == 0  # not yet due: backoff
    assert flush(engine.store, transport, now=clock() + 3600) == 2
    assert sorted(transport.sent) == [1, 2]
