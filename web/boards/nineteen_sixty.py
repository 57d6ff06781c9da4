"""The 1960 board: a tile-grid map of the 50 states, media boxes, issue track, and the rest.

No script and no inline styles (the CSP forbids both): colours and grid positions are classes in
`web/static/boards.css`.

Reads only the view the page may show (see docs/games/1960.md, "State schema"): ``states``,
``media``, ``issues``, ``endorse`` (``{"kennedy": n, "nixon": m}`` each), ``track`` (1st first;
``null`` for an empty space during the debates), ``supply``, ``rest``, ``bag``, ``momentum``,
``tokens``, ``candidate``, ``boxes``, ``effects``, ``discard``, ``removed``, ``debate``,
``result``, ``vp``, ``counts`` and, in a seat's own view only, ``private[seat]`` (hand and
campaign strategy). Every lookup tolerates a missing key, so an unexpected view degrades, never
crashes.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from adjudicator.i18n import N_

from . import link_for, register_board, register_hand

SEATS = ("kennedy", "nixon")
SHORT = {"kennedy": "K", "nixon": "N"}
TOKEN = {"kennedy": "JFK", "nixon": "RMN"}
REGIONS = ("West", "Midwest", "East", "South")
CARRY = 4

# A common square tile-grid layout of the US (11 columns, 8 rows): (row, column).
TILES: dict[str, tuple[int, int]] = {
    "AK": (0, 0), "ME": (0, 10),
    "VT": (1, 9), "NH": (1, 10),
    "WA": (2, 0), "ID": (2, 1), "MT": (2, 2), "ND": (2, 3), "MN": (2, 4), "IL": (2, 5), "WI": (2, 6),
    "MI": (2, 7), "NY": (2, 8), "RI": (2, 9), "MA": (2, 10),
    "OR": (3, 0), "NV": (3, 1), "WY": (3, 2), "SD": (3, 3), "IA": (3, 4), "IN": (3, 5), "OH": (3, 6),
    "PA": (3, 7), "NJ": (3, 8), "CT": (3, 9),
    "CA": (4, 0), "UT": (4, 1), "CO": (4, 2), "NE": (4, 3), "MO": (4, 4), "KY": (4, 5), "WV": (4, 6),
    "VA": (4, 7), "MD": (4, 8), "DE": (4, 9),
    "AZ": (5, 1), "NM": (5, 2), "KS": (5, 3), "AR": (5, 4), "TN": (5, 5), "NC": (5, 6), "SC": (5, 7),
    "OK": (6, 3), "LA": (6, 4), "MS": (6, 5), "AL": (6, 6), "GA": (6, 7),
    "HI": (7, 0), "TX": (7, 3), "FL": (7, 8),
}


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _who(seat: Any) -> str:
    return str(seat).capitalize() if seat else _("nobody")


def _data() -> tuple[dict[str, Any], dict[int, Any]]:
    from adjudicator.games.nineteen_sixty.data import CARDS, STATES

    return STATES, CARDS


def _holder(spot: Any) -> tuple[str | None, int]:
    """The side with cubes at a location and how many (only one side can have any)."""
    spot = _d(spot)
    for seat in SEATS:
        if _int(spot.get(seat)) > 0:
            return seat, _int(spot[seat])
    return None, 0


def _cubes(spot: Any, empty: str = "–") -> Markup:
    seat, n = _holder(spot)
    if seat is None:
        return Markup('<span class="cubes none">{}</span>').format(empty)
    title = (_("%(seat)s %(n)s cube", seat=_who(seat), n=n) if n == 1
             else _("%(seat)s %(n)s cubes", seat=_who(seat), n=n))
    return Markup('<span class="cubes p-{}" title="{}"><span class="cube"></span>{}</span>').format(seat, title, n)


def _card(card: Any) -> Markup:
    cards = _data()[1]
    info = cards.get(card) if isinstance(card, int) else None
    if info is None:
        return Markup('<span class="card1960">{}</span>').format(card)
    title = _("%(cp)s CP, %(icon)s icon", cp=info.cp, icon=info.icon) + (
        _(", debate: %(issue)s", issue=info.issue) if info.issue else "") + f". {_text(card)}"
    return Markup('<span class="card1960 i-{}" title="{}">#{} {} <small>{}</small></span>').format(
        info.icon, title, info.id, info.name, info.cp)


def _text(card: Any) -> str:
    """The card's effect text in the page's language."""
    from adjudicator.games.nineteen_sixty.text import card_message

    from ..i18n import game_text

    try:
        return game_text(card_message(card))
    except KeyError:
        return ""


def _facts(card: Any) -> str:
    """CP, event side and debate issue, written out (a title is hidden on touch screens)."""
    info = _data()[1].get(card) if isinstance(card, int) else None
    if info is None:
        return ""
    side = _("both candidates") if info.icon == "both" else _who(info.icon)
    if info.issue:
        return _("%(cp)s CP · event: %(side)s · debate: %(issue)s", cp=info.cp, side=side, issue=info.issue)
    return _("%(cp)s CP · event: %(side)s", cp=info.cp, side=side)


def _hand_list(cards: list[Any], empty: str) -> Markup:
    """The seat's own cards with their facts written out (a title is hidden on touch screens); the
    event texts follow, folded, so that the hand beside a decision stays short on a phone."""
    if not cards:
        return Markup('<span class="muted">{}</span>').format(empty)
    facts = Markup('<ul class="hand1960">{}</ul>').format(Markup("").join(
        Markup('<li>{} <span class="card-facts">{}</span></li>').format(_card(c), _facts(c)) for c in cards))
    texts = Markup('<details class="card-texts"><summary>{}</summary><ul class="hand1960">{}</ul></details>').format(
        _("What their events do"), Markup("").join(
            Markup('<li><b>#{}</b> <span class="card-text">{}</span></li>').format(c, _text(c)) for c in cards))
    return facts + texts


def _card_list(cards: list[Any], empty: str = "") -> Markup:
    if not cards:
        return Markup('<span class="muted">{}</span>').format(empty or _("none"))
    return Markup(" ").join(_card(c) for c in cards)


def _map(view: dict[str, Any]) -> Markup:
    states_info = _data()[0]
    states = _d(view.get("states"))
    tokens = _d(view.get("tokens"))
    tiles = []
    for abbr, (row, col) in TILES.items():
        info = states_info.get(abbr)
        seat, n = _holder(states.get(abbr))
        cls = ["st", f"r{row}", f"c{col}", f"g-{(info.region if info else 'other').lower()}"]
        status = _("empty")
        if seat:
            carried = n >= CARRY
            cls.append(f"{'carried' if carried else 'lead'}-{SHORT[seat].lower()}")
            status = (_("carried by %(seat)s with %(n)s cubes", seat=_who(seat), n=n) if carried
                      else _("led by %(seat)s with %(n)s cube", seat=_who(seat), n=n) if n == 1
                      else _("led by %(seat)s with %(n)s cubes", seat=_who(seat), n=n))
        here = [s for s in SEATS if tokens.get(s) == abbr]
        badges = Markup("").join(Markup('<span class="tok t-{}" title="{}">{}</span>').format(
            s, _("%(seat)s is here", seat=_who(s)), TOKEN[s]) for s in here)
        title = _("%(state)s: %(ev)s electoral votes, %(region)s; %(status)s", state=info.name if info else abbr,
                  ev=info.ev if info else "?", region=info.region if info else "", status=status)
        if here:
            title += "; " + _("%(seats)s here", seats=_(" and ").join(_who(s) for s in here))
        url = link_for(info.name) if info else None  # composing an order on a state: a click picks it
        code = Markup('<a class="ab pick" href="{}">{}</a>').format(url, abbr) if url else \
            Markup('<span class="ab">{}</span>').format(abbr)
        tiles.append(Markup(
            '<div class="{}" data-state="{}" data-cubes="{}" title="{}">{}'
            '<span class="ev">{}</span><span class="n">{}</span>{}</div>').format(
            " ".join(cls), abbr, f"{SHORT[seat]}{n}" if seat else "0", title, code,
            info.ev if info else "?", f"{SHORT[seat]}{n}" if seat else Markup("&nbsp;"), badges))
    extra = sorted(a for a in states if a not in TILES)
    more = Markup("")
    if extra:
        more = Markup('<p class="muted small">{}</p>').format(
            _("Also: %(states)s", states=", ".join(f"{a} {_holder(states[a])[1]}" for a in extra)))
    carried, led = _("carried (4+)"), _("led")
    legend = Markup(
        '<p class="legend1960 small"><span class="st-key carried-k">{}</span>'
        '<span class="st-key lead-k">{}</span><span class="st-key carried-n">{}</span>'
        '<span class="st-key lead-n">{}</span> · {} · <span class="tok t-kennedy">JFK</span> '
        '<span class="tok t-nixon">RMN</span> '
        '{} · {} <span class="rkey g-west">West</span><span class="rkey g-midwest">'
        'Midwest</span><span class="rkey g-east">East</span><span class="rkey g-south">South</span></p>').format(
        carried, led, carried, led, _("under each code: electoral votes, then cubes (K Kennedy, N Nixon)"),
        _("candidate tokens"), _("stripe: region"))
    tiles_html = Markup("").join(tiles)
    role = "group" if 'class="ab pick"' in tiles_html else "img"  # an image may hold no links (axe)
    return (Markup('<div class="usmap" role="{}" aria-label="{}">').format(role, _("Map of the 50 states")) + tiles_html
            + Markup("</div>") + more + legend)


def _ev_led(view: dict[str, Any], region: str) -> dict[str, int]:
    states_info = _data()[0]
    totals = {s: 0 for s in SEATS}
    for abbr, info in states_info.items():
        if info.region == region:
            seat = _holder(_d(view.get("states")).get(abbr))[0]
            if seat:
                totals[seat] += info.ev
    return totals


def _media(view: dict[str, Any]) -> Markup:
    media, endorse = _d(view.get("media")), _d(view.get("endorse"))
    boxes = []
    for region in REGIONS:
        led = _ev_led(view, region)
        boxes.append(Markup(
            '<section class="mbox g-{}" data-region="{}"><h4>{}</h4>'
            '<div class="kv"><span>{}</span>{}</div><div class="kv"><span>{}</span>{}</div>'
            '<div class="kv small muted"><span>{}</span>K {} · N {}</div></section>').format(
            region.lower(), region, region, _("Media"), _cubes(media.get(region)), _("Endorsed"),
            _cubes(endorse.get(region)), _("EV led"), led["kennedy"], led["nixon"]))
    return Markup('<div class="media1960">') + Markup("").join(boxes) + Markup("</div>")


def _track(view: dict[str, Any]) -> Markup:
    issues = _d(view.get("issues"))
    track = _l(view.get("track"))
    cells = []
    for i in range(max(3, len(track))):
        issue = track[i] if i < len(track) else None
        place = _place(i)
        if issue is None:
            cells.append(Markup('<li class="issue empty"><span class="place">{}</span><b>{}</b></li>').format(
                place, _("empty")))
        else:
            cells.append(Markup('<li class="issue" data-issue="{}"><span class="place">{}</span>'
                                '<b>{}</b>{}</li>').format(issue, place, issue, _cubes(issues.get(issue))))
    return (Markup('<section class="track1960"><h4>{}</h4><ol>').format(_("Issues")) + Markup("").join(cells)
            + Markup("</ol></section>"))


def _place(i: int) -> str:
    """1st, 2nd, 3rd, 4th... (0-based `i`) in the page's language."""
    return [_("1st"), _("2nd"), _("3rd")][i] if i < 3 else _("%(n)sth", n=i + 1)


