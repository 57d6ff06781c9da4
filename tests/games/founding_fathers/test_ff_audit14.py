"""Issue 14, the audit's departures from the rulebook: exact states, exact outcomes.

Each test quotes the rulebook passage (Spanish edition, v1.6) it checks."""

from __future__ import annotations

from adjudicator.engine import Event, apply_checked
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.election import install
from adjudicator.games.founding_fathers.flowbase import FLOW
from adjudicator.games.founding_fathers.issues import draw_issue, start_issues
from adjudicator.games.founding_fathers.offices import appoint
from adjudicator.games.founding_fathers.people import paper_order
from adjudicator.games.founding_fathers.state import HAND_LIMIT, eligible_appointees, owner, popularity
from adjudicator.games.founding_fathers.turn import kill
from tests.games.founding_fathers.helpers import act, fresh, give_card, waiting

State = dict


def _people_draft(state: State) -> State:
    """Start the People phase of `state` (income, the packet of 7) and stop at the first draft."""
    state["flow"] = []
    FLOW.call(state, "people", stage="income")
    FLOW.settle(state, [])
    return state


def _fill_hand(state: State, seat: str, n: int, cards: tuple[str, ...] = ()) -> None:
    """Bring `seat`'s hand to n cards: `cards` (taken from wherever they are), then the top of the
    action deck (places stay consistent)."""
    for cid in cards:
        give_card(state, seat, cid)
    hand = state["private"][seat]["hand"]
    while len(hand) > n:
        spare = next(c for c in hand if c not in cards)
        hand.remove(spare)
        state["actions"]["discard"].append(spare)
    while len(hand) < n:
        hand.append(state["secret"]["actions"].pop())
        state["actions"]["left"] -= 1
    hand.sort()
    state["factions"][seat]["hand"] = len(hand)


# ------------------------------------------------------------------------------ 1. hand limit
def test_hand_limit_is_enforced_at_once_during_the_draft() -> None:
    """«Un jugador sólo puede tener tres cartas de acción en cualquier momento. Un jugador que
    tenga más de tres cartas debe jugar alguna inmediatamente o tendrá que descartarse»: the
    drafter who takes a fourth card sheds one before the next player drafts."""
    state = _people_draft(fresh(5))
    first, second = state["people"]["drafters"][:2]
    _fill_hand(state, first, HAND_LIMIT)
    assert waiting(state) == {first: "draft"}
    card = sorted(state["secret"]["packet"])[0]
    state = act(state, first, f"take {card}")
    assert state["factions"][first]["hand"] == HAND_LIMIT + 1
    assert waiting(state) == {first: "discard"}  # not the next drafter
    prompt = GAME.prompts(state)[first]
    assert {"act": "trade"} not in prompt.choices  # play or discard, nothing in between
    assert {c["card"] for c in prompt.choices if c["act"] == "discard"} == set(state["private"][first]["hand"])
    discarded = state["private"][first]["hand"][0]
    state = act(state, first, f"discard {discarded}")
    assert state["factions"][first]["hand"] == HAND_LIMIT
    assert discarded not in state["private"][first]["hand"]
    assert state["actions"]["discard"][-1] == discarded
    assert waiting(state) == {second: "draft"}
    assert GAME.invariants(state) == []


def test_hand_limit_may_be_met_by_playing_a_card() -> None:
    """«debe jugar alguna inmediatamente»: playing a card is the other way back to three."""
    state = _people_draft(fresh(5))
    first, second = state["people"]["drafters"][:2]
    _fill_hand(state, first, HAND_LIMIT, ("raise-campaign-funds-1",))
    state = act(state, first, f"take {sorted(state['secret']['packet'])[0]}")
    assert waiting(state) == {first: "discard"}
    assert {"act": "play", "card": "raise-campaign-funds-1"} in GAME.prompts(state)[first].choices
    before = state["factions"][first]["influence"]
    state = act(state, first, "play raise-campaign-funds-1")
    assert state["factions"][first]["influence"] == before + 2
    assert state["factions"][first]["hand"] == HAND_LIMIT
    assert waiting(state) == {second: "draft"}
    assert GAME.invariants(state) == []


