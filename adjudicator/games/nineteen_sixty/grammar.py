"""The order grammar: one short line per decision, forgiving about case, '#', commas and names."""

from __future__ import annotations

import re
from typing import Any

from adjudicator.engine import N_, IllegalOrder, Prompt, canonical_json, message
from adjudicator.engine.wording import reword

from .data import CARDS, ISSUES, REGIONS, SEATS, STATES, by_name

NAMES = by_name()
ISSUE_ALIASES = {"economy": "Economy", "econ": "Economy", "civil rights": "Civil Rights", "civil": "Civil Rights",
                 "civilrights": "Civil Rights", "cr": "Civil Rights", "defense": "Defense", "defence": "Defense"}
REGION_ALIASES = {r.lower(): r for r in REGIONS}
SEAT_ALIASES = {"kennedy": "kennedy", "k": "kennedy", "jfk": "kennedy", "nixon": "nixon", "n": "nixon"}

GRAMMAR_HELP = """\
One order per line; case, `#` and commas do not matter; states by name or postal code.

- `play 23 cp`, `play 23 cp preempt` (2 momentum), `play 23 event`, `play candidate`, `pass`
- Vice-President option: `play 39 cp discard 12` (also `play 39 cp preempt discard 12`,
  `play 39 event discard 12`) plays the VP card set aside and discards card 12 from the hand
- spending CP: `campaign new york 2` (travel is paid automatically), `travel texas`, `advertise`,
  `position economy 2`, `done`
- `media west`, `trigger` / `no trigger`, `first nixon`, `shift 1` / `shift 2` / `shift none`,
  `award momentum` / `award endorsement`, `endorse south`
- `strategy 12 40` (face-down cards), `debate 35`, `side kennedy`, `resolve 7`
- events: `support ohio 2`, `remove texas 1`, `issue defense`, `region east`, `state maryland`,
  `track defense, economy, civil rights`, `take 42`, `discard 12`, `done`

Example e-mail for playing card 23 for 3 CP and campaigning 2 in New York and 1 in Pennsylvania:
the whole turn in one line, `play 23 cp; campaign new york 2; campaign pennsylvania 1` (applied
whole or not at all); or three lines in one mail; or one line a mail, each reply showing the next
decision and its deadline.
"""


# Spanish order words (docs/games/1960.md): the first words of a line, then fixed words after it
SPANISH_FIRST = {
    "jugar": "play", "juego": "play", "pasar": "pass", "paso": "pass", "hacer campana": "campaign",
    "campana": "campaign", "viajar": "travel", "viaje": "travel", "publicidad": "advertise",
    "anunciar": "advertise", "posicionar": "position", "posicion": "position", "listo": "done",
    "terminar": "done", "terminado": "done", "medios": "media", "no activar": "no trigger",
    "activar": "trigger", "primero": "first", "desplazar": "shift", "otorgar": "award", "respaldar": "endorse",
    "estrategia": "strategy", "lado": "side", "resolver": "resolve", "apoyo": "support", "apoyar": "support",
    "quitar": "remove", "asunto": "issue", "tema": "issue", "region": "region", "orden": "track",
    "tomar": "take", "coger": "take", "descartar": "discard",
}
SPANISH_ANYWHERE = {"pc": "cp", "evento": "event", "anticipar": "preempt", "anticipado": "preempt",
                    "candidato": "candidate", "descartando": "discard", "ninguno": "none", "momento": "momentum",
                    "respaldo": "endorsement", "economia": "economy", "derechos civiles": "civil rights",
                    "defensa": "defense", "oeste": "west", "medio oeste": "midwest", "este": "east", "sur": "south"}
VERBS = ("play", "pass", "campaign", "travel", "advertise", "position", "done", "stop", "end", "media", "trigger",
         "no", "first", "shift", "award", "endorse", "strategy", "debate", "side", "resolve", "support", "remove",
         "issue", "region", "state", "track", "take", "discard")


def _state_name(abbr: str) -> str:
    return STATES[abbr].name


