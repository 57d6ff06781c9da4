"""Optional rule: Persuasion (option ``persuasion``).

Faction leaders are named after setup (from the President's player clockwise) and may be changed
in the People phase right after the newspapers; a faction leader is immune. In the Round,
``persuade PERSUADER TARGET`` (1 influence, once per initiative, listed before the speech) rolls
2d6 (a natural 2 fails) plus the modifiers of the rulebook's table; 12 or more persuades. Below
12 the persuader's player may spend influence one for one up to 12, then the target's player may
spend to bring it back below 12, alternately until one of them passes. Spent influence returns
to the supply. A persuaded statesman changes faction with his office, cubes and card influence.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, Event, Rng, event, message

from .flowbase import FLOW, FFNode, node, said
from .state import D, available_influence, leader, number, owned, owner, pay, popularity, seats_from

State = dict[str, Any]
NEEDED = 12

# Birth years (historical facts, used for the table's "5 years" modifiers). A statesman missing
# from this table (a replacement deck's own card) is aged from his age-order number instead.
BORN = {
    "benjamin-franklin": 1706, "george-washington": 1732, "john-adams": 1735, "patrick-henry": 1736,
    "george-clinton": 1739, "thomas-jefferson": 1743, "elbridge-gerry": 1744, "john-jay": 1745,
    "timothy-pickering": 1745, "charles-c-pinckney": 1746, "thomas-pinckney": 1750, "james-madison": 1751,
    "alexander-hamilton": 1755, "rufus-king": 1755, "john-marshall": 1755, "aaron-burr": 1756,
    "fisher-ames": 1758, "james-monroe": 1758, "albert-gallatin": 1761, "andrew-jackson": 1767,
    "john-quincy-adams": 1767, "dewitt-clinton": 1769, "william-h-crawford": 1772,
    "william-henry-harrison": 1773, "roger-b-taney": 1777, "henry-clay": 1777, "richard-m-johnson": 1780,
    "daniel-webster": 1782, "john-c-calhoun": 1782, "martin-van-buren": 1782, "thomas-hart-benton": 1782,
    "lewis-cass": 1782, "zachary-taylor": 1784, "david-crockett": 1786, "winfield-scott": 1786,
    "william-r-king": 1786, "john-tyler": 1790, "james-buchanan": 1791, "george-m-dallas": 1792,
    "james-k-polk": 1795, "edward-everett": 1794, "millard-fillmore": 1800, "william-h-seward": 1801,
    "franklin-pierce": 1804, "jefferson-davis": 1808, "hannibal-hamlin": 1809, "abraham-lincoln": 1809,
    "john-c-fremont": 1813, "stephen-a-douglas": 1813, "john-c-breckinridge": 1821,
}


def born(state: State, sid: str) -> int:
    return BORN.get(sid, 1700 + 2 * number(state, sid))


def enabled(state: State) -> bool:
    return bool(state["options"].get("persuasion"))


def faction_leader(state: State, seat: str) -> str | None:
    """The statesman carrying the player's disc (None if he died or changed hands)."""
    sid = state["factions"][seat].get("leader")
    return sid if sid in state["statesmen"] and owner(state, sid) == seat else None


def immune(state: State) -> set[str]:
    return {sid for s in state["seats"] if (sid := faction_leader(state, s)) is not None}


def modifiers(state: State, persuader: str, target: str) -> list[tuple[str, int]]:
    """The table's modifiers that apply, as (reason, value)."""
    d = D(state)
    out: list[tuple[str, int]] = []
    if persuader == state["offices"]["president"] or persuader in (leader(state, "L"), leader(state, "C")):
        out.append(("persuader is President or party leader", 1))
    if popularity(state, target) < 5:
        out.append(("target popularity below 5", 1))
    age = born(state, target) - born(state, persuader)  # > 0: the persuader is older
    if age >= 5:
        out.append(("persuader 5 years older", 1))
    if d.statesmen[persuader]["state"] == d.statesmen[target]["state"]:
        out.append(("same state", 1))
    if popularity(state, persuader) < popularity(state, target):
        out.append(("persuader less popular", -2))
    if age < 0:
        out.append(("persuader younger", -1))
    lead = faction_leader(state, owner(state, target))
    if lead:
        if abs(born(state, target) - born(state, lead)) < 5:
            out.append(("target and his faction leader less than 5 years apart", 1))
        if d.statesmen[lead]["state"] == d.statesmen[target]["state"]:
            out.append(("target and his faction leader from the same state", 1))
    return out


def persuade_choices(state: State, seat: str) -> list[dict[str, Any]]:
    if not enabled(state):
        return []
    safe = immune(state)
    targets = [s for s in sorted(state["statesmen"], key=lambda x: number(state, x))
               if owner(state, s) != seat and s not in safe]
    return [{"act": "persuade", "statesman": p, "target": t}
            for p in owned(state, seat) if available_influence(state, seat, p) >= 1 for t in targets]


