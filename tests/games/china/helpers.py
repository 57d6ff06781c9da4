"""Building exact China states by hand and driving them through the protocol."""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.engine import apply_checked
from adjudicator.games.china import GAME
from adjudicator.games.china.components import CARDS_PER_COLOUR

State = dict[str, Any]

# The rulebook's people and their colours (examples 4-7 use these).
ALEX, BARBARA, CHRIS, DORIS = "green", "red", "violet", "blue"


def new_game(players: int = 4, side: str = "auto", forts: bool = False, seed: str = "test",
             fortification_scoring: str = "neutral") -> State:
    options = GAME.info.resolve_options({"side": side, "fortifications": forts,
                                         "fortification_scoring": fortification_scoring})
    return GAME.setup(seed, GAME.seat_names(players, options), options).state


def put_houses(state: State, owners: dict[str, str], forts: dict[str, str] | None = None) -> None:
    """Houses (space -> seat) and fortifications (space -> seat who placed it), taken from supply."""
    for space, seat in owners.items():
        state["houses"][space] = seat
        state["supply"][seat]["houses"] -= 1
    for space, seat in (forts or {}).items():
        state["forts"][space] = seat
        state["supply"][seat]["fortifications"] -= 1


def put_emissaries(state: State, region: str, counts: dict[str, int]) -> None:
    for seat, n in counts.items():
        state["courts"][region][seat] = state["courts"][region].get(seat, 0) + n
        state["supply"][seat]["emissaries"] -= n


def set_cards(state: State, hands: dict[str, list[str]], display: list[str] | None = None,
              top: list[str] | None = None, discard: list[str] | None = None, deck_size: int | None = None) -> None:
    """Give exact hands, display and discard pile; the deck is every remaining card, with `top`
    (first = top card) on top and at most `deck_size` cards (the rest go to the discard pile)."""
    for seat in state["seats"]:
        state["private"][seat]["hand"] = sorted(hands.get(seat, []))
    if display is not None:
        state["display"] = sorted(display)
    state["discard"] = list(discard or [])
    left = Counter(CARDS_PER_COLOUR) - Counter(state["box"])
    for pile in [state["display"], state["discard"], *(p["hand"] for p in state["private"].values())]:
        left -= Counter(pile)
    rest = sorted(left.elements())
    for card in top or []:
        rest.remove(card)
    if deck_size is not None:
        keep = max(0, deck_size - len(top or []))
        state["discard"] += rest[keep:]
        rest = rest[:keep]
    state["secret"]["deck"] = rest + list(reversed(top or []))  # the last element is the top


def order(state: State, text: str) -> Any:
    seat = state["current"]
    return GAME.parse_order(text, GAME.prompts(state)[seat])


def act(state: State, *lines: str) -> tuple[State, list[dict[str, Any]]]:
    """Apply order lines for the seat to play, checked like the service does; collect events."""
    events: list[dict[str, Any]] = []
    for line in lines:
        seat = state["current"]
        step = apply_checked(GAME, state, {seat: order(state, line)})
        state = step.state
        events += step.events
        assert GAME.invariants(state) == [], GAME.invariants(state)
    return state, events


def choices(state: State) -> list[Any]:
    return GAME.prompts(state)[state["current"]].choices


def kind(state: State) -> str:
    return GAME.prompts(state)[state["current"]].kind


def scored(events: list[dict[str, Any]], what: str) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["kind"] == "scored" and e["data"]["what"] == what]


def finish_turn(state: State) -> State:
    """Apply default orders (draws, spaces) until the next seat's turn prompt."""
    seat = state["current"]
    while GAME.prompts(state) and (state["current"] == seat or kind(state) != "turn"):
        who = state["current"]
        state = apply_checked(GAME, state, {who: GAME.default_order(state, who)}).state
    return state
