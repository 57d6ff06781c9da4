"""Doge's board drawn as a schematic Venice (SVG): the six districts on both banks of the Grand
Canal and the Quarantia's hall, each area showing what the view says about it.

The shapes are our own schematic (no copied art): each district is a block placed roughly where it
lies in the city (Santa Croce and San Polo west of the canal, Dorsoduro south of it, Cannaregio
north, San Marco and Castello east), the canal an S between them. Only the view the page may show
is read, as in web/boards/doge.py: face-down markers appear as counts, their values only for the
viewer's own markers (``private[seat]``). A region is a link when the seat's decision may pick it
(``link_for``); the drawing is then a group of links instead of an image (axe: nested-interactive).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from . import link_for

W, H = 360, 350
# Each area: (x, y, width, height) of the block its state is written in, and the land's outline.
BLOCKS: dict[str, tuple[int, int, int, int]] = {
    "santa-croce": (8, 8, 108, 104), "cannaregio": (132, 8, 108, 104), "castello": (248, 8, 104, 212),
    "san-polo": (8, 120, 108, 104), "san-marco": (132, 120, 108, 100), "dorsoduro": (8, 236, 232, 106),
    "quarantia": (252, 238, 100, 104),
}
OUTLINES: dict[str, str] = {
    "santa-croce": "4,14 20,4 116,6 118,112 14,114 6,96",
    "cannaregio": "130,6 236,2 244,14 242,112 130,114",
    "castello": "246,12 300,4 356,20 354,150 340,206 300,222 246,220",
    "san-polo": "6,118 118,116 118,226 10,226 4,180",
    "san-marco": "130,118 242,116 244,222 130,222",
    "dorsoduro": "6,234 240,236 236,320 170,344 40,346 4,320",
}
CANAL = "M124 0 C126 40 122 80 124 116 C126 160 122 200 124 226 C150 230 200 230 246 228 L360 230"
ABBREVIATIONS = {"cannaregio": "CN", "castello": "CS", "dorsoduro": "DD", "san-marco": "SM",
                 "san-polo": "SP", "santa-croce": "SC"}
PALACE_COSTS = (3, 4, 5, 6, 7)
COLOURS = ("red", "blue", "green", "yellow")


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _cls(seat: Any) -> str:
    return f"v-{seat}" if seat in COLOURS else "v-other"


def _text(x: float, y: float, text: Any, cls: str, anchor: str = "start") -> Markup:
    return Markup('<text class="{}" x="{}" y="{}" text-anchor="{}">{}</text>').format(cls, x, y, anchor, text)


def _advisor_tag(adv: str) -> str:
    if adv.startswith("adv-quarantia-"):
        return "Q" + adv.rsplit("-", 1)[1]
    return ABBREVIATIONS.get(adv[4:], adv[4:6].upper())


def _vote(area: str, view: dict[str, Any]) -> tuple[str, str, str]:
    """(badge text, badge class, words) of the area's place in this year's voting order."""
    voting, election = _d(view.get("voting")), _d(view.get("election"))
    current = _l(voting.get("current"))
    n = current.index(area) + 1 if area in current else None
    if election.get("area") == area:
        return str(n or "!"), "now", _("voting now")
    if n is not None:
        return str(n), "", _("votes as number %(n)s this year", n=n)
    if area in _l(voting.get("used")):
        return "✓", "done", _("has voted this year")
    return "", "", ""


def _area(area: str, name: str, view: dict[str, Any], seat: str | None, seats: list[str]) -> Markup:
    x, y, w, h = BLOCKS[area]
    district = _d(_d(view.get("districts")).get(area))
    said: list[str] = [name]  # the area's accessible description, in words
    parts: list[Markup] = []
    if area in OUTLINES:
        parts.append(Markup('<polygon class="land" points="{}"/>').format(OUTLINES[area]))
    else:  # the Quarantia: a hall with a pediment, standing apart from the districts
        parts.append(Markup('<polygon class="hall" points="{},{} {},{} {},{} {},{} {},{}"/>').format(
            x - 2, y + 14, x + w / 2, y - 2, x + w + 2, y + 14, x + w + 2, y + h, x - 2, y + h))
    badge, badge_cls, words = _vote(area, view)
    top = y if area in OUTLINES else y + 16  # the hall's name sits under its pediment
    parts.append(_text(x + 6, top + 15, name, "vname"))
    if badge:  # a disc with the area's place in the voting order (a tick once it has voted)
        parts.append(Markup('<circle class="vote {}" cx="{}" cy="{}" r="8"/>').format(badge_cls, x + w - 11, top + 11))
        parts.append(_text(x + w - 11, top + 14.5, badge, f"vnumber {badge_cls}", "middle"))
        said.append(words)
    row = top + 24
    if area in OUTLINES:
        built = _l(district.get("palaces"))
        for i, cost in enumerate(PALACE_COSTS):
            owner = built[i] if i < len(built) else None
            px = x + 6 + i * 20
            parts.append(Markup('<rect class="pal {}" x="{}" y="{}" width="17" height="15" rx="2"/>').format(
                _cls(owner) if owner else "free", px, row))
            parts.append(_text(px + 8.5, row + 11, cost, "pcost on" if owner else "pcost", "middle"))
        said.append(_("palaces: %(list)s", list=", ".join(
            f"{cost} {built[i] if i < len(built) else _('free')}" for i, cost in enumerate(PALACE_COSTS))))
        row += 22
        houses = _d(district.get("houses"))
        owners = [s for s in seats if houses.get(s)] + [s for s in houses if s not in seats and houses.get(s)]
        for k, s in enumerate(owners):
            hx = x + 6 + k * 25
            parts.append(Markup('<polygon class="house {}" points="{},{} {},{} {},{} {},{} {},{}"/>').format(
                _cls(s), hx, row + 12, hx + 10, row + 12, hx + 10, row + 5, hx + 5, row, hx, row + 5))
            parts.append(_text(hx + 12, row + 11, houses[s], "vnum"))
        said.append(_("houses: %(list)s", list=", ".join(f"{s} {houses[s]}" for s in owners) or _("none")))
        row += 20
    here = [(str(a), _d(info)) for a, info in sorted(_d(view.get("advisors")).items()) if _d(info).get("at") == area]
    per_row = max(1, (w - 6) // 24)
    for k, (adv, info) in enumerate(here):
        owner = info.get("owner")
        ax, ay = x + 6 + (k % per_row) * 24, row + (k // per_row) * 16
        parts.append(Markup('<rect class="adv {}" x="{}" y="{}" width="21" height="13" rx="6"/>').format(
            _cls(owner) if owner else "neutral", ax, ay))
        parts.append(_text(ax + 10.5, ay + 10, _advisor_tag(adv), "atag on" if owner else "atag", "middle"))
    row += 16 * max(0, (len(here) - 1) // per_row)
    said.append(_("advisors: %(list)s", list=", ".join(
        f"{_advisor_tag(a)} {i.get('owner') or _('neutral')}" for a, i in here) or _("none")))
    row += 20
    ballots = _d(_d(view.get("ballots")).get(area))
    placed = [s for s in seats if ballots.get(s)] + [s for s in ballots if s not in seats and ballots.get(s)]
    for k, s in enumerate(placed):
        mx = x + 12 + k * 24
        parts.append(Markup('<circle class="ballot {}" cx="{}" cy="{}" r="7"/>').format(_cls(s), mx, row + 6))
        parts.append(_text(mx, row + 9.5, ballots[s], "bnum", "middle"))
    said.append(_("face-down markers: %(list)s", list=", ".join(f"{s} {ballots[s]}" for s in placed) or _("none")))
    own = _d(_d(_d(view.get("private")).get(seat or "")).get("ballots")).get(area) if seat else None
    if own:
        values = " ".join(str(v) for v in _l(own))
        parts.append(_text(x + w - 4, row + 10, _("yours: %(values)s", values=values), "vmine", "end"))
        said.append(_("your markers: %(values)s", values=values))
    group = Markup('<g class="varea {}" data-area="{}"><title>{}</title>').format(
        "quarantia" if area not in OUTLINES else "district", area, "; ".join(said)) \
        + Markup("").join(parts) + Markup("</g>")
    url = link_for(area)
    if url:
        return Markup('<a class="pick area-pick" href="{}" data-area="{}" aria-label="{}">{}</a>').format(
            url, area, _("%(area)s: choose it for your order", area=name), group)
    return group


def venice(view: dict[str, Any], seat: str | None, names: dict[str, str]) -> Markup:
    """The SVG map; `names`: area id -> the name to show."""
    seats = [str(s) for s in _l(view.get("seats"))]
    body = [Markup('<rect class="lagoon" x="0" y="0" width="{}" height="{}"/>').format(W, H)]
    body.append(Markup('<path class="canal" d="{}"/>').format(CANAL))
    body.extend(_area(area, names.get(area, area), view, seat, seats) for area in BLOCKS)
    drawn = Markup("").join(body)
    role = "group" if 'class="pick' in drawn else "img"
    return (Markup('<div class="venice"><svg viewBox="0 0 {} {}" role="{}" aria-labelledby="venice-title">'
                   '<title id="venice-title">{}</title>').format(
                W, H, role, _("Venice: the six districts and the Quarantia"))
            + drawn + Markup("</svg></div>"))
