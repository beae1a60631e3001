"""What a password's head start reads, in one statement (Store.password_standing), on each back end,
and what gm.service.intake.ingest.prepare makes of it (gm.service.people.guessing.head_start_hash)."""

from __future__ import annotations

import pytest

from gm.store import Store

T = 1_700_000_000.0


@pytest.fixture
def store(store_target):
    s = Store(store_target)
    with s.write():
        s.add_game("g1", "neighbors", 7, "{}", T)
        s.add_player("g1", 0, "Ada", "Ada@Example.org", "hash-a")
        s.add_player("g1", 1, "bob", "bob@example.org", "hash-b")
        s.add_player("g1", 2, "twin", "ada@example.org", "hash-t")  # a second seat at ada's address
    yield s
    s.close()


def standing(store, address):
    return [(r["name"], r["pw_hash"], r["seat_until"], r["sender_until"])
            for r in store.password_standing("g1", address)]


def test_the_seats_at_an_address_with_their_hashes_and_locks(store):
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
    from gm.service.people.guessing import head_start_hash

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
