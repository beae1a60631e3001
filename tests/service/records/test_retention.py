"""Sent mail kept as words: a day after a report went out, the store's copy keeps its headers and text."""

from __future__ import annotations

import email
import email.policy
import time

from gm.mail.outbound import ARCHIVED_NOTE, TRIMMED_NOTE, marked, words_only
from gm.runtime.delivery import flush
from gm.service.records import retention
from gm.store.packing import unpack_mail, unpack_text
from support import last_outbox_id, order_mail

ON_BOTH_BACKENDS = True


class Accepting:
    """A transport that takes every message (the SMTP server's side is not what this is about)."""

    def __init__(self):
        self.sent: list[bytes] = []

    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        self.sent.append(raw)


def stored(engine, outbox_id: int) -> bytes:
    return unpack_mail(engine.store.one("SELECT raw FROM outbox WHERE id = :id", id=outbox_id)["raw"])


def report_ids(engine, since: int) -> list[int]:
    return [r["id"] for r in engine.store.all("SELECT id FROM outbox WHERE kind = 'report' AND id > :since "
                                              "ORDER BY id", since=since)]


def a_move(engine, nb_game, clock) -> list[int]:
    """ada's capture, judged now: the engine's clock is set to the real time, which flush() marks
    a mail sent at."""
    clock.now = time.time()
    since = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "Rb4xd4", game_id="nb1", password=nb_game["ada"]))
    return report_ids(engine, since)


def test_a_day_after_sending_a_report_the_copy_keeps_its_headers_and_the_archive_its_words(
        engine, nb_game, clock):
    ids = a_move(engine, nb_game, clock)
    flush(engine.store, Accepting(), now=clock())
    whole = {i: stored(engine, i) for i in ids}
    assert retention.trim_sent(engine.store, clock()) == 0  # sent just now: kept whole
    assert all(stored(engine, i) == whole[i] for i in ids)

    clock.advance(retention.KEEP_PICTURES + 1)
    assert engine.trim_sent_mail() == len(ids) == 2
    for i in ids:
        before = email.message_from_bytes(whole[i], policy=email.policy.default)
        after_raw = stored(engine, i)
        after = email.message_from_bytes(after_raw, policy=email.policy.default)
        assert len(after_raw) < len(whole[i]) / 10 and b"base64" not in after_raw
        for name in ("Message-ID", "Subject", "To", "Date", "Reply-To", "Content-Type"):
            assert after[name] == before[name]
        old_parts = [p for p in before.walk() if not p.is_multipart()]
        new_parts = [p for p in after.walk() if not p.is_multipart()]
        assert [p.get_content_type() for p in new_parts] == [p.get_content_type() for p in old_parts]
        for old, new in zip(old_parts, new_parts):
            assert old.get_content() and new.get_payload() == ""
            if old.get_content_type() == "text/plain":  # the report: its words are in the archive
                assert new["X-GM-Trimmed"] == ARCHIVED_NOTE
                archived = engine.store.one("SELECT body, body_packing FROM reports WHERE outbox_id = :outbox_id "
                                            "AND kind = 'report'", outbox_id=i)
                # the same words, under gm's marker line (gm.mail.outbound.marked)
                assert marked(unpack_text(archived["body"], archived["body_packing"])) == old.get_content()
            else:  # the HTML page and its picture
                assert new["X-GM-Trimmed"] == TRIMMED_NOTE
    assert engine.trim_sent_mail() == 0  # nothing is trimmed twice


def test_a_mail_whose_words_are_not_archived_keeps_its_text(engine, nb_game, clock):
    (first, _) = a_move(engine, nb_game, clock)
    raw = stored(engine, first)
    kept = email.message_from_bytes(words_only(raw, keep_text=True), policy=email.policy.default)
    sent = email.message_from_bytes(raw, policy=email.policy.default)
    assert kept.get_body(("plain",)).get_content() == sent.get_body(("plain",)).get_content()
    assert kept.get_body(("html",)).get_payload() == ""


def test_mail_not_sent_held_or_without_pictures_is_never_rewritten(engine, nb_game, clock):
    # The welcomes carry the picture; a HELP reply is text alone.
    welcomes = [r["id"] for r in engine.store.all("SELECT id FROM outbox ORDER BY id")]
    engine.ingest(order_mail("ada@example.org", "HELP", game_id="nb1", password=nb_game["ada"]))
    text_ids = [r["id"] for r in engine.store.all("SELECT id FROM outbox WHERE id > :since ORDER BY id",
                                                         since=max(welcomes))]
    assert text_ids
    queued = a_move(engine, nb_game, clock)
    flush(engine.store, Accepting(), now=clock())  # reports sent
    held = queued[0]
    with engine.store.write():
        engine.store.db.execute("UPDATE outbox SET status = 'held' WHERE id = :id", {"id": held})
    before = {i: stored(engine, i) for i in welcomes + text_ids + [held]}
    clock.advance(10 * retention.KEEP_PICTURES)
    assert engine.trim_sent_mail() == 1  # the other report, and nothing else
    assert all(stored(engine, i) == before[i] for i in before)
    assert all(engine.store.one("SELECT trimmed FROM outbox WHERE id = :id", id=i)["trimmed"] == 1
               for i in text_ids)


def test_words_only_leaves_a_text_mail_as_it_is():
    raw = b"From: gm@example.org\nSubject: x\nMIME-Version: 1.0\n\nA report.\n"
    assert words_only(raw) is raw


def test_a_mail_that_cannot_be_trimmed_is_kept_whole_and_not_tried_again(engine, nb_game, clock, monkeypatch):
    ids = a_move(engine, nb_game, clock)
    flush(engine.store, Accepting(), now=clock())
    whole = {i: stored(engine, i) for i in ids}

    def broken(raw):
        raise ValueError("not MIME")

    monkeypatch.setattr(retention, "words_only", broken)
    clock.advance(retention.KEEP_PICTURES + 1)
    assert engine.trim_sent_mail() == 2
    assert all(stored(engine, i) == whole[i] for i in ids)
    assert engine.trim_sent_mail() == 0