def _sides(view: dict[str, Any], seat: str | None) -> Markup:
    counts = _d(view.get("counts"))
    hands, strategy = _d(counts.get("hand")), _d(counts.get("strategy"))
    fields = [(_("Momentum"), "momentum"), (_("Supply"), "supply"), (_("Rest"), "rest"), (_("Bag"), "bag")]
    head = Markup("").join(Markup('<th class="p-{}">{}</th>').format(s, _who(s)) for s in SEATS)
    rows = []
    for label, key in fields:
        part = _d(view.get(key))
        rows.append(Markup("<tr><th>{}</th>{}</tr>").format(label, Markup("").join(
            Markup('<td data-{}="{}">{}</td>').format(key, s, part.get(s, "?")) for s in SEATS)))
    tokens, cand, vp = _d(view.get("tokens")), _d(view.get("candidate")), _d(view.get("vp"))
    rows.append(Markup("<tr><th>{}</th>{}</tr>").format(_("Token in"), Markup("").join(
        Markup("<td>{}</td>").format(tokens.get(s, "?")) for s in SEATS)))
    rows.append(Markup("<tr><th>{}</th>{}</tr>").format(_("Candidate card"), Markup("").join(
        Markup('<td class="{}">{}</td>').format(cand.get(s, ""), cand.get(s, "?")) for s in SEATS)))
    rows.append(Markup("<tr><th>{}</th>{}</tr>").format(_("Cards in hand"), Markup("").join(
        Markup("<td>{}</td>").format(hands.get(s, "?")) for s in SEATS)))
    rows.append(Markup("<tr><th>{}</th>{}</tr>").format(_("Campaign strategy"), Markup("").join(
        Markup("<td>{}</td>").format(strategy.get(s, "?")) for s in SEATS)))
    if any(vp.get(s) for s in SEATS):
        rows.append(Markup("<tr><th>{}</th>{}</tr>").format(_("Vice-President"), Markup("").join(
            Markup("<td>{}</td>").format(_card(vp[s]) if vp.get(s) else "–") for s in SEATS)))
    return Markup('<div class="table-wrap"><table class="sides1960"><thead><tr><th></th>{}</tr></thead>'
                  '<tbody>{}</tbody></table></div>').format(head, Markup("").join(rows))


