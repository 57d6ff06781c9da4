"""The Founding Fathers board as server-rendered HTML: an SVG map of the states, then tables (no
script, no inline styles).

Reads only the view the page may show (schema: docs/games/founding-fathers.md) and the deck's
public card data (names, electoral votes, printed popularity). The seat's own hand, when the
view carries it (``private[seat].hand``), is the only private part drawn: by `own_hand`, which the
seat page shows beside the decision, not in the board. Every lookup tolerates a
missing key so an unexpected view degrades, never crashes.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from adjudicator.games.founding_fathers.data import DEFAULT_DECK, deck
from adjudicator.games.founding_fathers.text import card_message

from ..i18n import game_text
from . import link_for, register_board, register_hand

OFFICE_ORDER = ("president", "vice-president", "secretary-of-state", "secretary-of-the-treasury",
                "secretary-of-war", "special-envoy", "general", "chief-justice")
ERAS = ("A", "B", "C")
COLOURS = {"red", "blue", "green", "yellow", "purple", "black"}


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _chip(seat: Any) -> Markup:
    cls = f"c-{seat}" if str(seat) in COLOURS else "c-other"
    return Markup('<span class="chip {}"><span class="swatch"></span>{}</span>').format(cls, seat)


def _deck(view: dict[str, Any]):
    try:
        return deck(str(view.get("deck") or DEFAULT_DECK))
    except Exception:  # noqa: BLE001 - an unknown deck still draws, with ids for names
        return None


def _name(d: Any, cid: Any) -> str:
    if d is None or not isinstance(cid, str):
        return str(cid)
    try:
        return d.name(cid)
    except KeyError:
        return cid


def _card_text(view: dict[str, Any], cid: Any) -> str:
    try:
        return game_text(card_message(str(cid), str(view.get("deck") or DEFAULT_DECK)))
    except KeyError:
        return ""


def _office_name(d: Any, o: str) -> str:
    return str(_d(d.offices.get(o)).get("name", o)) if d is not None else o


def _tracks(view: dict[str, Any]) -> Markup:
    sup = view.get("support", 0)
    sup = sup if isinstance(sup, int) else 0
    side = _("Liberal") if sup > 0 else _("Conservative") if sup < 0 else _("even")
    rows = [
        (_("Turn"), view.get("turn", "?")), (_("Phase"), view.get("phase", "?")), (_("Era"), view.get("era", "?")),
        (_("Revenue"), view.get("revenue", "?")), (_("Reserves"), view.get("reserves", "?")),
        (_("Public support"), f"{abs(sup)} ({side})"), (_("Tension"), f"{view.get('tension', '?')} / 5"),
    ]
    cells = Markup("").join(Markup('<div class="ff-track"><span class="label">{}</span> <b>{}</b></div>')
                            .format(k, v) for k, v in rows)
    return Markup('<section class="ff-tracks">{}</section>').format(cells)


def _states(view: dict[str, Any], d: Any) -> Markup:
    era = view.get("era")
    cubes = _d(_d(view.get("election")).get("cubes"))
    statesmen = _d(view.get("statesmen"))
    head = Markup("").join(Markup('<th class="{}">{}</th>').format("ff-now" if e == era else "", _("EV %(era)s", era=e))
                           for e in ERAS)
    rows = []
    for st in _l(view.get("map")):
        info = _d(d.states.get(st)) if d is not None else {}
        ev = _d(info.get("ev"))
        evs = Markup("").join(Markup('<td class="{}">{}</td>').format("ff-now" if e == era else "", ev.get(e, "-"))
                              for e in ERAS)
        here = [_name(d, s) + f" ({_d(statesmen.get(s)).get('owner', '?')})" for s in _l(cubes.get(st))]
        rows.append(Markup("<tr><td>{}</td>{}<td>{}</td></tr>").format(
            info.get("name", st), evs, ", ".join(here) or "-"))
    return Markup('<section class="ff-map"><h3>{}</h3><div class="table-wrap">'
                  '<table class="ff-states"><thead><tr><th>{}</th>{}<th>{}</th></tr></thead>'
                  '<tbody>{}</tbody></table></div></section>').format(
                      _("The Union (%(count)s states)", count=len(rows)), _("State"), head, _("Election cubes"),
                      Markup("").join(rows))


# A tile map: each state of the deck on a grid cell placed roughly where it lies (column, row),
# west to east and north to south. A state missing here (another deck) goes on the last row.
TILES: dict[str, tuple[int, int]] = {
    "ME": (9, 0), "MN": (3, 0), "WI": (4, 0), "MI": (5, 0),
    "IA": (3, 1), "IL": (4, 1), "IN": (5, 1), "OH": (6, 1), "PA": (7, 1), "NY": (8, 1), "NE": (9, 1),
    "CA": (0, 2), "MO": (3, 2), "KY": (5, 2), "VA": (6, 2), "MD": (7, 2), "NJ": (8, 2),
    "AR": (3, 3), "TN": (4, 3), "NC": (6, 3), "DE": (8, 3),
    "TX": (2, 4), "LA": (3, 4), "MS": (4, 4), "AL": (5, 4), "GA": (6, 4),
    "FL": (6, 5),
}
TILE_W, TILE_H, GAP = 66, 58, 4
MAX_CUBES = 8  # cubes drawn on one state; more are counted in its title


def _state_map(view: dict[str, Any], d: Any) -> Markup:
    """An SVG picture of the states: admitted ones filled, the others dashed, each with its
    electoral votes in the current era and its election cubes in their owners' colours."""
    if d is None:
        return Markup("")
    era = view.get("era")
    admitted = set(_l(view.get("map")))
    cubes = _d(_d(view.get("election")).get("cubes"))
    statesmen = _d(view.get("statesmen"))
    spare = iter(range(100))
    cells = []
    for st, info in d.states.items():
        info = _d(info)
        col, row = TILES.get(st) or (next(spare), 6)
        x, y = col * (TILE_W + GAP), row * (TILE_H + GAP)
        ev = _d(info.get("ev")).get(era, "?")
        owners = [str(_d(statesmen.get(s)).get("owner", "?")) for s in _l(cubes.get(st))]
        name = str(info.get("name", st))
        title = _("%(state)s: %(ev)s electoral votes in era %(era)s", state=name, ev=ev, era=era) + (
            "" if st in admitted else _(", not yet admitted"))
        if owners:
            title += _("; election cubes: %(owners)s", owners=", ".join(owners))
        dots = Markup("").join(
            Markup('<circle class="cube {}" cx="{}" cy="{}" r="4"/>').format(
                f"c-{o}" if o in COLOURS else "c-other", x + 9 + 10 * (i % 6),
                y + 44 + 9 * (i // 6) - (9 if len(owners) > 6 else 0))
            for i, o in enumerate(owners[:MAX_CUBES]))
        cell = Markup(
            '<g class="state {}"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="5"/>'
            '<text class="ab" x="{}" y="{}">{}</text><text class="ev" x="{}" y="{}">{}</text>{}</g>').format(
                "admitted" if st in admitted else "future", title, x, y, TILE_W, TILE_H,
                x + 6, y + 17, st, x + 6, y + 32, _("%(ev)s EV", ev=ev), dots)
        url = link_for(st)  # composing an order on a state (an election cube): a click keeps its orders
        cells.append(Markup('<a class="pick" href="{}">{}</a>').format(url, cell) if url else cell)
    rows = 1 + max((TILES.get(st) or (0, 6))[1] for st in d.states)
    width, height = 10 * (TILE_W + GAP) + 6, rows * (TILE_H + GAP) + 6  # a margin for the outlines
    role = "group" if any('class="pick"' in c for c in cells) else "img"  # an image may hold no links (axe)
    label = _("Map of the states: %(admitted)s of %(all)s admitted, electoral votes of era %(era)s",
              admitted=len(admitted & set(d.states)), all=len(d.states), era=era)
    caption = _("Filled: admitted states; dashed: not yet admitted. Dots are election cubes in their owners' colours.")
    return Markup('<figure class="ffmap"><svg viewBox="-3 -3 {} {}" role="{}" aria-label="{}">{}</svg>'
                  '<figcaption>{}</figcaption></figure>').format(width, height, role, label, Markup("").join(cells),
                                                                 caption)


def _offices(view: dict[str, Any], d: Any) -> Markup:
    offices = _d(view.get("offices"))
    statesmen = _d(view.get("statesmen"))
    rows = []
    for o in [*OFFICE_ORDER, *sorted(k for k in offices if k not in OFFICE_ORDER)]:
        if o not in offices:
            continue
        h = offices[o]
        oname = _office_name(d, o)
        who = Markup("{} {}").format(_name(d, h), _chip(_d(statesmen.get(h)).get("owner", "?"))) if h \
            else Markup('<span class="muted">{}</span>').format(_("vacant"))
        rows.append(Markup("<tr><td>{}</td><td>{}</td></tr>").format(oname, who))
    return Markup('<section class="ff-offices"><h3>{}</h3><table><tbody>{}</tbody></table></section>'
                  ).format(_("Offices"), Markup("").join(rows))


def _factions(view: dict[str, Any], d: Any, seat: str | None) -> Markup:
    statesmen = _d(view.get("statesmen"))
    factions = _d(view.get("factions"))
    offices = {h: o for o, h in _d(view.get("offices")).items() if h}
    blocks = []
    for s in _l(view.get("seats")):
        f = _d(factions.get(s))
        rows = []
        for sid, info in statesmen.items():
            info = _d(info)
            if info.get("owner") != s:
                continue
            card = _d(d.statesmen.get(sid)) if d is not None else {}
            pop = card.get("popularity", 0) + info.get("bonus", 0) + info.get("cubes", 0) if card else info.get("cubes")
            lead = " " + _("(faction leader)") if f.get("leader") == sid else ""
            rows.append(Markup("<tr><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>").format(
                _name(d, sid), lead, card.get("party", "?"), pop, info.get("influence", 0),
                card.get("ability", "?"), _office_name(d, offices[sid]) if sid in offices else "-"))
        blocks.append(Markup(
            '<section class="ff-faction"><h3>{} <small>{}{}</small></h3>'
            '<table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th>'
            '<th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table></section>').format(
                _chip(s), _("VP %(vp)s · influence %(influence)s · cards %(cards)s", vp=f.get("vp", 0),
                            influence=f.get("influence", 0), cards=f.get("hand", 0)),
                " · " + _("black cubes %(n)s", n=f["black"]) if f.get("black") else "", _("Statesman"), _("Party"),
                _("Popularity"), _("Influence"), _("Ability"), _("Office"), Markup("").join(rows)))
    return Markup('<div class="ff-factions">{}</div>').format(Markup("").join(blocks))


@register_hand("founding-fathers", every_decision=True)
def own_hand(view: dict[str, Any], seat: str | None) -> Markup:
    """The seat's own hand, only from its own view (other hands are never in it): each card's name
    and its numbers (a statesman's ability, popularity and votes; an action's moment and effect),
    with the faction's influence that buys votes and pays costs. The seat page shows it beside the
    decision, so the board leaves it out."""
    if not seat:
        return Markup("")
    own = _d(_d(view.get("private")).get(seat)).get("hand")
    if not isinstance(own, list):
        return Markup("")
    d = _deck(view)
    f = _d(_d(view.get("factions")).get(seat))
    cards = Markup('<ul class="ff-hand-cards">{}</ul>').format(Markup("").join(
        Markup('<li><b>{}</b> <span class="card-text">{}</span></li>').format(_name(d, c), _card_text(view, c))
        for c in own)) if own else Markup('<span class="muted">{}</span>').format(_("empty"))
    return Markup('<section class="ff-hand"><p><b>{}</b> <span class="small">{}</span></p>{}</section>').format(
        _("Your hand"),
        _("your influence %(influence)s · VP %(vp)s", influence=f.get("influence", 0), vp=f.get("vp", 0)), cards)


def _issues(view: dict[str, Any], d: Any) -> Markup:
    iss = _d(view.get("issues"))
    cur = _d(iss.get("current"))
    parts = []
    if cur.get("card"):
        parts.append(Markup('<p>{} <b>{}</b>{}</p><p class="card-text">{}</p>').format(
            _("In play:"), _name(d, cur["card"]),
            " " + _("(option %(option)s)", option=cur["option"]) if cur.get("option") else "",
            _card_text(view, cur["card"])))
    else:
        parts.append(Markup('<p class="muted">{}</p>').format(_("No issue in play.")))
    parts.append(Markup("<p>{}</p>").format(_("Issues drawn this term: %(drawn)s · "
                                              "left in the era %(era)s deck: %(left)s",
                                              drawn=iss.get("drawn", 0), era=iss.get("era", "?"),
                                              left=iss.get("left", "?"))))
    resolved = [_name(d, c) for c in _l(iss.get("resolved"))]
    parts.append(Markup("<p>{}</p>").format(_("Resolved: %(issues)s", issues=", ".join(resolved) or _("none"))))
    taxes = _d(view.get("taxes"))
    active = [_name(d, t) for t in _l(taxes.get("active"))]
    parts.append(Markup("<p>{}</p>").format(_("Taxes in force: %(taxes)s · tariff level %(level)s",
                                              taxes=", ".join(active) or _("none"), level=taxes.get("tariff", 0))))
    return Markup('<section class="ff-issues"><h3>{}</h3>{}</section>').format(_("Issues"), Markup("").join(parts))


def _stand_in_notice(d: Any) -> Markup:
    """Say plainly how much of this game's deck is stand-in, from the deck's own provenance data
    (an installed deck with the printed values says so instead)."""
    tables = ("statesmen", "states", "offices", "taxes", "issues", "actions")
    cards = [c for t in tables for c in d.data.get(t, [])]
    touched = [c for c in cards if c.get("stand_in") or c.get("provenance") == "stand-in"]
    if not touched:
        return Markup('<p class="ff-notice">{}</p>').format(Markup(_(
            "Deck %(deck)s: every card value is taken from the printed cards or play reports.",
            deck=Markup("<b>{}</b>").format(d.id))))
    values = sum(len(c.get("stand_in") or []) for c in cards)
    return Markup('<p class="ff-notice">{}</p>').format(Markup(_(
        "Stand-in values: %(values)s values on %(touched)s of %(cards)s cards of deck %(deck)s (abilities, popularity, "
        "votes, difficulties, electoral votes of later eras) are stand-ins, not the printed cards. See the game page "
        "for the list.", values=values, touched=len(touched), cards=len(cards), deck=Markup("<b>{}</b>").format(d.id))))


@register_board("founding-fathers")
def draw(view: dict[str, Any], seat: str | None) -> Markup:
    d = _deck(view)
    notice = _stand_in_notice(d)
    result = _d(view.get("result"))
    over = Markup("")
    if result:
        over = Markup('<p class="ff-over">{}</p>').format(_("Game over (%(reason)s): %(scores)s",
            reason=result.get("reason", "?"),
            scores=", ".join(f"{s} {n}" for s, n in _d(result.get("scores")).items())))
    return (Markup('<div class="ff">') + notice + over + _tracks(view) + _state_map(view, d) + _issues(view, d)
            + _offices(view, d) + _states(view, d) + _factions(view, d, seat) + Markup("</div>"))
