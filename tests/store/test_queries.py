"""The named queries of Store, one by one, on a fresh database of each back end (SQLite, PostgreSQL)."""

from __future__ import annotations

import json
import time

import pytest

from gm.store import Store

T = 1_700_000_000.0


@pytest.fixture
def store(store):
    """The empty store of tests/store/conftest.py, with this module's rows."""
    with store.write():
        store.games.add_game("g1", "neighbors", 7, "{}", T)
        store.games.add_game("g2", "neighbors", 8, "{}", T + 1, status="paused")
        store.seats.add_player("g1", 0, "Ada", "ada@example.org", "hash-a")
        store.seats.add_player("g1", 1, "bob", "bob@example.org", "hash-b")
    return store


def test_writes_need_a_transaction(store):
    with pytest.raises(RuntimeError):
        store.games.add_game("g3", "neighbors", 1, "{}", T)
    with pytest.raises(RuntimeError):
        store.results.set_result("g1", "why", None, T)
    with pytest.raises(RuntimeError):
        store.timers.replace_deadline({"game_id": "g1", "start_seq": 0, "turn": 1})


def test_games_and_players(store):
    assert [g["id"] for g in store.games.every_game()] == ["g1", "g2"]
    assert store.games.active_game_ids() == ["g1"]
    assert store.games.game("g1")["seed"] == 7 and store.games.game("nope") is None
    with store.write():
        store.games.set_game_status("g2", "active", T + 5)
    assert store.games.active_game_ids() == ["g1", "g2"] and store.games.game("g2")["updated"] == T + 5
    assert [p["name"] for p in store.seats.players("g1")] == ["Ada", "bob"]
    assert store.seats.player("g1", "ada")["email"] == "ada@example.org"
    assert store.seats.pw_hash_by_email("g1", "bob@example.org") == "hash-b"
    assert store.seats.pw_hash_by_email("g1", "eve@example.org") is None
    with store.write():
        store.seats.deactivate_player("g1", "bob")
    assert store.seats.player("g1", "bob")["active"] == 0
    with store.write():
        store.seats.replace_seat("g1", "bob", "carl@example.org", "hash-c")
    row = store.seats.player("g1", "bob")
    assert (row["email"], row["pw_hash"], row["active"]) == ("carl@example.org", "hash-c", 1)


def test_history(store):
    with store.write():
        store.history.log("g1", 1, "gm", "create", "two players", T)
        store.history.log("g1", 2, "ada", "absence", now=T + 1)
    assert [(r["action"], r["detail"]) for r in store.history.history_of("g1")] == [
        ("create", "two players"), ("absence", "")]


def test_states(store):
    with store.write():
        assert store.turns.add_state("g1", 1, {"b": 1}, T) == 0
        assert store.turns.add_state("g1", 1, {"b": 2}, T + 1) == 1
        assert store.turns.add_state("g1", 2, {"b": 3}, T + 2) == 2
    assert store.turns.latest_state("g1")["seq"] == 2
    assert store.turns.state_data(store.turns.state_at("g1", 1)) == {"b": 2}
    assert [r["seq"] for r in store.turns.states_of("g1")] == [0, 1, 2]
    assert [(r["seq"], r["turn"]) for r in store.turns.state_turns("g1")] == [(0, 1), (1, 1), (2, 2)]
    rows = store.turns.turn_states_desc("g1")
    assert next(rows)["seq"] == 2 and next(rows)["created"] == T + 1  # lazily, newest first
    assert [r["seq"] for r in store.turns.turn_states_desc("g1")] == [2, 1, 0]


def test_orders(store):
    with store.write():
        store.turns.add_order("g1", "order", "Ada", 1, "a1xa2", accepted=True, origin="mail", at=T,
                              canonical="a1xa2", seq=1)
        store.turns.add_order("g1", "order", "bob", 1, "zz", accepted=False, origin="mail", at=T,
                              error="bad")
        store.turns.add_order("g1", "close", None, 1, "", accepted=True, origin="timer", at=T, seq=2)
        store.turns.add_order("g1", "order", "bob", 2, "b1xb2", accepted=True, origin="gm", at=T, seq=3)
    assert store.turns.accepted_players_since("g1", 1) == {"Ada", "bob"}
    assert store.turns.accepted_players_since("g1", 2) == {"bob"}
    assert len(store.turns.accepted_orders_after("g1", 1)) == 2
    assert [r["seq"] for r in store.turns.accepted_orders("g1")] == [1, 2, 3]


