"""Playing a card: rest cubes, events, campaign points (campaigning, advertising, positioning),
preempting and triggering."""

from __future__ import annotations

from adjudicator.engine import N_, Message, event, message

from . import cards as C
from .board import bare_check, gain, media_total, other
from .data import CANDIDATE_CP, CARDS, ISSUES, REGIONS, STATES, area
from .events import event_playable, pay_event_tax
from .flowbase import FLOW, Args, Events, N, State, node
from .modifiers import (
    active,
    add_state_support,
    campaign_banned,
    cp_value,
    free_preempt,
    may_spend_momentum,
    needs_check,
    redraws,
    travel,
)
from .versions import since


def start_play(state: State, seat: str, order: dict, events: Events) -> None:
    if order.get("pass"):
        events.append(event("pass", seat=seat))
        return
    if order["play"] == "candidate":
        state["candidate"][seat] = "exhausted"
        events.append(event("play", seat=seat, card="candidate", use="cp"))
        FLOW.call(state, "cp", seat=seat, card=None, action=None, left=0, issues=[])
        return
    card = order["play"]
    if "discard" in order:  # Vice-President option: the VP card is played, a hand card discarded
        C.take_from_hand(state, seat, order["discard"])
        state["discard"].append(order["discard"])
        state["vp"][seat] = None
        events.append(event("vice_president", seat=seat, card=card, discarded=order["discard"]))
    else:
        C.take_from_hand(state, seat, card)
    rest = CARDS[card].rest
    state["supply"][seat] -= rest
    state["rest"][seat] += rest
    state["played"].append({"card": card, "seat": seat, "use": order["as"]})
    preempt = bool(order.get("preempt"))
    events.append(event("play", seat=seat, card=card, use=order["as"], preempt=preempt, rest=rest))
    if order["as"] == "event":
        pay_event_tax(state, seat, events)
        pledge(state, seat, events)
        FLOW.call(state, "event", card=card, seat=seat, i=0, picked=None)
        return
    if preempt and not free_preempt(state, seat):
        state["momentum"][seat] -= 2
    FLOW.call(state, "after_cp", seat=seat, card=card, preempt=preempt)
    FLOW.call(state, "cp", seat=seat, card=card, action=None, left=0, issues=[])


def pledge(state: State, seat: str, events: Events) -> None:
    """Nixon's Pledge: each non-campaigning play by Nixon gives Kennedy 1 momentum."""
    if seat == "nixon" and active(state, 76):
        state["momentum"]["kennedy"] += 1
        events.append(event("momentum", seat="kennedy", n=1, why=76))


def printed_cp(card: int | None) -> int:
    return CANDIDATE_CP if card is None else CARDS[card].cp


def may_campaign(state: State, seat: str) -> bool:
    if seat == "nixon" and active(state, 2):  # Nixon's Knee: 1 momentum per campaigning card
        return state["momentum"][seat] >= 1 and may_spend_momentum(state, seat)
    return True


def declared(state: State, seat: str, campaigned: list[str]) -> list[str]:
    """The states of this play whose declaration is final: campaigned in already, and still
    under support checks.

    "Los jugadores que hagan campaña en un estado en el que se les requiera realizar
    comprobaciones de apoyo primero deben declarar cuántos puntos de campaña se gastarán allí
    durante esa fase de actividad": the number declared is all the CP that state gets in the
    play, so no second, smaller declaration after seeing the draw. Checks cannot start to apply
    during one's own play (the opponent's cubes only go down, his token and the media stay), so
    a state campaigned in that needs checks now needed them then; one that no longer needs them
    (its carry was broken) may be campaigned in again. Older rules versions allowed it anyway."""
    if not since(state, "gmt-2017-3"):
        return []
    return sorted({a for a in campaigned if a in STATES and needs_check(state, seat, a, True)})


