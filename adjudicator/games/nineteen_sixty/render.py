"""Markdown for log events and views (the e-mail and text board)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.engine import N_, Message, message, message_text

from .data import CARDS, ISSUES, REGIONS, SEATS, STATES
from .grammar import format_order
from .log import event_message
from .text import card_message


def _card(card: Any) -> str:
    if card == "candidate":
        return "the candidate card"
    return f"#{card} {CARDS[card].name}" if isinstance(card, int) and card in CARDS else str(card)


def _who(seat: Any) -> str:
    return str(seat).capitalize() if seat else "nobody"


CARD_KEYS = ("play", "discard", "debate", "take", "resolve")


def card_facts(card: int) -> str:
    """What a player weighs when choosing a card, in names only (no words to translate): its CP,
    the candidate whose event it is (its icon) and its debate issue: "3 CP · Kennedy · Economy"."""
    info = CARDS[card]
    side = "Kennedy+Nixon" if info.icon == "both" else _who(info.icon)
    return " · ".join([f"{info.cp} CP", side, *([info.issue] if info.issue else [])])


def order_label(order: dict[str, Any]) -> str:
    """The order's text with the cards it names, for choices: "play 20 cp — #20 Nixon Egged… (2 CP ·
    Kennedy · Economy)" (card_facts)."""
    text = format_order(order)
    cards = [order[k] for k in CARD_KEYS if isinstance(order.get(k), int) and not isinstance(order.get(k), bool)]
    cards += [c for c in order.get("strategy", []) if isinstance(c, int)]
    named = [f"{_card(c)} ({card_facts(c)})" for c in cards if c in CARDS]
    return f"{text} — {', '.join(named)}" if named else text


def render_event(ev: dict[str, Any]) -> str:
    return message_text(event_message(ev))


def _spot(spot: dict[str, int]) -> str:
    for seat in SEATS:
        if spot[seat]:
            return f"{seat[0].upper()}{spot[seat]}"
    return "-"


def _each(values: dict[str, Any]) -> str:
    return ", ".join(f"{_who(s)} {values[s]}" for s in SEATS)


def render_view(view: dict[str, Any], seat: str | None, translate: Callable[[Message], str] = message_text) -> str:  # noqa: C901 - one line per part of the board
    """The text board; `translate` gives each of its words in the reader's language (the service
    passes it, see GameModule.render_view_in; English by default)."""
    t = translate
    phase = t(message(N_("## 1960 — turn %(turn)s, %(phase)s"), turn=view["turn"], phase=view["phase"]))
    if view["phase"] == "activity":
        phase += t(message(N_(", activity phase %(ap)s"), ap=view["ap"]))
    lines = [phase]
    lines.append(t(message(N_("Momentum: %(momentum)s · Bag: %(bag)s · Rest: %(rest)s"),
                           momentum=_each(view["momentum"]), bag=_each(view["bag"]), rest=_each(view["rest"]))))
    lines.append(t(message(N_("Tokens: %(tokens)s · Candidate cards: %(candidate)s"),
                           tokens=", ".join(t(message(N_("%(seat)s in %(state)s"), seat=_who(s),
                                                      state=view["tokens"][s]))
                                            for s in SEATS),
                           candidate=_each(view["candidate"]))))
    vps = {s: c for s, c in (view.get("vp") or {}).items() if c}
    if vps:
        lines.append(t(message(N_("Vice-President cards set aside: %(cards)s"),
                               cards=", ".join(f"{_who(s)} {_card(c)}" for s, c in vps.items()))))
    track = [i for i in view["track"] if i]
    lines.append(t(message(N_("Issues (1st first): %(issues)s"),
                           issues=", ".join(f"{i} {_spot(view['issues'][i])}" for i in track or ISSUES))))
    lines.append(t(message(N_("Media: %(media)s · Endorsements: %(endorsements)s"),
                           media=", ".join(f"{r} {_spot(view['media'][r])}" for r in REGIONS),
                           endorsements=", ".join(f"{r} {_spot(view['endorse'][r])}" for r in REGIONS))))
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
        lines.append(t(message(N_("Persistent: %(boxes)s"),
                               boxes="; ".join(f"{k}: {', '.join(_card(c) for c in v)}" for k, v in boxes.items()))))
    counts = view.get("counts")
    if counts:
        lines.append(t(message(N_("Deck %(deck)s · hands %(hands)s"), deck=counts["deck"],
                               hands=_each(counts["hand"]))))
    if seat and seat in view.get("private", {}):
        mine = view["private"][seat]
        cards = "".join(f"\n- {_card(c)} ({CARDS[c].cp} CP): {t(card_message(c))}" for c in mine["hand"] if c in CARDS)
        lines.append(t(message(N_("Your hand:"))) + (cards or " " + t(message(N_("empty")))))
        if mine["strategy"]:
            lines.append(t(message(N_("Your campaign strategy: %(cards)s"),
                                   cards=", ".join(_card(c) for c in mine["strategy"]))))
    if view.get("debate"):
        d = view["debate"]
        for issue in d["order"]:
            sides = d["cards"][issue]
            won = d["winners"].get(issue)
            line = t(message(N_("Debate %(issue)s: Kennedy %(kennedy)s · Nixon %(nixon)s"), issue=issue,
                             kennedy=sides["kennedy"], nixon=sides["nixon"]))
            lines.append(line + (t(message(N_(" — won by %(seat)s"), seat=_who(won))) if won else ""))
    if view.get("result"):
        r = view["result"]
        lines.append(t(message(N_("**Result**: Kennedy %(kennedy)s EV, Nixon %(nixon)s EV; winner %(winner)s."),
                               kennedy=r["ev"]["kennedy"], nixon=r["ev"]["nixon"], winner=_who(r["winner"]))))
    return "\n".join(lines)
