"""The GameModule: setup, the protocol methods and the invariants."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import (
    FlowGame,
    GameInfo,
    Option,
    Outcome,
    Rng,
    Step,
    event,
    redact,
    seed_state,
)

from . import debate, election, events, play, turn  # noqa: F401  (register the flow nodes)
from .board import KINDS
from .cards import all_locations
from .data import (
    BAG_SEED,
    CARDS,
    CUBES_PER_COLOUR,
    ENDORSEMENTS,
    HOME,
    ISSUES,
    REGIONS,
    SEATS,
    START_MOMENTUM,
    START_TRACK,
    STATES,
    TOTAL_EV,
    VICE_PRESIDENTS,
)
from .flowbase import FLOW
from .grammar import GRAMMAR_HELP, format_order, order_problem, parse_order
from .log import event_message
from .render import order_label, render_event, render_view

State = dict[str, Any]


def new_state(seed: str, options: dict[str, Any]) -> State:
    zero = {s: 0 for s in SEATS}
    state: State = {
        "turn": 1, "phase": "setup", "ap": 0, "initiative": None, "first": None,
        "states": {a: {"kennedy": s.kennedy, "nixon": s.nixon} for a, s in STATES.items()},
        "media": {r: dict(zero) for r in REGIONS},
        "issues": {i: dict(zero) for i in ISSUES},
        "endorse": {r: dict(zero) for r in REGIONS},
        "track": list(START_TRACK),
        "supply": {}, "rest": dict(zero), "bag": {s: BAG_SEED for s in SEATS},
        "momentum": {s: START_MOMENTUM for s in SEATS},
        "tokens": dict(HOME),
        "candidate": {s: "ready" for s in SEATS},
        "discard": [], "removed": [], "endorse_discard": [],
        "boxes": {"debate": [], "election_day": [], "prevention": [], "turn": []},
        "effects": [], "played": [], "reseed": True, "unpledged_event": False,
        "debate": None, "result": None, "options": dict(options),
        "vp": {s: None for s in SEATS},
        "secret": {"rng": seed_state(seed), "deck": sorted(CARDS), "endorsements": sorted(ENDORSEMENTS)},
        "private": {s: {"hand": [], "strategy": []} for s in SEATS},
        "flow": [],
    }
    for seat in SEATS:
        on_board = sum(v[seat] for v in state["states"].values())
        state["supply"][seat] = CUBES_PER_COLOUR - on_board - BAG_SEED
    if options.get("vice_presidents"):  # each VP card is set aside with its candidate card
        for seat, card in VICE_PRESIDENTS.items():
            state["secret"]["deck"].remove(card)
            state["vp"][seat] = card
    rng = Rng.of(state)
    rng.shuffle(state["secret"]["deck"])
    rng.shuffle(state["secret"]["endorsements"])
    return state


class NineteenSixty(FlowGame):
    flow = FLOW

    info = GameInfo(
        id="1960",
        title="1960: The Making of the President",
        rules_version="gmt-2017-2",
        min_seats=2,
        max_seats=2,
        wait_hours=48,
        follow_up_hours=36,
        options=(
            Option("restricted_positioning", False, (False, True),
                   "no positioning on the issue of the card's own debate icon"),
            Option("vice_presidents", False, (False, True),
                   "Johnson and Lodge start beside their candidates; either may be played instead of "
                   "a hand card by discarding a card that shows only its own candidate's icon"),
        ),
        summary="Kennedy against Nixon for 269 electoral votes (GMT edition, 97 cards).",
    )

    def seat_names(self, count: int, options: dict[str, Any]) -> list[str]:
        return list(SEATS)

    def setup(self, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        state = new_state(seed, options)
        evs = [event("setup", track=list(state["track"]), bag=dict(state["bag"]))]
        FLOW.start(state, "turn")
        FLOW.settle(state, evs)
        return Step(state, evs)

    # the text side of the protocol is the game's grammar and render modules, bound as they are
    parse_order = staticmethod(parse_order)
    format_order = staticmethod(format_order)
    order_problem = staticmethod(order_problem)
    render_event = staticmethod(render_event)
    event_message = staticmethod(event_message)  # type: ignore[assignment]
    order_label = staticmethod(order_label)
    # orders of one action a player gives several of in a row ("campaign STATE N", one prompt
    # per state): a page may offer them as a plan of several lines, each checked in turn
    plan_orders = ("campaign",)
    render_view_in = staticmethod(render_view)  # type: ignore[assignment]  # takes `translate` as third argument
    render_view = staticmethod(render_view)

    def grammar_help(self) -> str:
        return GRAMMAR_HELP

    def view(self, state: State, seat: str | None) -> State:
        out = redact(state, seat)
        out["counts"] = {  # public sizes of the hidden piles
            "deck": len(state["secret"]["deck"]),
            "endorsement_deck": len(state["secret"]["endorsements"]),
            "hand": {s: len(state["private"][s]["hand"]) for s in SEATS},
            "strategy": {s: len(state["private"][s]["strategy"]) for s in SEATS},
        }
        return out

    def outcome(self, state: State) -> Outcome | None:
        result = state.get("result")
        if not result or state["flow"]:
            return None
        ev = result["ev"]
        winners = [result["winner"]] if result["winner"] else list(SEATS)
        summary = f"Kennedy {ev['kennedy']} – Nixon {ev['nixon']} electoral votes"
        if result["unpledged"]:
            summary += f"; unpledged: {', '.join(result['unpledged'])}"
        return Outcome(winners=winners, scores=dict(ev), summary=summary)

    def invariants(self, state: State) -> list[str]:
        problems = []
        for seat in SEATS:
            board = sum(state[k][key][seat] for k in KINDS for key in state[k])
            total = board + state["supply"][seat] + state["rest"][seat] + state["bag"][seat]
            if total != CUBES_PER_COLOUR:
                problems.append(f"{seat} cubes: {total} != {CUBES_PER_COLOUR}")
            if state["momentum"][seat] < 0:
                problems.append(f"{seat} momentum negative")
            if state["rest"][seat] < 0 or state["bag"][seat] < 0:
                problems.append(f"{seat} rest or bag negative")
        for kind in (*KINDS, "endorse"):
            for key, spot in state[kind].items():
                if all(spot[s] > 0 for s in SEATS):
                    problems.append(f"{kind} {key} holds both colours")
                if any(spot[s] < 0 for s in SEATS):
                    problems.append(f"{kind} {key} negative")
        places = sorted(all_locations(state))
        if places != sorted(CARDS):
            dup = sorted({c for c in places if places.count(c) > 1})
            lost = sorted(set(CARDS) - set(places))
            problems.append(f"cards misplaced: duplicated {dup}, missing {lost}")
        endorsements = sorted(state["secret"]["endorsements"] + state["endorse_discard"])
        if endorsements != sorted(ENDORSEMENTS):
            problems.append("endorsement cards misplaced")
        result = state.get("result")
        if result:
            unpledged_ev = sum(STATES[a].ev for a in result["unpledged"])
            if sum(result["ev"].values()) != TOTAL_EV - unpledged_ev:
                problems.append("electoral votes do not add up to 537 minus unpledged")
        return problems


GAME = NineteenSixty()
