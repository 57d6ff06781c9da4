"""The small effect vocabulary of the cards. Effects outside it become table rulings."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, event

from .state import (
    TENSION_WAR,
    D,
    add_reserves,
    leader,
    move_support,
    other,
    owner,
    president_party,
    support_party,
)

State = dict[str, Any]
RULING_MENU: list[dict[str, Any]] = [
    {"op": "none"},
    {"op": "support", "party": "L", "n": 1}, {"op": "support", "party": "C", "n": 1},
    {"op": "support", "party": "L", "n": 2}, {"op": "support", "party": "C", "n": 2},
    {"op": "tension", "n": 1}, {"op": "tension", "n": -1},
    {"op": "reserves", "n": -10}, {"op": "reserves", "n": 10},
    {"op": "popularity", "to": "president", "n": 1}, {"op": "popularity", "to": "president", "n": -1},
]


def add_cubes(state: State, sid: str, n: int, events: list[Event], why: str) -> None:
    if n and sid in state["statesmen"]:
        state["statesmen"][sid]["cubes"] += n
        events.append(event("popularity", statesman=sid, n=n, why=why))


def add_card_influence(state: State, sid: str | None, n: int, events: list[Event], why: str) -> None:
    if sid and n and sid in state["statesmen"]:
        state["statesmen"][sid]["influence"] = max(0, state["statesmen"][sid]["influence"] + n)
        events.append(event("influence", statesman=sid, n=n, why=why))


def raise_tension(state: State, n: int, events: list[Event]) -> None:
    blame = state["term"].get("blame")
    if n > 0 and blame and state["options"].get("bad_reputation") and not state["factions"][blame].get("black"):
        state["factions"][blame]["black"] = 1  # optional rule: bad reputation
        events.append(event("black-cube", seat=blame))
    state["tension"] = max(0, min(TENSION_WAR, state["tension"] + n))
    events.append(event("tension", n=n, now=state["tension"]))
    if state["tension"] >= TENSION_WAR and not state.get("ending"):
        state["ending"] = "civil-war"
        events.append(event("civil-war"))


def apply_effects(state: State, effects: list[dict[str, Any]], ctx: dict[str, Any], events: list[Event]) -> list[str]:
    """Apply effects; returns the texts of effects the table must rule on (ruling ops)."""
    d = D(state)
    rulings: list[str] = []
    for eff in effects:
        op = eff["op"]
        if op == "support":
            p = eff["party"]
            pp = president_party(state) if president_party(state) in ("L", "C") else None
            if p == "pres":
                p = pp
            elif p == "anti-pres":
                p = other(pp) if pp else None
            elif p == "own":
                p = ctx.get("party")
            elif p == "neutral":
                sp = support_party(state)
                n = min(eff["n"], abs(state["support"]))
                if sp:
                    move_support(state, other(sp), n)
                    events.append(event("support", party=other(sp), n=n, now=state["support"]))
                continue
            if p in ("L", "C"):
                move_support(state, p, eff["n"])
                events.append(event("support", party=p, n=eff["n"], now=state["support"]))
        elif op == "tension":
            raise_tension(state, eff["n"], events)
        elif op == "reserves":
            add_reserves(state, eff["n"])
            events.append(event("reserves", n=eff["n"], now=state["reserves"]))
        elif op == "revenue":
            state["revenue"] += eff["n"]
            events.append(event("revenue", n=eff["n"], now=state["revenue"]))
        elif op == "influence":
            to = eff["to"]
            targets = {
                "president": [state["offices"]["president"]], "leader-L": [leader(state, "L")],
                "leader-C": [leader(state, "C")], "leaders": [leader(state, "L"), leader(state, "C")],
                "officer": list(ctx.get("officers", [])),
            }[to]
            for sid in targets:
                add_card_influence(state, sid, eff["n"], events, "card effect")
        elif op == "admit":
            admit_state(state, eff["state"], events)
        elif op == "remove":
            remove_issue(state, eff["card"], events)
        elif op == "flag":
            if eff["flag"] not in state["flags"]:
                state["flags"].append(eff["flag"])
                state["flags"].sort()
                events.append(event("flag", flag=eff["flag"]))
        elif op == "popularity":
            sid = state["offices"]["president"] if eff["to"] == "president" else ctx.get("statesman")
            if sid:
                add_cubes(state, sid, eff["n"], events, "card effect")
        elif op == "votes":
            seat = ctx.get("seat")
            if seat:
                c = state["term"]["coalition"]
                c[seat] = c.get(seat, 0) + eff["n"]
                events.append(event("coalition", seat=seat, n=eff["n"]))
        elif op == "gain-influence":
            seat = ctx.get("seat")
            if seat:
                state["factions"][seat]["influence"] += eff["n"]
                events.append(event("faction-influence", seat=seat, n=eff["n"]))
        elif op == "death-roll":
            rulings.append("\x00death")
        elif op == "ruling":
            rulings.append(eff["text"])
    del d
    return rulings


def admit_state(state: State, sid: str, events: list[Event]) -> None:
    if sid in state["map"]:
        return
    state["map"].append(sid)
    state["map"].sort()
    nb = [n for n in D(state).states[sid]["neighbours"] if n in state["map"]]
    events.append(event("state-admitted", state=sid, beside=nb))


def remove_issue(state: State, cid: str, events: list[Event]) -> None:
    iss = state["issues"]
    if cid in iss["removed"] or cid in iss["resolved"]:
        return
    for era in iss["pools"]:
        if cid in iss["pools"][era]:
            iss["pools"][era].remove(cid)
    if cid in state["secret"]["issues"]:
        state["secret"]["issues"].remove(cid)
        iss["left"] -= 1
    if cid in iss["set_aside"]:
        iss["set_aside"].remove(cid)
    iss["removed"].append(cid)
    events.append(event("issue-removed", issue=cid))


def apply_ruling(state: State, choice: dict[str, Any], events: list[Event]) -> None:
    if choice["op"] != "none":
        apply_effects(state, [choice], {}, events)


def owner_or_none(state: State, sid: str | None) -> str | None:
    return owner(state, sid) if sid else None
