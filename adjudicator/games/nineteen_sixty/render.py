"""Markdown for log events and views (the e-mail and text board)."""

from __future__ import annotations

from typing import Any

from .data import CARDS, ISSUES, REGIONS, SEATS, STATES


def _card(card: Any) -> str:
    return f"#{card} {CARDS[card].name}" if isinstance(card, int) and card in CARDS else str(card)


def _who(seat: Any) -> str:
    return str(seat).capitalize() if seat else "nobody"


def render_event(ev: dict[str, Any]) -> str:  # noqa: C901 - one line per kind
    k, d = ev["kind"], ev["data"]
    if k == "turn":
        return f"**Turn {d['turn']}**"
    if k == "initiative":
        return f"Initiative check ({', '.join(d['drawn'])}): {_who(d['winner'])} wins."
    if k == "first":
        return f"{_who(d['seat'])} chooses {_who(d['first'])} to play first."
    if k == "play":
        use = "for CP" if d["use"] == "cp" else "as an event"
        extra = " and preempts its event" if d.get("preempt") else ""
        return f"{_who(d['seat'])} plays {_card(d['card'])} {use}{extra}."
    if k == "event":
        return f"Event {_card(d['card'])} resolved by {_who(d['seat'])}."
    if k == "check":
        result = "success" if d["ok"] else "failure"
        return f"{_who(d['seat'])} support check at {d['at']}: drew {d['drawn'] or 'nothing'} ({result})."
    if k == "cube":
        return f"{_who(d['seat'])} {d['did']} a cube ({d['what']} {d['at']})."
    if k == "lose":
        return f"{_who(d['seat'])} loses {d['n']} cube(s) ({d['what']} {d['at']})."
    if k == "trigger":
        return f"{_who(d['seat'])} {'triggers' if d['yes'] else 'does not trigger'} {_card(d['card'])}."
    if k == "tally":
        return f"**Final tally**: Kennedy {d['ev']['kennedy']}, Nixon {d['ev']['nixon']}; winner {_who(d['winner'])}."
    if k == "revealed":
        return f"Turned up from the campaign deck: {_card(d['card'])}."
    if k == "drew_cards":
        return f"You drew {', '.join(_card(c) for c in d['cards'])}."
    parts = ", ".join(f"{key} {value}" for key, value in sorted(d.items()))
    return f"{k.replace('_', ' ')}: {parts}"


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
        lines.append("Your hand: " + (", ".join(_card(c) for c in mine["hand"]) or "empty"))
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
