"""What one more order mail costs on PostgreSQL through the IMAP daemon, judging and sending.

tests/store/test_statements.py counts one order mail on the Maildir path, statement by statement.
The IMAP daemon does more around it: it reads each mail ahead to start its password check (one
statement: Store.password_standing), looks up which fetched mails were stored before, and its
sender streams.  Here a `gm run --once` (in this process, on the real Dovecot and SMTP sink) judges
and sends a batch of one order mail, then one of three, and the server's statement log of its
sessions is counted for each: half the difference is what one more order mail in a batch costs,
the daemon's start and end (heartbeat, tick, the sender's start) left out.
"""

from __future__ import annotations

from pgserver import logged_statements, statement_logging_url
from support import order_mail

# Measured 6 an order mail in a batch (2026-11-26), all of them judging: the password's head start,
# BEGIN, the claim, the insert with the game's reads, the deferred writes (the state's INSERT among
# them: the turn's start is known without reading the states back), COMMIT.  8 before that.  Sending
# adds none of its own: the sender's claims and its "sent" transaction serve every report of the
# batch (one order mail alone: 6, tests/store/test_statements.py).
CEILING = 6


def test_one_more_order_mail_through_the_imap_daemon_costs_few_statements(harness, pg_server, pg_url):
    harness.reconfigure(store=statement_logging_url(pg_url))
    log = pg_server.root / "log"
    games = ["g1", "g2", "g3", "g4"]
    passwords = {game: harness.new_game(game) for game in games}
    harness.once()  # the welcomes go out
    counted = {}
    for batch in (games[:1], games[1:]):
        for game in batch:
            mover, orders = harness.legal(game)
            harness.dovecot.append(order_mail(f"{mover}@example.org", orders[0], game_id=game,
                                              password=passwords[game][mover]))
        start = log.stat().st_size
        sent = harness.smtp.count()
        harness.once()
        counted[len(batch)] = logged_statements(pg_server, start, log.stat().st_size)
        assert harness.smtp.count() - sent == 2 * len(batch)  # a report to each player of each game
    assert harness.outcomes()[-4:] == ["applied"] * 4
    one, three = len(counted[1]), len(counted[3])
    assert one and three > one  # the log is on: counts of 0 would prove nothing
    per_order = (three - one) / 2
    assert per_order <= CEILING, f"{per_order} statements an order mail ({one} for one, {three} for three)\n" + \
        "\n".join(["one:", *counted[1], "three:", *counted[3]])