def test_extra_initiative_winner_sheds_the_drawn_card_before_his_action() -> None:
    """«El ganador de la Iniciativa Extra paga ..., roba una Carta de Acción y puede realizar una
    de las tres acciones»; with three cards the drawn one is a fourth, shed «inmediatamente»."""
    state = fresh(5)
    pres = owner(state, state["offices"]["president"])
    state["flow"] = []
    state["people"] = {"drafters": [], "done": {s: [] for s in state["seats"]}, "auction": None}
    _fill_hand(state, "blue", HAND_LIMIT)
    state["factions"]["blue"]["influence"] = 2
    order = state["seats"][state["seats"].index(pres) + 1:] + state["seats"][:state["seats"].index(pres) + 1]
    FLOW.call(state, "auction", order=order, k=0, best=0, winner=None)
    FLOW.settle(state, [])
    for seat in order:
        state = act(state, seat, "bid 2" if seat == "blue" else "bid 0")
    assert state["factions"]["blue"]["influence"] == 0
    assert state["factions"]["blue"]["hand"] == HAND_LIMIT + 1
    assert waiting(state) == {"blue": "discard"}  # before the extra initiative
    state = act(state, "blue", f"discard {state['private']['blue']['hand'][0]}")
    assert waiting(state) == {"blue": "initiative"}
    assert state["factions"]["blue"]["hand"] == HAND_LIMIT


def test_a_hand_above_the_limit_outside_the_discard_is_a_violation() -> None:
    state = fresh(5)
    _fill_hand(state, "red", HAND_LIMIT + 1)
    assert "red: above the hand limit outside the hand-limit discard" in GAME.invariants(state)


# ------------------------------------------------------------------------------ 2. newspapers
def _gerry_president(state: State) -> State:
    """Gerry President; the Liberals led by Franklin (popularity 4, age 1, over Jefferson 3),
    the Conservatives by Washington (5, age 2, over Hamilton 3)."""
    keep = {"benjamin-franklin": "red", "george-washington": "blue", "thomas-jefferson": "green",
            "alexander-hamilton": "yellow", "elbridge-gerry": "purple"}
    state["statesmen"] = {sid: {"owner": seat, "cubes": 0, "bonus": 0, "influence": 0, "elected": 0}
                          for sid, seat in keep.items()}
    state["offices"] = dict.fromkeys(state["offices"])
    state["offices"]["president"] = "elbridge-gerry"
    return state


def test_newspapers_under_gerry_follow_public_support_then_popularity_then_age() -> None:
    """«Si es Presidente, la fase de control de Periódicos se realiza primero por el Partido con
    mayor cantidad de Apoyo público, seguido por el líder del Partido con más Popularidad, y
    posteriormente iría el líder del Partido con el número de Edad más bajo.»"""
    state = _gerry_president(fresh(5))
    state["support"] = -1
    assert paper_order(state) == ["C", "L"]
    state["support"] = 2
    assert paper_order(state) == ["L", "C"]
    # support 0: the more popular leader's party first — Washington (C, popularity 5) leads the
    # Conservatives, Franklin (L, 4) the Liberals
    state["support"] = 0
    assert paper_order(state) == ["C", "L"]
    # equal popularity: the leader with the lower age number (Franklin 1 < Washington 2) goes first
    state["statesmen"]["benjamin-franklin"]["cubes"] = 1
    assert popularity(state, "benjamin-franklin") == popularity(state, "george-washington")
    assert paper_order(state) == ["L", "C"]
    state["statesmen"]["benjamin-franklin"]["cubes"] = 0
    state["statesmen"]["thomas-jefferson"]["cubes"] = 3  # Jefferson (L, 6) leads at 6 > 5
    assert paper_order(state) == ["L", "C"]


def test_newspapers_prompt_the_conservative_leader_first_at_support_zero() -> None:
    state = _gerry_president(fresh(5))
    state["support"] = 0
    state["papers"] = {"L": {"lower": [1, 0, 0], "upper": [0, 0, 0]}, "C": {"lower": [1, 0, 0], "upper": [0, 0, 0]}}
    state["flow"] = []
    FLOW.call(state, "papers")
    FLOW.settle(state, [])
    assert waiting(state) == {"blue": "newspapers"}  # Washington's player, before Franklin's (red)
    assert "Newspapers of the C party" in GAME.prompts(state)["blue"].text
    state = act(state, "blue", "lift 0 0 0")
    assert waiting(state) == {"red": "newspapers"}


