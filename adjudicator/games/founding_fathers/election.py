"""The Election: nominees, running mates, cube placement, winners, installation, retirements."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, Event, Prompt, event, message

from .data import APPOINTED
from .effects import add_cubes
from .flowbase import FLOW, FFNode, node, said
from .state import (
    D,
    in_party,
    mark_vacated,
    number,
    owner,
    party,
    popularity,
    president_seat,
    seats_from_left,
    support_party,
)

State = dict[str, Any]


def eligible(state: State, sid: str) -> bool:
    """May run: fewer than two elected terms (and, with the black-ring option, fewer than two rings)."""
    if state["statesmen"][sid]["elected"] >= 2:
        return False
    return not (state["options"].get("black_rings") and state.get("rings", {}).get(sid, 0) >= 2)


def ranked(state: State, p: str | None, exclude: list[str]) -> list[str]:
    pool = [s for s in state["statesmen"] if party(state, s) == p and eligible(state, s) and s not in exclude]
    return sorted(pool, key=lambda s: (-popularity(state, s), number(state, s)))


def rules(state: State) -> tuple[bool, bool]:
    """(single-party dominance, post-12th Amendment)."""
    return abs(state["support"]) >= 9, "twelfth-amendment" in state["flags"]


def is_gerry(state: State, sid: str) -> bool:
    return party(state, sid) == "G"


@node("election")
class Election(FFNode):
    """Stages: start, run (single party: the next three decide whether to run), mate (running
    mates, who may refuse), place (cube placement), decide (winners, tie-breaks), done."""

    def prompts(self, state, args):
        seats = self.waiting(state, args)
        if not seats:
            return {}
        kind, text, choices = self._ask(state, args)
        return {seats[0]: Prompt(seat=seats[0], kind=kind, choices=choices, **said(text), presorted=True)}

    def waiting(self, state, args):
        el = state.get("election") or {}
        if args["stage"] == "run":
            return [owner(state, el["asking"][0])] if el.get("asking") else []
        if args["stage"] != "mate":
            return []
        if el.get("offer"):
            return [owner(state, el["offer"][1])]
        cand = self._cand(state)
        return [owner(state, cand)] if cand else []

    def _ask(self, state, args):
        el = state["election"]
        d = D(state)
        if args["stage"] == "run":
            sid = el["asking"][0]
            return ("candidacy", message(N_("Single-party election: does %(who)s run for President?"), who=d.name(sid)),
                    [{"act": "run", "statesman": sid, "run": False}, {"act": "run", "statesman": sid, "run": True}])
        if el.get("offer"):
            cand, mate = el["offer"]
            return ("running-mate-offer", message(N_("%(candidate)s asks %(mate)s to be his running mate."),
                                                  candidate=d.name(cand), mate=d.name(mate)),
                    [{"act": "mate-answer", "accept": True}, {"act": "mate-answer", "accept": False}])
        cand = self._cand(state)
        choices = [{"act": "mate", "statesman": s} for s in self._mate_choices(state, cand)]
        return ("running-mate", message(N_("Choose the running mate of %(who)s."), who=d.name(cand)),
                choices or [{"act": "mate", "statesman": None}])

    def choices(self, state, args, seat):
        return self._ask(state, args)[2]

    def default(self, state, args, seat):
        return self._ask(state, args)[2][0]

    def _mate_choices(self, state, cand):
        el = state["election"]
        p = party(state, cand) if not is_gerry(state, cand) else support_party(state) or "L"
        taken = (set(el["candidates"]) if el["single"]
                 else set(el["candidates"]) | {m for m in el["mates"].values() if m})
        pres = state["offices"]["president"]
        refused = set(el["refused"].get(cand, []))
        pool = [s for s in state["statesmen"] if in_party(state, s, p) and s not in taken and s != pres
                and s != cand and eligible(state, s) and s not in refused]
        return sorted(pool, key=lambda s: number(state, s))

    def _cand(self, state):
        el = state["election"]
        return next((c for c in el["announce"] if c not in el["mates"]), None)

    def apply(self, state, args, orders, events):
        el = state["election"]
        order = next(iter(orders.values()))
        if order["act"] == "run":
            el["asking"].pop(0)
            events.append(event("candidacy", statesman=order["statesman"], run=order["run"]))
            if order["run"]:
                el["candidates"].append(order["statesman"])
            return
        if order["act"] == "mate-answer":
            cand, mate = el.pop("offer")
            events.append(event("running-mate-answer", candidate=cand, mate=mate, accept=order["accept"]))
            if order["accept"]:
                el["mates"][cand] = mate
            else:
                el["refused"].setdefault(cand, []).append(mate)
            return
        cand = self._cand(state)
        mate = order["statesman"]
        options = self._mate_choices(state, cand)
        accepted_before = mate in el["mates"].values()
        if mate and owner(state, mate) != owner(state, cand) and len(options) > 1 and not accepted_before:
            el["offer"] = [cand, mate]  # the statesman may refuse unless he is the last one eligible
            events.append(event("running-mate-asked", candidate=cand, mate=mate))
            return
        el["mates"][cand] = mate
        events.append(event("running-mate", candidate=cand, mate=mate))

    def advance(self, state, args, events):
        if args["stage"] == "start":
            state["phase"] = "election"
            start_election(state, events)
            args["stage"] = "run"
        elif args["stage"] == "run":
            announce(state, events)
            args["stage"] = "mate" if state["election"]["candidates"] else "done"
        elif args["stage"] == "mate":
            for cand, mate in state["election"]["mates"].items():
                if mate:
                    events.append(event("running-mate", candidate=cand, mate=mate))
            prepare_placement(state, events)
            args["stage"] = "place"
            FLOW.call(state, "place")
        elif args["stage"] == "place":
            state["election"]["votes"] = tally(state)
            args["stage"] = "decide"
        elif args["stage"] == "decide":
            if decide(state, events):
                args["stage"] = "done"
        else:
            FLOW.ret(state)


def start_election(state: State, events: list[Event]) -> None:
    single, post12 = rules(state)
    asking: list[str] = []
    if single:
        dominant = support_party(state)
        pool = ranked(state, dominant, [])
        gerry = [s for s in state["statesmen"] if is_gerry(state, s) and eligible(state, s)]
        pool = sorted(pool + gerry, key=lambda s: (-popularity(state, s), number(state, s)))
        cands = pool[:1]  # the most popular must run; the next three may (they are asked)
        asking = pool[1:4]
    else:
        cands = [c for p in ("L", "C") for c in ranked(state, p, [])[:1]]
    state["election"] = {"single": single, "post12": post12, "candidates": cands, "announce": [],
                         "asking": asking, "mates": {}, "refused": {}, "order": [], "cubes": {},
                         "first": [], "turn": 0, "passes": 0, "result": None, "votes": {}, "tb": None}
    events.append(event("nominees", candidates=cands, single=single, post12=post12))


def announce(state: State, events: list[Event]) -> None:
    """Announcement order of running mates: the party without public support first (at 0: the
    less popular, then the younger candidate). Elbridge Gerry always announces first."""
    el = state["election"]
    sp = support_party(state)

    def key(c):
        gerry = 0 if is_gerry(state, c) else 1
        if sp and not el["single"]:
            return (gerry, 0 if party(state, c) != sp else 1, 0, 0)
        return (gerry, 0, popularity(state, c), -number(state, c))
    el["announce"] = sorted(el["candidates"], key=key)


def prepare_placement(state: State, events: list[Event]) -> None:
    el = state["election"]
    sp = support_party(state)
    cands = el["candidates"]
    if el["single"]:
        people = cands + [m for m in dict.fromkeys(el["mates"][c] for c in cands) if m and m not in cands]
        order = sorted(people, key=lambda s: (-popularity(state, s), number(state, s)))
    else:
        def first_key(c):
            if sp:
                return 0 if party(state, c) == sp else 1
            return (-popularity(state, c), number(state, c))
        order = []
        for c in sorted(cands, key=first_key):
            order.append(c)
            if el["mates"].get(c):
                order.append(el["mates"][c])
    # Elbridge Gerry places last, or first when public support is at 0
    gerry = [s for s in order if is_gerry(state, s)]
    rest = [s for s in order if s not in gerry]
    order = gerry + rest if state["support"] == 0 else rest + gerry
    el["order"] = order
    el["first"] = list(order)  # the first (initial) cubes, in this order unless someone defers
    el["deferred"] = []
    el["cubes"] = {}
    el["placed"] = {s: [] for s in order}
    events.append(event("placement-order", order=order))


def capacity(state: State) -> int:
    el = state["election"]
    return 1 if el["post12"] and not el["single"] else 2


def side(state: State, sid: str) -> str:
    el = state["election"]
    return "p" if sid in el["candidates"] else "v"


def has_room(state: State, st: str, sid: str) -> bool:
    el = state["election"]
    here = el["cubes"].get(st, [])
    if sid in here:
        return False
    if el["single"] and el["post12"]:
        return not any(side(state, x) == side(state, sid) for x in here)
    return len(here) < capacity(state)


def adjacent(state: State, st: str) -> list[str]:
    return [n for n in D(state).states[st]["neighbours"] if n in state["map"]]


def legal_places(state: State, sid: str) -> list[str]:
    el = state["election"]
    mine = el["placed"][sid]
    room = [st for st in state["map"] if has_room(state, st, sid)]
    if not room:
        return []
    unattached = [st for st in room if not adjacent(state, st)]
    if not mine:
        home = D(state).statesmen[sid]["state"]
        if home in room:
            return [home]
        if side(state, sid) == "p" or el["single"]:
            dist = distances(state, home)
            reach = [st for st in room if st in dist]
            if reach:
                best = min(dist[st] for st in reach)
                return sorted(st for st in reach if dist[st] == best)
            return sorted(unattached)
        mates = [c for c, m in el["mates"].items() if m == sid]
        near = sorted({n for c in mates for st in el["placed"].get(c, []) for n in adjacent(state, st)} & set(room))
        return near or sorted(unattached)
    near = sorted({n for st in mine for n in adjacent(state, st)} & set(room))
    return near or sorted(unattached)


def distances(state: State, start: str) -> dict[str, int]:
    """Map distance from a home state; a home state not in the Union counts every state as near."""
    if start not in state["map"]:
        return {st: 0 for st in state["map"]}
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for st in frontier:
            for n in adjacent(state, st):
                if n not in dist:
                    dist[n] = dist[st] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def may_defer(state: State, sid: str) -> bool:
    """The first placer of each side may put his initial cube after the other initial cubes of
    his side (presidential or vice-presidential)."""
    el = state["election"]
    first = el["first"]
    if not first or first[0] != sid or sid in el["deferred"]:
        return False
    same = [s for s in el["order"] if side(state, s) == side(state, sid)]
    return bool(same) and same[0] == sid and any(side(state, s) == side(state, sid) for s in first[1:])


@node("place")
class Place(FFNode):
    kind = "place"

    def _current(self, state):
        el = state["election"]
        while el["first"]:
            sid = el["first"][0]
            if sid in state["statesmen"] and legal_places(state, sid):
                return sid
            el["first"].pop(0)
        order = el["order"]
        while el["passes"] < len(order):
            sid = order[el["turn"] % len(order)]
            if sid in state["statesmen"] and legal_places(state, sid):
                return sid
            el["turn"] += 1
            el["passes"] += 1
        return None

    def waiting(self, state, args):
        sid = self._current(state)
        if sid is None:
            return []
        if len(legal_places(state, sid)) == 1 and not may_defer(state, sid):
            return []
        return [owner(state, sid)]

    def choices(self, state, args, seat):
        sid = self._current(state)
        out = [{"act": "place", "state": st} for st in legal_places(state, sid)]
        if may_defer(state, sid):
            out.append({"act": "place", "state": "defer"})
        return out

    def text(self, state, args, seat):
        return message(N_("Place a cube for %(who)s."), who=D(state).name(self._current(state)))

    def _put(self, state, st, events):
        el = state["election"]
        sid = self._current(state)
        if st == "defer":
            el["deferred"].append(sid)
            first = el["first"]
            first.pop(0)
            last_same = max(k for k, s in enumerate(first) if side(state, s) == side(state, sid))
            first.insert(last_same + 1, sid)
            events.append(event("cube-deferred", statesman=sid))
            return
        el["cubes"].setdefault(st, []).append(sid)
        el["placed"][sid].append(st)
        if el["first"]:
            el["first"].pop(0)
        else:
            el["turn"] += 1
        el["passes"] = 0
        events.append(event("cube", statesman=sid, state=st))

    def apply(self, state, args, orders, events):
        self._put(state, next(iter(orders.values()))["state"], events)

    def advance(self, state, args, events):
        sid = self._current(state)
        if sid is None:
            FLOW.ret(state)
            return
        self._put(state, legal_places(state, sid)[0], events)


def tally(state: State) -> dict[str, int]:
    el = state["election"]
    era = state["era"]
    ev = {st: D(state).states[st]["ev"][era] for st in state["map"]}
    votes = {s: 0 for s in el["order"]}
    for st, who in el["cubes"].items():
        for s in who:
            votes[s] = votes.get(s, 0) + ev[st]
    return votes


# ------------------------------------------------------------------------------ the tie-break
def tb_default_pick(state: State, sid: str, tied: list[str]) -> str | None:
    """Default vote of a statesman: his owner's tied candidate, else his party's, else none."""
    mine = [c for c in tied if owner(state, c) == owner(state, sid)]
    if mine:
        return mine[0]
    p = party(state, sid)
    same = [c for c in tied if p != "G" and party(state, c) == p]
    return same[0] if same else None


def tb_states(state: State) -> list[str]:
    """States that vote in a tie-break: those with a statesman in play from them."""
    d = D(state)
    homes = {d.statesmen[s]["state"] for s in state["statesmen"]}
    return [st for st in state["map"] if st in homes]


def tb_voters(state: State, st: str) -> list[str]:
    """The state's statesmen, in the usual voting order (seats from the President's left)."""
    d = D(state)
    order = seats_from_left(state) if state["offices"]["president"] else list(state["seats"])
    here = [s for s in state["statesmen"] if d.statesmen[s]["state"] == st]
    return sorted(here, key=lambda s: (order.index(owner(state, s)), number(state, s)))


@node("tiebreak")
class TieBreak(FFNode):
    """The House-style tie-break: state by state (in the order the President chooses), each
    statesman from the state gives his Congress votes to a tied candidate of his choice or
    abstains; a state goes to the candidate with most votes (a tied state does not count).
    Most states wins; a tie is decided by the Chief Justice's player, else popularity, else age."""

    def _stage(self, state, args):
        if args.get("cj"):
            return "cj"
        if args.get("voters"):
            return "vote"
        if args["states"]:
            return "state"
        return None

    def waiting(self, state, args):
        stage = self._stage(state, args)
        if stage == "state":
            if len(args["states"]) == 1 or not state["offices"]["president"]:
                return []
            return [president_seat(state)]
        if stage == "vote":
            return [owner(state, args["voters"][0])]
        if stage == "cj":
            cj = state["offices"]["chief-justice"]
            return [owner(state, cj)] if cj else []
        return []

    def prompts(self, state, args):
        seats = self.waiting(state, args)
        if not seats:
            return {}
        stage = self._stage(state, args)
        d = D(state)
        kind = {"state": "tiebreak-state", "vote": "tiebreak-vote", "cj": "tiebreak-justice"}[stage]
        if stage == "vote":
            text = message(N_("Tie-break in %(state)s: whom does %(who)s back?"), state=d.states[args["at"]]["name"],
                           who=d.name(args["voters"][0]))
        elif stage == "state":
            text = message(N_("Tie-break: choose the next state to vote."))
        else:
            text = message(N_("Tie-break: the states are tied; as Chief Justice, decide who wins."))
        return {seats[0]: Prompt(seat=seats[0], kind=kind, choices=self.choices(state, args, seats[0]),
                                 **said(text), presorted=True)}

    def choices(self, state, args, seat):
        stage = self._stage(state, args)
        if stage == "state":
            return [{"act": "tb-state", "state": st} for st in args["states"]]
        if stage == "vote":
            return [{"act": "back", "candidate": c} for c in [*args["tied"], None]]
        return [{"act": "back", "candidate": c} for c in args["cj"]]

    def default(self, state, args, seat):
        stage = self._stage(state, args)
        if stage == "vote":
            return {"act": "back", "candidate": tb_default_pick(state, args["voters"][0], args["tied"])}
        return self.choices(state, args, seat)[0]

    def _open(self, state, args, st, events):
        args["states"].remove(st)
        args["at"] = st
        args["voters"] = tb_voters(state, st)
        args["tally"] = {c: 0 for c in args["tied"]}
        events.append(event("tiebreak-state", state=st))

    def _close_state(self, state, args, events):
        tally_ = args["tally"]
        top = max(tally_.values())
        best = [c for c in args["tied"] if tally_[c] == top]
        if top > 0 and len(best) == 1:
            args["won"][best[0]] += 1
        events.append(event("tiebreak-state-result", state=args["at"], votes=dict(tally_),
                            winner=best[0] if top > 0 and len(best) == 1 else None))
        args["at"] = None

    def apply(self, state, args, orders, events):
        order = next(iter(orders.values()))
        stage = self._stage(state, args)
        if stage == "state":
            self._open(state, args, order["state"], events)
        elif stage == "vote":
            sid = args["voters"].pop(0)
            c = order["candidate"]
            if c:
                args["tally"][c] += D(state).statesmen[sid]["votes"]
            events.append(event("tiebreak-vote", statesman=sid, candidate=c))
            if not args["voters"]:
                self._close_state(state, args, events)
        else:
            args["first"] = order["candidate"]
            args["cj"] = None
            events.append(event("tiebreak-justice", candidate=order["candidate"]))
            self._finish(state, args, events)

    def advance(self, state, args, events):
        stage = self._stage(state, args)
        if stage == "state":
            self._open(state, args, args["states"][0], events)
            return
        if stage == "vote":  # cannot happen: a voter is always prompted
            self._close_state(state, args, events)
            return
        if args.get("at"):
            self._close_state(state, args, events)
            return
        won = args["won"]
        top = max(won.values())
        best = [c for c in args["tied"] if won[c] == top]
        if len(best) > 1 and state["offices"]["chief-justice"] and args.get("first") is None:
            args["cj"] = best
            return
        self._finish(state, args, events)

    def _finish(self, state, args, events):
        won = args["won"]
        first = args.get("first")
        ranking = sorted(args["tied"], key=lambda c: (c != first, -won[c], -popularity(state, c), number(state, c)))
        state["election"]["tb"] = ranking
        events.append(event("tiebreak-result", states=dict(won), ranking=ranking))
        FLOW.ret(state)