def test_inbound_messages(store):
    with store.write():
        rid = store.inbox.add_message("maildir:1", "<m1@x>", "ada@example.org", "g1 pw", b"raw", T, "pending")
        store.inbox.set_message_outcome(rid, "applied", "a1xa2", "g1")
    assert store.inbox.message_seen("maildir:1", None)["outcome"] == "applied"
    assert store.inbox.message_seen("maildir:2", "<m1@x>")["id"] == rid
    assert store.inbox.message_seen("maildir:2", "<m2@x>") is None


def test_outbox(store):
    with store.write():
        a = store.outbox.queue_outbox("<o1@gm>", "ada@example.org", "s", b"raw", kind="report", now=T,
                                      game_id="g1", turn=1)
        b = store.outbox.queue_outbox("<o2@gm>", "eve@example.org", "s", b"raw", kind="error", now=T + 10)
        c = store.outbox.queue_outbox("<o3@gm>", "eve@example.org", "s", b"raw", kind="error", now=T + 20)
    assert [r["id"] for r in store.outbox.outbox_due(T + 10, 10)] == [a, b]
    assert [r["id"] for r in store.outbox.outbox_due(T + 30, 1)] == [a]
    assert store.outbox.error_replies_since("eve@example.org", T + 5) == 2
    assert store.outbox.error_replies_since("eve@example.org", T + 15) == 1
    with store.write():
        store.outbox.mark_sent(a, T + 1, 1)
        store.outbox.mark_failed(b, 1, "550 no such user")
        store.outbox.note_attempt(c, 1, "421 busy", next_attempt=T + 100)
    assert store.outbox.sent_count("g1") == 1
    assert store.one("SELECT status, sent FROM outbox WHERE id = :id", id=a)["sent"] == T + 1
    assert store.one("SELECT status FROM outbox WHERE id = :id", id=b)["status"] == "failed"
    row = store.one("SELECT * FROM outbox WHERE id = :id", id=c)
    assert (row["status"], row["next_attempt"], row["last_error"]) == ("queued", T + 100, "421 busy")
    with store.write():
        store.outbox.note_attempt(c, 2, "down")
    assert store.one("SELECT next_attempt FROM outbox WHERE id = :id", id=c)["next_attempt"] == T + 100
    # sent long ago: only in the full listing
    assert {r["id"] for r in store.outbox.outbox_listing()} == {b, c}
    assert {r["id"] for r in store.outbox.outbox_listing(include_delivered=True)} == {a, b, c}


def test_reports(store):
    with store.write():
        store.reports.add_report("g1", 2, 5, "Ada", "report", "r2 ada", None, T)
        store.reports.add_report("g1", 1, 1, "bob", "report", "r1 bob", None, T)
        store.reports.add_report("g1", 1, 1, None, "press", "press gm", None, T)
        store.reports.add_report("g1", 1, 1, "Ada", "press", "press ada", None, T)
        store.reports.add_report("g1", 1, 1, "Ada", "reply", "reply ada", None, T)
    bodies = lambda rows: [r["body"] for r in rows]  # noqa: E731
    assert bodies(store.reports.reports_of("g1")) == ["r2 ada", "r1 bob", "press gm", "press ada", "reply ada"]
    assert bodies(store.reports.reports_of("g1", turn=2)) == ["r2 ada"]
    assert bodies(store.reports.reports_of("g1", kind="report")) == ["r2 ada", "r1 bob"]
    assert bodies(store.reports.turn_reports("g1")) == ["r1 bob", "r2 ada"]
    assert bodies(store.reports.gm_press("g1")) == ["press gm"]
    assert bodies(store.reports.player_reports("g1", "Ada")) == ["press ada", "r2 ada"]



