"""Tournament standings and ratings: exact numbers on small hand-made results, then the same
through the service over played toy games."""

from __future__ import annotations

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.history.ratings import Rating, rate
from adjudicator.service.history.results import GameResult, SeatResult, placements, player_identity, player_slug
from adjudicator.service.moderation.tournaments import game_points, standings
from adjudicator.store import PlayerRating
from tests.support.play import PlayedGame, finished_duel

KEY = "test-key"


def _result(scores: dict[str, int], winners: list[str], game: str = "toy", status: str = "finished",
            players: dict[str, str] | None = None, missed: dict[str, int] | None = None,
            gid: str = "g1") -> GameResult:
    players = players or {s: s.upper() for s in scores}
    seats = tuple(SeatResult(s, f"name:{players[s].lower()}", players[s], (missed or {}).get(s, 0)) for s in scores)
    return GameResult(gid, game, "T", status, seats, tuple(winners), scores)


def slug(name: str) -> str:
    return player_slug(f"name:{name.lower()}", KEY)


def test_a_player_is_their_address_whatever_the_case_else_their_name():
    assert player_identity(" Ann@Example.ORG ", "Ann") == player_identity("ann@example.org", "Annie")
    assert player_identity("", "  Bob   Smith ") == player_identity("", "bob smith") == "name:bob smith"
    assert player_identity("", "Bob") != player_identity("bob@example.org", "Bob")
    assert player_slug("mail:ann@example.org", KEY) != player_slug("mail:ann@example.org", "other key")
    assert "ann" not in player_slug("mail:ann@example.org", KEY)


def test_points_under_each_scoring_system():
    r = _result({"a": 10, "b": 5, "c": 0}, ["a"])
    assert game_points(r, "wdl") == {"a": 1.0, "b": 0.0, "c": 0.0}
    assert game_points(r, "score") == {"a": 1.0, "b": 0.5, "c": 0.0}
    assert game_points(r, "rank") == {"a": 2.0, "b": 1.0, "c": 0.0}
    shared = _result({"a": 7, "b": 7, "c": 3}, ["a", "b"])
    assert game_points(shared, "wdl") == {"a": 0.5, "b": 0.5, "c": 0.0}
    assert game_points(shared, "rank") == {"a": 1.5, "b": 1.5, "c": 0.0}
    assert placements(shared) == {"a": 1, "b": 1, "c": 3}
    # a tie broken by the game (toy: secret tiebreak order): the winner alone is first
    broken = _result({"a": 4, "b": 4, "c": 4}, ["b"])
    assert placements(broken) == {"b": 1, "a": 2, "c": 2}
    assert game_points(broken, "rank") == {"b": 2.0, "a": 0.5, "c": 0.5}
    assert game_points(_result({"a": 0, "b": 0}, ["a"]), "score") == {"a": 0.0, "b": 0.0}
    with pytest.raises(service.ServiceError):
        game_points(r, "elo")


def test_standings_sum_points_per_title_and_break_ties():
    results = [
        _result({"x": 10, "y": 4}, ["x"], players={"x": "Ann", "y": "Bob"}, gid="g1"),
        _result({"x": 3, "y": 9}, ["y"], players={"x": "Cid", "y": "Bob"}, missed={"x": 2}, gid="g2"),
        _result({"x": 5, "y": 5}, ["x", "y"], game="other", players={"x": "Ann", "y": "Cid"}, gid="g3"),
        # running: counts as played, scores nothing
        _result({"x": 0, "y": 0}, [], status="running", players={"x": "Dee", "y": "Ann"}, gid="g4"),
    ]
    rows = standings(results, {"toy": "score", "other": "rank"}, KEY)
    table = [(r.rank, r.name, r.played, r.finished, r.wins, r.points, r.missed) for r in rows]
    assert table == [
        # Ann: 1.0 (score) + 0.5 (rank, shared first of 2); Bob: 0.4 + 1.0
        (1, "Ann", 3, 2, 2, 1.5, 0),
        (2, "Bob", 2, 2, 1, 1.4, 0),
        (3, "Cid", 2, 2, 1, 0.8333, 2),
        (4, "Dee", 1, 0, 0, 0.0, 0),
    ]
    assert rows[0].player == slug("Ann")
    # equal in every tie-break: one rank, listed by name
    even = standings([_result({"x": 1, "y": 1}, ["x", "y"], players={"x": "Zed", "y": "Amy"})], {}, KEY)
    assert [(r.rank, r.name, r.points) for r in even] == [(1, "Amy", 0.5), (1, "Zed", 0.5)]
    # fewer missed deadlines break a tie in points and wins
    missed = standings([_result({"x": 1, "y": 1}, ["x", "y"], players={"x": "Amy", "y": "Zed"}, missed={"x": 1})],
                       {}, KEY)
    assert [(r.rank, r.name) for r in missed] == [(1, "Zed"), (2, "Amy")]


