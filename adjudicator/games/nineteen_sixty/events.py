"""Resolving events: runs a card's steps (effects.py) one by one, pausing for player choices."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from adjudicator.engine import N_, Message, event, message

from . import cards as C
from .board import gain, holder, leads_issue, lose, other, support_check
from .data import CARDS, GATHERING_MOMENTUM, ISSUES, REGIONS, STATES
from .effects import ELECTION_EVENTS, EVENTS, MISSING
from .flowbase import FLOW, Args, Events, N, State, node
from .modifiers import active, add_state_support, may_spend_momentum, needs_check, prevented
from .versions import since


def implemented(card: int) -> bool:
    return card in EVENTS and card not in MISSING


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


def who(state: State, args: Args, spec: str) -> str | None:
    if spec in ("kennedy", "nixon"):
        return spec
    if spec == "P":
        return args["seat"]
    if spec == "opp":
        return other(args["seat"])
    if spec.startswith("lead:"):
        return leads_issue(state, spec[5:])
    if spec.startswith("media:"):
        return holder(state, "media", spec[6:])
    if spec.startswith("state:"):
        return holder(state, "states", spec[6:])
    if spec == "fifty":
        k = sum(state["states"][a]["kennedy"] for a in ("AK", "HI"))
        n = sum(state["states"][a]["nixon"] for a in ("AK", "HI"))
        return None if k == n else ("kennedy" if k > n else "nixon")
    raise ValueError(spec)


def seat_of(state: State, args: Args, spec: str) -> str:
    """`who` for a step that needs a seat: one that names none is a bug in the card's effect."""
    seat = who(state, args, spec)
    if seat is None:
        raise ValueError(f"{spec} names no seat here")
    return seat


def where(state: State, args: Args, spec: tuple) -> list[str]:
    kind = spec[0]
    if kind == "any":
        return list(STATES)
    if kind == "regions":
        return [a for a, s in STATES.items() if s.region in spec[1]]
    if kind == "states":
        return list(spec[1])
    if kind == "empty":
        return [a for a in STATES if holder(state, "states", a) is None]
    if kind == "ev":
        return [a for a, s in STATES.items() if spec[1] <= s.ev <= spec[2] and (spec[3] is None or s.region in spec[3])]
    if kind == "picked":
        return [args["picked"]]
    if kind == "picked_region":
        return [a for a, s in STATES.items() if s.region == args["picked"]]
    raise ValueError(spec)


def momentum(state: State, seat: str, delta: int, events: Events) -> None:
    new = max(0, state["momentum"][seat] + delta)
    if new != state["momentum"][seat]:
        events.append(event("momentum", seat=seat, n=new - state["momentum"][seat]))
    state["momentum"][seat] = new


def move_issue(state: State, issue: str, k: int, events: Events) -> None:
    track = state["track"]
    pos = track.index(issue)
    new = max(0, pos - k)
    track.pop(pos)
    track.insert(new, issue)
    events.append(event("issue_moved", issue=issue, track=list(track)))


def leads_count(state: State, seat: str) -> int:
    return sum(1 for i in ISSUES if leads_issue(state, i) == seat)


def condition(state: State, cond: tuple) -> bool:
    if cond[0] == "leads":
        return leads_issue(state, cond[2]) == cond[1]
    if cond[0] == "leads_n":
        return leads_count(state, cond[1]) >= cond[2]
    raise ValueError(cond)


def pick_options(state: State, args: Args, kind: str, seat: str, filt: str | None) -> list[dict]:
    if kind == "pick_issue":
        return [{"issue": i} for i in ISSUES]
    if kind == "pick_region":
        regions = [r for r in REGIONS if filt != "own_media" or state["media"][r][seat] > 0]
        return [{"region": r} for r in regions]
    if filt == "swing":  # a state the opponent leads without carrying
        opp = other(seat)
        return [{"state": a} for a in STATES if 1 <= state["states"][a][opp] <= 3]
    if filt == "md_va":
        return [{"state": "MD"}, {"state": "VA"}]
    return [{"state": a} for a in STATES]


