"""Which events may be played now, and the choices an event asks for: the nodes its steps call
(resolve.py runs the steps)."""

from __future__ import annotations

from adjudicator.engine import N_, Message, event, message

from . import cards as C
from .board import gain, lose, other
from .data import CARDS, ISSUES, REGIONS, STATES
from .effects import EVENTS
from .flowbase import FLOW, Args, Events, N, State, node
from .modifiers import active, add_state_support, may_spend_momentum, needs_check, prevented
from .versions import since


def implemented(card: int) -> bool:
    return card in EVENTS


def event_playable(state: State, seat: str, card: int, *, from_hand: bool) -> bool:
    if not implemented(card) or prevented(state, card):
        return False
    if from_hand and seat == "nixon" and active(state, 85):  # Jackie Kennedy: 1 momentum per event
        return state["momentum"][seat] >= 1 and may_spend_momentum(state, seat)
    return True


def pay_event_tax(state: State, seat: str, events: Events) -> None:
    if seat == "nixon" and active(state, 85):
        state["momentum"][seat] -= 1
        events.append(event("momentum", seat=seat, n=-1, why=85))


# ------------------------------------------------------------------------------ choice nodes


def place_choices(state: State, args: Args) -> list[dict]:
    opts = []
    for abbr in args["states"]:
        if abbr in args["placed"] and final_declaration(state, args, abbr):
            continue
        room = min(args["n"], args["cap"] - args["placed"].get(abbr, 0))
        opts += [{"support": abbr, "n": k} for k in range(1, room + 1)]
    return opts


def final_declaration(state: State, args: Args, abbr: str) -> bool:
    """Was the support placed in `abbr` by this event a declaration, still under checks?

    "Al igual que con las campañas, los jugadores que deseen agregar múltiples apoyos estatales a
    un estado en el que se requieran cheques de apoyo, primero deben declarar cuántos apoyos se
    agregarán allí antes de robar el número declarado de cubos": like a campaign's (play.declared),
    the number declared is all that state gets from the event (from rules gmt-2017-3 on)."""
    return args["checks"] and since(state, "gmt-2017-3") and needs_check(state, args["seat"], abbr, False)


@node("ev_place")
class EventPlace(N):
    """Add support in listed states, n at a time declared per state (checks where the rule asks)."""

    kind = "support"

    def waiting(self, state: State, args: Args) -> list[str]:
        opts = place_choices(state, args)  # one state only: its largest amount is placed without asking
        return [args["seat"]] if args["n"] > 0 and len({o["support"] for o in opts}) > 1 else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return place_choices(state, args)

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Add %(n)s state support (at most %(cap)s per state), e.g. %(examples)s."), n=args["n"],
                       cap=args["cap"])

    def default(self, state: State, args: Args, seat: str) -> dict:
        opts = place_choices(state, args)
        free = [o for o in opts if not args["checks"] or not needs_check(state, seat, o["support"], False)] or opts
        return max(free, key=lambda o: (o["n"], STATES[o["support"]].ev, o["support"]))

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        abbr, k = order["support"], order["n"]
        args["placed"][abbr] = args["placed"].get(abbr, 0) + k
        args["n"] -= k
        if args["checks"]:
            add_state_support(state, seat, abbr, k, events, campaigning=False)
        else:
            for _ in range(k):
                gain(state, "states", abbr, seat, events)

    def advance(self, state: State, args: Args, events: Events) -> None:
        opts = place_choices(state, args)
        if args["n"] > 0 and opts:  # a single possible placement is made without asking
            self.act(state, args, args["seat"], max(opts, key=lambda o: o["n"]), events)
            return
        FLOW.ret(state)


def remove_choices(state: State, args: Args) -> list[dict]:
    opts = []
    for abbr in args["states"]:
        room = min(args["n"], args["cap"] - args["taken"].get(abbr, 0), state["states"][abbr][args["victim"]])
        opts += [{"remove": abbr, "n": k} for k in range(1, room + 1)]
    return opts


