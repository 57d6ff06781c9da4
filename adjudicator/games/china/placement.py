"""Which plays are legal, and putting pieces on the board.

A play order is ``{"play": [cards], "region": id, "pieces": [kinds]}`` with both lists sorted.
Each card pays for one piece in a region of its colour; two cards of one colour pay for one piece
in a region of another colour (so up to 3 cards for up to 2 pieces). Every card played must pay
for a piece: playing a spare card is not a play. Pieces are "house", "emissary" and
"fortification"; ``["fortification", "house"]`` means the house goes onto that fortification.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.engine import Event, event

from .boardfile import Board
from .state import (
    State,
    board_of,
    emissaries_in,
    empty_spaces,
    free_spaces,
    hand,
    houses_in,
    region_full,
    region_has_piece,
)

PIECE_SETS: dict[int, list[list[str]]] = {
    1: [["emissary"], ["fortification"], ["house"]],
    2: [["emissary", "emissary"], ["emissary", "fortification"], ["emissary", "house"],
        ["fortification", "house"], ["house", "house"]],
}


def payments(cards: list[str], colour: str, pieces: int) -> list[list[str]]:
    """The distinct sets of cards from `cards` that pay exactly for `pieces` pieces of `colour`."""
    counts = Counter(cards)
    pairs = [c for c in sorted(counts) if c != colour and counts[c] >= 2]
    if pieces == 1:
        return ([[colour]] if counts[colour] else []) + [[c, c] for c in pairs]
    found = [[colour, colour]] if counts[colour] >= 2 else []
    if counts[colour]:
        found += [sorted([colour, c, c]) for c in pairs]
    return found


class RegionFacts:
    """What the legality checks need to know about one region for one seat."""

    def __init__(self, state: State, board: Board, seat: str, region: str) -> None:
        houses = houses_in(state, board, region)
        self.own = houses.get(seat, 0)
        self.other_max = max([n for s, n in houses.items() if s != seat], default=0)
        self.total_houses = sum(houses.values())
        self.emissaries = emissaries_in(state, region)
        self.empty = len(empty_spaces(state, board, region))
        self.free = len(free_spaces(state, board, region))
        self.max_pieces = 2 if region_has_piece(state, board, region) else 1
        self.supply = state["supply"][seat]


def pieces_fit(facts: RegionFacts, pieces: list[str], can_pay_two: bool) -> bool:
    h, e, f = pieces.count("house"), pieces.count("emissary"), pieces.count("fortification")
    supply = facts.supply
    if h > supply["houses"] or e > supply["emissaries"] or f > supply["fortifications"]:
        return False
    if h > facts.free:
        return False
    if f:
        if facts.empty < 1:
            return False
        # A fortification must get its house in the same turn whenever the player can do that.
        fortified_possible = (facts.max_pieces == 2 and can_pay_two and supply["houses"] >= 1)
        if h == 0 and fortified_possible:
            return False
    if e:
        if facts.total_houses + h == 0:
            return False
        limit = max(facts.other_max, facts.own + h)  # houses first, then emissaries
        if facts.emissaries + e > limit:
            return False
    return True


def play_choices(state: State, seat: str) -> list[dict[str, Any]]:
    board = board_of(state)
    cards = hand(state, seat)
    if not cards:
        return []
    choices: list[dict[str, Any]] = []
    for region in board.regions:
        colour = board.colour[region]
        facts = RegionFacts(state, board, seat, region)
        paying = {n: payments(cards, colour, n) for n in range(1, facts.max_pieces + 1)}
        can_pay_two = bool(paying.get(2))
        for n, pays in paying.items():
            if not pays:
                continue
            for pieces in PIECE_SETS[n]:
                if pieces_fit(facts, pieces, can_pay_two):
                    choices += [{"play": pay, "region": region, "pieces": pieces} for pay in pays]
    return choices


def exchange_choices(state: State, seat: str) -> list[dict[str, Any]]:
    sources = (["deck"] if state["secret"]["deck"] else []) + sorted(set(state["display"]))
    return [{"exchange": card, "take": source} for card in sorted(set(hand(state, seat))) for source in sources]


def any_piece_placeable(state: State) -> bool:
    """Could anybody, given suitable cards, still place a house or an emissary anywhere?"""
    board = board_of(state)
    with_houses = any(s["houses"] for s in state["supply"].values())
    with_emissaries = any(s["emissaries"] for s in state["supply"].values())
    for region in board.regions:
        if with_houses and free_spaces(state, board, region):
            return True
        houses = houses_in(state, board, region)
        if with_emissaries and houses and emissaries_in(state, region) < max(houses.values()):
            return True
    return False


# placing ------------------------------------------------------------------------------------------

def placement_steps(pieces: list[str]) -> list[str]:
    """The order pieces go down: fortification (with its house), houses, then emissaries, so
    that this turn's houses already count for the emissary limit."""
    steps: list[str] = []
    if "fortification" in pieces:
        steps.append("fortified" if "house" in pieces else "fortification")
    houses = pieces.count("house") - (1 if "fortification" in pieces and "house" in pieces else 0)
    steps += ["house"] * houses + ["emissary"] * pieces.count("emissary")
    return steps


def space_choices(state: State, region: str, step: str) -> list[str]:
    board = board_of(state)
    if step == "house":
        return free_spaces(state, board, region)
    return empty_spaces(state, board, region)


def place(state: State, seat: str, region: str, step: str, space: str | None, events: list[Event]) -> bool:
    """Put one piece down; True if that filled the region's last house space."""
    supply = state["supply"][seat]
    if step == "emissary":
        court = state["courts"][region]
        court[seat] = court.get(seat, 0) + 1
        supply["emissaries"] -= 1
        events.append(event("placed", seat=seat, piece="emissary", region=region))
        return False
    assert space is not None
    if step in ("fortified", "fortification"):
        state["forts"][space] = seat
        supply["fortifications"] -= 1
        events.append(event("placed", seat=seat, piece="fortification", region=region, space=space))
    if step in ("fortified", "house"):
        state["houses"][space] = seat
        supply["houses"] -= 1
        events.append(event("placed", seat=seat, piece="house", region=region, space=space))
        return region_full(state, board_of(state), region)
    return False
