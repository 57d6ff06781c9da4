"""Consistency checks run after every step by self-play and the fuzz tests."""

from __future__ import annotations

from .cards import count_cards
from .components import CARDS_PER_COLOUR, DISPLAY_SIZE, HAND_SIZE, PIECES
from .scoring import recount
from .state import State, board_of, emissaries_in, houses_in, region_full


def check(state: State) -> list[str]:
    problems: list[str] = []
    board = board_of(state)
    if board.sha256 != state["board_sha256"]:
        problems.append("the board file changed since this game started")
    seats = state["seats"]
    # cards conserved
    if count_cards(state) != CARDS_PER_COLOUR:
        problems.append(f"cards not conserved: {count_cards(state)} != {CARDS_PER_COLOUR}")
    if len(state["display"]) > DISPLAY_SIZE:
        problems.append("more than 4 face-up cards")
    for seat in seats:
        if len(state["private"][seat]["hand"]) > HAND_SIZE:
            problems.append(f"{seat} holds more than {HAND_SIZE} cards")
    # pieces conserved
    forts_each = PIECES["fortifications"] if state["options"]["fortifications"] else 0
    for seat in seats:
        supply = state["supply"][seat]
        houses = sum(1 for owner in state["houses"].values() if owner == seat)
        emissaries = sum(court.get(seat, 0) for court in state["courts"].values())
        forts = sum(1 for owner in state["forts"].values() if owner == seat)
        if supply["houses"] + houses != PIECES["houses"]:
            problems.append(f"{seat}: houses not conserved")
        if supply["emissaries"] + emissaries != PIECES["emissaries"]:
            problems.append(f"{seat}: emissaries not conserved")
        if supply["fortifications"] + forts != forts_each:
            problems.append(f"{seat}: fortifications not conserved")
        if min(supply.values()) < 0:
            problems.append(f"{seat}: a negative supply")
    # the board
    for space in [*state["houses"], *state["forts"]]:
        if space not in board.region_of:
            problems.append(f"a piece on unknown space {space}")
    for region in board.regions:
        limit = max(houses_in(state, board, region).values(), default=0)
        if emissaries_in(state, region) > limit:
            problems.append(f"{region}: {emissaries_in(state, region)} emissaries over the limit {limit}")
        full = region_full(state, board, region)
        if full and region not in state["scored"]:
            problems.append(f"{region} is full but was not scored")
        if region in state["scored"] and not full and state["result"] is None:
            problems.append(f"{region} was scored before it was full")
    if len(set(state["scored"])) != len(state["scored"]):
        problems.append("a region was scored twice")
    # scores: the log adds up, and the board recounts to the same totals
    logged = {s: 0 for s in seats}
    for entry in state["scoring"]:
        for seat, points in entry["points"].items():
            logged[seat] += points
    if logged != state["scores"]:
        problems.append(f"scores {state['scores']} differ from the scoring log {logged}")
    counted = recount(state)
    if counted != state["scores"]:
        problems.append(f"scores {state['scores']} differ from a recount of the board {counted}")
    return problems
