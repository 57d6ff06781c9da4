"""1960's log lines as messages: a msgid and values, translated for the reader (issue 12).

`render_event` (render.py) is their English. Names (candidates, states, regions, issues, cards)
stay as printed; the words around them are the catalog's. A list of values that may hold
messages is joined by a msgid made only of placeholders (nothing to translate).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.engine import N_, Message, message

from .data import CANDIDATE_CP, CARDS, SEATS, STATES
from .text import event_effect, join

Text = str | Message

_WHY = {85: "#85 Jackie Kennedy", 2: "#2 Nixon's Knee", 76: "#76 Nixon's Pledge"}
_PLURALS = {
    "cube": (N_("%(n)s cube"), N_("%(n)s cubes")),
    "card": (N_("%(n)s card"), N_("%(n)s cards")),
    "momentum marker": (N_("%(n)s momentum marker"), N_("%(n)s momentum markers")),
}


_join = join  # items joined by a separator (text.py)


def _card(card: Any) -> Text:
    if card == "candidate":
        return message(N_("the candidate card"))
    return f"#{card} {CARDS[card].name}" if isinstance(card, int) and card in CARDS else str(card)


def _cards(cards: list[Any]) -> Text:
    return _join([_card(c) for c in cards]) if cards else message(N_("no card"))


def _who(seat: Any) -> Text:
    return str(seat).capitalize() if seat else message(N_("nobody"))


def _n(n: int, thing: str) -> Message:
    one, many = _PLURALS[thing]
    return message(one if n == 1 else many, n=n)


def _track(track: list[str]) -> str:
    return ", ".join(f"{k + 1}. {issue}" for k, issue in enumerate(track))


def _pair(values: dict[str, int]) -> Text:
    return _join([_join([_who(s), str(values.get(s, 0))], " ") for s in SEATS])


def _pair_cubes(values: dict[str, int]) -> Text:
    return _join([message(N_("%(who)s %(n)s cubes"), who=_who(s), n=values.get(s, 0)) for s in SEATS])


def _where(what: str, at: str) -> Message:
    if what == "states" and at in STATES:
        return message(N_("in %(state)s"), state=STATES[at].name)
    if what == "issues":
        return message(N_("on %(issue)s"), issue=at)
    if what == "media":
        return message(N_("in the %(region)s media"), region=at) if at != "-" else message(N_("for media"))
    return message(N_("(%(what)s)"), what=what)


def _check(d: dict[str, Any]) -> Message:
    who, where = _who(d["seat"]), _where(d["what"], d["at"])
    if d["drawn"] is None:
        return message(N_("%(who)s makes a support check %(where)s: the bag is empty, so it fails."),
                       who=who, where=where)
    if d["ok"]:
        return message(N_("%(who)s makes a support check %(where)s: draws a %(drawn)s cube (success)."),
                       who=who, where=where, drawn=_who(d["drawn"]))
    return message(N_("%(who)s makes a support check %(where)s: draws a %(drawn)s cube (failure)."),
                   who=who, where=where, drawn=_who(d["drawn"]))


def _cube(d: dict[str, Any]) -> Message:
    if d["did"] == "removed":
        return message(N_("%(who)s removes a %(of)s cube %(where)s."), who=_who(d["seat"]), of=_who(d.get("of")),
                       where=_where(d["what"], d["at"]))
    return message(N_("%(who)s places a cube %(where)s."), who=_who(d["seat"]), where=_where(d["what"], d["at"]))


def _play(d: dict[str, Any]) -> Message:
    who = _who(d["seat"])
    if d["card"] == "candidate":
        return message(N_("%(who)s plays the candidate card for %(cp)s CP."), who=who, cp=CANDIDATE_CP)
    if d["use"] == "cp":
        msgid = N_("%(who)s plays %(card)s for CP and preempts its event") if d.get("preempt") else \
            N_("%(who)s plays %(card)s for CP")
    else:
        msgid = N_("%(who)s plays %(card)s as an event and preempts its event") if d.get("preempt") else \
            N_("%(who)s plays %(card)s as an event")
    played = message(msgid, who=who, card=_card(d["card"]))
    if d.get("rest"):
        return message(N_("%(played)s; %(cubes)s go to rest."), played=played, cubes=_n(d["rest"], "cube"))
    return message(N_("%(played)s."), played=played)


def _momentum(d: dict[str, Any]) -> Message:
    n = d["n"]
    markers = _n(abs(n), "momentum marker")
    gains = N_("%(who)s gains %(markers)s") if n > 0 else N_("%(who)s loses %(markers)s")
    changed = message(gains, who=_who(d["seat"]), markers=markers)
    if d.get("why"):
        return message(N_("%(changed)s (%(why)s)."), changed=changed, why=_WHY.get(d["why"], _card(d["why"])))
    return message(N_("%(played)s."), played=changed)


def _debate_won(d: dict[str, Any]) -> Message:
    if d["seat"]:
        return message(N_("Debate on %(issue)s (%(totals)s): %(who)s wins and gains %(cubes)s of state support."),
                       issue=d["issue"], totals=_pair(d["totals"]), who=_who(d["seat"]), cubes=_n(d["reward"], "cube"))
    return message(N_("Debate on %(issue)s (%(totals)s): a tie."), issue=d["issue"], totals=_pair(d["totals"]))


def _tally(d: dict[str, Any]) -> Message:
    values = {"kennedy": d["ev"]["kennedy"], "nixon": d["ev"]["nixon"], "winner": _who(d["winner"])}
    if d.get("unpledged"):
        return message(N_("**Final tally**: Kennedy %(kennedy)s EV, Nixon %(nixon)s EV; unpledged: %(unpledged)s; "
                          "winner %(winner)s."), unpledged=", ".join(d["unpledged"]), **values)
    return message(N_("**Final tally**: Kennedy %(kennedy)s EV, Nixon %(nixon)s EV; winner %(winner)s."), **values)


def _endorsement_card(d: dict[str, Any]) -> Message:
    if d["region"] == "any":
        return message(N_("%(who)s draws endorsement card %(card)s: one endorsement in a region of their choice."),
                       who=_who(d["seat"]), card=d["card"])
    return message(N_("%(who)s draws endorsement card %(card)s: one endorsement in the %(region)s."),
                   who=_who(d["seat"]), card=d["card"], region=d["region"])


def _effect(card: int) -> Message:
    """The card's effect without its final full stop (the log line puts it in brackets)."""
    return event_effect(card, stop=False) or message(N_("no effect of its own"))


