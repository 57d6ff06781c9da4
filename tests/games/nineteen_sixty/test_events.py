"""Each implemented event checked for its exact effect on a built state."""

from __future__ import annotations

from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.data import CARDS as GAME_CARDS
from adjudicator.games.nineteen_sixty.effects import EVENTS

from .helpers import act, clear_board, cubes, give, script, start, waiting


def played(card: int, seat: str = "kennedy", prep=None):
    s = clear_board(start(first=seat))
    s["tokens"] = {"kennedy": "MA", "nixon": "CA"}
    if prep:
        prep(s)
    s = give(s, seat, card)
    return act(s, seat, {"play": card, "as": "event"})


def total(s, seat):
    return sum(v[seat] for v in s["states"].values())


def test_5_volunteers():
    s = played(5)
    assert s["momentum"]["kennedy"] == 3 and 5 in s["removed"]


def test_6_new_england_two_per_state():
    s = played(6)
    assert waiting(s)["kennedy"].allows({"support": "NY", "n": 2})
    assert not waiting(s)["kennedy"].allows({"support": "NY", "n": 3})
    s = act(s, "kennedy", {"support": "NY", "n": 2})
    s = act(s, "kennedy", {"support": "CT", "n": 2})
    s = act(s, "kennedy", {"support": "VT", "n": 1})
    assert (cubes(s, "NY")["kennedy"], cubes(s, "CT")["kennedy"], cubes(s, "VT")["kennedy"]) == (2, 2, 1)
    assert waiting(s)["nixon"].kind == "play"


def test_9_baptist_ministers_and_prevention_by_1():
    s = played(9, "nixon", lambda s: s["states"]["GA"].update(kennedy=3)
               or s["supply"].update(kennedy=s["supply"]["kennedy"] - 3))
    assert cubes(s, "GA")["kennedy"] == 1  # at most 2 per state; nothing else to remove
    s = played(1)
    assert s["tokens"]["kennedy"] == "TX" and s["momentum"]["kennedy"] == 3
    for _ in range(5):
        p = waiting(s)["kennedy"]
        s = act(s, "kennedy", next(c for c in p.choices if c["n"] == 1 and c["support"] not in ("TX",)))
    assert total(s, "kennedy") == 5 and s["boxes"]["prevention"] == [1]
    s = give(s, "nixon", 9, 44, 73)
    p = waiting(s)["nixon"]
    assert not any(p.allows({"play": c, "as": "event"}) for c in (9, 44, 73))


def test_12_southern_strategy():
    s = played(12, "nixon")
    while waiting(s).get("nixon") and waiting(s)["nixon"].kind == "support":
        s = act(s, "nixon", {"support": "TX", "n": 2} if waiting(s)["nixon"].allows({"support": "TX", "n": 2})
                else {"support": "GA", "n": 2} if waiting(s)["nixon"].allows({"support": "GA", "n": 2})
                else {"support": "FL", "n": 1})
    assert cubes(s, "TX")["nixon"] == 2 and cubes(s, "GA")["nixon"] == 2 and cubes(s, "FL")["nixon"] == 1
    assert s["issues"]["Civil Rights"]["kennedy"] == 1


def test_14_gathering_momentum_in_the_south():
    def prep(s):
        s["states"]["GA"]["kennedy"] = 1
        s["supply"]["kennedy"] -= 1
    s = played(14, "nixon", prep)
    assert s["momentum"]["kennedy"] == 3
    assert all(cubes(s, a)["kennedy"] == 1 for a in ("TX", "FL", "VA", "GA"))


def test_20_nixon_egged_in_michigan_bans_midwest_campaigning():
    def prep(s):
        s["states"]["MI"]["nixon"] = 2
        s["supply"]["nixon"] -= 2
    s = played(20, "kennedy", prep)
    assert s["tokens"]["nixon"] == "MI" and cubes(s, "MI")["nixon"] == 1
    s = give(s, "nixon", 5)
    s = act(s, "nixon", {"play": 5, "as": "cp"})
    assert not waiting(s)["nixon"].allows({"campaign": "OH", "n": 1})
    assert waiting(s)["nixon"].allows({"campaign": "NY", "n": 1})


