"""A player's undo and all-or-nothing plans (issue 25), on SQLite and PostgreSQL, in a real 1960
game: Kennedy spends a card's CP campaigning in the East (his token starts in Massachusetts, so
no travel there), takes steps back, is refused after a draw and after Nixon's move, and sends
plans that apply whole or not at all."""

from __future__ import annotations

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.engine import get_game
from adjudicator.record import export_bytes, undone_indices, verify_bytes
from adjudicator.store import Game, OutboxMessage
from tests.support.play import PlayedGame, kennedy_to_play, new_game

GAME = get_game("1960")


def _row(s, game: PlayedGame) -> Game:
    return s.exec(select(Game).where(Game.public_id == game.game_id)).one()


def _record(game: PlayedGame) -> tuple[int, str]:
    with store.transaction(write=False) as s:
        g = _row(s, game)
        return g.record_length, g.state_hash


def chooser(game: PlayedGame) -> str:
    """The seat that won the initiative and chose who plays first (entry 1)."""
    return next(iter(game.full_export()["entries"][1]["data"]["orders"]))


def kennedy_spending(cp: int) -> PlayedGame:
    """A 1960 game where Kennedy plays a card of at least `cp` CP for its CP (first of the turn)."""
    game, text = kennedy_to_play(cp)
    assert not game.submit("kennedy", text).error
    return game


def _undo(game: PlayedGame, seat: str, steps: int = 1) -> service.Undone:
    with store.transaction() as s:
        return service.undo(s, game.game_id, seat, game.tokens[seat], steps)


def _verify_with_seed(game: PlayedGame) -> None:
    """The moderator's full record, with the seed (read from the store, as the game's end would
    publish it), replays under `pbem verify`, undone entries and the undo's note included."""
    doc = game.full_export()
    with store.transaction(write=False) as s:
        doc["server_seed"] = _row(s, game).server_seed
    report = verify_bytes(export_bytes(doc))
    assert report.replayed and report.entries == len(doc["entries"])


# ------------------------------------------------------------------------------------------ undo

def test_a_player_takes_back_own_steps_and_the_record_shows_it_and_verifies(db):
    """Rally the Troops' rule: own steps, nobody else acted, nothing hidden revealed or drawn."""
    game = kennedy_spending(3)
    before_cp = _record(game)
    spend = game.page("kennedy")
    assert spend.prompt["kind"] == "cp" and spend.budget.endswith("CP to spend")
    assert spend.undo_steps[0].startswith("play ")  # the card play itself may be taken back
    game.submit("kennedy", "campaign New York 1")
    page = game.page("kennedy")
    assert page.budget.endswith("CP left")
    assert page.undo_steps[:2] == ["campaign New York 1", spend.undo_steps[0]]
    length, _ = _record(game)

    undone = _undo(game, "kennedy")
    assert undone.taken_back == ["campaign New York 1"]
    after = _record(game)
    assert after[0] == length + 1  # the rollback note; nothing deleted
    assert after[1] == before_cp[1]  # the state before the campaign, exactly
    entries = game.full_export()["entries"]
    note = entries[-1]["data"]
    assert note == {"action": "rollback", "to": length - 2, "undone": 1, "by": "seat", "seat": "kennedy", "steps": 1}
    assert undone_indices(entries) == {length - 1}
    log = " ".join(line.markdown for line in game.public().log if line.index == length)
    assert "kennedy took back their last 1 step(s)" in log
    assert game.page("kennedy").budget == spend.budget  # the CP are there to spend again
    assert game.page("kennedy").undo_steps == spend.undo_steps  # and the card play may still go back

    _undo(game, "kennedy")  # the card play too: Kennedy chooses his card again
    page = game.page("kennedy")
    assert page.prompt["kind"] == "play"
    assert page.undo_steps == (["first kennedy"] if chooser(game) == "kennedy" else [])
    _verify_with_seed(game)


def test_an_undo_is_refused_after_a_draw_with_the_reason(db):
    """Advertising makes support checks: cubes drawn from the bag (the PRNG), hidden until drawn."""
    game = kennedy_spending(2)
    assert not game.submit("kennedy", "advertise").error
    page = game.page("kennedy")
    assert page.undo_steps == []
    assert page.undo_refusal == ("your last step revealed or drew something hidden (a card, a die, the bag), "
                                 "so it stands")
    length = _record(game)
    with pytest.raises(service.Conflict, match="cannot be taken back: your last step revealed or drew"):
        _undo(game, "kennedy")
    assert _record(game) == length  # nothing changed


def test_an_undo_is_refused_once_another_seat_acted(db):
    game = kennedy_spending(2)
    assert not game.submit("kennedy", "campaign New York 1\ndone").error  # the move passes to Nixon
    nixon = game.page("nixon").prompt
    assert nixon is not None and game.page("kennedy").prompt is None
    assert game.page("kennedy").undo_steps[0] == "done"  # until Nixon acts
    assert not game.submit("nixon", GAME.format_order(nixon["choices"][0])).error
    length = _record(game)
    assert game.page("kennedy").undo_steps == []
    with pytest.raises(service.Conflict, match="cannot be taken back: nixon acted after your last step"):
        _undo(game, "kennedy")
    assert _record(game) == length


