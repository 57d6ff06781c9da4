"""The optional rules: Vice-President cards and Restricted Positioning."""

from __future__ import annotations

import pytest

from adjudicator.engine import IllegalOrder
from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.data import CARDS

from .helpers import act, clear_board, cubes, give, script, start, waiting

VP = {"vice_presidents": True}


def hand_of(s, seat, *cards):
    """Replace seat's hand by exactly these cards (the old hand goes to the discard pile)."""
    s["discard"] += s["private"][seat]["hand"]
    s["private"][seat]["hand"] = []
    return give(s, seat, *cards)


def test_vice_president_cards_start_aside_only_with_the_option():
    s = start(options=VP)
    assert s["vp"] == {"kennedy": 39, "nixon": 42}
    assert 39 not in s["secret"]["deck"] and 42 not in s["secret"]["deck"]
    assert all(c not in p["hand"] for p in s["private"].values() for c in (39, 42))
    assert GAME.invariants(s) == []
    plain = start()
    assert plain["vp"] == {"kennedy": None, "nixon": None}
    assert not any({"discard"} & set(o) for o in waiting(plain)["kennedy"].choices)


def test_vp_needs_a_card_with_only_ones_own_icon_to_discard():
    s = hand_of(clear_board(start(options=VP)), "kennedy", 5, 6, 9, 22)  # both, K, N, both
    p = waiting(s)["kennedy"]
    spares = {o["discard"] for o in p.choices if "discard" in o}
    assert spares == {6}  # only New England shows Kennedy's icon alone
    assert p.allows({"play": 39, "as": "cp", "discard": 6})
    assert p.allows({"play": 39, "as": "cp", "preempt": True, "discard": 6})
    assert p.allows({"play": 39, "as": "event", "discard": 6})
    s = hand_of(clear_board(start(options=VP)), "kennedy", 5, 9, 22)
    assert not any("discard" in o for o in waiting(s)["kennedy"].choices)


def test_playing_johnson_as_an_event_in_place_of_a_hand_card():
    s = hand_of(clear_board(start(options=VP)), "kennedy", 6, 22)
    s["tokens"] = {"kennedy": "MA", "nixon": "CA"}
    s["candidate"]["kennedy"] = "exhausted"
    supply = s["supply"]["kennedy"]
    s = act(s, "kennedy", {"play": 39, "as": "event", "discard": 6})
    assert s["vp"]["kennedy"] is None and s["discard"][-1] == 6
    assert s["private"]["kennedy"]["hand"] == [22]
    assert cubes(s, "TX") == {"kennedy": 2, "nixon": 0}  # the 2 in Texas go without asking
    s = act(s, "kennedy", {"support": "GA", "n": 2})
    s = act(s, "kennedy", {"support": "TX", "n": 1})
    assert cubes(s, "GA")["kennedy"] == 2 and cubes(s, "TX")["kennedy"] == 3
    assert s["candidate"]["kennedy"] == "ready" and 39 in s["removed"]
    assert s["rest"]["kennedy"] == 0 and s["supply"]["kennedy"] == supply - 5  # 4 CP: no rest cubes
    assert waiting(s)["nixon"].kind == "play" and GAME.invariants(s) == []


def test_lodge_for_cp_goes_to_the_discards_and_may_be_triggered():
    s = hand_of(clear_board(start(first="nixon", options=VP)), "nixon", 9, 12, 22)
    s = act(s, "nixon", {"play": 42, "as": "cp", "discard": 9})
    assert s["discard"][-1] == 9 and s["vp"]["nixon"] is None
    s = act(s, "nixon", {"position": "Economy", "n": 2})
    s = act(s, "nixon", {"position": "Defense", "n": 1})
    assert s["issues"]["Economy"]["nixon"] == 2 and s["issues"]["Defense"]["nixon"] == 1
    assert waiting(s)["kennedy"].kind == "trigger"
    t = act(s, "kennedy", {"trigger": False})
    assert t["discard"][-1] == 42 and GAME.invariants(t) == []
    t = act(script(s, 12, 12), "kennedy", {"trigger": True})  # resolved as printed: it helps Nixon
    # 2 checks (Kennedy's token is in MA), both Nixon cubes
    assert cubes(t, "MA")["nixon"] == 2
    assert t["issues"]["Defense"]["nixon"] == 3
    assert 42 in t["removed"] and t["momentum"]["kennedy"] == 1


def test_vp_grammar():
    s = hand_of(clear_board(start(options=VP)), "kennedy", 6, 22)
    p = waiting(s)["kennedy"]
    assert GAME.parse_order("play 39 cp discard 6", p) == {"play": 39, "as": "cp", "discard": 6}
    assert GAME.parse_order("Play #39 event, discard #6", p) == {"play": 39, "as": "event", "discard": 6}
    assert GAME.parse_order("play 39 cp preempt discard 6", p) == {
        "play": 39, "as": "cp", "preempt": True, "discard": 6}
    for choice in p.choices:
        assert GAME.parse_order(GAME.format_order(choice), p) == choice
    with pytest.raises(IllegalOrder):
        GAME.parse_order("play 39 cp discard 22", p)


def test_vp_keeps_a_card_for_the_campaign_strategy():
    s = hand_of(clear_board(start(options=VP)), "kennedy", 6, 14)  # 14: Gathering Momentum
    assert not any("discard" in o for o in waiting(s)["kennedy"].choices)


@pytest.mark.parametrize("card", [5, 22, 23])  # debate icons: Defense, Economy, Civil Rights
def test_restricted_positioning_bars_the_cards_own_debate_issue(card):
    issue = CARDS[card].issue
    plain = act(give(start(), "kennedy", card), "kennedy", {"play": card, "as": "cp"})
    assert waiting(plain)["kennedy"].allows({"position": issue, "n": 1})
    s = start(options={"restricted_positioning": True})
    s = act(give(s, "kennedy", card), "kennedy", {"play": card, "as": "cp"})
    p = waiting(s)["kennedy"]
    assert not p.allows({"position": issue, "n": 1})
    others = [i for i in ("Economy", "Civil Rights", "Defense") if i != issue]
    assert all(p.allows({"position": i, "n": 1}) for i in others)
    s = act(s, "kennedy", {"position": others[0], "n": 1})
    assert not waiting(s)["kennedy"].allows({"position": issue, "n": 1})  # not later in the action either


def test_restricted_positioning_spares_events_the_candidate_card_and_gathering_momentum():
    opts = {"restricted_positioning": True}
    s = start(options=opts)
    s = act(give(s, "kennedy", 51), "kennedy", {"play": 51, "as": "event"})  # Missile Gap
    assert s["issues"]["Defense"]["kennedy"] == 3  # events add issue support freely
    s = act(start(options=opts), "kennedy", {"play": "candidate"})
    assert all(waiting(s)["kennedy"].allows({"position": i, "n": 1}) for i in ("Economy", "Civil Rights", "Defense"))
    s = act(give(start(options=opts), "kennedy", 14), "kennedy", {"play": 14, "as": "cp"})  # no debate icon
    assert all(waiting(s)["kennedy"].allows({"position": i, "n": 1}) for i in ("Economy", "Civil Rights", "Defense"))
