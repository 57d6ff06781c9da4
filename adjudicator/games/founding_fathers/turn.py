"""The turn: phases in order, the Treasury, Death (Hand of Time), table rulings and the end."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, Event, Prompt, Rng, event, message

from .data import APPOINTED, CABINET
from .effects import RULING_MENU, add_cubes, apply_ruling
from .flowbase import FLOW, FFNode, node, said
from .issues import start_issues
from .offices import appoint
from .state import (
    D,
    add_reserves,
    available_influence,
    congress_votes,
    eligible_appointees,
    in_party,
    mark_vacated,
    move_support,
    number,
    office_of,
    other,
    owned,
    owner,
    party,
    popularity,
    president_seat,
    rules_16,
    seats_from,
    since,
)

State = dict[str, Any]


@node("turn")
class Turn(FFNode):
    def advance(self, state, args, events):
        stage = args["stage"]
        if state.get("ending"):
            finish(state, events)
            return
        if stage == "issues":
            start_issues(state, events)
            args["stage"] = "treasury"
            FLOW.call(state, "desk")
            if state["options"].get("reduced_negotiation"):
                from .committee import start_committee

                start_committee(state, "draft", events)
        elif stage == "treasury":
            treasury(state, events)
            args["stage"] = "election"
        elif stage == "election":
            args["stage"] = "people"
            FLOW.call(state, "election", stage="start")
        elif stage == "people":
            if state["issues"]["last_drawn"]:
                state["ending"] = "last-issue"
                finish(state, events)
                return
            args["stage"] = "next"
            FLOW.call(state, "people", stage="income")
        else:
            state["turn"] += 1
            args["stage"] = "issues"


def treasury(state: State, events: list[Event]) -> None:
    """Revenue into reserves, interest on debt (rounded toward more debt), the crisis check."""
    state["phase"] = "treasury"
    add_reserves(state, state["revenue"])
    interest = 0
    if state["reserves"] < 0:
        interest = -((-state["reserves"] * 3) // -10)  # ceil(3 * debt / 10)
        add_reserves(state, -interest)
    events.append(event("treasury", revenue=state["revenue"], interest=interest, reserves=state["reserves"]))
    if state["reserves"] < -100:
        crisis(state, Rng.of(state).between(1, 6), events)


CRISIS = {0: (3, 3), 1: (2, 2), 2: (2, 1), 3: (1, 1), 4: (1, 0)}  # result: support lost, popularity lost


def crisis(state: State, roll: int, events: list[Event]) -> None:
    result = roll - (-state["reserves"]) // 100
    pres = state["offices"]["president"]
    events.append(event("economic-crisis", roll=roll, result=result))
    if result <= -1:
        if pres:
            add_cubes(state, pres, -5, events, "monetary collapse")
        state["ending"] = "monetary-collapse"
        events.append(event("monetary-collapse"))
        return
    lost, pop = CRISIS.get(result, (0, 0))
    if pres and lost:
        p = party(state, pres)
        if p == "G":  # Elbridge Gerry: support moves toward 0 instead
            sp = "L" if state["support"] > 0 else "C" if state["support"] < 0 else None
            if sp:
                move_support(state, other(sp), min(lost, abs(state["support"])))
        else:
            move_support(state, other(p), lost)
    if pres and pop:
        add_cubes(state, pres, -pop, events, "economic crisis")


# ------------------------------------------------------------------------------ death
def victim(state: State, roll: int) -> str | None:
    active = sorted(state["statesmen"], key=lambda s: number(state, s))
    k = 0 if roll <= 3 else 1 if roll <= 5 else 2
    return active[k] if k < len(active) else (active[-1] if active else None)


def kill(state: State, sid: str, events: list[Event], why: str = "death") -> None:
    """Remove a statesman (death): offices, influence, victory points; returns after bookkeeping."""
    s = state["statesmen"].pop(sid)
    seat = s["owner"]
    office = None
    for o, h in state["offices"].items():
        if h == sid:
            office = o
            state["offices"][o] = None
    state["factions"][seat]["vp"] += s["cubes"]
    state["gone"][sid] = why
    events.append(event("died", statesman=sid, seat=seat, office=office, vp=s["cubes"]))
    if office == "president":
        state["term"]["dead_president_party"] = D(state).statesmen[sid]["party"]
        vp = state["offices"]["vice-president"]
        if vp:
            state["offices"]["president"], state["offices"]["vice-president"] = vp, None
            events.append(event("succeeded", office="president", statesman=vp))
    elif office in APPOINTED:
        state["term"]["replacements"].append(office)
        mark_vacated(state, office)  # a holder of another office may be named to it


def congress_party(state: State) -> list[str]:
    totals = {p: 0 for p in ("L", "C")}
    d = D(state)
    for sid in state["statesmen"]:
        if office_of(state, sid) is None and party(state, sid) in totals:
            totals[party(state, sid)] += d.statesmen[sid]["votes"]
    best = max(totals.values())
    return [p for p in ("L", "C") if totals[p] == best]


def succession_candidates(state: State) -> list[str]:
    d = D(state)
    parties = congress_party(state)
    pool = [s for s in state["statesmen"] if office_of(state, s) is None and party(state, s) in parties]
    if not pool:
        pool = [s for s in state["statesmen"] if office_of(state, s) is None] or list(state["statesmen"])
    if not pool:
        return []
    top = max(d.statesmen[s]["votes"] for s in pool)
    return sorted((s for s in pool if d.statesmen[s]["votes"] == top), key=lambda s: number(state, s))


def bidders(state: State, cands: list[str]) -> dict[str, str]:
    """Seat -> its oldest tied candidate."""
    out: dict[str, str] = {}
    for s in cands:
        out.setdefault(owner(state, s), s)
    return out


@node("death")
class Death(FFNode):
    """Hand of Time roll, then succession (sealed bid on a tie) and the bereaved player's rule."""
    kind = "succession-bid"
    sealed = True

    def waiting(self, state, args):
        if args["stage"] != "bid":
            return []
        return sorted(bidders(state, args["cands"]))

    def choices(self, state, args, seat):
        total = (state["factions"][seat]["influence"]
                 + sum(state["statesmen"][s]["influence"] for s in owned(state, seat)))
        return [{"act": "bid", "n": n} for n in range(total + 1)]

    def text(self, state, args, seat):
        return message(N_("Sealed bid for the Presidency: influence offered (only the winner pays)."))

    def default(self, state, args, seat):
        return {"act": "bid", "n": 0}

    def advance(self, state, args, events):
        if args["stage"] == "roll":
            roll = Rng.of(state).between(1, 6)
            sid = victim(state, roll)
            events.append(event("hand-of-time-roll", roll=roll, statesman=sid))
            if sid is None:
                FLOW.ret(state)
                return
            kill(state, sid, events)
            args["bereaved"] = owner_of_gone(state, sid, events)
            args["stage"] = "succession"
        if args["stage"] == "succession":
            if state["offices"]["president"] is None and state["statesmen"]:
                cands = succession_candidates(state)
                if len(bidders(state, cands)) > 1:
                    args["stage"] = "bid"
                    args["cands"] = cands
                    return
                install_president(state, cands[0], events)
            args["stage"] = "bereaved"
        if args["stage"] == "bereaved":
            FLOW.ret(state)
            seat = args.get("bereaved")
            tasks: list[tuple[str, dict[str, Any]]] = []
            dead = state["term"].pop("dead_president_party", None)
            pres = state["offices"]["president"]
            if dead and pres and party(state, pres) in ("L", "C") and party(state, pres) != dead:
                if state["options"].get("reduced_negotiation"):
                    from .committee import redraft

                    redraft(state, events)
                else:
                    tasks.append(("reappoint", {"done": []}))
            if seat and not owned(state, seat) and not _playable_statesman(state, seat):
                events.append(event("hand-revealed", seat=seat, hand=list(state["private"][seat]["hand"])))
                tasks.append(("bereaved", {"seat": seat, "donor": None, "paid": False}))
            FLOW.schedule(state, tasks)

    def apply(self, state, args, orders, events):
        bids = {seat: o["n"] for seat, o in orders.items()}
        by_seat = bidders(state, args["cands"])
        best = max(bids.values())
        winners = [s for s in by_seat if bids[s] == best]
        win_seat = min(winners, key=lambda s: number(state, by_seat[s]))
        sid = by_seat[win_seat]
        events.append(event("succession-bids", bids=bids, winner=sid))
        _pay_any(state, win_seat, best)
        install_president(state, sid, events)
        args["stage"] = "bereaved"


