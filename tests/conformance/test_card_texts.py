"""Every card a player can hold or see carries an effect text in the project's own words
(issue 12, "card texts"): 1960 campaign, endorsement and issue cards; Founding Fathers
statesmen, action, issue and tax cards."""

from __future__ import annotations

import pytest

from adjudicator.games import founding_fathers as ff
from adjudicator.games import nineteen_sixty as ns
from adjudicator.games.founding_fathers.data import deck
from adjudicator.games.nineteen_sixty.data import CARDS, ENDORSEMENTS, ISSUES

PLACEHOLDERS = ("todo", "tbd", "no text", "placeholder", "lorem", "{", "}", "None")


def _good(text: str) -> bool:
    return len(text.strip()) >= 15 and not any(p.lower() in text.lower() for p in PLACEHOLDERS)


def _1960_cards() -> list:
    return [*CARDS, *ENDORSEMENTS, *ISSUES]


@pytest.mark.parametrize("card", _1960_cards())
def test_every_1960_card_has_a_text(card):
    text = ns.card_text(card)
    assert _good(text), text


def test_1960_texts_say_what_the_coded_effect_does():
    # #43 gives Kennedy 7 support, at most 2 per state (effects.py); #54 is a rest-of-turn CP bonus
    assert "Kennedy adds 7 cubes of support in any states, at most 2 per state" in ns.card_text(43)
    assert "1 more CP" in ns.card_text(54)
    assert "Election Day" in ns.card_text(7)
    assert "West" in ns.card_text("E1")


class Steps:
    """Writes down the steps a card's function takes (a condition is taken as holding)."""

    def __init__(self) -> None:
        self.taken: list[tuple] = []

    def __getattr__(self, name: str):
        def take(*args):
            self.taken.append((name, *args))
            return True

        return take


def _steps(card: int) -> list[tuple]:
    from adjudicator.games.nineteen_sixty.effects import EVENTS
    steps = Steps()
    EVENTS[card](steps)
    return steps.taken


def test_1960_cards_with_different_effects_have_different_texts():
    texts = {c: ns.card_text(c) for c in CARDS}
    # the four Gathering Momentum cards differ only by region; no two other cards share a text by accident
    # unless their coded effects are identical
    from adjudicator.games.nineteen_sixty.text import LASTING
    by_text: dict[str, list[int]] = {}
    for c, t in texts.items():
        by_text.setdefault(t, []).append(c)
    for same in by_text.values():
        coded = {repr((_steps(c), CARDS[c].persistent == "election_day", LASTING.get(c), CARDS[c].icon))
                 for c in same}
        assert len(coded) == 1, same


def test_unknown_cards_are_refused_clearly():
    with pytest.raises(KeyError, match="campaign cards are 1-97"):
        ns.card_text(0)
    with pytest.raises(KeyError, match="no card"):
        ff.card_text("no-such-card")


def _ff_cards() -> list[str]:
    d = deck()
    return [*d.statesmen, *d.action_copies, *d.issues, *d.taxes]


@pytest.mark.parametrize("card", _ff_cards())
def test_every_founding_fathers_card_has_a_text(card):
    text = ff.card_text(card)
    assert _good(text), text


def test_founding_fathers_texts_follow_the_deck():
    d = deck()
    admit = next(i for i in d.issues.values() if i["kind"] == "admission")
    assert f"{d.name(admit['state'])} joins the Union" in ff.card_text(admit["id"])
    speech = next(c for c, a in d.action_copies.items() if d.actions[a]["effect"][0]["op"] == "popularity")
    assert "popularity" in ff.card_text(speech)


def test_hand_and_log_show_card_texts():
    from adjudicator.engine import get_game

    g = get_game("1960")
    assert g.order_label({"play": 20, "as": "cp", "preempt": True}).endswith(
        "#20 Nixon Egged in Michigan (2 CP · Kennedy · Defense)")
    assert "Civil Rights moves up" in g.render_event({"kind": "event", "data": {"seat": "nixon", "card": 23}})
