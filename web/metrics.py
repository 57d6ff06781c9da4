"""`/metrics` in Prometheus' text format (docs/operations.md, "Watch").

The queue, outbox and deadline figures are read from the database at each scrape (the service's
`health_figures`), so every web process answers the same. Request latency is measured in the
process that served the request; under gunicorn with several workers set
`PROMETHEUS_MULTIPROC_DIR` to an empty folder (prometheus-client's multiprocess mode) so that
one scrape sums them all. Served to loopback clients, or to a scraper that sends
`Authorization: Bearer <PBEM_METRICS_TOKEN>`.
"""

from __future__ import annotations

import hmac
import os
import time
from collections.abc import Iterator

from flask import Blueprint, Flask, Response, abort, current_app, g, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from adjudicator import service

from . import backend
from .mail import is_loopback

bp = Blueprint("metrics", __name__)

REQUEST_SECONDS = Histogram(
    "pbem_http_request_seconds", "Time to serve a request, by route and method",
    ["route", "method"], buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0))


class DatabaseFigures(Collector):
    """Gauges read from the rows at scrape time."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        figures = backend.read(service.health_figures)
        yield _labelled("pbem_games", "Games by status", "status", figures.games)
        yield GaugeMetricFamily("pbem_deadlines_due", "Running games whose deadline has passed",
                                value=figures.deadlines_due)
        yield GaugeMetricFamily("pbem_deadlines_late", "Running games whose deadline passed over two "
                                "minutes ago (the sweep is behind)", value=figures.deadlines_late)
        yield _labelled("pbem_inbox_messages", "Inbound mail rows by status (new: queued)", "status",
                        figures.inbox)
        yield _labelled("pbem_outbox_messages", "Outbound mail rows by status (pending, sending: queued; "
                        "sent; failed; bounced)", "status", figures.outbox)
        yield GaugeMetricFamily("pbem_outbox_oldest_pending_seconds", "Age of the oldest mail not yet sent",
                                value=figures.oldest_pending_mail_seconds)
        yield _labelled("pbem_record_entries_last_hour", "Record entries written in the last hour, by kind "
                        "(orders, reveals: adjudications)", "kind", figures.record_entries_last_hour)


def _labelled(name: str, documentation: str, label: str, values: dict[str, int]) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, documentation, labels=[label])
    for key, value in sorted(values.items()):
        family.add_metric([key], value)
    return family


def _registry() -> CollectorRegistry:
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)  # every gunicorn worker's request figures
    else:
        registry.register(REQUEST_SECONDS)
    registry.register(DatabaseFigures())
    return registry


@bp.get("/metrics")
def metrics() -> Response:
    token = current_app.config.get("PBEM_METRICS_TOKEN", "")
    sent = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    allowed = is_loopback(request.remote_addr or "") or (token and hmac.compare_digest(sent, token))
    if not allowed:
        abort(404)  # not advertised to the public
    return Response(generate_latest(_registry()), mimetype=CONTENT_TYPE_LATEST)


def register_request_timing(app: Flask) -> None:
    @app.before_request
    def _started() -> None:
        g.pbem_started = time.perf_counter()

    @app.teardown_request
    def _served(_exc: BaseException | None) -> None:
        started = g.pop("pbem_started", None)
        if started is not None:
            route = request.url_rule.rule if request.url_rule is not None else "(no route)"
            REQUEST_SECONDS.labels(route, request.method).observe(time.perf_counter() - started)