def _pay_any(state: State, seat: str, n: int) -> None:
    take = min(n, state["factions"][seat]["influence"])
    state["factions"][seat]["influence"] -= take
    n -= take
    for sid in owned(state, seat):
        t = min(n, state["statesmen"][sid]["influence"])
        state["statesmen"][sid]["influence"] -= t
        n -= t


def install_president(state: State, sid: str, events: list[Event]) -> None:
    for o, h in state["offices"].items():
        if h == sid:
            state["offices"][o] = None
            if o in APPOINTED and not rules_16(state):  # a gap left by the death: refilled as a replacement
                state["term"]["replacements"].append(o)
                mark_vacated(state, o)
    state["offices"]["president"] = sid
    events.append(event("succeeded", office="president", statesman=sid))


def owner_of_gone(state: State, sid: str, events: list[Event]) -> str:
    for e in reversed(events):
        if e["kind"] == "died" and e["data"]["statesman"] == sid:
            return e["data"]["seat"]
    return ""


def _playable_statesman(state: State, seat: str) -> bool:
    d = D(state)
    return any(d.is_statesman(c) and d.statesmen[c]["state"] in state["map"] for c in state["private"][seat]["hand"])


def donors(state: State, seat: str) -> list[str]:
    """The players (other than `seat`) with the most statesmen, or tied for the most."""
    counts = {s: len(owned(state, s)) for s in state["seats"] if s != seat}
    if not counts or max(counts.values()) == 0:
        return []
    best = max(counts.values())
    return [s for s in seats_from(state, seat)[1:] if counts[s] == best]