@node("ev_remove")
class EventRemove(N):
    kind = "remove"

    def waiting(self, state: State, args: Args) -> list[str]:
        opts = remove_choices(state, args)  # one state only: its largest amount is placed without asking
        return [args["seat"]] if args["n"] > 0 and len({o["remove"] for o in opts}) > 1 else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return remove_choices(state, args)

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Remove %(n)s of %(victim)s's state support (at most %(cap)s per state), e.g. "
                          "%(examples)s."), n=args["n"], victim=args["victim"], cap=args["cap"])

    def default(self, state: State, args: Args, seat: str) -> dict:
        opts = remove_choices(state, args)
        pick = min if seat == args["victim"] else max  # hurt the opponent most, oneself least
        return pick(opts, key=lambda o: (STATES[o["remove"]].ev, o["n"], o["remove"]))

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        abbr, k = order["remove"], order["n"]
        args["taken"][abbr] = args["taken"].get(abbr, 0) + k
        args["n"] -= lose(state, "states", abbr, args["victim"], k, events)

    def advance(self, state: State, args: Args, events: Events) -> None:
        opts = remove_choices(state, args)
        if args["n"] > 0 and opts:
            self.act(state, args, args["seat"], max(opts, key=lambda o: o["n"]), events)
            return
        FLOW.ret(state)


@node("ev_pick")
class EventPick(N):
    """One choice stored in the calling event frame as `picked`."""

    kind = "pick"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]] if len(args["options"]) > 1 else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return args["options"]

    def text(self, state: State, args: Args, seat: str) -> Message:
        key = next(iter(args["options"][0]))
        return message({"issue": N_("Choose an issue: %(examples)s."), "region": N_("Choose a region: %(examples)s."),
                        "state": N_("Choose a state, e.g. %(examples)s."),
                        "track": N_("Order the issue track, top first, e.g. %(examples)s.")}[key])

    def default(self, state: State, args: Args, seat: str) -> dict:
        opts = args["options"]
        if "state" in opts[0]:
            return max(opts, key=lambda o: (STATES[o["state"]].ev, o["state"]))
        if "track" in opts[0]:
            return {"track": list(state["track"])}
        return opts[0]

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        FLOW.ret(state)
        value = next(iter(order.values()))
        if "track" in order:
            state["track"] = list(value)
            events.append(event("track", seat=seat, track=list(value)))
        else:
            FLOW.stack(state)[-1]["args"]["picked"] = value  # the event that asked
            events.append(event("picked", seat=seat, value=value))

    def advance(self, state: State, args: Args, events: Events) -> None:
        self.act(state, args, args["seat"], args["options"][0], events)


def issue_split_choices(state: State, args: Args) -> list[dict]:
    if args["mode"] == "gain":
        return [{"issue": i} for i in ISSUES]
    return [{"issue": i} for i in ISSUES if state["issues"][i][args["seat"]] > 0]


@node("ev_issue")
class EventIssue(N):
    kind = "issue"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]] if args["n"] > 0 and len(issue_split_choices(state, args)) > 1 else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return issue_split_choices(state, args)

    def text(self, state: State, args: Args, seat: str) -> Message:
        if args["mode"] == "gain":
            return message(N_("Add %(n)s issue cube(s), one at a time: %(examples)s."), n=args["n"])
        return message(N_("Remove %(n)s issue cube(s), one at a time: %(examples)s."), n=args["n"])

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        args["n"] -= 1
        if args["mode"] == "gain":
            gain(state, "issues", order["issue"], seat, events)
        else:
            lose(state, "issues", order["issue"], seat, 1, events)

    def advance(self, state: State, args: Args, events: Events) -> None:
        opts = issue_split_choices(state, args)
        if args["n"] > 0 and opts:
            self.act(state, args, args["seat"], opts[0], events)
            return
        FLOW.ret(state)


