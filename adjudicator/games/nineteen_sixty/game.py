"""The GameModule: setup, the protocol methods and the invariants."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from adjudicator.engine import (
    FlowGame,
    GameInfo,
    GameModule,
    GameWords,
    IllegalOrder,
    Message,
    Option,
    Order,
    Outcome,
    Prompt,
    Rng,
    Step,
    WordedGame,
    event,
    redact,
    seed_state,
)
from adjudicator.engine.wording import verbs_of

from . import debate, election, evaluation, events, play, resolve, turn  # noqa: F401  (register the flow nodes)
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
from .grammar import SPANISH_FIRST, VERBS, format_order, grammar_help, order_problem, parse_order
from .log import event_message
from .refusals import never_legal, refusal
from .render import order_label, render_event, render_view
from .versions import RULES_VERSION, UNNAMED

State = dict[str, Any]


def new_state(seed: str, options: dict[str, Any], rules_version: str = RULES_VERSION) -> State:
    zero = {s: 0 for s in SEATS}
    state: State = {
        "rules_version": rules_version,
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
    if rules_version in UNNAMED:
        del state["rules_version"]  # those versions' states did not name it (versions.py)
    rng = Rng.of(state)
    rng.shuffle(state["secret"]["deck"])
    rng.shuffle(state["secret"]["endorsements"])
    return state


class NineteenSixty(WordedGame, FlowGame):
    flow = FLOW

    info = GameInfo(
        id="1960",
        title="1960: The Making of the President",
        rules_version=RULES_VERSION,
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
        replays=UNNAMED,  # docs/games/1960.md, "Rules versions"
    )

    def seat_names(self, count: int, options: dict[str, Any]) -> list[str]:
        return list(SEATS)

    def setup(self, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        return self._setup(seed, options, RULES_VERSION)

    def setup_version(self, rules_version: str, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        if rules_version not in UNNAMED:
            return super().setup_version(rules_version, seed, seats, options)
        return self._setup(seed, options, rules_version)

    def for_rules(self, rules_version: str) -> GameModule:
        if rules_version == RULES_VERSION or rules_version == UNNAMED[-1]:
            return self  # a state without a version plays by the last unnamed one
        if rules_version in UNNAMED:
            return UnnamedVersion(rules_version)
        raise IllegalOrder(f"rules version {rules_version} cannot be replayed by this build")

    def _setup(self, seed: str, options: dict[str, Any], rules_version: str) -> Step:
        state = new_state(seed, options, rules_version)
        evs = [event("setup", track=list(state["track"]), bag=dict(state["bag"]))]
        FLOW.start(state, "turn")
        FLOW.settle(state, evs)
        return Step(state, evs)

    # the text side of the protocol: the game's grammar and render modules
    words = GameWords(parse_order=parse_order, format_order=format_order, grammar_help=grammar_help,
                      order_problem=order_problem, render_event=render_event, event_message=event_message,
                      render_view=render_view, order_label=order_label,
                      refusal=refusal, never_legal=never_legal)
    order_verbs = verbs_of(SPANISH_FIRST, VERBS)
    # orders of one action a player gives several of in a row ("campaign STATE N", one prompt
    # per state): a page may offer them as a plan of several lines, each checked in turn
    plan_orders = ("campaign",)

    def budget(self, view: State, seat: str) -> Message | None:
        """The CP left to `seat` while it spends a card's CP (play.py, `CampaignPoints.budget`)."""
        frame = FLOW.top(view)
        if frame is None or frame["node"] != "cp" or frame["args"].get("seat") != seat:
            return None
        cp = FLOW.nodes["cp"]
        assert isinstance(cp, play.CampaignPoints)
        return cp.budget(view, frame["args"])

    def view(self, state: State, seat: str | None) -> State:
        out = redact(state, seat)
        out["counts"] = {  # public sizes of the hidden piles
            "deck": len(state["secret"]["deck"]),
            "endorsement_deck": len(state["secret"]["endorsements"]),
            "hand": {s: len(state["private"][s]["hand"]) for s in SEATS},
            "strategy": {s: len(state["private"][s]["strategy"]) for s in SEATS},
        }
        return out

    def evaluate(self, state: State, seat: str) -> float | None:
        return evaluation.evaluate(state, seat)

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


class UnnamedVersion(NineteenSixty):
    """Plays the states of an older version that do not name it (gmt-2017-1): around each call
    the state names the version for the rules modules (versions.since) and loses the name again,
    so every state stays exactly as that version recorded it."""

    def __init__(self, rules_version: str) -> None:
        self.rules_version = rules_version

    @contextmanager
    def _named(self, state: State) -> Iterator[None]:
        if "rules_version" in state:  # a state that names its own version plays by it
            yield
            return
        state["rules_version"] = self.rules_version
        try:
            yield
        finally:
            del state["rules_version"]

    def prompts(self, state: State) -> dict[str, Prompt]:
        with self._named(state):
            return super().prompts(state)

    def apply(self, state: State, orders: dict[str, Order]) -> Step:
        with self._named(state):
            return super().apply(state, orders)

    def default_order(self, state: State, seat: str) -> Order:
        with self._named(state):
            return super().default_order(state, seat)


GAME = NineteenSixty()
