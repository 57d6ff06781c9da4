"""The state layout, setup and small read helpers shared by the rules modules.

Public: board side, houses, fortifications, courts, scored regions, supplies, scores and the
scoring log, the display, the discard pile, the removed cards. Secret: the deck (its last element
is the top) and the RNG. Private per seat: the hand.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, IllegalOrder, Rng, message, seed_state

from .boardfile import BOARDS, Board, board_set, load_board
from .components import CARD_COLOURS, CARDS_PER_COLOUR, DISPLAY_SIZE, HAND_SIZE, PIECES, removed_per_colour

State = dict[str, Any]
SIDE_CHOICES = ("auto", "3-4", "4-5")

# Rules versions (docs/games/china.md, "Rules versions"): 2 made fortifications neutral in scoring
# unless the `fortification_scoring` option asks for the play report's double. Version 1 states do
# not name their version (their recorded hashes forbid adding it): a state without one is version 1.
RULES_VERSION = "2"
VERSIONS = ("1", RULES_VERSION)  # every published version, oldest first
FORTIFICATION_SCORING = ("neutral", "double")


def rules_version(state: State) -> str:
    return state.get("rules_version", VERSIONS[0])


def side_for(players: int, option: str) -> str:
    """The board side ("3-4p"/"4-5p"); only 4 players may choose, the others are checked."""
    natural = {3: "3-4", 4: "3-4", 5: "4-5"}[players]
    chosen = natural if option == "auto" else option
    if players == 3 and chosen != "3-4":
        raise IllegalOrder(message(N_("3 players always use the 3-4 side; set side to 3-4 or auto")))
    if players == 5 and chosen != "4-5":
        raise IllegalOrder(message(N_("5 players always use the 4-5 side; set side to 4-5 or auto")))
    if chosen not in ("3-4", "4-5"):
        raise IllegalOrder(message(N_("side must be auto, 3-4 or 4-5")))
    return chosen + "p"


def board_of(state: State) -> Board:
    return load_board(state["board"], state["board_set"])


def new_state(seed: str, seats: list[str], options: dict[str, Any], rules_version: str = RULES_VERSION) -> State:
    side = side_for(len(seats), options["side"])
    pin = BOARDS.resolve(options["board"])
    if side not in board_set(pin):
        raise IllegalOrder(message(N_("the board %(board)s has no %(side)s side; choose another board or side"),
                                   board=repr(options["board"]), side=side))
    board = load_board(side, pin)
    forts = PIECES["fortifications"] if options["fortifications"] else 0
    removed = removed_per_colour(len(seats))
    deck = [c for c in CARD_COLOURS for _ in range(CARDS_PER_COLOUR[c] - removed)]
    state: State = {
        "rules_version": rules_version,
        "options": dict(options),
        "board": side,
        "board_set": pin,
        "board_sha256": board.sha256,
        "stand_in_board": board.stand_in,
        "seats": list(seats),
        "current": seats[0],  # the start player holds the Emperor for the whole game
        "turn": 1,
        "houses": {},  # space -> seat
        "forts": {},  # space -> seat who placed the (neutral) fortification
        "courts": {r: {} for r in board.regions},  # region -> {seat: emissaries}
        "scored": [],  # regions with a scoring marker, in the order they were scored
        "supply": {s: {"houses": PIECES["houses"], "emissaries": PIECES["emissaries"],
                       "fortifications": forts} for s in seats},
        "scores": {s: 0 for s in seats},
        "scoring": [],  # every award: {"what", ..., "points": {seat: n}}
        "display": [],
        "discard": [],
        "box": {c: removed for c in CARD_COLOURS},
        "exhaustions": 0,
        "result": None,
        "secret": {"rng": seed_state(seed), "deck": deck},
        "private": {s: {"hand": []} for s in seats},
    }
    if rules_version == VERSIONS[0]:
        del state["rules_version"]  # version 1 states did not name it
    Rng.of(state).shuffle(state["secret"]["deck"])
    for seat in seats:
        hand = [state["secret"]["deck"].pop() for _ in range(HAND_SIZE)]
        state["private"][seat]["hand"] = sorted(hand)
    state["display"] = sorted(state["secret"]["deck"].pop() for _ in range(DISPLAY_SIZE))
    return state


def hand(state: State, seat: str) -> list[str]:
    return state["private"][seat]["hand"]


def deck(state: State) -> list[str]:
    return state["secret"]["deck"]


def houses_in(state: State, board: Board, region: str) -> dict[str, int]:
    """Houses per seat in a region (seats without houses left out)."""
    counts: dict[str, int] = {}
    for space in board.spaces[region]:
        owner = state["houses"].get(space)
        if owner:
            counts[owner] = counts.get(owner, 0) + 1
    return counts


def emissaries_in(state: State, region: str) -> int:
    return sum(state["courts"][region].values())


def region_has_piece(state: State, board: Board, region: str) -> bool:
    if state["courts"][region]:
        return True
    return any(s in state["houses"] or s in state["forts"] for s in board.spaces[region])


def region_full(state: State, board: Board, region: str) -> bool:
    return all(s in state["houses"] for s in board.spaces[region])


def empty_spaces(state: State, board: Board, region: str) -> list[str]:
    """Spaces with neither a house nor a fortification."""
    return [s for s in board.spaces[region] if s not in state["houses"] and s not in state["forts"]]


def free_spaces(state: State, board: Board, region: str) -> list[str]:
    """Spaces a house may go on: empty ones and fortifications nobody has built on yet."""
    return [s for s in board.spaces[region] if s not in state["houses"]]


def pieces_left(state: State, seat: str) -> int:
    return sum(state["supply"][seat].values())