def start_tiebreak(state: State, tied: list[str], why: str, events: list[Event]) -> None:
    state["election"]["tb"] = None
    events.append(event("tiebreak", candidates=tied, office=why))
    FLOW.call(state, "tiebreak", tied=tied, states=tb_states(state), at=None, voters=[], tally={},
              won={c: 0 for c in tied}, cj=None, first=None)


# ------------------------------------------------------------------------------ the winners
def decide(state: State, events: list[Event]) -> bool:
    """Find the winners under the election's rule set; a tie calls the tie-break and this runs
    again when it returns (`el["decide"]` keeps what is settled). True when installed."""
    el = state["election"]
    votes = el["votes"]
    dec = el.setdefault("decide", {"president": None, "vp": None, "step": "president"})
    live = [s for s in el["order"] if s in state["statesmen"]]
    if not live:
        return True
    ev_total = sum(D(state).states[st]["ev"][state["era"]] for st in state["map"])
    if el["post12"] and not el["single"]:
        if dec["president"] is None:
            teams = {c: votes.get(c, 0) + votes.get(el["mates"].get(c) or "", 0)
                     for c in el["candidates"] if c in state["statesmen"]}
            best = max(teams.values())
            top = [c for c in teams if teams[c] == best]
            if len(top) > 1 and el["tb"] is None:
                start_tiebreak(state, top, "president", events)
                return False
            dec["president"] = top[0] if len(top) == 1 else el["tb"][0]
            mate = el["mates"].get(dec["president"])
            dec["vp"] = mate if mate in state["statesmen"] else None
            dec["step"] = "done"
    elif el["single"] and el["post12"]:
        ps = [c for c in el["candidates"] if c in state["statesmen"]]
        vs = [m for m in dict.fromkeys(el["mates"].values()) if m and m in state["statesmen"]]
        if dec["step"] == "president":
            pick = _majority(state, ps, votes, ev_total, events)
            if pick is None:
                return False
            dec["president"], dec["step"] = pick, "vp"
            el["tb"] = None
        if dec["step"] == "vp":
            vs = [v for v in vs if v != dec["president"]]
            pick = _majority(state, vs, votes, ev_total, events) if vs else ""
            if pick is None:
                return False
            dec["vp"], dec["step"] = pick or None, "done"
    else:
        if dec["step"] == "president":
            pick = _pre12(state, live, votes, ev_total if el["single"] else 0, events)
            if pick is None:
                return False
            dec["president"], dec["vp"], dec["step"] = pick[0], pick[1], "vp" if pick[1] == "?" else "done"
            el["tb"] = None
        if dec["step"] == "vp":
            rest = [s for s in live if s != dec["president"]]
            best = max(votes.get(c, 0) for c in rest)
            top = [c for c in rest if votes.get(c, 0) == best]
            if len(top) > 1 and el["tb"] is None:
                start_tiebreak(state, top[:3], "vice-president", events)
                return False
            dec["vp"], dec["step"] = (top[0] if len(top) == 1 else el["tb"][0]), "done"
    pres, vp = dec["president"], dec["vp"]
    el["result"] = {"votes": votes, "president": pres, "vice-president": vp}
    events.append(event("election-result", votes=votes, president=pres, vice_president=vp, era=state["era"]))
    install(state, pres, vp, events)
    return True


