"""Rules of 1960: setup, bag, campaigning (with the rulebook's worked examples), advertising,
positioning, momentum, strategy, debates and Election Day."""

from __future__ import annotations

from adjudicator.engine import IllegalOrder, copy_json
from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.board import carries, holder, initiative_check, support_check
from adjudicator.games.nineteen_sixty.data import STATES, travel_cost
from adjudicator.games.nineteen_sixty.election import tally

from .helpers import act, clear_board, cubes, give, script, start, waiting


def test_setup_matches_the_board():
    s = GAME.setup("x", ["kennedy", "nixon"], {}).state
    assert s["tokens"] == {"kennedy": "MA", "nixon": "CA"}
    assert 21 <= sum(s["bag"].values()) <= 22  # 12 + 12 less the turn-1 initiative draws
    assert s["momentum"] == {"kennedy": 2, "nixon": 2}
    assert sum(v["kennedy"] for v in s["states"].values()) == 15
    assert sum(v["nixon"] for v in s["states"].values()) == 16
    assert s["track"] == ["Defense", "Economy", "Civil Rights"]
    assert all(len(s["private"][p]["hand"]) == 6 for p in ("kennedy", "nixon"))
    assert len(s["secret"]["endorsements"]) == 16
    assert GAME.invariants(s) == []
    assert sum(x.ev for x in STATES.values()) == 537


def test_travel_costs():
    assert travel_cost("IL", "NY") == 1  # Midwest to East
    assert travel_cost("CA", "NY") == 2  # West and East do not touch
    assert travel_cost("AK", "HI") == 2
    assert travel_cost("MA", "HI") == 3
    assert travel_cost("CA", "AK") == 1


def test_rulebook_example_illinois_to_new_york():
    """Kennedy in Illinois with a 3 CP card: 1 CP to travel to the East and 2 CP in New York;
    or 1 in Illinois and then 1 in New York; or New York then on to the South."""
    s = clear_board(start())
    s["tokens"]["kennedy"] = "IL"
    s = give(s, "kennedy", 3)  # Gallup Poll, 3 CP
    s1 = act(s, "kennedy", {"play": 3, "as": "cp"})
    prompt = waiting(s1)["kennedy"]
    assert prompt.allows({"campaign": "NY", "n": 2})
    assert not prompt.allows({"campaign": "NY", "n": 3})  # travel takes a point
    a = act(s1, "kennedy", {"campaign": "NY", "n": 2})
    assert cubes(a, "NY") == {"kennedy": 2, "nixon": 0} and a["tokens"]["kennedy"] == "NY"
    b = act(s1, "kennedy", {"campaign": "IL", "n": 1})
    assert waiting(b)["kennedy"].allows({"campaign": "NY", "n": 1})
    b = act(b, "kennedy", {"campaign": "NY", "n": 1})
    assert cubes(b, "IL")["kennedy"] == 1 and cubes(b, "NY")["kennedy"] == 1
    c = act(s1, "kennedy", {"campaign": "NY", "n": 1})
    c = act(c, "kennedy", {"travel": "GA"})  # the third point crosses into the South
    assert c["tokens"]["kennedy"] == "GA" and cubes(c, "NY")["kennedy"] == 1


def test_rulebook_example_leading_and_carrying():
    """Kennedy leads Idaho with 2 cubes; Nixon carries Wyoming with 4: Kennedy must make support
    checks in Wyoming but Nixon campaigns freely in Idaho."""
    s = clear_board(start())
    s["states"]["ID"]["kennedy"] = 2
    s["states"]["WY"]["nixon"] = 4
    s["supply"]["kennedy"] -= 2
    s["supply"]["nixon"] -= 4
    assert holder(s, "states", "ID") == "kennedy" and not carries(s, "ID", "kennedy")
    assert carries(s, "WY", "nixon")
    s["tokens"]["kennedy"] = "CO"
    s = give(s, "kennedy", 5)  # Volunteers, 2 CP
    s = act(s, "kennedy", {"play": 5, "as": "cp"})
    s = script(s, 23, 0)  # first draw Nixon (fails), second Kennedy (removes a Nixon cube)
    s = act(s, "kennedy", {"campaign": "WY", "n": 2})
    assert cubes(s, "WY") == {"kennedy": 0, "nixon": 3}
    assert GAME.invariants(s) == []


