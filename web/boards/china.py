"""The China board: an SVG map drawn from the board file, plus the cards and players in HTML.

No script and no inline styles (the CSP forbids both): colours come from classes in
`web/static/boards.css`, positions from SVG attributes.

Reads only the view the page may show (see adjudicator/games/china/state.py and
docs/games/china.md): ``board`` (the side, "3-4p"/"4-5p"), ``houses {space: seat}``,
``forts {space: seat}``, ``courts {region: {seat: n}}``, ``scored [region, ...]``,
``supply {seat: {houses, emissaries, fortifications}}``, ``scores``, ``scoring``, ``display``,
``discard``, ``box``, ``exhaustions``, ``result``, ``hand_sizes``, ``deck_size`` and, in a seat's
own view only, ``private[seat]["hand"]``. The geometry comes from the game's own board file
(`boardfile.load_board`): house-space and court coordinates are in the file; the region shapes
are not, so they are computed deterministically as the Voronoi cells of the spaces and the
court (nearest point wins), clipped to an octagon around the board. Every lookup tolerates a
missing key, so an unexpected view degrades, never crashes.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from . import link_for, register_board, register_hand

SCALE = 10  # board units (x 0-100, y 0-90) to SVG user units
SEAT_COLOURS = ("blue", "green", "red", "violet", "yellow")
CARD_COLOURS = ("green", "orange", "purple", "red", "yellow")
HOUSE_R = 2.3
EMISSARY_R = 1.5
EMISSARY_STEP = 3.5
EMISSARIES_PER_ROW = 3


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _seat_cls(seat: Any) -> str:
    return f"s-{seat}" if seat in SEAT_COLOURS else "s-other"


def _card_cls(colour: Any) -> str:
    return f"k-{colour}" if colour in CARD_COLOURS else "k-other"


def _n(value: float) -> str:
    """An SVG coordinate from board units."""
    text = f"{value * SCALE:.1f}"
    return text[:-2] if text.endswith(".0") else text


# --- geometry: computed once per board file ------------------------------------------------

Point = tuple[float, float]


def _clip(cell: list[tuple[Point, Any]], a: Point, b: Point, label: Any) -> list[tuple[Point, Any]]:
    """Sutherland-Hodgman: keep the part of a convex cell nearer to a than to b.

    A cell is a list of (vertex, label of the edge starting at that vertex); an edge made by
    this cut is labelled `label` (the other site), so borders can be told from inner edges."""
    nx, ny = b[0] - a[0], b[1] - a[1]
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2

    def side(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out: list[tuple[Point, Any]] = []
    for i, (p, lab) in enumerate(cell):
        q = cell[(i + 1) % len(cell)][0]
        fp, fq = side(p), side(q)
        if fp <= 0:
            out.append((p, lab))
        if (fp <= 0) != (fq <= 0):
            t = fp / (fp - fq)
            cut = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            out.append((cut, label if fp <= 0 else lab))
    return out


class Geometry:
    """Region cells, borders and label positions of one board file."""

    def __init__(self, data: dict[str, Any]) -> None:
        regions = [r for r in _l(data.get("regions")) if isinstance(r, dict)]
        self.region_ids = [str(r.get("id")) for r in regions]
        self.names = {str(r.get("id")): str(r.get("name", r.get("id"))) for r in regions}
        self.colour = {str(r.get("id")): str(r.get("colour", "")) for r in regions}
        self.court = {str(r.get("id")): tuple(r["court_xy"]) for r in regions if _xy(r.get("court_xy"))}
        self.spaces: dict[str, tuple[float, float]] = {}
        self.region_of: dict[str, str] = {}
        for space in _l(data.get("house_spaces")):
            if isinstance(space, dict) and _xy(space.get("xy")):
                self.spaces[str(space.get("id"))] = tuple(space["xy"])
                self.region_of[str(space.get("id"))] = str(space.get("region"))
        self.order = {rid: [s for s in _l(r.get("house_spaces")) if s in self.spaces]
                      for rid, r in zip(self.region_ids, regions, strict=True)}
        self.roads = [(a, b) for a, b in (r for r in _l(data.get("roads")) if isinstance(r, list) and len(r) == 2)
                      if a in self.spaces and b in self.spaces]
        self.alliances = sorted(
            (_int(a.get("number")), str(a["regions"][0]), str(a["regions"][1]))
            for a in _l(data.get("alliances"))
            if isinstance(a, dict) and isinstance(a.get("regions"), list) and len(a["regions"]) == 2)
        sites: list[tuple[Point, str]] = [(xy, self.region_of[s]) for s, xy in self.spaces.items()]
        sites += [(xy, rid) for rid, xy in self.court.items()]
        xs = [p[0] for p, _ in sites] or [0.0, 100.0]
        ys = [p[1] for p, _ in sites] or [0.0, 90.0]
        margin, chamfer = 7.0, 9.0
        x0, x1, y0, y1 = min(xs) - margin, max(xs) + margin, min(ys) - margin - 3, max(ys) + margin
        self.box = (x0, y0, x1, y1)
        octagon = [(x0 + chamfer, y0), (x1 - chamfer, y0), (x1, y0 + chamfer), (x1, y1 - chamfer),
                   (x1 - chamfer, y1), (x0 + chamfer, y1), (x0, y1 - chamfer), (x0, y0 + chamfer)]
        self.cells: list[tuple[str, list[Point]]] = []
        self.borders: list[tuple[Point, Point]] = []
        self.coast: list[tuple[Point, Point]] = []
        touching: dict[frozenset[str], list[Point]] = {}
        for i, (a, region) in enumerate(sites):
            cell: list[tuple[Point, Any]] = [(p, None) for p in octagon]
            for j, (b, _region) in enumerate(sites):
                if j != i and b != a:
                    cell = _clip(cell, a, b, j)
            if len(cell) < 3:
                continue
            self.cells.append((region, [p for p, _ in cell]))
            for k, (p, lab) in enumerate(cell):
                q = cell[(k + 1) % len(cell)][0]
                if lab is None:
                    self.coast.append((p, q))
                elif sites[lab][1] != region and i < lab:
                    self.borders.append((p, q))
                    pair = frozenset((region, sites[lab][1]))
                    touching.setdefault(pair, []).append(((p[0] + q[0]) / 2, ((p[1] + q[1]) / 2)))
        # An alliance number sits on the border its two regions share (the middle of the
        # shared border pieces), or halfway between the courts if the cells do not touch.
        self.alliance_at: dict[int, Point] = {}
        for number, ra, rb in self.alliances:
            mids = touching.get(frozenset((ra, rb)))
            if mids:
                best = min(mids, key=lambda m: sum(math.dist(m, o) for o in mids))
                self.alliance_at[number] = best
            elif ra in self.court and rb in self.court:
                (ax, ay), (bx, by) = self.court[ra], self.court[rb]
                self.alliance_at[number] = ((ax + bx) / 2, (ay + by) / 2)


def _xy(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, int | float) for v in value)


BoardKey = tuple[str, str]  # (side, board pin) as the view names them


def _board(key: BoardKey) -> Any:
    """The game's board side, or None when the view names none this server knows."""
    from adjudicator.games.china.boardfile import SIDES, load_board

    side, pin = key
    if side not in SIDES:
        return None
    try:
        return load_board(side, pin) if pin else load_board(side)
    except ValueError:  # a board that is not installed here
        return None


