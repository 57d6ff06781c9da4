"""#38 High Hopes: the top two deck cards are turned up one at a time; those with the Kennedy icon
(alone or both icons) are resolved for Kennedy, the others are discarded."""

from __future__ import annotations

from adjudicator.games.nineteen_sixty import GAME

from .helpers import act, clear_board, give, start, waiting


def stack(s, *cards):
    """Put cards on top of the deck, the first one named on the very top."""
    deck = s["secret"]["deck"]
    for card in cards:
        for pile in (deck, s["discard"], s["removed"], *(p["hand"] for p in s["private"].values())):
            if card in pile:
                pile.remove(card)
    deck.extend(reversed(cards))
    return s


def high_hopes(*top, seat="kennedy", prep=None):
    s = clear_board(start(first=seat))
    s["tokens"] = {"kennedy": "MA", "nixon": "CA"}
    s = give(s, seat, 38)
    stack(s, *top)
    if prep:
        prep(s)
    return act(s, seat, {"play": 38, "as": "event"})


def test_a_both_icon_card_fires_for_kennedy_and_a_nixon_card_is_discarded():
    s = high_hopes(5, 89)  # Volunteers (both): Kennedy +1 momentum; The New Nixon (Nixon): discarded
    assert s["momentum"] == {"kennedy": 3, "nixon": 2}
    assert s["removed"] == [5, 38] and s["discard"] == [89]
    assert 5 not in s["secret"]["deck"] and 89 not in s["secret"]["deck"]
    assert waiting(s)["nixon"].kind == "play" and GAME.invariants(s) == []


def test_both_cards_fire_in_reveal_order_with_their_prompts():
    s = high_hopes(41, 51)  # Pierre Salinger (choose an issue), then Missile Gap (+3 Defense)
    assert waiting(s)["kennedy"].kind == "pick"
    assert s["issues"]["Defense"]["kennedy"] == 0  # the second card is not resolved yet
    s = act(s, "kennedy", {"issue": "Economy"})
    assert s["issues"]["Economy"] == {"kennedy": 3, "nixon": 0}
    assert s["issues"]["Defense"] == {"kennedy": 3, "nixon": 0}
    assert s["removed"] == [41, 51, 38] and s["discard"] == []
    assert waiting(s)["nixon"].kind == "play" and GAME.invariants(s) == []


def test_persistent_cards_go_to_their_boxes_and_prevented_ones_to_the_discards():
    s = high_hopes(74, 7, prep=lambda s: s["boxes"]["prevention"].append(18) or s["secret"]["deck"].remove(18))
    assert 74 in s["discard"]  # Eisenhower's Silence is prevented by #18
    assert s["boxes"]["election_day"] == [7] and s["removed"] == [38]
    s = high_hopes(31, 9)
    assert s["boxes"]["turn"] == [31] and {"card": 31, "seat": "kennedy"} in s["effects"]
    assert s["discard"] == [9]


def test_triggered_by_nixon_still_fires_for_kennedy():
    s = clear_board(start(first="kennedy"))
    s = give(s, "kennedy", 38)
    stack(s, 5, 89)
    s = act(s, "kennedy", {"play": 38, "as": "cp"})
    s = act(s, "kennedy", {"position": "Economy", "n": 1})
    s = act(s, "kennedy", {"done": True})
    s = act(s, "nixon", {"trigger": True})
    assert s["momentum"] == {"kennedy": 3, "nixon": 1}  # Nixon paid 1; Volunteers went to Kennedy
    assert s["discard"] == [89] and s["removed"] == [5, 38]
