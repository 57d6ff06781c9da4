"""Turns 1-5 and 7-8: initiative, five activity phases, momentum phase, campaign strategy."""

from __future__ import annotations

from itertools import combinations

from adjudicator.engine import N_, Message, event, message

from . import cards as C
from .board import initiative_check, leads_issue, other, to_bag
from .data import ACTIVITY_PHASES, CARDS, DEBATE_TURN, LAST_TURN, REGIONS, SEATS
from .events import event_playable
from .flowbase import FLOW, Args, Events, N, State, node
from .modifiers import free_preempt, may_spend_momentum


def hand_size(turn: int) -> int:
    return 6 if turn < DEBATE_TURN else 7


def strategy_need(turn: int) -> int:
    return 1 if turn < DEBATE_TURN else 2


@node("turn")
class Turn(N):
    def advance(self, state: State, args: Args, events: Events) -> None:
        turn = state["turn"]
        events.append(event("turn", turn=turn))
        if turn == DEBATE_TURN:
            FLOW.goto(state, "debate_start")
            return
        if turn == LAST_TURN:
            FLOW.goto(state, "election")
            return
        state["phase"] = "initiative"
        for seat in SEATS:
            C.draw_cards(state, seat, hand_size(turn), events)
        state["initiative"] = initiative_check(state, events)
        FLOW.goto(state, "choose_first")


@node("choose_first")
class ChooseFirst(N):
    kind = "first"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [state["initiative"]]

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [{"first": s} for s in SEATS]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("You won the initiative: choose who plays first this turn "
                          "(`first kennedy` / `first nixon`)."))

    def default(self, state: State, args: Args, seat: str) -> dict:
        return {"first": other(seat)}  # making the opponent lead is usually the better choice

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        state["first"] = order["first"]
        state["ap"] = 1
        state["phase"] = "activity"
        events.append(event("first", seat=seat, first=order["first"]))
        FLOW.goto(state, "activity", i=0, stage="play")


def _keeps_strategy(state: State, seat: str, card: int | None) -> bool:
    """Playing `card` (None: the candidate card) leaves enough cards for the campaign strategy."""
    rest = [c for c in C.hand(state, seat) if c != card and C.strategy_ok(c)]
    return len(rest) >= strategy_need(state["turn"])


def play_choices(state: State, seat: str) -> list[dict]:
    """Every legal play: each card as event or for CP (with or without preempting), the
    candidate card, or a pass when nothing at all can be played."""
    opts: list[dict] = []
    cards = C.hand(state, seat)
    safe = [c for c in cards if _keeps_strategy(state, seat, c)]
    playable = safe or cards  # a hand that cannot keep a strategy card plays anything
    can_preempt = may_spend_momentum(state, seat) and (
        free_preempt(state, seat) or state["momentum"][seat] >= 2)
    for card in playable:
        opts.append({"play": card, "as": "cp"})
        if can_preempt:
            opts.append({"play": card, "as": "cp", "preempt": True})
        if event_playable(state, seat, card, from_hand=True):
            opts.append({"play": card, "as": "event"})
    vp = state.get("vp", {}).get(seat)
    if vp:  # Vice-President option: discard a card showing only one's own icon to play the VP
        for spare in playable:
            if CARDS[spare].icon != seat:
                continue
            opts.append({"play": vp, "as": "cp", "discard": spare})
            if can_preempt:
                opts.append({"play": vp, "as": "cp", "preempt": True, "discard": spare})
            if event_playable(state, seat, vp, from_hand=True):
                opts.append({"play": vp, "as": "event", "discard": spare})
    if state["candidate"][seat] == "ready":
        opts.append({"play": "candidate"})
    if not opts:
        opts.append({"pass": True})
    return opts