def test_archive_marks(store):
    """What the live archive renders a game again for: its status, newest state, newest report,
    press or notice (never a reply), and the seats taken."""
    marks = lambda: {r["id"]: (r["status"], r["last_seq"], r["last_report"], r["seats_taken"])  # noqa: E731
                     for r in store.reports.archive_marks()}
    assert marks() == {"g1": ("active", None, None, 2), "g2": ("paused", None, None, 0)}
    assert [r["id"] for r in store.reports.archive_marks()] == ["g1", "g2"]  # oldest first
    with store.write():
        store.turns.add_state("g1", 1, {"b": 1}, T)
        report = store.reports.add_report("g1", 1, 0, "Ada", "report", "r1 ada", None, T)
        store.reports.add_report("g1", 1, 0, "Ada", "reply", "reply ada", None, T)
        store.seats.add_player("g2", 0, "cy", "cy@example.org", "hash-c")
    assert marks() == {"g1": ("active", 0, report, 2), "g2": ("paused", None, None, 1)}

def test_settings(store):
    with store.write():
        store.games.save_settings("g1", {"deadline": "72h", "press": "grey"})
    store.games.save_settings("g1", {"press": "none"})  # its own transaction when none is open
    assert store.games.settings_of("g1") == {"deadline": "72h", "press": "none"}
    assert store.games.settings_of("g2") == {}


def test_deadlines(store):
    row = {"game_id": "g1", "start_seq": 0, "turn": 1, "due": T + 100, "reminded": 0, "late": 0,
           "grace_done": 0, "paused_at": None, "set_by": "option"}
    assert store.timers.deadline_row("g1") is None
    with store.write():
        store.timers.replace_deadline(row)
        store.timers.replace_deadline(dict(row, start_seq=3, turn=2))
    assert store.timers.deadline_row("g1")["start_seq"] == 3
    with store.write():
        store.timers.update_deadline("g1", due=T + 200, reminded=1, paused_at=T)
    got = store.timers.deadline_row("g1")
    assert (got["due"], got["reminded"], got["paused_at"]) == (T + 200, 1, T)
    with pytest.raises(ValueError):
        with store.write():
            store.timers.update_deadline("g1", start_seq=9, owner="x")


def test_absences_overrides_results(store):
    with store.write():
        store.timers.add_absence("g1", "Ada", T, T + 10, T)
        store.turns.add_override("g1", 4, "rollback", 1, "to turn 1")
        store.turns.add_override("g1", 6, "edit", None, "")
        store.results.set_result("g1", "ended by the GM", ["Ada"], T)
    assert [tuple(r) for r in store.timers.absences_of("g1")] == [("Ada", T, T + 10)]
    assert store.turns.override_seqs("g1") == {4, 6}
    assert [r["source_seq"] for r in store.turns.overrides_of("g1")] == [1, None]
    assert json.loads(store.results.result_of("g1")["winners"]) == ["Ada"]
    with store.write():
        store.results.set_result("g1", "as the rules say", None, T + 1)
    assert store.results.result_of("g1")["winners"] is None
    with store.write():
        store.results.clear_result("g1")
    assert store.results.result_of("g1") is None


def test_write_nests_and_rolls_back(store):
    with pytest.raises(KeyError):
        with store.write():
            with store.write():
                store.history.log("g1", 1, "gm", "x", now=T)
                assert store.in_transaction
            raise KeyError
    assert not store.in_transaction
    assert store.history.history_of("g1") == []


