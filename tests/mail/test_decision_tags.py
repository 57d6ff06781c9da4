"""Answers matched to the decision they answer (issue 24): every mail's reply address names the
decision open when it was written (docs/email.md, "Which decision a mail answers"); orders sent to
an old mail's address are never applied to a later decision, and the reply says what became of
the old one. Standing-order lines of such a mail are kept as usual."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from adjudicator import service, store
from adjudicator.engine import get_game
from adjudicator.service.common.core import current_prompts, find_game
from adjudicator.service.common.tokens import split_token, tagged_token
from tests.mail.conftest import address, message, outbox, send
from tests.support.play import PlayedGame, new_game

TITLES = ["1960", "china", "doge", "founding-fathers"]


def _record_length(game: PlayedGame) -> int:
    with store.transaction(write=False) as s:
        return find_game(s, game.game_id).record_length


def test_the_decision_tag_reads_back_and_a_bad_tail_leaves_the_token() -> None:
    token = "a" * 20
    assert split_token(tagged_token(token, 57)) == (token, 57)
    assert split_token(tagged_token(token, None)) == (token, None)
    assert split_token(token + "dx9") == (token, None), "an unreadable tag is ignored, the token still counts"


@pytest.mark.parametrize("title", TITLES)
def test_a_stale_answer_is_never_applied_to_another_decision(db, title: str) -> None:
    """A seat answers its decision on the web; its decision open now is another one. The order of
    the old mail, sent to the old mail's reply address, changes nothing and the reply says why."""
    module = get_game(title)
    game = new_game(game=title, seats=module.info.min_seats)
    rnd = random.Random(f"tags-{title}")
    for _ in range(600):
        with store.transaction(write=False) as s:
            prompts = current_prompts(find_game(s, game.game_id))
        assert prompts, "the game ended before a seat had two decisions in a row"
        open_ = sorted(seat for seat, p in prompts.items() if not p.sealed)
        if not open_:  # sealed decisions: everyone bids, and the game goes on
            for seat, prompt in sorted(prompts.items()):
                if game.page(seat).receipt is None:
                    game.submit(seat, module.format_order(rnd.choice(prompt.choices)))
            continue
        seat = open_[0]
        prompt = prompts[seat]
        old_address = address(game.game_id, seat, tagged=True)  # what this decision's mail carries
        old_line = module.format_order(rnd.choice(prompt.choices))
        game.submit(seat, module.format_order(rnd.choice(prompt.choices)))
        now_prompt = game.page(seat).prompt
        if now_prompt is None or now_prompt.get("sealed"):
            continue
        before, token = _record_length(game), game.prompt_token(seat)
        assert send(message(old_line, to=old_address, sender=f"{seat}@example.org"))
        assert _record_length(game) == before, "the old mail's order was applied to the decision open now"
        assert game.prompt_token(seat) == token
        reply = outbox(f"{seat}@example.org", "reply")[-1].body
        assert "## Not applied: your mail answers an earlier decision" in reply
        assert "You already answered the decision that mail asked about" in reply
        assert f"    {old_line}" in reply.split("## Now")[0], "the reply lists the lines it did not apply"
        now_part = reply.split("## Now", 1)[1]
        assert "Deadline: **" in now_part, "the decision open now is shown with its deadline"
        assert "Reply to this mail (" in now_part
        return
    pytest.fail("no seat had a decision right after its own")


def test_a_mail_after_the_deadline_is_told_the_default_and_keeps_its_standing_orders(db, toy) -> None:
    game = new_game(seats=2, options={"rounds": 3})
    assert send(message("bid 0", to=address(game.game_id, "p2", tagged=True), sender="p2@example.org"))
    assert send(message("bid 3", to=address(game.game_id, "p1", tagged=True)))  # p1 wins and chooses
    choose_address = address(game.game_id, "p1", tagged=True)  # as the reply's Reply-To has it
    assert outbox("p1@example.org", "reply")[-1].headers["Reply-To"] == choose_address
    with store.transaction(write=False) as s:
        due = find_game(s, game.game_id).due_at
    with store.transaction() as s:
        service.sweep_deadlines(s, due + timedelta(minutes=1))  # p1's choice is defaulted
    assert game.page("p1").prompt["kind"] == "bid"
    before = _record_length(game)
    assert send(message("double\nLATER choose: keep", to=choose_address))
    assert _record_length(game) == before
    assert game.page("p1").receipt is None, "the old mail's line did not become a bid"
    reply = outbox("p1@example.org", "reply")[-1].body
    assert "was defaulted at" in reply and "with `keep`" in reply
    assert "Standing order kept" in reply
    assert [line.written for line in game.page("p1").standing] == ["LATER choose: keep"]


def test_a_tagged_mail_answers_its_decision_and_the_follow_ups_below_it(db, toy) -> None:
    game = new_game(seats=2, options={"rounds": 3})
    assert send(message("bid 0", to=address(game.game_id, "p2", tagged=True), sender="p2@example.org"))
    assert send(message("bid 3\ndouble", to=address(game.game_id, "p1", tagged=True)))
    reply = outbox("p1@example.org", "reply")[-1].body
    assert "## Not applied" not in reply
    assert "    bid 3" in reply and "    double" in reply


def test_a_sealed_order_may_be_replaced_through_the_same_mails_address(db, toy) -> None:
    game = new_game(seats=2)
    first = address(game.game_id, "p1", tagged=True)
    assert send(message("bid 1", to=first))
    assert send(message("bid 2", to=first)), "the sealed decision is still the one the mail asked about"
    assert "## Not applied" not in outbox("p1@example.org", "reply")[-1].body
    assert game.page("p1").receipt.order_text == "bid 2"
