"""Phase two of a year: the seven elections, the advisors and the houses they bring."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, Event, Message, Order, event, message

from .aims import district_winner_move, helpful_move
from .board import (
    advisor_votes,
    can_take,
    district_advisor,
    houses_on_board,
    move_choices,
    move_house,
    neutral_quarantia_advisor,
    next_serial,
    place_houses,
    release_advisor,
    take_advisor,
)
from .data import AREA_NAMES, AREAS, DISTRICTS, QUARANTIA, QUARANTIA_ADVISORS
from .flowbase import FLOW, DogeNode, node
from .palaces import build_task

State = dict[str, Any]
ABSTAIN: Order = {"abstain": True}


def rank(state: State, totals: dict[str, int]) -> tuple[list[str], list[str]]:
    """Winners (several = a tie for first) and runners-up (empty when first place is tied).

    A total of 0 never wins or places: a lone 0 marker counts as no marker at all.
    """
    positive = {s: v for s, v in totals.items() if v > 0}
    if not positive:
        return [], []
    top = max(positive.values())
    winners = [s for s in state["seats"] if positive.get(s) == top]
    if len(winners) > 1:
        return winners, []
    rest = [v for s, v in positive.items() if v < top]
    if not rest:
        return winners, []
    second = max(rest)
    return winners, [s for s in state["seats"] if positive.get(s) == second]


def count_votes(state: State, area: str) -> tuple[dict[str, list[int]], dict[str, int], dict[str, int]]:
    """Turn the area's markers face up (they leave the board) and add the advisors' votes."""
    markers: dict[str, list[int]] = {}
    for seat in state["seats"]:
        placed = state["private"][seat]["ballots"].pop(area, None)
        if placed is not None:
            markers[seat] = placed
    state["ballots"][area] = {}
    advisors = advisor_votes(state, area)
    totals = {
        s: sum(markers.get(s, [])) + advisors.get(s, 0)
        for s in state["seats"]
        if s in markers or s in advisors
    }
    return markers, advisors, totals


def begin_election(state: State, area: str, events: list[Event]) -> None:
    markers, advisors, totals = count_votes(state, area)
    winners, runners = rank(state, totals)
    number = len(state["voting"]["used"]) + 1
    state["election"] = {
        "area": area, "number": number, "totals": totals, "winners": winners, "runners_up": runners,
    }
    events.append(event(
        "election", year=state["year"], number=number, area=area, markers=markers, advisors=advisors,
        totals=totals, winners=winners, runners_up=runners,
    ))
    if not winners:
        return  # nobody has a vote: the advisors stay exactly as they are
    if area == QUARANTIA:
        schedule_quarantia(state, winners, runners, events)
    else:
        schedule_district(state, area, winners, runners, events)


def schedule_district(state: State, area: str, winners: list[str], runners: list[str], events: list[Event]) -> None:
    if len(winners) > 1:
        advisor = district_advisor(area)
        previous = state["advisors"][advisor]["owner"]
        release_advisor(state, advisor)
        events.append(event("advisor-neutral", advisor=advisor, previous=previous, seat=None, reason="tie"))
        # each frame gets its own list: `apply` removes decliners from it, and a step applied in
        # place (replay, random play) must not change the election's winners with it
        FLOW.schedule(state, [("place", {"seats": list(winners), "area": area, "count": 2,
                                         **asking(state, winners)})])
        return
    tasks: list[tuple[str, dict[str, Any]]] = [
        ("district-winner", {"seat": winners[0], "area": area}),
        ("place", {"seats": list(winners), "area": area, "count": 2}),  # the winner answers in district-winner
    ]
    if runners:
        tasks.append(("place", {"seats": list(runners), "area": area, "count": 1, **asking(state, runners)}))
    FLOW.schedule(state, tasks)


def asking(state: State, seats: list[str]) -> dict[str, Any]:
    """Rules version 3: tied winners and runners-up are asked whether they place their houses
    ("puede colocar"); versions 1 and 2 placed them unasked, and their records replay so."""
    if state["rules_version"] in ("1", "2"):
        return {}
    return {"ask": list(seats), "group": f"year-{state['year']}-place-{next_serial(state)}"}


def schedule_quarantia(state: State, winners: list[str], runners: list[str], events: list[Event]) -> None:
    previous = {a: state["advisors"][a]["owner"] for a in QUARANTIA_ADVISORS}
    for advisor in QUARANTIA_ADVISORS:
        release_advisor(state, advisor)
    events.append(event("quarantia-neutralised", previous=previous))
    tasks: list[tuple[str, dict[str, Any]]] = []
    if len(winners) > 1:
        for seat in winners:
            tasks += [("house-move", {"seat": seat, "left": 2})]
        FLOW.schedule(state, tasks)
        return
    winner = winners[0]
    tasks.append(("quarantia-step", {"seat": winner, "role": "winner"}))
    if len(runners) == 1:
        tasks.append(("quarantia-step", {"seat": runners[0], "role": "runner-up"}))
    else:
        tasks += [("house-move", {"seat": seat, "left": 1}) for seat in runners]
    tasks.append(("quarantia-step", {"seat": winner, "role": "winner"}))
    FLOW.schedule(state, tasks)


def houses_may_be_declined(state: State, seat: str) -> bool:
    """Rules version 2 lets a district winner with houses in supply decline them; a replayed
    version-1 record keeps the old prompt (houses always placed)."""
    return state["rules_version"] != "1" and state["supply"][seat]["houses"] > 0


def decline_houses(state: State, seat: str, area: str, events: list[Event]) -> None:
    """The winner gives up his 2 houses: the place frame scheduled after this decision skips him."""
    frame = FLOW.stack(state)[-2]
    assert frame["node"] == "place" and frame["args"]["seats"] == [seat], frame
    frame["args"]["seats"] = []
    events.append(event("houses-declined", seat=seat, area=area, count=frame["args"]["count"]))


def after_move(state: State, seat: str, move: list[str] | None, events: list[Event]) -> None:
    """End the current decision; a house that arrived in a district may let its owner build."""
    FLOW.ret(state)
    if move is not None:
        move_house(state, seat, move[0], move[1], events)
        FLOW.schedule(state, [build_task(state, [seat], move[1])])


@node("elections")
class Elections(DogeNode):
    """Procedure: closes the election just held and opens the next one, or ends the year."""

    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        voting = state["voting"]
        if args.get("area"):
            done = voting["current"].pop(0)
            voting["used"].append(done)
            turned = state["secret"]["hidden"].pop(0)
            voting["next"].append(turned)
            state["election"] = None
            args["area"] = None
            events.append(event("voting-card-turned", done=done, turned=turned))
        if not voting["current"]:
            FLOW.goto(state, "year-end")
            return
        args["area"] = voting["current"][0]
        begin_election(state, args["area"], events)


@node("place")
class Place(DogeNode):
    """Election winners and runners-up put houses into the district. Seats listed in `ask` (tied
    winners, runners-up: rules version 3) first say whether they place them, together and sealed
    when several are asked; a seat without houses in supply is not asked and loses the placement."""

    kind = "place-houses"

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        return [s for s in args.get("ask", ()) if state["supply"][s]["houses"] > 0]

    def group(self, state: State, args: dict[str, Any], waiting: list[str]) -> str | None:
        return args["group"] if len(waiting) > 1 else None

    def choices(self, state: State, args: dict[str, Any], seat: str) -> list[Order]:
        return [{"houses": True}, {"houses": False}]

    def message(self, state: State, args: dict[str, Any], seat: str) -> Message:
        return message(N_("You may place %(count)s house(s) from your supply in %(area)s: place them, "
                          "or answer 'no houses'."), count=args["count"], area=AREA_NAMES[args["area"]])

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        return {"houses": True}  # a missed deadline keeps the old behaviour: the houses are placed

    def apply(self, state: State, args: dict[str, Any], orders: dict[str, Order], events: list[Event]) -> None:
        self.check(state, args, orders)
        for seat in [s for s in state["seats"] if s in orders]:
            args["ask"].remove(seat)
            if orders[seat]["houses"] is False:
                args["seats"].remove(seat)
                events.append(event("houses-declined", seat=seat, area=args["area"], count=args["count"]))

    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        placed = [s for s in args["seats"] if place_houses(state, args["area"], s, args["count"], events)]
        FLOW.ret(state)
        if placed:
            FLOW.schedule(state, [build_task(state, placed, args["area"])])


@node("district-winner")
class DistrictWinner(DogeNode):
    kind = "district-advisor"

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        seat = args["seat"]
        decides = (can_take(state, seat, district_advisor(args["area"])) or houses_on_board(state, seat) > 0
                   or houses_may_be_declined(state, seat))  # placing his 2 houses is his choice too
        return [seat] if decides else []

    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        self.apply(state, args, {args["seat"]: dict(ABSTAIN)}, events, checked=True)

    def choices(self, state: State, args: dict[str, Any], seat: str) -> list[Order]:
        area = args["area"]
        result: list[Order] = []
        if can_take(state, seat, district_advisor(area)):
            result += [{"take": a} for a in AREAS if a != area]
        result.append(dict(ABSTAIN))
        others = [d for d in DISTRICTS if d != area]
        moves = move_choices(state, seat, [area], others) + move_choices(state, seat, others, [area])
        result += [{"abstain": True, "move": m} for m in moves]
        if houses_may_be_declined(state, seat):
            # "puede colocar 2 casas": the houses are a right, so each answer has a variant without them
            result += [{**order, "houses": False} for order in result]
        return result

    def message(self, state: State, args: dict[str, Any], seat: str) -> Message:
        return message(N_("You won %(area)s: take its advisor and stand it in another area, or abstain (the "
                          "advisor turns neutral) and optionally move one house into or out of %(area)s. "
                          "Then you place 2 houses there, unless you add 'no houses'."),
                       area=AREA_NAMES[args["area"]])

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        # Abstain and place the houses; bring back a house that no longer helps elsewhere when
        # that helps towards a palace here (aims.py).
        move = district_winner_move(state, seat, args["area"])
        return {"abstain": True, "move": move} if move else dict(ABSTAIN)

    def apply(
        self, state: State, args: dict[str, Any], orders: dict[str, Order], events: list[Event], checked: bool = False
    ) -> None:
        if not checked:
            self.check(state, args, orders)
        seat, order = args["seat"], orders[args["seat"]]
        advisor = district_advisor(args["area"])
        if order.get("houses") is False:
            decline_houses(state, seat, args["area"], events)
        if "take" in order:
            take_advisor(state, seat, advisor, order["take"], events)
            FLOW.ret(state)
            return
        previous = state["advisors"][advisor]["owner"]
        release_advisor(state, advisor)
        events.append(event("advisor-neutral", advisor=advisor, previous=previous, seat=seat, reason="abstain"))
        after_move(state, seat, order.get("move"), events)


@node("quarantia-step")
class QuarantiaStep(DogeNode):
    kind = "quarantia-advisor"

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        seat = args["seat"]
        can = state["supply"][seat]["rings"] > 0 and neutral_quarantia_advisor(state) is not None
        return [seat] if can or houses_on_board(state, seat) > 0 else []

    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        self.apply(state, args, {args["seat"]: dict(ABSTAIN)}, events, checked=True)

    def choices(self, state: State, args: dict[str, Any], seat: str) -> list[Order]:
        result: list[Order] = []
        if state["supply"][seat]["rings"] > 0 and neutral_quarantia_advisor(state) is not None:
            result += [{"take": d} for d in DISTRICTS]
        result.append(dict(ABSTAIN))
        result += [{"abstain": True, "move": m} for m in move_choices(state, seat, DISTRICTS, DISTRICTS)]
        return result

    def message(self, state: State, args: dict[str, Any], seat: str) -> Message:
        if args["role"] == "winner":
            return message(N_("Quarantia (winner): take a neutral Quarantia advisor and stand it in a district, "
                              "or abstain and optionally move one of your houses from one district to another."))
        return message(N_("Quarantia (runner-up): take a neutral Quarantia advisor and stand it in a district, "
                          "or abstain and optionally move one of your houses from one district to another."))

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        # Abstain, moving a house that no longer helps towards a palace district (aims.py).
        move = helpful_move(state, seat, DISTRICTS)
        return {"abstain": True, "move": move} if move else dict(ABSTAIN)

    def apply(
        self, state: State, args: dict[str, Any], orders: dict[str, Order], events: list[Event], checked: bool = False
    ) -> None:
        if not checked:
            self.check(state, args, orders)
        seat, order = args["seat"], orders[args["seat"]]
        if "take" in order:
            advisor = neutral_quarantia_advisor(state)
            assert advisor is not None
            take_advisor(state, seat, advisor, order["take"], events)
            FLOW.ret(state)
            return
        events.append(event("quarantia-abstained", seat=seat, role=args["role"]))
        after_move(state, seat, order.get("move"), events)


@node("house-move")
class HouseMove(DogeNode):
    """An optional house move after a Quarantia tie; `left` counts the moves still allowed."""

    kind = "house-move"

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        return [args["seat"]] if houses_on_board(state, args["seat"]) > 0 else []

    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        events.append(event("move-passed", seat=args["seat"], skipped=args["left"]))
        FLOW.ret(state)

    def choices(self, state: State, args: dict[str, Any], seat: str) -> list[Order]:
        moves = move_choices(state, seat, DISTRICTS, DISTRICTS)
        return [{"pass": True}] + [{"move": m} for m in moves]

    def message(self, state: State, args: dict[str, Any], seat: str) -> Message:
        return message(N_("Quarantia tie: you may move one of your houses from one district to another "
                          "(%(left)s move(s) left), or pass."), left=args["left"])

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        return {"pass": True}

    def apply(self, state: State, args: dict[str, Any], orders: dict[str, Order], events: list[Event]) -> None:
        self.check(state, args, orders)
        seat, order = args["seat"], orders[args["seat"]]
        if "pass" in order:
            events.append(event("move-passed", seat=seat, skipped=args["left"]))
            FLOW.ret(state)  # passing gives up the remaining moves as well
            return
        left = args["left"] - 1
        FLOW.ret(state)
        if left:
            FLOW.call(state, "house-move", seat=seat, left=left)
        move_house(state, seat, order["move"][0], order["move"][1], events)
        FLOW.schedule(state, [build_task(state, [seat], order["move"][1])])