@node("event")
class Event(N):
    """args: card, seat (who resolves it), i (next step), picked (a choice kept for later steps),
    steps ("play": EVENTS, "election": ELECTION_EVENTS), affected (rest-of-turn binding)."""

    def advance(self, state: State, args: Args, events: Events) -> None:
        table = ELECTION_EVENTS if args.get("steps") == "election" else EVENTS
        steps = args.get("inline") or table[args["card"]]
        if args["i"] == 0 and "inline" not in args:
            events.append(event("event", seat=args["seat"], card=args["card"]))
        if args["i"] >= len(steps):
            FLOW.ret(state)
            if "inline" not in args:
                finish(state, args, events)
            return
        step = steps[args["i"]]
        args["i"] += 1
        run(state, args, step, events)


def finish(state: State, args: Args, events: Events) -> None:
    """The card leaves play: persistent ones to their box, rest-of-turn ones before the player."""
    card = args["card"]
    top = state["played"].pop()
    assert top["card"] == card, (top, card)
    kind = CARDS[card].persistent
    if args.get("steps") == "election" or kind == "none":
        state["removed"].append(card)
    elif kind == "rest_of_turn":
        state["boxes"]["turn"].append(card)
        state["effects"].append({"card": card, "seat": args.get("affected", args["seat"])})
    else:
        state["boxes"][kind].append(card)


