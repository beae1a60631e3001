"""Store.read_game: what judging reads of a game, read at once (one statement on PostgreSQL,
gm.store.gameload), must be exactly what the methods read one by one, on each back end."""

from __future__ import annotations

import pytest

from gm.store import Store

T = 1_700_000_000.0
SENDER = "ada@example.org"


@pytest.fixture
def store(store):
    """The empty store of tests/store/conftest.py, with this module's rows."""
    with store.write():
        store.add_game("g1", "neighbors", 7, "{}", T)
        store.add_player("g1", 1, "bob", "bob@example.org", "hash-b")
        store.add_player("g1", 0, "Ada", "Ada@Example.org", "hash-a")  # seat order is not insert order
        store.add_player("g1", 2, "Cy", "cy@example.org", "hash-c")
        store.add_state("g1", 1, {"n": 0}, T)
        store.add_state("g1", 1, {"n": 1}, T + 1)
        store.set_timer("g1", T + 50.5)
        store.replace_deadline({"game_id": "g1", "start_seq": 1, "turn": 1, "due": T + 50.5, "reminded": 0, "late": 0,
                                "grace_done": 0, "paused_at": None, "set_by": "gm"})
        store.save_setting("g1", "deadline", "3d")
        store.save_setting("g1", "press", "white")
        store.add_observer("g1", "zed@example.org", True, T + 2)
        store.add_observer("g1", "amy@example.org", True, T + 3)
        store.add_observer("g1", "wait@example.org", False, T + 1)
        store.add_credential_lock("g1", "bob", "", T, T + 3600)
        store.add_credential_lock("g1", "", SENDER, T, T + 60)
        store.set_address_state("bob@example.org", "soft-failing", T, "a 4xx")
        store.add_game("g2", "neighbors", 8, "{}", T)  # another game's rows are not read
        store.add_player("g2", 0, "Ada", "ada@example.org", "hash-x")
        store.save_setting("g2", "deadline", "1d")
    return store


def every_read(store: Store, game_id: str, sender: str) -> dict:
    players = store.players(game_id)
    return {"game": store.game(game_id), "latest": store.latest_state(game_id), "players": players,
            "timer": store.timer_of(game_id), "deadline": store.deadline_row(game_id),
            "settings": store.settings_of(game_id), "observers": store.observers_of(game_id),
            "locks": store.locks_until(game_id, sender),
            "addresses": {p["email"].lower(): store.address_state(p["email"]) for p in players}}


@pytest.mark.parametrize("game_id", ["g1", "g2", "nosuch"])
def test_read_game_reads_what_each_method_reads(store, game_id):
    with store.write():
        one_by_one = every_read(store, game_id, SENDER)
    with store.write():
        store.read_game(game_id, SENDER)
        if store.kind == "postgresql":  # every read was answered by the one statement
            assert store.already_read("games", ("id", game_id))[0]
            assert store.already_read("players", ("game", game_id))[0]
            assert store.already_read("observers", ("of", game_id, True))[0]
            assert len(store.reads) >= 8
        at_once = every_read(store, game_id, SENDER)
    assert at_once == one_by_one
    if game_id == "g1":
        assert [p["name"] for p in at_once["players"]] == ["Ada", "bob", "Cy"]
        assert at_once["observers"] == ["zed@example.org", "amy@example.org"]
        assert at_once["settings"] == {"deadline": "3d", "press": "white"}
        assert at_once["locks"] == (T + 60, {"Ada": None, "bob": T + 3600, "Cy": None})
        assert at_once["addresses"]["bob@example.org"]["state"] == "soft-failing"
        assert at_once["addresses"]["ada@example.org"] is None
        assert store.state_data(at_once["latest"]) == {"n": 1}


def test_what_the_transaction_writes_after_read_game_is_read_back(store):
    with store.write():
        store.read_game("g1", SENDER)
        store.add_observer("g1", "new@example.org", True, T + 9)
        store.save_setting("g1", "deadline", "5d")
        store.set_address_state("ada@example.org", "bouncing", T + 9, "5xx")
        assert store.observers_of("g1")[-1] == "new@example.org"
        assert store.settings_of("g1")["deadline"] == "5d"
        assert store.address_state("ada@example.org")["state"] == "bouncing"
    assert store.reads is None  # nothing outlives the transaction


def queue(store: Store, n: int) -> int:
    return store.queue_outbox(f"<m{n}@gm>", f"p{n}@example.org", f"mail {n}", b"Subject: x\r\n\r\nhi\r\n",
                              kind="report", now=T, game_id="g1", turn=1)


