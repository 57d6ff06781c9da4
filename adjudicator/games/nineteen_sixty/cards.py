"""Where campaign and endorsement cards are: deck (secret), hands and strategy piles (private),
discard, removed, boxes and the card being resolved (public)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Rng, event

from .data import CARDS, GATHERING_MOMENTUM

State = dict[str, Any]
Events = list[dict[str, Any]]


def hand(state: State, seat: str) -> list[int]:
    return state["private"][seat]["hand"]


def strategy(state: State, seat: str) -> list[int]:
    return state["private"][seat]["strategy"]


def draw_cards(state: State, seat: str, n: int, events: Events) -> int:
    """Deal n cards to seat's hand; an empty deck is reshuffled from the discards."""
    deck = state["secret"]["deck"]
    got = []
    for _ in range(n):
        if not deck:
            if not state["discard"]:
                break
            deck.extend(state["discard"])
            state["discard"] = []
            Rng.of(state).shuffle(deck)
            events.append(event("reshuffle", n=len(deck)))
        got.append(deck.pop())
    hand(state, seat).extend(got)
    hand(state, seat).sort()
    if got:
        events.append(event("drew", seat=seat, n=len(got)))
        events.append(event("drew_cards", audience=[seat], seat=seat, cards=got))
    return len(got)


def reveal_top(state: State, events: Events) -> int | None:
    """Turn up the top card of the campaign deck (reshuffling the discards into an empty deck)."""
    deck = state["secret"]["deck"]
    if not deck:
        if not state["discard"]:
            return None
        deck.extend(state["discard"])
        state["discard"] = []
        Rng.of(state).shuffle(deck)
        events.append(event("reshuffle", n=len(deck)))
    card = deck.pop()
    events.append(event("revealed", card=card))
    return card


def strategy_ok(card: int) -> bool:
    """Gathering Momentum cards may not be set aside for the campaign strategy."""
    return card not in GATHERING_MOMENTUM


def take_from_hand(state: State, seat: str, card: int) -> None:
    hand(state, seat).remove(card)


def draw_endorsement(state: State, events: Events) -> str:
    """The top endorsement card (the used ones are reshuffled when the deck runs out)."""
    deck = state["secret"]["endorsements"]
    if not deck:
        deck.extend(state["endorse_discard"])
        state["endorse_discard"] = []
        Rng.of(state).shuffle(deck)
        events.append(event("endorse_reshuffle", n=len(deck)))
    card = deck.pop()
    state["endorse_discard"].append(card)
    return card


def all_locations(state: State) -> list[int]:
    """Every campaign card, counted once per place it sits (for the invariant)."""
    places: list[int] = []
    places += state["secret"]["deck"] + state["discard"] + state["removed"]
    for part in state["private"].values():
        places += part["hand"] + part["strategy"]
    for box in state["boxes"].values():
        places += box
    places += [p["card"] for p in state["played"]]
    places += state.get("aside", [])
    places += [c for c in state.get("vp", {}).values() if c]
    debate = state.get("debate")
    if debate:
        for side in debate["cards"].values():
            for cards in side.values():
                places += cards
        places += list(debate["pending"].values())
    return places


def card_name(card: int) -> str:
    return f"#{card} {CARDS[card].name}"
