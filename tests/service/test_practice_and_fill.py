"""Issue 28: seats the substitute holds from the start: a practice game (one player, the
substitute in the other seats), a lobby game's free seats filled at the time its moderator set;
such seats have no player, the game is not rated, and a tournament's director chooses whether
games where the substitute played count in the standings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.record import verify_record
from adjudicator.service.common.types import DeadlinePolicy
from adjudicator.service.history.results import game_result
from adjudicator.store import Game, PlayerRating, Seat


def _game(s, game_id: str) -> Game:
    return s.exec(select(Game).where(Game.public_id == game_id)).one()


def _seats(game_id: str) -> dict[str, Seat]:
    with store.transaction(write=False) as s:
        g = _game(s, game_id)
        return {r.seat: r for r in s.exec(select(Seat).where(Seat.game_id == g.id))}


def _play_out(game_id: str, seat: str, token: str) -> None:
    """The player answers every decision of theirs with its first legal order until the end."""
    for _ in range(100):
        with store.transaction(write=False) as s:
            page = service.seat_state(s, game_id, seat, token)
        if page.status == "finished":
            return
        assert page.prompt is not None, "the game waits for nobody but the player"
        with store.transaction() as s:
            result = service.submit(s, game_id, seat, token, page.choices[0], page.prompt_token)
        service.run_substitutes(result.tasks)  # a worker's tasks after the commit
    pytest.fail("the practice game did not end")


def test_a_practice_game_starts_at_once_and_the_substitute_plays_the_other_seats(db, toy) -> None:
    with store.transaction() as s:
        practice = service.create_practice_game(s, "toy", 3, "p2", "Ana", options={"rounds": 2})
    assert [t for t in practice.tasks if t[0] == "substitute"], "the substitute's moves go to a worker"
    with store.transaction(write=False) as s:  # meanwhile the pages say the substitute is thinking
        assert service.public_game(s, practice.game_id).thinking == ["p1", "p3"]
        assert service.public_game(s, practice.game_id).waiting == ["p2"]  # a simultaneous bid
    service.run_substitutes(practice.tasks)
    seats = _seats(practice.game_id)
    assert practice.seat == "p2"
    assert [name for name, r in sorted(seats.items()) if r.held_by_substitute] == ["p1", "p3"]
    assert all(r.disorder and r.seat_token_hash and not r.email for n, r in seats.items() if n != "p2")
    assert seats["p2"].display_name == "Ana" and not seats["p2"].held_by_substitute
    with store.transaction(write=False) as s:
        page = service.seat_state(s, practice.game_id, "p2", practice.seat_token)
        assert page.status == "running" and page.prompt is not None  # only the player is waited for
        assert service.public_game(s, practice.game_id).waiting == ["p2"]
    _play_out(practice.game_id, "p2", practice.seat_token)
    with store.transaction(write=False) as s:
        export = service.export_record(s, practice.game_id)
        result = game_result(s, _game(s, practice.game_id))
    verify_record(export)
    substitute_orders = [e for e in export["entries"] if e["kind"] == "orders" and e["data"].get("substitute")]
    assert substitute_orders and all("p2" not in e["data"]["substitute"] for e in substitute_orders)
    # a bot has no rating: a game with a seat the substitute held is not rated at all
    assert result.substituted == ("p1", "p3") and [r.seat for r in result.players] == ["p2"]
    with store.transaction(write=False) as s:
        assert s.exec(select(PlayerRating)).all() == []


def test_a_practice_game_refuses_a_seat_the_game_does_not_have(db, toy) -> None:
    with store.transaction() as s, pytest.raises(service.ServiceError, match="no seat 'nixon'.*p1, p2"):
        service.create_practice_game(s, "toy", 2, "nixon", "Ana")


def test_free_lobby_seats_go_to_the_substitute_at_the_fill_time(db, toy) -> None:
    now = service.utcnow()
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=3, options={"rounds": 1})
        service.open_in_lobby(s, created.game_id, created.admin_token)
        service.set_lobby_fill(s, created.game_id, created.admin_token, now + timedelta(hours=48))
        service.join_game(s, created.game_id, "p1", created.invites["p1"], "Ana", "ana@example.org", now=now)
    with store.transaction() as s:  # not yet
        assert service.fill_due_lobby_games(s, now + timedelta(hours=47)) == []
    assert _seats(created.game_id)["p2"].seat_token_hash is None
    with store.transaction() as s:
        service.fill_due_lobby_games(s, now + timedelta(hours=49))
    with store.transaction() as s:  # a second run changes nothing
        assert service.fill_due_lobby_games(s, now + timedelta(hours=50)) == []
    seats = _seats(created.game_id)
    assert {n for n, r in seats.items() if r.held_by_substitute} == {"p2", "p3"}
    assert not seats["p1"].held_by_substitute and seats["p1"].email == "ana@example.org"
    with store.transaction(write=False) as s:
        assert _game(s, created.game_id).status == "running"
        assert service.lobby(s).games == []


def test_a_lobby_game_nobody_joined_keeps_waiting_and_a_game_without_substitutes_refuses_a_fill(db, toy) -> None:
    now = service.utcnow()
    with store.transaction() as s:
        empty = service.create_game(s, game="toy", seats=2)
        service.open_in_lobby(s, empty.game_id, empty.admin_token)
        service.set_lobby_fill(s, empty.game_id, empty.admin_token, now - timedelta(hours=1))
        plain = service.create_game(s, game="toy", seats=2, policy=DeadlinePolicy(substitutes=False))
        service.open_in_lobby(s, plain.game_id, plain.admin_token)
    with store.transaction() as s:
        service.fill_due_lobby_games(s, now)
    with store.transaction(write=False) as s:
        assert _game(s, empty.game_id).status == "pending"
    with store.transaction() as s, pytest.raises(service.ServiceError, match="without substitutes"):
        service.set_lobby_fill(s, plain.game_id, plain.admin_token, now)


def test_the_director_chooses_whether_games_with_a_substitute_count(db, toy) -> None:
    now = service.utcnow()
    with store.transaction() as s:
        cup = service.create_director(s, "Cup")
        full = service.create_game(s, game="toy", seats=2, options={"rounds": 1},
                                   director=(cup.director_id, cup.token))
        filled = service.create_game(s, game="toy", seats=2, options={"rounds": 1},
                                     director=(cup.director_id, cup.token), policy=DeadlinePolicy(substitutes=True))
        service.join_game(s, full.game_id, "p1", full.invites["p1"], "Ana", "ana@example.org", now=now)
        service.join_game(s, full.game_id, "p2", full.invites["p2"], "Bo", "bo@example.org", now=now)
        service.open_in_lobby(s, filled.game_id, filled.admin_token)
        service.set_lobby_fill(s, filled.game_id, filled.admin_token, now)
        service.join_game(s, filled.game_id, "p1", filled.invites["p1"], "Ana", "ana@example.org", now=now)
    with store.transaction() as s:
        service.fill_due_lobby_games(s, now)
    with store.transaction(write=False) as s:
        table = service.tournament_standings(s, cup.director_id)
    ana = next(r for r in table.rows if r.name == "Ana")
    assert ana.played == 2 and len(table.rows) == 2  # the substitute has no row
    marked = {g["game_id"]: (g["substitute_seats"], g["counted"]) for g in table.to_json()["games"]}
    assert marked == {full.game_id: ([], True), filled.game_id: (["p2"], True)}
    with store.transaction() as s:
        service.count_substitute_games(s, cup.director_id, cup.token, False)
    with store.transaction(write=False) as s:
        table = service.tournament_standings(s, cup.director_id)
    assert next(r for r in table.rows if r.name == "Ana").played == 1
    assert {g["game_id"]: g["counted"] for g in table.to_json()["games"]} == {full.game_id: True,
                                                                             filled.game_id: False}
    with store.transaction() as s, pytest.raises(service.Forbidden):
        service.count_substitute_games(s, cup.director_id, "wrong", True)