def test_outbox_rows_queued_after_read_game_get_ascending_ids_and_their_reports_name_them(store):
    with store.write():
        store.read_game("g1", SENDER)  # on PostgreSQL: 3 active seats + 2 observers + 1 ids drawn ahead
        ids = [queue(store, n) for n in range(8)]  # more than were drawn: the rest inserted at once
        for n, oid in enumerate(ids):
            store.archive_report("g1", 1, 1, None, "report", f"body {n}", oid, T)
        assert store.outbox_row(ids[0])["message_id"] == "<m0@gm>"  # a read of the outbox sees them
        later = [queue(store, n) for n in range(8, 10)]
        for n, oid in zip(range(8, 10), later):
            store.archive_report("g1", 1, 1, None, "report", f"body {n}", oid, T)
    ids += later
    assert ids == sorted(set(ids))  # ascending as queued, each once
    rows = store.all("SELECT id, message_id FROM outbox WHERE game_id = :game ORDER BY id", game="g1")
    assert [(r["id"], r["message_id"]) for r in rows] == [(oid, f"<m{n}@gm>") for n, oid in enumerate(ids)]
    named = store.all("SELECT r.outbox_id, o.message_id FROM reports r JOIN outbox o ON o.id = r.outbox_id "
                      "WHERE r.game_id = :game ORDER BY r.id", game="g1")
    assert [(r["outbox_id"], r["message_id"]) for r in named] == [(oid, f"<m{n}@gm>") for n, oid in enumerate(ids)]


def test_ids_drawn_ahead_serve_one_transaction_only(store):
    with store.write():
        store.read_game("g1", SENDER)
    with store.write():  # no read_game: inserted at once, with a fresh id
        first = queue(store, 0)
        assert store.outbox_row(first)["message_id"] == "<m0@gm>"
    with store.write():
        store.read_game("g1", SENDER)
        queue(store, 1)
    with pytest.raises(ZeroDivisionError):
        with store.write():
            store.read_game("g1", SENDER)
            queue(store, 2)
            1 / 0
    assert [r["message_id"] for r in store.all("SELECT message_id FROM outbox ORDER BY id")] == ["<m0@gm>", "<m1@gm>"]


def test_a_new_message_stored_with_its_game_read(store):
    with store.write():
        one_by_one = every_read(store, "g1", SENDER)
    with store.write():
        row_id = store.add_new_message("k1", "<m1@x>", SENDER, "orders", b"raw", T, "pending",
                                       read_game=("g1", SENDER))
        assert row_id is not None and store.message(row_id)["source_key"] == "k1"
        if store.kind == "postgresql":  # read in the insert's statement
            assert store.already_read("games", ("id", "g1"))[0]
        assert every_read(store, "g1", SENDER) == one_by_one
    with store.write():  # seen before (its source key, then its Message-ID): nothing stored, the game read still
        assert store.add_new_message("k1", "<m2@x>", SENDER, "orders", b"raw", T, "pending",
                                     read_game=("g1", SENDER)) is None
        assert store.add_new_message("k2", "<m1@x>", SENDER, "orders", b"raw", T, "pending",
                                     read_game=("g1", SENDER)) is None
        assert every_read(store, "g1", SENDER) == one_by_one
        assert store.add_new_message("k3", "<m3@x>", SENDER, "orders", b"raw", T, "pending") == row_id + 1
    assert [r["source_key"] for r in store.all("SELECT source_key FROM messages ORDER BY id")] == ["k1", "k3"]


def test_the_public_press_read_with_the_game_serves_its_turn_and_later(store):
    with store.write():
        for turn in (0, 1, 2, 0):
            store.archive_report("g1", turn, 1, None, "press", f"to all in {turn}", None, T, audience="all")
        store.archive_report("g1", 1, 1, None, "press", "to the players", None, T, audience="players")
        store.archive_report("g1", 1, 1, "Ada", "press", "Ada's copy", None, T, audience="all")
        store.add_state("g1", 3, {"n": 2}, T + 5)  # the newest state's turn: 3, so the press from 2 on
    with store.write():
        one_by_one = {turn: store.public_press("g1", turn) for turn in (-1, 0, 1, 2, 3)}
    assert [p["body"] for p in one_by_one[2]] == ["to all in 2"]
    with store.write():
        store.read_game("g1", SENDER)
        if store.kind == "postgresql":
            assert store.already_read("reports", ("public_press", "g1"))[1][0] == 2
        assert {turn: store.public_press("g1", turn) for turn in (-1, 0, 1, 2, 3)} == one_by_one
        store.archive_report("g1", 3, 2, None, "press", "new", None, T, audience="all")  # written: read again
        assert [p["body"] for p in store.public_press("g1", 3)] == ["new"]
