"""The People: income, the action-card draft, newspapers, the round and the extra initiative."""

from __future__ import annotations

from itertools import product
from typing import Any

from adjudicator.engine import N_, Event, Rng, event, message

from . import persuasion
from .effects import add_card_influence, add_cubes
from .flowbase import FLOW, FFNode, node
from .issues import play_card
from .state import (
    DRAFT_DEAL,
    HAND_LIMIT,
    D,
    available_influence,
    congress_votes,
    leader,
    move_support,
    number,
    owned,
    owner,
    party,
    pay,
    popularity,
    president_party,
    president_seat,
    rules_16,
    seats_from,
    seats_from_left,
)

State = dict[str, Any]
PAPER_VALUES = (1, 2, 3)  # public support for lifting a cube from lower box i (0 = start)


def draw_action(state: State, events: list[Event]) -> str | None:
    """The next action card; an empty deck brings in Generation II, then III, then the discards."""
    d = D(state)
    acts = state["actions"]
    if acts["left"] == 0:
        gen = acts["generation"] + 1
        new = [c for c in acts["future"] if (d.card(c)["generation"] == gen)] if gen <= 3 else []
        acts["future"] = [c for c in acts["future"] if c not in new]
        pile = new + acts["discard"]
        acts["discard"] = []
        if gen <= 3:
            acts["generation"] = gen
        Rng.of(state).shuffle(pile)
        state["secret"]["actions"] = pile
        acts["left"] = len(pile)
        events.append(event("actions-reshuffled", generation=acts["generation"], cards=len(pile)))
        if not pile:
            return None
    acts["left"] -= 1
    return state["secret"]["actions"].pop()


def to_hand(state: State, seat: str, cid: str) -> None:
    state["private"][seat]["hand"].append(cid)
    state["private"][seat]["hand"].sort()
    state["factions"][seat]["hand"] += 1


def draft_order(state: State) -> list[str]:
    def key(seat):
        cubes = sum(state["statesmen"][s]["cubes"] for s in owned(state, seat))
        ages = [number(state, s) for s in owned(state, seat)] or [999]
        return (state["factions"][seat]["vp"] + cubes, congress_votes(state, seat), min(ages),
                state["seats"].index(seat))
    return sorted(state["seats"], key=key)


@node("people")
class People(FFNode):
    """Stages: income, draft (waiting), limit (waiting), papers, round, auction, done."""
    kind = "draft"
    hidden = True  # which card a seat drafts only it learns ("drafted-card"); the others, that it drafted

    def waiting(self, state, args):
        if args["stage"] == "draft":
            pp = state["people"]
            if pp["drafters"] and state["secret"]["packet"]:
                return [pp["drafters"][0]]
        return []

    def choices(self, state, args, seat):
        return [{"act": "take", "card": c} for c in sorted(set(state["secret"]["packet"]))]

    def text(self, state, args, seat):
        return message(N_("Draft: take one action card from the packet."))

    def apply(self, state, args, orders, events):
        seat, order = next(iter(orders.items()))
        state["secret"]["packet"].remove(order["card"])
        to_hand(state, seat, order["card"])
        state["people"]["drafters"].pop(0)
        events.append(event("drafted", seat=seat))
        events.append(event("drafted-card", audience=[seat], card=order["card"]))
        if not rules_16(state):  # 1.6 checked the limit only after the whole draft
            check_hand_limit(state)

    def advance(self, state, args, events):
        stage = args["stage"]
        if stage == "income":
            state["phase"] = "people"
            income(state, events)
            packet = []
            for _ in range(DRAFT_DEAL):
                c = draw_action(state, events)
                if c is None:
                    break
                packet.append(c)
            state["secret"]["packet"] = packet
            state["people"] = {"drafters": draft_order(state), "done": {}, "auction": None}
            args["stage"] = "draft"
        elif stage == "draft":
            state["actions"]["discard"] += state["secret"]["packet"]
            state["secret"]["packet"] = []
            args["stage"] = "papers"
            if rules_16(state):
                FLOW.call(state, "limit")
        elif stage == "papers":
            args["stage"] = "round"
            newspapers_auto(state, events)
            FLOW.call(state, "papers")
        elif stage == "round":
            if persuasion.enabled(state) and not args.get("leaders"):
                args["leaders"] = True  # persuasion: faction leaders may move right after the press
                persuasion.leader_round(state, True)
                return
            args["stage"] = "auction"
            state["people"]["done"] = {s: [] for s in state["seats"]}
            FLOW.call(state, "round", order=seats_from(state, president_seat(state)), k=0, extra=False)
        elif stage == "auction":
            args["stage"] = "done"
            FLOW.call(state, "auction", order=seats_from_left(state), k=0, best=0, winner=None)
        else:
            state["term"]["coalition"] = {}
            state["people"] = None
            FLOW.ret(state)