def _majority(state: State, cands: list[str], votes: dict[str, int], total: int, events: list[Event]) -> str | None:
    """Post-12th single party: most votes and more than half of all states' votes, else the
    tie-break among the three best. None while the tie-break runs."""
    el = state["election"]
    ranked_ = sorted(cands, key=lambda c: (-votes.get(c, 0), number(state, c)))
    best = votes.get(ranked_[0], 0)
    top = [c for c in ranked_ if votes.get(c, 0) == best]
    if len(top) == 1 and 2 * best > total:
        return top[0]
    if el["tb"] is None:
        start_tiebreak(state, (top if len(top) > 1 else ranked_)[:3], "majority", events)
        return None
    return el["tb"][0]


def _pre12(state: State, live: list[str], votes: dict[str, int], total: int, events: list[Event]):
    """Pre-12th: the most votes is President (single party: also more than half of all states'
    votes), second VP. A tie or no majority: tie-break among the three best; the winner is
    President and the second in states VP. Returns (president, vp or "?") or None."""
    el = state["election"]
    ranked_ = sorted(live, key=lambda c: (-votes.get(c, 0), number(state, c)))
    best = votes.get(ranked_[0], 0)
    top = [c for c in ranked_ if votes.get(c, 0) == best]
    if len(top) == 1 and (not total or 2 * best > total):
        return top[0], ("?" if len(ranked_) > 1 else None)
    if el["tb"] is None:
        start_tiebreak(state, (top if len(top) > 1 else ranked_)[:3], "president", events)
        return None
    tb = el["tb"]
    return tb[0], (tb[1] if len(tb) > 1 else None)


