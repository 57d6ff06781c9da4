"""Markdown for log events and views (the e-mail and text board)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import message_text

from .data import CARDS, ISSUES, REGIONS, SEATS, STATES
from .grammar import format_order
from .log import event_message
from .text import event_text


def _card(card: Any) -> str:
    if card == "candidate":
        return "the candidate card"
    return f"#{card} {CARDS[card].name}" if isinstance(card, int) and card in CARDS else str(card)


def _who(seat: Any) -> str:
    return str(seat).capitalize() if seat else "nobody"


CARD_KEYS = ("play", "discard", "debate", "take", "resolve")


def order_label(order: dict[str, Any]) -> str:
    """The order's text with the cards it names, for choices: "play 20 cp — #20 Nixon Egged… (2 CP)"."""
    text = format_order(order)
    cards = [order[k] for k in CARD_KEYS if isinstance(order.get(k), int) and not isinstance(order.get(k), bool)]
    cards += [c for c in order.get("strategy", []) if isinstance(c, int)]
    named = [f"{_card(c)} ({CARDS[c].cp} CP)" for c in cards if c in CARDS]
    return f"{text} — {', '.join(named)}" if named else text


def render_event(ev: dict[str, Any]) -> str:
    return message_text(event_message(ev))


def _spot(spot: dict[str, int]) -> str:
    for seat in SEATS:
        if spot[seat]:
            return f"{seat[0].upper()}{spot[seat]}"
    return "-"


def render_view(view: dict[str, Any], seat: str | None) -> str:
    lines = [f"## 1960 — turn {view['turn']}, {view['phase']}"
             + (f", activity phase {view['ap']}" if view["phase"] == "activity" else "")]
    lines.append("Momentum: " + ", ".join(f"{_who(s)} {view['momentum'][s]}" for s in SEATS)
                 + " · Bag: " + ", ".join(f"{_who(s)} {view['bag'][s]}" for s in SEATS)
                 + " · Rest: " + ", ".join(f"{_who(s)} {view['rest'][s]}" for s in SEATS))
    lines.append("Tokens: " + ", ".join(f"{_who(s)} in {view['tokens'][s]}" for s in SEATS)
                 + " · Candidate cards: " + ", ".join(f"{_who(s)} {view['candidate'][s]}" for s in SEATS))
    vps = {s: c for s, c in (view.get("vp") or {}).items() if c}
    if vps:
        lines.append("Vice-President cards set aside: " + ", ".join(f"{_who(s)} {_card(c)}" for s, c in vps.items()))
    track = [i for i in view["track"] if i]
    lines.append("Issues (1st first): " + ", ".join(f"{i} {_spot(view['issues'][i])}" for i in track or ISSUES))
    lines.append("Media: " + ", ".join(f"{r} {_spot(view['media'][r])}" for r in REGIONS)
                 + " · Endorsements: " + ", ".join(f"{r} {_spot(view['endorse'][r])}" for r in REGIONS))
    for region in REGIONS:
        cells = []
        for abbr, info in sorted(STATES.items()):
            if info.region == region:
                spot = view["states"][abbr]
                mark = _spot(spot)
                if max(spot.values()) >= 4:
                    mark += "*"  # carried
                cells.append(f"{abbr}({info.ev}) {mark}")
        lines.append(f"- **{region}**: " + " · ".join(cells))
    boxes = {k: v for k, v in view["boxes"].items() if v}
    if boxes:
        lines.append("Persistent: " + "; ".join(f"{k}: {', '.join(_card(c) for c in v)}" for k, v in boxes.items()))
    counts = view.get("counts")
    if counts:
        lines.append(f"Deck {counts['deck']} · hands " + ", ".join(f"{_who(s)} {counts['hand'][s]}" for s in SEATS))
    if seat and seat in view.get("private", {}):
        mine = view["private"][seat]
        lines.append("Your hand:" + ("".join(f"\n- {_card(c)} ({CARDS[c].cp} CP): {event_text(c)}" for c in mine["hand"]
                                             if c in CARDS) or " empty"))
        if mine["strategy"]:
            lines.append("Your campaign strategy: " + ", ".join(_card(c) for c in mine["strategy"]))
    if view.get("debate"):
        d = view["debate"]
        for issue in d["order"]:
            sides = d["cards"][issue]
            won = d["winners"].get(issue)
            lines.append(f"Debate {issue}: Kennedy {sides['kennedy']} · Nixon {sides['nixon']}"
                         + (f" — won by {_who(won)}" if won else ""))
    if view.get("result"):
        r = view["result"]
        lines.append(f"**Result**: Kennedy {r['ev']['kennedy']} EV, Nixon {r['ev']['nixon']} EV; winner {_who(r['winner'])}.")
    return "\n".join(lines)
