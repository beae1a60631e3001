"""The use cases: ingest a mail, apply orders, close turns, tick timers, the GM's overrides, audit.

Each use case is a function given a ``Context`` (store, config, clock, outbox);
``gm.service.engine.Engine`` gathers them for the daemon and the command line.
"""