def run(state: State, args: Args, step: tuple, events: Events) -> None:  # noqa: C901 - a dispatch table
    op = step[0]
    if op == "support":
        seat = who(state, args, step[1])
        if seat:
            FLOW.call(state, "ev_place", seat=seat, n=step[2], cap=step[3], states=where(state, args, step[4]),
                      placed={}, checks=True)
    elif op == "remove":
        seat, victim = who(state, args, step[1]), who(state, args, step[2])
        if seat and victim:
            FLOW.call(state, "ev_remove", seat=seat, victim=victim, n=step[3], cap=step[4],
                      states=where(state, args, step[5]), taken={})
    elif op == "lose":
        victim = who(state, args, step[1])
        if victim:
            abbr = state["tokens"][victim] if step[3] == "token" else step[3]
            lose(state, "states", abbr, victim, step[2], events)
    elif op == "momentum":
        seat = who(state, args, step[1])
        if seat:
            momentum(state, seat, step[2], events)
    elif op == "issue_up":
        move_issue(state, step[1], step[2], events)
    elif op == "issue":
        seat = who(state, args, step[1])
        issue = args["picked"] if step[2] == "picked" else step[2]
        if seat and step[3] > 0:
            for _ in range(step[3]):
                gain(state, "issues", issue, seat, events)
        elif seat:
            lose(state, "issues", issue, seat, -step[3], events)
    elif op == "issue_each":
        seat = seat_of(state, args, step[1])
        for issue in ISSUES:
            lose(state, "issues", issue, seat, -step[2], events)
    elif op == "issue_split":
        seat = who(state, args, step[1])
        FLOW.call(state, "ev_issue", seat=seat, n=step[2], mode=step[3])
    elif op == "token":
        seat = who(state, args, step[1])
        if seat:
            state["tokens"][seat] = args["picked"] if step[2] == "picked" else step[2]
            events.append(event("token", seat=seat, to=state["tokens"][seat]))
    elif op == "media":
        seat = seat_of(state, args, step[1])
        if step[3]:
            for _ in range(step[2]):
                gain(state, "media", step[3], seat, events)
        else:
            FLOW.call(state, "media_place", seat=seat, n=step[2])
    elif op == "media_remove":
        FLOW.call(state, "ev_media_remove", seat=who(state, args, step[1]), n=step[2])
    elif op == "endorse":
        FLOW.call(state, "endorse_pick", seat=who(state, args, step[1]))
    elif op in ("pick_issue", "pick_state", "pick_region"):
        seat = seat_of(state, args, step[1])
        options = pick_options(state, args, op, seat, step[2])
        if options:
            FLOW.call(state, "ev_pick", seat=seat, options=options)
        else:
            args["i"] = 10**6  # nothing to pick: the rest of the event has no target
    elif op == "retrieve":
        seat = who(state, args, step[1])
        options = [c for c in state["discard"] if step[2] is None or c == step[2]]
        if options:
            FLOW.call(state, "ev_retrieve", seat=seat, options=sorted(options))
    elif op == "draw":
        C.draw_cards(state, seat_of(state, args, step[1]), step[2], events)
    elif op == "cycle":
        FLOW.call(state, "ev_cycle", seat=who(state, args, step[1]), n=0)
    elif op in ("exhaust", "restore"):
        seat = who(state, args, step[1])
        state["candidate"][seat] = "exhausted" if op == "exhaust" else "ready"
        events.append(event("candidate", seat=seat, now=state["candidate"][seat]))
    elif op == "gm":
        gathering_momentum(state, step[1], events)
    elif op == "checks":
        seat = who(state, args, step[1])
        abbr = args["picked"] if step[3] == "picked" else step[3]
        for _ in range(step[2] if seat else 0):
            if seat:
                support_check(state, seat, "states", abbr, events)
    elif op == "mark":
        args["affected"] = who(state, args, step[1])
    elif op == "if":
        if condition(state, step[1]):
            FLOW.call(state, "event", card=args["card"], seat=args["seat"], i=0, picked=None,
                      inline=_json(step[2]))
    elif op == "gallup":
        FLOW.call(state, "ev_pick", seat=who(state, args, step[1]),
                  options=[{"track": list(p)} for p in permutations(ISSUES)])
    elif op == "match_momentum":
        seat = args["seat"]
        gap = state["momentum"][other(seat)] - state["momentum"][seat]
        if gap > 0:
            momentum(state, seat, gap, events)
    elif op == "medal":
        a, b = leads_issue(state, step[1]), leads_issue(state, step[2])
        if a:
            lose(state, "issues", step[1], a, 1, events)
        if b:
            lose(state, "issues", step[2], b, 1, events)
        if a and a == b:
            momentum(state, a, -1, events)
    elif op == "unpledged":
        state["unpledged_event"] = True
        events.append(event("unpledged"))
    elif op == "opposition":  # Kennedy shows his hand to Nixon, who then spends 3 CP
        events.append(event("hand_shown", audience=["nixon"], seat="kennedy", cards=list(C.hand(state, "kennedy"))))
        FLOW.call(state, "cp", seat="nixon", card=None, printed=3, action=None, left=0, issues=[])
    elif op == "tricky":
        options = [c for c in state["discard"] if event_playable(state, "nixon", c, from_hand=False)]
        if options:
            FLOW.call(state, "ev_retrieve", seat="nixon", options=sorted(options), play=True)
    elif op == "whistlestop":
        FLOW.call(state, "cp", seat=args["seat"], card=None, printed=7, action="campaign", left=7, issues=[],
                  one_per_state=True)
    elif op == "reveal":
        FLOW.call(state, "ev_reveal", seat=who(state, args, step[1]), n=step[2])
    else:
        raise ValueError(f"unknown effect step {op}")


def _json(value: Any) -> Any:
    """Steps are tuples in the table; a frame in the state must be plain JSON lists."""
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


def gathering_momentum(state: State, region: str, events: Events) -> None:
    led = {s: sum(1 for a, st in STATES.items() if st.region == region and state["states"][a][s] > 0)
           for s in ("kennedy", "nixon")}
    if led["kennedy"] == led["nixon"]:
        events.append(event("gathering", region=region, winner=None))
        return
    seat = max(led, key=lambda s: led[s])
    momentum(state, seat, 1, events)
    for a, st in STATES.items():
        if st.region == region and holder(state, "states", a) is None:
            gain(state, "states", a, seat, events)
    events.append(event("gathering", region=region, winner=seat))


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


__all__ = ["Event", "GATHERING_MOMENTUM", "Any"]