def test_media_exempts_from_checks_and_token_forces_them():
    s = clear_board(start())
    s["tokens"]["nixon"] = "OH"
    s = give(s, "kennedy", 5)
    s["tokens"]["kennedy"] = "IL"
    s1 = act(s, "kennedy", {"play": 5, "as": "cp"})
    s2 = script(s1, 23)  # Nixon cube: the check fails
    s2 = act(s2, "kennedy", {"campaign": "OH", "n": 1})
    assert cubes(s2, "OH")["kennedy"] == 0
    s1["media"]["Midwest"]["kennedy"] = 1
    s1["supply"]["kennedy"] -= 1
    s3 = act(s1, "kennedy", {"campaign": "OH", "n": 2})
    assert cubes(s3, "OH")["kennedy"] == 2


def test_removing_opposing_cubes_first():
    s = clear_board(start())
    s["states"]["PA"]["nixon"] = 2
    s["supply"]["nixon"] -= 2
    s = give(s, "kennedy", 3)
    s = act(s, "kennedy", {"play": 3, "as": "cp"})
    s = act(s, "kennedy", {"campaign": "PA", "n": 2})  # from MA, same region
    assert cubes(s, "PA") == {"kennedy": 0, "nixon": 0}
    s = act(s, "kennedy", {"campaign": "PA", "n": 1})
    assert cubes(s, "PA") == {"kennedy": 1, "nixon": 0}


def test_rest_cubes_and_discard():
    s = start()
    s = give(s, "kennedy", 5)  # 2 CP: 2 rest cubes
    supply = s["supply"]["kennedy"]
    s = act(s, "kennedy", {"play": 5, "as": "cp"})
    assert s["rest"]["kennedy"] == 2 and s["supply"]["kennedy"] == supply - 2


def test_advertising_one_check_per_cp():
    s = start()
    s = give(s, "kennedy", 5)
    s = act(s, "kennedy", {"play": 5, "as": "cp"})
    s = script(s, 0, 22)  # success (a Kennedy cube), failure (a Nixon cube)
    s = act(s, "kennedy", {"advertise": True})
    assert waiting(s)["kennedy"].kind == "media"
    s = act(s, "kennedy", {"media": "South"})
    assert s["media"]["South"] == {"kennedy": 1, "nixon": 0}
    assert s["bag"] == {"kennedy": 11, "nixon": 11}
    assert GAME.invariants(s) == []


def test_positioning_costs_one_then_two():
    s = start()
    s = give(s, "kennedy", 22)  # 4 CP
    s = act(s, "kennedy", {"play": 22, "as": "cp"})
    p = waiting(s)["kennedy"]
    assert p.allows({"position": "Economy", "n": 2})  # 1 + 2
    assert not p.allows({"position": "Economy", "n": 3})  # 1 + 2 + 2 = 5
    s = act(s, "kennedy", {"position": "Economy", "n": 2})
    p = waiting(s)["kennedy"]
    assert p.allows({"position": "Defense", "n": 1}) and not p.allows({"position": "Economy", "n": 1})
    s = act(s, "kennedy", {"position": "Defense", "n": 1})
    assert s["issues"]["Economy"]["kennedy"] == 2 and s["issues"]["Defense"]["kennedy"] == 1


