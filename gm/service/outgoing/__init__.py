"""Outgoing: reports into mail, and what becomes of the mail.

In: events and texts from play and people.  reports and reportmail render
each reader's report (gm.present) and archive it; answers and replies are
the one reply a mail gets; observers are the public's subscriptions;
outbox queues the bytes (rate limits, headers, DKIM) for gm.runtime to
send.  Back from the mail server: bounces reads a bounce into one value
(gm.mail.bounces) and delivery_state, holding and outages keep what is
known about each address and about gm's own sending.  Out: rows in the
outbox and the archive.
"""
