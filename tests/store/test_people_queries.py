"""The queries of a seat's credentials, opt-in requests and self-service (gm.store.credentials, optin,
selfservice: SQLAlchemy Core statements compiled ahead), on a fresh store of each back end."""

from __future__ import annotations

import pytest


T = 1_700_000_000.0


@pytest.fixture
def store(store):
    """The empty store of tests/store/conftest.py, with this module's rows."""
    with store.write():
        store.add_game("g1", "neighbors", 7, "{}", T)
        store.add_game("g2", "neighbors", 8, "{}", T + 1)
        store.add_player("g1", 0, "Ada", "Ada@Example.org", "hash-a")
        store.add_player("g1", 1, "bob", "bob@example.org", "hash-b")
    return store


def test_pending_codes_of_any_number_of_purposes_in_order(store):
    with store.write():
        for n, purpose in enumerate(("address", "revert", "reset", "address")):
            store.add_credential_code(f"h{n}", "g1", "ada", purpose, "new@example.org", T + 10 - n, T + 100)
        store.add_credential_code("old", "g1", "Ada", "reset", "new@example.org", T, T + 1)  # expired
        store.add_credential_code("bob", "g1", "bob", "reset", "new@example.org", T, T + 100)
        store.end_code("h1", "confirmed")
    codes = lambda *purposes: [r["code_hash"] for r in store.pending_codes("g1", "ADA", purposes, T + 5)]  # noqa: E731
    assert codes("address") == ["h3", "h0"]
    assert codes("reset", "address") == ["h3", "h2", "h0"]
    assert codes("address", "revert", "reset") == ["h3", "h2", "h0"]
    # a purpose twice, or more than the three there are, gives the same rows in the same order
    assert codes("reset", "address", "reset") == ["h3", "h2", "h0"]
    assert codes("address", "revert", "reset", "other") == ["h3", "h2", "h0"]
    assert codes() == []
    assert store.last_code_at("g1", "ada", "address") == T + 10
    assert store.last_code_at("g1", "ada", "other") is None
    assert store.address_code("h1")["ended"] == "confirmed" and store.address_code("nope") is None


def test_failures_and_locks_of_a_seat_and_a_sender(store):
    with store.write():
        store.add_credential_failure("g1", "ada", "eve@example.net", T + 1)
        store.add_credential_failure("g1", "", "eve@example.net", T + 2)  # eve holds no seat of g1
        store.add_credential_failure("g1", "bob", "eve@example.net", T + 3)
        store.add_credential_lock("g1", "ADA", "", T, T + 50)
        store.add_credential_lock("g1", "ada", "", T, T + 60)
        store.add_credential_lock("", "", "eve@example.net", T, T + 70)
    assert store.seat_failures_since("g1", "Ada", T) == 2
    assert store.seat_failures_since("g1", "Ada", T + 1) == 1
    assert store.sender_failures_since("eve@example.net", T + 1) == 2
    assert store.seat_lock_until("g1", "ada") == T + 60 and store.seat_lock_until("g1", "bob") is None
    assert store.sender_lock_until("eve@example.net") == T + 70
    assert store.locks_until("g1", "eve@example.net") == (T + 70, {"Ada": T + 60, "bob": None})
    assert store.locks_until("g2", "carl@example.net") == (None, {})
    with store.write():
        store.end_seat_locks("g1", "ADA", T + 55)
        # read again inside the write: the UPDATE forgot what was remembered of credential_locks
        assert store.seat_lock_until("g1", "ada") == T + 55
    assert store.locks_until("g1", "eve@example.net")[1]["Ada"] == T + 55


def test_pending_requests_counted_by_mailbox_and_confirmation(store):
    with store.write():
        store.add_pending_request("c1", "Eve@Example.net", "GM@example.test", ["OBSERVE g1"], T, T + 100)
        store.add_pending_request("c2", "eve@example.net", "other@example.test", ["JOIN g1", "x"], T + 1, T + 100)
        assert store.confirm_pending_request("c1", T + 2) == 1
        assert store.confirm_pending_request("c1", T + 3) == 0
    assert store.pending_request("c1")["confirmed"] == T + 2
    assert store.pending_request("c2")["actions"] == "JOIN g1\nx" and store.pending_request("c3") is None
    assert store.pending_requests_since(T) == 2
    assert store.pending_requests_since(T + 1) == 1
    assert store.pending_requests_since(T, mailbox="gm@EXAMPLE.test") == 1
    assert store.pending_requests_since(T, unconfirmed=True) == 1
    assert store.pending_requests_since(T, mailbox="gm@example.test", unconfirmed=True) == 0


