"""The turn as a flow: choose (play / exchange / pass), place pieces space by space, draw back
to the hand size card by card, then end the turn (next seat, or the end of the game).

Nodes answer `waiting()` cheaply so that settling the flow never builds the choice lists.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import (
    N_,
    Event,
    Flow,
    IllegalOrder,
    Message,
    Node,
    Order,
    Prompt,
    event,
    message,
    message_text,
)

from .cards import discard_from_hand, draw_from_deck, draw_from_display, refill_display
from .components import HAND_SIZE
from .placement import (
    any_piece_placeable,
    exchange_choices,
    place,
    placement_steps,
    play_choices,
    space_choices,
)
from .scoring import final_scoring, score_region
from .state import State, board_of, hand, pieces_left

Args = dict[str, Any]


class ChinaNode(Node):
    """Only the current player ever decides in China: nodes answer `deciding` (a bool)."""

    kind = ""

    def deciding(self, state: State, args: Args) -> bool:
        return False

    def waiting(self, state: State, args: Args) -> list[str]:
        return [state["current"]] if self.deciding(state, args) else []

    def choices(self, state: State, args: Args) -> list[Order]:
        return []

    def message(self, state: State, args: Args) -> Message | None:
        """The decision's text as a msgid and values (translated for the reader, issue 12)."""
        return None

    def prompts(self, state: State, args: Args) -> dict[str, Prompt]:
        if not self.deciding(state, args):
            return {}
        seat = state["current"]
        msg = self.message(state, args)
        return {seat: Prompt(seat=seat, kind=self.kind, choices=self.choices(state, args),
                             text=message_text(msg) if msg else "", message=msg)}

    def default(self, state: State, args: Args, seat: str) -> Order:
        choices = sorted_choices(self.choices(state, args))
        return choices[0]


def sorted_choices(choices: list[Order]) -> list[Order]:
    listed = Prompt(seat="", kind="", choices=choices).choices  # sorted as a prompt lists them
    assert isinstance(listed, list)  # a sorted prompt's choices are a list
    return listed


class ChooseNode(ChinaNode):
    kind = "turn"

    def deciding(self, state: State, args: Args) -> bool:
        return True

    def choices(self, state: State, args: Args) -> list[Order]:
        seat = state["current"]
        exchanges = exchange_choices(state, seat)
        # Passing is allowed only when no card can be exchanged.
        return [*play_choices(state, seat), *(exchanges or [{"pass": True}])]

    def message(self, state: State, args: Args) -> Message | None:
        return message(N_("Play 1-3 cards to place pieces in one region, or exchange one card."))

    def default(self, state: State, args: Args, seat: str) -> Order:
        """Exchange the lowest card for the deck's top card (or the lowest face-up card when the
        deck is gone); pass when no card can be exchanged."""
        cards = hand(state, seat)
        if cards and state["secret"]["deck"]:
            return {"exchange": min(cards), "take": "deck"}
        if cards and state["display"]:
            return {"exchange": min(cards), "take": min(state["display"])}
        return {"pass": True}

    def apply(self, state: State, args: Args, orders: dict[str, Order], events: list[Event]) -> None:
        seat = state["current"]
        order = _single(state, orders)
        if "play" in order:
            discard_from_hand(state, seat, order["play"])
            events.append(event("played", seat=seat, cards=order["play"], region=order["region"],
                                pieces=order["pieces"]))
            FLOW.goto(state, "place", region=order["region"], steps=placement_steps(order["pieces"]))
        elif "exchange" in order:
            discard_from_hand(state, seat, [order["exchange"]])
            events.append(event("exchanged", seat=seat, discarded=order["exchange"], took=order["take"]))
            if order["take"] == "deck":
                draw_from_deck(state, seat, events)
            else:
                draw_from_display(state, seat, order["take"])
                refill_display(state, events)
            FLOW.goto(state, "end")
        else:
            events.append(event("passed", seat=seat))
            FLOW.goto(state, "end")