def campaign_orders(state: State, seat: str, left: int, final: list[str] | tuple[str, ...] = ()) -> list[dict]:
    """Campaign and travel orders with `left` CP; `final`: states whose declaration is made."""
    opts = []
    for abbr in STATES:
        if campaign_banned(state, seat, abbr) or abbr in final:
            continue
        cost = travel(state, seat, abbr)
        opts += [{"campaign": abbr, "n": n} for n in range(1, left - cost + 1)]
    here = area(state["tokens"][seat])
    for abbr in STATES:
        if area(abbr) != here and travel(state, seat, abbr) <= left:
            opts.append({"travel": abbr})
    return opts


def position_orders(state: State, seat: str, card: int | None, left: int, done: list[str]) -> list[dict]:
    opts = []
    banned = CARDS[card].issue if card and state["options"].get("restricted_positioning") else None
    for issue in ISSUES:
        if issue == banned:
            continue
        for n in range(1, 6):
            cost = 2 * n if issue in done else 2 * n - 1
            if cost <= left:
                opts.append({"position": issue, "n": n})
    return opts


@node("cp")
class CampaignPoints(N):
    kind = "cp"

    def waiting(self, state: State, args: Args) -> list[str]:
        if args["action"] is not None and args["left"] <= 0:
            return []
        return [args["seat"]]

    def value(self, state: State, args: Args, use: str) -> int:
        if "printed" in args:  # CP granted by an event are not a card play: no modifiers
            return args["printed"]
        return cp_value(state, args["seat"], printed_cp(args["card"]), use)

    def choices(self, state: State, args: Args, seat: str) -> list:
        action = args["action"]
        if action is None:
            opts: list[dict] = [{"advertise": True}]
            if may_campaign(state, seat):
                opts += campaign_orders(state, seat, self.value(state, args, "campaign"))
            opts += position_orders(state, seat, args["card"], self.value(state, args, "position"), [])
            return opts
        if action == "campaign":
            opts = campaign_orders(state, seat, args["left"], declared(state, seat, args["issues"]))
            if args.get("one_per_state"):  # Whistlestop: at most 1 CP in any one state
                opts = [o for o in opts if o.get("n", 1) == 1 and o.get("campaign") not in args["issues"]]
            return [*opts, {"done": True}]
        return [*position_orders(state, seat, args["card"], args["left"], args["issues"]), {"done": True}]

    def text(self, state: State, args: Args, seat: str) -> Message:
        if args["action"] is None:
            return message(N_("%(budget)s, on one action: e.g. %(examples)s."),
                           budget=self.budget(state, args))
        final = declared(state, seat, args["issues"]) if args["action"] == "campaign" else []
        if final:
            return message(N_("%(left)s CP left; what you declared in %(states)s is final for this play, "
                              "e.g. %(examples)s."), left=args["left"], states=", ".join(final))
        return message(N_("%(left)s CP left, e.g. %(examples)s."), left=args["left"])

    def budget(self, state: State, args: Args) -> Message:
        """The CP the seat has to spend, in words: one number, or one per action when a card's
        modifiers make them differ."""
        if args["action"] is not None:
            return message(N_("%(left)s CP left"), left=args["left"])
        cp = {use: self.value(state, args, use) for use in ("campaign", "advertise", "position")}
        if len(set(cp.values())) == 1:
            return message(N_("%(cp)s CP to spend"), cp=cp["campaign"])
        return message(N_("%(campaign)s CP to campaign, %(advertise)s to advertise or %(position)s to position"), **cp)

    def default(self, state: State, args: Args, seat: str) -> dict:
        opts = self.choices(state, args, seat)
        if args["action"] is None:
            return {"advertise": True}  # always legal, never wastes a point
        if args["action"] == "campaign":  # one cube in the biggest state the token need not leave
            here = [o for o in opts if o.get("n") == 1 and travel(state, seat, o["campaign"]) == 0]
            if here:
                return max(here, key=lambda o: (STATES[o["campaign"]].ev, o["campaign"]))
        return {"done": True}

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        if order.get("done"):
            events.append(event("cp_done", seat=seat, left=args["left"]))
            args["left"] = 0
            return
        if args["action"] is None:
            self.begin(state, args, seat, order, events)
        if order.get("advertise"):
            return
        if "travel" in order:
            cost = travel(state, seat, order["travel"])
            state["tokens"][seat] = order["travel"]
            args["left"] -= cost
            events.append(event("travel", seat=seat, to=order["travel"], cost=cost))
        elif "campaign" in order:
            abbr, n = order["campaign"], order["n"]
            cost = travel(state, seat, abbr)
            state["tokens"][seat] = abbr
            args["left"] -= cost + n
            args["issues"].append(abbr)  # (also records the states campaigned in)
            add_state_support(state, seat, abbr, n, events, campaigning=True)
        else:
            issue, n = order["position"], order["n"]
            args["left"] -= 2 * n if issue in args["issues"] else 2 * n - 1
            args["issues"].append(issue)
            for _ in range(n):
                gain(state, "issues", issue, seat, events)

    def advance(self, state: State, args: Args, events: Events) -> None:
        FLOW.ret(state)

    def begin(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        use = "advertise" if order.get("advertise") else "position" if "position" in order else "campaign"
        args["action"] = use
        args["left"] = self.value(state, args, use)
        events.append(event("action", seat=seat, action=use, cp=args["left"]))
        if use == "campaign" and seat == "nixon" and active(state, 2):
            state["momentum"][seat] -= 1
            events.append(event("momentum", seat=seat, n=-1, why=2))
        if use != "campaign":
            pledge(state, seat, events)
        if use == "advertise":
            wins = 0
            for _ in range(args["left"]):
                if bare_check(state, seat, "media", events, redraw=redraws(state, seat)):
                    wins += 1
            args["left"] = 0
            if wins:
                FLOW.call(state, "media_place", seat=seat, n=wins)


@node("media_place")
class MediaPlace(N):
    kind = "media"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]] if args["n"] > 0 else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [{"media": r} for r in REGIONS]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Place %(n)s media cube(s), one at a time: %(examples)s."), n=args["n"])

    def default(self, state: State, args: Args, seat: str) -> dict:
        opp = other(seat)
        for r in REGIONS:
            if state["media"][r][opp]:
                return {"media": r}
        return {"media": min(REGIONS, key=lambda r: (state["media"][r][seat], REGIONS.index(r)))}

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        gain(state, "media", order["media"], seat, events)
        args["n"] -= 1

    def advance(self, state: State, args: Args, events: Events) -> None:
        FLOW.ret(state)