def test_22_gaffe():
    def prep(s):
        s["states"]["CA"]["nixon"] = 4
        s["supply"]["nixon"] -= 4
    s = played(22, "kennedy", prep)
    assert cubes(s, "CA")["nixon"] == 1 and s["momentum"]["nixon"] == 1


def test_23_mlk_arrested():
    s = played(23)
    assert s["track"] == ["Defense", "Civil Rights", "Economy"]
    assert s["issues"]["Civil Rights"]["kennedy"] == 3


def test_26_ken_air_free_travel_and_plus_one():
    s = played(26)
    assert {"card": 26, "seat": "kennedy"} in s["effects"]
    s["tokens"]["kennedy"] = "CA"
    s = act(s, "nixon", {"play": "candidate"})
    s = act(s, "nixon", {"position": "Defense", "n": 1})
    s = act(s, "nixon", {"done": True})
    s = give(s, "kennedy", 5)  # 2 CP + 1, and New York from California costs no travel
    s = act(s, "kennedy", {"play": 5, "as": "cp"})
    assert waiting(s)["kennedy"].allows({"campaign": "NY", "n": 3})


def test_41_pierre_salinger_picks_an_issue():
    s = played(41)
    s = act(s, "kennedy", {"issue": "Economy"})
    assert s["issues"]["Economy"]["kennedy"] == 3


def test_43_catholic_support():
    s = played(43)
    for abbr in ("NY", "PA", "OH"):
        s = act(s, "kennedy", {"support": abbr, "n": 2})
    s = act(s, "kennedy", {"support": "IL", "n": 1})
    assert total(s, "kennedy") == 7


def test_45_compact_of_fifth_avenue():
    s = played(45, "nixon")
    assert s["tokens"]["nixon"] == "NY" and cubes(s, "NY")["nixon"] == 2
    assert s["media"]["East"]["nixon"] == 1 and s["issues"]["Civil Rights"]["nixon"] == 1


def test_51_missile_gap():
    s = played(51)
    assert s["issues"]["Defense"]["kennedy"] == 3


def test_52_hurricane_donna():
    s = played(52, "nixon")
    assert s["tokens"]["nixon"] == "FL" and cubes(s, "FL")["nixon"] == 1 and s["momentum"]["nixon"] == 3


def test_61_fatigue_sets_in():
    s = played(61)
    assert s["candidate"]["nixon"] == "exhausted"


def test_63_give_me_a_week():
    def prep(s):
        s["issues"]["Economy"]["nixon"] = 2
        s["supply"]["nixon"] -= 2
    s = played(63, "kennedy", prep)
    assert s["momentum"]["nixon"] == 0 and s["issues"]["Economy"]["nixon"] == 1


def test_64_stump_speech():
    s = played(64, "kennedy", lambda s: s["momentum"].update(nixon=5))
    assert s["momentum"]["kennedy"] == 5


def test_67_voter_registration_only_empty_states():
    def prep(s):
        s["states"]["OH"]["nixon"] = 1
        s["supply"]["nixon"] -= 1
    s = played(67, "kennedy", prep)
    assert not waiting(s)["kennedy"].allows({"support": "OH", "n": 1})
    assert not waiting(s)["kennedy"].allows({"support": "NY", "n": 2})


def test_70_the_old_nixon():
    s = played(70, "nixon")
    assert s["momentum"] == {"kennedy": 0, "nixon": 1}


def test_72_southern_revolt_needs_kennedy_on_civil_rights():
    s = played(72, "nixon")
    assert waiting(s)["kennedy"].kind == "play"  # nothing happened

    def prep(s):
        s["issues"]["Civil Rights"]["kennedy"] = 1
        s["supply"]["kennedy"] -= 1
    s = played(72, "nixon", prep)
    assert waiting(s)["nixon"].kind == "support"