class PlaceNode(ChinaNode):
    kind = "space"

    def deciding(self, state: State, args: Args) -> bool:
        steps = args["steps"]
        return bool(steps) and steps[0] != "emissary" and len(space_choices(state, args["region"], steps[0])) > 1

    def choices(self, state: State, args: Args) -> list[Order]:
        return [{"space": s} for s in space_choices(state, args["region"], args["steps"][0])]

    def message(self, state: State, args: Args) -> Message | None:
        msgid = {"house": N_("Choose the space in %(region)s for your house."),
                 "fortification": N_("Choose the space in %(region)s for the fortification."),
                 "fortified": N_("Choose the space in %(region)s for the fortification (your house goes on it).")}
        return message(msgid[args["steps"][0]], region=board_of(state).names[args["region"]])

    def apply(self, state: State, args: Args, orders: dict[str, Order], events: list[Event]) -> None:
        self._place(state, args, _single(state, orders)["space"], events)

    def advance(self, state: State, args: Args, events: list[Event]) -> None:
        if not args["steps"]:
            FLOW.goto(state, "draw")
            return
        if args["steps"][0] == "emissary":
            self._place(state, args, None, events)
            return
        only = space_choices(state, args["region"], args["steps"][0])
        if len(only) != 1:
            raise RuntimeError(f"no space for a {args['steps'][0]} in {args['region']}")
        self._place(state, args, only[0], events)

    @staticmethod
    def _place(state: State, args: Args, space: str | None, events: list[Event]) -> None:
        step = args["steps"].pop(0)
        # A filled region interrupts the turn for its scoring at once.
        if place(state, state["current"], args["region"], step, space, events):
            score_region(state, args["region"], events)


class DrawNode(ChinaNode):
    kind = "draw"

    def deciding(self, state: State, args: Args) -> bool:
        short = len(hand(state, state["current"])) < HAND_SIZE
        return short and bool(state["secret"]["deck"] or state["display"])

    def choices(self, state: State, args: Args) -> list[Order]:
        sources = (["deck"] if state["secret"]["deck"] else []) + sorted(set(state["display"]))
        return [{"draw": s} for s in sources]

    def message(self, state: State, args: Args) -> Message | None:
        return message(N_("Draw back to %(size)s cards: the deck's top card or a face-up card."), size=HAND_SIZE)

    def default(self, state: State, args: Args, seat: str) -> Order:
        """The deck's top card; the lowest face-up card when the deck is gone."""
        return {"draw": "deck" if state["secret"]["deck"] else min(state["display"])}

    def apply(self, state: State, args: Args, orders: dict[str, Order], events: list[Event]) -> None:
        seat, source = state["current"], _single(state, orders)["draw"]
        events.append(event("drew", seat=seat, source=source))
        if source == "deck":
            draw_from_deck(state, seat, events)
        else:
            draw_from_display(state, seat, source)

    def advance(self, state: State, args: Args, events: list[Event]) -> None:
        refill_display(state, events)  # the display refills only once the hand is full again
        FLOW.goto(state, "end")


class EndNode(Node):
    def advance(self, state: State, args: Args, events: list[Event]) -> None:
        seats, seat = state["seats"], state["current"]
        if state["exhaustions"] >= 2 and seat == seats[-1]:
            finish(state, "deck", events)
        elif not any_piece_placeable(state):
            finish(state, "blocked", events)
        else:
            state["current"] = seats[(seats.index(seat) + 1) % len(seats)]
            state["turn"] += 1
            FLOW.goto(state, "turn")


def finish(state: State, reason: str, events: list[Event]) -> None:
    events.append(event("final-scoring", reason=reason))
    final_scoring(state, events)
    left = {s: pieces_left(state, s) for s in state["seats"]}
    best = max(state["scores"].values())
    tied = [s for s in state["seats"] if state["scores"][s] == best]
    most = max(left[s] for s in tied)
    winners = [s for s in tied if left[s] == most]
    state["result"] = {"winners": winners, "scores": dict(state["scores"]), "pieces_left": left,
                       "reason": reason}
    events.append(event("game-over", **state["result"]))
    FLOW.end(state)


def _single(state: State, orders: dict[str, Order]) -> dict[str, Any]:
    seat = state["current"]
    if set(orders) != {seat}:
        raise IllegalOrder(message(N_("waiting for %(seat)s only"), seat=seat))
    return orders[seat]


FLOW = Flow({"turn": ChooseNode(), "place": PlaceNode(), "draw": DrawNode(), "end": EndNode()})
