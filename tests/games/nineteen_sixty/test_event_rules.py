"""The lasting part of the persistent events: each rest-of-turn, debate and Election Day event
checked for the exact rule change it makes (the placement of the card is in test_events_exact)."""

from __future__ import annotations

from adjudicator.engine import apply_checked
from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.debate import total
from adjudicator.games.nineteen_sixty.flowbase import FLOW

from .helpers import act, clear_board, cubes, give, script, start, waiting

K, X = "kennedy", "nixon"


def with_effect(card: int, bound: str, first: str, **momentum: int) -> dict:
    """A bare board where rest-of-turn event `card` binds `bound`, `first` to play."""
    s = clear_board(start(first=first))
    s["tokens"] = {K: "MA", X: "CA"}
    s = give(s, first, card)  # take it from wherever it is, then put it in front of the player
    s["private"][first]["hand"].remove(card)
    s["boxes"]["turn"].append(card)
    s["effects"].append({"card": card, "seat": bound})
    s["momentum"].update(momentum)
    assert GAME.invariants(s) == []
    return s


def cp(s: dict, seat: str, card: int, preempt: bool = False) -> dict:
    order = {"play": card, "as": "cp", **({"preempt": True} if preempt else {})}
    return act(give(s, seat, card), seat, order)


def allows(s: dict, seat: str, order: dict) -> bool:
    return waiting(s)[seat].allows(order)


def test_2_nixons_knee_one_momentum_per_campaigning_card():
    s = cp(with_effect(2, K, X), X, 5)
    assert allows(s, X, {"campaign": "CA", "n": 2})
    s = act(s, X, {"campaign": "CA", "n": 2})
    assert s["momentum"][X] == 1 and cubes(s, "CA")[X] == 2
    s = cp(with_effect(2, K, X, nixon=0), X, 5)
    assert not any("campaign" in o for o in waiting(s)[X].choices)
    assert allows(s, X, {"position": "Economy", "n": 1})


def test_4_citizens_for_nixon_lodge_plus_one_cp_capped_at_five():
    s = cp(with_effect(4, X, X), X, 5)  # 2 CP -> 3
    assert allows(s, X, {"campaign": "CA", "n": 3}) and not allows(s, X, {"campaign": "CA", "n": 4})
    s = cp(with_effect(4, X, X), X, 22)  # 4 CP -> 5
    assert allows(s, X, {"campaign": "CA", "n": 5}) and not allows(s, X, {"campaign": "CA", "n": 6})
    s = cp(with_effect(4, X, K), K, 5)  # Kennedy's cards are not changed
    assert not allows(s, K, {"campaign": "MA", "n": 3})


def test_19_old_south_bars_the_civil_rights_leader_from_the_south():
    s = cp(with_effect(19, K, K), K, 22)
    assert not any(o.get("campaign") in ("GA", "TX", "FL") for o in waiting(s)[K].choices)
    assert allows(s, K, {"campaign": "NY", "n": 4})
    s = cp(with_effect(19, K, X), X, 22)
    assert allows(s, X, {"campaign": "TX", "n": 3})  # 1 CP travel from the West


def test_30_johnson_jeered_and_87_stevenson_loyalists_bar_kennedy():
    s = cp(with_effect(30, X, K), K, 22)
    assert not any(o.get("campaign") == "TX" for o in waiting(s)[K].choices)
    assert allows(s, K, {"campaign": "OH", "n": 3})
    s = cp(with_effect(87, X, K), K, 22)
    assert not any(o.get("campaign") in ("OH", "CA", "AK") for o in waiting(s)[K].choices)
    assert allows(s, K, {"campaign": "TX", "n": 3}) and allows(s, K, {"campaign": "NY", "n": 4})


def test_31_profiles_in_courage_redraws_a_failed_check():
    s = cp(with_effect(31, K, K), K, 22)
    s = script(s, 12, 0)  # Nixon's token is in California: a check; Nixon cube, then Kennedy's
    s = act(s, K, {"campaign": "CA", "n": 1})  # travel East -> West costs 2
    assert cubes(s, "CA") == {K: 1, X: 0}
    s = script(cp(clear_board(start()), K, 22), 12)
    s = act(s, K, {"campaign": "CA", "n": 1})
    assert cubes(s, "CA") == {K: 0, X: 0}  # without the event the failure stands


def test_44_puerto_rican_bishops_and_65_joe_kennedy_ban_momentum():
    s = give(with_effect(44, K, K), K, 5)
    assert not any(o.get("preempt") for o in waiting(s)[K].choices)
    s = cp(with_effect(44, K, X), X, 89)  # Kennedy may not trigger a Nixon card's event either
    s = act(s, X, {"position": "Economy", "n": 1})
    s = act(s, X, {"done": True})
    assert waiting(s)[K].kind == "play" and 89 in s["discard"]
    s = give(with_effect(65, X, X), X, 5)
    assert not any(o.get("preempt") for o in waiting(s)[X].choices)


def test_54_bobby_kennedy_and_69_congressional_summer_session_change_kennedys_cp():
    s = cp(with_effect(54, K, K), K, 5)
    assert allows(s, K, {"campaign": "MA", "n": 3}) and not allows(s, K, {"campaign": "MA", "n": 4})
    s = cp(with_effect(69, X, K), K, 22)  # 4 - 2
    assert allows(s, K, {"campaign": "MA", "n": 2}) and not allows(s, K, {"campaign": "MA", "n": 3})
    s = cp(with_effect(69, X, K), K, 5)  # 2 - 2, but never below 1
    assert allows(s, K, {"campaign": "MA", "n": 1}) and not allows(s, K, {"campaign": "MA", "n": 2})


