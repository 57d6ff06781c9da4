"""Effect texts for every 1960 card, written here from the coded effects (each card's function in
effects.py, read by `Describe`, and modifiers.py), never copied from a printed card: for the hand,
the choices, the log and the public page.

Each text is built as a message (msgid and values, issue 12), so the service can show it in the
reader's language; `card_text` and the other `*_text` functions give its English. Names (states,
regions, issues, cards) stay as printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.engine import CAPITAL, N_, Message, message, message_text

from .data import CARDS, ENDORSEMENTS, ISSUES, STATES
from .effects import EVENTS, HELD
from .modifiers import PREVENTS
from .steps import Place, Who

Text = str | Message

_WHO: dict[str, Text] = {
    "kennedy": "Kennedy", "nixon": "Nixon", "P": message(N_("the player")), "opp": message(N_("the opponent")),
    "fifty": message(N_("whoever has more cubes in Alaska and Hawaii together"))}
_PICK: dict[str | None, Message] = {
    "swing": message(N_("a state the opponent leads without carrying it")),
    "md_va": message(N_("Maryland or Virginia")), "all": message(N_("any state")),
    "own_media": message(N_("a region where they have media cubes"))}

# Lasting effects kept as rule modifiers (modifiers.py, debate.py, play.py): one line per card.
LASTING: dict[int, str] = {
    2: N_("For the rest of the turn Nixon pays 1 momentum for each campaign action"),
    4: N_("For the rest of the turn Nixon's cards are worth 1 more CP (at most 5)"),
    19: N_("For the rest of the turn that candidate may not campaign in the South"),
    20: N_("For the rest of the turn Nixon may not campaign in the Midwest"),
    26: N_("For the rest of the turn Kennedy campaigns with 1 more CP per card and travels free"),
    30: N_("For the rest of the turn Kennedy may not campaign in the South"),
    31: N_("For the rest of the turn Kennedy draws once more after each failed support check"),
    34: N_("In the debates Nixon must reveal his debate card before Kennedy chooses his"),
    35: N_("In the debates Kennedy adds 1 to his total on each issue"),
    44: N_("For the rest of the turn Kennedy may not spend momentum"),
    54: N_("For the rest of the turn Kennedy's cards are worth 1 more CP (at most 5)"),
    55: N_("For the rest of the turn every cube Nixon adds by campaigning needs a support check"),
    65: N_("For the rest of the turn Nixon may not spend momentum"),
    69: N_("For the rest of the turn Kennedy's cards are worth 2 fewer CP (at least 1)"),
    74: N_("For the rest of the turn Nixon may not campaign in states where Kennedy has support"),
    76: N_("For the rest of the turn Kennedy gains 1 momentum whenever Nixon plays a card other than to campaign"),
    79: N_("For the rest of the turn the player travels free and campaigns without support checks"),
    81: N_("For the rest of the turn Kennedy may preempt events without paying momentum"),
    85: N_("For the rest of the turn Nixon pays 1 momentum to play each event from his hand"),
    87: N_("For the rest of the turn Kennedy may not campaign in the West or the Midwest"),
    88: N_("For the rest of the turn Kennedy's cards are worth 2 fewer CP when positioning on issues"),
}

# A line of a card text: a sentence (first letter raised) or a fixed line, each closed by a full
# stop that the log leaves out (it puts the effect in brackets). Placeholders only: no words.
_SENTENCE, _LINE = CAPITAL + ".", "%(text)s."


def join(items: Sequence[Text], sep: str = ", ") -> Text:
    """Items joined by `sep`; a message when an item is one (its msgid has only placeholders)."""
    words = [i for i in items if isinstance(i, str)]
    if len(words) == len(items):
        return sep.join(words)
    return message(sep.join(f"%(p{k})s" for k in range(len(items))), **{f"p{k}": i for k, i in enumerate(items)})


def _who(spec: str) -> Text:
    if spec in _WHO:
        return _WHO[spec]
    kind, _, key = spec.partition(":")
    if kind == "lead":
        return message(N_("whoever leads %(what)s"), what=key)
    if kind == "media":
        return message(N_("whoever leads the %(region)s media"), region=key)
    if kind == "state":
        return message(N_("whoever leads %(what)s"), what=STATES[key].name)
    return spec


def _names(abbrs: list[str]) -> Text:
    names = [STATES[a].name for a in abbrs]
    if len(names) == 1:
        return names[0]
    return message(N_("%(some)s or %(last)s"), some=", ".join(names[:-1]), last=names[-1])


def _region(region: str) -> Message:
    return message(N_("the %(region)s"), region=region)


def _where(spec: Any) -> Text:  # noqa: C901 - one line per kind of place
    kind = spec[0]
    if kind == "any":
        return message(N_("any states"))
    if kind == "regions":
        return join([_region(r) for r in spec[1]], " and ") if len(spec[1]) < 2 else \
            message(N_("%(a)s and %(b)s"), a=join([_region(r) for r in spec[1][:-1]], " and "), b=_region(spec[1][-1]))
    if kind == "states":
        return _names(spec[1])
    if kind == "empty":
        return message(N_("states where nobody has support"))
    if kind == "ev":
        within = message(N_(" in the %(regions)s"), regions=" or ".join(spec[3])) if spec[3] else ""
        if spec[1] == 0:
            return message(N_("states worth at most %(n)s electoral votes%(within)s"), n=spec[2], within=within)
        if spec[2] >= 99:
            return message(N_("states worth at least %(n)s electoral votes%(within)s"), n=spec[1], within=within)
        return message(N_("states worth %(low)s to %(high)s electoral votes%(within)s"), low=spec[1], high=spec[2],
                       within=within)
    if kind == "picked":
        return message(N_("the chosen state"))
    if kind == "picked_region":
        return message(N_("the chosen region"))
    return str(kind)


def _state(abbr: str) -> Text:
    return message(N_("the chosen state")) if abbr == "picked" else STATES[abbr].name


def _cubes(n: int) -> Message:
    return message(N_("%(n)s cube") if n == 1 else N_("%(n)s cubes"), n=n)


def _cap(amount: int, cap: int) -> Text:
    return "" if cap >= amount else message(N_(", at most %(n)s per state"), n=cap)


def _issue(issue: str) -> Text:
    return message(N_("the chosen issue")) if issue == "picked" else issue


class Describe:
    """A card's function read for its text: each step adds its words (a rest-of-turn binding
    none); the steps after a condition are its `then`."""

    def __init__(self) -> None:
        self.parts: list[Message] = []
        self.when: Message | None = None
        self.then: list[Message] = []

    def sentence(self) -> Message | None:
        """The steps' words as one sentence (None: the card does nothing when played)."""
        parts = list(self.parts)
        if self.when is not None:
            then: Text = self.then[0]
            for after in self.then[1:]:
                then = message(N_("%(first)s, then %(next)s"), first=then, next=after)
            parts.append(message(N_("if %(when)s: %(then)s"), when=self.when, then=then))
        return message(CAPITAL, capital=join(parts, "; ")) if parts else None

    def _add(self, msgid: str, **values: Any) -> None:
        (self.parts if self.when is None else self.then).append(message(msgid, **values))

    def _say(self, msgid: str, who: Who, **values: Any) -> None:
        self._add(msgid, who=_who(who), **values)

    def support(self, who: Who, n: int, cap: int, where: Place) -> None:
        self._say(N_("%(who)s adds %(cubes)s of support in %(where)s%(cap)s"), who, cubes=_cubes(n),
                  where=_where(where), cap=_cap(n, cap))

    def remove(self, who: Who, victim: Who, n: int, cap: int, where: Place) -> None:
        values = {"cubes": _cubes(n), "where": _where(where), "cap": _cap(n, cap)}
        if victim == who:
            self._say(N_("%(who)s removes %(cubes)s of their own support in %(where)s%(cap)s"), who, **values)
        else:
            self._say(N_("%(who)s removes %(cubes)s of %(victim)s's support in %(where)s%(cap)s"), who,
                      victim=_who(victim), **values)

    def lose(self, victim: Who, n: int, abbr: str) -> None:
        where = message(N_("the state where their candidate token stands")) if abbr == "token" else STATES[abbr].name
        self._say(N_("%(who)s loses %(cubes)s of support in %(where)s"), victim, cubes=_cubes(n), where=where)

    def momentum(self, who: Who, delta: int) -> None:
        self._say(N_("%(who)s gains %(n)s momentum") if delta > 0 else N_("%(who)s loses %(n)s momentum"), who,
                  n=abs(delta))

    def issue_up(self, issue: str, k: int) -> None:
        self._add(N_("%(issue)s moves up %(n)s place on the issue track") if k == 1 else
                  N_("%(issue)s moves up %(n)s places on the issue track"), issue=issue, n=k)

    def issue(self, who: Who, issue: str, delta: int) -> None:
        self._say(N_("%(who)s gains %(cubes)s on %(issue)s") if delta > 0 else
                  N_("%(who)s loses %(cubes)s on %(issue)s"), who, cubes=_cubes(abs(delta)), issue=_issue(issue))

    def issue_each(self, who: Who, delta: int) -> None:
        self._say(N_("%(who)s loses %(cubes)s on every issue"), who, cubes=_cubes(-delta))

    def issue_split(self, who: Who, n: int, mode: str) -> None:
        self._say(N_("%(who)s adds %(cubes)s on issues, one at a time, spread as they choose") if mode == "gain"
                  else N_("%(who)s removes %(cubes)s on issues, one at a time, spread as they choose"), who,
                  cubes=_cubes(n))

    def token(self, who: Who, abbr: str) -> None:
        self._say(N_("%(who)s's candidate token moves to %(where)s free"), who, where=_state(abbr))

    def media(self, who: Who, n: int, region: str | None) -> None:
        where = _region(region) if region else message(N_("regions of their choice"))
        self._say(N_("%(who)s places %(cubes)s of media support in %(where)s"), who, cubes=_cubes(n), where=where)

    def media_remove(self, who: Who, n: int) -> None:
        self._say(N_("%(who)s removes %(cubes)s of the opponent's media support"), who, cubes=_cubes(n))

    def endorse(self, who: Who) -> None:
        self._say(N_("%(who)s gains an endorsement in a region of their choice"), who)

    def pick_issue(self, who: Who) -> None:
        self._say(N_("%(who)s chooses an issue"), who)

    def pick_state(self, who: Who, among: str) -> None:
        self._say(N_("%(who)s chooses %(what)s"), who, what=_PICK.get(among) or message(N_("a state")))

    def pick_region(self, who: Who, among: str) -> None:
        self._say(N_("%(who)s chooses %(what)s"), who, what=_PICK.get(among) or message(N_("a region")))

    def retrieve(self, who: Who, only: int | None) -> None:
        card = f"{CARDS[only].name} (#{only})" if only else message(N_("a card"))
        self._say(N_("%(who)s may take %(card)s from the discard pile into their hand"), who, card=card)

    def draw(self, who: Who, n: int) -> None:
        self._say(N_("%(who)s draws %(n)s cards"), who, n=n)

    def cycle(self, who: Who) -> None:
        self._say(N_("%(who)s may discard any number of cards and draw as many"), who)

    def exhaust(self, who: Who) -> None:
        self._say(N_("%(who)s's candidate card is exhausted"), who)

    def restore(self, who: Who) -> None:
        self._say(N_("%(who)s's candidate card is made ready again"), who)

    def gathering_momentum(self, region: str) -> None:
        self._add(N_("whoever leads more states in the %(region)s gains 1 momentum and a cube in each of its states "
                     "where nobody has support"), region=region)

    def checks(self, who: Who, n: int, abbr: str) -> None:
        self._say(N_("%(who)s makes %(n)s support checks in %(where)s"), who, n=n, where=_state(abbr))

    def binds(self, who: Who) -> None:
        """Whom a rest-of-turn effect binds is part of its own line (LASTING)."""

    def if_leads(self, who: Who, issue: str) -> bool:
        self.when = message(N_("%(who)s leads %(issue)s"), who=_who(who), issue=issue)
        return True

    def if_leads_issues(self, who: Who, n: int) -> bool:
        self.when = message(N_("%(who)s leads at least %(n)s issues"), who=_who(who), n=n)
        return True

    def reorder_track(self, who: Who) -> None:
        self._say(N_("%(who)s reorders the issue track as they like"), who)

    def match_momentum(self) -> None:
        self._add(N_("the player gains momentum until they have as much as the opponent"))

    def issue_leaders_lose(self, first: str, second: str) -> None:
        self._add(N_("whoever leads %(a)s loses a cube there, and whoever leads %(b)s loses a cube there; a "
                     "candidate leading both also loses 1 momentum"), a=first, b=second)

    def unpledged_electors(self) -> None:
        self._add(N_("Alabama, Louisiana and Mississippi vote for neither candidate if Kennedy leads them without "
                     "carrying them"))

    def show_hand_then_cp(self) -> None:
        self._add(N_("Kennedy shows his hand to Nixon, who then spends 3 CP"))

    def event_from_discards(self) -> None:
        self._add(N_("Nixon may take an event card from the discard pile and resolve its event"))

    def campaign_one_per_state(self) -> None:
        self._add(N_("the player spends 7 CP on campaigning, at most one cube per state"))

    def reveal_deck(self, who: Who, n: int) -> None:
        self._say(N_("turn up the top %(n)s cards of the deck one at a time; each with %(who)s's icon or both icons "
                     "is resolved for %(who)s, the others are discarded"), who, n=n)


