"""deploy/gunicorn.conf.py: a worker that has loaded the app freezes its objects, so the cyclic
collector's full collections walk only what came after (each walked the whole heap: 70-90 ms)."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

CONF = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"


def test_a_worker_freezes_what_it_loaded() -> None:
    settings = runpy.run_path(str(CONF))
    assert settings["workers"] >= 1 and settings["threads"] == 2
    loaded: list[object] = []  # a container the collector tracks
    try:
        settings["post_worker_init"](None)
        assert gc.get_freeze_count() > 0
        assert all(obj is not loaded for obj in gc.get_objects())  # frozen: no generation holds it
    finally:
        gc.unfreeze()