def test_55_hostile_press_corps_checks_everywhere_for_nixon():
    s = script(cp(with_effect(55, K, X), X, 5), 0, 12)  # Kennedy cube (fails), Nixon cube
    s = act(s, X, {"campaign": "OR", "n": 2})
    assert cubes(s, "OR") == {K: 0, X: 1}


def test_74_eisenhowers_silence_bars_nixon_from_kennedys_states():
    s = with_effect(74, K, X)
    s["states"]["OR"][K] = 1
    s["supply"][K] -= 1
    s = cp(s, X, 5)
    assert not any(o.get("campaign") == "OR" for o in waiting(s)[X].choices)
    assert allows(s, X, {"campaign": "WA", "n": 2})


def test_76_nixons_pledge_momentum_for_each_non_campaigning_play():
    s = cp(with_effect(76, K, X), X, 5)
    s = act(s, X, {"position": "Economy", "n": 1})
    assert s["momentum"][K] == 3
    s = cp(with_effect(76, K, X), X, 5)
    s = act(s, X, {"campaign": "CA", "n": 2})
    assert s["momentum"][K] == 2
    s = act(give(with_effect(76, K, X), X, 5), X, {"play": 5, "as": "event"})
    assert s["momentum"] == {K: 3, X: 3}


def test_79_advance_men_free_travel_and_no_checks():
    s = cp(with_effect(79, X, X), X, 5)
    assert allows(s, X, {"campaign": "MA", "n": 2})  # no travel from California
    s = act(s, X, {"campaign": "MA", "n": 2})  # Kennedy's token is there: no checks either
    assert cubes(s, "MA") == {K: 0, X: 2}


def test_81_kennedys_peace_corps_free_preempt():
    s = with_effect(81, K, K, kennedy=0)
    s = cp(s, K, 89, preempt=True)
    assert s["momentum"][K] == 0
    s = act(s, K, {"position": "Economy", "n": 1})
    s = act(s, K, {"done": True})
    assert waiting(s)[X].kind == "play" and 89 in s["discard"]


def test_85_jackie_kennedy_one_momentum_per_nixon_event():
    s = act(give(with_effect(85, K, X), X, 5), X, {"play": 5, "as": "event"})
    assert s["momentum"][X] == 2  # paid 1, Volunteers gave 1
    s = give(with_effect(85, K, X, nixon=0), X, 5)
    assert not any(o.get("as") == "event" for o in waiting(s)[X].choices)


def test_88_stature_gap_positioning_only():
    s = cp(with_effect(88, X, K), K, 22)  # 4 - 2 for positioning
    assert allows(s, K, {"position": "Economy", "n": 1}) and not allows(s, K, {"position": "Economy", "n": 2})
    assert allows(s, K, {"campaign": "MA", "n": 4})


def test_26_ken_air_is_campaigning_only():
    s = cp(with_effect(26, K, K), K, 5)
    assert allows(s, K, {"campaign": "CA", "n": 3})  # +1 and no travel
    assert not allows(s, K, {"position": "Economy", "n": 2})  # 2 CP: 1 + 2 is too much


def test_34_lazy_shave_and_35_harvard_brain_trust():
    s = clear_board(start())
    for seat in (K, X):
        s["discard"] += s["private"][seat]["hand"]
        s["private"][seat]["hand"] = []
    s = give(s, K, 1, 55)
    s = give(s, X, 33, 70)
    for seat, cards in ((K, [1, 55]), (X, [33, 70])):
        s["private"][seat]["hand"] = []
        s["private"][seat]["strategy"] = cards
    for card in (34, 35):
        s["secret"]["deck"].remove(card)
        s["boxes"]["debate"].append(card)
    s["turn"] = 6
    s["flow"] = [{"node": "turn", "args": {}}]
    s = script(s, 0, 0)
    FLOW.settle(s, [])
    prompts = waiting(s)
    assert list(prompts) == [X] and not prompts[X].sealed  # Nixon first, openly
    s = apply_checked(GAME, s, {X: {"debate": 33}}).state
    assert list(waiting(s)) == [K]
    s = apply_checked(GAME, s, {K: {"debate": 1}}).state
    assert total(s, "Defense", K) == 4 + 1 and total(s, "Economy", X) == 4
    assert total(s, "Civil Rights", K) == 1 and total(s, "Civil Rights", X) == 0


def election(s: dict, *cards: int) -> dict:
    for card in cards:
        for pile in (s["secret"]["deck"], *(p["hand"] for p in s["private"].values())):
            if card in pile:
                pile.remove(card)
    s["boxes"]["election_day"] = list(cards)
    s["initiative"] = K
    s["reseed"] = False
    s["flow"] = [{"node": "election_events", "args": {"left": list(cards)}}]
    return s


def test_90_recount_three_checks_in_a_state_nixon_picks():
    s = election(clear_board(start()), 90, 33)
    s = script(s, 12, 0, 12)  # Nixon, Kennedy, Nixon (the bag is 12 + 12)
    s = act(s, K, {"resolve": 90})
    assert waiting(s)[X].kind == "pick"
    s = apply_checked(GAME, s, {X: {"state": "OH"}}).state
    assert cubes(s, "OH") == {K: 0, X: 2}
    assert s["unpledged_event"] and s["result"] is not None  # then #33, then the tally
    assert s["removed"][-2:] == [90, 33]
