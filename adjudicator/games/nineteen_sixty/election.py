"""Turn 9, Election Day: bonus cubes, initiative, strategy checks, events, undecided states, tally."""

from __future__ import annotations

from adjudicator.engine import N_, Message, event, message

from . import cards as C
from .board import gain, holder, initiative_check, media_total, other, support_check, to_bag
from .data import CARDS, ISSUES, REGIONS, SEATS, STATES
from .flowbase import FLOW, Args, Events, N, State, node

UNPLEDGED_STATES = ("AL", "LA", "MS")


@node("election")
class Election(N):
    def advance(self, state: State, args: Args, events: Events) -> None:
        state["phase"] = "election"
        for seat in SEATS:
            to_bag(state, seat, media_total(state, seat))  # bonus: one cube per media cube
            for region in REGIONS:
                n = state["media"][region][seat]
                state["media"][region][seat] = 0
                state["bag"][seat] += n
            for issue in ISSUES:
                n = state["issues"][issue][seat]
                state["issues"][issue][seat] = 0
                state["bag"][seat] += n
            to_bag(state, seat, 2 * state["momentum"][seat])
            state["momentum"][seat] = 0
        events.append(event("bonus", bag=dict(state["bag"])))
        state["initiative"] = initiative_check(state, events)
        state["reseed"] = False  # from the campaign-strategy step on, an empty bag stays empty
        first = state["initiative"]
        for seat in (first, other(first)):
            pile = C.strategy(state, seat)
            events.append(event("strategy_revealed", seat=seat, cards=list(pile)))
            for card in list(pile):
                where = CARDS[card].state
                assert where is not None  # a card set aside for the strategy names its state (strategy_ok)
                for _ in range(3):
                    support_check(state, seat, "states", where, events)
            state["discard"].extend(pile)
            pile.clear()
        FLOW.goto(state, "election_events", left=sorted(state["boxes"]["election_day"]))


@node("election_events")
class ElectionEvents(N):
    kind = "resolve"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [state["initiative"]] if len(args["left"]) > 1 else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [{"resolve": c} for c in args["left"]]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Choose the next Election Day event to resolve: %(examples)s."))

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        self.resolve(state, args, order["resolve"])

    def resolve(self, state: State, args: Args, card: int) -> None:
        args["left"].remove(card)
        state["boxes"]["election_day"].remove(card)
        resolver = CARDS[card].icon if CARDS[card].icon != "both" else state["initiative"]
        state["played"].append({"card": card, "seat": resolver, "use": "election"})
        FLOW.call(state, "event", card=card, seat=resolver, i=0, picked=None, steps="election")

    def advance(self, state: State, args: Args, events: Events) -> None:
        if args["left"]:
            self.resolve(state, args, args["left"][0])
        else:
            FLOW.goto(state, "tally")


@node("tally")
class Tally(N):
    def advance(self, state: State, args: Args, events: Events) -> None:
        for abbr, info in STATES.items():  # endorsements, then the lean, take the empty states
            if holder(state, "states", abbr) is None:
                seat = holder(state, "endorse", info.region) or info.lean
                gain(state, "states", abbr, seat, events)
        state["result"] = tally(state)
        events.append(event("tally", **state["result"]))
        FLOW.end(state)


def tally(state: State) -> dict:
    unpledged = []
    if state.get("unpledged_event"):  # Kennedy-led but not carried states vote for neither
        unpledged = [a for a in UNPLEDGED_STATES if 1 <= state["states"][a]["kennedy"] < 4]
    ev = {s: 0 for s in SEATS}
    won = {s: 0 for s in SEATS}
    cubes = {s: sum(state["states"][a][s] for a in STATES) for s in SEATS}
    for abbr, info in STATES.items():
        seat = holder(state, "states", abbr)
        if seat and abbr not in unpledged:
            ev[seat] += info.ev
            won[seat] += 1
    key = {s: (ev[s], won[s], cubes[s]) for s in SEATS}
    if key["kennedy"] == key["nixon"]:
        winner = None
    else:
        winner = max(SEATS, key=lambda s: key[s])
    return {"ev": ev, "states_won": won, "cubes": cubes, "unpledged": unpledged, "winner": winner}
