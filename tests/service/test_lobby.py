"""The lobby and tournament sign-up through the service: who may take seats, and how the server
seats the signed-up players (whole games, in creation order, random or by rating)."""

from __future__ import annotations

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.history.results import _server_key, player_identity, player_slug
from adjudicator.store import OutboxMessage, PlayerRating, Seat, TournamentEntry


def _verified(*addresses: str) -> None:
    import re

    for address in addresses:
        with store.transaction() as s:
            service.request_sign_in(s, address)
            body = s.exec(select(OutboxMessage).where(OutboxMessage.to == address)).all()[-1].body
        with store.transaction() as s:
            service.redeem_sign_in(s, re.search(r"/signin/([^>\s]+)>", body).group(1))


def _cup_with_games(count: int, seats: int = 2):
    with store.transaction() as s:
        cup = service.create_director(s, "Cup")
        games = [service.create_game(s, game="toy", seats=seats, title=f"Round {n}",
                                     director=(cup.director_id, cup.token)) for n in range(count)]
        service.set_signup(s, cup.director_id, cup.token, True)
    return cup, games


def test_only_verified_addresses_sign_up_and_take_seats(db, toy):
    cup, games = _cup_with_games(1)
    with store.transaction() as s, pytest.raises(service.Forbidden, match="sign in first"):
        service.sign_up(s, "eve@example.org", cup.director_id)
    with store.transaction() as s:
        service.open_in_lobby(s, games[0].game_id, games[0].admin_token)
    with store.transaction() as s, pytest.raises(service.Forbidden, match="sign in first"):
        service.take_seat(s, "eve@example.org", games[0].game_id, "p1")
    _verified("eve@example.org")
    with store.transaction() as s:
        joined = service.take_seat(s, "eve@example.org", games[0].game_id, "p1")
    with store.transaction() as s, pytest.raises(service.Conflict, match="hold a seat in game"):
        service.take_seat(s, "eve@example.org", games[0].game_id, "p2")
    _verified("fay@example.org")
    with store.transaction() as s, pytest.raises(service.Conflict, match="taken already"):
        service.take_seat(s, "fay@example.org", games[0].game_id, "p1")
    with store.transaction(write=False) as s:
        page = service.seat_state(s, games[0].game_id, "p1", joined.seat_token)
    assert page.seat == "p1"
    with store.transaction() as s:
        service.set_signup(s, cup.director_id, cup.token, False)
    with store.transaction() as s, pytest.raises(service.Conflict, match="does not take sign-ups"):
        service.sign_up(s, "eve@example.org", cup.director_id)


def test_seating_fills_whole_games_in_order_and_mails_each_player(db, toy):
    cup, games = _cup_with_games(3)
    players = [f"p{n}@example.org" for n in range(5)]
    _verified(*players)
    for address in players:
        with store.transaction() as s:
            service.sign_up(s, address, cup.director_id)
            service.sign_up(s, address, cup.director_id)  # twice is once
    with store.transaction() as s:
        tasks = service.seat_signups(s, cup.director_id, cup.token, "random")
    assert tasks
    with store.transaction(write=False) as s:
        entries = s.exec(select(TournamentEntry)).all()
        seated = [e for e in entries if e.game_id]
        assert len(entries) == 5 and len(seated) == 4  # two whole games; the fifth waits
        for created in games[:2]:
            page = service.public_game(s, created.game_id)
            assert page.status == "running"
        assert service.public_game(s, games[2].game_id).status == "pending"
        mails = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "seated")).all()
        assert sorted(m.to for m in mails) == sorted(e.email for e in seated)
        assert all(f"/play/{m.body.split('game ')[1].split(' ')[0]}/" in m.body for m in mails)
        status = service.signup_status(s, cup.director_id, cup.token)
    assert status.open and len(status.entries) == 5 and status.waiting_games == 1
    with store.transaction() as s, pytest.raises(service.Forbidden):
        service.seat_signups(s, cup.director_id, "wrong", "random")
    with store.transaction() as s, pytest.raises(service.ServiceError, match="seating must be one of"):
        service.seat_signups(s, cup.director_id, cup.token, "alphabet")


