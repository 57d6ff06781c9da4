"""Markdown for events and views."""

from __future__ import annotations

from typing import Any

from .data import APPOINTED, DEFAULT_DECK, deck

State = dict[str, Any]


def _name(cid: Any, deck_id: str = DEFAULT_DECK) -> str:
    if not isinstance(cid, str):
        return str(cid)
    try:
        return deck(deck_id).name(cid)
    except KeyError:
        return cid


TEMPLATES = {
    "issue-drawn": "The President draws **{issue}**.",
    "issue-outcome": "**{issue}**: {outcome}.",
    "appointed": "{statesman} is appointed {office}.",
    "died": "{statesman} dies ({seat} scores {vp} VP).",
    "retired": "{statesman} retires ({seat} scores {vp} VP).",
    "state-admitted": "{state} joins the Union.",
    "election-result": "Election: {president} is President, {vice_president} Vice-President.",
    "treasury": "Treasury: revenue {revenue}, interest {interest}, reserves now {reserves}.",
    "game-over": "The game ends ({reason}). Winners: {winners}.",
}


def render_event(ev: dict[str, Any]) -> str:
    data = ev.get("data", {})
    names = {k: (_name(v) if isinstance(v, str) else ", ".join(map(str, v)) if isinstance(v, list) else v)
             for k, v in data.items()}
    tpl = TEMPLATES.get(ev["kind"])
    if tpl:
        try:
            return tpl.format(**names)
        except (KeyError, IndexError):
            pass
    details = ", ".join(f"{k} {v}" for k, v in names.items())
    return f"{ev['kind'].replace('-', ' ')}" + (f": {details}" if details else "")


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
        lines.append("Your hand: " + (", ".join(d.name(c) for c in view["private"][seat]["hand"]) or "empty"))
    if view.get("result"):
        r = view["result"]
        lines.append("")
        lines.append(f"**Game over** ({r['reason']}): " + ", ".join(f"{s} {n}" for s, n in r["scores"].items()))
    return "\n".join(lines)