def describe(card: int) -> Message | None:
    """The card's function in words, as one sentence (None: nothing to say)."""
    words = Describe()
    EVENTS[card](words)
    return words.sentence()


def _lines(card: int) -> list[Message]:
    """The lines of a campaign card's effect, each without its final full stop."""
    lines: list[Message] = []
    if said := describe(card):
        lines.append(message(N_("Held until Election Day, then: %(effect)s"), effect=said) if card in HELD else said)
    if card in LASTING:
        lines.append(message(LASTING[card]))
    if card in PREVENTS:
        lines.append(message(N_("From now on these events cannot be played: %(cards)s"),
                             cards=", ".join(f"#{c} {CARDS[c].name}" for c in PREVENTS[card])))
    return lines


def event_effect(card: int, stop: bool = True) -> Message | None:
    """What a campaign card's event does, without whose event it is (None: no effect of its own);
    `stop=False` leaves out the final full stop."""
    lines = _lines(card)
    closed: list[Text] = [message(_SENTENCE if m[0] == CAPITAL else _LINE, **(m[1] if m[0] == CAPITAL else {"text": m}))
                          for m in lines]
    if lines and not stop:
        closed[-1] = lines[-1]
    return message(" ".join(f"%(p{k})s" for k in range(len(closed))), **{f"p{k}": t for k, t in enumerate(closed)}) \
        if closed else None