def _event(d: dict[str, Any]) -> Message:
    if d["card"] in CARDS:
        return message(N_("Event %(card)s resolved by %(who)s (%(effect)s)."), card=_card(d["card"]),
                       who=_who(d["seat"]), effect=_effect(d["card"]))
    return message(N_("Event %(card)s resolved by %(who)s."), card=_card(d["card"]), who=_who(d["seat"]))


def _gathering(d: dict[str, Any]) -> Message:
    if d["winner"]:
        return message(N_("Gathering momentum in the %(region)s: %(who)s leads more of its states, gains momentum "
                          "and support in its empty states."), region=d["region"], who=_who(d["winner"]))
    return message(N_("Gathering momentum in the %(region)s: both candidates lead as many states; nothing happens."),
                   region=d["region"])


def _strategy(d: dict[str, Any]) -> Message:
    cards = _n(d["n"], "card")
    if d["discarded"]:
        return message(N_("%(who)s keeps %(cards)s for the campaign strategy and discards %(discarded)s."),
                       who=_who(d["seat"]), cards=cards, discarded=_cards(d["discarded"]))
    return message(N_("%(who)s keeps %(cards)s for the campaign strategy."), who=_who(d["seat"]), cards=cards)


def _state(value: Any) -> str:
    return STATES[value].name if value in STATES else str(value)