BOX_NAMES = {"turn": N_("Rest of turn"), "prevention": N_("Prevention"), "debate": N_("Debate"),
             "election_day": N_("Election Day")}


def _boxes(view: dict[str, Any]) -> Markup:
    boxes = _d(view.get("boxes"))
    effects = {(_d(e).get("card"), _d(e).get("seat")) for e in _l(view.get("effects"))}
    cells = []
    for key in ("turn", "prevention", "debate", "election_day", *sorted(k for k in boxes if k not in BOX_NAMES)):
        cards = _l(boxes.get(key))
        items = []
        for c in cards:
            binds = [s for card, s in effects if card == c and s]
            extra = Markup(' <span class="muted small">{}</span>').format(
                _("(binds %(seats)s)", seats=", ".join(_who(s) for s in binds))) if binds else ""
            items.append(Markup("<li>{}{}</li>").format(_card(c), extra))
        body = (Markup("<ul>") + Markup("").join(items) + Markup("</ul>")) if items else Markup(
            '<p class="muted">{}</p>').format(_("empty"))
        cells.append(Markup('<section class="ebox" data-box="{}"><h4>{}</h4>{}</section>').format(
            key, _(BOX_NAMES[key]) if key in BOX_NAMES else key, body))
    return Markup('<div class="boxes1960">') + Markup("").join(cells) + Markup("</div>")