_WHOSE = {"kennedy": (N_("Kennedy event: %(effect)s"), N_("Kennedy event: no effect of its own.")),
          "nixon": (N_("Nixon event: %(effect)s"), N_("Nixon event: no effect of its own.")),
          "both": (N_("Event for either candidate: %(effect)s"),
                   N_("Event for either candidate: no effect of its own."))}


def event_message(card: int) -> Message:
    """What a campaign card's event does, in the project's own words."""
    effect = event_effect(card)
    some, none = _WHOSE[CARDS[card].icon]
    return message(some, effect=effect) if effect else message(none)


def event_text(card: int) -> str:
    return message_text(event_message(card))


def endorsement_message(card: str) -> Message:
    region = ENDORSEMENTS[card]
    if region == "any":
        return message(N_("Endorsement in a region of the drawer's choice: removes an opposing endorsement there, "
                          "or else adds one of the drawer's."))
    return message(N_("Endorsement in the %(region)s: removes an opposing endorsement there, or else adds one of "
                      "the drawer's."), region=region)


def endorsement_text(card: str) -> str:
    return message_text(endorsement_message(card))


ISSUE_TEXT = N_("Issue: in the momentum phase its leader is rewarded by its place on the track (1st: momentum "
                "and an endorsement; 2nd: one of the two; 3rd: momentum), then loses one cube on it.")


def card_message(card: int | str) -> Message:
    """The effect text of any 1960 card as a message: a campaign card (its number), an endorsement
    card ("E1"…"E16") or an issue ("Economy", "Civil Rights", "Defense")."""
    if isinstance(card, int) and card in CARDS:
        return event_message(card)
    if card in ENDORSEMENTS:
        return endorsement_message(str(card))
    if card in ISSUES:
        return message(ISSUE_TEXT)
    raise KeyError(f"no 1960 card {card!r}: campaign cards are 1-{max(CARDS)}, endorsements E1-E16")


def card_text(card: int | str) -> str:
    """The English effect text of any 1960 card (see `card_message`)."""
    return message_text(card_message(card))


def card_label(card: int) -> str:
    """Number, name, CP and event, for choices and the hand."""
    info = CARDS[card]
    return f"#{card} {info.name} ({info.cp} CP) — {event_text(card)}"
