"""Plain-English effect texts for every 1960 card, written here from the coded effects (effects.py
and modifiers.py), never copied from a printed card: for the hand, the choices, the log and the
public page."""

from __future__ import annotations

from typing import Any

from .data import CARDS, ENDORSEMENTS, ISSUES, STATES
from .effects import ELECTION_EVENTS, EVENTS
from .modifiers import PREVENTS

_WHO = {"kennedy": "Kennedy", "nixon": "Nixon", "P": "the player", "opp": "the opponent",
        "fifty": "whoever has more cubes in Alaska and Hawaii together"}
_PICK = {"swing": "a state the opponent leads without carrying it", "md_va": "Maryland or Virginia",
         "all": "any state", "own_media": "a region where they have media cubes", None: ""}

# Lasting effects kept as rule modifiers (modifiers.py, debate.py, play.py): one line per card.
LASTING: dict[int, str] = {
    2: "For the rest of the turn Nixon pays 1 momentum for each campaign action.",
    4: "For the rest of the turn Nixon's cards are worth 1 more CP (at most 5).",
    19: "For the rest of the turn that candidate may not campaign in the South.",
    20: "For the rest of the turn Nixon may not campaign in the Midwest.",
    26: "For the rest of the turn Kennedy campaigns with 1 more CP per card and travels free.",
    30: "For the rest of the turn Kennedy may not campaign in the South.",
    31: "For the rest of the turn Kennedy draws once more after each failed support check.",
    34: "In the debates Nixon must reveal his debate card before Kennedy chooses his.",
    35: "In the debates Kennedy adds 1 to his total on each issue.",
    44: "For the rest of the turn Kennedy may not spend momentum.",
    54: "For the rest of the turn Kennedy's cards are worth 1 more CP (at most 5).",
    55: "For the rest of the turn every cube Nixon adds by campaigning needs a support check.",
    65: "For the rest of the turn Nixon may not spend momentum.",
    69: "For the rest of the turn Kennedy's cards are worth 2 fewer CP (at least 1).",
    74: "For the rest of the turn Nixon may not campaign in states where Kennedy has support.",
    76: "For the rest of the turn Kennedy gains 1 momentum whenever Nixon plays a card other than to campaign.",
    79: "For the rest of the turn the player travels free and campaigns without support checks.",
    81: "For the rest of the turn Kennedy may preempt events without paying momentum.",
    85: "For the rest of the turn Nixon pays 1 momentum to play each event from his hand.",
    87: "For the rest of the turn Kennedy may not campaign in the West or the Midwest.",
    88: "For the rest of the turn Kennedy's cards are worth 2 fewer CP when positioning on issues.",
}


def _who(spec: str) -> str:
    if spec in _WHO:
        return _WHO[spec]
    kind, _, key = spec.partition(":")
    if kind == "lead":
        return f"whoever leads {key}"
    if kind == "media":
        return f"whoever leads the {key} media"
    if kind == "state":
        return f"whoever leads {STATES[key].name}"
    return spec


def _names(abbrs: list[str]) -> str:
    names = [STATES[a].name for a in abbrs]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _where(spec: Any) -> str:
    kind = spec[0]
    if kind == "any":
        return "any states"
    if kind == "regions":
        return " and ".join(f"the {r}" for r in spec[1])
    if kind == "states":
        return _names(spec[1])
    if kind == "empty":
        return "states where nobody has support"
    if kind == "ev":
        within = f" in the {' or '.join(spec[3])}" if spec[3] else ""
        upper = f"at most {spec[2]}" if spec[1] == 0 else f"at least {spec[1]}" if spec[2] >= 99 else f"{spec[1]} to {spec[2]}"
        return f"states worth {upper} electoral votes{within}"
    if kind == "picked":
        return "the chosen state"
    if kind == "picked_region":
        return "the chosen region"
    return str(kind)


def _state(abbr: str) -> str:
    return "the chosen state" if abbr == "picked" else STATES[abbr].name


def _cubes(n: int) -> str:
    return f"{n} cube" + ("" if n == 1 else "s")


