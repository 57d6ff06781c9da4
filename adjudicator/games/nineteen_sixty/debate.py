"""Turn 6, the debates: sealed simultaneous card choices, sides, issue wins and rewards."""

from __future__ import annotations

from adjudicator.engine import N_, Message, event, message

from . import cards as C
from .board import initiative_check, other
from .data import CARDS, DEBATE_REWARDS, ISSUES, SEATS, STATES
from .flowbase import FLOW, Args, Events, N, State, node
from .turn import end_turn


def lazy_shave(state: State) -> bool:
    return 34 in state["boxes"]["debate"]


def total(state: State, issue: str, seat: str) -> int:
    cards = state["debate"]["cards"][issue][seat]
    bonus = 1 if seat == "kennedy" and 35 in state["boxes"]["debate"] else 0  # Harvard Brain Trust
    return sum(CARDS[c].cp for c in cards) + bonus


@node("debate_start")
class DebateStart(N):
    def advance(self, state: State, args: Args, events: Events) -> None:
        state["phase"] = "debates"
        state["initiative"] = initiative_check(state, events)
        state["debate"] = {
            "order": list(state["track"]),  # 1st, 2nd, 3rd place on the debate board
            "cards": {i: {s: [] for s in SEATS} for i in ISSUES},
            "won": [],  # issues in the order they were won
            "winners": {},
            "last": {},  # the cards revealed in the latest round
            "pending": {},  # revealed two-icon cards waiting for their side
        }
        state["track"] = [None, None, None]  # tiles come back to the lowest free space
        events.append(event("debate_stage", order=list(state["debate"]["order"])))
        FLOW.goto(state, "debate_round", picks={}, stage="pick", sides=[])


def debated(state: State) -> str:
    """The issues not won yet, in debate order, with each side's CP so far ("Economy: Kennedy 3,
    Nixon 2; Defense: ...")."""
    d = state["debate"]
    return "; ".join(f"{issue}: Kennedy {total(state, issue, 'kennedy')}, Nixon {total(state, issue, 'nixon')}"
                     for issue in d["order"] if issue not in d["winners"])


def has_cards(state: State, seat: str) -> bool:
    return bool(C.strategy(state, seat))


@node("debate_round")
class DebateRound(N):
    """stage pick: both choose a card (sealed; Nixon first and open under Lazy Shave);
    stage order: the initiative player says who places a two-icon card first; stage side."""

    def waiting(self, state: State, args: Args) -> list[str]:
        if args["stage"] == "pick":
            todo = [s for s in SEATS if has_cards(state, s) and s not in args["picks"]]
            if lazy_shave(state) and "nixon" in todo:
                return ["nixon"]
            return todo
        if args["stage"] == "order":
            return [state["initiative"]]
        if args["stage"] == "side":
            return [args["sides"][0]]
        return []

    kind = "debate"

    def group(self, state: State, args: Args, waiting: list[str]) -> str | None:
        if args["stage"] == "pick" and not lazy_shave(state):
            return (f"debate-{len(args['picks'])}-"
                    f"{sum(len(v) for i in ISSUES for v in state['debate']['cards'][i].values())}")
        return None

    def choices(self, state: State, args: Args, seat: str) -> list:
        if args["stage"] == "pick":
            return [{"debate": c} for c in C.strategy(state, seat)]
        if args["stage"] == "order":
            return [{"first": s} for s in SEATS]
        return [{"side": s} for s in SEATS]

    def text(self, state: State, args: Args, seat: str) -> Message:
        if args["stage"] == "pick":
            return message(N_("Debate: choose a card to reveal; it counts in the debate of its own issue. Still "
                              "debated: %(issues)s (e.g. %(examples)s)."), issues=debated(state))
        if args["stage"] == "order":
            return message(N_("Both played two-icon cards: who places first? (`first kennedy`)"))
        card = state["debate"]["pending"][seat]
        return message(N_("Your two-icon card %(card)s counts in the %(issue)s debate: on whose side? Without an "
                          "answer it goes to your own side (`side %(seat)s`)."), card=C.card_name(card),
                       issue=CARDS[card].issue, seat=seat)

    def default(self, state: State, args: Args, seat: str) -> dict:
        if args["stage"] == "pick":
            return {"debate": max(C.strategy(state, seat), key=lambda c: (CARDS[c].cp, c))}
        if args["stage"] == "order":
            return {"first": seat}
        return {"side": seat}

    def apply(self, state: State, args: Args, orders: dict, events: Events) -> None:
        for seat, order in sorted(orders.items()):
            if args["stage"] == "pick":
                args["picks"][seat] = order["debate"]
            elif args["stage"] == "order":
                first = order["first"]
                args["sides"] = [first, other(first)]
                args["stage"] = "side"
            else:
                place(state, args["sides"].pop(0), order["side"], args, events)
        if args["stage"] == "pick" and not self.waiting(state, args):
            self.reveal(state, args, events)

    def reveal(self, state: State, args: Args, events: Events) -> None:
        events.append(event("debate_reveal", cards=dict(args["picks"])))
        both = []
        for seat, card in sorted(args["picks"].items()):
            C.strategy(state, seat).remove(card)
            info = CARDS[card]
            if info.issue is None or info.issue in state["debate"]["winners"]:
                state["discard"].append(card)  # no issue, or its issue already won
                events.append(event("debate_discard", seat=seat, card=card))
            elif info.icon == "both":
                both.append(seat)
                state["debate"]["last"][seat] = card
            else:
                state["debate"]["cards"][info.issue][info.icon].append(card)
        state["debate"]["pending"] = {seat: state["debate"]["last"][seat] for seat in both}
        if len(both) == 2:
            args["stage"] = "order"
        elif both:
            args["stage"], args["sides"] = "side", both
        else:
            args["stage"] = "score"

    def advance(self, state: State, args: Args, events: Events) -> None:
        score_round(state, events)
        if len(state["debate"]["winners"]) == len(ISSUES) or not any(has_cards(state, s) for s in SEATS):
            FLOW.goto(state, "debate_end")
        else:
            args.update(picks={}, stage="pick", sides=[])
        # rewards are placed before the next round
        push_rewards(state)


