"""Consistency checks that hold after every step (self-play and the fuzz tests call them)."""

from __future__ import annotations

from typing import Any

from .board import houses_on_board
from .data import ADVISORS, DISTRICTS, HOUSES, PALACES, RINGS


def violated(state: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    for seat in state["seats"]:
        supply = state["supply"][seat]
        on_board = sum(state["districts"][d]["palaces"].count(seat) for d in DISTRICTS)
        held = sum(1 for a in ADVISORS if state["advisors"][a]["owner"] == seat)
        if supply["houses"] + houses_on_board(state, seat) != HOUSES:
            problems.append(f"{seat}: houses not conserved")
        if supply["palaces"] + on_board != PALACES:
            problems.append(f"{seat}: palaces not conserved")
        if supply["rings"] + held != RINGS or not 0 <= supply["rings"] <= RINGS:
            problems.append(f"{seat}: control rings not conserved or over the limit of {RINGS}")
        if min(supply["houses"], supply["palaces"]) < 0:
            problems.append(f"{seat}: negative supply")
        if supply["markers"] != len(state["private"][seat]["markers"]):
            problems.append(f"{seat}: public marker count differs from the hidden markers")
    for d in DISTRICTS:
        if len(state["districts"][d]["palaces"]) > 5:
            problems.append(f"{d}: more than 5 palaces")
        if any(n <= 0 for n in state["districts"][d]["houses"].values()):
            problems.append(f"{d}: a zero or negative house count is stored")
    for a in ADVISORS:
        info = state["advisors"][a]
        if (info["owner"] is None) != (info["at"] is None):
            problems.append(f"{a}: owner and position disagree")
        if info["at"] == info["home"]:
            problems.append(f"{a}: stands in its home area")
    voting = state["voting"]
    if state["result"] is None and len(voting["current"]) + len(voting["next"]) != 7:
        problems.append("the next 7 elections are not all visible")
    return problems
