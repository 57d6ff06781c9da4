"""Persuasion, any-time card play, trades, the reduced-negotiation committee (exact states)."""

from __future__ import annotations

from adjudicator.engine import Event, scripted_state
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.committee import draft_order
from adjudicator.games.founding_fathers.flowbase import FLOW
from adjudicator.games.founding_fathers.persuasion import modifiers, start_persuasion
from adjudicator.games.founding_fathers.state import owned
from tests.games.founding_fathers.helpers import act, give_card, waiting


def _setup(players=5, **options):
    return GAME.setup("test", GAME.seat_names(players, {}), options).state


def _empty_hand(state, seat):
    """Discard `seat`'s hand, so that the cards a test gives stay within the hand limit."""
    for c in list(state["private"][seat]["hand"]):
        state["private"][seat]["hand"].remove(c)
        state["factions"][seat]["hand"] -= 1
        state["actions"]["discard"].append(c)


def _give_card(state, seat, cid):
    give_card(state, seat, cid)
    assert not GAME.invariants(state)


# ------------------------------------------------------------------------------ persuasion
def test_persuasion_leaders_are_placed_from_the_president_clockwise() -> None:
    state = _setup(5, persuasion=True)
    pres_seat = state["statesmen"]["george-washington"]["owner"]
    order = state["seats"][state["seats"].index(pres_seat):] + state["seats"][:state["seats"].index(pres_seat)]
    for seat in order:
        assert waiting(state) == {seat: "faction-leader"}
        first = owned(state, seat)[0]
        state = act(state, seat, f"lead {first}")
        assert state["factions"][seat]["leader"] == first
    assert waiting(state) == {pres_seat: "agenda"}


def test_persuasion_modifiers_and_alternate_spending() -> None:
    state = _setup(5, persuasion=True)
    for s in state["seats"]:
        state["factions"][s]["leader"] = None
    # Jefferson (VA, b. 1743) persuades Madison (VA, b. 1751) of another player; Madison's leader
    # is Monroe (VA, b. 1758).
    keep = {"thomas-jefferson": "red", "james-madison": "blue", "james-monroe": "blue",
            "george-washington": "green", "john-adams": "yellow", "john-jay": "purple"}
    state["statesmen"] = {sid: {"owner": seat, "cubes": 0, "bonus": 0, "influence": 0, "elected": 0}
                          for sid, seat in keep.items()}
    state["gone"] = {}
    state["factions"]["blue"]["leader"] = "james-monroe"
    state["factions"]["red"]["influence"], state["factions"]["blue"]["influence"] = 5, 2
    mods = modifiers(state, "thomas-jefferson", "james-madison")
    # Jefferson is the L party leader (popularity ties broken by age); Madison's popularity is 2;
    # 8 years older; same state; not less popular; Monroe 7 years from Madison (no +1); same state.
    assert [n for _, n in mods] == [1, 1, 1, 1, 1]
    state["secret"]["rng"] = scripted_state([2, 1])  # dice 3 and 2: 5 + 5 = 10
    events: list[Event] = []
    FLOW.call(state, "turn", stage="next")  # a frame to return to
    start_persuasion(state, "red", "thomas-jefferson", "james-madison", events)
    FLOW.settle(state, events)
    assert state["factions"]["red"]["influence"] == 4  # the 1 influence of the attempt
    assert waiting(state) == {"red": "persuasion"}
    state = act(state, "red", "spend 2")  # up to 12
    assert waiting(state) == {"blue": "persuasion"}
    state = act(state, "blue", "spend 1")  # back to 11
    state = act(state, "red", "spend 1")  # 12 again
    state = act(state, "blue", "spend 1")  # 11: blue's pool is now empty, Madison's card too
    state = act(state, "red", "spend 1")  # 12; blue cannot answer
    assert state["factions"]["red"]["influence"] == 0 and state["factions"]["blue"]["influence"] == 0
    assert state["statesmen"]["james-madison"]["owner"] == "red"


def test_persuasion_natural_two_fails_and_leaders_are_immune() -> None:
    from adjudicator.games.founding_fathers.persuasion import persuade_choices

    state = _setup(5, persuasion=True)
    state["factions"]["blue"]["leader"] = owned(state, "blue")[0]
    targets = {o["target"] for o in persuade_choices(state, "red")}
    assert owned(state, "blue")[0] not in targets and owned(state, "blue")[1] in targets
    target = owned(state, "blue")[1]
    state["secret"]["rng"] = scripted_state([0, 0])  # a natural 2
    events: list[Event] = []
    start_persuasion(state, "red", owned(state, "red")[0], target, events)
    assert events[-1]["kind"] == "persuasion-failed" and state["statesmen"][target]["owner"] == "blue"