def test_the_winner_rating_rises_and_the_loser_falls():
    after = rate({}, {"ann": 1, "bob": 2})
    assert after["ann"].mu > 25 > after["bob"].mu
    assert after["ann"].sigma < 25 / 3 and after["ann"].games == 1
    again = rate(after, {"ann": 1, "bob": 2})
    assert again["ann"].mu > after["ann"].mu and again["ann"].games == 2
    # an upset moves ratings more than the expected result
    upset = rate(after, {"ann": 2, "bob": 1})
    assert after["ann"].mu - upset["ann"].mu > again["ann"].mu - after["ann"].mu
    # a tie between equals changes no mean
    tie = rate({}, {"ann": 1, "bob": 1})
    assert tie["ann"].mu == pytest.approx(25) and tie["bob"].mu == pytest.approx(25)
    # three seats: the middle place ends between the others
    three = rate({"c": Rating(25, 25 / 3)}, {"a": 1, "b": 2, "c": 3})
    assert three["a"].mu > three["b"].mu > three["c"].mu


# through the service ----------------------------------------------------------------------------

def _ratings() -> dict[str, tuple[str, float, int]]:
    with store.transaction(write=False) as s:
        return {r.name: (r.player, round(r.mu, 9), r.games) for r in s.exec(select(PlayerRating))}


def test_standings_and_ratings_of_played_games(db, toy):
    with store.transaction() as s:
        cup = service.create_director(s, "Winter Cup")
    finished_duel(cup, ("Ann", "Bob"), emails=("ann@example.org", ""))
    finished_duel(cup, ("Ann", "Bob"), emails=("ANN@example.org", ""))
    finished_duel(None, ("Bob", "Cid"))  # outside the tournament: rated, not in the standings
    with store.transaction(write=False) as s:
        table = service.tournament_standings(s, cup.director_id)
    assert [(r.rank, r.name, r.played, r.finished, r.wins, r.points) for r in table.rows] == [
        (1, "Ann", 2, 2, 2, 2.0), (2, "Bob", 2, 2, 0, 0.0)]
    assert table.rating_game == "toy" and table.rows[0].rating > table.rows[1].rating
    ratings = _ratings()
    assert ratings["Ann"][1] > 25 and ratings["Ann"][2] == 2 and ratings["Bob"][2] == 3
    # the table is a cache: recomputing from the finished games gives the same numbers
    with store.transaction() as s:
        for row in s.exec(select(PlayerRating)):
            row.mu = 0.0
            s.add(row)
    with store.transaction() as s:
        assert service.recompute_ratings(s) == 3
    assert _ratings() == ratings

    # the director switches the toy scoring to rank points; a wrong link or system is refused
    with store.transaction() as s:
        service.set_scoring(s, cup.director_id, cup.token, {"toy": "rank"})
    with store.transaction() as s, pytest.raises(service.Forbidden):
        service.set_scoring(s, cup.director_id, "guessed", {"toy": "score"})
    with store.transaction() as s, pytest.raises(service.ServiceError):
        service.set_scoring(s, cup.director_id, cup.token, {"toy": "elo"})
    with store.transaction(write=False) as s:
        table = service.tournament_standings(s, cup.director_id)
        csv_text = service.standings_csv(table)
        page = service.player_page(s, table.rows[0].player)
    assert [t.system for t in table.scoring] == ["rank"]
    assert [r.points for r in table.rows] == [2.0, 0.0]
    assert csv_text.splitlines()[0] == "rank,name,player,played,finished,wins,points,missed,rating"
    assert csv_text.splitlines()[1].startswith(f"1,Ann,{table.rows[0].player},2,2,2,2.0,0,")
    assert "example.org" not in csv_text and "example.org" not in str(table.to_json())
    assert page.name == "Ann" and [g.place for g in page.games] == [1, 1]
    assert [(r.game_type, r.games) for r in page.ratings] == [("toy", 2)]
    with store.transaction(write=False) as s, pytest.raises(service.NotFound):
        service.player_page(s, "0" * 16)
    with store.transaction(write=False) as s, pytest.raises(service.NotFound):
        service.tournament_standings(s, "dnothere1")


