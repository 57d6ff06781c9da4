"""Moderator tools of issue 13, on SQLite and PostgreSQL: rollback, shortened deadline, broadcast,
removal for cause, declared result. Each is a note on the game's record."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.record import VerifyError, export_bytes, verify_bytes
from adjudicator.service.common.clock import as_utc
from adjudicator.store import Game, ModeratorAction, OutboxMessage, Press, RecordEntry, SealedOrder
from tests.support.play import PlayedGame, finished_duel, new_game, substitutes_move, verify_addresses


def _notes(game: PlayedGame) -> list[dict]:
    return [e["data"] for e in game.export()["entries"] if e["kind"] == "note"]


def _game_row(s, game: PlayedGame) -> Game:
    return s.exec(select(Game).where(Game.public_id == game.game_id)).one()


def _outbox(game: PlayedGame, kind: str) -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        g = _game_row(s, game)
        return list(s.exec(select(OutboxMessage).where(OutboxMessage.game_id == g.id, OutboxMessage.kind == kind)))


def _round_one(game: PlayedGame) -> None:
    """p1 wins round 1 (bid 2 against 0) and keeps: entries 1 (the sealed bids) and 2 (keep)."""
    game.submit("p2", "bid 0")
    game.submit("p1", "bid 2")
    game.submit("p1", "keep")


def _rollback(game: PlayedGame, to: int, reason: str = "a misread deadline", token: str | None = None):
    with store.transaction() as s:
        return service.rollback(s, game.game_id, token or game.admin_token, to, reason)


def _state_hash_of(game: PlayedGame, index: int) -> str:
    with store.transaction(write=False) as s:
        g = _game_row(s, game)
        return s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id, RecordEntry.seq == index)).one().state_hash


# --------------------------------------------------------------------------------------------- rollback

def test_a_rollback_restores_the_earlier_position_and_keeps_the_undone_entries(db, toy):
    game = new_game(seats=2)
    _round_one(game)
    game.submit("p2", "bid 1")  # a sealed order of round 2, collected before the rollback
    _rollback(game, 1)
    entries = game.export()["entries"]
    assert [e["kind"] for e in entries] == ["setup", "orders", "orders", "note"]
    note = entries[3]["data"]
    assert note == {"action": "rollback", "to": 1, "undone": 1, "reason": "a misread deadline"}
    # the state is the one after entry 1: p1 chooses again (keep or double)
    assert entries[3]["state_hash"] == _state_hash_of(game, 1)
    assert game.page("p1").prompt["kind"] == "choose"
    assert game.page("p2").prompt is None
    with store.transaction(write=False) as s:
        g = _game_row(s, game)
        assert s.exec(select(SealedOrder).where(SealedOrder.game_id == g.id)).all() == []  # withdrawn
        assert g.waiting_on == ["p1"] and as_utc(g.due_at) is not None
        assert s.exec(select(ModeratorAction).where(ModeratorAction.action == "rollback")).one().data["to"] == 1
    # every seat is told why, then the seat now waited on gets its turn mail
    assert sorted(m.seat for m in _outbox(game, "moderator")) == ["p1", "p2"]
    assert max(_outbox(game, "turn"), key=lambda m: m.id).seat == "p1"  # p1 decides again
    # the public log keeps the undone lines, marked
    log = game.public().log
    undone = [line.markdown for line in log if line.index == 2]
    assert undone and all(text.startswith("**[undone by a rollback]**") for text in undone)
    assert any("rolled the game back to record entry 1" in line.markdown and "misread" in line.markdown
               for line in log if line.index == 3)
    assert not any("[undone" in line.markdown for line in log if line.index in (0, 1, 3))


def test_a_rolled_back_record_verifies_whole_and_a_tampered_undone_entry_fails(db, toy):
    game = new_game(seats=2)
    _round_one(game)
    _rollback(game, 1)
    game.submit("p1", "double")  # a different choice this time
    for _round in (2, 3):
        game.submit("p1", "bid 0")
        game.submit("p2", "bid 0")  # no unique bid: nobody chooses
    assert game.public().status == "finished"
    doc = game.export()
    assert doc["server_seed"] and "withheld" not in doc
    report = verify_bytes(export_bytes(doc))
    assert report.replayed and report.finished and report.entries == len(doc["entries"])
    # the undone "keep" entry (2) is tampered: its hash no longer matches
    doc["entries"][2]["data"]["orders"] = {"p1": {"choice": "double"}}
    with pytest.raises(VerifyError, match="entry 2: its hash does not match"):
        verify_bytes(export_bytes(doc))


def test_a_rollback_to_the_setup_keeps_undone_sealed_orders_private_while_the_game_runs(db, toy):
    game = new_game(seats=2)
    game.submit("p2", "bid 3")
    game.submit("p1", "bid 1")  # p2 wins round 1 and must choose
    _rollback(game, 0, "p2 mistyped")
    doc = game.export()
    assert doc["withheld"] == [1]  # the undone sealed bids are still withheld
    assert doc["entries"][1]["data"]["withheld"] == "sealed"
    public_text = " ".join(line.markdown for line in game.public().log)
    assert "You (p1) bid 1" not in public_text and "You (p2) bid 3" not in public_text
    # each seat still sees its own undone private line (marked), never the other's
    p1_log = " ".join(line.markdown for line in game.page("p1").log)
    assert "**[undone by a rollback]** You (p1) bid 1" in p1_log and "You (p2) bid 3" not in p1_log
    assert game.page("p1").prompt["kind"] == "bid" and game.page("p2").prompt["kind"] == "bid"


def test_rollbacks_nest_and_refuse_undone_targets_finished_games_and_wrong_links(db, toy):
    game = new_game(seats=2)
    _round_one(game)  # entries 1, 2
    _rollback(game, 1)  # entry 3 undoes 2
    game.submit("p1", "keep")  # entry 4
    with store.transaction(write=False) as s:
        last = _game_row(s, game).record_length - 1
    with pytest.raises(service.ServiceError, match="undone by an earlier rollback"):
        _rollback(game, 2)
    with pytest.raises(service.ServiceError, match="roll back to an entry"):
        _rollback(game, last)
    with pytest.raises(service.ServiceError, match="reason"):
        _rollback(game, 1, reason="   ")
    with pytest.raises(service.Forbidden):
        _rollback(game, 1, token="not-the-link")
    _rollback(game, 0)  # entry 5 undoes 1..4, the first rollback included
    assert game.export()["entries"][-1]["state_hash"] == _state_hash_of(game, 0)
    log = game.public().log
    assert {line.index for line in log if line.markdown.startswith("**[undone")} == {1, 2, 3, 4}
    duel = finished_duel(None, ("Ann", "Bob"))
    with pytest.raises(service.Conflict, match="rolled back"):
        _rollback(duel, 1)


# --------------------------------------------------------------------------------------------- deadline

def test_shortening_the_deadline_moves_it_earlier_notes_it_and_mails_the_waiting_seats(db, toy):
    game = new_game(seats=2)
    game.submit("p1", "bid 1")  # only p2 is waited on now
    with store.transaction(write=False) as s:
        due = as_utc(_game_row(s, game).due_at)
    with store.transaction() as s:
        service.shorten_deadline(s, game.game_id, game.admin_token, 24)
    with store.transaction(write=False) as s:
        assert as_utc(_game_row(s, game).due_at) == due - timedelta(hours=24)
    assert _notes(game)[-1]["action"] == "shorten_deadline" and _notes(game)[-1]["hours"] == "24"
    assert [m.seat for m in _outbox(game, "moderator")] == ["p2"]
    assert any("brought the deadline 24 hours forward" in line.markdown for line in game.public().log)
    with store.transaction() as s, pytest.raises(service.ServiceError, match="at least an hour"):
        service.shorten_deadline(s, game.game_id, game.admin_token, 24 * 60)
    with store.transaction() as s, pytest.raises(service.ServiceError, match="above 0"):
        service.shorten_deadline(s, game.game_id, game.admin_token, -5)


# --------------------------------------------------------------------------------------------- broadcast

def test_a_broadcast_reaches_every_seat_by_page_and_mail_and_the_record_keeps_only_its_hash(db, toy):
    game = new_game(seats=3)
    text = "Round two **starts** Monday. <script>alert(1)</script>"
    with store.transaction() as s:
        service.broadcast(s, game.game_id, game.admin_token, text)
    for seat in ("p1", "p2", "p3"):
        with store.transaction(write=False) as s:
            lines = service.press_for(s, game.game_id, seat, game.tokens[seat])
        assert [(p.sender, p.body, p.broadcast) for p in lines] == [("moderator", text, True)]
    assert sorted(m.seat for m in _outbox(game, "press")) == ["p1", "p2", "p3"]
    note = _notes(game)[-1]
    assert note["action"] == "broadcast" and "text" not in note and len(note["text_sha256"]) == 64
    assert "starts" not in export_bytes(game.export()).decode()
    with store.transaction() as s, pytest.raises(service.ServiceError, match="empty"):
        service.broadcast(s, game.game_id, game.admin_token, "  ")


def test_a_tournament_broadcast_reaches_every_game_not_over(db, toy):
    with store.transaction() as s:
        cup = service.create_director(s, "Winter Cup")
    done = finished_duel(cup, ("Ann", "Bob"))
    games = []
    for i in range(2):
        with store.transaction() as s:
            created = service.create_game(s, game="toy", seats=2, title=f"T{i}",
                                          director=(cup.director_id, cup.token))
        verify_addresses(*(f"{seat}{i}@example.org" for seat in created.invites))  # the players confirmed them
        for seat, invite in created.invites.items():
            with store.transaction() as s:
                service.join_game(s, created.game_id, seat, invite, name=f"{seat}{i}", email=f"{seat}{i}@example.org")
        games.append(created.game_id)
    with store.transaction() as s:  # a game whose seats are still open: no record yet, the moderator log only
        pending = service.create_game(s, game="toy", seats=2, title="Open", director=(cup.director_id, cup.token))
    with store.transaction() as s:
        sent = service.broadcast_tournament(s, cup.director_id, cup.token, "Finals next week")
    assert sorted(sent.games) == sorted([*games, pending.game_id]) and len(sent.tasks) == 4
    with store.transaction(write=False) as s:
        rows = s.exec(select(Press)).all()
        assert len(rows) == 3 and {r.sender for r in rows} == {"moderator"}
        g = s.exec(select(Game).where(Game.public_id == pending.game_id)).one()
        assert g.record_length == 0
        assert s.exec(select(ModeratorAction).where(ModeratorAction.game_id == g.id)).one().action == "broadcast"
        g = s.exec(select(Game).where(Game.public_id == done.game_id)).one()
        assert s.exec(select(Press).where(Press.game_id == g.id)).all() == []
    with store.transaction() as s, pytest.raises(service.Forbidden):
        service.broadcast_tournament(s, cup.director_id, "wrong", "x")


# --------------------------------------------------------------------------------------------- remove a seat

def test_a_removed_seat_loses_its_link_plays_by_default_and_is_open_for_a_replacement(db, toy):
    game = new_game(seats=2, policy=service.DeadlinePolicy(substitutes=False))  # the plain defaults
    game.submit("p1", "bid 2")
    with store.transaction() as s:
        removed = service.remove_seat(s, game.game_id, game.admin_token, "p2", "abusive press")
    assert removed.seat == "p2" and removed.invite_token
    with store.transaction(write=False) as s, pytest.raises(service.Forbidden):
        service.seat_state(s, game.game_id, "p2", game.tokens["p2"])
    # p2's bid took the default (0) at once: p1's 2 is unique, p1 chooses now
    entries = game.export()["entries"]
    assert entries[-2]["data"]["action"] == "remove_seat" and entries[-2]["data"]["reason"] == "abusive press"
    assert entries[-1]["kind"] == "orders" and entries[-1]["data"]["defaulted"] == ["p2"]
    assert game.page("p1").prompt["kind"] == "choose"
    removal = [m for m in _outbox(game, "moderator") if m.to == "p2@example.org"]
    assert len(removal) == 1 and "abusive press" in removal[0].body
    with store.transaction() as s:
        joined = service.join_game(s, game.game_id, "p2", removed.invite_token, name="Sub", email="sub@example.org")
    with store.transaction(write=False) as s:
        page = service.seat_state(s, game.game_id, "p2", joined.seat_token)
        assert not page.disorder
    assert any("removed the player of p2" in line.markdown for line in game.public().log)


# --------------------------------------------------------------------------------------------- declared result

def test_a_declared_result_ends_the_game_and_the_standings_use_it(db, toy):
    with store.transaction() as s:
        cup = service.create_director(s, "Spring Cup")
        created = service.create_game(s, game="toy", seats=2, title="Final", director=(cup.director_id, cup.token))
    tokens = {}
    for seat, invite in created.invites.items():
        with store.transaction() as s:
            tokens[seat] = service.join_game(s, created.game_id, seat, invite, name=f"Name {seat}",
                                             email=f"{seat}@example.org").seat_token
    game = PlayedGame(created.game_id, created.admin_token, tokens)
    game.submit("p1", "bid 3")  # a sealed order never revealed: dropped at the end
    with store.transaction() as s, pytest.raises(service.ServiceError, match="no seat p9"):
        service.declare_result(s, game.game_id, cup.token, ["p9"], "x")
    with store.transaction() as s:
        service.declare_result(s, game.game_id, cup.token, ["P2"], "p1 withdrew from the tournament")
    page = game.public()
    assert page.status == "finished" and page.outcome["winners"] == ["p2"]
    assert "p1 withdrew" in page.outcome["summary"]
    assert any("ended the game with a declared result: won by p2" in line.markdown for line in page.log)
    with store.transaction(write=False) as s:
        standings = service.tournament_standings(s, cup.director_id)
        g = _game_row(s, game)
        assert s.exec(select(SealedOrder).where(SealedOrder.game_id == g.id)).all() == []
    by_name = {r.name: r for r in standings.rows}
    assert by_name["Name p2"].wins == 1 and by_name["Name p2"].points == 1.0
    assert by_name["Name p1"].wins == 0 and by_name["Name p1"].finished == 1
    assert sorted(m.seat for m in _outbox(game, "end")) == ["p1", "p2"]
    doc = game.export()
    assert doc["server_seed"]  # published as at any end
    report = verify_bytes(export_bytes(doc))
    assert report.replayed and report.finished
    with store.transaction() as s, pytest.raises(service.Conflict):
        service.declare_result(s, game.game_id, cup.token, ["p1"], "again")


def test_defaults_a_rollback_undid_are_not_missed_deadlines_in_the_standings(db, toy):
    with store.transaction() as s:
        cup = service.create_director(s, "Cup")
        created = service.create_game(s, game="toy", seats=2, title="T", director=(cup.director_id, cup.token))
    for seat, invite in created.invites.items():
        with store.transaction() as s:
            service.join_game(s, created.game_id, seat, invite, name=f"N{seat}", email=f"{seat}@example.org")
    game = PlayedGame(created.game_id, created.admin_token, {})
    with store.transaction() as s:
        service.force_defaults(s, game.game_id, cup.token)  # both seats default: missed 1 each

    def missed() -> dict[str, int]:
        with store.transaction(write=False) as s:
            return {r.name: r.missed for r in service.tournament_standings(s, cup.director_id).rows}

    assert missed() == {"Np1": 1, "Np2": 1}
    _rollback(game, 0, "the deadline passed during a server outage", token=cup.token)
    assert missed() == {"Np1": 0, "Np2": 0}


def test_a_paused_game_rolled_back_stays_paused_with_a_full_wait_for_its_resume(db, toy):
    game = new_game(seats=2)
    _round_one(game)
    with store.transaction() as s:
        service.pause(s, game.game_id, game.admin_token)
    _rollback(game, 1)
    with store.transaction(write=False) as s:
        g = _game_row(s, game)
        assert g.status == "paused" and g.due_at is None and g.paused_remaining == g.step_seconds
    with store.transaction() as s:
        service.resume(s, game.game_id, game.admin_token)
    assert game.page("p1").prompt["kind"] == "choose"
    with store.transaction(write=False) as s:
        g = _game_row(s, game)
        assert as_utc(g.due_at) - as_utc(g.updated_at) > timedelta(seconds=g.step_seconds - 60)


# --------------------------------------------------------------------------------------------- substitutes

def test_the_moderator_hands_a_seat_to_the_substitute_and_back(db, toy):
    game = new_game(seats=2, options={"rounds": 3})
    with store.transaction() as s:
        service.hand_to_substitute(s, game.game_id, game.admin_token, "p2", True)
    substitutes_move(game.game_id)  # a worker's task: the substitute seals p2's bid
    game.submit("p1", "bid 3")
    orders = [e["data"] for e in game.full_export()["entries"] if e["kind"] == "orders"]
    assert orders[-1]["substitute"] == ["p2"] and orders[-1]["defaulted"] == []
    assert any("The moderator handed p2 to the substitute" in line.markdown for line in game.public().log)
    with store.transaction() as s:
        service.hand_to_substitute(s, game.game_id, game.admin_token, "p2", False)
    assert any("The moderator gave p2 back to its player" in line.markdown for line in game.public().log)
    for _ in range(3):  # p1 answers what it has open until the game needs p2
        if "p2" in game.public().waiting:
            break
        game.submit("p1", "keep" if game.page("p1").prompt["kind"] != "bid" else "bid 3")
    assert "p2" in game.public().waiting  # the game waits for its player again
    # (a sealed bid the substitute had already given stands, as a removed player's does)


def test_a_game_without_substitutes_refuses_the_hand_over_and_changes_nothing(db, toy):
    game = new_game(seats=2, policy=service.DeadlinePolicy(substitutes=False))
    with store.transaction() as s, pytest.raises(service.ServiceError, match="created without substitutes"):
        service.hand_to_substitute(s, game.game_id, game.admin_token, "p2", True)
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == game.game_id)).one()
        assert not service.common.core.seat_row(s, g, "p2").disorder