def format_order(order: Any) -> str:  # noqa: C901 - one branch per order kind
    o = order
    if "play" in o:
        if o["play"] == "candidate":
            return "play candidate"
        return (f"play {o['play']} {o['as']}" + (" preempt" if o.get("preempt") else "")
                + (f" discard {o['discard']}" if "discard" in o else ""))
    if "pass" in o:
        return "pass"
    if "campaign" in o:
        return f"campaign {_state_name(o['campaign'])} {o['n']}"
    if "travel" in o:
        return f"travel {_state_name(o['travel'])}"
    if "advertise" in o:
        return "advertise"
    if "position" in o:
        return f"position {o['position'].lower()} {o['n']}"
    if "done" in o:
        return "done"
    if "media" in o:
        return f"media {o['media'].lower()}"
    if "trigger" in o:
        return "trigger" if o["trigger"] else "no trigger"
    if "first" in o:
        return f"first {o['first']}"
    if "shift" in o:
        return f"shift {o['shift'] or 'none'}"
    if "award" in o:
        return f"award {o['award']}"
    if "endorse" in o:
        return f"endorse {o['endorse'].lower()}"
    if "strategy" in o:
        return "strategy " + (" ".join(str(c) for c in o["strategy"]) or "none")
    if "debate" in o:
        return f"debate {o['debate']}"
    if "side" in o:
        return f"side {o['side']}"
    if "support" in o:
        return f"support {_state_name(o['support'])} {o['n']}"
    if "remove" in o:
        return f"remove {_state_name(o['remove'])} {o['n']}"
    if "resolve" in o:
        return f"resolve {o['resolve']}"
    if "issue" in o:
        return f"issue {o['issue'].lower()}"
    if "region" in o:
        return f"region {o['region'].lower()}"
    if "state" in o:
        return f"state {_state_name(o['state'])}"
    if "track" in o:
        return "track " + ", ".join(i.lower() for i in o["track"])
    if "take" in o:
        return f"take {o['take']}"
    if "discard" in o:
        return f"discard {o['discard']}"
    raise ValueError(f"unknown order {order!r}")


def _state(words: list[str]) -> str:
    name = " ".join(words)
    if name not in NAMES:
        raise IllegalOrder(message(N_("no state called %(name)s; write a state's name or postal code, e.g. `new york` "
                                      "or `ny`"), name=repr(name)))
    return NAMES[name]


def _issue(words: list[str]) -> str:
    name = " ".join(words)
    if name not in ISSUE_ALIASES:
        raise IllegalOrder(message(N_("no issue called %(name)s; the issues are economy, civil rights and defense"),
                                   name=repr(name)))
    return ISSUE_ALIASES[name]


def _region(words: list[str]) -> str:
    name = " ".join(words)
    if name not in REGION_ALIASES:
        raise IllegalOrder(message(N_("no region called %(name)s; the regions are west, midwest, east and south"),
                                   name=repr(name)))
    return REGION_ALIASES[name]


def _seat(words: list[str]) -> str:
    name = " ".join(words)
    if name not in SEAT_ALIASES:
        raise IllegalOrder(message(N_("write kennedy or nixon, not %(name)s"), name=repr(name)))
    return SEAT_ALIASES[name]


def _int(word: str) -> int:
    if not word.isdigit():
        raise IllegalOrder(message(N_("expected a number, not %(word)s"), word=repr(word)))
    return int(word)


def _name_and_count(words: list[str]) -> tuple[list[str], int]:
    if words and words[-1].isdigit():
        return words[:-1], int(words[-1])
    return words, 1


