"""Issue 28: the substitute's moves are a worker's tasks (service/play/substitutes.py), never thought out
inside a request or a deadline: the use case commits and returns a "substitute" task; the task is
safe to run twice, and a lost one is found by the recovery sweep through the game row's mark."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.common.clock import as_utc
from adjudicator.service.play import pace
from adjudicator.store import Game, SealedOrder
from tests.support.play import new_game


def _game(game_id: str) -> Game:
    with store.transaction(write=False) as s:
        return s.exec(select(Game).where(Game.public_id == game_id)).one()


def _substitute_bids(game_id: str) -> list[SealedOrder]:
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        return list(s.exec(select(SealedOrder).where(SealedOrder.game_id == g.id,
                                                     SealedOrder.origin == "substitute")))


def _hand_over(game_id: str, admin: str, seat: str) -> list:
    with store.transaction() as s:
        return service.hand_to_substitute(s, game_id, admin, seat, True)


def test_the_hand_over_only_hands_the_move_to_a_task_which_plays_it_once_however_often_it_runs(db, toy) -> None:
    game = new_game(seats=2, options={"rounds": 3})
    tasks = _hand_over(game.game_id, game.admin_token, "p2")
    [task] = [t for t in tasks if t[0] == "substitute"]
    assert task == ("substitute", game.game_id, _game(game.game_id).record_length)
    assert _substitute_bids(game.game_id) == [], "the request did not think: the task will"
    assert _game(game.game_id).substitute_at is not None
    with store.transaction(write=False) as s:
        public = service.public_game(s, game.game_id)
    assert public.thinking == ["p2"] and public.waiting == ["p1"]
    assert service.play_substitutes(task[1], task[2]) == []  # p2's bid sealed; the game waits on p1
    assert len(_substitute_bids(game.game_id)) == 1 and _game(game.game_id).substitute_at is None
    assert service.play_substitutes(task[1], task[2]) == []  # a second run (a doubled wake-up)
    assert len(_substitute_bids(game.game_id)) == 1


def test_two_tasks_thinking_at_once_play_the_move_once(db, toy, monkeypatch) -> None:
    """The search runs with no lock held; the first task to lock the game applies its move, the
    other finds the move made (the game's mark cleared) and applies nothing."""
    game = new_game(seats=2, options={"rounds": 3})
    [task] = [t for t in _hand_over(game.game_id, game.admin_token, "p2") if t[0] == "substitute"]
    real = pace.substitute_order
    nested: list = []

    def slow_search(*args, **kwargs):
        if not nested:  # while this task thinks, a doubled wake-up runs the same move to its end
            nested.append("running")
            nested.append(service.play_substitutes(task[1], task[2]))
        return real(*args, **kwargs)

    monkeypatch.setattr("adjudicator.service.play.substitutes.substitute_order", slow_search)
    assert service.play_substitutes(task[1], task[2]) == []
    assert nested == ["running", []] and len(_substitute_bids(game.game_id)) == 1


def test_a_lost_substitute_task_is_found_by_the_recovery_sweep(db, toy) -> None:
    game = new_game(seats=2, options={"rounds": 3})
    _hand_over(game.game_id, game.admin_token, "p2")  # its task is lost (never enqueued)
    now = service.utcnow()
    with store.transaction() as s:  # within the grace the task may still be on its way
        assert service.recovery_sweep(s, now).games == []
    later = now + service.play.substitutes.grace() + timedelta(seconds=1)
    with store.transaction() as s:
        found = service.recovery_sweep(s, later)
    assert found.tasks == [("substitute", game.game_id, _game(game.game_id).record_length)]
    with store.transaction() as s:  # handed on: not again before another grace
        assert service.recovery_sweep(s, later + timedelta(seconds=1)).games == []
    service.run_substitutes(found.tasks)
    assert len(_substitute_bids(game.game_id)) == 1 and _game(game.game_id).substitute_at is None


def test_a_deadline_hands_the_substitute_its_moves_and_adjudicates_without_thinking(db, toy, monkeypatch) -> None:
    """The burst's risk: a deadline must never search. It records the defaults of the seats it
    waited on; a move the seat in civil disorder owes after it is a task's."""
    game = new_game(seats=2, options={"rounds": 5})
    _hand_over(game.game_id, game.admin_token, "p2")
    service.run_substitutes([("substitute", game.game_id, _game(game.game_id).record_length)])

    def no_search(*args, **kwargs):
        raise AssertionError("the deadline searched")

    monkeypatch.setattr(pace, "choose", no_search)
    at = service.utcnow()
    for _ in range(4):  # p1 never plays: each deadline defaults it, until the substitute owes a move
        at += timedelta(days=4)
        with store.transaction() as s:
            tasks = service.sweep_game(s, game.game_id, at)
        owed = [t for t in tasks if t[0] == "substitute"]
        if owed:
            break
    else:
        raise AssertionError("no deadline left a move to the substitute")
    g = _game(game.game_id)
    assert owed == [("substitute", game.game_id, g.record_length)] and g.substitute_at is not None
    assert as_utc(g.due_at) > at  # a deadline ahead all the same: the backstop if no worker ever plays it