SENTENCES: dict[str, Callable[[dict[str, Any]], Message]] = {
    "setup": lambda d: message(N_("The campaign begins: issue track %(track)s; the bag holds %(bag)s."),
                               track=_track(d["track"]), bag=_pair_cubes(d["bag"])),
    "turn": lambda d: message(N_("**Turn %(turn)s**"), turn=d["turn"]),
    "initiative": lambda d: message(N_("Initiative check (drawn: %(drawn)s): %(who)s wins."),
                                    drawn=_join([_who(c) for c in d["drawn"]]), who=_who(d["winner"])),
    "first": lambda d: message(N_("%(who)s chooses %(first)s to play first."), who=_who(d["seat"]),
                               first=_who(d["first"])),
    "play": _play,
    "pass": lambda d: message(N_("%(who)s passes."), who=_who(d["seat"])),
    "vice_president": lambda d: message(N_("%(who)s plays the Vice-President card %(card)s, discarding %(discarded)s."),
                                        who=_who(d["seat"]), card=_card(d["card"]), discarded=_card(d["discarded"])),
    "event": _event,
    "action": lambda d: message(N_("%(who)s uses %(cp)s CP to %(action)s."), who=_who(d["seat"]), cp=d["cp"],
                                action=d["action"]),
    "cp_done": lambda d: (message(N_("%(who)s ends the action, leaving %(left)s CP unspent."), who=_who(d["seat"]),
                                  left=d["left"]) if d["left"]
                          else message(N_("%(who)s ends the action."), who=_who(d["seat"]))),
    "travel": lambda d: (message(N_("%(who)s travels to %(state)s for %(cost)s CP."), who=_who(d["seat"]),
                                 state=STATES[d["to"]].name, cost=d["cost"]) if d["cost"]
                         else message(N_("%(who)s travels to %(state)s free of charge."), who=_who(d["seat"]),
                                      state=STATES[d["to"]].name)),
    "declare": lambda d: message(N_("%(who)s tries to add %(cubes)s in %(state)s, which needs a support check for "
                                    "each."), who=_who(d["seat"]), cubes=_n(d["n"], "cube"),
                                 state=STATES[d["at"]].name),
    "check": _check,
    "cube": _cube,
    "lose": lambda d: message(N_("%(who)s loses %(cubes)s %(where)s."), who=_who(d["seat"]), cubes=_n(d["n"], "cube"),
                              where=_where(d["what"], d["at"])),
    "bag_empty": lambda d: message(N_("The bag is empty and cannot be refilled any more.")),
    "reseed": lambda d: message(N_("The bag is empty: %(n)s cubes of each candidate go back into it."), n=d["n"]),
    "trigger": lambda d: message(N_("%(who)s triggers %(card)s.") if d["yes"] else
                                 N_("%(who)s does not trigger %(card)s."), who=_who(d["seat"]), card=_card(d["card"])),
    "tally": _tally,
    "revealed": lambda d: message(N_("Turned up from the campaign deck: %(card)s."), card=_card(d["card"])),
    "drew": lambda d: message(N_("%(who)s draws %(cards)s."), who=_who(d["seat"]), cards=_n(d["n"], "card")),
    "drew_cards": lambda d: message(N_("You drew %(cards)s."), cards=_cards(d["cards"])),
    "reshuffle": lambda d: message(N_("The campaign deck ran out: the %(n)s discarded cards are shuffled into a new "
                                      "deck."), n=d["n"]),
    "endorse_reshuffle": lambda d: message(N_("The endorsement deck ran out: %(n)s used cards are shuffled back in."),
                                           n=d["n"]),
    "discard": lambda d: message(N_("%(who)s discards %(card)s."), who=_who(d["seat"]), card=_card(d["card"])),
    "momentum": _momentum,
    "decay": lambda d: message(N_("Momentum decays: each candidate loses half, leaving %(left)s."),
                               left=_pair(d["momentum"])),
    "shift": lambda d: message(N_("%(who)s leads the media and reorders the issue track: %(track)s."),
                               who=_who(d["seat"]), track=_track(d["track"])),
    "track": lambda d: message(N_("%(who)s sets the issue track: %(track)s."), who=_who(d["seat"]),
                               track=_track(d["track"])),
    "issue_moved": lambda d: message(N_("%(issue)s moves up the issue track: %(track)s."), issue=d["issue"],
                                     track=_track(d["track"])),
    "award": lambda d: message(N_("%(who)s leads %(issue)s and is awarded %(got)s."), who=_who(d["seat"]),
                               issue=d["issue"], got=d["got"]),
    "issue_decay": lambda d: message(N_("Issue support decays: the leader on each issue loses one cube.")),
    "endorse": lambda d: message(N_("%(who)s places an endorsement in the %(region)s.") if d["did"] == "placed" else
                                 N_("%(who)s removes the opposing endorsement from the %(region)s."),
                                 who=_who(d["seat"]), region=d["region"]),
    "endorsement_card": _endorsement_card,
    "gathering": _gathering,
    "candidate": lambda d: message(N_("%(who)s's candidate card is ready again.") if d["now"] == "ready" else
                                   N_("%(who)s's candidate card is exhausted."), who=_who(d["seat"])),
    "token": lambda d: message(N_("%(who)s's candidate token moves to %(state)s."), who=_who(d["seat"]),
                               state=STATES[d["to"]].name),
    "picked": lambda d: message(N_("%(who)s chooses %(value)s."), who=_who(d["seat"]), value=_state(d["value"])),
    "retrieve": lambda d: message(N_("%(who)s takes %(card)s from the discard pile and plays its event.")
                                  if d.get("play") else
                                  N_("%(who)s takes %(card)s from the discard pile into their hand."),
                                  who=_who(d["seat"]), card=_card(d["card"])),
    "hand_shown": lambda d: message(N_("%(who)s shows you their hand: %(cards)s."), who=_who(d["seat"]),
                                    cards=_cards(d["cards"])),
    "unpledged": lambda d: message(N_("Unpledged electors: tied states are left out of the electoral vote count.")),
    "strategy": _strategy,
    "strategy_revealed": lambda d: message(N_("%(who)s's campaign strategy cards: %(cards)s."), who=_who(d["seat"]),
                                           cards=_cards(d["cards"])),
    "rest": lambda d: message(N_("Rest cubes go back into the bag, which now holds %(bag)s."),
                              bag=_pair_cubes(d["bag"])),
    "bonus": lambda d: message(N_("Election Day: issue cubes and two cubes per momentum marker go into the bag, "
                                  "which now holds %(bag)s."), bag=_pair_cubes(d["bag"])),
    "debate_stage": lambda d: message(N_("**The debates** begin, in this order: %(order)s."),
                                      order=", ".join(d["order"])),
    "debate_reveal": lambda d: message(N_("Debate cards revealed: %(cards)s."), cards=_join(
        [_join([_who(s), _card(c)], " ") for s, c in sorted(d["cards"].items())])),
    "debate_discard": lambda d: message(N_("%(who)s discards %(card)s from the debate."), who=_who(d["seat"]),
                                        card=_card(d["card"])),
    "debate_side": lambda d: message(N_("%(who)s's card %(card)s counts for %(side)s in the debate."),
                                     who=_who(d["seat"]), card=_card(d["card"]), side=_who(d["side"])),
    "debate_won": _debate_won,
    "debates_over": lambda d: message(N_("The debates are over; the issue track is %(track)s."),
                                      track=_track(d["track"])),
}


def event_message(ev: dict[str, Any]) -> Message:
    sentence = SENTENCES.get(ev["kind"])
    if sentence is None:  # an event this renderer does not know (tests catch it): still readable
        return message(N_("(%(event)s)"), event=ev["kind"].replace("_", " "))
    return sentence(ev["data"])