@node("bereaved")
class Bereaved(FFNode):
    """A player without statesmen (or, with the reduced-faction option, with one, who paid 1
    influence) names a player with the most statesmen, who gives him one of his statesmen."""

    def _kind(self, args):
        return "name-donor" if args["donor"] is None else "give-statesman"

    def waiting(self, state, args):
        if args["donor"] is None:
            ds = donors(state, args["seat"])
            return [args["seat"]] if len(ds) > 1 else []
        return [args["donor"]] if owned(state, args["donor"]) else []

    def prompts(self, state, args):
        seats = self.waiting(state, args)
        if not seats:
            return {}
        d = D(state)
        text = (message(N_("Name a player with the most statesmen; he gives you one of his.")) if args["donor"] is None
                else message(N_("Give one of your statesmen to %(seat)s."), seat=args["seat"]))
        return {seats[0]: Prompt(seat=seats[0], kind=self._kind(args), choices=self.choices(state, args, seats[0]),
                                 **said(text), presorted=True)} if d.id else {}

    def choices(self, state, args, seat):
        if args["donor"] is None:
            return [{"act": "ask", "seat": s} for s in donors(state, args["seat"])]
        mine = owned(state, args["donor"])
        free = [s for s in reversed(mine) if office_of(state, s) is None]
        return [{"act": "give-statesman", "statesman": s} for s in free + [s for s in reversed(mine) if s not in free]]

    def apply(self, state, args, orders, events):
        order = next(iter(orders.values()))
        if order["act"] == "ask":
            args["donor"] = order["seat"]
            events.append(event("donor-named", seat=args["seat"], donor=order["seat"]))
            return
        self._give(state, args, order["statesman"], events)

    def _give(self, state, args, sid, events):
        state["statesmen"][sid]["owner"] = args["seat"]
        events.append(event("statesman-given", statesman=sid, seat=args["seat"], donor=args["donor"]))
        FLOW.ret(state)

    def advance(self, state, args, events):
        if args["donor"] is None:
            ds = donors(state, args["seat"])
            if not ds:
                FLOW.ret(state)
                return
            args["donor"] = ds[0]
            events.append(event("donor-named", seat=args["seat"], donor=ds[0]))
            return
        FLOW.ret(state)  # the donor has no statesman left (cannot happen: he has the most)


