"""`/metrics`: the operator's figures from the database, request latency, who may read it."""

from __future__ import annotations

import re
from datetime import timedelta

from prometheus_client.parser import text_string_to_metric_families

from adjudicator import store
from adjudicator.service.common.clock import utcnow
from adjudicator.store.models import Game


def _families(client, **kw) -> dict[str, dict[tuple, float]]:
    resp = client.get("/metrics", **kw)
    assert resp.status_code == 200
    out: dict[str, dict[tuple, float]] = {}
    for family in text_string_to_metric_families(resp.get_data(as_text=True)):
        for sample in family.samples:
            out.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return out


def test_metrics_show_queues_deadlines_and_latency(client, toy_game) -> None:
    _admin, players, game_id = toy_game
    players[0].page()
    with store.transaction() as s:
        g = s.exec(Game.__table__.select().where(Game.public_id == game_id)).first()  # type: ignore[attr-defined]
        s.connection().execute(Game.__table__.update().where(Game.id == g.id).values(  # type: ignore[attr-defined]
            due_at=utcnow() - timedelta(minutes=5)))
    figures = _families(client)
    assert figures["pbem_games"][(("status", "running"),)] == 1
    assert figures["pbem_deadlines_due"][()] == 1
    assert figures["pbem_deadlines_late"][()] == 1  # five minutes past: the sweep is behind
    assert figures["pbem_outbox_oldest_pending_seconds"][()] >= 0
    assert figures["pbem_record_entries_last_hour"][(("kind", "setup"),)] == 1
    # the seat page served above was timed under its route pattern (no seat token in a label)
    seat = [key for key in figures["pbem_http_request_seconds_count"] if ("method", "GET") in key
            and any(v.startswith("/play/") for _, v in key)]
    assert seat and figures["pbem_http_request_seconds_count"][seat[0]] >= 1


def test_metrics_hidden_from_other_hosts_unless_token(app, client) -> None:
    elsewhere = {"REMOTE_ADDR": "203.0.113.9"}
    assert client.get("/metrics", environ_base=elsewhere).status_code == 404
    app.config["PBEM_METRICS_TOKEN"] = "s3cret-token"
    assert client.get("/metrics", environ_base=elsewhere,
                      headers={"Authorization": "Bearer wrong"}).status_code == 404
    resp = client.get("/metrics", environ_base=elsewhere, headers={"Authorization": "Bearer s3cret-token"})
    assert resp.status_code == 200 and re.search(r"^pbem_deadlines_due ", resp.get_data(as_text=True), re.M)
