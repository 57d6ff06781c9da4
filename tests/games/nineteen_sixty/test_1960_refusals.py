"""1960's refusals in the rule's words (`GAME.refusal`, issue 25 item 3): built states, exact texts."""

from __future__ import annotations

from adjudicator.engine import copy_json, message_text
from adjudicator.games.nineteen_sixty import GAME

from .helpers import act, start


def _hand(state: dict, seat: str, cards: list[int]) -> dict:
    """`seat` holds exactly `cards` (the rest of the old hand goes to the deck)."""
    state = copy_json(state)
    old = state["private"][seat]["hand"]
    for card in cards:
        for pile in (state["secret"]["deck"], state["discard"], *(p["hand"] for p in state["private"].values())):
            if card in pile:
                pile.remove(card)
    state["secret"]["deck"] += old
    state["private"][seat]["hand"] = sorted(cards)
    return state


def _why(state: dict, seat: str, text: str) -> str | None:
    reason = GAME.refusal(state, seat, GAME.prompts(state).get(seat), text)
    return message_text(reason) if reason else None


def test_a_card_play_names_the_hand_the_momentum_and_the_strategy_card_kept():
    """Rulebook, "Fase de estrategia de campaña": "En los primeros cinco turnos (antes de los
    Debates), los jugadores deben colocar exactamente una carta" (a card of the hand, never a
    Gathering Momentum card, so the hand keeps one)."""
    state = _hand(start(first="kennedy"), "kennedy", [3, 14])  # 14: Gathering Momentum
    state["momentum"]["kennedy"] = 1
    assert _why(state, "kennedy", "play 99 cp") == "there is no card 99: the cards are numbered 1 to 97"
    assert _why(state, "kennedy", "play 5 cp") == "card 5 is not in your hand; your hand: 3, 14"
    assert _why(state, "kennedy", "play 3 cp") == (
        "playing card 3 would leave too few cards for the campaign strategy at the end of the turn "
        "(1, not Gathering Momentum cards)")
    assert _why(state, "kennedy", "play 14 cp preempt") == "preempting costs 2 momentum and you have 1"
    assert _why(state, "nixon", "play 3 cp") == "you have no decision open now; it is the other candidate's turn"
    assert _why(state, "kennedy", "campaign ohio 1").startswith(
        "campaign points are spent after you play a card for CP (`play 23 cp`); now: Turn 1")


def test_spending_cp_names_the_cost_and_what_is_left():
    """Rulebook, "Campaña": "si un jugador desea mover su ficha de candidato a una región diferente,
    debe pagar un costo de viaje de 1 CP cada vez que cruza un límite regional"."""
    state = _hand(start(first="kennedy"), "kennedy", [3, 14])
    state = act(state, "kennedy", {"play": 14, "as": "cp"})  # 4 CP
    assert state["flow"][-1]["node"] == "cp" and state["tokens"]["kennedy"] == "MA"
    assert _why(state, "kennedy", "campaign california 3") == (
        "campaigning 3 in California costs 3 CP plus 2 CP to travel to another region (5 CP) and you have 4 left")
    assert _why(state, "kennedy", "campaign new york 5") == \
        "campaigning 5 in New York costs 5 CP and you have 4 left"
    assert _why(state, "kennedy", "travel new york") == (
        "New York is in the region your candidate is in already: travel only crosses into another region "
        "(`campaign New York 1` moves there)")
    state = act(state, "kennedy", {"travel": "CA"})  # 2 CP: 2 left, in the West
    assert _why(state, "kennedy", "travel alaska") is None  # 1 CP: legal, nothing to explain
    assert _why(state, "kennedy", "campaign massachusetts 1") == (
        "campaigning 1 in Massachusetts costs 1 CP plus 2 CP to travel to another region (3 CP) and you have 2 left")
    assert _why(state, "kennedy", "advertise") == \
        "this card's CP go to one action and you chose campaign; write `done` to end it"
    assert _why(state, "kennedy", "jugar 3 pc").startswith("you cannot play a card now: 2 CP left")  # Spanish verbs