# ------------------------------------------------------------------------------ 3. judicial review
def _bank_through_congress(theory: bool = True) -> State:
    state = fresh(5)
    deck = state["secret"]["issues"]
    deck.remove("create-national-bank")
    state["secret"]["issues"] = ["create-national-bank", *deck]
    if theory:
        state["flags"].append("judicial-review")
    state = act(state, "red", "appoint treasury Hamilton")
    state = act(state, "red", "appoint chief justice Jay")
    state = act(state, "red", "draw")
    state = act(state, "red", "assign resolve")
    state["statesmen"]["alexander-hamilton"]["influence"] = 1
    state["factions"]["blue"]["influence"] = 3
    state = act(state, "blue", "spend 1")
    for seat in ["blue", "green", "yellow", "purple", "red"]:
        state = act(state, seat, "vote yes")
    return state


def test_a_cancelled_resolution_is_treated_as_failed() -> None:
    """«Lo que sucede con una resolución cancelada depende de la carta de cuestión; por lo
    general el problema se trata como Fallido ... todos los efectos de la resolución se
    invierten, pero cualquier cantidad de Influencia gastada se pierde.» The National Bank's
    Failed result removes the card from the game (before: it went to the next era's deck)."""
    state = _bank_through_congress()
    jay = owner(state, "john-jay")
    assert waiting(state) == {jay: "review"}
    wash_influence = state["statesmen"]["george-washington"]["influence"]
    state = act(state, jay, "cancel")
    assert "create-national-bank" in state["issues"]["removed"]
    assert "create-national-bank" not in state["issues"]["resolved"]
    assert "create-national-bank" not in state["issues"]["pools"]["B"]
    assert state["statesmen"]["george-washington"]["influence"] == wash_influence  # no +2
    assert state["statesmen"]["alexander-hamilton"]["influence"] == 0  # the spent influence is lost
    assert GAME.invariants(state) == []


def test_a_cancel_applies_the_failed_effects_and_popularity() -> None:
    """«por lo general el problema se trata como Fallido»: the Failed result's tension and
    popularity loss apply to a cancelled Extension of Slavery Crisis (President + officer)."""
    state = fresh(5)
    deck = state["secret"]["issues"]
    state["secret"]["issues"] = ["extension-of-slavery-crisis", *deck]
    state["issues"]["left"] += 1
    state["flags"].append("judicial-review")
    state = act(state, "red", "appoint chief justice Jay")
    state = act(state, "red", "draw")
    assert state["issues"]["current"]["card"] == "extension-of-slavery-crisis"
    state = act(state, "red", "assign resolve")
    state["statesmen"]["george-washington"]["influence"] = 2  # ability 3 + 2 = difficulty 5
    state = act(state, "red", "spend 2")
    for seat in ["blue", "green", "yellow", "purple", "red"]:
        state = act(state, seat, "vote yes")
    wash = popularity(state, "george-washington")
    tension = state["tension"]
    state = act(state, owner(state, "john-jay"), "cancel")
    assert state["tension"] == tension + 1  # Failed: tension +1 (the resolution's −1 never applies)
    assert popularity(state, "george-washington") == wash - 1
    assert "extension-of-slavery-crisis" in state["issues"]["removed"]


def test_upheld_resolution_still_resolves() -> None:
    state = _bank_through_congress()
    wash_influence = state["statesmen"]["george-washington"]["influence"]
    state = act(state, owner(state, "john-jay"), "uphold")
    assert "create-national-bank" in state["issues"]["resolved"]
    assert state["statesmen"]["george-washington"]["influence"] == wash_influence + 2


# ------------------------------------------------------------------------------ 4. office holders
def test_a_holder_may_be_named_to_an_office_vacated_by_death() -> None:
    """«No se permite que los titulares de Departamento ... renuncien, a menos que sean nombrados
    para un departamento vacante por muerte o elección.» Hamilton dies; Jefferson moves from
    State to the Treasury; State, left open, is refilled the same way, without popularity
    («Estos nombramientos de reemplazo no conllevarían el incremento de popularidad»)."""
    state = fresh(5)
    state = act(state, "red", "appoint secretary of state Jefferson")
    state = act(state, "red", "appoint treasury Hamilton")
    assert "thomas-jefferson" not in eligible_appointees(state, "secretary-of-war")  # a resignation gap
    kill(state, "alexander-hamilton", [])
    assert state["term"]["vacated"] == ["secretary-of-the-treasury"]
    prompt = GAME.prompts(state)["red"]
    assert {"act": "appoint", "office": "secretary-of-the-treasury", "statesman": "thomas-jefferson"} in prompt.choices
    # statesmen without office come first, so a default never moves a holder
    treasury = [c["statesman"] for c in prompt.choices if c["act"] == "appoint"
                and c["office"] == "secretary-of-the-treasury"]
    assert treasury[-1] == "thomas-jefferson"
    jeff = popularity(state, "thomas-jefferson")
    state = act(state, "red", "appoint treasury Jefferson")
    assert state["offices"]["secretary-of-the-treasury"] == "thomas-jefferson"
    assert state["offices"]["secretary-of-state"] is None
    assert popularity(state, "thomas-jefferson") == jeff  # a death replacement: no popularity
    assert state["term"]["vacated"] == ["secretary-of-state"]
    assert state["term"]["replacements"] == ["secretary-of-state"]
    jay = popularity(state, "john-jay")
    state = act(state, "red", "appoint secretary of state Jay")
    assert popularity(state, "john-jay") == jay  # the chain's replacement: no popularity either
    assert state["term"]["vacated"] == [] and state["term"]["replacements"] == []
    assert GAME.invariants(state) == []


