"""A hidden prompt's order (played at once, not announced: a card handed over in a trade) is marked
in the record and withheld from a running game's public export, like a sealed group."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.engine import Prompt
from adjudicator.record import RecordBuilder, verify_record
from adjudicator.record.chain import must_withhold, redact_entries
from tests.support.toygame import ToyGame


class HiddenChoiceToy(ToyGame):
    """The toy auction whose winner's keep-or-double choice is hidden."""

    def prompts(self, state: dict[str, Any]) -> dict[str, Prompt]:
        return {s: replace(p, hidden=True) if p.kind == "choose" else p for s, p in super().prompts(state).items()}


def _played_to_the_choice(game: ToyGame) -> RecordBuilder:
    rb = RecordBuilder(game, ["p1", "p2"], {"rounds": 1}, "seed")
    while True:
        prompts = rb.game.prompts(rb.state)
        if any(p.kind == "choose" for p in prompts.values()):
            return rb
        assert prompts, "the toy game offers a choice before it ends"
        group = {s: p.choices[-1 if s == "p1" else 0] for s, p in prompts.items()}  # p1 bids high and wins
        rb.apply(group, salts={s: "salt" for s, p in prompts.items() if p.sealed})


def test_a_hidden_order_is_marked_and_withheld_while_the_game_runs() -> None:
    rb = _played_to_the_choice(HiddenChoiceToy())
    (seat,) = rb.game.prompts(rb.state)
    assert rb.game.prompts(rb.state)[seat].to_json()["hidden"] is True
    rb.apply({seat: {"choice": "keep"}})
    entry = rb.entries[-1]
    assert entry["data"]["hidden"] == [seat] and must_withhold(entry)
    redacted, withheld = redact_entries(rb.entries)
    assert entry["index"] in withheld and "orders" not in redacted[entry["index"]]["data"]
    # the finished record (the order public now) replays and verifies
    assert verify_record(rb.export(reveal_seed=True)).replayed


def test_an_open_order_stays_public() -> None:
    rb = _played_to_the_choice(ToyGame())
    ((seat, prompt),) = rb.game.prompts(rb.state).items()
    assert not prompt.hidden and "hidden" not in prompt.to_json()  # prompt tokens as before
    rb.apply({seat: prompt.choices[0]})
    assert "hidden" not in rb.entries[-1]["data"] and not must_withhold(rb.entries[-1])
