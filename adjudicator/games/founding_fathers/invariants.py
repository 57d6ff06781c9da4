"""Consistency checks run by self-play after every step."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .data import ERAS
from .state import HAND_LIMIT, SUPPORT_LIMIT, TENSION_WAR, D, rules_16

State = dict[str, Any]


def violated(state: State) -> list[str]:
    d = D(state)
    out: list[str] = []
    places: Counter[str] = Counter()
    places.update(list(state["statesmen"]))
    places.update(list(state["gone"]))
    for seat in state["seats"]:
        places.update(state["private"][seat]["hand"])
        if len(state["private"][seat]["hand"]) != state["factions"][seat]["hand"]:
            out.append(f"{seat}: hand count differs from the hand")
    over = [s for s in state["seats"] if state["factions"][s]["hand"] > HAND_LIMIT]
    if over and state["flow"] and not any(f["node"] == "limit" for f in state["flow"]) and not rules_16(state):
        # the limit holds at any time: an excess is shed at once (a card played to shed it may
        # bring its own prompts first: a ruling, a death); a game that has ended (no flow left:
        # the card played to shed it may start the civil war) holds no limit
        out.append(f"{', '.join(over)}: above the hand limit outside the hand-limit discard")
    places.update(state["secret"]["actions"])
    places.update(state["secret"]["packet"])
    places.update(state["actions"]["discard"])
    places.update(state["actions"]["future"])
    places.update(state["actions"]["persistent"])
    places.update(state["actions"].get("removed", []))
    for sid in d.statesmen:
        if places[sid] != 1:
            out.append(f"statesman {sid} is in {places[sid]} places")
    for cid in d.action_copies:
        if places[cid] != 1:
            out.append(f"action {cid} is in {places[cid]} places")
    if state["actions"]["left"] != len(state["secret"]["actions"]):
        out.append("action deck count is wrong")
    holders = [h for h in state["offices"].values() if h]
    if len(holders) != len(set(holders)):
        out.append("a statesman holds two offices")
    for o, h in state["offices"].items():
        if h and h not in state["statesmen"]:
            out.append(f"office {o} is held by {h}, who is not in play")
    if state["reserves"] != state["ledger"]["start"] + state["ledger"]["changes"]:
        out.append("reserves do not follow the treasury arithmetic")
    if not 0 <= state["tension"] <= TENSION_WAR:
        out.append("tension off the track")
    if abs(state["support"]) > SUPPORT_LIMIT:
        out.append("public support off the track")
    for seat, f in state["factions"].items():
        if f["influence"] < 0:
            out.append(f"{seat}: negative influence")
    for sid, s in state["statesmen"].items():
        if s["influence"] < 0:
            out.append(f"{sid}: negative influence")
        if s["owner"] not in state["seats"]:
            out.append(f"{sid}: bad owner")
    iss = state["issues"]
    seen: Counter[str] = Counter()
    seen.update(state["secret"]["issues"])
    seen.update(iss["resolved"])
    seen.update(iss["removed"])
    seen.update(iss["set_aside"])
    for e in ERAS:
        seen.update(iss["pools"][e])
    if iss["current"] and iss["current"]["kind"] == "issue":
        seen[iss["current"]["card"]] += 1
    for cid, n in seen.items():
        if n > 1:
            out.append(f"issue {cid} is in {n} places")
    if iss["left"] != len(state["secret"]["issues"]):
        out.append("issue deck count is wrong")
    for p in ("L", "C"):
        paper = state["papers"][p]
        if min(paper["lower"] + paper["upper"]) < 0:
            out.append(f"newspaper track {p} has a negative count")
    return out