def test_long_states_are_stored_compressed_and_read_back_exactly(store_target):
    from gm.store.packing import COMPRESS_OVER

    store = Store(store_target)
    short = {"a": 1}
    long = {"trail": [["c1", True]] * (COMPRESS_OVER // 4), "seed": 7}
    with store.write():
        store.games.add_game("g1", "neighbors", 1, "{}", T)
        store.turns.add_state("g1", 1, short, T)
        store.turns.add_state("g1", 1, long, T + 1)
    rows = store.turns.states_of("g1")
    # short: its JSON's UTF-8 bytes, readable in the database; long: compressed; each says which
    assert (bytes(rows[0]["state"]), rows[0]["state_packing"]) == (json.dumps(short).encode(), "utf8")
    assert isinstance(rows[1]["state"], bytes) and len(rows[1]["state"]) < len(json.dumps(long)) / 5
    assert rows[1]["state_packing"] == "zlib"
    assert [store.turns.state_data(r) for r in rows] == [short, long]
    assert store.turns.state_data(store.turns.latest_state("g1")) == long
    store.close()


def test_long_archived_reports_are_stored_compressed_and_read_back_exactly(store_target):
    store = Store(store_target)
    short, long = "Turn 1: a1xb2\n", "".join(f"line {i}: the board as it stands\n" for i in range(200))
    with store.write():
        for i, body in enumerate((short, long)):
            store.reports.add_report("g1", 1, i, "ada", "report", body, None, T)
    stored = store.all("SELECT body, body_packing FROM reports ORDER BY id")
    assert (bytes(stored[0]["body"]), stored[0]["body_packing"]) == (short.encode(), "utf8")  # readable
    assert isinstance(stored[1]["body"], bytes) and len(stored[1]["body"]) < len(long) / 5
    assert stored[1]["body_packing"] == "zlib"
    for rows in (store.reports.reports_of("g1"), store.reports.turn_reports("g1"),
                 store.reports.player_reports("g1", "ada")):
        assert [r["body"] for r in rows] == [short, long]
    store.close()


def test_queued_mail_is_stored_compressed_and_sent_as_composed(store_target):
    from gm.store.packing import unpack_mail

    store = Store(store_target)
    raw = b"From: gm@example.org\r\nSubject: Report\r\n\r\n" + b"a1xb2 the board as it stands\r\n" * 80
    old = b"From: gm@example.org\r\nSubject: queued before compression\r\n\r\nbody\r\n"
    with store.write():
        new_id = store.outbox.queue_outbox("<a@x>", "ada@example.org", "Report", raw, kind="report", now=T)
        old_id = store.outbox.queue_outbox("<b@x>", "bob@example.org", "Old", raw, kind="report", now=T)
        store.db.execute("UPDATE outbox SET raw = :raw WHERE id = :id",
                         {"raw": old, "id": old_id})  # as gm wrote it before
    stored = bytes(store.one("SELECT raw FROM outbox WHERE id = :id", id=new_id)["raw"])
    assert len(stored) < len(raw) / 5 and unpack_mail(stored) == raw
    assert [(r["id"], r["raw"]) for r in store.outbox.outbox_due(T, 10)] == [(new_id, raw), (old_id, old)]
    store.close()


def test_a_mail_with_a_picture_is_packed_for_speed_and_read_back_exactly():
    import base64
    import os
    import zlib

    from gm.store.packing import pack_mail, unpack_mail

    picture = base64.encodebytes(os.urandom(30_000))  # PNG data is as random as this
    raw = (b"From: gm@example.org\nContent-Type: multipart/related; boundary=x\n\n--x\n"
           b"Content-Type: text/plain\n\n" + b"a1xb2 the board as it stands\n" * 80 +
           b"--x\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n" + picture + b"--x--\n")
    packed = pack_mail(raw)
    assert unpack_mail(packed) == raw
    assert len(packed) < 0.85 * len(raw)  # base64's 6 bits in 8 still come back
    assert len(packed) < len(zlib.compress(raw, 1)) * 1.15  # and little more than level 1 would give
def test_a_claimed_outbox_row_goes_to_one_sender_at_a_time(store, store_target):
    with store.write():
        a = store.outbox.queue_outbox("<o1@gm>", "ada@example.org", "s", b"raw", kind="report", now=T)
        b = store.outbox.queue_outbox("<o2@gm>", "bob@example.org", "s", b"raw", kind="report", now=T)
    claimed = store.outbox.claim_outbox(T + 1, 1)
    assert [r["id"] for r in claimed] == [a]
    if store.kind == "sqlite":  # one host, one sender: every due row, but those this sender holds already
        assert [r["id"] for r in store.outbox.claim_outbox(T + 1, 10)] == [b]  # a sender claims more as it sends
        store.outbox.release_outbox(claimed)
        assert [r["id"] for r in store.outbox.claim_outbox(T + 1, 10)] == [a]  # given back: due again; b is held
        other = Store(store_target)  # another connection is another sender: it holds nothing
        assert [r["id"] for r in other.outbox.claim_outbox(T + 1, 10)] == [a, b]
        other.close()
        return
    other = Store(store_target)  # a second daemon on the same store
    assert [r["id"] for r in other.outbox.claim_outbox(T + 1, 10)] == [b]
    with store.write():
        store.outbox.mark_sent(a, T + 1, 1)
    store.outbox.release_outbox(claimed)
    assert store.outbox.claim_outbox(T + 2, 10) == []  # a is sent; b is still other's
    third = Store(store_target)
    assert third.outbox.claim_outbox(T + 2, 10) == []
    other.close()  # the daemon holding b dies: b goes to the next sender once its session ends
    # The server ends the closed session's backend (and its locks) a moment after the close.
    deadline = time.monotonic() + 10
    while not (taken := third.outbox.claim_outbox(T + 2, 10)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [r["id"] for r in taken] == [b]
    third.close()


def test_holds_of_the_senders_refusals(store):
    """A hold by scope; a second refusal backs it off; ending it makes its waiting mail due."""
    with store.write():
        early = store.outbox.queue_outbox("<1@x>", "cy@Example.NET", "s", b"raw", kind="notice", now=T)
        other = store.outbox.queue_outbox("<2@x>", "ada@example.org", "s", b"raw", kind="notice", now=T)
        assert store.outbox.add_hold("domain:example.net", T, "DMARC", "550 5.7.26 no", "550 5.7.26", T + 5)
        assert not store.outbox.add_hold("domain:example.net", T + 1, "again", "550 5.7.26 no", "550 5.7.26", T + 6)
        store.outbox.probe_refused("domain:example.net", 1, T + 20, "550 5.7.26 still no")
        store.outbox.note_attempt(early, 1, "550 5.7.26", next_attempt=T + 20)
        store.outbox.note_attempt(other, 1, "451", next_attempt=T + 20)
    (row,) = store.outbox.holds()
    assert (row["scope"], row["since"], row["probes"], row["next_probe"], row["told"]) == (
        "domain:example.net", T, 1, T + 20, 0)
    assert store.outbox.hold("sender") is None
    with store.write():
        store.outbox.hold_told("domain:example.net")
        assert store.outbox.release_scope("domain:example.net", T + 2) == 1  # only the held domain's mail
        assert store.outbox.end_hold("domain:example.net") and not store.outbox.end_hold("domain:example.net")
    assert store.outbox.holds() == [] and [r["id"] for r in store.outbox.outbox_due(T + 2, 10)] == [early]


def test_a_sent_copy_with_its_header_changed_reuses_the_packed_body(store_target):
    import base64
    import os
    import zlib

    from gm.store.packing import MAIL_MARK, unpack_mail

    store = Store(store_target)
    picture = base64.encodebytes(os.urandom(30_000))
    body = (b"\r\n\r\n--x\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + picture + b"--x--\r\n")
    raw = b"From: gm@example.org\r\nReply-To: gm+s3cr3t@example.org\r\nSubject: Report" + body
    masked = raw.replace(b"s3cr3t", b"[token]")
    with store.write():
        kept = store.outbox.queue_outbox("<a@x>", "ada@example.org", "Report", raw, kind="report", now=T)
        whole = store.outbox.queue_outbox("<b@x>", "bob@example.org", "Report", raw, kind="report", now=T)
        old = store.outbox.queue_outbox("<c@x>", "cyd@example.org", "Report", raw, kind="report", now=T)
        # queued by a gm that packed a mail as one stream, with no flush after the header
        store.db.execute("UPDATE outbox SET raw = :raw WHERE id = :id",
                         {"raw": MAIL_MARK + zlib.compress(raw, 1), "id": old})
    due = {row["id"]: row for row in store.outbox.outbox_due(T, 10)}
    with store.write():
        store.outbox.mark_sent_keeping(kept, T, 1, masked, due[kept])
        store.outbox.mark_sent_keeping(whole, T, 1, masked.replace(b"--x--", b"--y--"), due[whole])  # the body changed
        store.outbox.mark_sent_keeping(old, T, 1, masked, due[old])
    stored = {row["id"]: bytes(row["raw"]) for row in store.all("SELECT id, raw FROM outbox")}
    assert unpack_mail(stored[kept]) == masked and b"s3cr3t" not in zlib.decompress(stored[kept][2:])
    assert bytes(due[kept]["packed"])[-2000:-4] in stored[kept]  # the body's deflate bytes, reused
    assert unpack_mail(stored[whole]) == masked.replace(b"--x--", b"--y--")
    assert unpack_mail(stored[old]) == masked
    assert [row["status"] for row in store.all("SELECT status FROM outbox")] == ["sent"] * 3
    store.close()
