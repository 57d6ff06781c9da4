"""Markdown for log events and views (the e-mail and text board)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .data import CANDIDATE_CP, CARDS, ISSUES, REGIONS, SEATS, STATES
from .grammar import format_order
from .text import event_text


def _card(card: Any) -> str:
    if card == "candidate":
        return "the candidate card"
    return f"#{card} {CARDS[card].name}" if isinstance(card, int) and card in CARDS else str(card)


def _cards(cards: list[Any]) -> str:
    return ", ".join(_card(c) for c in cards) or "no card"


def _who(seat: Any) -> str:
    return str(seat).capitalize() if seat else "nobody"


def _n(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _track(track: list[str]) -> str:
    return ", ".join(f"{k + 1}. {issue}" for k, issue in enumerate(track))


def _pair(values: dict[str, int], unit: str = "") -> str:
    return ", ".join(f"{_who(s)} {values.get(s, 0)}{unit}" for s in SEATS)


_WHY = {85: "#85 Jackie Kennedy", 2: "#2 Nixon's Knee", 76: "#76 Nixon's Pledge"}


def _where(what: str, at: str) -> str:
    if what == "states" and at in STATES:
        return f"in {STATES[at].name}"
    if what == "issues":
        return f"on {at}"
    if what == "media":
        return f"in the {at} media" if at != "-" else "for media"
    return f"({what})"


def _check(d: dict[str, Any]) -> str:
    if d["drawn"] is None:
        return f"{_who(d['seat'])} makes a support check {_where(d['what'], d['at'])}: the bag is empty, so it fails."
    result = "success" if d["ok"] else "failure"
    return (f"{_who(d['seat'])} makes a support check {_where(d['what'], d['at'])}: "
            f"draws a {_who(d['drawn'])} cube ({result}).")


def _cube(d: dict[str, Any]) -> str:
    if d["did"] == "removed":
        return f"{_who(d['seat'])} removes a {_who(d.get('of'))} cube {_where(d['what'], d['at'])}."
    return f"{_who(d['seat'])} places a cube {_where(d['what'], d['at'])}."


def _play(d: dict[str, Any]) -> str:
    if d["card"] == "candidate":
        return f"{_who(d['seat'])} plays the candidate card for {CANDIDATE_CP} CP."
    use = "for CP" if d["use"] == "cp" else "as an event"
    extra = " and preempts its event" if d.get("preempt") else ""
    rest = f"; {_n(d['rest'], 'cube')} go to rest" if d.get("rest") else ""
    return f"{_who(d['seat'])} plays {_card(d['card'])} {use}{extra}{rest}."


def _momentum(d: dict[str, Any]) -> str:
    n = d["n"]
    why = f" ({_WHY.get(d['why'], _card(d['why']))})" if d.get("why") else ""
    return f"{_who(d['seat'])} {'gains' if n > 0 else 'loses'} {_n(abs(n), 'momentum marker')}{why}."


def _debate_won(d: dict[str, Any]) -> str:
    totals = _pair(d["totals"])
    return (f"Debate on {d['issue']} ({totals}): {_who(d['seat'])} wins and gains "
            f"{_n(d['reward'], 'cube')} of state support.") if d["seat"] else f"Debate on {d['issue']} ({totals}): a tie."


def _tally(d: dict[str, Any]) -> str:
    unpledged = f"; unpledged: {', '.join(d['unpledged'])}" if d.get("unpledged") else ""
    return (f"**Final tally**: Kennedy {d['ev']['kennedy']} EV, Nixon {d['ev']['nixon']} EV{unpledged}; "
            f"winner {_who(d['winner'])}.")


def _endorsement_card(d: dict[str, Any]) -> str:
    region = "a region of their choice" if d["region"] == "any" else f"the {d['region']}"
    return f"{_who(d['seat'])} draws endorsement card {d['card']}: one endorsement in {region}."


SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    "setup": lambda d: (f"The campaign begins: issue track {_track(d['track'])}; "
                        f"the bag holds {_pair(d['bag'], ' cubes')}."),
    "turn": lambda d: f"**Turn {d['turn']}**",
    "initiative": lambda d: (f"Initiative check (drawn: {', '.join(_who(c) for c in d['drawn'])}): "
                             f"{_who(d['winner'])} wins."),
    "first": lambda d: f"{_who(d['seat'])} chooses {_who(d['first'])} to play first.",
    "play": _play,
    "pass": lambda d: f"{_who(d['seat'])} passes.",
    "vice_president": lambda d: (f"{_who(d['seat'])} plays the Vice-President card {_card(d['card'])}, "
                                 f"discarding {_card(d['discarded'])}."),
    "event": lambda d: (f"Event {_card(d['card'])} resolved by {_who(d['seat'])}"
                        + (f" ({event_text(d['card']).partition(': ')[2].rstrip('.')})." if d["card"] in CARDS else ".")),
    "action": lambda d: f"{_who(d['seat'])} uses {d['cp']} CP to {d['action']}.",
    "cp_done": lambda d: (f"{_who(d['seat'])} ends the action"
                          + (f", leaving {d['left']} CP unspent." if d["left"] else ".")),
    "travel": lambda d: (f"{_who(d['seat'])} travels to {STATES[d['to']].name}"
                         + (f" for {d['cost']} CP." if d["cost"] else " free of charge.")),
    "declare": lambda d: (f"{_who(d['seat'])} tries to add {_n(d['n'], 'cube')} in {STATES[d['at']].name}, "
                          "which needs a support check for each."),
    "check": _check,
    "cube": _cube,
    "lose": lambda d: f"{_who(d['seat'])} loses {_n(d['n'], 'cube')} {_where(d['what'], d['at'])}.",
    "bag_empty": lambda d: "The bag is empty and cannot be refilled any more.",
    "reseed": lambda d: f"The bag is empty: {d['n']} cubes of each candidate go back into it.",
    "trigger": lambda d: f"{_who(d['seat'])} {'triggers' if d['yes'] else 'does not trigger'} {_card(d['card'])}.",
    "tally": _tally,
    "revealed": lambda d: f"Turned up from the campaign deck: {_card(d['card'])}.",
    "drew": lambda d: f"{_who(d['seat'])} draws {_n(d['n'], 'card')}.",
    "drew_cards": lambda d: f"You drew {_cards(d['cards'])}.",
    "reshuffle": lambda d: f"The campaign deck ran out: the {d['n']} discarded cards are shuffled into a new deck.",
    "endorse_reshuffle": lambda d: f"The endorsement deck ran out: {d['n']} used cards are shuffled back in.",
    "discard": lambda d: f"{_who(d['seat'])} discards {_card(d['card'])}.",
    "momentum": _momentum,
    "decay": lambda d: f"Momentum decays: each candidate loses half, leaving {_pair(d['momentum'])}.",
    "shift": lambda d: f"{_who(d['seat'])} leads the media and reorders the issue track: {_track(d['track'])}.",
    "track": lambda d: f"{_who(d['seat'])} sets the issue track: {_track(d['track'])}.",
    "issue_moved": lambda d: f"{d['issue']} moves up the issue track: {_track(d['track'])}.",
    "award": lambda d: f"{_who(d['seat'])} leads {d['issue']} and is awarded {d['got']}.",
    "issue_decay": lambda d: "Issue support decays: the leader on each issue loses one cube.",
    "endorse": lambda d: (f"{_who(d['seat'])} {'places an endorsement in' if d['did'] == 'placed' else 'removes the opposing endorsement from'} "
                          f"the {d['region']}."),
    "endorsement_card": _endorsement_card,
    "gathering": lambda d: (f"Gathering momentum in the {d['region']}: "
                            + (f"{_who(d['winner'])} leads more of its states, gains momentum and support in its empty states."
                               if d["winner"] else "both candidates lead as many states; nothing happens.")),
    "candidate": lambda d: (f"{_who(d['seat'])}'s candidate card is "
                            + ("ready again." if d["now"] == "ready" else "exhausted.")),
    "token": lambda d: f"{_who(d['seat'])}'s candidate token moves to {STATES[d['to']].name}.",
    "picked": lambda d: f"{_who(d['seat'])} chooses {STATES[d['value']].name if d['value'] in STATES else d['value']}.",
    "retrieve": lambda d: (f"{_who(d['seat'])} takes {_card(d['card'])} from the discard pile"
                           + (" and plays its event." if d.get("play") else " into their hand.")),
    "hand_shown": lambda d: f"{_who(d['seat'])} shows you their hand: {_cards(d['cards'])}.",
    "unpledged": lambda d: "Unpledged electors: tied states are left out of the electoral vote count.",
    "strategy": lambda d: (f"{_who(d['seat'])} keeps {_n(d['n'], 'card')} for the campaign strategy"
                           + (f" and discards {_cards(d['discarded'])}." if d["discarded"] else ".")),
    "strategy_revealed": lambda d: f"{_who(d['seat'])}'s campaign strategy cards: {_cards(d['cards'])}.",
    "rest": lambda d: f"Rest cubes go back into the bag, which now holds {_pair(d['bag'], ' cubes')}.",
    "bonus": lambda d: (f"Election Day: issue cubes and two cubes per momentum marker go into the bag, "
                        f"which now holds {_pair(d['bag'], ' cubes')}."),
    "debate_stage": lambda d: f"**The debates** begin, in this order: {', '.join(d['order'])}.",
    "debate_reveal": lambda d: f"Debate cards revealed: {', '.join(f'{_who(s)} {_card(c)}' for s, c in sorted(d['cards'].items()))}.",
    "debate_discard": lambda d: f"{_who(d['seat'])} discards {_card(d['card'])} from the debate.",
    "debate_side": lambda d: f"{_who(d['seat'])}'s card {_card(d['card'])} counts for {_who(d['side'])} in the debate.",
    "debate_won": _debate_won,
    "debates_over": lambda d: f"The debates are over; the issue track is {_track(d['track'])}.",
}


CARD_KEYS = ("play", "discard", "debate", "take", "resolve")


def order_label(order: dict[str, Any]) -> str:
    """The order's text with the cards it names, for choices: "play 20 cp — #20 Nixon Egged… (2 CP)"."""
    text = format_order(order)
    cards = [order[k] for k in CARD_KEYS if isinstance(order.get(k), int) and not isinstance(order.get(k), bool)]
    cards += [c for c in order.get("strategy", []) if isinstance(c, int)]
    named = [f"{_card(c)} ({CARDS[c].cp} CP)" for c in cards if c in CARDS]
    return f"{text} — {', '.join(named)}" if named else text


def render_event(ev: dict[str, Any]) -> str:
    sentence = SENTENCES.get(ev["kind"])
    if sentence is None:  # an event this renderer does not know (tests catch it): still readable
        return f"({ev['kind'].replace('_', ' ')})"
    return sentence(ev["data"])


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
