"""Markdown for log events and for the text board."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event

from .data import ADVISORS, AREA_NAMES, AREAS, PALACE_COSTS, QUARANTIA

State = dict[str, Any]


def name(area: str | None) -> str:
    return AREA_NAMES.get(area or "", str(area))


def advisor_name(advisor: str) -> str:
    if advisor.startswith("adv-quarantia-"):
        return f"Quarantia advisor {advisor.rsplit('-', 1)[1]}"
    return f"the {name(advisor[4:])} advisor"


def seats_text(seats: list[str]) -> str:
    return ", ".join(f"**{s}**" for s in seats) if seats else "nobody"


def _election(d: dict[str, Any]) -> str:
    parts = []
    for seat, total in d["totals"].items():
        markers = d["markers"].get(seat, [])
        extra = d["advisors"].get(seat, 0)
        detail = "+".join(str(v) for v in markers) or "no markers"
        if extra:
            detail += f", {extra} advisor vote(s)"
        parts.append(f"{seat} {total} ({detail})")
    line = f"Election {d['number']} of year {d['year']}, {name(d['area'])}: " + ("; ".join(parts) or "no votes")
    winners, runners = d["winners"], d["runners_up"]
    if not winners:
        return line + ". Nobody wins."
    if len(winners) > 1:
        return line + f". Tie for first: {seats_text(winners)}."
    line += f". Winner {seats_text(winners)}"
    if len(runners) > 1:
        return line + f"; tie for second: {seats_text(runners)}."
    return line + (f"; runner-up {seats_text(runners)}." if runners else "; no runner-up.")


def render_event(ev: Event) -> str:
    kind, d = ev["kind"], ev.get("data", {})
    if kind == "game-started":
        return f"Doge begins with {seats_text(d['seats'])}: {d['rounds']} placement rounds per year."
    if kind == "year-started":
        return f"**Year {d['year']}** begins. Voting order: " + ", ".join(name(a) for a in d["order"]) + "."
    if kind == "voting-reshuffled":
        return "The voting-order cards used last year are shuffled face down."
    if kind == "markers-placed":
        values = " ".join(str(v) for v in d["markers"])
        return f"(private) You put markers {values} on {name(d['area'])}."
    if kind == "cards-revealed":
        plays = "; ".join(f"{s}: {name(p['card'])} ({p['count']} marker(s))" for s, p in d["plays"].items())
        return f"Year {d['year']}, round {d['round']} cards revealed - {plays}."
    if kind == "placement-ended":
        return f"Ballot placement for year {d['year']} is over; the elections begin."
    if kind == "election":
        return _election(d)
    if kind == "advisor-taken":
        took = f"**{d['seat']}** takes {advisor_name(d['advisor'])} and stands it in {name(d['area'])}"
        return took + (f" (ring returned to {d['previous']})." if d["previous"] not in (None, d["seat"]) else ".")
    if kind == "advisor-neutral":
        why = f"**{d['seat']}** abstains" if d["reason"] == "abstain" else "A tie for first"
        back = f"; {d['previous']}'s ring returns" if d["previous"] else ""
        return f"{why}: {advisor_name(d['advisor'])} becomes neutral{back}."
    if kind == "quarantia-neutralised":
        owners = sorted({o for o in d["previous"].values() if o})
        back = f" (rings return to {', '.join(owners)})" if owners else ""
        return f"The three Quarantia advisors become neutral{back}."
    if kind == "quarantia-abstained":
        return f"**{d['seat']}** abstains from a Quarantia advisor."
    if kind == "house-moved":
        return f"**{d['seat']}** moves a house from {name(d['source'])} to {name(d['target'])}."
    if kind == "move-passed":
        return f"**{d['seat']}** moves no (further) house."
    if kind == "houses-declined":
        return f"**{d['seat']}** declines to place {d['count']} house(s) in {name(d['area'])}."
    if kind == "houses-placed":
        lost = f" ({d['lost']} lost: no houses left)" if d["lost"] else ""
        return f"**{d['seat']}** places {d['count']} house(s) in {name(d['area'])}{lost}."
    if kind == "palace-built":
        return (
            f"**{d['seat']}** builds a palace in {name(d['area'])} on space {d['space']} "
            f"for {d['cost']} houses."
        )
    if kind == "palace-declined":
        return f"**{d['seat']}** does not build in {name(d['area'])}."
    if kind == "palace-no-space":
        return f"**{d['seat']}** cannot build in {name(d['area'])}: no palace space is left."
    if kind == "voting-card-turned":
        return f"{name(d['done'])} has voted; the next voting-order card turned up is {name(d['turned'])}."
    if kind == "year-ended":
        return f"Year {d['year']} is over."
    if kind == "game-ended":
        reasons = {
            "doge": "a player met a Doge condition",
            "no-palace-possible": "no palace can be built any more (adjudicator safety end)",
            "year-limit": "the year limit was reached (adjudicator safety end)",
        }
        return f"**Game over** after year {d['year']}: {reasons[d['reason']]}. Winner(s): {seats_text(d['winners'])}."
    return f"({kind})"


def _owner(view: State, advisor: str) -> str:
    owner = view["advisors"][advisor]["owner"]
    return owner or "neutral"


def render_view(view: State, seat: str | None) -> str:
    seats = view["seats"]
    lines = [f"## Doge - year {view['year']}", ""]
    voting = view["voting"]
    done = ", ".join(name(a) for a in voting["used"]) or "-"
    lines.append(f"**Voting order** - still to vote this year: {', '.join(name(a) for a in voting['current']) or '-'}")
    lines.append(f"- already voted: {done}; turned up for next year: {', '.join(name(a) for a in voting['next']) or '-'}")
    if view.get("election"):
        e = view["election"]
        lines.append(f"- now: election {e['number']} in {name(e['area'])}")
    lines += ["", "| Area | Palaces (space: owner) | Houses | Advisors here | Face-down markers |",
              "| --- | --- | --- | --- | --- |"]
    for area in AREAS:
        if area == QUARANTIA:
            palaces, houses = "-", "-"
        else:
            built = view["districts"][area]["palaces"]
            palaces = ", ".join(
                f"{cost}: {built[i] if i < len(built) else 'free'}" for i, cost in enumerate(PALACE_COSTS)
            )
            houses = ", ".join(f"{s} {n}" for s, n in view["districts"][area]["houses"].items()) or "-"
        here = [f"{advisor_name(a)} ({_owner(view, a)})" for a in ADVISORS if view["advisors"][a]["at"] == area]
        ballots = ", ".join(f"{s} x{n}" for s, n in view["ballots"][area].items()) or "-"
        lines.append(f"| {name(area)} | {palaces} | {houses} | {'; '.join(here) or '-'} | {ballots} |")
    neutral = [advisor_name(a) for a in ADVISORS if view["advisors"][a]["at"] is None]
    lines += ["", f"**Neutral advisors:** {', '.join(neutral) or 'none'}", ""]
    lines += ["| Player | Houses in supply | Palaces in supply | Rings free | Markers left | Cards used |",
              "| --- | --- | --- | --- | --- | --- |"]
    for s in seats:
        sup = view["supply"][s]
        used = ", ".join(name(a) for a in view["cards_used"][s]) or "-"
        lines.append(f"| {s} | {sup['houses']} | {sup['palaces']} | {sup['rings']} | {sup['markers']} | {used} |")
    private = view.get("private", {}).get(seat) if seat else None
    if private is not None:
        mine = " ".join(str(v) for v in private["markers"]) or "none"
        placed = "; ".join(
            f"{name(a)}: {' '.join(str(v) for v in vs)}" for a, vs in private["ballots"].items()
        ) or "none"
        lines += ["", f"**Your markers ({seat})** - in supply: {mine}; face down on the board: {placed}"]
    if view.get("result"):
        r = view["result"]
        lines += ["", f"**Game over** - winner(s): {seats_text(r['winners'])}; palaces: "
                  + ", ".join(f"{s} {n}" for s, n in r["palaces"].items())]
    return "\n".join(lines) + "\n"
