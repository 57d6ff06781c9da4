"""`pbem play GAME --bots N`: a practice game in the terminal against substitutes (issue 28)."""

from __future__ import annotations

import io
import json

from adjudicator.cli.play import practice
from adjudicator.record import verify_record


def test_a_whole_practice_game_against_substitutes_is_recorded_and_replays(toy, tmp_path):
    lines = io.StringIO("bid 7\n" + "bid 3\nkeep\n" * 12)
    out = io.StringIO()
    export = tmp_path / "practice.json"
    assert practice("toy", 2, "p1", "s1", lines, out, export) == 0
    text = out.getvalue()
    assert "you play p1; substitutes play p2, p3" in text
    assert "not an order here: write `bid N` with N from 0 to 3, not 'bid 7'" in text
    assert "P2 (substitute) plays bid" in text and "game over" in text
    doc = json.loads(export.read_bytes())
    marked = [e["data"].get("substitute") for e in doc["entries"] if e["kind"] == "orders"]
    assert ["p2", "p3"] in marked
    verify_record(doc)


def test_quit_stops_and_a_wrong_seat_count_says_what_to_give(toy):
    out = io.StringIO()
    assert practice("toy", 1, None, "s2", io.StringIO("quit\n"), out) == 1
    assert out.getvalue().endswith("stopped\n")
    out = io.StringIO()
    assert practice("toy", 7, None, "s2", io.StringIO(""), out) == 2
    assert "give --bots 1 to 3" in out.getvalue()
