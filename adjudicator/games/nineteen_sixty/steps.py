"""The steps a card's event is made of (effects.py calls them, one card per function).

A card's function calls the steps of `Effect` in order. The same function is read two ways:
`events.Run` resolves it (one step each time the flow advances the card's frame) and
`text.Describe` words it for the card's text. A step never reads the board itself: seats and places
are names resolved when the step acts, so a function holds no state of its own.

Seats (`Who`): `K` / `X` a fixed candidate, `P` / `OPP` the player resolving the event / the other
one, `leader(issue)` whoever has cubes on the issue, `media_leader(region)` whoever has media cubes
there, `state_leader(abbr)` whoever leads the state, `FIFTY` whoever has more state cubes in Alaska
and Hawaii together. A seat that names nobody makes its step do nothing.

Places (`Place`): `ANY`, `regions(...)`, `states(...)`, `EMPTY` (states without support),
`worth(low, high, *regions)` (by electoral votes), `CHOSEN_STATE` / `CHOSEN_REGION` (picked by an
earlier step of the card). `CHOSEN` is the picked issue or state where a step names one, `TOKEN`
the state of the losing candidate's token.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Who = str
Place = tuple[Any, ...]

K, X = "kennedy", "nixon"
P, OPP, FIFTY = "P", "opp", "fifty"
CHOSEN, TOKEN = "picked", "token"
ANY: Place = ("any",)
EMPTY: Place = ("empty",)
CHOSEN_STATE: Place = ("picked",)
CHOSEN_REGION: Place = ("picked_region",)


def leader(issue: str) -> Who:
    return f"lead:{issue}"


def media_leader(region: str) -> Who:
    return f"media:{region}"


def state_leader(abbr: str) -> Who:
    return f"state:{abbr}"


def regions(*names: str) -> Place:
    return ("regions", names)


def states(*abbrs: str) -> Place:
    return ("states", abbrs)


def worth(low: int, high: int, *within: str) -> Place:
    """States worth `low` to `high` electoral votes (in the regions `within`, if any are named)."""
    return ("ev", low, high, within or None)


class Effect(Protocol):
    """What a card's function may do; each call is one step of the event.

    A condition (`if_leads`, `if_leads_issues`) is itself a step: the steps inside its `if` are
    resolved in a frame of their own, so they must close the function."""

    def support(self, who: Who, n: int, cap: int, where: Place) -> None:
        """`who` adds n state support, at most `cap` per state (checks where the rules ask)."""

    def remove(self, who: Who, victim: Who, n: int, cap: int, where: Place) -> None:
        """`who` removes n of `victim`'s state support, at most `cap` per state."""

    def lose(self, victim: Who, n: int, abbr: str) -> None:
        """`victim` loses n support in one state (`TOKEN`: where his token stands)."""

    def momentum(self, who: Who, delta: int) -> None:
        """Momentum markers gained or lost (never below 0)."""

    def issue_up(self, issue: str, k: int) -> None:
        """The issue moves up k places on the track."""

    def issue(self, who: Who, issue: str, delta: int) -> None:
        """Issue support: a gain takes opposing cubes first; a loss is limited to what is there."""

    def issue_each(self, who: Who, delta: int) -> None:
        """`who` loses -delta cubes on every issue."""

    def issue_split(self, who: Who, n: int, mode: str) -> None:
        """`who` adds (`mode` "gain") or removes ("lose") n issue cubes, one chosen at a time."""

    def token(self, who: Who, abbr: str) -> None:
        """The candidate token moves to the state free."""

    def media(self, who: Who, n: int, region: str | None) -> None:
        """n media cubes in the region (None: regions chosen one cube at a time)."""

    def media_remove(self, who: Who, n: int) -> None:
        """`who` removes n opposing media cubes, chosen one at a time."""

    def endorse(self, who: Who) -> None:
        """One endorsement in a region `who` chooses."""

    def pick_issue(self, who: Who) -> None:
        """`who` chooses an issue for the later steps (`CHOSEN`)."""

    def pick_state(self, who: Who, among: str) -> None:
        """`who` chooses a state ("swing", "md_va" or "all") for the later steps; none to choose
        ends the event."""

    def pick_region(self, who: Who, among: str) -> None:
        """`who` chooses a region ("own_media": where he has media cubes) for the later steps."""

    def retrieve(self, who: Who, only: int | None) -> None:
        """`who` may take a card (or only card `only`) from the discard pile into his hand."""

    def draw(self, who: Who, n: int) -> None:
        """`who` draws n cards."""

    def cycle(self, who: Who) -> None:
        """`who` discards any number of cards, then draws as many."""

    def exhaust(self, who: Who) -> None:
        """`who`'s candidate card is exhausted."""

    def restore(self, who: Who) -> None:
        """`who`'s candidate card is ready again."""

    def gathering_momentum(self, region: str) -> None:
        """Whoever leads more states in the region gains momentum and its empty states."""

    def checks(self, who: Who, n: int, abbr: str) -> None:
        """`who` makes n support checks in the state."""

    def binds(self, who: Who) -> None:
        """The card's rest-of-turn effect binds `who` (not the player)."""

    def if_leads(self, who: Who, issue: str) -> bool:
        """Go on only if `who` leads the issue now."""
        ...

    def if_leads_issues(self, who: Who, n: int) -> bool:
        """Go on only if `who` leads at least n issues now."""
        ...

    def reorder_track(self, who: Who) -> None:
        """`who` sets the issue track in any order."""

    def match_momentum(self) -> None:
        """The player gains momentum up to the opponent's."""

    def issue_leaders_lose(self, first: str, second: str) -> None:
        """The leader of each issue loses a cube there; one leading both also loses 1 momentum."""

    def unpledged_electors(self) -> None:
        """Southern states Kennedy leads without carrying go to nobody on Election Day."""

    def show_hand_then_cp(self) -> None:
        """Kennedy shows his hand to Nixon, who then spends 3 CP."""

    def event_from_discards(self) -> None:
        """Nixon may take an event he could play from the discard pile and resolve it."""

    def campaign_one_per_state(self) -> None:
        """The player campaigns with 7 CP, at most one cube per state."""

    def reveal_deck(self, who: Who, n: int) -> None:
        """Turn up n deck cards one at a time; each showing `who`'s icon is resolved for him."""


CardEvent = Callable[[Effect], None]


def registry(table: dict[int, CardEvent]) -> Callable[[int], Callable[[CardEvent], CardEvent]]:
    """A decorator `card(number)` entering a card's function in `table`."""

    def card(number: int) -> Callable[[CardEvent], CardEvent]:
        def enter(function: CardEvent) -> CardEvent:
            table[number] = function
            return function

        return enter

    return card