def start_persuasion(state: State, seat: str, persuader: str, target: str, events: list[Event]) -> None:
    pay(state, seat, 1, persuader)
    rng = Rng.of(state)
    dice = [rng.between(1, 6), rng.between(1, 6)]
    mods = modifiers(state, persuader, target)
    total = sum(dice) + sum(n for _, n in mods)
    events.append(event("persuasion", statesman=persuader, target=target, dice=dice,
                        modifiers=[f"{why} {n:+d}" for why, n in mods], total=total))
    if sum(dice) == 2:
        events.append(event("persuasion-failed", statesman=persuader, target=target, total=total, why="a natural 2"))
        return
    FLOW.call(state, "persuasion", seat=seat, persuader=persuader, target=target, total=total,
              side="target" if total >= NEEDED else "persuader", tseat=owner(state, target))


@node("persuasion")
class Persuasion(FFNode):
    """The alternate spending: the persuader's player raises the total to 12, the target's player
    lowers it below 12, until the one whose turn it is passes (or cannot spend)."""
    kind = "persuasion"

    def _spender(self, state, args):
        if args["side"] == "persuader":
            need = NEEDED - args["total"]
            if need > 0 and available_influence(state, args["seat"], args["persuader"]) >= need:
                return args["seat"], need
            return None, 0
        need = args["total"] - NEEDED + 1
        if need > 0 and available_influence(state, args["tseat"], args["target"]) >= need:
            return args["tseat"], need
        return None, 0

    def waiting(self, state, args):
        seat, _ = self._spender(state, args)
        return [seat] if seat else []

    def choices(self, state, args, seat):
        _, need = self._spender(state, args)
        return [{"act": "pass"}, {"act": "spend", "n": need}]

    def text(self, state, args, seat):
        d = D(state)
        msgid = N_("Persuasion of %(target)s by %(persuader)s: total %(total)s (12 succeeds). Spend influence to "
                   "persuade him, or pass.") if args["side"] == "persuader" else \
            N_("Persuasion of %(target)s by %(persuader)s: total %(total)s (12 succeeds). Spend influence to resist "
               "the persuasion of him, or pass.")
        return message(msgid, target=d.name(args["target"]), persuader=d.name(args["persuader"]), total=args["total"])

    def apply(self, state, args, orders, events):
        seat, order = next(iter(orders.items()))
        if order["act"] == "pass":
            self._end(state, args, events)
            return
        sid = args["persuader"] if args["side"] == "persuader" else args["target"]
        pay(state, seat, order["n"], sid)
        args["total"] += order["n"] if args["side"] == "persuader" else -order["n"]
        events.append(event("persuasion-spend", seat=seat, n=order["n"], total=args["total"]))
        args["side"] = "target" if args["side"] == "persuader" else "persuader"

    def advance(self, state, args, events):
        self._end(state, args, events)

    def _end(self, state, args, events):
        FLOW.ret(state)
        if args["total"] >= NEEDED and args["target"] in state["statesmen"]:
            state["statesmen"][args["target"]]["owner"] = args["seat"]
            events.append(event("persuaded", statesman=args["target"], seat=args["seat"], was=args["tseat"],
                                total=args["total"]))
        else:
            events.append(event("persuasion-failed", statesman=args["persuader"], target=args["target"],
                                total=args["total"], why="below 12"))


@node("faction-leaders")
class FactionLeaders(FFNode):
    """After setup (``change`` False) each player places his disc on one of his statesmen; in the
    People phase after the newspapers (``change`` True) each may move it (``keep`` by default)."""

    def _seat(self, state, args):
        for seat in args["order"][args["k"]:]:
            if owned(state, seat):
                return seat
        return None

    def waiting(self, state, args):
        seat = self._seat(state, args)
        return [seat] if seat else []

    def prompts(self, state, args):
        from adjudicator.engine import Prompt

        seat = self._seat(state, args)
        if not seat:
            return {}
        kind = "leader-change" if args["change"] else "faction-leader"
        return {seat: Prompt(seat=seat, kind=kind, choices=self.choices(state, args, seat), presorted=True,
                             **said(message(N_("Persuasion: place (or move) your faction leader disc; he cannot be "
                                               "persuaded."))))}

    def choices(self, state, args, seat):
        cur = faction_leader(state, seat)
        out: list[dict[str, Any]] = [{"act": "keep"}] if cur else []
        return out + [{"act": "lead", "statesman": s} for s in owned(state, seat) if s != cur]

    def apply(self, state, args, orders, events):
        seat, order = next(iter(orders.items()))
        if order["act"] == "lead":
            state["factions"][seat]["leader"] = order["statesman"]
            events.append(event("faction-leader", seat=seat, statesman=order["statesman"]))
        args["k"] = args["order"].index(seat) + 1

    def advance(self, state, args, events):
        FLOW.ret(state)


def leader_round(state: State, change: bool) -> None:
    FLOW.call(state, "faction-leaders", order=seats_from(state, _pres_seat(state)), k=0, change=change)


def _pres_seat(state: State) -> str:
    from .state import president_seat

    return president_seat(state)