def test_trigger_for_one_momentum_and_preempt_for_two():
    s = start()
    s = give(s, "kennedy", 89)  # The New Nixon: Nixon +1 momentum
    t = act(s, "kennedy", {"play": 89, "as": "cp"})
    t = act(t, "kennedy", {"position": "Economy", "n": 1})
    t = act(t, "kennedy", {"done": True})
    assert waiting(t)["nixon"].kind == "trigger"
    t = act(t, "nixon", {"trigger": True})
    assert t["momentum"]["nixon"] == 2  # paid 1, gained 1
    assert 89 in t["removed"]
    p = act(s, "kennedy", {"play": 89, "as": "cp", "preempt": True})
    assert p["momentum"]["kennedy"] == 0
    p = act(p, "kennedy", {"position": "Economy", "n": 1})
    p = act(p, "kennedy", {"done": True})
    assert waiting(p)["nixon"].kind == "play" and 89 in p["discard"]


def test_candidate_card_is_exhausted():
    s = start()
    s = act(s, "kennedy", {"play": "candidate"})
    assert s["candidate"]["kennedy"] == "exhausted"
    s = act(s, "kennedy", {"position": "Defense", "n": 3})  # 1 + 2 + 2 = 5
    assert s["issues"]["Defense"]["kennedy"] == 3
    assert waiting(s)["nixon"].kind == "play"


def test_initiative_check_draws_until_two_of_a_colour():
    s = script(start(), 0, 22, 21)  # K, N, N
    events = []
    winner = initiative_check(s, events)
    assert winner == "nixon" and s["bag"] == {"kennedy": 11, "nixon": 10}


def test_empty_bag_reseeds_until_election_day():
    s = start()
    s["supply"]["kennedy"] += s["bag"]["kennedy"]
    s["supply"]["nixon"] += s["bag"]["nixon"]
    s["bag"] = {"kennedy": 0, "nixon": 0}
    s = script(s, 0)
    assert support_check(s, "kennedy", "states", "NY", [])
    assert s["bag"] == {"kennedy": 11, "nixon": 12}
    s["bag"] = {"kennedy": 0, "nixon": 0}
    s["supply"]["kennedy"] += 11
    s["supply"]["nixon"] += 12
    s["reseed"] = False
    assert not support_check(s, "kennedy", "states", "NY", [])
    assert GAME.invariants(s) == []


def _to_momentum_phase(s):
    """Finish the activity phases with default orders."""
    while waiting(s) and s["phase"] == "activity":
        seat, prompt = next(iter(waiting(s).items()))
        s = act(s, seat, GAME.default_order(s, seat))
    return s


def test_momentum_phase_decay_shift_awards_and_issue_decay():
    s = start()
    s["momentum"] = {"kennedy": 3, "nixon": 5}
    s["issues"]["Civil Rights"]["kennedy"] = 1   # 3rd
    s["issues"]["Economy"]["nixon"] = 2          # 2nd
    s["issues"]["Defense"]["kennedy"] = 2        # 1st
    s["media"]["East"]["nixon"] = 1
    s["supply"]["kennedy"] -= 3
    s["supply"]["nixon"] -= 3
    s["ap"] = 6
    frame = s["flow"][-1]
    frame["node"], frame["args"] = "momentum", {}
    from adjudicator.games.nineteen_sixty.flowbase import FLOW

    FLOW.settle(s, [])
    assert s["momentum"] == {"kennedy": 2, "nixon": 3}  # lose half rounded down
    assert waiting(s)["nixon"].kind == "shift"
    s = act(s, "nixon", {"shift": 0})
    assert waiting(s)["nixon"].kind == "award"
    s = act(s, "nixon", {"award": "momentum"})
    assert s["momentum"]["nixon"] == 4 and s["momentum"]["kennedy"] >= 3
    assert s["issues"]["Civil Rights"]["kennedy"] == 0 and s["issues"]["Economy"]["nixon"] == 1
    assert sum(s["endorse"][r]["kennedy"] for r in s["endorse"]) == 1 or waiting(s)["kennedy"].kind == "endorse"


def test_strategy_excludes_gathering_momentum_and_discards_the_rest():
    s = start()
    s["private"]["kennedy"]["hand"] = []
    s = give(s, "kennedy", 14, 22)
    from adjudicator.games.nineteen_sixty.turn import strategy_choices

    assert strategy_choices(s, "kennedy", 1) == [{"strategy": [22]}]