def _debate(view: dict[str, Any]) -> Markup:
    debate = _d(view.get("debate"))
    if not debate:
        return Markup("")
    cards = _data()[1]
    cards_at, winners = _d(debate.get("cards")), _d(debate.get("winners"))
    won = [str(i) for i in _l(debate.get("won"))]
    rows = []
    for place, issue in enumerate(_l(debate.get("order"))):
        sides = _d(cards_at.get(issue))
        totals = {s: sum(cards[c].cp for c in _l(sides.get(s)) if isinstance(c, int) and c in cards) for s in SEATS}
        winner = winners.get(issue)
        status = Markup('<span class="tag win p-{}">{}{}</span>').format(
            winner, _("won by %(seat)s", seat=_who(winner)), f" ({won.index(issue) + 1}.)" if issue in won else "") \
            if winner else Markup('<span class="tag">{}</span>').format(_("open"))
        rows.append(Markup(
            '<tr data-issue="{}"><td class="dk">{}<div class="total">{} CP</div></td>'
            '<th><span class="place">{}</span> {}<div>{}</div></th>'
            '<td class="dn">{}<div class="total">{} CP</div></td></tr>').format(
            issue, _card_list(_l(sides.get("kennedy")), _("no card")), totals["kennedy"],
            _place(place) if place < 3 else place + 1, issue, status,
            _card_list(_l(sides.get("nixon")), _("no card")), totals["nixon"]))
    pending = _d(debate.get("pending"))
    last = _d(debate.get("last"))
    notes = []
    if last:
        notes.append(Markup("{} {}").format(_("Last revealed:"), Markup(", ").join(
            Markup("{} {}").format(_who(s), _card(c)) for s, c in sorted(last.items()))))
    if pending:
        notes.append(Markup("{} {}").format(_("Waiting for a side:"), Markup(", ").join(
            Markup("{} {}").format(_who(s), _card(c)) for s, c in sorted(pending.items()))))
    foot = Markup('<p class="small">{}</p>').format(Markup(" · ").join(notes)) if notes else Markup("")
    return Markup(
        '<section class="debate1960"><h3>{}</h3><div class="table-wrap"><table>'
        '<thead><tr><th class="p-kennedy">Kennedy</th><th>{}</th><th class="p-nixon">Nixon</th></tr></thead>'
        '<tbody>{}</tbody></table></div>{}</section>').format(_("The debates"), _("Issue"), Markup("").join(rows), foot)


