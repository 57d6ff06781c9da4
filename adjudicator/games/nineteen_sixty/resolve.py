"""Resolving a card's event: its frame runs the card's function (effects.py) one step per advance.

The frame (`event`: card, seat, i, picked, and `steps`, `affected`, `inline` when set) is saved in
the state between prompts exactly as records made before hold it, so their hashes still match. Each
advance runs the card's function from its start; `Run` lets only the step at the frame's counter `i`
act, and the choices a step asks for are the nodes of events.py, called on top of the frame.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from itertools import permutations
from typing import Any, Concatenate, ParamSpec

from adjudicator.engine import event

from . import cards as C
from .board import gain, holder, leads_issue, lose, other, support_check
from .data import CARDS, ISSUES, REGIONS, STATES
from .effects import EVENTS, HELD
from .events import event_playable
from .flowbase import FLOW, Args, Events, N, State, node
from .steps import Place, Who

Params = ParamSpec("Params")


@node("event")
class Event(N):
    """args: card, seat (who resolves it), i (next step), picked (a choice kept for later steps),
    steps ("election": the Election Day run of a held card), affected (rest-of-turn binding),
    inline (a condition's steps, in the form saved records hold: its own frame)."""

    def advance(self, state: State, args: Args, events: Events) -> None:
        inline = "inline" in args
        if args["i"] == 0 and not inline:
            events.append(event("event", seat=args["seat"], card=args["card"]))
        if not Run(state, args, events).resolve():
            FLOW.ret(state)
            if not inline:
                finish(state, args, events)


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


def step(method: Callable[Concatenate[Run, Params], None]) -> Callable[Concatenate[Run, Params], None]:
    """A step acts only when it is the frame's next one; inside a condition being entered, it is
    written down for the condition's frame instead."""
    name = method.__name__

    @wraps(method)
    def act_or_note(run: Run, *args: Params.args, **kwargs: Params.kwargs) -> None:
        left = run.left
        if left > 0:  # it acted in an earlier advance
            run.left = left - 1
        elif left == 0:
            run.acted_now()
            method(run, *args, **kwargs)
        elif run.block is not None:
            assert not kwargs, f"{name}: a condition's steps are saved by position"
            run.block.append([name, *_json(list(args))])

    return act_or_note


def _json(value: Any) -> Any:
    """A saved condition holds plain JSON lists (places are tuples in effects.py)."""
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


class Run:
    """One advance of an event frame: the steps of the card's function, of which the one at the
    frame's counter acts. In a condition's own frame (`inline`) the steps before the condition are
    passed over and the counter starts at the condition."""

    __slots__ = ("state", "args", "events", "inline", "left", "acted", "block")

    def __init__(self, state: State, args: Args, events: Events) -> None:
        self.state, self.args, self.events = state, args, events
        self.inline = "inline" in args
        self.left = -1 if self.inline else args["i"]  # steps to pass before the one to act; -1: none acts
        self.acted = False
        self.block: list[list[Any]] | None = None  # the steps of a condition that holds

    def resolve(self) -> bool:
        """Run the card's function; False when no step was left to act (the event is over)."""
        card = self.args["card"]
        if (card in HELD) == (self.args.get("steps") == "election"):
            EVENTS[card](self)
        if self.block is not None:
            FLOW.call(self.state, "event", card=card, seat=self.args["seat"], i=0, picked=None, inline=self.block)
        return self.acted

    def acted_now(self) -> None:
        """The step at the counter acts: the counter moves on, and no later step acts in this run."""
        self.left = -1
        self.args["i"] += 1
        self.acted = True

    def _go_on(self, holds: Callable[[], bool]) -> bool:
        if self.inline:  # the condition held when its frame was made: its steps count from here
            self.inline = False
            self.left = self.args["i"]
            return True
        left = self.left
        if left != 0:
            self.left = left - 1 if left > 0 else left
            return False
        self.acted_now()
        if holds():
            self.block = []
            return True
        return False

    # seats and places -------------------------------------------------------------------------

    def seat_of(self, spec: Who) -> str:
        """`who` for a step that needs a seat: one that names none is a bug in the card's effect."""
        seat = self.who(spec)
        if seat is None:
            raise ValueError(f"{spec} names no seat here")
        return seat

    def who(self, spec: Who) -> str | None:
        if spec in ("kennedy", "nixon"):
            return spec
        if spec == "P":
            return self.args["seat"]
        if spec == "opp":
            return other(self.args["seat"])
        kind, _, key = spec.partition(":")
        if kind == "lead":
            return leads_issue(self.state, key)
        if kind == "media":
            return holder(self.state, "media", key)
        if kind == "state":
            return holder(self.state, "states", key)
        if spec == "fifty":
            k = sum(self.state["states"][a]["kennedy"] for a in ("AK", "HI"))
            n = sum(self.state["states"][a]["nixon"] for a in ("AK", "HI"))
            return None if k == n else ("kennedy" if k > n else "nixon")
        raise ValueError(spec)

    def where(self, spec: Place) -> list[str]:
        kind = spec[0]
        if kind == "any":
            return list(STATES)
        if kind == "regions":
            return [a for a, s in STATES.items() if s.region in spec[1]]
        if kind == "states":
            return list(spec[1])
        if kind == "empty":
            return [a for a in STATES if holder(self.state, "states", a) is None]
        if kind == "ev":
            return [a for a, s in STATES.items()
                    if spec[1] <= s.ev <= spec[2] and (spec[3] is None or s.region in spec[3])]
        if kind == "picked":
            return [self.args["picked"]]
        if kind == "picked_region":
            return [a for a, s in STATES.items() if s.region == self.args["picked"]]
        raise ValueError(spec)

    def chosen(self, name: str) -> str:
        return self.args["picked"] if name == "picked" else name

    # the steps ----------------------------------------------------------------------------------

    @step
    def support(self, who: Who, n: int, cap: int, where: Place) -> None:
        seat = self.who(who)
        if seat:
            FLOW.call(self.state, "ev_place", seat=seat, n=n, cap=cap, states=self.where(where), placed={},
                      checks=True)

    @step
    def remove(self, who: Who, victim: Who, n: int, cap: int, where: Place) -> None:
        seat, loser = self.who(who), self.who(victim)
        if seat and loser:
            FLOW.call(self.state, "ev_remove", seat=seat, victim=loser, n=n, cap=cap, states=self.where(where),
                      taken={})

    @step
    def lose(self, victim: Who, n: int, abbr: str) -> None:
        seat = self.who(victim)
        if seat:
            lose(self.state, "states", self.state["tokens"][seat] if abbr == "token" else abbr, seat, n, self.events)

    @step
    def momentum(self, who: Who, delta: int) -> None:
        seat = self.who(who)
        if seat:
            momentum(self.state, seat, delta, self.events)

    @step
    def issue_up(self, issue: str, k: int) -> None:
        track = self.state["track"]
        pos = track.index(issue)
        track.pop(pos)
        track.insert(max(0, pos - k), issue)
        self.events.append(event("issue_moved", issue=issue, track=list(track)))

    @step
    def issue(self, who: Who, issue: str, delta: int) -> None:
        seat, name = self.who(who), self.chosen(issue)
        if seat and delta > 0:
            for _ in range(delta):
                gain(self.state, "issues", name, seat, self.events)
        elif seat:
            lose(self.state, "issues", name, seat, -delta, self.events)

    @step
    def issue_each(self, who: Who, delta: int) -> None:
        seat = self.seat_of(who)
        for issue in ISSUES:
            lose(self.state, "issues", issue, seat, -delta, self.events)

    @step
    def issue_split(self, who: Who, n: int, mode: str) -> None:
        FLOW.call(self.state, "ev_issue", seat=self.who(who), n=n, mode=mode)

    @step
    def token(self, who: Who, abbr: str) -> None:
        seat = self.who(who)
        if seat:
            self.state["tokens"][seat] = self.chosen(abbr)
            self.events.append(event("token", seat=seat, to=self.state["tokens"][seat]))

    @step
    def media(self, who: Who, n: int, region: str | None) -> None:
        seat = self.seat_of(who)
        if region:
            for _ in range(n):
                gain(self.state, "media", region, seat, self.events)
        else:
            FLOW.call(self.state, "media_place", seat=seat, n=n)

    @step
    def media_remove(self, who: Who, n: int) -> None:
        FLOW.call(self.state, "ev_media_remove", seat=self.who(who), n=n)

    @step
    def endorse(self, who: Who) -> None:
        FLOW.call(self.state, "endorse_pick", seat=self.who(who))

    def _pick(self, seat: str | None, options: list[dict]) -> None:
        if options:
            FLOW.call(self.state, "ev_pick", seat=seat, options=options)
        else:
            self.args["i"] = 10**6  # nothing to pick: the rest of the event has no target

    @step
    def pick_issue(self, who: Who) -> None:
        self._pick(self.who(who), [{"issue": i} for i in ISSUES])

    @step
    def pick_state(self, who: Who, among: str) -> None:
        seat = self.seat_of(who)
        if among == "swing":  # a state the opponent leads without carrying
            opp = other(seat)
            self._pick(seat, [{"state": a} for a in STATES if 1 <= self.state["states"][a][opp] <= 3])
        elif among == "md_va":
            self._pick(seat, [{"state": "MD"}, {"state": "VA"}])
        else:
            self._pick(seat, [{"state": a} for a in STATES])

    @step
    def pick_region(self, who: Who, among: str) -> None:
        seat = self.who(who)
        media = self.state["media"]
        self._pick(seat, [{"region": r} for r in REGIONS if among != "own_media" or media[r][seat] > 0])

    @step
    def retrieve(self, who: Who, only: int | None) -> None:
        options = [c for c in self.state["discard"] if only is None or c == only]
        if options:
            FLOW.call(self.state, "ev_retrieve", seat=self.who(who), options=sorted(options))

    @step
    def draw(self, who: Who, n: int) -> None:
        C.draw_cards(self.state, self.seat_of(who), n, self.events)

    @step
    def cycle(self, who: Who) -> None:
        FLOW.call(self.state, "ev_cycle", seat=self.who(who), n=0)

    def _candidate(self, who: Who, now: str) -> None:
        seat = self.who(who)
        self.state["candidate"][seat] = now
        self.events.append(event("candidate", seat=seat, now=now))

    @step
    def exhaust(self, who: Who) -> None:
        self._candidate(who, "exhausted")

    @step
    def restore(self, who: Who) -> None:
        self._candidate(who, "ready")

    @step
    def gathering_momentum(self, region: str) -> None:
        state, events = self.state, self.events
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

    @step
    def checks(self, who: Who, n: int, abbr: str) -> None:
        seat = self.who(who)
        if seat is None:  # nobody (a tie where the card names the leader): no checks
            return
        for _ in range(n):
            support_check(self.state, seat, "states", self.chosen(abbr), self.events)

    @step
    def binds(self, who: Who) -> None:
        self.args["affected"] = self.who(who)

    def if_leads(self, who: Who, issue: str) -> bool:
        return self._go_on(lambda: leads_issue(self.state, issue) == who)

    def if_leads_issues(self, who: Who, n: int) -> bool:
        return self._go_on(lambda: sum(1 for i in ISSUES if leads_issue(self.state, i) == who) >= n)

    @step
    def reorder_track(self, who: Who) -> None:
        FLOW.call(self.state, "ev_pick", seat=self.who(who), options=[{"track": list(p)} for p in permutations(ISSUES)])

    @step
    def match_momentum(self) -> None:
        seat = self.args["seat"]
        gap = self.state["momentum"][other(seat)] - self.state["momentum"][seat]
        if gap > 0:
            momentum(self.state, seat, gap, self.events)

    @step
    def issue_leaders_lose(self, first: str, second: str) -> None:
        a, b = leads_issue(self.state, first), leads_issue(self.state, second)
        if a:
            lose(self.state, "issues", first, a, 1, self.events)
        if b:
            lose(self.state, "issues", second, b, 1, self.events)
        if a and a == b:
            momentum(self.state, a, -1, self.events)

    @step
    def unpledged_electors(self) -> None:
        self.state["unpledged_event"] = True
        self.events.append(event("unpledged"))

    @step
    def show_hand_then_cp(self) -> None:
        hand = list(C.hand(self.state, "kennedy"))
        self.events.append(event("hand_shown", audience=["nixon"], seat="kennedy", cards=hand))
        FLOW.call(self.state, "cp", seat="nixon", card=None, printed=3, action=None, left=0, issues=[])

    @step
    def event_from_discards(self) -> None:
        options = [c for c in self.state["discard"] if event_playable(self.state, "nixon", c, from_hand=False)]
        if options:
            FLOW.call(self.state, "ev_retrieve", seat="nixon", options=sorted(options), play=True)

    @step
    def campaign_one_per_state(self) -> None:
        FLOW.call(self.state, "cp", seat=self.args["seat"], card=None, printed=7, action="campaign", left=7,
                  issues=[], one_per_state=True)

    @step
    def reveal_deck(self, who: Who, n: int) -> None:
        FLOW.call(self.state, "ev_reveal", seat=self.who(who), n=n)


def momentum(state: State, seat: str, delta: int, events: Events) -> None:
    new = max(0, state["momentum"][seat] + delta)
    if new != state["momentum"][seat]:
        events.append(event("momentum", seat=seat, n=new - state["momentum"][seat]))
    state["momentum"][seat] = new
