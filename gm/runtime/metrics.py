"""Prometheus metrics from the daemon (``metrics_port``; prometheus-client, ``pip install gm[metrics]``).

prometheus-client is imported only when metrics are asked for: gm runs without it.  The daemon
thread reads what the store recorded since its last look (new messages, orders, delivery events,
sent mail) and moves the counters; the HTTP thread only serves the registry, never the store.
"""

from __future__ import annotations

import logging

from gm.store import Store

log = logging.getLogger(__name__)


class Metrics:
    """The daemon's counters, served on ``host:port`` from their own registry."""

    def __init__(self, store: Store, host: str, port: int, now: float):
        try:
            import prometheus_client as prom
        except ImportError as exc:
            raise SystemExit("gm: metrics_port needs prometheus-client (pip install gm[metrics])") from exc
        self.registry = prom.CollectorRegistry()
        self.mails_in = prom.Counter("gm_mails_in", "Incoming mails handled, by outcome", ["outcome"],
                                     registry=self.registry)
        self.mails_out = prom.Counter("gm_mails_out", "Mails sent", registry=self.registry)
        self.orders = prom.Counter("gm_orders", "Orders judged, by result", ["result"], registry=self.registry)
        self.bounces = prom.Counter("gm_bounces", "Delivery failures (refusals and bounces), by kind", ["kind"],
                                    registry=self.registry)
        self.outbox_depth = prom.Gauge("gm_outbox_depth", "Outgoing mails queued or held", registry=self.registry)
        self.judging = prom.Histogram("gm_judging_seconds", "Seconds a pass over newly arrived mail took",
                                      registry=self.registry)
        self.marks = store.metrics.metric_marks()
        self.started = now  # mail sent from now on is counted (the store's clock)
        self.sent_counted = 0
        self.server, self.thread = prom.start_http_server(port, addr=host, registry=self.registry)
        log.info("metrics on http://%s:%d/metrics", host, port)

    def judged(self, seconds: float) -> None:
        self.judging.observe(seconds)

    def update(self, store: Store) -> None:
        """Move the counters by what the store recorded since the last update."""
        for message in store.metrics.message_outcomes_after(self.marks["messages"]):
            self.mails_in.labels(message.outcome).inc()
            self.marks["messages"] = message.id
        for order in store.metrics.orders_after(self.marks["orders"]):
            self.orders.labels("applied" if order.accepted else "refused").inc()
            self.marks["orders"] = order.id
        for event in store.metrics.delivery_events_after(self.marks["events"]):
            self.bounces.labels("permanent" if event.permanent else "temporary").inc()
            self.marks["events"] = event.id
        sent = store.metrics.sent_since(self.started)  # sent rows never go back to queued
        self.mails_out.inc(max(0, sent - self.sent_counted))
        self.sent_counted = max(sent, self.sent_counted)
        counts = store.metrics.outbox_counts()
        self.outbox_depth.set(counts.get("queued", 0) + counts.get("held", 0))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def from_config(store: Store, config, now: float) -> Metrics | None:
    if config.metrics_port is None:
        return None
    return Metrics(store, config.metrics_host, config.metrics_port, now)