def test_seating_by_rating_puts_similar_ratings_together(db, toy):
    cup, games = _cup_with_games(2)
    players = ["a@example.org", "b@example.org", "c@example.org", "d@example.org"]
    _verified(*players)
    key = _server_key()
    strength = {"a@example.org": 30.0, "b@example.org": 10.0, "c@example.org": 29.0, "d@example.org": 11.0}
    with store.transaction() as s:
        for address in players:
            service.sign_up(s, address, cup.director_id)
            slug = player_slug(player_identity(address, address.split("@")[0]), key)
            s.add(PlayerRating(game_type="toy", player=slug, mu=strength[address], sigma=1.0, games=3))
    with store.transaction() as s:
        service.seat_signups(s, cup.director_id, cup.token, "rating")
    with store.transaction(write=False) as s:
        by_game: dict[int, set[str]] = {}
        for row in s.exec(select(Seat)).all():
            by_game.setdefault(row.game_id, set()).add(row.email)
    assert sorted(map(sorted, by_game.values())) == [["a@example.org", "c@example.org"],
                                                      ["b@example.org", "d@example.org"]]


def test_seating_can_make_more_games_like_the_newest(db, toy):
    cup, games = _cup_with_games(1, seats=3)
    players = [f"m{n}@example.org" for n in range(8)]
    _verified(*players)
    for address in players:
        with store.transaction() as s:
            service.sign_up(s, address, cup.director_id)
    with store.transaction() as s:
        service.seat_signups(s, cup.director_id, cup.token, "random", more=True)
    with store.transaction(write=False) as s:
        page = service.director_page(s, cup.director_id, cup.token)
        seated = [e for e in s.exec(select(TournamentEntry)).all() if e.game_id]
    assert len(seated) == 6  # the given game and one more of 3 seats; two players wait
    assert sorted(d.title for d in page.games) == ["Round 0", "Round 0 #2"]
    assert {d.status for d in page.games} == {"running"} and {d.seats for d in page.games} == {3}


def test_two_presses_of_seat_the_players_at_once_seat_them_once(pg_db, toy):
    """Issue 26: two simultaneous "seat the players" presses gave a 500 on PostgreSQL. One seats
    the players; the other waits for it and says they are seated already."""
    import threading

    cup, games = _cup_with_games(2)
    players = [f"r{n}@example.org" for n in range(4)]
    _verified(*players)
    for address in players:
        with store.transaction() as s:
            service.sign_up(s, address, cup.director_id)
    start = threading.Barrier(2, timeout=30)
    outcomes: list[str] = []

    def press() -> None:
        start.wait()
        try:
            with store.transaction() as s:
                service.seat_signups(s, cup.director_id, cup.token, "random")
            outcomes.append("seated")
        except service.Conflict as refused:
            outcomes.append(str(refused))

    threads = [threading.Thread(target=press) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["every signed-up player is seated already; nobody waits for a game", "seated"]
    with store.transaction(write=False) as s:
        entries = s.exec(select(TournamentEntry)).all()
        assert all(e.game_id for e in entries) and len({(e.game_id, e.seat) for e in entries}) == 4
        for created in games:
            assert service.public_game(s, created.game_id).status == "running"
        assert len(s.exec(select(OutboxMessage).where(OutboxMessage.kind == "seated")).all()) == 4


def test_seating_again_when_everybody_is_seated_says_so(db, toy):
    cup, _games = _cup_with_games(1)
    _verified("s0@example.org", "s1@example.org")
    for address in ("s0@example.org", "s1@example.org"):
        with store.transaction() as s:
            service.sign_up(s, address, cup.director_id)
    with store.transaction() as s:
        service.seat_signups(s, cup.director_id, cup.token, "random")
    with store.transaction() as s, pytest.raises(service.Conflict, match="seated already"):
        service.seat_signups(s, cup.director_id, cup.token, "random")