def test_a_holder_may_be_named_to_an_office_vacated_by_election() -> None:
    """«a menos que sean nombrados para un departamento vacante por muerte o elección»: the Chief
    Justice elected Vice-President leaves his office open to the General, with its popularity."""
    state = fresh(5)
    state["offices"]["general"] = "alexander-hamilton"
    state["offices"]["chief-justice"] = "john-jay"
    state["election"] = {"candidates": []}
    assert "alexander-hamilton" not in eligible_appointees(state, "chief-justice")  # nothing vacant
    install(state, "george-washington", "john-jay", [])  # Jay elected Vice-President
    state["election"] = None
    assert state["offices"]["chief-justice"] is None
    assert state["term"]["vacated"] == ["chief-justice"]
    assert "alexander-hamilton" in eligible_appointees(state, "chief-justice")
    assert "alexander-hamilton" not in eligible_appointees(state, "chief-justice", movers=False)
    hamilton = popularity(state, "alexander-hamilton")
    appoint(state, "chief-justice", "alexander-hamilton", [])
    assert popularity(state, "alexander-hamilton") == hamilton + 1  # an election gap: the office's popularity
    assert state["offices"]["general"] is None
    assert state["term"]["vacated"] == ["general"] and state["term"]["replacements"] == ["general"]
    assert GAME.invariants(state) == []


# ------------------------------------------------------------------------------ 5. short game
def test_short_game_option_is_listed_with_words() -> None:
    option = next(o for o in GAME.info.options if o.name == "short_game")
    assert option.default is False and option.choices == (False, True)
    assert "era A" in option.help


def test_short_game_ends_with_era_a() -> None:
    """«Los jugadores también pueden terminar el juego estándar al final de Era A»: the last
    era A issue is the last issue; the era B deck is never dealt."""
    state = GAME.setup("test", GAME.seat_names(4, {}), {"short_game": True}).state
    state["secret"]["issues"] = ["admit-ky"]
    state["issues"]["left"] = 1
    events: list[Event] = []
    assert draw_issue(state, events) == "admit-ky"
    assert state["issues"]["last_drawn"] is True
    assert events[-1]["kind"] == "last-issue"
    plain = GAME.setup("test", GAME.seat_names(4, {}), {}).state
    plain["secret"]["issues"] = ["admit-ky"]
    plain["issues"]["left"] = 1
    assert draw_issue(plain, []) == "admit-ky"
    assert plain["issues"]["last_drawn"] is False  # the standard game goes on to era B


def test_short_game_ignored_in_scenarios() -> None:
    from adjudicator.games.founding_fathers.scenarios import final_era

    assert final_era({"scenario": "standard", "short_game": True}) == "A"
    assert final_era({"scenario": "B", "short_game": True}) == "B"
    assert final_era({"scenario": "C", "short_game": True}) == "C"
    assert final_era({"scenario": "standard", "short_game": False}) == "C"


def test_short_game_ends_the_game_after_that_turns_election() -> None:
    state = GAME.setup("test", GAME.seat_names(4, {}), {"short_game": True}).state
    state["secret"]["issues"] = state["secret"]["issues"][:1]
    state["issues"]["left"] = 1
    kinds = set()
    for _ in range(600):
        prompts = GAME.prompts(state)
        if not prompts:
            break
        kinds |= {p.kind for p in prompts.values()}
        orders = {s: GAME.default_order(state, s) for s in prompts}
        state = apply_checked(GAME, state, orders).state
    assert state["result"]["reason"] == "last-issue"
    assert state["result"]["turn"] == 1
    assert "place" in kinds or "running-mate" in kinds  # the final election was held
    assert state["issues"]["pools"]["B"] == []


