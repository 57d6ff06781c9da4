"""Why a China order line is not legal now, in the rule's words (`GameModule.refusal`): cards that
are not in the hand, a face-up card that is not on display, passing while an exchange is possible,
an order of another step of the turn. Anything else: None (the grammar's sentence stands)."""

from __future__ import annotations

from collections import Counter

from adjudicator.engine import N_, IllegalOrder, Message, Prompt, State, message

from .state import hand

STEPS = {"turn": N_("play cards or exchange one"), "space": N_("choose the space for your piece"),
         "draw": N_("draw cards to refill your hand")}


def refusal(state: State, seat: str, prompt: Prompt | None, text: str) -> Message | None:
    from .grammar import _line, _parse_turn

    if prompt is None:
        return message(N_("it is not your turn; the game waits on another player"))
    if prompt.kind != "turn":
        return message(N_("this step of your turn is to %(step)s"), step=message(STEPS.get(prompt.kind, prompt.kind)))
    try:
        order = _parse_turn(_line(text), prompt)  # the line read, legal or not
    except IllegalOrder:
        return None
    held = Counter(hand(state, seat))
    shown = ", ".join(sorted(hand(state, seat))) or "-"
    if "play" in order:
        wanted = Counter(order["play"])
        if any(wanted[c] > held[c] for c in wanted):
            return message(N_("you do not hold those cards; your hand: %(hand)s"), hand=shown)
    if "exchange" in order:
        if not held[order["exchange"]]:
            return message(N_("you hold no %(card)s card to exchange; your hand: %(hand)s"), card=order["exchange"],
                           hand=shown)
        if order["take"] != "deck" and order["take"] not in state.get("display", []):
            return message(N_("no %(card)s card is face up; face up: %(shown)s"), card=order["take"],
                           shown=", ".join(sorted(state.get("display", []))) or "-")
        if order["take"] == "deck" and not state["secret"]["deck"]:
            return message(N_("the deck is empty: take a face-up card instead"))
    if "pass" in order:
        return message(N_("you may pass only when you cannot exchange a card"))
    return None