def income(state: State, events: list[Event]) -> None:
    d = D(state)
    for seat in state["seats"]:
        state["factions"][seat]["influence"] += 1
    for p in ("L", "C"):
        ld = leader(state, p)
        if ld:
            add_card_influence(state, ld, 1, events, f"{p} party leader")
    for sid in list(state["statesmen"]):
        if d.statesmen[sid]["income"]:
            add_card_influence(state, sid, d.statesmen[sid]["income"], events, "income ability")
    events.append(event("income"))


# ------------------------------------------------------------------------------ newspapers
def newspapers_auto(state: State, events: list[Event]) -> None:
    """Cubes in the upper half move one box left and pay its value (off the track from box 0)."""
    for p in paper_order(state):
        up = state["papers"][p]["upper"]
        gained = 0
        new = [0, 0, 0]
        for i in range(3):
            if up[i] and i > 0:
                gained += up[i] * PAPER_VALUES[i - 1]
                new[i - 1] += up[i]
        state["papers"][p]["upper"] = new
        # a cube that reaches box 0 by moving left has paid out and leaves the track
        state["papers"][p]["upper"][0] = 0
        if gained:
            move_support(state, p, gained)
            events.append(event("newspapers", party=p, n=gained, auto=True))


def paper_order(state: State) -> list[str]:
    """The President's party first. Elbridge Gerry as President (or no President): the party with
    more public support, then (support at 0) the party whose leader is more popular, then the
    one whose leader has the lower age number."""
    pp = president_party(state)
    if pp in ("L", "C"):
        return [pp, "C" if pp == "L" else "L"]
    if rules_16(state):  # 1.6: support 0 counted as the Liberals'
        return ["L", "C"] if state["support"] >= 0 else ["C", "L"]
    if state["support"]:
        return ["L", "C"] if state["support"] > 0 else ["C", "L"]

    def key(p: str) -> tuple[int, int, int]:
        ld = leader(state, p)
        # a party without a leader has nobody to act for it: it goes last
        return (0, -popularity(state, ld), number(state, ld)) if ld else (1, 0, 0)

    return sorted(("L", "C"), key=key)


@node("papers")
class Papers(FFNode):
    kind = "newspapers"

    def _party(self, state, args):
        for p in paper_order(state)[args.setdefault("k", 0):]:
            if any(state["papers"][p]["lower"]) and leader(state, p):
                return p
            args["k"] += 1
        return None

    def waiting(self, state, args):
        p = self._party(state, args)
        lead = leader(state, p) if p else None  # _party names only a paper with a leader
        return [owner(state, lead)] if lead else []

    def choices(self, state, args, seat):
        low = state["papers"][self._party(state, args)]["lower"]
        return [{"act": "lift", "boxes": list(c)} for c in product(*(range(n + 1) for n in low))]

    def text(self, state, args, seat):
        return message(N_("Newspapers of the %(party)s party: lift cubes from the lower boxes (start, middle, right)."),
                       party=self._party(state, args))

    def advance(self, state, args, events):
        FLOW.ret(state)

    def apply(self, state, args, orders, events):
        p = self._party(state, args)
        boxes = next(iter(orders.values()))["boxes"]
        paper = state["papers"][p]
        gained = 0
        for i, n in enumerate(boxes):
            paper["lower"][i] -= n
            gained += n * PAPER_VALUES[i]
            if i > 0:
                paper["upper"][i] += n
        if gained:
            move_support(state, p, gained)
        events.append(event("newspapers", party=p, n=gained, lifted=boxes))
        args["k"] += 1


# ------------------------------------------------------------------------------ the round
ROUND_ACTS = ("speech", "whip", "fund")