@node("activity")
class Activity(N):
    kind = "play"

    def current(self, state: State, args: Args) -> str:
        return state["first"] if args["i"] == 0 else other(state["first"])

    def waiting(self, state: State, args: Args) -> list[str]:
        return [self.current(state, args)] if args["stage"] == "play" else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return play_choices(state, seat)

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Turn %(turn)s, activity phase %(ap)s: play a card (%(examples)s)."), turn=state["turn"],
                       ap=state["ap"])

    def default(self, state: State, args: Args, seat: str) -> dict:
        opts = play_choices(state, seat)
        cps = [o for o in opts if o.get("as") == "cp" and not o.get("preempt")]
        if cps:  # the lowest card for CP: cheap, never helps the opponent by an own event
            return min(cps, key=lambda o: (CARDS[o["play"]].cp, o["play"]))
        return opts[0]

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        args["stage"] = "done"
        from .play import start_play

        start_play(state, seat, order, events)

    def advance(self, state: State, args: Args, events: Events) -> None:
        args["i"] += 1
        args["stage"] = "play"
        if args["i"] == 2:
            args["i"] = 0
            state["ap"] += 1
            if state["ap"] > ACTIVITY_PHASES:
                FLOW.goto(state, "momentum")


# ---------------------------------------------------------------------------------- momentum


@node("momentum")
class Momentum(N):
    def advance(self, state: State, args: Args, events: Events) -> None:
        state["phase"] = "momentum"
        for seat in SEATS:
            lost = state["momentum"][seat] // 2
            state["momentum"][seat] -= lost
        events.append(event("decay", momentum=dict(state["momentum"])))
        media = {s: sum(state["media"][r][s] for r in REGIONS) for s in SEATS}
        if media[SEATS[0]] != media[SEATS[1]]:
            FLOW.goto(state, "shift", seat=max(SEATS, key=lambda s: media[s]))
        else:
            FLOW.goto(state, "awards", stage=0)


@node("shift")
class Shift(N):
    kind = "shift"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]]

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [{"shift": k} for k in (0, 1, 2)]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("You have more media: `shift 1` swaps the 1st and 2nd issues, `shift 2` the 2nd and 3rd, "
                          "`shift none` keeps the track."))

    def default(self, state: State, args: Args, seat: str) -> dict:
        return {"shift": 0}

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        k = order["shift"]
        if k:
            track = state["track"]
            track[k - 1], track[k] = track[k], track[k - 1]
            events.append(event("shift", seat=seat, track=list(track)))
        FLOW.goto(state, "awards", stage=0)


def endorse(state: State, seat: str, region: str, events: Events) -> None:
    """One endorsement for seat in region; an opposing marker there is removed instead."""
    spot = state["endorse"][region]
    opp = other(seat)
    if spot[opp] > 0:
        spot[opp] -= 1
        events.append(event("endorse", seat=seat, region=region, did="removed"))
    else:
        spot[seat] += 1
        events.append(event("endorse", seat=seat, region=region, did="placed"))


def draw_endorsement(state: State, seat: str, events: Events) -> None:
    card = C.draw_endorsement(state, events)
    from .data import ENDORSEMENTS

    region = ENDORSEMENTS[card]
    events.append(event("endorsement_card", seat=seat, card=card, region=region))
    if region == "any":
        FLOW.call(state, "endorse_pick", seat=seat)
    else:
        endorse(state, seat, region, events)


@node("awards")
class Awards(N):
    """3rd issue: 1 momentum; 2nd: momentum or endorsement; 1st: both; then issue decay."""

    def advance(self, state: State, args: Args, events: Events) -> None:
        stage = args["stage"]
        args["stage"] += 1
        if stage == 0:
            lead = leads_issue(state, state["track"][2])
            if lead:
                state["momentum"][lead] += 1
                events.append(event("award", seat=lead, issue=state["track"][2], got="momentum"))
        elif stage == 1:
            lead = leads_issue(state, state["track"][1])
            if lead:
                FLOW.call(state, "award_choice", seat=lead)
        elif stage == 2:
            lead = leads_issue(state, state["track"][0])
            if lead:
                state["momentum"][lead] += 1
                events.append(event("award", seat=lead, issue=state["track"][0], got="momentum and endorsement"))
                draw_endorsement(state, lead, events)
        else:
            for issue in state["track"]:
                lead = leads_issue(state, issue)
                if lead:
                    state["issues"][issue][lead] -= 1
                    state["supply"][lead] += 1
            events.append(event("issue_decay"))
            FLOW.goto(state, "strategy")


