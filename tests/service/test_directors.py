"""Tournament directors: one link lists and moderates every game of the tournament, and no other."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.store import Game, ModeratorAction
from tests.support.play import PlayedGame


def _director(name: str = "Autumn Cup") -> service.CreatedDirector:
    with store.transaction() as s:
        return service.create_director(s, name)


def _game(director: service.CreatedDirector | None, seats_to_join: int, game: str = "toy",
          seats: int = 2) -> PlayedGame:
    with store.transaction() as s:
        created = service.create_game(s, game=game, seats=seats, title=f"Table {seats_to_join}",
                                      director=(director.director_id, director.token) if director else None)
    tokens = {}
    for i, (seat, invite) in enumerate(list(created.invites.items())[:seats_to_join]):
        with store.transaction() as s:
            tokens[seat] = service.join_game(s, created.game_id, seat, invite, name=f"P{i}").seat_token
    return PlayedGame(created.game_id, created.admin_token, tokens)


def test_a_director_sees_every_game_of_the_tournament_needing_attention_first(db, toy):
    cup = _director()
    running = _game(cup, 2)
    open_seat = _game(cup, 1)
    late = _game(cup, 2)
    other = _game(None, 2)  # not in the tournament
    with store.transaction() as s:
        g = s.exec(select(Game).where(Game.public_id == late.game_id)).one()
        g.due_at = g.due_at - timedelta(days=30)
        s.add(g)
    with store.transaction(write=False) as s:
        page = service.director_page(s, cup.director_id, cup.token)
    assert page.name == "Autumn Cup"
    ids = [d.game_id for d in page.games]
    assert set(ids) == {running.game_id, open_seat.game_id, late.game_id}
    assert other.game_id not in ids
    by_id = {d.game_id: d for d in page.games}
    assert by_id[late.game_id].attention == "deadline passed"
    assert by_id[open_seat.game_id].attention == "1 seat(s) open"
    assert by_id[running.game_id].attention == "" and by_id[running.game_id].waiting == ["p1", "p2"]
    assert ids.index(running.game_id) > max(ids.index(late.game_id), ids.index(open_seat.game_id))


def test_the_director_link_moderates_its_games_on_the_record_and_no_others(db, toy):
    cup, rival = _director(), _director("Spring Open")
    game = _game(cup, 2)
    other = _game(rival, 2)
    with store.transaction() as s:
        service.pause(s, game.game_id, cup.token)
    with store.transaction() as s:
        service.resume(s, game.game_id, game.admin_token)  # the game's own moderator link still works
    with store.transaction() as s:
        actions = s.exec(select(ModeratorAction).order_by(ModeratorAction.id)).all()
        assert [(a.action, a.data.get("by")) for a in actions] == [("pause", "director"), ("resume", None)]
    notes = [e["data"] for e in game.export()["entries"] if e["kind"] == "note"]
    assert notes[0]["action"] == "pause" and notes[0]["by"] == "director"
    with store.transaction() as s, pytest.raises(service.Forbidden):
        service.pause(s, other.game_id, cup.token)
    with store.transaction(write=False) as s, pytest.raises(service.Forbidden):
        service.director_page(s, cup.director_id, rival.token)
    with store.transaction(write=False) as s, pytest.raises(service.Forbidden):
        service.director_page(s, "dnothere1", cup.token)


def test_games_join_a_tournament_only_with_its_link_and_directors_need_a_name(db, toy):
    cup = _director()
    with store.transaction() as s, pytest.raises(service.Forbidden):
        service.create_game(s, game="toy", seats=2, director=(cup.director_id, "guessed"))
    with store.transaction() as s, pytest.raises(service.ServiceError, match="name"):
        service.create_director(s, "   ")
