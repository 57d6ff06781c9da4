"""The Doge board as an HTML grid (no script, no inline styles: the CSP forbids both).

Reads only the view the page may show (see adjudicator/games/doge/state.py for the schema):
``districts[d] = {"houses": {seat: n}, "palaces": [seat, ...]}`` (palaces fill the spaces that
cost 3..7 in order), ``advisors[a] = {"home", "at", "owner"}``, ``ballots[area] = {seat: count}``
(face-down markers; their values appear only in ``private[seat]["ballots"]`` of the seat's own
view), ``voting = {"current", "next", "used"}``, ``supply[seat] = {houses, palaces, rings,
markers}``. Every lookup tolerates a missing key so an unexpected view degrades, never crashes.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from . import link_for, register_board
from .venice import venice

AREA_NAMES = {
    "cannaregio": "Cannaregio", "castello": "Castello", "dorsoduro": "Dorsoduro",
    "san-marco": "San Marco", "san-polo": "San Polo", "santa-croce": "Santa Croce",
    "quarantia": "Quarantia",
}
DISTRICT_ORDER = ["cannaregio", "castello", "dorsoduro", "san-marco", "san-polo", "santa-croce"]
QUARANTIA = "quarantia"
PALACE_COSTS = [3, 4, 5, 6, 7]
COLOURS = {"red", "blue", "green", "yellow"}


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def area_name(area: Any) -> str:
    return AREA_NAMES.get(str(area), str(area).replace("-", " ").title())


def _advisor_name(advisor: str, home: Any) -> str:
    if advisor.startswith("adv-quarantia-"):
        return _("Quarantia advisor %(number)s", number=advisor.rsplit("-", 1)[1])
    return _("%(area)s advisor", area=area_name(home or advisor[4:]))


def _colour_class(seat: Any) -> str:
    s = str(seat)
    return f"c-{s}" if s in COLOURS else "c-other"


def _chip(seat: Any, text: Any = "") -> Markup:
    label = Markup('<span class="chip {cls}" title="{seat}"><span class="swatch"></span>{seat}').format(
        cls=_colour_class(seat), seat=seat)
    if text != "":
        label += Markup(' <b>{}</b>').format(text)
    return label + Markup("</span>")


def _palace_row(built: list[Any]) -> Markup:
    cells = []
    for i, cost in enumerate(PALACE_COSTS):
        owner = built[i] if i < len(built) else None
        if owner:
            cells.append(Markup('<li class="space built {cls}" title="{title}">'
                                '<span class="cost">{cost}</span><span class="who">{owner}</span></li>')
                         .format(cls=_colour_class(owner), cost=cost, owner=owner,
                                 title=_("space %(cost)s: %(owner)s", cost=cost, owner=owner)))
        else:
            cells.append(Markup('<li class="space free" title="{title}">'
                                '<span class="cost">{cost}</span><span class="who">{free}</span></li>')
                         .format(cost=cost, free=_("free"), title=_("space %(cost)s: %(owner)s", cost=cost,
                                                                    owner=_("free"))))
    # More palaces than spaces would be a bug in the game; show them rather than hide them.
    for owner in built[len(PALACE_COSTS):]:
        cells.append(Markup('<li class="space built {cls}"><span class="who">{owner}</span></li>')
                     .format(cls=_colour_class(owner), owner=owner))
    return (Markup('<ol class="palaces" aria-label="{}">').format(_("palace spaces")) + Markup("").join(cells)
            + Markup("</ol>"))


def _counts(mapping: dict[str, Any], seats: list[str], empty: str) -> Markup:
    items = [(s, mapping[s]) for s in seats if mapping.get(s)]
    items += [(s, n) for s, n in mapping.items() if s not in seats and n]
    if not items:
        return Markup('<span class="muted">{}</span>').format(empty)
    return Markup(" ").join(_chip(s, n) for s, n in items)


def _vote_status(area: str, voting: dict[str, Any], election: dict[str, Any]) -> Markup:
    current = _l(voting.get("current"))
    if election.get("area") == area:
        return Markup('<span class="tag now">{}</span>').format(_("voting now"))
    if area in current:
        position = current.index(area) + 1
        return Markup('<span class="tag">{}</span>').format(
            _("votes %(position)s%(ordinal)s", position=position, ordinal=_ordinal(position)))
    if area in _l(voting.get("used")):
        return Markup('<span class="tag muted">{}</span>').format(_("voted"))
    return Markup("")


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _area(area: str, view: dict[str, Any], seat: str | None, seats: list[str]) -> Markup:
    district = _d(_d(view.get("districts")).get(area))
    voting = _d(view.get("voting"))
    election = _d(view.get("election"))
    advisors = _d(view.get("advisors"))
    url = link_for(area)  # the seat is composing a placement: a click on the area picks it
    title = Markup('<a class="pick" href="{}">{}</a>').format(url, area_name(area)) if url else area_name(area)
    parts = [Markup('<header><h3>{}</h3>{}</header>').format(title, _vote_status(area, voting, election))]
    if area != QUARANTIA:
        parts.append(Markup('<div class="row"><span class="label">{}</span>{}</div>')
                     .format(_("Palaces"), _palace_row(_l(district.get("palaces")))))
        parts.append(Markup('<div class="row"><span class="label">{}</span>{}</div>')
                     .format(_("Houses"), _counts(_d(district.get("houses")), seats, _("none"))))
    here = []
    for adv, info in sorted(advisors.items()):
        info = _d(info)
        if info.get("at") != area:
            continue
        owner = info.get("owner")
        who = _chip(owner) if owner else Markup('<span class="muted">{}</span>').format(_("neutral"))
        here.append(Markup("<li>{} {}</li>").format(_advisor_name(str(adv), info.get("home")), who))
    parts.append(Markup('<div class="row"><span class="label">{}</span>{}</div>').format(
        _("Advisors"), Markup('<ul class="advisors">') + Markup("").join(here) + Markup("</ul>") if here
        else Markup('<span class="muted">{}</span>').format(_("none"))))
    ballots = _d(_d(view.get("ballots")).get(area))
    parts.append(Markup('<div class="row"><span class="label">{}</span>{}</div>')
                 .format(_("Markers"), _counts(ballots, seats, _("none"))))
    own = _d(_d(_d(view.get("private")).get(seat or "")).get("ballots")).get(area) if seat else None
    if own:
        parts.append(Markup('<div class="row mine"><span class="label">{}</span>{}</div>')
                     .format(_("Yours"), " ".join(str(v) for v in _l(own))))
    cls = "area quarantia" if area == QUARANTIA else "area"
    return Markup('<section class="{}">').format(cls) + Markup("").join(parts) + Markup("</section>")


def _track(view: dict[str, Any]) -> Markup:
    voting = _d(view.get("voting"))

    def cards(key: str, empty: str) -> Markup:
        names = [area_name(a) for a in _l(voting.get(key))]
        if not names:
            return Markup('<span class="muted">{}</span>').format(empty)
        return Markup('<ol class="cards">') + Markup("").join(
            Markup('<li class="card-face">{}</li>').format(n) for n in names) + Markup("</ol>")

    return Markup(
        '<section class="track"><h3>{}</h3>'
        '<div class="row"><span class="label">{}</span>{}</div>'
        '<div class="row"><span class="label">{}</span>{}</div>'
        '<div class="row"><span class="label">{}</span>{}</div></section>'
    ).format(_("Voting order"), _("Still to vote"), cards("current", _("none")), _("Voted"),
             cards("used", _("none")), _("Turned up for next year"), cards("next", _("none yet")))


def _supply(view: dict[str, Any], seats: list[str], seat: str | None) -> Markup:
    supply = _d(view.get("supply"))
    used = _d(view.get("cards_used"))
    rows = []
    for s in seats:
        sup = _d(supply.get(s))
        markers: Any = sup.get("markers", "")
        own = _d(_d(view.get("private")).get(s)).get("markers") if s == seat else None
        if isinstance(own, list):
            markers = Markup("{} <small>({})</small>").format(len(own), " ".join(str(v) for v in own) or _("none"))
        rows.append(Markup("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>").format(
            _chip(s), sup.get("houses", ""), sup.get("palaces", ""), sup.get("rings", ""), markers,
            ", ".join(area_name(a) for a in _l(used.get(s))) or "-"))
    return Markup(
        '<div class="table-wrap"><table class="supply"><thead><tr><th>{}</th><th>{}</th>'
        '<th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody>'
        '</table></div>').format(_("Player"), _("Houses"), _("Palaces"), _("Rings"), _("Markers"), _("Cards used"),
                                 Markup("").join(rows))


@register_board("doge")
def draw(view: dict[str, Any], seat: str | None) -> Markup:
    seats = [str(s) for s in _l(view.get("seats"))]
    districts = _d(view.get("districts"))
    order = [d for d in DISTRICT_ORDER if d in districts] + sorted(d for d in districts if d not in DISTRICT_ORDER)
    areas = Markup("").join(_area(a, view, seat, seats) for a in [*order, QUARANTIA])
    neutral = [str(a) for a, info in sorted(_d(view.get("advisors")).items()) if _d(info).get("at") is None]
    head = Markup('<p class="doge-year">{} <b>{}</b>').format(_("Year"), view.get("year", "?"))
    election = _d(view.get("election"))
    if election.get("area"):
        head += Markup(" · {} <b>{}</b>").format(_("election %(number)s in", number=election.get("number", "")),
                                                 area_name(election["area"]))
    head += Markup("</p>")
    off = Markup("")
    if neutral:
        off = Markup('<p class="muted small">{} {}</p>').format(_("Advisors off the board (neutral):"),
            ", ".join(_advisor_name(a, _d(_d(view.get("advisors")).get(a)).get("home")) for a in neutral))
    drawn = venice(view, seat, {a: area_name(a) for a in [*order, QUARANTIA]})
    legend = Markup('<p class="small muted">{}</p>').format(_(
        "Squares: the palace spaces and their cost, filled in the builder's colour · little houses: houses "
        "with their number · rounded tags: advisors (CN Cannaregio, CS Castello, DD Dorsoduro, SM San Marco, "
        "SP San Polo, SC Santa Croce, Q the Quarantia's), in the colour of the ring on them, white when "
        "neutral · small discs: face-down markers with their number · disc beside a name: the area's place in "
        "this year's voting order (dark red: voting now; ✓: voted)."))
    listed = Markup('<details class="doge-list"><summary>{}</summary><div class="areas">{}</div></details>').format(
        _("Areas as a list"), areas)
    return (Markup('<div class="doge">') + head + drawn + legend + listed
            + off + _track(view) + _supply(view, seats, seat) + Markup("</div>"))