# ------------------------------------------------------------------------------ any-time cards
def test_cards_are_offered_at_other_decision_points_and_the_prompt_reopens() -> None:
    state = _setup(5)
    pres = state["statesmen"]["george-washington"]["owner"]
    _empty_hand(state, pres)
    _give_card(state, pres, "raise-campaign-funds-1")
    _give_card(state, pres, "the-hand-of-time-1")
    prompt = GAME.prompts(state)[pres]
    assert prompt.kind == "agenda"
    assert {"act": "play", "card": "raise-campaign-funds-1"} in prompt.choices
    assert {"act": "play", "card": "the-hand-of-time-1"} in prompt.choices  # a quiet window
    assert GAME.default_order(state, pres)["act"] in ("draw", "end", "appoint")
    before = state["factions"][pres]["influence"]
    state = act(state, pres, "play raise-campaign-funds-1")
    assert state["factions"][pres]["influence"] == before + 2
    assert "raise-campaign-funds-1" in state["actions"]["discard"]
    assert waiting(state) == {pres: "agenda"}  # the interrupted prompt again


def test_hand_of_time_is_not_offered_in_a_congress_vote() -> None:
    from adjudicator.games.founding_fathers.windows import card_plays

    state = _setup(5)
    _empty_hand(state, "blue")
    _give_card(state, "blue", "the-hand-of-time-1")
    _give_card(state, "blue", "rally-the-faithful-1")
    plays = card_plays(state, "blue", "vote")
    assert {"act": "play", "card": "rally-the-faithful-1"} in plays
    assert all(p["card"] != "the-hand-of-time-1" for p in plays)


# ------------------------------------------------------------------------------ trades
def test_trade_offer_accepted_moves_influence_and_cards() -> None:
    state = _setup(5)
    pres = state["statesmen"]["george-washington"]["owner"]
    other = next(s for s in state["seats"] if s != pres)
    for s in state["seats"]:
        _empty_hand(state, s)
    _give_card(state, pres, "dolley-todd-1")
    _give_card(state, other, "duel-1")
    _give_card(state, other, "secession-1")
    state = act(state, pres, "trade")
    assert waiting(state) == {pres: "trade"}
    state = act(state, pres, f"trade with {other}")
    state = act(state, pres, "give 2")
    state = act(state, pres, "offer dolley-todd-1")
    state = act(state, pres, "done")
    state = act(state, pres, "for 1")
    state = act(state, pres, "for 1 cards")
    assert waiting(state) == {other: "trade-answer"}
    assert "Dolley" in GAME.prompts(state)[other].text
    assert "dolley-todd-1" not in str(GAME.view(state, None))  # the offered card stays secret
    state = act(state, other, "accept")
    state = act(state, other, "hand secession-1")
    assert state["factions"][pres]["influence"] == 3 - 2 + 1
    assert state["factions"][other]["influence"] == 3 + 2 - 1
    assert state["private"][pres]["hand"] == ["secession-1"]
    assert state["private"][other]["hand"] == ["dolley-todd-1", "duel-1"]
    assert waiting(state) == {pres: "agenda"}
    assert not GAME.invariants(state)


def test_trade_declined_changes_nothing() -> None:
    state = _setup(5)
    pres = state["statesmen"]["george-washington"]["owner"]
    other = next(s for s in state["seats"] if s != pres)
    before = {s: dict(f) for s, f in state["factions"].items()}
    hands = {s: list(p["hand"]) for s, p in state["private"].items()}
    for text in ("trade", f"trade with {other}", "give 3", "done", "for 0", "for 0 cards"):
        state = act(state, pres, text)
    state = act(state, other, "decline")
    assert state["factions"] == before and {s: p["hand"] for s, p in state["private"].items()} == hands
    assert "trade" not in state["secret"]


# ------------------------------------------------------------------------------ reduced negotiation
def test_reduced_negotiation_committee_drafts_the_offices() -> None:
    state = _setup(5, reduced_negotiation=True)
    order = draft_order(state)
    assert waiting(state) == {order[0]: "committee"}
    pres = state["statesmen"]["george-washington"]["owner"]
    assert GAME.prompts(state)[order[0]].choices[0]["act"] == "claim"
    claimed = []
    while set(waiting(state).values()) == {"committee"}:
        (seat,) = waiting(state)
        first = GAME.prompts(state)[seat].choices[0]
        claimed.append((seat, first["office"]))
        state = act(state, seat, GAME.format_order(first))
    assert claimed[0][0] == order[0] and claimed[1][0] == order[1]
    assert waiting(state) == {pres: "agenda"}
    assert not [c for c in GAME.prompts(state)[pres].choices if c["act"] == "appoint"]
    for seat, office in claimed:
        assert state["statesmen"][state["offices"][office]]["owner"] == seat