def step_text(step: Any) -> str:  # noqa: C901 - one line per step of the vocabulary
    """One step of a coded event in words ('' for a step that only sets up a lasting effect)."""
    op = step[0]
    if op == "support":
        cap = "" if step[3] >= step[2] else f", at most {step[3]} per state"
        return f"{_who(step[1])} adds {_cubes(step[2])} of support in {_where(step[4])}{cap}"
    if op == "remove":
        cap = "" if step[4] >= step[3] else f", at most {step[4]} per state"
        victim = "their own" if step[2] == step[1] else f"{_who(step[2])}'s"
        return f"{_who(step[1])} removes {_cubes(step[3])} of {victim} support in {_where(step[5])}{cap}"
    if op == "lose":
        where = "the state where their candidate token stands" if step[3] == "token" else STATES[step[3]].name
        return f"{_who(step[1])} loses {_cubes(step[2])} of support in {where}"
    if op == "momentum":
        return f"{_who(step[1])} {'gains' if step[2] > 0 else 'loses'} {abs(step[2])} momentum"
    if op == "issue_up":
        return f"{step[1]} moves up {step[2]} place{'s' * (step[2] > 1)} on the issue track"
    if op == "issue":
        issue = "the chosen issue" if step[2] == "picked" else step[2]
        return f"{_who(step[1])} {'gains' if step[3] > 0 else 'loses'} {_cubes(abs(step[3]))} on {issue}"
    if op == "issue_each":
        return f"{_who(step[1])} loses {_cubes(-step[2])} on every issue"
    if op == "issue_split":
        verb = "adds" if step[3] == "gain" else "removes"
        return f"{_who(step[1])} {verb} {_cubes(step[2])} on issues, one at a time, spread as they choose"
    if op == "token":
        return f"{_who(step[1])}'s candidate token moves to {_state(step[2])} free"
    if op == "media":
        where = f"the {step[3]}" if step[3] else "regions of their choice"
        return f"{_who(step[1])} places {_cubes(step[2])} of media support in {where}"
    if op == "media_remove":
        return f"{_who(step[1])} removes {_cubes(step[2])} of the opponent's media support"
    if op == "endorse":
        return f"{_who(step[1])} gains an endorsement in a region of their choice"
    if op == "pick_issue":
        return f"{_who(step[1])} chooses an issue"
    if op == "pick_state":
        return f"{_who(step[1])} chooses {_PICK.get(step[2], 'a state')}"
    if op == "pick_region":
        return f"{_who(step[1])} chooses {_PICK.get(step[2]) or 'a region'}"
    if op == "retrieve":
        card = f"{CARDS[step[2]].name} (#{step[2]})" if step[2] else "a card"
        return f"{_who(step[1])} may take {card} from the discard pile into their hand"
    if op == "draw":
        return f"{_who(step[1])} draws {step[2]} cards"
    if op == "cycle":
        return f"{_who(step[1])} may discard any number of cards and draw as many"
    if op == "exhaust":
        return f"{_who(step[1])}'s candidate card is exhausted"
    if op == "restore":
        return f"{_who(step[1])}'s candidate card is made ready again"
    if op == "gm":
        return (f"whoever leads more states in the {step[1]} gains 1 momentum and a cube in each of "
                "its states where nobody has support")
    if op == "checks":
        return f"{_who(step[1])} makes {step[2]} support checks in {_state(step[3])}"
    if op == "mark":
        return ""
    if op == "if":
        cond = step[1]
        when = (f"{_who(cond[1])} leads {cond[2]}" if cond[0] == "leads"
                else f"{_who(cond[1])} leads at least {cond[2]} issues")
        return f"if {when}: " + ", then ".join(t for t in map(step_text, step[2]) if t)
    if op == "gallup":
        return f"{_who(step[1])} reorders the issue track as they like"
    if op == "match_momentum":
        return "the player gains momentum until they have as much as the opponent"
    if op == "medal":
        return (f"whoever leads {step[1]} loses a cube there, and whoever leads {step[2]} loses a cube there; "
                "a candidate leading both also loses 1 momentum")
    if op == "unpledged":
        return ("Alabama, Louisiana and Mississippi vote for neither candidate if Kennedy "
                "leads them without carrying them")
    if op == "opposition":
        return "Kennedy shows his hand to Nixon, who then spends 3 CP"
    if op == "tricky":
        return "Nixon may take an event card from the discard pile and resolve its event"
    if op == "whistlestop":
        return "the player spends 7 CP on campaigning, at most one cube per state"
    if op == "reveal":
        return (f"turn up the top {step[2]} cards of the deck one at a time; each with {_who(step[1])}'s "
                f"icon or both icons is resolved for {_who(step[1])}, the others are discarded")
    return op.replace("_", " ")


def _sentence(steps: list[Any]) -> str:
    parts = [t for t in map(step_text, steps) if t]
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "." if text else ""


def event_text(card: int) -> str:
    """What a campaign card's event does, in the project's own words."""
    info = CARDS[card]
    lines = [_sentence(EVENTS.get(card, []))]
    if card in ELECTION_EVENTS:
        lines.append("Held until Election Day, then: " + _sentence(ELECTION_EVENTS[card]))
    if card in LASTING:
        lines.append(LASTING[card])
    if card in PREVENTS:
        lines.append("From now on these events cannot be played: "
                     + ", ".join(f"#{c} {CARDS[c].name}" for c in PREVENTS[card]) + ".")
    text = " ".join(t for t in lines if t)
    whose = {"kennedy": "Kennedy event", "nixon": "Nixon event", "both": "Event for either candidate"}[info.icon]
    return f"{whose}: {text}" if text else f"{whose}: no effect of its own."


def endorsement_text(card: str) -> str:
    region = ENDORSEMENTS[card]
    where = "a region of the drawer's choice" if region == "any" else f"the {region}"
    return f"Endorsement in {where}: removes an opposing endorsement there, or else adds one of the drawer's."


ISSUE_TEXT = ("Issue: in the momentum phase its leader is rewarded by its place on the track (1st: momentum "
              "and an endorsement; 2nd: one of the two; 3rd: momentum), then loses one cube on it.")


def card_text(card: int | str) -> str:
    """The effect text of any 1960 card: a campaign card (its number), an endorsement card
    ("E1"…"E16") or an issue ("Economy", "Civil Rights", "Defense")."""
    if isinstance(card, int) and card in CARDS:
        return event_text(card)
    if card in ENDORSEMENTS:
        return endorsement_text(str(card))
    if card in ISSUES:
        return ISSUE_TEXT
    raise KeyError(f"no 1960 card {card!r}: campaign cards are 1-{max(CARDS)}, endorsements E1-E16")


def card_label(card: int) -> str:
    """Number, name, CP and event, for choices and the hand."""
    info = CARDS[card]
    return f"#{card} {info.name} ({info.cp} CP) — {event_text(card)}"
