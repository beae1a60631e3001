"""Intake: where a mail becomes a sender, commands and orders.

In: one inbound mail (gm.mail.inbound.Inbound), from the daemon, `gm ingest`
or `gm inbox --retry`.  ingest stores it once, in its one transaction, and
judging walks it as one case (case.MailCase) through its steps (judging.STEPS),
each in its room here: gate, routing, arrival, authenticate, commands (preview
for a mail with PREVIEW), orders, and the reply.  A mail that cannot be read or judged is set aside with its
error (setaside) and the next is read.  Out: an Outcome for the log.
"""
