"""`pbem bench walks` follows a game through the code and counts the steps that go back to a
module or room already left (issue 27)."""

from __future__ import annotations

import re

import pytest

from adjudicator.bench import walks


def test_returns_count_the_units_entered_again() -> None:
    stays = walks.collapse(["a", "a", "b", "a", "c", "b"])
    assert stays == ["a", "b", "a", "c", "b"]
    assert walks.returns(stays) == 2


def test_rooms_are_service_sub_packages_or_top_level_packages() -> None:
    assert walks.room_of("adjudicator.service.play.orders") == "adjudicator.service.play"
    assert walks.room_of("adjudicator.store.gamelock") == "adjudicator.store"
    assert walks.room_of("workers.mailer") == "workers"
    assert walks.room_of("adjudicator.service") == "adjudicator.service"


def test_the_bench_traces_both_walks(capsys: pytest.CaptureFixture[str]) -> None:
    from adjudicator import store

    try:
        assert walks.main([]) == 0
    finally:
        store.configure(None)
    out = capsys.readouterr().out
    for name in ("order", "deadline"):
        found = re.search(rf"walk {name} by room: (\d+) steps, (\d+) rooms, (\d+) returns", out)
        assert found, out
        steps, rooms, back = map(int, found.groups())
        assert steps >= 3 and rooms >= 2 and back <= steps
    # the deadline's walk reaches the notification mails it composes
    assert re.search(r"walk deadline rooms in order: .*adjudicator\.mail", out), out
    assert "walks worst share of returns by room:" in out
