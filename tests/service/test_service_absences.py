"""ABSENT: a deadline that passes while an absent seat is waited for moves to the end of the
absence (once, noted in the record); dates are validated in the seat's time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.record import verify_record
from adjudicator.service import DeadlinePolicy, ServiceError
from adjudicator.store import ModeratorAction
from tests.support.play import PlayedGame, new_game

HOUR = 3600


def sweep(now: datetime) -> list:
    with store.transaction() as s:
        return service.sweep_deadlines(s, now)


def absent(game: PlayedGame, seat: str, start, end, now: datetime | None = None) -> service.Absence:
    with store.transaction() as s:
        return service.set_absence(s, game.game_id, seat, game.tokens[seat], start, end, now=now)


def today() -> datetime:
    return datetime.now(UTC)


def test_a_deadline_waits_for_an_absent_seat_once(db, toy) -> None:
    game = new_game(seats=3, policy=DeadlinePolicy(step_seconds=10 * HOUR, reminder_seconds=0))
    day = today().date()
    away = absent(game, "p2", day, day + timedelta(days=2))
    assert away.until == datetime.combine(day + timedelta(days=3), datetime.min.time(), UTC)
    game.submit("p1", "bid 2")
    due = game.public().deadline
    assert sweep(due + timedelta(seconds=1)) == []  # moved, not defaulted
    public = game.public()
    assert public.deadline == away.until and public.record_length == 2  # one note entry
    assert "p2 away" in public.log[-1].markdown
    assert sweep(due + timedelta(seconds=1)) == []  # idempotent
    with store.transaction(write=False) as s:
        actions = [a.action for a in s.exec(select(ModeratorAction)).all()]
    assert actions == ["absence_extension"]
    # at the end of the absence the turn ends as usual: defaults for p2 and p3, no second extension
    sweep(away.until)
    entries = game.export()["entries"]
    assert entries[-1]["data"]["defaulted"] == ["p2", "p3"]
    verify_record(game.export())  # the note entry keeps the record verifiable (raises if not)


def test_an_absent_seat_that_already_ordered_is_not_waited_for(db, toy) -> None:
    game = new_game(seats=3, policy=DeadlinePolicy(step_seconds=10 * HOUR, reminder_seconds=0))
    day = today().date()
    absent(game, "p2", day, day + timedelta(days=2))
    game.submit("p2", "bid 1")
    due = game.public().deadline
    sweep(due + timedelta(seconds=1))
    assert game.export()["entries"][-1]["data"]["defaulted"] == ["p1", "p3"]


def test_an_absence_that_does_not_cover_the_deadline_changes_nothing(db, toy) -> None:
    game = new_game(seats=2, policy=DeadlinePolicy(step_seconds=10 * HOUR, reminder_seconds=0))
    day = today().date()
    absent(game, "p2", day + timedelta(days=5), day + timedelta(days=6))
    due = game.public().deadline
    sweep(due + timedelta(seconds=1))
    assert game.export()["entries"][-1]["data"]["defaulted"] == ["p1", "p2"]


@pytest.mark.parametrize(("start", "end", "words"), [
    ("2020-01-01", "2020-01-02", "in the past"),
    ("+1", "+0", "before the first day"),
    ("+0", "+14", "longer than this game allows (14 days"),
    ("2030-02-30", "2030-03-01", "not a date of the calendar"),
    ("1/2/2030", "2030-03-01", "write YYYY-MM-DD"),
    ("+400", "+401", "within a year"),
])
def test_absences_are_validated(db, toy, start: str, end: str, words: str) -> None:
    game = new_game(seats=2)
    day = today().date()

    def resolve(text: str) -> str:
        return (day + timedelta(days=int(text[1:]))).isoformat() if text.startswith("+") else text

    with pytest.raises(ServiceError, match=words.replace("(", r"\(")):
        absent(game, "p1", resolve(start), resolve(end))


def test_a_game_may_grant_no_absences_and_cancel_works(db, toy) -> None:
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, policy=DeadlinePolicy(max_absence_days=0))
        with pytest.raises(ServiceError, match="between 0 and 366"):
            service.create_game(s, game="toy", seats=2, policy=DeadlinePolicy(max_absence_days=400))
    assert created.game_id
    game = new_game(seats=2, policy=DeadlinePolicy(max_absence_days=0))
    with pytest.raises(ServiceError, match="grants no absences"):
        absent(game, "p1", today().date(), today().date())
    game = new_game(seats=2)
    absent(game, "p1", today().date(), today().date())
    assert game.page("p1").absence and not game.page("p2").absence
    with store.transaction() as s:
        assert service.cancel_absence(s, game.game_id, "p1", game.tokens["p1"]) is True
        assert service.cancel_absence(s, game.game_id, "p1", game.tokens["p1"]) is False
    assert game.page("p1").absence == ""


def test_dates_are_days_in_the_seats_time_zone(db, toy) -> None:
    game = new_game(seats=2)
    with store.transaction() as s:
        service.update_settings(s, game.game_id, "p1", game.tokens["p1"], "each", "", "Pacific/Kiritimati")
    now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)  # already Jan 2 in Kiritimati (UTC+14)
    with pytest.raises(ServiceError, match="in the past"):
        absent(game, "p1", "2030-01-01", "2030-01-03", now=now)
    away = absent(game, "p1", "2030-01-02", "2030-01-03", now=now)
    zone = ZoneInfo("Pacific/Kiritimati")
    assert away.until == datetime(2030, 1, 4, tzinfo=zone).astimezone(UTC)
    assert away.text == "2030-01-02 to 2030-01-03 (Pacific/Kiritimati)"
    with store.transaction(write=False) as s:
        [listed] = service.absences(s, game.game_id, game.admin_token, now=now)
    assert listed.seat == "p1"


def test_an_absence_cannot_be_renewed_without_end(db, toy) -> None:
    """Issue 24: all of a seat's absences together stay within the game's budget (28 days by
    default); renewing counts again, the days of a replaced absence not yet begun come back."""
    game = new_game(seats=2)
    start = datetime(2030, 1, 1, 12, tzinfo=UTC)
    day = start.date()
    absent(game, "p1", day, day + timedelta(days=13), now=start)  # 14 days
    absent(game, "p1", day + timedelta(days=1), day + timedelta(days=14), now=start)  # replaced: 14 days in all
    later = start + timedelta(days=10)  # 9 days away lived (Jan 2-10); renewed for 14 more: 23 in all
    absent(game, "p1", later.date(), later.date() + timedelta(days=13), now=later)
    again = start + timedelta(days=20)  # 19 lived; 14 more would make 33
    with pytest.raises(ServiceError, match="grants each seat 28 days of absence in all; you have used 19, so at "
                                           "most 9 more"):
        absent(game, "p1", again.date(), again.date() + timedelta(days=13), now=again)
    absent(game, "p1", again.date(), again.date() + timedelta(days=8), now=again)  # exactly the 9 left
    with pytest.raises(ServiceError, match="you have used 19, so at most 9 more"):  # the same again: still 9
        absent(game, "p1", again.date(), again.date() + timedelta(days=9), now=again)
    with store.transaction() as s:
        assert service.cancel_absence(s, game.game_id, "p1", game.tokens["p1"], now=again)  # 9 unlived come back
    absent(game, "p1", again.date(), again.date() + timedelta(days=8), now=again)


def test_the_moderator_changes_the_absence_budget(db, toy) -> None:
    game = new_game(seats=2)
    start = datetime(2030, 1, 1, 12, tzinfo=UTC)
    with store.transaction() as s:
        service.set_pace(s, game.game_id, game.admin_token, absence_budget_days=3)
    with pytest.raises(ServiceError, match="grants each seat 3 days"):
        absent(game, "p1", start.date(), start.date() + timedelta(days=3), now=start)
    absent(game, "p1", start.date(), start.date() + timedelta(days=2), now=start)