@node("ev_media_remove")
class EventMediaRemove(N):
    kind = "media"

    def opts(self, state: State, args: Args) -> list[dict]:
        opp = other(args["seat"])
        return [{"media": r} for r in REGIONS if state["media"][r][opp] > 0]

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]] if args["n"] > 0 and len(self.opts(state, args)) > 1 else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return self.opts(state, args)

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Remove %(n)s opposing media cube(s), one at a time: %(examples)s."), n=args["n"])

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        args["n"] -= 1
        lose(state, "media", order["media"], other(seat), 1, events)

    def advance(self, state: State, args: Args, events: Events) -> None:
        opts = self.opts(state, args)
        if args["n"] > 0 and opts:
            self.act(state, args, args["seat"], opts[0], events)
            return
        FLOW.ret(state)


@node("ev_retrieve")
class EventRetrieve(N):
    """Take a card from the discard pile (or, with `play`, play it at once as an event)."""

    kind = "retrieve"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]]

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [*({"take": c} for c in args["options"]), {"done": True}]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Take a card from the discard pile, e.g. %(examples)s."))

    def default(self, state: State, args: Args, seat: str) -> dict:
        return {"take": max(args["options"], key=lambda c: (CARDS[c].cp, c))}

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        FLOW.ret(state)
        if order.get("done"):
            return
        card = order["take"]
        state["discard"].remove(card)
        events.append(event("retrieve", seat=seat, card=card, play=bool(args.get("play"))))
        if args.get("play"):  # Tricky Dick: no rest cubes for this card
            state["played"].append({"card": card, "seat": seat, "use": "event"})
            FLOW.call(state, "event", card=card, seat=seat, i=0, picked=None)
        else:
            C.hand(state, seat).append(card)
            C.hand(state, seat).sort()


def fires_for(state: State, seat: str, card: int) -> bool:
    """A revealed card's event resolves for `seat` if it shows seat's icon (alone or with the
    opponent's) and its event may be played now (not prevented)."""
    return CARDS[card].icon in (seat, "both") and event_playable(state, seat, card, from_hand=False)


@node("ev_reveal")
class EventReveal(N):
    """High Hopes: turn up deck cards one at a time; a card with the beneficiary's icon is resolved
    for him at once (then leaves play like any event), any other card goes to the discard pile."""

    def advance(self, state: State, args: Args, events: Events) -> None:
        if args["n"] <= 0:
            FLOW.ret(state)
            return
        args["n"] -= 1
        card = C.reveal_top(state, events)
        if card is None:
            args["n"] = 0
            return
        seat = args["seat"]
        if fires_for(state, seat, card):
            state["played"].append({"card": card, "seat": seat, "use": "event"})
            FLOW.call(state, "event", card=card, seat=seat, i=0, picked=None)
        else:
            state["discard"].append(card)
            events.append(event("discard", seat=seat, card=card))


@node("ev_cycle")
class EventCycle(N):
    """Discard any number of cards one at a time, then draw as many."""

    kind = "discard"

    def waiting(self, state: State, args: Args) -> list[str]:
        return [args["seat"]] if C.hand(state, args["seat"]) else []

    def choices(self, state: State, args: Args, seat: str) -> list:
        return [*({"discard": c} for c in C.hand(state, seat)), {"done": True}]

    def text(self, state: State, args: Args, seat: str) -> Message:
        return message(N_("Discard cards one at a time to draw as many (%(n)s so far), e.g. %(examples)s."),
                       n=args["n"])

    def default(self, state: State, args: Args, seat: str) -> dict:
        return {"done": True}

    def act(self, state: State, args: Args, seat: str, order: dict, events: Events) -> None:
        if order.get("done"):
            FLOW.ret(state)
            C.draw_cards(state, seat, args["n"], events)
            return
        C.take_from_hand(state, seat, order["discard"])
        state["discard"].append(order["discard"])
        events.append(event("discard", seat=seat, card=order["discard"]))
        args["n"] += 1

    def advance(self, state: State, args: Args, events: Events) -> None:
        self.act(state, args, args["seat"], {"done": True}, events)

