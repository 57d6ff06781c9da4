"""Short "your move" mails (issue 24): the news since the seat's last mail, its decision with the
deadline, at most 12 legal orders and one line pointing to HELP; the board and the grammar are
in the first mail, STATUS and HELP."""

from __future__ import annotations

from adjudicator.engine import Prompt
from adjudicator.service.play.notify import useful_choices
from adjudicator.store import Game, Seat
from tests.mail.conftest import address, message, outbox, send
from tests.support.play import new_game
from tests.support.toygame import ToyGame


def test_a_your_move_mail_is_short_and_help_has_the_grammar(db, toy) -> None:
    game = new_game(seats=2, options={"rounds": 3})
    start = outbox("p1@example.org", "start")[-1].body
    assert "## Your view of the board" in start and "How to write orders: `bid 2`" in start, "once per game"
    send(message("bid 3", to=address(game.game_id, "p1", tagged=True)))
    send(message("bid 0", to=address(game.game_id, "p2", tagged=True), sender="p2@example.org"))
    send(message("keep", to=address(game.game_id, "p1", tagged=True)))  # round 2: a new wait for p2
    turn = outbox("p2@example.org", "turn")[-1].body
    assert "## Since your last mail" in turn and "## Your decision" in turn
    assert "## Your view of the board" not in turn and "How to write orders" not in turn
    decision = turn.split("## Your decision", 1)[1]
    assert "Deadline: **" in decision.splitlines()[2], "the deadline stands right under the decision"
    assert [line.strip() for line in decision.splitlines() if line.startswith("    ")] == [
        "bid 0", "bid 1", "bid 2", "bid 3"]
    assert "send HELP for the commands and how to write orders" in decision
    assert len(turn.splitlines()) <= 35
    send(message("HELP", to=address(game.game_id, "p2", tagged=True), sender="p2@example.org"))
    help_reply = outbox("p2@example.org", "reply")[-1].body
    assert "## How to write orders" in help_reply and "`bid 2` (a sealed bid 0-3)" in help_reply


def test_useful_choices_are_at_most_twelve_the_default_first_then_a_spread() -> None:
    module = ToyGame()
    prompt = Prompt("p1", "bid", [{"bid": b} for b in range(40)], sealed=True, group="round-1")
    g = Game(public_id="gx", game_type="toy", state={"seats": ["p1"], "round": 1, "phase": "bid"})
    shown = useful_choices(g, module, Seat(game_id=1, seat="p1"), prompt)
    listed = [module.format_order(c) for c in prompt.choices]  # the prompt's own (canonical) order
    spread = [listed[i] for i in (0, 3, 6, 10, 13, 16, 20, 23, 26, 30, 33, 36)]  # every 40/12th
    assert shown[0] == "bid 0" == module.format_order(module.default_order(g.state, "p1"))  # the deadline's
    assert shown == ["bid 0"] + [o for o in spread if o != "bid 0"][:11]
    late = Game(public_id="gx", game_type="toy", state={"seats": ["p1"], "round": 1, "phase": "choose"})
    chosen = useful_choices(late, module, Seat(game_id=1, seat="p1"), prompt)  # a default not among them
    assert chosen == spread
    few = Prompt("p1", "bid", [{"bid": b} for b in range(4)], sealed=True, group="round-1")
    assert useful_choices(g, module, Seat(game_id=1, seat="p1"), few) == ["bid 0", "bid 1", "bid 2", "bid 3"]
