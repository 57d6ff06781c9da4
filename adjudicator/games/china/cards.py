"""Cards: taking from the deck (with its two exhaustions), the display and the discard pile.

Reading: the draw pile is exhausted the moment its last card is taken. The first time, the
discard pile is shuffled into a new draw pile (face-up cards stay where they are); if there was
nothing to shuffle, that empty pile counts as the second exhaustion at once. The second time
starts the last round.
"""

from __future__ import annotations

from adjudicator.engine import Event, Rng, event

from .components import DISPLAY_SIZE
from .state import State, deck, hand


def _take_top(state: State, events: list[Event]) -> str:
    card = deck(state).pop()
    if not deck(state):
        _exhausted(state, events)
    return card


def _exhausted(state: State, events: list[Event]) -> None:
    state["exhaustions"] += 1
    if state["exhaustions"] == 1:
        pile = state["discard"]
        state["discard"] = []
        state["secret"]["deck"] = list(pile)
        Rng.of(state).shuffle(state["secret"]["deck"])
        events.append(event("deck-reshuffled", cards=len(pile)))
        if not pile:
            _exhausted(state, events)
        return
    events.append(event("last-round", last=state["seats"][-1]))


def draw_from_deck(state: State, seat: str, events: list[Event]) -> str:
    """The seat takes the top card; the card is told to that seat only."""
    card = _take_top(state, events)
    events.append(event("drew-secret", audience=[seat], seat=seat, card=card))
    _add_to_hand(state, seat, card)
    return card


def draw_from_display(state: State, seat: str, colour: str) -> None:
    state["display"].remove(colour)
    _add_to_hand(state, seat, colour)


def _add_to_hand(state: State, seat: str, card: str) -> None:
    cards = hand(state, seat)
    cards.append(card)
    cards.sort()


def discard_from_hand(state: State, seat: str, cards: list[str]) -> None:
    for card in cards:
        hand(state, seat).remove(card)
        state["discard"].append(card)


def refill_display(state: State, events: list[Event]) -> None:
    added: list[str] = []
    while len(state["display"]) + len(added) < DISPLAY_SIZE and deck(state):
        added.append(_take_top(state, events))
    if added:
        state["display"] = sorted(state["display"] + added)
        events.append(event("display-refilled", added=sorted(added), display=list(state["display"])))


def count_cards(state: State) -> dict[str, int]:
    """Every card of the game by colour, wherever it is (for the conservation invariant)."""
    counts: dict[str, int] = dict(state["box"])
    piles: list[list[str]] = [deck(state), state["display"], state["discard"]]
    piles += [part["hand"] for part in state["private"].values()]
    for pile in piles:
        for card in pile:
            counts[card] = counts.get(card, 0) + 1
    return counts
