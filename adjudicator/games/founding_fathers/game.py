"""The Founding Fathers game module: the protocol answers, delegating to the phase modules."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import (
    N_,
    Event,
    GameInfo,
    GameWords,
    IllegalOrder,
    Option,
    Order,
    Outcome,
    Prompt,
    Step,
    WordedGame,
    event,
    message,
)
from adjudicator.engine.wording import verbs_of

from . import committee, election, evaluation, issues, people, persuasion, turn, windows  # noqa: F401  (they register the flow's nodes)
from .data import DECKS, DEFAULT_DECK
from .flowbase import FLOW, FFNode
from .grammar import SPANISH_FIRST, VERBS, format_order, grammar_help, order_problem, parse_order
from .invariants import violated
from .log import event_message
from .persuasion import leader_round
from .refusals import refusal
from .render import order_label, render_event, render_view
from .state import RULES_16, RULES_VERSION, SEAT_COLOURS, VERSIONS, new_state
from .turn import finish
from .windows import WINDOW_ACTS, apply_window, with_windows

State = dict[str, Any]


class FoundingFathers(WordedGame):
    info = GameInfo(
        id="founding-fathers",
        title="Founding Fathers",
        rules_version=RULES_VERSION,
        min_seats=3,
        max_seats=6,
        wait_hours=48,
        follow_up_hours=36,
        options=(
            Option("deck", DEFAULT_DECK, help="The card deck: the built-in deck (stand-in values where the "
                   "printed ones are unknown) or one installed on this server (pbem decks install).",
                   library=DECKS),
            Option("scenario", "standard", ("standard", "B", "C"),
                   "Standard game (1789), scenario B (Jefferson-Jackson era, 1805) "
                   "or C (countdown to civil war, 1841)."),
            Option("short_game", False, (False, True),
                   "Short game: the standard game ends with era A (the election of the turn its last "
                   "issue is drawn is the final one). Standard game only; scenarios B and C ignore it."),
            Option("reduced_faction", False, (False, True),
                   "Optional rule: a player down to one statesman may pay 1 influence to receive another."),
            Option("bad_reputation", False, (False, True),
                   "Optional rule: black cubes for raising the tension; they bar a win after a civil war."),
            Option("black_rings", False, (False, True),
                   "Play-report rule (not in rulebook 1.6): losing nominees take black rings; two bar running."),
            Option("persuasion", False, (False, True),
                   "Optional rule: faction leaders, and persuading other players' statesmen to change faction."),
            Option("reduced_negotiation", False, (False, True),
                   "Variant: the players draft the vacant offices (most Congress votes first); "
                   "the President appoints none."),
        ),
        summary="Rick Heli, 2007. Govern the young American republic, 1789-1861, and keep it alive.",
        replays=VERSIONS[:-1],  # older records replay by their version's behaviour (state.since)
    )

    def seat_names(self, count: int, options: dict[str, Any]) -> list[str]:
        return SEAT_COLOURS[:count]

    def setup(self, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        return self._setup(seed, seats, self.info.resolve_options(options), RULES_VERSION)

    def setup_version(self, rules_version: str, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        if rules_version not in VERSIONS or rules_version == RULES_VERSION:
            return super().setup_version(rules_version, seed, seats, options)
        resolved = self.info.resolve_options(options)
        if rules_version != RULES_16:  # 1.6-2 states are laid out as today's: only the name differs
            return self._setup(seed, seats, resolved, rules_version)
        if "short_game" not in options:  # 1.6 had no such option: its states never held it
            resolved.pop("short_game")
        return self._setup(seed, seats, resolved, RULES_16)

    def _setup(self, seed: str, seats: list[str], options: dict[str, Any], rules_version: str) -> Step:
        if not 3 <= len(seats) <= 6 or len(set(seats)) != len(seats):
            raise IllegalOrder(message(N_("Founding Fathers is played by 3 to 6 players with distinct seat names")))
        state = new_state(seed, seats, options, rules_version)
        events: list[Event] = [event("game-started", seats=list(seats), deck=state["deck"])]
        FLOW.start(state, "turn", stage="people" if state["phase"] == "people" else "issues")
        if state["options"].get("persuasion"):
            leader_round(state, False)
        FLOW.settle(state, events)
        return Step(state, events)

    def prompts(self, state: State) -> dict[str, Prompt]:
        return with_windows(state, FLOW.prompts(state))

    def apply(self, state: State, orders: dict[str, Order]) -> Step:
        if FLOW.top(state) is None:
            raise IllegalOrder(message(N_("the game is over; no orders are expected")))
        events: list[Event] = []
        seat, order = next(iter(orders.items())) if len(orders) == 1 else (None, None)
        # Only `play` and `trade` orders can be window choices (windows.py), so only for those is
        # the node's own prompt built (half the cost of a replayed step) to tell the two apart.
        if seat is not None and isinstance(order, dict) and order.get("act") in WINDOW_ACTS:
            own = FLOW.prompts(state).get(seat)
            if own is not None and not own.sealed and own.find(order) is None:
                apply_window(state, seat, order, events)  # an any-time card or a trade offer
                FLOW.settle(state, events)
                if state.get("ending") and state.get("result") is None:
                    finish(state, events)
                return Step(state, events)
        FLOW.apply(state, orders, events)
        if state.get("ending") and state.get("result") is None:
            finish(state, events)
        return Step(state, events)

    def default_order(self, state: State, seat: str) -> Order:
        frame = FLOW.top(state)
        nd = FLOW.nodes[frame["node"]] if frame else None
        if frame is None or not isinstance(nd, FFNode) or seat not in nd.waiting(state, frame["args"]):
            raise IllegalOrder(message(N_("%(seat)s has nothing to decide now"), seat=seat))
        return nd.default(state, frame["args"], seat)

    # the text side of the protocol: the game's grammar and render modules
    words = GameWords(parse_order=parse_order, format_order=format_order, grammar_help=grammar_help,
                      order_problem=order_problem, render_event=render_event, event_message=event_message,
                      render_view=render_view, order_label=order_label,
                      refusal=refusal)
    order_verbs = verbs_of(SPANISH_FIRST, VERBS)

    def invariants(self, state: State) -> list[str]:
        return violated(state)

    def evaluate(self, state: State, seat: str) -> float | None:
        return evaluation.evaluate(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if not r:
            return None
        who = " and ".join(r["winners"])
        return Outcome(winners=list(r["winners"]), scores=dict(r["scores"]),
                       summary=f"{who} win{'s' if len(r['winners']) == 1 else ''} "
                               f"after turn {r['turn']} ({r['reason']}).")


GAME = FoundingFathers()