def test_seats_open_games_and_observers(store):
    with store.write():
        store.add_open_game("g2", 4, 2, "ada@example.org")
        assert [p["name"] for p in store.players_at("g1", "ADA@example.ORG")] == ["Ada"]
        store.set_seat_password("g1", "Ada", "hash-a2")
        store.set_seat_address("g1", "bob", "robert@example.org")
        store.bump_generation("g1", "bob")
        store.add_observer("g1", "Olga@Example.net", True, T)
        store.add_observer("g1", "pat@example.net", False, T + 1)
        store.add_observer("g2", "olga@example.net", True, T)
    assert [p["name"] for p in store.players_at("g1", "ada@example.org")] == ["Ada"]
    seats = {p["name"]: (p["pw_hash"], p["email"], p["generation"]) for p in store.players("g1")}
    assert seats == {"Ada": ("hash-a2", "Ada@Example.org", 1), "bob": ("hash-b", "robert@example.org", 2)}
    assert dict(store.open_game("g2"))["min_seats"] == 2 and store.open_game("g1") is None
    assert store.open_games_created_by("ada@example.org") == 1
    assert store.observer("g1", "OLGA@example.net")["approved"] == 1
    assert store.observers_of("g1") == ["olga@example.net"]
    assert store.observers_of("g1", approved=False) == ["pat@example.net"]
    assert store.game_ids_observed_by("Olga@example.net", 5) == ["g2", "g1"]
    assert store.game_ids_observed_by("olga@example.net", 1) == ["g2"]
    with store.write():
        assert store.remove_observer("g1", "Olga@example.net") == 1
        assert store.remove_observer("g1", "olga@example.net") == 0
        store.close_open_game("g2")
        store.remove_player("g1", "Ada")
        store.renumber_seats("g1")
    assert store.observers_of("g1") == [] and store.open_game("g2") is None
    assert [(p["name"], p["seat"]) for p in store.players("g1")] == [("bob", 0)]


def standing(store, address):
    return [(r["name"], r["pw_hash"], r["seat_until"], r["sender_until"])
            for r in store.password_standing("g1", address)]


def test_the_seats_at_an_address_with_their_hashes_and_locks(store):
    """What a password's head start reads, in one statement (Store.password_standing)."""
    with store.write():
        store.add_player("g1", 2, "twin", "ada@example.org", "hash-t")  # a second seat at ada's address
    assert standing(store, "ADA@example.ORG") == [("Ada", "hash-a", None, None), ("twin", "hash-t", None, None)]
    assert standing(store, "eve@example.net") == []
    with store.write():
        store.add_credential_lock("g1", "ada", "", T, T + 50)
        store.add_credential_lock("g1", "ADA", "", T, T + 60)  # the latest end counts, any case
        store.add_credential_lock("g1", "bob", "", T, T + 10)  # another seat's: not ada's
        store.add_credential_lock("", "", "ada@example.org", T, T + 70)  # the address's own
        store.add_credential_lock("", "", "bob@example.org", T, T + 80)
    assert standing(store, "ada@example.org") == [("Ada", "hash-a", T + 60, T + 70), ("twin", "hash-t", None, T + 70)]
    assert standing(store, "bob@example.org") == [("bob", "hash-b", T + 10, T + 80)]


class Clocked:
    """The part of a service Context that head_start_hash reads."""

    def __init__(self, store, now):
        self.store, self.clock = store, lambda: now


def test_a_head_start_only_for_an_unlocked_sender_and_seats(store):
    """What gm.service.intake.ingest.prepare makes of it (gm.service.people.guessing.head_start_hash)."""
    from gm.service.people.guessing import head_start_hash

    with store.write():
        store.add_player("g1", 2, "twin", "ada@example.org", "hash-t")  # a second seat at ada's address

    assert head_start_hash(Clocked(store, T), "g1", "bob@example.org") == "hash-b"
    assert head_start_hash(Clocked(store, T), "g1", "ada@example.org") == "hash-a"  # the first seat's
    assert head_start_hash(Clocked(store, T), "g1", "eve@example.net") is None  # no seat there
    assert head_start_hash(Clocked(store, T), "g1", "") is None
    with store.write():
        store.add_credential_lock("g1", "twin", "", T, T + 50)  # one of ada's seats locked
        store.add_credential_lock("", "", "bob@example.org", T, T + 30)  # bob's address locked
    assert head_start_hash(Clocked(store, T + 1), "g1", "ada@example.org") is None
    assert head_start_hash(Clocked(store, T + 1), "g1", "bob@example.org") is None
    # once the locks have ended, the head start is back
    assert head_start_hash(Clocked(store, T + 51), "g1", "ada@example.org") == "hash-a"
    assert head_start_hash(Clocked(store, T + 31), "g1", "bob@example.org") == "hash-b"
