"""Screenshots of each game's seat page on a 390-px phone, for the docs: its decision and its drawn
board, docs/screenshots/<game>-decision.png and <game>-board.png.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--lang en]

Sets up one game of each title in a throw-away SQLite database, moves it on with random legal
orders to a decision worth showing (the server draws each game's seed anew, so the pieces differ
from run to run), starts the web app (`pbem run --no-worker`, sealed groups revealed inline) and
takes the seat page's decision and its drawn board with Debian's chromium through Playwright.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PHONE = {"width": 390, "height": 844}
MOST_HEIGHT = 1400  # px of page per picture at most

# (game, seats, seed, the decision to stop at: kind and whether a round was revealed)
SCENES = [
    ("doge", 3, 1, lambda seat, page: page.prompt["kind"] == "placement" and _markers_placed(page.view)),
    ("china", 3, 3, lambda seat, page: page.prompt["kind"] == "space"),
    ("1960", 2, 1, lambda seat, page: page.prompt["kind"] == "cp"),
    ("founding-fathers", 3, 1, lambda seat, page: page.prompt["kind"] in ("vote", "place", "agenda")),
]


def _markers_placed(view: dict | None) -> bool:
    return any(any(counts.values()) for counts in ((view or {}).get("ballots") or {}).values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    os.environ["PBEM_EAGER"] = "1"  # this process reveals sealed groups inline while setting up

    from playwright.sync_api import sync_playwright

    from adjudicator import store
    from tests.support.browser import chromium_or_skip, web_server
    from tests.support.databases import sqlite_database
    from tests.support.seat_games import advance, start

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as name, sqlite_database(Path(name)) as db:
        tmp = Path(name)
        store.configure(db.url)
        store.init_db()
        pages = {}
        for game, seats, seed, wanted in SCENES:
            started = start(game, seats, f"Screenshot {game}")
            seat = advance(started, random.Random(seed), 400, wanted)
            if seat is None:
                raise SystemExit(f"{game}: no decision to show within 400 orders")
            pages[game] = started.path(seat)
        env = {k: v for k, v in os.environ.items() if k not in ("SMTP_HOST",)}
        env.update({"DATABASE_URL": db.url, "PBEM_VAR_DIR": str(tmp / "var"), "PBEM_EAGER": "1",
                    "PYTHONPATH": str(ROOT)})  # the server runs this checkout's code
        with web_server(env, tmp, tmp / "web.log") as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_or_skip(), args=["--no-sandbox"])
            page = browser.new_page(viewport=PHONE, device_scale_factor=1)
            for game, path in pages.items():
                page.goto(f"{base}{path}?lang={args.lang}", wait_until="load")
                for part, selector in (("decision", "#orders"), ("board", ".venice, .china-map, .usmap, .ffmap")):
                    found = page.locator(selector)
                    box = found.first.bounding_box() if found.count() else None
                    if box is None:
                        raise SystemExit(f"{game}: no {selector} on the seat page")
                    clip = {"x": 0, "y": max(0, box["y"] - 6), "width": PHONE["width"],
                            "height": min(MOST_HEIGHT, box["height"] + 12)}
                    target = out / f"{game}-{part}.png"
                    page.screenshot(path=str(target), clip=clip, full_page=True)
                    print(f"{target}: {int(clip['height'])} px high, {target.stat().st_size // 1024} KB")
            browser.close()
        store.configure(None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