def test_73_norman_vincent_peale():
    def prep(s):
        for a in ("NY", "PA"):
            s["states"][a]["kennedy"] = 2
        s["supply"]["kennedy"] -= 4
    s = played(73, "nixon", prep)
    s = act(s, "nixon", {"remove": "NY", "n": 1})
    assert cubes(s, "NY")["kennedy"] == 1 and cubes(s, "PA")["kennedy"] == 1  # 1 per state


def test_78_stock_market_in_decline():
    def prep(s):
        s["issues"]["Economy"]["nixon"] = 1
        s["supply"]["nixon"] -= 1
    s = played(78, "kennedy", prep)
    assert s["track"][0] == "Economy" and cubes(s, "NY")["nixon"] == 2


def test_80_herblock():
    def prep(s):
        s["media"]["West"]["nixon"] = 1
        s["media"]["East"]["nixon"] = 2
        s["supply"]["nixon"] -= 3
    s = played(80, "kennedy", prep)
    s = act(s, "kennedy", {"media": "East"})
    s = act(s, "kennedy", {"media": "East"}) if waiting(s)["kennedy"].kind == "media" else s
    assert sum(r["nixon"] for r in s["media"].values()) == 1


def test_89_and_91_and_93():
    assert played(89, "nixon")["momentum"]["nixon"] == 3
    s = played(91, "nixon")
    assert len(s["private"]["nixon"]["hand"]) == 8  # 6 dealt + 2 (the played card left)
    s = played(93, "nixon")
    assert s["momentum"]["nixon"] == 3


def test_96_medal_count_one_leader_of_both():
    def prep(s):
        s["issues"]["Civil Rights"]["kennedy"] = 2
        s["issues"]["Economy"]["kennedy"] = 1
        s["supply"]["kennedy"] -= 3
    s = played(96, "nixon", prep)
    assert s["issues"]["Civil Rights"]["kennedy"] == 1 and s["issues"]["Economy"]["kennedy"] == 0
    assert s["momentum"]["kennedy"] == 1


def test_7_goes_to_the_election_day_box():
    s = played(7)
    assert s["boxes"]["election_day"] == [7] and GAME.invariants(s) == []


def test_every_implemented_event_resolves_and_leaves_its_card_in_place():
    """A smoke test for each encoded event: defaults finish it, invariants hold, the card is in
    the right place (removed, its box, or before the player for the rest of the turn)."""
    for card in sorted(EVENTS):
        s = played(card, "kennedy")
        for _ in range(50):
            prompts = waiting(s)
            seat, prompt = next(iter(prompts.items()))
            if prompt.kind == "play" and seat == "nixon":
                break
            s = act(s, seat, GAME.default_order(s, seat))
        assert GAME.invariants(s) == [], card
        kind = GAME_CARDS[card].persistent
        place = {"none": s["removed"], "rest_of_turn": s["boxes"]["turn"]}.get(kind) or s["boxes"].get(kind, [])
        assert card in place, card


def test_election_day_events():
    from adjudicator.games.nineteen_sixty.flowbase import FLOW

    s = clear_board(start())
    s["boxes"]["election_day"] = [7, 32]
    s["secret"]["deck"].remove(7)
    s["secret"]["deck"].remove(32)
    s["states"]["CT"]["nixon"] = 1
    s["supply"]["nixon"] -= 1
    s["initiative"] = "kennedy"
    s["reseed"] = False
    s["flow"] = [{"node": "election_events", "args": {"left": [7, 32]}}]
    assert waiting(s)["kennedy"].kind == "resolve"
    s = script(s, 0, 0, 21, 0, 0, 18, 17, 16, 15, 14)
    s = act(s, "kennedy", {"resolve": 7})
    FLOW.settle(s, [])
    assert cubes(s, "IL")["kennedy"] == 4  # 5 checks: K K N K K
    assert cubes(s, "CA")["nixon"] == 5  # Nixon leads CT: 5 checks in California, all Nixon