def test_cannot_play_away_the_last_strategy_card():
    s = start()
    s["private"]["kennedy"]["hand"] = []
    s = give(s, "kennedy", 14, 22)
    p = waiting(s)["kennedy"]
    assert not p.allows({"play": 22, "as": "cp"}) and p.allows({"play": 14, "as": "cp"})


def test_grammar_round_trip_and_help():
    s = start()
    p = waiting(s)["kennedy"]
    for choice in p.choices:
        assert GAME.parse_order(GAME.format_order(choice), p) == choice
    card = p.choices[0]["play"]
    assert GAME.parse_order(f"  Play #{card} CP ", p) == {"play": card, "as": "cp"}
    try:
        GAME.parse_order("campaign atlantis 2", p)
    except IllegalOrder as exc:
        assert "postal code" in str(exc)
    else:
        raise AssertionError


def test_tally_and_tie_breaks():
    s = start()
    for abbr in s["states"]:
        s["states"][abbr] = {"kennedy": 0, "nixon": 0}
    for abbr, info in STATES.items():
        s["states"][abbr][info.lean] = 1
    r = tally(s)
    assert r["ev"] == {"kennedy": 317, "nixon": 220} and r["winner"] == "kennedy"
    s["unpledged_event"] = True
    r = tally(s)
    assert r["unpledged"] == ["AL", "LA", "MS"] and r["ev"]["kennedy"] == 317 - 11 - 10 - 8


def test_debates_are_sealed_and_award_2_3_4():
    s = copy_json(start())
    for seat in ("kennedy", "nixon"):
        s["discard"] += s["private"][seat]["hand"]
        s["private"][seat]["hand"] = []
    # Kennedy: two Defense Kennedy cards (1, 34); Nixon: two Economy Nixon cards (33, 70)
    s = give(s, "kennedy", 1, 55)
    s = give(s, "nixon", 33, 70)
    for seat, cards in (("kennedy", [1, 55]), ("nixon", [33, 70])):
        s["private"][seat]["hand"] = []
        s["private"][seat]["strategy"] = cards
    s["turn"] = 6
    s["flow"] = [{"node": "turn", "args": {}}]
    s = script(s, 0, 0, 0, 0)  # Kennedy wins the debate initiative (and turn 7's)
    from adjudicator.games.nineteen_sixty.flowbase import FLOW

    FLOW.settle(s, [])
    prompts = waiting(s)
    assert prompts["kennedy"].sealed and prompts["nixon"].sealed
    assert prompts["kennedy"].group == prompts["nixon"].group
    from adjudicator.engine import apply_checked

    s = apply_checked(GAME, s, {"kennedy": {"debate": 1}, "nixon": {"debate": 33}}).state
    s = apply_checked(GAME, s, {"kennedy": {"debate": 55}, "nixon": {"debate": 70}}).state
    d = s["debate"]
    # Defense (1st on the track) and Economy (2nd) are won together: the lower one first
    assert d["won"] == ["Economy", "Defense"]
    assert d["winners"] == {"Economy": "nixon", "Defense": "kennedy"}
    assert s["track"][2] == "Economy" and s["track"][1] == "Defense"
    assert waiting(s)["nixon"].kind == "support"  # Nixon places his 2 cubes first
    s = act(s, "nixon", {"support": "NY", "n": 2})
    s = act(s, "kennedy", {"support": "TX", "n": 3})
    assert cubes(s, "NY")["nixon"] == 2 and cubes(s, "TX")["kennedy"] == 3
    # all cards played: Civil Rights goes by totals (0-0, initiative Kennedy) for 4 cubes
    s = act(s, "kennedy", {"support": "CA", "n": 4})
    assert s["track"] == ["Civil Rights", "Defense", "Economy"]
    assert s["turn"] == 7 and GAME.invariants(s) == []