@cache
def _geometry(key: BoardKey) -> Geometry | None:
    board = _board(key)
    return Geometry(board.data) if board is not None else None


@cache
def _board_meta(key: BoardKey) -> tuple[str, bool, str]:
    board = _board(key)
    return str(board.data.get("side_label", key[0])), bool(board.stand_in), str(board.data.get("WARNING", ""))


# --- the map --------------------------------------------------------------------------------


def _poly(points: list[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _segments(segs: list[tuple[Point, Point]]) -> str:
    return " ".join(f"M{_n(p[0])} {_n(p[1])}L{_n(q[0])} {_n(q[1])}" for p, q in segs)


@cache
def _static_layers(key: BoardKey) -> Markup:
    """Region fills, borders, coast and roads: the same for every view of a side."""
    geo = _geometry(key)
    assert geo is not None
    parts = [Markup('<g class="regions">')]
    for region, points in geo.cells:
        parts.append(Markup('<polygon class="rg {}" points="{}"/>').format(
            _card_cls(geo.colour.get(region)), _poly(points)))
    parts.append(Markup("</g>"))
    parts.append(Markup('<path class="coast" d="{}"/>').format(_segments(geo.coast)))
    parts.append(Markup('<path class="border" d="{}"/>').format(_segments(geo.borders)))
    roads = [(geo.spaces[a], geo.spaces[b]) for a, b in geo.roads]
    parts.append(Markup('<path class="road" d="{}"/>').format(_segments(roads)))
    return Markup("").join(parts)


def _text(x: float, y: float, text: Any, cls: str, anchor: str = "middle") -> Markup:
    return Markup('<text class="{}" x="{}" y="{}" text-anchor="{}">{}</text>').format(
        cls, _n(x), _n(y), anchor, text)


def _alliances(geo: Geometry, scored: dict[int, dict[str, Any]]) -> Markup:
    parts = [Markup('<g class="alliances">')]
    for number, ra, rb in geo.alliances:
        at = geo.alliance_at.get(number)
        if at is None:
            continue
        done = number in scored
        title = _("Alliance %(number)s: %(a)s and %(b)s", number=number, a=geo.names.get(ra, ra),
                  b=geo.names.get(rb, rb))
        if done:
            pts = ", ".join(f"{s} {p}" for s, p in sorted(_d(scored[number].get("points")).items())) or _("nobody")
            title += " " + _("(scored: %(points)s)", points=pts)
        parts.append(Markup('<g class="alliance{}"><title>{}</title><circle cx="{}" cy="{}" r="{}"/>{}</g>').format(
            " done" if done else "", title, _n(at[0]), _n(at[1]), _n(1.9),
            _text(at[0], at[1] + 0.8, number, "anum")))
    parts.append(Markup("</g>"))
    return Markup("").join(parts)


def _court(geo: Geometry, region: str, court: dict[str, Any], seats: list[str], scored_rank: int | None) -> Markup:
    cx, cy = geo.court[region]
    people = [(s, _int(court.get(s))) for s in seats if _int(court.get(s)) > 0]
    people += [(str(s), _int(n)) for s, n in court.items() if s not in seats and _int(n) > 0]
    cols = max(1, min(EMISSARIES_PER_ROW, len(people)))
    rows = max(1, math.ceil(len(people) / EMISSARIES_PER_ROW))
    w = cols * EMISSARY_STEP + 1.0 if people else 7.0
    h = rows * EMISSARY_STEP + 1.0
    x0, y0 = cx - w / 2, cy - h / 2 + 1.2
    name = geo.names.get(region, region)
    summary = ", ".join(f"{s} {n}" for s, n in people) or _("no emissaries")
    parts = [Markup('<g class="court" data-region="{}"><title>{}</title>').format(
        region, _("Court of %(region)s: %(emissaries)s", region=name, emissaries=summary))]
    parts.append(Markup('<rect class="court-box" x="{}" y="{}" width="{}" height="{}" rx="{}"/>').format(
        _n(x0), _n(y0), _n(w), _n(h), _n(0.8)))
    if not people:
        parts.append(_text(cx, y0 + h / 2 + 0.7, "court", "court-empty"))
    for k, (s, n) in enumerate(people):
        ex = x0 + 0.5 + EMISSARY_STEP * (k % EMISSARIES_PER_ROW + 0.5)
        ey = y0 + 0.5 + EMISSARY_STEP * (k // EMISSARIES_PER_ROW + 0.5)
        parts.append(Markup('<g class="em {}" data-seat="{}" data-count="{}"><circle cx="{}" cy="{}" r="{}"/>{}</g>')
                     .format(_seat_cls(s), s, n, _n(ex), _n(ey), _n(EMISSARY_R), _text(ex, ey + 0.75, n, "emn")))
    # the region's name above its court, with the scoring marker beside it once scored
    parts.append(_text(cx, y0 - 1.0, name, "rname"))
    if scored_rank is not None:
        mx, my = x0 + w + 2.1, y0 + h / 2
        parts.append(Markup('<g class="scored-mark"><title>{}</title>'
                            '<circle cx="{}" cy="{}" r="{}"/>{}</g>').format(
            _("%(region)s scored (%(place)s region scored)", region=name, place=_place(scored_rank)),
            _n(mx), _n(my), _n(1.7),
            _text(mx, my + 0.7, scored_rank, "snum")))
    parts.append(Markup("</g>"))
    url = link_for(name)  # composing an order: a click on the region keeps the orders naming it
    if url:
        parts = [Markup('<a class="pick" href="{}">').format(url), *parts, Markup("</a>")]
    return Markup("").join(parts)


def _place(n: int) -> str:
    """1st, 2nd, 3rd, 4th... in the page's language (a board has fewer than 21 regions)."""
    return [_("1st"), _("2nd"), _("3rd")][n - 1] if 1 <= n <= 3 else _("%(n)sth", n=n)


def _spaces(geo: Geometry, houses: dict[str, Any], forts: dict[str, Any]) -> Markup:
    parts = [Markup('<g class="spaces">')]
    for space, (x, y) in geo.spaces.items():
        owner = houses.get(space)
        fort = space in forts
        number = space.rpartition("-")[2]
        what = _("%(seat)s house", seat=owner) if owner else _("empty")
        if fort:
            what += _(", fortification (placed by %(seat)s)", seat=forts.get(space))
        cls = f"hs {_seat_cls(owner)}" if owner else "hs free"
        name = f"{geo.names.get(geo.region_of.get(space, ''), '')} {number}"
        # the seat is choosing a space: a legal one is a link that picks it (enhance.js selects it
        # in the order list without a reload; without scripts the link narrows the list to it)
        url = link_for(space)
        if url:
            parts.append(Markup('<a class="pick space-pick" href="{}" data-choose="{}" aria-label="{}">').format(
                url, space, _("Choose %(space)s", space=name)))
        parts.append(Markup('<g class="{}{}" data-space="{}"><title>{}: {}</title>').format(
            cls, " fort" if fort else "", space, name, what))
        if fort:
            r = HOUSE_R + 0.9
            parts.append(Markup('<rect class="fortif" x="{}" y="{}" width="{}" height="{}"/>').format(
                _n(x - r), _n(y - r), _n(2 * r), _n(2 * r)))
        if owner:
            # a house: a little pentagon, filled in the owner's colour
            r = HOUSE_R
            pts = [(x - r * 0.8, y + r * 0.8), (x + r * 0.8, y + r * 0.8), (x + r * 0.8, y - r * 0.15),
                   (x, y - r), (x - r * 0.8, y - r * 0.15)]
            parts.append(Markup('<polygon class="house" points="{}"/>').format(_poly(pts)))
        else:
            parts.append(Markup('<circle class="slot" cx="{}" cy="{}" r="{}"/>').format(
                _n(x), _n(y), _n(HOUSE_R * 0.8)))
            parts.append(_text(x, y + 0.7, number, "slotn"))
        parts.append(Markup("</g></a>") if url else Markup("</g>"))
    # houses on spaces this board does not know would be a bug; show them as text, not hide them
    parts.append(Markup("</g>"))
    return Markup("").join(parts)


def _map(view: dict[str, Any], key: BoardKey, seats: list[str]) -> Markup:
    geo = _geometry(key)
    if geo is None:
        return Markup('<p class="muted">{}</p>').format(_("Unknown board side %(side)s: no map.", side=key[0]))
    houses, forts, courts = _d(view.get("houses")), _d(view.get("forts")), _d(view.get("courts"))
    scored = [str(r) for r in _l(view.get("scored"))]
    alliance_scores = {_int(e.get("number")): e for e in map(_d, _l(view.get("scoring")))
                       if e.get("what") == "alliance"}
    x0, y0, x1, y1 = geo.box
    label, stand_in = _board_meta(key)[:2]
    body = [
        Markup('<svg class="china-svg" viewBox="{} {} {} {}" role="ROLE" aria-labelledby="china-map-title">'
               '<title id="china-map-title">China, {}{}</title>').format(
            _n(x0), _n(y0), _n(x1 - x0), _n(y1 - y0 + (5 if stand_in else 0)), _side(label),
            " " + _("(stand-in geometry)") if stand_in else ""),
        _static_layers(key),
        _alliances(geo, alliance_scores),
    ]
    for region in geo.region_ids:
        if region in geo.court:
            rank = scored.index(region) + 1 if region in scored else None
            body.append(_court(geo, region, _d(courts.get(region)), seats, rank))
    body.append(_spaces(geo, houses, forts))
    if stand_in:
        body.append(_text((x0 + x1) / 2, y1 + 3.4, _("STAND-IN GEOMETRY: not the printed board"), "standin-mark"))
    body.append(Markup("</svg>"))
    unknown = sorted(s for s in houses if s not in geo.spaces)
    extra = Markup("")
    if unknown:
        extra = Markup('<p class="muted small">{}</p>').format(_(
            "Houses on spaces not on this board: %(spaces)s", spaces=", ".join(f"{s} ({houses[s]})" for s in unknown)))
    drawn = Markup("").join(body)
    # an image may hold no links (axe: nested-interactive): with regions to click, the map is a group
    drawn = Markup(str(drawn).replace('role="ROLE"', 'role="group"' if 'class="pick' in drawn else 'role="img"', 1))
    return Markup('<div class="china-map">') + drawn + Markup("</div>") + extra


# --- HTML around the map ------------------------------------------------------------------


def _chip(seat: Any, text: Any = "") -> Markup:
    out = Markup('<span class="chip {}"><span class="swatch"></span>{}').format(_seat_cls(seat), seat)
    if text != "":
        out += Markup(" <b>{}</b>").format(text)
    return out + Markup("</span>")


def _cards(colours: list[Any], empty: str = "") -> Markup:
    if not colours:
        return Markup('<span class="muted">{}</span>').format(empty or _("none"))
    return Markup('<ul class="cardrow">') + Markup("").join(
        Markup('<li class="ccard {}">{}</li>').format(_card_cls(c), c) for c in colours) + Markup("</ul>")


def _colour_counts(colours: list[Any]) -> Markup:
    counts: dict[str, int] = {}
    for c in colours:
        counts[str(c)] = counts.get(str(c), 0) + 1
    if not counts:
        return Markup('<span class="muted">{}</span>').format(_("empty"))
    return Markup(" ").join(
        Markup('<span class="ccount {}">{} {}</span>').format(_card_cls(c), c, n) for c, n in sorted(counts.items()))


def _score_text(points: int) -> Markup:
    from adjudicator.games.china.components import TRACK_WRAP

    cards = points // TRACK_WRAP if TRACK_WRAP else 0
    if not cards:
        return Markup("{}").format(points)
    extra = (_("(track %(track)s + %(cards)s point card)", track=points % TRACK_WRAP, cards=cards) if cards == 1
             else _("(track %(track)s + %(cards)s point cards)", track=points % TRACK_WRAP, cards=cards))
    return Markup('{} <small class="muted">{}</small>').format(points, extra)


def _players(view: dict[str, Any], seats: list[str], seat: str | None) -> Markup:
    supply, scores, sizes = _d(view.get("supply")), _d(view.get("scores")), _d(view.get("hand_sizes"))
    current = view.get("current")
    result = _d(view.get("result"))
    winners = [str(w) for w in _l(result.get("winners"))]
    rows = []
    for s in seats:
        sup = _d(supply.get(s))
        marks = []
        if s == current and not result:
            marks.append(Markup('<span class="tag now">{}</span>').format(_("to play")))
        if s == (seats[0] if seats else None):
            marks.append(Markup('<span class="tag">{}</span>').format(_("Emperor")))
        if s in winners:
            marks.append(Markup('<span class="tag win">{}</span>').format(_("winner")))
        cls = ' class="mine"' if s == seat else ""
        rows.append(Markup("<tr{}><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>").format(
            Markup(cls), _chip(s), Markup(" ").join(marks), _score_text(_int(scores.get(s))),
            sizes.get(s, "?"), sup.get("houses", ""), sup.get("emissaries", ""), sup.get("fortifications", "")))
    return Markup(
        '<div class="table-wrap"><table class="china-players"><caption>{}</caption>'
        '<thead><tr><th>{}</th><th>{}</th>'
        '<th>{}</th><th>{}</th><th>{}</th><th>{}</th>'
        '</tr></thead><tbody>{}</tbody></table></div>').format(
            _("Players (pieces still in supply)"), _("Player"), _("Score"), _("Hand"), _("Houses"), _("Emissaries"),
            _("Fortifications"), Markup("").join(rows))


def _regions_table(view: dict[str, Any], key: BoardKey, seats: list[str]) -> Markup:
    geo = _geometry(key)
    if geo is None:
        return Markup("")
    houses, forts, courts = _d(view.get("houses")), _d(view.get("forts")), _d(view.get("courts"))
    scored = [str(r) for r in _l(view.get("scored"))]
    rows = []
    for region in geo.region_ids:
        spaces = geo.order.get(region, [])
        counts: dict[str, int] = {}
        for sp in spaces:
            if houses.get(sp):
                counts[str(houses[sp])] = counts.get(str(houses[sp]), 0) + 1
        built = Markup(" ").join(_chip(s, n) for s, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        fortified = sum(1 for sp in spaces if sp in forts)
        court = _d(courts.get(region))
        envoys = Markup(" ").join(_chip(s, n) for s, n in sorted(court.items()) if _int(n) > 0)
        state = Markup('<span class="tag win">{}</span>').format(
            _("scored %(rank)s", rank=scored.index(region) + 1)) if region in scored else ""
        rows.append(Markup(
            '<tr><td><span class="rchip {}"></span>{}</td><td>{} / {}{}</td>'
            '<td>{}</td><td>{}</td><td>{}</td></tr>').format(
            _card_cls(geo.colour.get(region)), geo.names.get(region, region),
            sum(counts.values()), len(spaces),
            Markup(" {}").format(_("+%(n)s fort.", n=fortified)) if fortified else "",
            built or Markup('<span class="muted">-</span>'), envoys or Markup('<span class="muted">-</span>'), state))
    return Markup(
        '<details class="china-regions"><summary>{}</summary><div class="table-wrap">'
        '<table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th></th></tr></thead>'
        '<tbody>{}</tbody></table></div></details>').format(
            _("Regions as a table"), _("Region"), _("Houses built"), _("Houses"), _("Court"), Markup("").join(rows))


def _alliance_results(view: dict[str, Any], key: BoardKey) -> Markup:
    geo = _geometry(key)
    entries = [e for e in map(_d, _l(view.get("scoring"))) if e.get("what") == "alliance"]
    if not entries or geo is None:
        return Markup("")
    items = []
    for e in entries:
        regions = [geo.names.get(str(r), str(r)) for r in _l(e.get("regions"))]
        pts = _d(e.get("points"))
        who = (Markup(" ").join(_chip(s, p) for s, p in sorted(pts.items()))
               or Markup('<span class="muted">{}</span>').format(_("nobody")))
        items.append(Markup("<li><b>{}</b> {}: {}</li>").format(e.get("number", "?"), " – ".join(regions), who))
    return Markup('<details class="china-alliances"><summary>{}</summary><ul>{}</ul></details>').format(
        _("Alliance scoring"), Markup("").join(items))


@register_board("china")
def draw(view: dict[str, Any], seat: str | None) -> Markup:
    seats = [str(s) for s in _l(view.get("seats"))]
    key = (str(view.get("board", "")), str(view.get("board_set", "")))
    label, stand_in, warning = _board_meta(key) if _geometry(key) else (key[0], bool(view.get("stand_in_board")), "")
    stand_in = stand_in or bool(view.get("stand_in_board"))
    result = _d(view.get("result"))
    if result:
        head = Markup('<p class="china-head"><b>{}</b> {}</p>').format(_("Game over."), _(
            "Winner: %(winners)s.", winners=_(" and ").join(str(w) for w in _l(result.get("winners"))) or "?"))
    else:
        head = Markup('<p class="china-head">{} · {} · {}</p>').format(
            Markup(_("Turn %(turn)s", turn=Markup("<b>{}</b>").format(view.get("turn", "?")))),
            Markup(_("%(seat)s to play", seat=_chip(view.get("current", "?")))), _side(label))
        if _int(view.get("exhaustions")) >= 2 and seats:
            head += Markup('<p class="notice warn">{}</p>').format(
                _("Last round: the game ends after %(seat)s's turn.", seat=seats[-1]))
    notice = Markup("")
    if stand_in:
        notice = Markup('<div class="notice warn standin"><b>{}</b> {}{}</div>').format(
            _("Stand-in board."), _("The regions, house spaces, roads and alliances drawn here are invented to fit "
                                    "the known facts; they are not the printed board."), _provenance(key, warning))
    legend = Markup('<p class="china-legend small muted">{}</p>').format(_(
        "Pentagon: a house in its owner's colour · numbered circle: an empty house space · square: fortification · "
        "lines: roads · small numbered discs: alliances (dark once scored) · box under a region's name: its court, "
        "one disc per player with the number of emissaries · gold disc beside a court: the region is scored (in that "
        "order)."))
    drawn_map = _map(view, key, seats)
    if "space-pick" in drawn_map:
        legend += Markup('<p class="china-legend small">{}</p>').format(
            _("Yellow circles: the spaces your order may take now; a click on one picks it, then send the order."))
    box = _d(view.get("box"))
    removed = sum(_int(n) for n in box.values())
    cards = Markup(
        '<section class="china-cards"><div class="row"><span class="label">{}</span>{}</div>'
        '<div class="row"><span class="label">{}</span><span>{}</span></div>'
        '<div class="row"><span class="label">{}</span><span>{} {}</span></div>{}</section>'
    ).format(_("Face-up"), _cards(_l(view.get("display"))), _("Deck"),
             Markup(_("%(cards)s cards · exhausted %(times)s time(s)",
                      cards=Markup("<b>{}</b>").format(view.get("deck_size", "?")),
                      times=_int(view.get("exhaustions")))),
             _("Discard pile"),
             Markup(_("%(cards)s cards", cards=Markup("<b>{}</b>").format(len(_l(view.get("discard")))))),
             _colour_counts(_l(view.get("discard"))),
             Markup('<div class="row"><span class="label">{}</span><span>{}</span></div>').format(
                 _("Out of the game"), _("%(n)s per colour", n=max((_int(n) for n in box.values()), default=0)))
             if removed else "")
    return (Markup('<div class="china">') + head + notice + drawn_map + legend + cards
            + _players(view, seats, seat) + _regions_table(view, key, seats) + _alliance_results(view, key)
            + Markup("</div>"))


def _provenance(key: BoardKey, warning: str) -> Markup:
    board = _board(key)
    if board is None:
        return Markup("")
    prov = _d(board.data.get("provenance"))
    items = Markup("").join(Markup("<li><code>{}</code>: {}</li>").format(k, v) for k, v in prov.items())
    return Markup('<details><summary>{}</summary><p class="small">{}</p>'
                  '<ul class="small">{}</ul></details>').format(_("Where the board data comes from"), warning, items)


@register_hand("china", every_decision=True)
def own_hand(view: dict[str, Any], seat: str | None) -> Markup:
    """The seat's own hand, only from its own view (other hands are never in it), with what a turn
    needs beside it: how many cards of each colour and the regions that colour plays to, then the
    face-up cards and the deck a draw or an exchange takes from. The seat page shows it beside the
    decision, so the board leaves it out."""
    if not seat:
        return Markup("")
    own = _d(_d(view.get("private")).get(seat))
    if "hand" not in own:
        return Markup("")
    hand = [str(c) for c in _l(own.get("hand"))]
    geo = _geometry((str(view.get("board", "")), str(view.get("board_set", ""))))
    counts: dict[str, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    rows = []
    for colour, n in sorted(counts.items()):
        regions = [geo.names[r] for r in geo.region_ids if geo.colour.get(r) == colour] if geo else []
        rows.append(Markup('<li><span class="ccount {}">{} × {}</span> {}</li>').format(
            _card_cls(colour), colour, n,
            _("plays to %(regions)s", regions=", ".join(regions)) if regions else ""))
    colours = Markup('<ul class="hand-colours">{}</ul>').format(Markup("").join(rows)) if rows else Markup("")
    return Markup(
        '<section class="china china-hand"><div class="row mine"><span class="label">{}</span>{}</div>{}'
        '<div class="row"><span class="label">{}</span>{}</div>'
        '<p class="small muted">{}</p></section>').format(
            _("Your hand"), _cards(hand, _("empty")), colours, _("Face-up"), _cards(_l(view.get("display"))),
            _("Deck: %(cards)s cards. A card pays for one piece in a region of its colour; two cards of one "
              "colour pay for one piece in a region of another colour.", cards=view.get("deck_size", "?")))


def _side(label: str) -> str:
    """The board side's label ("3-4 player side") in the page's language."""
    players = label.removesuffix(" player side")
    return _("%(players)s player side", players=players) if players != label else label