def test_defaulted_decisions_count_as_missed_deadlines(db, toy):
    from datetime import timedelta

    from adjudicator.service import sweep_deadlines

    with store.transaction() as s:
        cup = service.create_director(s, "Slow Cup")
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, options={"rounds": 1},
                                      director=(cup.director_id, cup.token))
    for (seat, invite), name in zip(created.invites.items(), ("Ann", "Bob"), strict=True):
        with store.transaction() as s:
            service.join_game(s, created.game_id, seat, invite, name=name)
    game = PlayedGame(created.game_id, created.admin_token, {})
    due = game.public().deadline
    with store.transaction() as s:
        sweep_deadlines(s, due + timedelta(seconds=1))  # both default to bid 0: the game ends
    with store.transaction(write=False) as s:
        table = service.tournament_standings(s, cup.director_id)
    assert game.public().status == "finished"
    assert {r.name: r.missed for r in table.rows} == {"Ann": 1, "Bob": 1}


def test_a_server_without_ratings_rates_nothing_until_it_recomputes(db, toy, monkeypatch):
    monkeypatch.setenv("PBEM_RATINGS", "0")
    finished_duel(None, ("Ann", "Bob"))
    assert _ratings() == {}
    monkeypatch.delenv("PBEM_RATINGS")
    with store.transaction() as s:
        assert service.recompute_ratings(s) == 1
    assert {name: games for name, (_, _, games) in _ratings().items()} == {"Ann": 1, "Bob": 1}


def test_two_games_of_the_same_new_players_finishing_at_once_both_rate(db, toy):
    """Both finishing transactions create the players' rating rows; neither may fail on them."""
    import threading
    import time

    games = []
    for _ in range(2):
        with store.transaction() as s:
            created = service.create_game(s, game="toy", seats=2, options={"rounds": 1})
        tokens = {}
        for (seat, invite), name in zip(created.invites.items(), ("Ann", "Bob"), strict=True):
            with store.transaction() as s:
                tokens[seat] = service.join_game(s, created.game_id, seat, invite, name=name,
                                                 email=f"{name}@example.org").seat_token
        game = PlayedGame(created.game_id, created.admin_token, tokens)
        game.submit("p2", "bid 0")
        game.submit("p1", "bid 2")
        games.append((game, game.prompt_token("p1")))
    inside = threading.Event()
    errors: list[BaseException] = []

    def finish(game: PlayedGame, token: str, hold: bool) -> None:
        try:
            if not hold:
                inside.wait(5)
            with store.transaction() as s:
                service.submit(s, game.game_id, "p1", game.tokens["p1"], "keep", token)
                if hold:
                    inside.set()
                    time.sleep(0.5)  # the other game finishes meanwhile
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=finish, args=(*games[0], True)),
               threading.Thread(target=finish, args=(*games[1], False))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert all(game.public().status == "finished" for game, _ in games)
    assert {name: n for name, (_, _, n) in _ratings().items()} == {"Ann": 2, "Bob": 2}
