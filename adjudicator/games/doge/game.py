"""The Doge game module: the protocol answers, delegating to the phase modules."""

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
    message_text,
)
from adjudicator.engine.wording import verbs_of

from . import elections, evaluation, palaces, placement, scoring  # noqa: F401  (they register the flow's nodes)
from .board import houses_on_board
from .data import DEFAULT_MAX_YEARS, MAX_YEARS_CHOICES, NO_YEAR_LIMIT, RULES_VERSION, SEAT_COLOURS
from .flowbase import FLOW
from .grammar import SPANISH_FIRST, VERBS, format_order, grammar_help, order_problem, parse_order
from .invariants import violated
from .refusals import refusal
from .render import event_message, render_event, render_view
from .state import new_state, start_year

State = dict[str, Any]


class Doge(WordedGame, FlowGame):
    flow = FLOW

    info = GameInfo(
        id="doge",
        title="Doge",
        rules_version=RULES_VERSION,
        min_seats=3,
        max_seats=4,
        wait_hours=72,
        follow_up_hours=36,
        options=(
            Option(
                "max_years",
                DEFAULT_MAX_YEARS,
                MAX_YEARS_CHOICES,
                "Not a rule of the game: an adjudicator safety end that stops the game after this many "
                "years (most palaces, then most houses, win). Off by default, as in tournament play: "
                "the game then ends only when someone becomes Doge.",
                label="Year limit (adjudicator safety end, not in the rulebook)",
                choice_words=((NO_YEAR_LIMIT, "no year limit (rulebook end only)"),),
            ),
        ),
        summary="Leo Colovini, 2000. Win elections in Venice's districts and build palaces to become Doge.",
        # version 1 lacked the winner's 'no houses' choice, version 2 the runner-up's and tied
        # placers' `place-houses` decision: their records still verify
        replays=("1", "2"),
    )

    def seat_names(self, count: int, options: dict[str, Any]) -> list[str]:
        return SEAT_COLOURS[:count]

    def setup(self, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        if not self.info.min_seats <= len(seats) <= self.info.max_seats:
            raise IllegalOrder("Doge is played by 3 or 4 players")
        if len(set(seats)) != len(seats):
            raise IllegalOrder("seat names must differ")
        state = new_state(seed, seats, self.info.resolve_options(options))
        events: list[Event] = [event("game-started", seats=list(seats), rounds=state["rounds"],
                                     max_years=state["options"]["max_years"])]
        start_year(state, events)
        FLOW.start(state, "placement", round=1)
        FLOW.settle(state, events)
        return Step(state, events)

    def setup_version(self, rules_version: str, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        if rules_version not in (RULES_VERSION, *self.info.replays):
            return super().setup_version(rules_version, seed, seats, options)
        step = self.setup(seed, seats, options)
        step.state["rules_version"] = rules_version  # the nodes keep that version's prompts for it
        return step

    # the text side of the protocol: the game's grammar and render modules
    words = GameWords(parse_order=parse_order, format_order=format_order, grammar_help=grammar_help,
                      order_problem=order_problem, render_event=render_event, event_message=event_message,
                      render_view=render_view,
                      refusal=refusal)
    order_verbs = verbs_of(SPANISH_FIRST, VERBS)

    def invariants(self, state: State) -> list[str]:
        return violated(state)

    def evaluate(self, state: State, seat: str) -> float | None:
        return evaluation.evaluate(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        result = state.get("result")
        if not result:
            return None
        winners = result["winners"]
        scores = dict(result["palaces"])
        best = scores[winners[0]]
        houses = houses_on_board(state, winners[0])
        values = {"who": " and ".join(winners), "palaces": best, "houses": houses, "year": result["year"]}
        if result["reason"] == "doge":
            msgid = (N_("%(who)s share the win with %(palaces)s palaces and %(houses)s houses after year %(year)s.")
                     if len(winners) > 1 else
                     N_("%(who)s is the new Doge with %(palaces)s palaces and %(houses)s houses after year %(year)s."))
        else:
            msgid = (N_("%(who)s share the win with %(palaces)s palaces and %(houses)s houses after year %(year)s "
                        "(adjudicator safety end).") if len(winners) > 1 else
                     N_("%(who)s is the new Doge with %(palaces)s palaces and %(houses)s houses after year %(year)s "
                        "(adjudicator safety end)."))
        msg = message(msgid, **values)
        return Outcome(winners=list(winners), scores=scores, summary=message_text(msg), message=msg)


GAME = Doge()
