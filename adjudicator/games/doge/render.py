"""Markdown for log events and for the text board."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.engine import N_, Event, Message, message, message_text

from .data import ADVISORS, AREA_NAMES, AREAS, PALACE_COSTS, QUARANTIA

State = dict[str, Any]


def name(area: str | None) -> str:
    return AREA_NAMES.get(area or "", str(area))


def advisor_name(advisor: str) -> str:
    return message_text(advisor_message(advisor))


def advisor_message(advisor: str) -> Message:
    if advisor.startswith("adv-quarantia-"):
        return message(N_("Quarantia advisor %(number)s"), number=advisor.rsplit("-", 1)[1])
    return message(N_("the %(area)s advisor"), area=name(advisor[4:]))


def seats_text(seats: list[str]) -> str:
    return message_text(_seats(seats))


def _seats(seats: list[str]) -> Message:
    if not seats:
        return message(N_("nobody"))
    return message("%(seats)s", seats=", ".join(f"**{s}**" for s in seats))


def _election(d: dict[str, Any]) -> Message:
    parts: list[Message] = []
    for seat, total in d["totals"].items():
        markers = "+".join(str(v) for v in d["markers"].get(seat, []))
        extra = d["advisors"].get(seat, 0)
        if markers and extra:
            parts.append(message(N_("%(seat)s %(total)s (%(markers)s, %(extra)s advisor vote(s))"), seat=seat,
                                 total=total, markers=markers, extra=extra))
        elif markers:
            parts.append(message("%(seat)s %(total)s (%(markers)s)", seat=seat, total=total, markers=markers))
        elif extra:
            parts.append(message(N_("%(seat)s %(total)s (no markers, %(extra)s advisor vote(s))"), seat=seat,
                                 total=total, extra=extra))
        else:
            parts.append(message(N_("%(seat)s %(total)s (no markers)"), seat=seat, total=total))
    votes: Message = _joined(parts, "; ") if parts else message(N_("no votes"))
    head = message(N_("Election %(number)s of year %(year)s, %(area)s: %(votes)s"), number=d["number"],
                   year=d["year"], area=name(d["area"]), votes=votes)
    winners, runners = d["winners"], d["runners_up"]
    if not winners:
        return message(N_("%(election)s. Nobody wins."), election=head)
    if len(winners) > 1:
        return message(N_("%(election)s. Tie for first: %(seats)s."), election=head, seats=_seats(winners))
    if len(runners) > 1:
        return message(N_("%(election)s. Winner %(winner)s; tie for second: %(seats)s."), election=head,
                       winner=_seats(winners), seats=_seats(runners))
    if runners:
        return message(N_("%(election)s. Winner %(winner)s; runner-up %(runner)s."), election=head,
                       winner=_seats(winners), runner=_seats(runners))
    return message(N_("%(election)s. Winner %(winner)s; no runner-up."), election=head, winner=_seats(winners))


def _joined(parts: list[Message], separator: str) -> Message:
    """Messages joined by a separator, each translated on its own."""
    names = {f"p{i}": part for i, part in enumerate(parts)}
    return message(separator.join(f"%({key})s" for key in names), **names)


def render_event(ev: Event) -> str:
    return message_text(event_message(ev))


def event_message(ev: Event) -> Message:
    """One log line as a msgid and values (the reader's language, issue 12); `render_event` is its English."""
    kind, d = ev["kind"], ev.get("data", {})
    if kind == "game-started":
        return message(N_("Doge begins with %(seats)s: %(rounds)s placement rounds per year."),
                       seats=_seats(d["seats"]), rounds=d["rounds"])
    if kind == "year-started":
        return message(N_("**Year %(year)s** begins. Voting order: %(order)s."), year=d["year"],
                       order=", ".join(name(a) for a in d["order"]))
    if kind == "voting-reshuffled":
        return message(N_("The voting-order cards used last year are shuffled face down."))
    if kind == "markers-placed":
        return message(N_("(private) You put markers %(values)s on %(area)s."),
                       values=" ".join(str(v) for v in d["markers"]), area=name(d["area"]))
    if kind == "cards-revealed":
        plays = [message(N_("%(seat)s: %(card)s (%(count)s marker(s))"), seat=s, card=name(p["card"]), count=p["count"])
                 for s, p in d["plays"].items()]
        return message(N_("Year %(year)s, round %(round)s cards revealed - %(plays)s."), year=d["year"],
                       round=d["round"], plays=_joined(plays, "; "))
    if kind == "placement-ended":
        return message(N_("Ballot placement for year %(year)s is over; the elections begin."), year=d["year"])
    if kind == "election":
        return _election(d)
    if kind == "advisor-taken":
        if d["previous"] not in (None, d["seat"]):
            return message(N_("**%(seat)s** takes %(advisor)s and stands it in %(area)s "
                              "(ring returned to %(previous)s)."),
                           seat=d["seat"], advisor=advisor_message(d["advisor"]), area=name(d["area"]),
                           previous=d["previous"])
        return message(N_("**%(seat)s** takes %(advisor)s and stands it in %(area)s."), seat=d["seat"],
                       advisor=advisor_message(d["advisor"]), area=name(d["area"]))
    if kind == "advisor-neutral":
        why = (message(N_("**%(seat)s** abstains"), seat=d["seat"]) if d["reason"] == "abstain"
               else message(N_("A tie for first")))
        if d["previous"]:
            return message(N_("%(why)s: %(advisor)s becomes neutral; %(previous)s's ring returns."), why=why,
                           advisor=advisor_message(d["advisor"]), previous=d["previous"])
        return message(N_("%(why)s: %(advisor)s becomes neutral."), why=why, advisor=advisor_message(d["advisor"]))
    if kind == "quarantia-neutralised":
        owners = sorted({o for o in d["previous"].values() if o})
        if owners:
            return message(N_("The three Quarantia advisors become neutral (rings return to %(owners)s)."),
                           owners=", ".join(owners))
        return message(N_("The three Quarantia advisors become neutral."))
    if kind == "quarantia-abstained":
        return message(N_("**%(seat)s** abstains from a Quarantia advisor."), seat=d["seat"])
    if kind == "house-moved":
        return message(N_("**%(seat)s** moves a house from %(source)s to %(target)s."), seat=d["seat"],
                       source=name(d["source"]), target=name(d["target"]))
    if kind == "move-passed":
        return message(N_("**%(seat)s** moves no (further) house."), seat=d["seat"])
    if kind == "houses-declined":
        return message(N_("**%(seat)s** declines to place %(count)s house(s) in %(area)s."), seat=d["seat"],
                       count=d["count"], area=name(d["area"]))
    if kind == "houses-placed":
        if d["lost"]:
            return message(N_("**%(seat)s** places %(count)s house(s) in %(area)s (%(lost)s lost: no houses left)."),
                           seat=d["seat"], count=d["count"], area=name(d["area"]), lost=d["lost"])
        return message(N_("**%(seat)s** places %(count)s house(s) in %(area)s."), seat=d["seat"], count=d["count"],
                       area=name(d["area"]))
    if kind == "palace-built":
        return message(N_("**%(seat)s** builds a palace in %(area)s on space %(space)s for %(cost)s houses."),
                       seat=d["seat"], area=name(d["area"]), space=d["space"], cost=d["cost"])
    if kind == "palace-declined":
        return message(N_("**%(seat)s** does not build in %(area)s."), seat=d["seat"], area=name(d["area"]))
    if kind == "palace-no-space":
        return message(N_("**%(seat)s** cannot build in %(area)s: no palace space is left."), seat=d["seat"],
                       area=name(d["area"]))
    if kind == "voting-card-turned":
        return message(N_("%(done)s has voted; the next voting-order card turned up is %(turned)s."),
                       done=name(d["done"]), turned=name(d["turned"]))
    if kind == "year-ended":
        return message(N_("Year %(year)s is over."), year=d["year"])
    if kind == "game-ended":
        reasons = {
            "doge": message(N_("a player met a Doge condition")),
            "no-palace-possible": message(N_("no palace can be built any more (adjudicator safety end)")),
            "year-limit": message(N_("the year limit was reached (adjudicator safety end)")),
        }
        return message(N_("**Game over** after year %(year)s: %(reason)s. Winner(s): %(winners)s."), year=d["year"],
                       reason=reasons[d["reason"]], winners=_seats(d["winners"]))
    return message("(%(kind)s)", kind=kind)


def _owner(view: State, advisor: str) -> str:
    return view["advisors"][advisor]["owner"] or ""  # "" = neutral


def render_view(view: State, seat: str | None, translate: Callable[[Message], str] = message_text) -> str:
    """The text board; `translate` gives each of its words in the reader's language (the service
    passes it, see GameModule.render_view_in; English by default)."""
    t = translate
    none, free = t(message(N_("none"))), t(message(N_("free")))
    seats = view["seats"]
    lines = [t(message(N_("## Doge - year %(year)s"), year=view["year"])), ""]
    voting = view["voting"]
    done = ", ".join(name(a) for a in voting["used"]) or "-"
    lines.append(t(message(N_("**Voting order** - still to vote this year: %(current)s"),
                           current=", ".join(name(a) for a in voting["current"]) or "-")))
    lines.append(t(message(N_("- already voted: %(done)s; turned up for next year: %(next)s"), done=done,
                           next=", ".join(name(a) for a in voting["next"]) or "-")))
    if view.get("election"):
        e = view["election"]
        lines.append(t(message(N_("- now: election %(number)s in %(area)s"), number=e["number"], area=name(e["area"]))))
    lines += ["", t(message(N_("| Area | Palaces (space: owner) | Houses | Advisors here | Face-down markers |"))),
              "| --- | --- | --- | --- | --- |"]
    for area in AREAS:
        if area == QUARANTIA:
            palaces, houses = "-", "-"
        else:
            built = view["districts"][area]["palaces"]
            palaces = ", ".join(
                f"{cost}: {built[i] if i < len(built) else free}" for i, cost in enumerate(PALACE_COSTS)
            )
            houses = ", ".join(f"{s} {n}" for s, n in view["districts"][area]["houses"].items()) or "-"
        here = [f"{t(advisor_message(a))} ({_owner(view, a) or t(message(N_('neutral')))})"
                for a in ADVISORS if view["advisors"][a]["at"] == area]
        ballots = ", ".join(f"{s} x{n}" for s, n in view["ballots"][area].items()) or "-"
        lines.append(f"| {name(area)} | {palaces} | {houses} | {'; '.join(here) or '-'} | {ballots} |")
    neutral = [t(advisor_message(a)) for a in ADVISORS if view["advisors"][a]["at"] is None]
    lines += ["", t(message(N_("**Neutral advisors:** %(advisors)s"), advisors=", ".join(neutral) or none)), ""]
    lines += [t(message(N_("| Player | Houses in supply | Palaces in supply | Rings free | Markers left "
                           "| Cards used |"))),
              "| --- | --- | --- | --- | --- | --- |"]
    for s in seats:
        sup = view["supply"][s]
        used = ", ".join(name(a) for a in view["cards_used"][s]) or "-"
        lines.append(f"| {s} | {sup['houses']} | {sup['palaces']} | {sup['rings']} | {sup['markers']} | {used} |")
    private = view.get("private", {}).get(seat) if seat else None
    if private is not None:
        mine = " ".join(str(v) for v in private["markers"]) or none
        placed = "; ".join(
            f"{name(a)}: {' '.join(str(v) for v in vs)}" for a, vs in private["ballots"].items()
        ) or none
        lines += ["", t(message(N_("**Your markers (%(seat)s)** - in supply: %(mine)s; face down on the board: "
                                   "%(placed)s"), seat=seat, mine=mine, placed=placed))]
    if view.get("result"):
        r = view["result"]
        lines += ["", t(message(N_("**Game over** - winner(s): %(winners)s; palaces: %(palaces)s"),
                                winners=_seats(r["winners"]),
                                palaces=", ".join(f"{s} {n}" for s, n in r["palaces"].items())))]
    return "\n".join(lines) + "\n"
