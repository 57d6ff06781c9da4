"""Doge's placement decision as a form: the seven ballot markers to tick and the area to place
them on, instead of a list of every (area, markers) pair.

The form composes the same order text a player would mail ("place castello 3 1") and sends it
through the service like the command box, so the game's grammar and legality checks decide; a
plain HTML form (checkboxes and one submit button per area) that works without scripts. With
scripts, a click on an area of the drawn Venice presses that area's button (web/static/enhance.js).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from adjudicator.games.doge.data import MARKERS, MAX_MARKERS_PER_CARD

from .boards.doge import area_name

KIND = "placement"
FORM_FIELD = "placement"  # the hidden field that tells this form's POST from the others


@dataclass
class Marker:
    value: int
    used: bool  # already placed this year (shown, not tickable)
    ticked: bool = False  # ticked in a form that came back refused: kept, so nothing is lost


@dataclass
class PlacementForm:
    markers: list[Marker]  # all seven, highest value first
    areas: list[tuple[str, str]]  # (area id, name) of the cards the seat may still play
    picked: str  # the area a click on the board chose without scripts ("" = none)
    most: int = MAX_MARKERS_PER_CARD


def placement_form(game_id: str, prompt: dict[str, Any] | None, view: Any, seat: str,
                   picked: str = "", ticked: list[str] | None = None) -> PlacementForm | None:
    """The form for a Doge placement prompt, or None for any other decision. `ticked`: the
    marker values of a refused form, ticked again."""
    if game_id != "doge" or not prompt or prompt.get("kind") != KIND:
        return None
    areas: list[str] = []
    for choice in prompt.get("choices") or []:
        if isinstance(choice, dict) and isinstance(choice.get("card"), str) and choice["card"] not in areas:
            areas.append(choice["card"])
    own = (((view or {}).get("private") or {}).get(seat) or {}).get("markers")
    left = Counter(v for v in own if isinstance(v, int)) if isinstance(own, list) else Counter(MARKERS)
    again = Counter(ticked or [])
    markers = []
    for value in MARKERS:  # the full set, so the used ones show as used
        used = left[value] <= 0
        markers.append(Marker(value, used, ticked=not used and again[str(value)] > 0))
        left[value] -= 1
        again[str(value)] -= 0 if used else 1
    if not areas:
        return None
    return PlacementForm(markers, [(a, area_name(a)) for a in areas], picked if picked in areas else "")


def picked_area(args: Any) -> str:
    """The area a board link chose (the composer's `pick=place AREA` or `where=AREA`)."""
    words = str(args.get("pick", "")).split()
    if len(words) >= 2 and words[0] == "place":
        return words[1]
    return str(args.get("where", "")).strip()


def order_text(form: Any) -> tuple[str | None, str | None]:
    """(order text, None) from the posted form, or (None, what to fix)."""
    area = " ".join(str(form.get("area", "")).split())[:40]
    values = [v for v in form.getlist("marker")[:len(MARKERS) + 1]]
    if not area:
        return None, _("Choose the area: press the button of the area where your markers go.")
    if not values:
        return None, _("Tick 1 to %(most)s of your markers, then press the area's button.", most=MAX_MARKERS_PER_CARD)
    if any(v not in {"0", "1", "2", "3"} for v in values):
        return None, _("A marker's value is 0, 1, 2 or 3.")
    if len(values) > MAX_MARKERS_PER_CARD:
        return None, _("At most %(most)s markers go on one card: untick %(extra)s.", most=MAX_MARKERS_PER_CARD,
                       extra=len(values) - MAX_MARKERS_PER_CARD)
    return "place {} {}".format(area, " ".join(sorted(values, reverse=True))), None