@node("award_choice")
class AwardChoice(N):
    kind = "award"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]]

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [{"award": "momentum"}, {"award": "endorsement"}]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("You lead the 2nd issue: `award momentum` or `award endorsement`."))

    def default(self, state: State, args: Args, seat: str) -> dict:
        return {"award": "momentum"}

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        FLOW.ret(state)
        events.append(event("award", seat=seat, issue=state["track"][1], got=order["award"]))
        if order["award"] == "momentum":
            state["momentum"][seat] += 1
        else:
            draw_endorsement(state, seat, events)


@node("endorse_pick")
class EndorsePick(N):
    kind = "endorse"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]]

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [{"endorse": r} for r in REGIONS]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("An endorsement for any region: `endorse west` (or midwest, east, south)."))

    def default(self, state: State, args: Args, seat: str) -> dict:
        opp = other(seat)
        for r in REGIONS:  # removing an opposing marker first is the natural default
            if state["endorse"][r][opp]:
                return {"endorse": r}
        return {"endorse": REGIONS[0]}

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        FLOW.ret(state)
        endorse(state, seat, order["endorse"], events)


# ------------------------------------------------------------------------- campaign strategy


def strategy_choices(state: State, seat: str, need: int) -> list[dict]:
    ok = sorted(c for c in C.hand(state, seat) if C.strategy_ok(c))
    k = min(need, len(ok))
    return [{"strategy": list(combo)} for combo in combinations(ok, k)]


@node("strategy")
class Strategy(N):
    kind = "strategy"

    def need(self, state: State) -> int:
        return strategy_need(state["turn"])

    def waiting(self, state: State, args: Args) -> list[str]:
        return [s for s in SEATS if len(strategy_choices(state, s, self.need(state))) > 1]

    def group(self, state: State, args: Args, waiting: list[str]) -> str | None:
        return f"strategy-{state['turn']}"

    def choices(self, state: State, args: Args, seat: str) -> list:
        return strategy_choices(state, seat, self.need(state))

    def text(self, state: State, args: Args, seat: str) -> Message:
        n = self.need(state)
        if n > 1:
            return message(N_("Campaign strategy: set aside %(n)s cards face down (e.g. %(examples)s); the rest of "
                              "your hand is discarded."), n=n)
        return message(N_("Campaign strategy: set aside %(n)s card face down (e.g. %(examples)s); the rest of your "
                          "hand is discarded."), n=n)

    def default(self, state: State, args: Args, seat: str) -> dict:
        opts = strategy_choices(state, seat, self.need(state))
        return max(opts, key=lambda o: (sum(CARDS[c].cp for c in o["strategy"]), [-c for c in o["strategy"]]))

    def apply(self, state: State, args: Args, orders: dict, events: Events) -> None:
        for seat in SEATS:
            order = orders.get(seat) or strategy_choices(state, seat, self.need(state))[0]
            self.keep(state, seat, order["strategy"], events)
        self.finish(state, events)

    def advance(self, state: State, args: Args, events: Events) -> None:
        self.apply(state, args, {}, events)

    def keep(self, state: State, seat: str, chosen: list[int], events: Events) -> None:
        for card in chosen:
            C.take_from_hand(state, seat, card)
            C.strategy(state, seat).append(card)
        C.strategy(state, seat).sort()
        rest = C.hand(state, seat)
        state["discard"].extend(rest)
        events.append(event("strategy", seat=seat, n=len(chosen), discarded=list(rest)))
        rest.clear()

    def finish(self, state: State, events: Events) -> None:
        for seat in SEATS:  # rest cubes go into the bag
            n = state["rest"][seat]
            state["rest"][seat] = 0
            state["bag"][seat] += n
        events.append(event("rest", bag=dict(state["bag"])))
        end_turn(state, events)
        FLOW.goto(state, "turn")


def end_turn(state: State, events: Events) -> None:
    """Rest-of-turn events end; their cards leave the game."""
    state["removed"].extend(state["boxes"]["turn"])
    state["boxes"]["turn"] = []
    state["effects"] = []
    state["turn"] += 1
    state["ap"] = 0
    state["first"] = None


__all__ = ["Turn", "to_bag", "leads_issue"]
