"""Markdown for events and views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.engine import N_, Message, message, message_text

from .data import APPOINTED, DEFAULT_DECK, deck
from .grammar import format_order
from .log import card_or_id_name, event_message
from .text import card_message

State = dict[str, Any]


def order_label(order: dict[str, Any]) -> str:
    """The order's text with the names of the cards, statesmen, offices and taxes it names."""
    text = format_order(order)
    named = " ".join(card_or_id_name(w) for w in text.split())
    return f"{text} — {named}" if named != text else text


def render_event(ev: dict[str, Any]) -> str:
    return message_text(event_message(ev))


def render_view(view: State, seat: str | None, translate: Callable[[Message], str] = message_text) -> str:
    """The text board; `translate` gives each of its words in the reader's language (the service
    passes it, see GameModule.render_view_in; English by default)."""
    t = translate
    d = deck(view.get("deck", DEFAULT_DECK))
    lines = [t(message(N_("## Founding Fathers — turn %(turn)s, %(phase)s, era %(era)s"), turn=view["turn"],
                       phase=view["phase"], era=view["era"])), ""]
    sup = view["support"]
    lines.append(t(message(N_("Revenue %(revenue)s · Reserves %(reserves)s · Public support %(support)s %(side)s · "
                              "Tension %(tension)s/5"), revenue=view["revenue"], reserves=view["reserves"],
                           support=abs(sup), side="L" if sup > 0 else "C" if sup < 0 else "", tension=view["tension"])))
    lines.append(t(message(N_("Map: %(states)s"), states=", ".join(view["map"]))))
    lines.append("")
    lines.append(t(message(N_("| Office | Statesman |"))))
    lines.append("|---|---|")
    for o in ("president", "vice-president", *APPOINTED):
        h = view["offices"][o]
        lines.append(f"| {d.offices[o]['name']} | {d.statesmen[h]['name'] if h else '—'} |")
    lines.append("")
    lines.append(t(message(N_("| Seat | VP | Influence | Hand | Statesmen (popularity, influence) |"))))
    lines.append("|---|---|---|---|---|")
    for s in view["seats"]:
        f = view["factions"][s]
        mine = [f"{d.statesmen[x]['name']} ({d.statesmen[x]['popularity'] + v['bonus'] + v['cubes']}, {v['influence']})"
                for x, v in view["statesmen"].items() if v["owner"] == s]
        lines.append(f"| {s} | {f['vp']} | {f['influence']} | {f['hand']} | {'; '.join(mine)} |")
    if view["issues"]["resolved"]:
        lines.append("")
        lines.append(t(message(N_("Resolved issues: %(issues)s"),
                               issues=", ".join(d.name(c) for c in view["issues"]["resolved"]))))
    if seat and seat in view.get("private", {}):
        lines.append("")
        hand = view["private"][seat]["hand"]
        cards = "".join(f"\n- {d.name(c)}: {t(card_message(c, view.get('deck', DEFAULT_DECK)))}" for c in hand)
        lines.append(t(message(N_("Your hand:"))) + (cards or " " + t(message(N_("empty")))))
    if view.get("result"):
        r = view["result"]
        lines.append("")
        lines.append(t(message(N_("**Game over** (%(reason)s): %(scores)s"), reason=r["reason"],
                               scores=", ".join(f"{s} {n}" for s, n in r["scores"].items()))))
    return "\n".join(lines)
