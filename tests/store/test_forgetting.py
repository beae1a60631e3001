"""Step 32 keys caps and locks by the mailbox's keyed hash: a store at step 31 whose lock,
failure and pending request name an address opens at step 32 with the hash in their place,
and still finds them by the address (any spelling of its mailbox); gm.store.forgetting leaves
the address in no cell and the hashed rows as they were."""

from __future__ import annotations

from gm.store import Store, mailboxhash, migrations
from gm.store.forgetting import forget_address
from test_migrations import at_step, done_at_step

ADDRESS = "eve@example.net"


def test_a_step_31_store_opens_with_its_keys_hashed(store_target):
    db = at_step(store_target, 31)
    db.execute("INSERT INTO credential_locks (game_id, player, sender, since, until) "
               "VALUES ('', '', :a, 1, 100000000000)", {"a": ADDRESS})
    db.execute("INSERT INTO credential_failures (game_id, player, sender, at) VALUES ('nb1', '', :a, 5)",
               {"a": ADDRESS})
    db.execute("INSERT INTO pending_requests (code_hash, address, mailbox, actions, created, expires) "
               "VALUES ('h', :a, :a, 'OBSERVE nb1', 5, 100000000000)", {"a": ADDRESS})
    done_at_step(db, 31)
    store = Store(store_target)
    try:
        assert store.schema_version == migrations.LAST_STEP  # migrated to the last step
        hashed = mailboxhash.mailbox_hash(store, ADDRESS)
        assert len(hashed) == 64 and hashed == mailboxhash.mailbox_hash(store, "Eve+tag@Example.NET")
        assert store.one("SELECT sender FROM credential_locks")["sender"] == hashed
        assert store.one("SELECT sender FROM credential_failures")["sender"] == hashed
        assert store.one("SELECT mailbox FROM pending_requests")["mailbox"] == hashed
        assert store.credentials.sender_lock_until(ADDRESS) == 100000000000
        assert store.credentials.sender_failures_since(ADDRESS, 0) == 1
        assert store.optin.pending_requests_since(0, ADDRESS) == 1
        with store.write():
            forget_address(store, ADDRESS, mailboxhash.pseudonym(store, ADDRESS))
        assert store.one("SELECT address FROM pending_requests")["address"].startswith("forgotten-")
        assert store.credentials.sender_lock_until(ADDRESS) == 100000000000
        assert store.optin.pending_requests_since(0, ADDRESS) == 1
    finally:
        store.close()


def test_the_secret_is_the_stores_own_and_survives_reopening(store_target):
    first = Store(store_target)
    hashed = mailboxhash.mailbox_hash(first, ADDRESS)
    first.close()
    again = Store(store_target)
    try:
        assert mailboxhash.mailbox_hash(again, ADDRESS) == hashed
        assert mailboxhash.pseudonym(again, ADDRESS) == f"forgotten-{hashed[:8]}@invalid"
    finally:
        again.close()


def test_the_open_games_an_address_made_still_count_once_it_is_forgotten(store_target):
    store = Store(store_target)
    try:
        with store.write():
            store.selfservice.add_open_game("op1", 3, 2, ADDRESS)
        assert store.selfservice.open_games_created_by(ADDRESS) == 1
        with store.write():
            forget_address(store, ADDRESS, mailboxhash.pseudonym(store, ADDRESS))
        assert store.one("SELECT created_by FROM open_games")["created_by"] == mailboxhash.pseudonym(store, ADDRESS)
        assert store.selfservice.open_games_created_by("Eve+x@example.net") == 1
    finally:
        store.close()


def test_an_address_with_like_wildcards_is_found_as_written(store_target):
    store = Store(store_target)
    odd, near = "a_b%c!d@example.net", "axbyczd@example.net"
    try:
        with store.write():
            store.history.log("g1", 0, odd, "observe", f"by {odd}", 1.0)
            store.history.log("g1", 0, near, "observe", f"by {near}", 1.0)
            forget_address(store, odd, "forgotten-1@invalid")
        assert [(r["actor"], r["detail"]) for r in store.all("SELECT * FROM history ORDER BY id")] == [
            ("forgotten-1@invalid", "by forgotten-1@invalid"), (near, f"by {near}")]
    finally:
        store.close()


def test_the_rows_naming_an_address_hold_its_hashed_locks_and_requests(store_target):
    from gm.store.addressdata import AddressData

    store = Store(store_target)
    try:
        with store.write():
            store.credentials.add_credential_lock("", "", ADDRESS, 1.0, 2.0)
            store.credentials.add_credential_failure("nb1", "", ADDRESS, 1.0)
            store.optin.add_pending_request("h", ADDRESS, ADDRESS, ["OBSERVE nb1"], 1.0, 2.0)
            store.credentials.add_credential_lock("", "", "bob@example.net", 1.0, 2.0)
        found = AddressData(store).rows_naming(ADDRESS)
        assert {table: len(rows) for table, rows in found.items()} == {
            "credential_locks": 1, "credential_failures": 1, "pending_requests": 1}
    finally:
        store.close()
