"""The benches' open-loop client (adjudicator/bench/openloop.py)."""

from __future__ import annotations

import gc

from adjudicator.bench import openloop


def test_the_client_does_not_collect_garbage_while_it_sends(monkeypatch) -> None:  # noqa: ANN001
    """A full collection of the bench process's heap paused its event loop for tens of ms, and
    the requests sent late counted as the server's latency; the collector is back on after."""
    seen: list[bool] = []

    async def fake_run(*_args: object) -> openloop.Outcome:
        seen.append(gc.isenabled())
        return openloop.Outcome()

    monkeypatch.setattr(openloop, "_run", fake_run)
    assert gc.isenabled()
    openloop.run([], 0, 1.0, 1, 1.0)
    assert seen == [False]
    assert gc.isenabled()