def reappointable(state: State) -> list[str]:
    pres = state["offices"]["president"]
    p = party(state, pres)
    return [o for o in (*CABINET, "general") if state["offices"][o] and not in_party(state, state["offices"][o], p)]


@node("reappoint")
class Reappoint(FFNode):
    """A President who succeeded one of the other party may at once re-appoint the cabinet
    offices and the General held by statesmen outside his party (with the office's popularity)."""
    kind = "reappoint"

    def _options(self, state, args):
        out = []
        for office in reappointable(state):
            if office in args["done"]:
                continue
            held = state["offices"][office]
            state["offices"][office] = None
            cands = [s for s in eligible_appointees(state, office) if s != held]
            state["offices"][office] = held
            out += [{"act": "appoint", "office": office, "statesman": s} for s in cands]
        return out

    def waiting(self, state, args):
        if not state["offices"]["president"] or not self._options(state, args):
            return []
        return [president_seat(state)]

    def choices(self, state, args, seat):
        return [{"act": "end"}, *self._options(state, args)]

    def text(self, state, args, seat):
        return message(N_("You succeeded a President of the other party: re-appoint offices held outside your party, "
                          "or end."))

    def apply(self, state, args, orders, events):
        order = next(iter(orders.values()))
        if order["act"] == "end":
            FLOW.ret(state)
            return
        state["offices"][order["office"]] = None
        args["done"].append(order["office"])
        appoint(state, order["office"], order["statesman"], events)

    def advance(self, state, args, events):
        FLOW.ret(state)


# ------------------------------------------------------------------------------ rulings
@node("ruling")
class Ruling(FFNode):
    """An effect outside the vocabulary: the President's seat rules for the table."""
    kind = "ruling"

    def waiting(self, state, args):
        return [president_seat(state)] if state["offices"]["president"] else []

    def choices(self, state, args, seat):
        return [{"act": "rule", **c} for c in RULING_MENU]

    def text(self, state, args, seat):
        return message(N_("Table ruling needed: %(text)s. Choose the effect the table agrees on."), text=args["text"])

    def advance(self, state, args, events):
        FLOW.ret(state)

    def apply(self, state, args, orders, events):
        order = dict(next(iter(orders.values())))
        order.pop("act")
        events.append(event("ruling", text=args["text"], effect=order))
        apply_ruling(state, order, events)
        FLOW.ret(state)


# ------------------------------------------------------------------------------ the end
def finish(state: State, events: list[Event]) -> None:
    reason = state.get("ending") or "last-issue"
    scores = {}
    for seat in state["seats"]:
        cubes = sum(state["statesmen"][s]["cubes"] for s in owned(state, seat))
        score = state["factions"][seat]["vp"] + cubes
        if reason in ("monetary-collapse", "civil-war"):
            score -= congress_votes(state, seat) + collapse_influence(state, seat)
        scores[seat] = score
    best = max(scores.values())
    winners = [s for s in state["seats"] if scores[s] == best]
    if reason == "civil-war" and state["options"].get("bad_reputation"):
        clean = [s for s in state["seats"] if not state["factions"][s].get("black")]
        if clean:
            best = max(scores[s] for s in clean)
            winners = [s for s in clean if scores[s] == best]
    state["result"] = {"reason": reason, "scores": scores, "winners": winners, "turn": state["turn"]}
    state["phase"] = "over"
    events.append(event("game-over", reason=reason, scores=scores, winners=winners))
    FLOW.end(state)


def collapse_influence(state: State, seat: str) -> int:
    """The influence a player subtracts after a monetary collapse or a civil war.

    "cada jugador debe restar el número del congreso más los puntos de la influencia que tenga en
    su marcador particular": his faction's own supply (available_influence without a statesman),
    not the influence on his statesmen's cards, which the rulebook keeps apart ("La influencia en
    las cartas de Estadista no puede ser cedida a otro jugador o colocada en el suministro de la
    facción"). Rules before 1.6-3 subtracted the cards' influence too."""
    cards = 0 if since(state, "1.6-3") else sum(state["statesmen"][s]["influence"] for s in owned(state, seat))
    return available_influence(state, seat) + cards


def popularity_of(state: State, sid: str) -> int:
    return popularity(state, sid)