def can_trigger(state: State, seat: str, card: int) -> bool:
    return (state["momentum"][seat] >= 1 and may_spend_momentum(state, seat)
            and event_playable(state, seat, card, from_hand=False))


@node("after_cp")
class AfterCampaignPoints(N):
    """After a CP play: the opponent may trigger the event for 1 momentum unless preempted."""

    def advance(self, state: State, args: Args, events: Events) -> None:
        opp = other(args["seat"])
        if not args["preempt"] and can_trigger(state, opp, args["card"]):
            FLOW.goto(state, "trigger", seat=opp, card=args["card"])
            return
        discard_played(state, args["card"], events)
        FLOW.ret(state)


def discard_played(state: State, card: int, events: Events) -> None:
    top = state["played"].pop()
    assert top["card"] == card
    state["discard"].append(card)


@node("trigger")
class Trigger(N):
    kind = "trigger"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]]

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [{"trigger": True}, {"trigger": False}]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Trigger the event of %(card)s for 1 momentum? (`trigger` / `no trigger`)"),
                       card=C.card_name(args["card"]))

    def default(self, state: State, args: Args, seat: str) -> dict:
        return {"trigger": False}

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        card = args["card"]
        if not order["trigger"]:
            events.append(event("trigger", seat=seat, card=card, yes=False))
            discard_played(state, card, events)
            FLOW.ret(state)
            return
        state["momentum"][seat] -= 1
        state["played"][-1]["use"] = "trigger"
        events.append(event("trigger", seat=seat, card=card, yes=True))
        FLOW.goto(state, "event", card=card, seat=seat, i=0, picked=None)


def media_count(state: State, seat: str) -> int:
    return media_total(state, seat)