@node("round")
class Round(FFNode):
    kind = "initiative"

    def _seat(self, state, args):
        return args["order"][args["k"]] if args["k"] < len(args["order"]) else None

    def waiting(self, state, args):
        seat = self._seat(state, args)
        return [seat] if seat else []

    def choices(self, state, args, seat):
        d = D(state)
        done = state["people"]["done"].get(seat, []) if not args["extra"] else []
        out: list[dict[str, Any]] = [{"act": "pass"}]
        if args.get("speech"):
            sid, roll = args["speech"]
            out = [{"act": "extra", "n": 0}]
            need = 6 - roll
            if 0 < need <= available_influence(state, seat, sid):
                out.append({"act": "extra", "n": need})
            return out
        if "persuade" not in done:
            out += persuasion.persuade_choices(state, seat)
        for sid in owned(state, seat):
            avail = available_influence(state, seat, sid)
            free = d.statesmen[sid]["special"] == "free-speech"
            if "speech" not in done and (avail >= 1 or free):
                out.append({"act": "speech", "statesman": sid})
            if "whip" not in done and avail >= 1 and party(state, sid) in ("L", "C"):
                out.append({"act": "whip", "statesman": sid})
            if "fund" not in done and party(state, sid) in ("L", "C"):
                low = state["papers"][party(state, sid)]["lower"]
                if avail >= 1:
                    out.append({"act": "fund", "statesman": sid, "box": 0})
                for i in (0, 1):
                    if low[i] and avail >= 2:
                        out.append({"act": "fund", "statesman": sid, "box": i + 1})
        if may_reduce(state, seat) and not args["extra"]:
            out.append({"act": "reduce"})
        if not args["extra"]:
            for c in state["private"][seat]["hand"]:
                card = d.card(c)
                if d.is_statesman(c):
                    if card["state"] in state["map"]:
                        out.append({"act": "play", "card": c})
                elif any(e["op"] in ("popularity",) and e.get("to") == "own-statesman" for e in card["effect"]):
                    out += [{"act": "play", "card": c, "on": sid} for sid in owned(state, seat)]
                else:
                    out.append({"act": "play", "card": c})
        return out

    def default(self, state, args, seat):
        return self.choices(state, args, seat)[0]

    def text(self, state, args, seat):
        if args.get("speech"):
            return message(N_("Your speech rolled %(roll)s: spend extra influence to reach 6?"), roll=args["speech"][1])
        return message(N_("Your initiative: make a speech, whip up support, fund newspapers, play a card, or pass."))

    def advance(self, state, args, events):
        FLOW.ret(state)

    def apply(self, state, args, orders, events):
        seat, order = next(iter(orders.items()))
        act = order["act"]
        rng = Rng.of(state)
        d = D(state)
        done = state["people"]["done"].setdefault(seat, [])
        if act == "pass":
            args["k"] += 1
            return
        if act == "play":
            play_card(state, seat, order["card"], order.get("on"), events)
            return
        if act == "persuade":
            if not args["extra"]:
                done.append("persuade")
            persuasion.start_persuasion(state, seat, order["statesman"], order["target"], events)
            self._after(args)
            return
        if act == "reduce":
            pay(state, seat, 1)
            done.append("reduce")
            events.append(event("reduced-faction", seat=seat))
            events.append(event("hand-revealed", seat=seat, hand=list(state["private"][seat]["hand"])))
            FLOW.call(state, "bereaved", seat=seat, donor=None, paid=True)
            return
        if act == "extra":
            sid, roll = args.pop("speech")
            if order["n"]:
                pay(state, seat, order["n"], sid)
            total = roll + order["n"]
            events.append(event("speech-result", statesman=sid, total=total))
            if total >= 6:
                add_cubes(state, sid, 1, events, "speech")
            self._after(args)
            return
        sid = order["statesman"]
        if act in ROUND_ACTS and not args["extra"]:
            done.append(act)
        if act == "speech":
            if d.statesmen[sid]["special"] != "free-speech":
                pay(state, seat, 1, sid)
            roll = rng.between(1, 6)
            events.append(event("speech", statesman=sid, roll=roll))
            if roll >= 6:
                add_cubes(state, sid, 1, events, "speech")
                self._after(args)
            else:
                args["speech"] = [sid, roll]
        elif act == "whip":
            pay(state, seat, 1, sid)
            roll = rng.between(1, 6)
            n = 0 if roll <= 2 else 1 if roll <= 5 else 2
            move_support(state, party(state, sid), n)
            events.append(event("whip", statesman=sid, roll=roll, n=n, now=state["support"]))
            self._after(args)
        elif act == "fund":
            p = party(state, sid)
            box = order["box"]
            low = state["papers"][p]["lower"]
            if box == 0:
                pay(state, seat, 1, sid)
                low[0] += 1
            else:
                pay(state, seat, 2, sid)
                low[box - 1] -= 1
                low[box] += 1
            events.append(event("fund", statesman=sid, party=p, box=box))
            self._after(args)

    def _after(self, args):
        if args["extra"]:
            args["k"] = len(args["order"])