def install(state: State, pres: str, vp: str | None, events: list[Event]) -> None:
    d = D(state)
    old = state["offices"]["president"]
    for sid in (pres, vp):
        if sid:
            for o, h in state["offices"].items():
                if h == sid:
                    state["offices"][o] = None
                    if o in APPOINTED:  # vacant by election: a holder of another office may take it
                        mark_vacated(state, o)
    state["offices"]["president"] = pres
    state["offices"]["vice-president"] = vp
    state["statesmen"][pres]["elected"] += 1
    add_cubes(state, pres, d.offices["president"]["appointment_popularity"], events, "elected President")
    if vp:
        add_cubes(state, vp, d.offices["vice-president"]["appointment_popularity"], events, "elected Vice-President")
    if state["options"].get("black_rings"):  # a losing presidential nominee takes a black ring
        rings = state.setdefault("rings", {})
        for c in state["election"]["candidates"]:
            if c != pres and c in state["statesmen"]:
                rings[c] = rings.get(c, 0) + 1
                events.append(event("black-ring", statesman=c, rings=rings[c]))
    if old and old in state["statesmen"] and old != pres:  # not re-elected (or termed out): retires
        retire(state, old, events)


def retire(state: State, sid: str, events: list[Event]) -> None:
    s = state["statesmen"].pop(sid)
    for o, h in state["offices"].items():
        if h == sid:
            state["offices"][o] = None
    state["factions"][s["owner"]]["vp"] += s["cubes"]
    state["gone"][sid] = "retired"
    events.append(event("retired", statesman=sid, seat=s["owner"], vp=s["cubes"]))


def first_president_seat(state: State) -> str:
    return president_seat(state)


def voting_order(state: State) -> list[str]:
    return seats_from_left(state)
