"""Doge's placement decision as a form: the seven ballot markers to tick, or the whole set of
markers picked at once in a list, and the area to place them on, instead of a list of every
(area, markers) pair.

The form composes the same order text a player would mail ("place castello 3 1") and sends it
through the service like the command box, so the game's grammar and legality checks decide; a
plain HTML form (checkboxes, one list of marker sets, one submit button per area) that works
without scripts. Any placement is two interactions: the set in the list, then the area's button
(a single marker: its tick, then the button). With scripts the list and the ticks show the same
choice (web/static/enhance.js), and a click on an area of the drawn Venice presses that area's
button.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from adjudicator.games.doge.data import MARKERS, MAX_MARKERS_PER_CARD

from .boards.doge import area_name

KIND = "placement"
FORM_FIELD = "placement"  # the hidden field that tells this form's POST from the others
SET_FIELD = "set"  # the list of whole marker sets ("3 2 1"): one pick instead of a tick per marker


@dataclass
class Marker:
    value: int
    used: bool  # already placed this year (shown, not tickable)
    ticked: bool = False  # ticked in a form that came back refused: kept, so nothing is lost


@dataclass
class MarkerSet:
    value: str  # the marker values, high to low, as the order writes them ("3 2 1")
    label: str  # "3 + 2 + 1 · 6 votes"


@dataclass
class PlacementForm:
    markers: list[Marker]  # all seven, highest value first
    areas: list[tuple[str, str]]  # (area id, name) of the cards the seat may still play
    picked: str  # the area a click on the board chose without scripts ("" = none)
    most: int = MAX_MARKERS_PER_CARD
    sets: list[tuple[str, list[MarkerSet]]] = field(default_factory=list)  # (group label, sets) by size
    chosen_set: str = ""  # the set of a form that came back refused ("" = none: the list's placeholder)


def marker_sets(left: list[int]) -> list[tuple[str, list[MarkerSet]]]:
    """Every distinct set of 1 to MAX_MARKERS_PER_CARD of the markers `left`, grouped by size, each
    group's strongest first (the order every placement can be written in)."""
    ordered = sorted(left, reverse=True)
    groups = []
    for size in range(1, min(MAX_MARKERS_PER_CARD, len(ordered)) + 1):
        picks = sorted(set(combinations(ordered, size)), key=lambda p: (-sum(p), p))
        items = [MarkerSet(" ".join(map(str, p)), "{} · {}".format(" + ".join(map(str, p)),
                                                                 ngettext("%(num)s vote", "%(num)s votes", sum(p))))
                 for p in picks]
        groups.append((ngettext("%(num)s marker", "%(num)s markers", size), items))
    return groups


def placement_form(game_id: str, prompt: dict[str, Any] | None, view: Any, seat: str,
                   picked: str = "", ticked: list[str] | None = None, chosen_set: str = "") -> PlacementForm | None:
    """The form for a Doge placement prompt, or None for any other decision. `ticked` and
    `chosen_set`: the marker values and the set of a refused form, shown again."""
    if game_id != "doge" or not prompt or prompt.get("kind") != KIND:
        return None
    areas: list[str] = []
    for choice in prompt.get("choices") or []:
        if isinstance(choice, dict) and isinstance(choice.get("card"), str) and choice["card"] not in areas:
            areas.append(choice["card"])
    own = (((view or {}).get("private") or {}).get(seat) or {}).get("markers")
    left = Counter(v for v in own if isinstance(v, int)) if isinstance(own, list) else Counter(MARKERS)
    sets = marker_sets(list(left.elements()))
    again = Counter(ticked or [])
    markers = []
    for value in MARKERS:  # the full set, so the used ones show as used
        used = left[value] <= 0
        markers.append(Marker(value, used, ticked=not used and again[str(value)] > 0))
        left[value] -= 1
        again[str(value)] -= 0 if used else 1
    if not areas:
        return None
    known = {s.value for _label, group in sets for s in group}
    return PlacementForm(markers, [(a, area_name(a)) for a in areas], picked if picked in areas else "",
                         sets=sets, chosen_set=chosen_set if chosen_set in known else "")


def picked_area(args: Any) -> str:
    """The area a board link chose (the composer's `pick=place AREA` or `where=AREA`)."""
    words = str(args.get("pick", "")).split()
    if len(words) >= 2 and words[0] == "place":
        return words[1]
    return str(args.get("where", "")).strip()


def chosen_set(form: Any) -> str:
    """The marker set picked in the form's list, as posted ("" = the placeholder)."""
    return " ".join(str(form.get(SET_FIELD, "")).split()[:len(MARKERS) + 1])


def order_text(form: Any) -> tuple[str | None, str | None]:
    """(order text, None) from the posted form, or (None, what to fix)."""
    area = " ".join(str(form.get("area", "")).split())[:40]
    ticked = [v for v in form.getlist("marker")[:len(MARKERS) + 1]]
    listed = chosen_set(form).split()
    if not area:
        return None, _("Choose the area: press the button of the area where your markers go.")
    if ticked and listed and sorted(ticked) != sorted(listed):  # two different answers: ask, never guess
        return None, _("The markers ticked (%(ticked)s) and the set chosen in the list (%(listed)s) differ: untick "
                       "the markers or set the list back to its first line.",
                       ticked=" ".join(sorted(ticked, reverse=True)), listed=" ".join(listed))
    values = ticked or listed
    if not values:
        return None, _("Tick 1 to %(most)s of your markers or choose the whole set in the list, then press the "
                       "area's button.", most=MAX_MARKERS_PER_CARD)
    if any(v not in {"0", "1", "2", "3"} for v in values):
        return None, _("A marker's value is 0, 1, 2 or 3.")
    if len(values) > MAX_MARKERS_PER_CARD:
        return None, _("At most %(most)s markers go on one card: untick %(extra)s.", most=MAX_MARKERS_PER_CARD,
                       extra=len(values) - MAX_MARKERS_PER_CARD)
    return "place {} {}".format(area, " ".join(sorted(values, reverse=True))), None