def may_reduce(state: State, seat: str) -> bool:
    """Optional rule, reduced faction: one statesman left, none playable in hand, 1 influence."""
    from .turn import donors

    if not state["options"].get("reduced_faction") or len(owned(state, seat)) != 1:
        return False
    if "reduce" in state["people"]["done"].get(seat, []) or state["factions"][seat]["influence"] < 1:
        return False
    d = D(state)
    if any(d.is_statesman(c) and d.statesmen[c]["state"] in state["map"] for c in state["private"][seat]["hand"]):
        return False
    return any(len(owned(state, s)) > 1 for s in donors(state, seat))


@node("auction")
class Auction(FFNode):
    kind = "bid"

    def waiting(self, state, args):
        return [args["order"][args["k"]]] if args["k"] < len(args["order"]) else []

    def choices(self, state, args, seat):
        pool = state["factions"][seat]["influence"]
        return [{"act": "bid", "n": 0}] + [{"act": "bid", "n": n} for n in range(args["best"] + 1, pool + 1)]

    def text(self, state, args, seat):
        return message(N_("Extra initiative auction: bid more than %(best)s influence, or bid 0 to pass."),
                       best=args["best"])

    def apply(self, state, args, orders, events):
        seat, order = next(iter(orders.items()))
        if order["n"] > args["best"]:
            args["best"], args["winner"] = order["n"], seat
        events.append(event("auction-bid", seat=seat, n=order["n"]))
        args["k"] += 1

    def advance(self, state, args, events):
        FLOW.ret(state)
        winner = args["winner"]
        if winner is None:
            return
        state["factions"][winner]["influence"] -= args["best"]
        c = draw_action(state, events)
        if c is not None:
            to_hand(state, winner, c)
        events.append(event("extra-initiative", seat=winner, paid=args["best"]))
        # the drawn card may put him over the limit: he plays or discards before his extra action
        # (1.6: after it)
        tasks: list[tuple[str, dict[str, Any]]] = [("limit", {}), ("round", {"order": [winner], "k": 0, "extra": True})]
        FLOW.schedule(state, tasks[::-1] if rules_16(state) else tasks)


def over_limit(state: State) -> list[str]:
    return [s for s in state["seats"] if state["factions"][s]["hand"] > HAND_LIMIT]


def check_hand_limit(state: State) -> None:
    """Whoever just went above the hand limit plays or discards at once, before anyone else acts:
    the limit holds "en cualquier momento" and the excess goes "inmediatamente"."""
    if over_limit(state):
        FLOW.call(state, "limit")


@node("limit")
class Limit(FFNode):
    """Hand limit: discard (or, through the any-time window, play) until back at the limit."""
    kind = "discard"

    def waiting(self, state, args):
        return over_limit(state)[:1]

    def choices(self, state, args, seat):
        return [{"act": "discard", "card": c} for c in state["private"][seat]["hand"]]

    def text(self, state, args, seat):
        return message(N_("Hand limit %(limit)s: you hold more; play a card or discard one now."), limit=HAND_LIMIT)

    def apply(self, state, args, orders, events):
        seat, order = next(iter(orders.items()))
        state["private"][seat]["hand"].remove(order["card"])
        state["factions"][seat]["hand"] -= 1
        state["actions"]["discard"].append(order["card"])
        events.append(event("discarded", seat=seat, card=order["card"]))

    def advance(self, state, args, events):
        FLOW.ret(state)
