"""Founding Fathers rules 1.6-3 (issue 30), each against the rulebook sentence, and the 1.6-2 form
that records of that version keep (docs/games/founding-fathers-rules.md, F42 and F79)."""

from __future__ import annotations

from typing import Any

from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.issues import settle_issue
from adjudicator.games.founding_fathers.state import RULES_VERSION, congress_votes, owned
from adjudicator.games.founding_fathers.turn import finish
from tests.games.founding_fathers.helpers import act, fresh, waiting

State = dict[str, Any]


def test_new_games_play_by_rules_1_6_3_and_older_versions_still_replay() -> None:
    assert RULES_VERSION == "1.6-3" == GAME.info.rules_version == fresh()["rules_version"]
    assert GAME.info.replays == ("1.6", "1.6-2")
    old = GAME.setup_version("1.6-2", "test", GAME.seat_names(5, {}), {}).state
    assert old == {**fresh(), "rules_version": "1.6-2"}  # the same layout, the version's name apart


# --- F79: "Si el juego termina debido al colapso monetario o a la guerra civil, cada jugador debe
# restar el número del congreso más los puntos de la influencia que tenga en su marcador particular."

def ended(reason: str, rules_version: str = RULES_VERSION) -> State:
    """Every faction: 20 VP, no popularity, 3 influence in its own supply and 2 on each of its
    statesmen's cards."""
    state = fresh()
    state["rules_version"] = rules_version
    state["ending"] = reason
    for seat in state["seats"]:
        state["factions"][seat]["vp"] = 20
        state["factions"][seat]["influence"] = 3
        for sid in owned(state, seat):
            state["statesmen"][sid]["cubes"] = 0
            state["statesmen"][sid]["influence"] = 2
    return state


def test_after_a_monetary_collapse_only_the_factions_own_influence_is_subtracted() -> None:
    state = ended("monetary-collapse")
    finish(state, [])
    expected = {seat: 20 - congress_votes(state, seat) - 3 for seat in state["seats"]}
    assert state["result"]["scores"] == expected
    assert congress_votes(state, "red") == 15 and expected["red"] == 2  # not 20 - 15 - 3 - 2 * 3 = -4


def test_after_a_civil_war_the_cards_influence_is_not_subtracted_either() -> None:
    state = ended("civil-war")
    finish(state, [])
    assert state["result"]["scores"] == {seat: 20 - congress_votes(state, seat) - 3 for seat in state["seats"]}


def test_a_last_issue_ending_subtracts_nothing() -> None:
    state = ended("last-issue")
    finish(state, [])
    assert state["result"]["scores"] == dict.fromkeys(state["seats"], 20)


def test_rules_1_6_2_subtracted_the_cards_influence_too() -> None:
    state = ended("civil-war", "1.6-2")
    finish(state, [])
    assert state["result"]["scores"] == {
        seat: 20 - congress_votes(state, seat) - 3 - 2 * len(owned(state, seat)) for seat in state["seats"]}


# --- F42: "Una vez por mandato, el Vicepresidente puede hacerse responsable de una cuestión como
# si fuese el Presidente." Reading: the Vice-President takes the President's place for that issue,
# his share of its popularity included.

def cubes(state: State, sid: str) -> int:
    return state["statesmen"][sid]["cubes"]


def delegated(card: str, rules_version: str = RULES_VERSION) -> State:
    """Washington (red) is President, John Adams (purple) Vice-President; `card` is drawn and
    delegated."""
    state = fresh()
    state["rules_version"] = rules_version
    state["secret"]["issues"].remove(card)
    state["secret"]["issues"].insert(0, card)
    state = act(state, "red", "draw")
    state = act(state, "red", "delegate")
    assert waiting(state) == {"purple": "issue"}
    return state


def test_a_delegated_issue_ignored_costs_the_vice_president_the_popularity() -> None:
    # Bill of Rights: Ignored -3 ("aplicando las pérdidas de popularidad sólo al Presidente")
    state = delegated("bill-of-rights")
    washington, adams = cubes(state, "george-washington"), cubes(state, "john-adams")
    state = act(state, "purple", "ignore")
    assert cubes(state, "george-washington") == washington
    assert cubes(state, "john-adams") == adams - 3


def test_rules_1_6_2_charged_the_president_for_a_delegated_issue_ignored() -> None:
    state = delegated("bill-of-rights", "1.6-2")
    washington, adams = cubes(state, "george-washington"), cubes(state, "john-adams")
    state = act(state, "purple", "ignore")
    assert cubes(state, "george-washington") == washington - 3
    assert cubes(state, "john-adams") == adams


def settled(outcome: str, officers: list[str], rules_version: str = RULES_VERSION) -> State:
    """Pay Off War Bonds (resolve: Secretary of the Treasury, +1; Failed -1), delegated."""
    state = fresh()
    state["rules_version"] = rules_version
    state["offices"]["secretary-of-the-treasury"] = "alexander-hamilton"
    state["secret"]["issues"].remove("pay-off-war-bonds")
    cur = {"card": "pay-off-war-bonds", "kind": "issue", "do": None, "option": "resolve", "officers": officers,
           "difficulty": 4, "spend": 0, "votes": {}, "voters": [], "outcome": outcome, "delegated": True}
    before = {sid: cubes(state, sid) for sid in state["statesmen"]}
    settle_issue(state, cur, [])
    return {sid: cubes(state, sid) - n for sid, n in before.items() if cubes(state, sid) != n}


def test_a_delegated_issue_resolved_rewards_the_vice_president_and_the_officer() -> None:
    # "tanto el Presidente como el Titular de la Oficina correspondiente recibirían ... esta
    # cantidad de Popularidad": the Vice-President, as if he were the President, and Hamilton.
    assert settled("resolved", ["alexander-hamilton"]) == {"john-adams": 1, "alexander-hamilton": 1}
    assert settled("failed", ["alexander-hamilton"]) == {"john-adams": -1, "alexander-hamilton": -1}


def test_rules_1_6_2_rewarded_the_president_for_a_delegated_issue() -> None:
    assert settled("resolved", ["alexander-hamilton"], "1.6-2") == {"george-washington": 1, "alexander-hamilton": 1}


def test_a_delegated_issue_the_vice_president_handles_himself_counts_him_once() -> None:
    # Bill of Rights' option names the President: with the issue delegated, that is Adams.
    state = fresh()
    state["secret"]["issues"].remove("bill-of-rights")
    cur = {"card": "bill-of-rights", "kind": "issue", "do": None, "option": "resolve", "officers": ["john-adams"],
           "difficulty": 3, "spend": 0, "votes": {}, "voters": [], "outcome": "resolved", "delegated": True}
    washington, adams = cubes(state, "george-washington"), cubes(state, "john-adams")
    settle_issue(state, cur, [])
    assert (cubes(state, "george-washington"), cubes(state, "john-adams")) == (washington, adams + 3)


def test_an_issue_not_delegated_still_rewards_the_president() -> None:
    state = fresh()
    state["offices"]["secretary-of-the-treasury"] = "alexander-hamilton"
    state["secret"]["issues"].remove("pay-off-war-bonds")
    cur = {"card": "pay-off-war-bonds", "kind": "issue", "do": None, "option": "resolve",
           "officers": ["alexander-hamilton"], "difficulty": 4, "spend": 0, "votes": {}, "voters": [],
           "outcome": "resolved", "delegated": False}
    washington, adams = cubes(state, "george-washington"), cubes(state, "john-adams")
    settle_issue(state, cur, [])
    assert (cubes(state, "george-washington"), cubes(state, "john-adams")) == (washington + 1, adams)
