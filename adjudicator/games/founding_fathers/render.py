"""Markdown for events and views."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import message_text

from .data import APPOINTED, DEFAULT_DECK, deck
from .grammar import format_order
from .log import event_message
from .text import card_text

State = dict[str, Any]


def _name(cid: Any, deck_id: str = DEFAULT_DECK) -> str:
    if not isinstance(cid, str):
        return str(cid)
    try:
        return deck(deck_id).name(cid)
    except KeyError:
        return cid


def order_label(order: dict[str, Any]) -> str:
    """The order's text with the names of the cards, statesmen, offices and taxes it names."""
    text = format_order(order)
    named = " ".join(_name(w) for w in text.split())
    return f"{text} — {named}" if named != text else text


def render_event(ev: dict[str, Any]) -> str:
    return message_text(event_message(ev))


def render_view(view: State, seat: str | None) -> str:
    d = deck(view.get("deck", DEFAULT_DECK))
    lines = [f"## Founding Fathers — turn {view['turn']}, {view['phase']}, era {view['era']}", ""]
    sup = view["support"]
    lines.append(f"Revenue {view['revenue']} · Reserves {view['reserves']} · Public support "
                 f"{abs(sup)} {'L' if sup > 0 else 'C' if sup < 0 else ''} · Tension {view['tension']}/5")
    lines.append("Map: " + ", ".join(view["map"]))
    lines.append("")
    lines.append("| Office | Statesman |")
    lines.append("|---|---|")
    for o in ("president", "vice-president", *APPOINTED):
        h = view["offices"][o]
        lines.append(f"| {d.offices[o]['name']} | {d.statesmen[h]['name'] if h else '—'} |")
    lines.append("")
    lines.append("| Seat | VP | Influence | Hand | Statesmen (popularity, influence) |")
    lines.append("|---|---|---|---|---|")
    for s in view["seats"]:
        f = view["factions"][s]
        mine = [f"{d.statesmen[x]['name']} ({d.statesmen[x]['popularity'] + v['bonus'] + v['cubes']}, {v['influence']})"
                for x, v in view["statesmen"].items() if v["owner"] == s]
        lines.append(f"| {s} | {f['vp']} | {f['influence']} | {f['hand']} | {'; '.join(mine)} |")
    if view["issues"]["resolved"]:
        lines.append("")
        lines.append("Resolved issues: " + ", ".join(d.name(c) for c in view["issues"]["resolved"]))
    if seat and seat in view.get("private", {}):
        lines.append("")
        hand = view["private"][seat]["hand"]
        lines.append("Your hand:" + ("".join(f"\n- {d.name(c)}: {card_text(c, view.get('deck', DEFAULT_DECK))}"
                                             for c in hand) or " empty"))
    if view.get("result"):
        r = view["result"]
        lines.append("")
        lines.append(f"**Game over** ({r['reason']}): " + ", ".join(f"{s} {n}" for s, n in r["scores"].items()))
    return "\n".join(lines)