def test_a_generals_death_vacancy_survives_the_cabinets_resignation() -> None:
    """«Estos nombramientos de reemplazo no conllevarían el incremento de popularidad»: a General
    who died in the People phase is replaced in the next Issues phase without popularity, while
    the cabinet's resignation gaps are ordinary ones."""
    state = fresh(5)
    state["offices"]["general"] = "alexander-hamilton"
    state["offices"]["secretary-of-state"] = "thomas-jefferson"
    kill(state, "alexander-hamilton", [])
    start_issues(state, [])
    assert state["offices"]["secretary-of-state"] is None
    assert state["term"]["replacements"] == ["general"] and state["term"]["vacated"] == ["general"]
    general = eligible_appointees(state, "general")[0]
    before = popularity(state, general)
    appoint(state, "general", general, [])
    assert popularity(state, general) == before
    jefferson = popularity(state, "thomas-jefferson")
    appoint(state, "secretary-of-state", "thomas-jefferson", [])
    assert popularity(state, "thomas-jefferson") == jefferson + 1  # a resignation gap: popularity


def test_an_issue_without_anyone_to_decide_goes_to_the_next_deck() -> None:
    state = fresh(5)
    state["secret"]["issues"].remove("create-national-bank")
    state["issues"]["left"] -= 1
    state["issues"]["current"] = {"card": "create-national-bank", "kind": "issue", "do": None, "option": None,
                                  "officers": [], "difficulty": 0, "spend": 0, "votes": {}, "voters": [],
                                  "outcome": None, "delegated": False}
    state["offices"]["president"] = None
    state["flow"] = [{"node": "decide", "args": {}}]
    FLOW.settle(state, [])
    assert state["issues"]["current"] is None
    assert state["issues"]["pools"]["B"] == ["create-national-bank"]


def test_a_party_barred_military_holder_never_shuts_out_the_generals_free_choice() -> None:
    """Found by self-play: a military holder of the other party, barred by the one-outsider limit,
    used to leave a dead General's office with no choice at all while free statesmen qualified
    (the relaxed military rule, «Si no se dispone de tal estadista»)."""
    state = fresh(5)
    keep = {"george-washington": "red", "john-adams": "purple", "george-clinton": "yellow",
            "thomas-jefferson": "green", "john-jay": "purple", "john-marshall": "blue"}
    state["statesmen"] = {sid: {"owner": seat, "cubes": 0, "bonus": 0, "influence": 0, "elected": 0}
                          for sid, seat in keep.items()}
    state["offices"] = dict.fromkeys(state["offices"])
    state["offices"].update({"president": "george-washington", "vice-president": "john-adams",
                             "secretary-of-state": "george-clinton", "secretary-of-the-treasury": "thomas-jefferson"})
    state["term"]["vacated"] = ["general"]
    assert eligible_appointees(state, "general") == ["john-jay", "john-marshall"]
    assert eligible_appointees(state, "general", movers=False) == ["john-jay", "john-marshall"]


def test_a_card_played_to_shed_the_excess_is_resolved_before_anyone_else_acts() -> None:
    """Found by self-play (scenario C): a player five cards up plays one at the limit prompt; its
    table ruling goes to the President, who must not trade or play in between — the excess is
    still «inmediatamente» the holder's business. Then the holder discards the last excess card."""
    state = _people_draft(fresh(5))
    first = state["people"]["drafters"][0]
    pres = owner(state, state["offices"]["president"])
    if first == pres:  # the test wants the ruling to go to another seat
        first = state["people"]["drafters"][1]
    _fill_hand(state, first, HAND_LIMIT + 2, ("duel-1",))
    state["flow"].append({"node": "limit", "args": {}})
    assert GAME.invariants(state) == []
    state = act(state, first, "play duel-1")
    assert state["factions"][first]["hand"] == HAND_LIMIT + 1
    assert waiting(state) == {pres: "ruling"}
    choices = GAME.prompts(state)[pres].choices
    assert all(c["act"] == "rule" for c in choices)  # no trade, no card play
    assert GAME.invariants(state) == []
    state = act(state, pres, "rule none")
    assert waiting(state) == {first: "discard"}
    state = act(state, first, f"discard {state['private'][first]['hand'][0]}")
    assert state["factions"][first]["hand"] == HAND_LIMIT
    assert GAME.invariants(state) == []
