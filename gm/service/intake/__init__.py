"""Intake: where a mail becomes a sender, commands and orders.

In: one inbound mail (gm.mail.inbound.Inbound), from the daemon, `gm ingest`
or `gm inbox --retry`.  ingest records it once, hands robots and bounces to
gm.service.outgoing.bounces, finds the game and authenticates the sender
(gm.service.people), brings the game's clock up to now, runs the mail's
commands (people.mailcommands), passes its press and orders to
gm.service.play, and gathers every answer into one reply.  A mail that
cannot be read is set aside with its error (setaside) and the next is read.
Out: an Outcome for the log.  Nothing imports this room but the engine.
"""