def place(state: State, seat: str, side: str, args: Args, events: Events) -> None:
    card = state["debate"]["pending"].pop(seat)
    state["debate"]["cards"][CARDS[card].issue][side].append(card)
    events.append(event("debate_side", seat=seat, card=card, side=side))
    if not args["sides"]:
        args["stage"] = "score"


def win(state: State, issue: str, events: Events) -> None:
    debate = state["debate"]
    k, n = total(state, issue, "kennedy"), total(state, issue, "nixon")
    winner = "kennedy" if k > n else "nixon" if n > k else state["initiative"]
    reward = DEBATE_REWARDS[len(debate["won"])]
    debate["won"].append(issue)
    debate["winners"][issue] = winner
    slot = max(i for i, v in enumerate(state["track"]) if v is None)
    state["track"][slot] = issue
    for seat in SEATS:
        state["discard"].extend(debate["cards"][issue][seat])
        debate["cards"][issue][seat] = []
    debate.setdefault("rewards", []).append({"seat": winner, "n": reward})
    events.append(event("debate_won", issue=issue, seat=winner, totals={"kennedy": k, "nixon": n}, reward=reward))


def undecided_bottom_first(state: State) -> list[str]:
    """Issues not yet won, the lowest original track position first (the rulebook's ascending order)."""
    return [i for i in reversed(state["debate"]["order"]) if i not in state["debate"]["winners"]]


def score_round(state: State, events: Events) -> None:
    for issue in undecided_bottom_first(state):
        if any(len(state["debate"]["cards"][issue][s]) >= 2 for s in SEATS):
            win(state, issue, events)


def push_rewards(state: State) -> None:
    rewards = state["debate"].pop("rewards", [])
    for reward in reversed(rewards):  # the stack runs the first reward first
        FLOW.call(state, "ev_place", seat=reward["seat"], n=reward["n"], cap=reward["n"],
                  states=list(STATES), placed={}, checks=False)


@node("debate_end")
class DebateEnd(N):
    def advance(self, state: State, args: Args, events: Events) -> None:
        if not args.get("scored"):
            args["scored"] = True
            for issue in undecided_bottom_first(state):
                win(state, issue, events)
            push_rewards(state)
            return
        for seat in SEATS:
            state["discard"].extend(C.strategy(state, seat))
            C.strategy(state, seat).clear()
        state["discard"].extend(state["boxes"]["debate"])
        state["boxes"]["debate"] = []
        state["debate"] = None
        events.append(event("debates_over", track=list(state["track"])))
        end_turn(state, events)
        FLOW.goto(state, "turn")
