"""The China game module: the protocol answers, delegating to the rules modules."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import (
    N_,
    Event,
    FlowGame,
    GameInfo,
    GameWords,
    IllegalOrder,
    Option,
    Outcome,
    Step,
    WordedGame,
    event,
    message,
    redact,
)
from adjudicator.engine.wording import verbs_of

from . import evaluation
from . import invariants as checks
from .boardfile import BOARDS, BUILTIN_BOARD
from .components import SEAT_COLOURS
from .grammar import SPANISH_FIRST, VERBS, format_order, grammar_help, order_problem, parse_order
from .refusals import refusal
from .render import event_message, render_event, render_view
from .state import FORTIFICATION_SCORING, RULES_VERSION, SIDE_CHOICES, VERSIONS, State, new_state
from .turn import FLOW


class China(WordedGame, FlowGame):
    flow = FLOW

    info = GameInfo(
        id="china",
        title="China",
        rules_version=RULES_VERSION,
        min_seats=3,
        max_seats=5,
        wait_hours=48,
        follow_up_hours=36,
        options=(
            Option("side", "auto", SIDE_CHOICES,
                   "Board side. Only 4 players choose (3-4 or 4-5); auto: 3-4 for 3 and 4 players, "
                   "4-5 for 5 players."),
            Option("board", BUILTIN_BOARD, help="The board: the built-in stand-in geometry, or a board "
                   "transcribed from the printed game and installed on this server (pbem boards install).",
                   library=BOARDS),
            Option("fortifications", False, (False, True),
                   "The variant for experienced players: each player has one fortification."),
            Option("fortification_scoring", "neutral", FORTIFICATION_SCORING,
                   "With fortifications: neutral (the rulebook: a fortified house scores as any house) or "
                   "double (a play report's value: its owner's points in that region and a road row through "
                   "it count double).", label="Fortified house scoring",
                   choice_words=(("neutral", "neutral (the rulebook)"), ("double", "double (a play report)"))),
        ),
        replays=VERSIONS[:-1],  # version 1 records replay with version 1's scoring (scoring.py)
        summary="Michael Schacht, 2005. Build houses and send emissaries across nine regions of China.",
    )

    def seat_names(self, count: int, options: dict[str, Any]) -> list[str]:
        return SEAT_COLOURS[:count]

    def setup(self, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        return self._setup(seed, seats, self.info.resolve_options(options), RULES_VERSION)

    def setup_version(self, rules_version: str, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        if rules_version != VERSIONS[0]:
            return super().setup_version(rules_version, seed, seats, options)
        resolved = self.info.resolve_options(options)
        if "fortification_scoring" not in options:  # version 1 had no such option: its states lack it
            del resolved["fortification_scoring"]
        return self._setup(seed, seats, resolved, rules_version)

    def _setup(self, seed: str, seats: list[str], options: dict[str, Any], rules_version: str) -> Step:
        if not self.info.min_seats <= len(seats) <= self.info.max_seats:
            raise IllegalOrder(message(N_("China is played by 3, 4 or 5 players")))
        if len(set(seats)) != len(seats):
            raise IllegalOrder(message(N_("seat names must differ")))
        state = new_state(seed, seats, options, rules_version)
        events: list[Event] = [event("game-started", seats=list(seats), side=state["board"], board=state["board_set"],
                                     stand_in=state["stand_in_board"], options=state["options"])]
        FLOW.start(state, "turn")
        FLOW.settle(state, events)
        return Step(state, events)

    def view(self, state: State, seat: str | None) -> State:
        view = redact(state, seat)
        # Derived public facts: how many cards each seat holds and how many are left in the deck.
        view["hand_sizes"] = {s: len(part["hand"]) for s, part in state["private"].items()}
        view["deck_size"] = len(state["secret"]["deck"])
        return view

    # the text side of the protocol: the game's grammar and render modules
    words = GameWords(parse_order=parse_order, format_order=format_order, grammar_help=grammar_help,
                      order_problem=order_problem, render_event=render_event, event_message=event_message,
                      render_view=render_view,
                      refusal=refusal)
    order_verbs = verbs_of(SPANISH_FIRST, VERBS)

    def invariants(self, state: State) -> list[str]:
        return checks.check(state)

    def evaluate(self, state: State, seat: str) -> float | None:
        return evaluation.evaluate(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        result = state.get("result")
        if not result:
            return None
        winners = list(result["winners"])
        scores = dict(result["scores"])
        who = " and ".join(winners)
        verb = "share the throne" if len(winners) > 1 else "is the new Emperor"
        tied = sum(1 for p in scores.values() if p == scores[winners[0]]) > len(winners)
        tie = f" (tie broken by {result['pieces_left'][winners[0]]} pieces left in supply)" if tied else ""
        return Outcome(winners=winners, scores=scores, summary=f"{who} {verb} with {scores[winners[0]]} points{tie}.")


GAME = China()