def read(text: str) -> Any:  # noqa: C901 - one branch per verb
    line = reword(text, SPANISH_FIRST, SPANISH_ANYWHERE).lower().replace("#", " ").replace(",", " ")
    line = re.sub(r"\s+", " ", line).strip().rstrip(".")
    words = line.split(" ") if line else []
    if not words:
        raise IllegalOrder(message(N_("empty order; %(help)s"), help=GRAMMAR_HELP.splitlines()[0]))
    verb, rest = words[0], words[1:]
    if verb == "play":
        if rest == ["candidate"]:
            return {"play": "candidate"}
        if len(rest) >= 2 and rest[1] in ("cp", "event", "ops"):
            order: dict[str, Any] = {"play": _int(rest[0]), "as": "event" if rest[1] == "event" else "cp"}
            tail = rest[2:]
            if tail[:1] == ["preempt"]:
                order["preempt"] = True
                tail = tail[1:]
            if len(tail) == 2 and tail[0] == "discard":
                order["discard"] = _int(tail[1])
            elif tail:
                raise IllegalOrder(message(N_("after `play 23 cp` only `preempt` may follow "
                                              "(or, for a Vice-President card, `discard 12`)")))
            return order
        raise IllegalOrder(message(N_("write `play 23 cp`, `play 23 cp preempt`, `play 23 event` or `play candidate`")))
    if verb == "pass":
        return {"pass": True}
    if verb in ("campaign", "support", "remove"):
        name, n = _name_and_count(rest)
        return {verb: _state(name), "n": n}
    if verb == "travel":
        return {"travel": _state(rest)}
    if verb in ("advertise", "advertising"):
        return {"advertise": True}
    if verb == "position":
        name, n = _name_and_count(rest)
        return {"position": _issue(name), "n": n}
    if verb in ("done", "stop", "end"):
        return {"done": True}
    if verb == "media":
        return {"media": _region(rest)}
    if verb == "trigger":
        return {"trigger": True}
    if verb == "no" and rest == ["trigger"]:
        return {"trigger": False}
    if verb == "first":
        return {"first": _seat(rest)}
    if verb == "shift":
        return {"shift": 0 if rest in (["none"], ["0"], []) else _int(rest[0])}
    if verb == "award" and rest and rest[0] in ("momentum", "endorsement"):
        return {"award": rest[0]}
    if verb == "endorse":
        return {"endorse": _region(rest)}
    if verb == "strategy":
        return {"strategy": [] if rest in (["none"], []) else sorted(_int(w) for w in rest)}
    if verb == "debate":
        return {"debate": _int(rest[0]) if rest else -1}
    if verb == "side":
        return {"side": _seat(rest)}
    if verb == "resolve" and rest:
        return {"resolve": _int(rest[0])}
    if verb == "issue":
        return {"issue": _issue(rest)}
    if verb == "region":
        return {"region": _region(rest)}
    if verb == "state":
        return {"state": _state(rest)}
    if verb == "track":
        return {"track": _track(rest)}
    if verb == "take" and rest:
        return {"take": _int(rest[0])}
    if verb == "discard" and rest:
        return {"discard": _int(rest[0])}
    raise IllegalOrder(message(N_("cannot read %(text)s. %(help)s"), text=repr(text.strip()),
                               help=GRAMMAR_HELP.split("\n\n")[0]))


def _track(words: list[str]) -> list[str]:
    joined = " ".join(words).replace("civil rights", "civil-rights")
    issues = [_issue(w.replace("-", " ").split()) for w in joined.split()]
    if sorted(issues) != sorted(ISSUES):
        raise IllegalOrder(message(N_("name each issue once, top first: `track defense, economy, civil rights`")))
    return issues


def grammar_help() -> str:
    return GRAMMAR_HELP


def parse_order(text: str, prompt: Prompt) -> Any:
    order = read(text)
    if prompt.allows(order):
        return order
    # the legal orders are listed by the caller (the reply's list, the page's form), with the closest first
    raise IllegalOrder(message(N_("`%(order)s` is not legal now. %(prompt)s"), order=format_order(order),
                               prompt=prompt.message or prompt.text))


def order_problem(text: str) -> str | None:
    """Why `text` is no 1960 order in any decision: `read` parses without looking at the prompt."""
    if not text.strip():
        return "the line is empty"
    try:
        order = read(text)
    except IllegalOrder as exc:
        if str(exc).startswith("cannot read"):  # no verb it knows: say which ones there are
            return ("1960 orders start with a verb such as `play`, `pass`, `campaign`, `travel`, `advertise`, "
                    "`position`, `media`, `strategy`, `debate`, `support`, `remove` or `done`")
        return str(exc)
    # a card that does not exist can never be played (`LATER play: play 999 cp` is refused at once)
    cards = [order.get(k) for k in ("play", "discard", "take", "debate")] + list(order.get("strategy", []))
    missing = sorted({c for c in cards if isinstance(c, int) and c not in CARDS and c != -1})
    if missing:
        return f"there is no card {missing[0]}: the cards are numbered 1 to {max(CARDS)}"
    return None


__all__ = ["GRAMMAR_HELP", "format_order", "order_problem", "parse_order", "read", "canonical_json", "SEATS"]
