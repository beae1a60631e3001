"""Grey press never leaves in the batch its author's own orders cause."""

from __future__ import annotations

from gm.service.play import lifecycle
from gm.service.play.press import GREY_DELAY
from support import last_outbox_id, order_mail

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL


def press_rows(engine, since):
    return engine.store.all("SELECT recipient, created, next_attempt, subject FROM outbox "
                            "WHERE id > :since AND lower(subject) LIKE '%press from%'", since=since)


def test_grey_press_leaves_after_a_random_delay_white_press_at_once(engine, nb_game):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "PRESS TO bob\nhello\nENDPRESS", game_id="nb1",
                             password=nb_game["ada"]))
    (white,) = press_rows(engine, start)
    assert white["next_attempt"] == white["created"]
    lifecycle.change_settings(engine, "nb1", {"press": "grey"})
    delays = []
    for n in range(5):
        start = last_outbox_id(engine)
        engine.ingest(order_mail("ada@example.org", f"PRESS TO bob\nhello {n}\nENDPRESS", game_id="nb1",
                                 password=nb_game["ada"]))
        (grey,) = press_rows(engine, start)
        assert "anonymous" in grey["subject"]
        delays.append(grey["next_attempt"] - grey["created"])
    assert all(GREY_DELAY[0] <= d <= GREY_DELAY[1] for d in delays)
    assert len(set(delays)) > 1  # random, so its time names nobody
