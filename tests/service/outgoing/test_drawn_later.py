"""Pictures drawn by the sender: what `gm ingest` queues with each picture's spec, the sending pass
finishes into the mail the judge would have queued with the pictures drawn (gm.service.outgoing.later)."""

from __future__ import annotations

import email
import email.policy

import dkim
import pytest

from gm.core.config import Config
from gm.mail import dkim as gm_dkim
from gm.mail.outbound import LATER, is_later
from gm.present import pictures
from gm.runtime.delivery import flush
from gm.service.engine import Engine
from gm.service.outgoing import later
from gm.store import Store
from gm.store.packing import unpack_mail
from support import EXAMPLE_LAYOUT, GM_ADDRESS, PLAYERS, Clock, last_outbox_id


class Recording:
    """A transport that keeps each mail it is given."""

    def __init__(self):
        self.sent: dict[int, bytes] = {}

    def send(self, recipient, raw, outbox_id):
        self.sent[outbox_id] = raw

    def close(self):
        pass


def reports_queued(engine: Engine, draw_later: bool) -> dict[int, bytes]:
    """Every player's report of nb1 as it stands, queued now (outbox id -> the stored mail)."""
    since = last_outbox_id(engine)
    engine.outbox.draw_later = draw_later
    try:
        with engine.store.write():
            engine.queue_reports(engine.load("nb1"), [])
    finally:
        engine.outbox.draw_later = False
    rows = engine.store.all("SELECT id, raw FROM outbox WHERE kind = 'report' AND id > :since ORDER BY id",
                            since=since)
    return {row["id"]: unpack_mail(row["raw"]) for row in rows}


def read(raw: bytes):
    """(the headers but those of the moment and the thread, text, html, {content id: image}) of a report."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    text, related = msg.get_payload()
    html, *images = related.get_payload()
    heads = [(k, v) for k, v in msg.items() if k not in ("Date", "Message-ID", "References", "Content-Type")]
    return (heads, text.get_content(), html.get_content(),
            {part["Content-ID"]: part.get_content() for part in images})


def test_a_report_drawn_by_the_sender_is_the_one_drawn_at_once(engine, nb_game):
    at_once = list(reports_queued(engine, draw_later=False).values())
    waiting = list(reports_queued(engine, draw_later=True).values())
    assert len(at_once) == len(waiting) == 2
    view = engine.load("nb1")
    for drawn, spec in zip(at_once, waiting):
        assert not is_later(drawn) and is_later(spec) and LATER.encode() in spec
        finished = later.finished(spec)
        assert not is_later(finished)
        assert read(finished) == read(drawn)
        (png,) = read(finished)[3].values()
        assert png == pictures.picture(view.rules, view.state, "ada")
        width, height = pictures.size(png)
        assert f'width="{width}" height="{height}"' in read(finished)[2]


def test_the_sending_pass_finishes_the_mail_and_keeps_it_as_sent(engine, nb_game):
    waiting = reports_queued(engine, draw_later=True)
    transport = Recording()
    flush(engine.store, transport, now=engine.clock())
    assert set(waiting) <= set(transport.sent)
    for outbox_id, spec in waiting.items():
        sent = transport.sent[outbox_id]
        assert not is_later(sent) and read(sent) == read(later.finished(spec))  # boundaries are random
        kept = unpack_mail(engine.store.one("SELECT raw FROM outbox WHERE id = :id", id=outbox_id)["raw"])
        assert not is_later(kept) and read(kept)[1:] == read(sent)[1:]  # its reply token masked


def test_a_mail_finished_by_its_sender_is_signed_then(tmp_path):
    key = gm_dkim.generate_key(2048)
    key_file = tmp_path / "dkim.key"
    key_file.write_bytes(key)
    config = Config(data_dir=tmp_path / "gm-data", address=GM_ADDRESS, dkim_selector="gm1", dkim_key_file=key_file)
    engine = Engine(Store(config.database), config, clock=Clock())
    try:
        engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
        waiting = reports_queued(engine, draw_later=True)
        transport = Recording()
        flush(engine.store, transport, now=engine.clock())
    finally:
        engine.store.close()
    record = f"v=DKIM1; k=rsa; p={gm_dkim.public_key_b64(key)}".encode()
    for outbox_id, spec in waiting.items():
        assert not spec.startswith(b"DKIM-Signature: ")  # not signed until it is finished
        sent = transport.sent[outbox_id]
        assert sent.startswith(b"DKIM-Signature: ")
        assert dkim.verify(sent, dnsfunc=lambda name, timeout=5: record)


def test_a_mail_that_cannot_be_finished_waits_and_the_others_go(tmp_path, caplog):
    key_file = tmp_path / "dkim.key"
    key_file.write_bytes(gm_dkim.generate_key(2048))
    config = Config(data_dir=tmp_path / "gm-data", address=GM_ADDRESS, dkim_selector="gm1", dkim_key_file=key_file)
    engine = Engine(Store(config.database), config, clock=Clock())
    try:
        engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"layout": EXAMPLE_LAYOUT})
        flush(engine.store, Recording(), now=engine.clock())
        waiting = reports_queued(engine, draw_later=True)
        with engine.store.write():
            engine.outbox.queue("gm@example.org", "a notice", "text\n", kind="notice")
        key_file.unlink()
        transport = Recording()
        flush(engine.store, transport, now=engine.clock())
        left = {r["id"]: r["status"] for r in engine.store.all("SELECT id, status FROM outbox")}
    finally:
        engine.store.close()
    assert len(transport.sent) == 1 and not set(transport.sent) & set(waiting)
    assert all(left[outbox_id] == "queued" for outbox_id in waiting)
    assert "could not be finished" in caplog.text


@pytest.mark.parametrize("kind", ["fuzzy-borders", "pivot-pawns", "proximity", "phalanx"])
def test_a_spec_draws_the_picture_each_viewer_would_get(engine, kind):
    from support import play_game

    play_game(engine, kind, "g1", seed=7, max_steps=6)
    view = engine.load("g1")
    names = [p.name for p in view.players]
    specs = pictures.specs_for(view.rules, view.state, names)
    drawn = pictures.pictures_for(view.rules, view.state, names)
    assert {name: pictures.drawn_later(specs[name]) for name in names} == drawn
