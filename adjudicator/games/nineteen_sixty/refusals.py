"""Why an order line is not legal now, in the rule's words (`GameModule.refusal`).

The common refusals of 1960: a decision of another kind (campaign points before a card is played
for CP), a card that does not exist or is not in the hand, a cost in CP or momentum above what is
left, a state an event closes to campaigning. Anything else: None (the grammar's sentence stands).
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, IllegalOrder, Message, Prompt, State, message

from . import cards as C
from .data import CARDS, STATES, area
from .modifiers import campaign_banned, cp_value, free_preempt, may_spend_momentum, travel
from .play import printed_cp
from .turn import _keeps_strategy, strategy_need

SPENDING = ("campaign", "travel", "advertise", "position")


def refusal(state: State, seat: str, prompt: Prompt | None, text: str) -> Message | None:
    from .grammar import read

    try:
        order = read(text)
    except IllegalOrder:
        return None
    if not isinstance(order, dict):
        return None
    if prompt is None:
        return message(N_("you have no decision open now; it is the other candidate's turn"))
    if "play" in order:
        return _play(state, seat, prompt, order)
    if any(k in order for k in SPENDING):
        return _spending(state, seat, prompt, order)
    return None


def never_legal(state: State, seat: str, text: str) -> Message | None:
    """A standing order that names a card removed from the game can never be played again."""
    from .grammar import read

    try:
        order = read(text)
    except IllegalOrder:
        return None
    cards = [order.get(k) for k in ("play", "debate", "take", "discard")] + list(order.get("strategy", []))
    gone = sorted({c for c in cards if isinstance(c, int) and c in state.get("removed", [])})
    if gone:
        return message(N_("card %(card)s was removed from the game"), card=gone[0])
    return None


def _play(state: State, seat: str, prompt: Prompt, order: dict[str, Any]) -> Message | None:
    card = order["play"]
    if card != "candidate" and card not in CARDS:
        return message(N_("there is no card %(card)s: the cards are numbered 1 to %(last)s"), card=card,
                       last=max(CARDS))
    if prompt.kind != "play":
        return message(N_("you cannot play a card now: %(decision)s"), decision=prompt.message or prompt.text)
    if card == "candidate":
        return message(N_("your candidate card is already used this turn"))
    vp = state.get("vp", {}).get(seat)
    if card not in C.hand(state, seat) and card != vp:
        hand = ", ".join(str(c) for c in sorted(C.hand(state, seat)))
        return message(N_("card %(card)s is not in your hand; your hand: %(hand)s"), card=card, hand=hand)
    if card != vp and not _keeps_strategy(state, seat, card) and any(
            _keeps_strategy(state, seat, c) for c in C.hand(state, seat)):
        return message(N_("playing card %(card)s would leave too few cards for the campaign strategy at the end "
                          "of the turn (%(need)s, not Gathering Momentum cards)"), card=card,
                       need=strategy_need(state["turn"]))
    if order.get("preempt") and not free_preempt(state, seat):
        if not may_spend_momentum(state, seat):
            return message(N_("an event in play forbids you to spend momentum, so you cannot preempt"))
        have = state["momentum"][seat]
        if have < 2:
            return message(N_("preempting costs 2 momentum and you have %(have)s"), have=have)
    if order["as"] == "event":
        return message(N_("the event of card %(card)s cannot be played now (its conditions are not met)"), card=card)
    return None


def _spending(state: State, seat: str, prompt: Prompt, order: dict[str, Any]) -> Message | None:
    frame = (state.get("flow") or [{}])[-1]
    if prompt.kind != "cp" or frame.get("node") != "cp":
        return message(N_("campaign points are spent after you play a card for CP (`play 23 cp`); now: "
                          "%(decision)s"), decision=prompt.message or prompt.text)
    args = frame["args"]
    action = args.get("action")
    kind = "campaign" if "campaign" in order or "travel" in order else next(k for k in SPENDING if k in order)
    if action is not None:
        left = args["left"]
    else:  # the CP this card gives the action chosen (the cp node's `value`)
        left = args["printed"] if "printed" in args else cp_value(state, seat, printed_cp(args.get("card")), kind)
    if action is not None and kind != action:
        return message(N_("this card's CP go to one action and you chose %(action)s; write `done` to end it"),
                       action=action)
    if "campaign" in order:
        abbr, n = order["campaign"], order["n"]
        if campaign_banned(state, seat, abbr):
            return message(N_("an event in play forbids you to campaign in %(state)s"), state=STATES[abbr].name)
        if args.get("one_per_state") and (n > 1 or abbr in args.get("issues", [])):
            return message(N_("this event allows at most 1 CP in any one state"))
        cost = travel(state, seat, abbr)
        if cost + n > left:
            if cost:
                return message(N_("campaigning %(n)s in %(state)s costs %(n)s CP plus %(cost)s CP to travel to "
                                  "another region (%(total)s CP) and you have %(left)s left"),
                               n=n, state=STATES[abbr].name, cost=cost, total=cost + n, left=left)
            return message(N_("campaigning %(n)s in %(state)s costs %(n)s CP and you have %(left)s left"),
                           n=n, state=STATES[abbr].name, left=left)
    if "travel" in order:
        abbr = order["travel"]
        if area(abbr) == area(state["tokens"][seat]):
            return message(N_("%(state)s is in the region your candidate is in already: travel only crosses into "
                              "another region (`campaign %(state)s 1` moves there)"), state=STATES[abbr].name)
        cost = travel(state, seat, abbr)
        if cost > left:
            return message(N_("travel to another region costs %(cost)s CP and you have %(left)s left"), cost=cost,
                           left=left)
    if "position" in order:
        n, done = order["n"], args.get("issues", []) if action else []
        cost = 2 * n if order["position"] in done else 2 * n - 1
        if cost > left:
            return message(N_("positioning %(n)s on %(issue)s costs %(cost)s CP and you have %(left)s left"), n=n,
                           issue=order["position"].lower(), cost=cost, left=left)
    return None
