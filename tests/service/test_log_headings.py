"""Issue 25: the log carries each record entry's time and a heading where a year or a turn of the
game begins (Doge's years, 1960's and Founding Fathers' turns, named in their events' data)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from adjudicator.i18n import language
from adjudicator.service.history.gamelog import render_entries
from adjudicator.store import RecordEntry


class _Words:
    """A game that words each event as its kind (what the headings need is in the data)."""

    @staticmethod
    def event_message(ev: dict[str, Any]) -> None:
        return None

    @staticmethod
    def render_event(ev: dict[str, Any]) -> str:
        return ev["kind"]


def _entry(seq: int, minute: int, *events: dict[str, Any]) -> RecordEntry:
    return RecordEntry(game_id=1, seq=seq, kind="orders", data={}, prev="", state_hash="", hash="",
                       events=list(events), created_at=datetime(2031, 3, 3, 18, minute, tzinfo=UTC))


ROWS = [
    _entry(0, 0, {"kind": "year-started", "year": 1}, {"kind": "placed"}),
    _entry(1, 5, {"kind": "placed"}, {"kind": "year-ended", "year": 1}),
    _entry(2, 9, {"kind": "year-started", "year": 2}),
    _entry(3, 12, {"kind": "turn", "turn": 4}, {"kind": "phase", "phase": "issues", "turn": 4},
           {"kind": "secret", "audience": ["red"]}),
]


def test_a_heading_opens_each_new_year_or_turn_and_each_line_has_its_entry_time() -> None:
    lines = [line for entry in render_entries(ROWS, _Words(), None) for line in entry.lines]
    assert [(line.markdown, line.heading) for line in lines] == [
        ("year-started", "Year 1"), ("placed", ""), ("placed", ""), ("year-ended", ""),  # the same year: no heading
        ("year-started", "Year 2"), ("turn", "Turn 4"), ("phase", "")]  # the private line is not the public's
    assert [line.at.minute for line in lines] == [0, 0, 5, 5, 9, 12, 12]


def test_the_headings_speak_the_readers_language() -> None:
    with language("es"):
        lines = [line for entry in render_entries(ROWS[:1], _Words(), "red") for line in entry.lines]
    assert lines[0].heading == "Año 1"