@register_hand("1960")
def _own(view: dict[str, Any], seat: str | None) -> Markup:
    """Only the seat's own hand and strategy pile, from its own view; the seat page shows it beside
    the decision, so the board leaves it out."""
    if not seat:
        return Markup("")
    own = _d(_d(view.get("private")).get(seat))
    if not own:
        return Markup("")
    return Markup(
        '<section class="own1960"><div class="kv"><span>{}</span><div>{}</div></div>'
        '<div class="kv"><span>{}</span><div>{}</div></div></section>').format(
        _("Your hand"), _hand_list(_l(own.get("hand")), _("empty")), _("Your campaign strategy"),
        _hand_list(_l(own.get("strategy")), _("none")))


def _head(view: dict[str, Any]) -> Markup:
    phase = str(view.get("phase", "?"))
    text = (Markup(_("Turn %(turn)s of 9", turn=Markup("<b>{}</b>").format(view.get("turn", "?"))))
            + Markup(" · {}").format(phase))
    if phase == "activity":
        text += Markup(" · ") + Markup(_("activity phase %(ap)s of 5",
                                         ap=Markup("<b>{}</b>").format(view.get("ap", "?"))))
    if view.get("initiative"):
        text += Markup(" · {}").format(_("initiative %(seat)s", seat=_who(view["initiative"])))
    if view.get("first"):
        text += Markup(" · {}").format(_("%(seat)s plays first", seat=_who(view["first"])))
    result = _d(view.get("result"))
    out = Markup('<p class="head1960">{}</p>').format(text)
    if result:
        ev = _d(result.get("ev"))
        winner = Markup("<b>{}</b>").format(_who(result.get("winner")) if result.get("winner") else _("a tie"))
        unpledged = ", ".join(map(str, _l(result.get("unpledged"))))
        out += Markup('<p class="notice good result1960"><b>{}</b> {}{}</p>').format(
            _("Election result:"), Markup(_("Kennedy %(kennedy)s EV, Nixon %(nixon)s EV. Winner: %(winner)s.",
                                             kennedy=Markup.escape(ev.get("kennedy", "?")),
                                             nixon=Markup.escape(ev.get("nixon", "?")), winner=winner)),
            Markup(" {}").format(_("Unpledged: %(states)s.", states=unpledged)) if unpledged else "")
    return out


def _piles(view: dict[str, Any]) -> Markup:
    counts = _d(view.get("counts"))
    return Markup('<p class="small muted">{}</p>').format(_(
        "Campaign deck %(deck)s · discard pile %(discard)s · removed %(removed)s · endorsement deck %(endorsements)s",
        deck=counts.get("deck", "?"), discard=len(_l(view.get("discard"))), removed=len(_l(view.get("removed"))),
        endorsements=counts.get("endorsement_deck", "?")))


@register_board("1960")
def draw(view: dict[str, Any], seat: str | None) -> Markup:
    top = Markup('<div class="top1960">{}{}</div>').format(_track(view), _sides(view, seat))
    return (Markup('<div class="b1960">') + _head(view) + _debate(view) + _map(view) + _media(view) + top
            + Markup("<h4>{}</h4>").format(_("Events in play")) + _boxes(view) + _piles(view) + Markup("</div>"))