def test_a_seat_waited_on_is_told_when_the_step_that_gave_it_the_move_is_taken_back(db):
    game = kennedy_spending(2)
    assert not game.submit("kennedy", "campaign New York 1\ndone").error  # the move passes to Nixon
    assert game.page("nixon").prompt is not None
    with store.transaction(write=False) as s:
        before = len(s.exec(select(OutboxMessage).where(OutboxMessage.seat == "nixon")).all())
    _undo(game, "kennedy")
    assert game.page("nixon").prompt is None and game.page("kennedy").prompt["kind"] == "cp"
    with store.transaction(write=False) as s:
        mails = s.exec(select(OutboxMessage).where(OutboxMessage.seat == "nixon")).all()
    assert len(mails) == before + 1 and "not your move yet" in mails[-1].subject


# ------------------------------------------------------------------------------------------ plans

def test_a_refused_row_leaves_the_whole_plan_unapplied(db):
    """Three CP: New York 2 and Pennsylvania 1 fit; Ohio (Midwest: 1 CP of travel) does not."""
    game = kennedy_spending(3)
    cp = int(game.page("kennedy").budget.split()[0])
    plan = f"campaign New York {cp - 1}\ncampaign Pennsylvania 1\ncampaign Ohio 1"
    before = _record(game)
    sub = game.submit("kennedy", plan, whole=True)
    assert sub.applied == [] and sub.error is not None
    assert sub.error.startswith("`campaign Ohio 1`") and "no line of the plan was applied" in sub.error
    assert _record(game) == before  # not New York, not Pennsylvania
    assert game.page("kennedy").prompt["kind"] == "cp"
    # the same rows without Ohio apply whole
    sub = game.submit("kennedy", f"campaign New York {cp - 1}\ncampaign Pennsylvania 1", whole=True)
    assert sub.error is None and sub.applied == [f"campaign New York {cp - 1}", "campaign Pennsylvania 1"]
    assert _record(game)[0] == before[0] + 2


def test_a_preview_lists_the_rows_and_the_cp_left_after_each_and_changes_nothing(db):
    game = kennedy_spending(3)
    cp = int(game.page("kennedy").budget.split()[0])
    before = _record(game)
    with store.transaction() as s:
        preview = service.preview_plan(s, game.game_id, "kennedy", game.tokens["kennedy"],
                                       "campaign New York 1\ncampaign Pennsylvania 1", game.prompt_token("kennedy"))
    assert preview.error is None and preview.before == f"{cp} CP to spend"
    assert preview.rows == [("campaign New York 1", f"{cp - 1} CP left"),
                            ("campaign Pennsylvania 1", f"{cp - 2} CP left" if cp > 2 else
                             "nothing left to spend: the action ends")]
    with store.transaction() as s:
        refused = service.preview_plan(s, game.game_id, "kennedy", game.tokens["kennedy"],
                                       "campaign New York 1\ncampaign Ohio 9", game.prompt_token("kennedy"))
    assert refused.rows == [] and refused.error.startswith("`campaign Ohio 9`")
    assert _record(game) == before


# ------------------------------------------------------------------------------------------ reveals

def _toy_round_one(game: PlayedGame) -> None:
    """p1 wins round 1 of the toy auction (bid 2 against 0) and must choose: keep or double."""
    game.submit("p2", "bid 0")
    game.submit("p1", "bid 2")


def test_a_revealed_sealed_order_stands_and_an_open_step_after_it_may_be_taken_back(db, toy):
    game = new_game(seats=2)
    _toy_round_one(game)
    page = game.page("p1")
    assert page.undo_steps == [] and page.undo_refusal == "sealed orders were revealed since, so your step stands"
    with pytest.raises(service.Conflict, match="sealed orders were revealed since"):
        _undo(game, "p1")
    game.submit("p1", "keep")  # no coin: nothing hidden drawn
    assert game.page("p1").undo_steps == ["keep"]
    assert _undo(game, "p1").taken_back == ["keep"]
    assert game.page("p1").prompt["kind"] == "choose"
    game.submit("p1", "double")  # the seeded coin is drawn: the step stands
    page = game.page("p1")
    assert page.undo_steps == [] and page.undo_refusal.startswith("your last step revealed or drew something hidden")


def test_an_undo_is_refused_once_another_seat_sent_a_sealed_order(db, toy):
    game = new_game(seats=2)
    _toy_round_one(game)
    game.submit("p1", "keep")
    game.submit("p2", "bid 1")  # round 2: p2's sealed bid is in
    page = game.page("p1")
    assert page.undo_steps == [] and page.undo_refusal == "p2 sent a sealed order since, so your step stands"
    before = _record(game)
    with pytest.raises(service.Conflict, match="p2 sent a sealed order since"):
        _undo(game, "p1")
    assert _record(game) == before and game.page("p2").receipt is not None  # p2's bid is kept
