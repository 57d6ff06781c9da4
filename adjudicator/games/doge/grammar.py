"""The text grammar for Doge orders (e-mail lines and the web command box).

Canonical forms (what `format_order` writes):

    place san-marco 3 1          a placement: area card, then the marker values
    take dorsoduro               take the advisor and stand it in an area
    abstain                      abstain, move nothing
    abstain move castello to san-marco
    take dorsoduro no houses     (a district winner) ... and do not place the 2 houses
    houses / no houses           (tied winners, runners-up) place the houses offered, or not
    move castello to san-marco   a house move after a Quarantia tie
    pass                         no house move
    build / skip                 build the palace offered, or not
"""

from __future__ import annotations

import re

from adjudicator.engine import N_, IllegalOrder, Message, Order, Prompt, message
from adjudicator.engine.wording import reword

from .data import AREA_NAMES, AREAS

_KEYS = {a: a.replace("-", "") for a in AREAS}
_YES = {"build", "yes", "y", "b"}
_NO = {"skip", "no", "n", "pass", "no build", "dont build", "don't build", "do not build", "decline"}
_PASS = {"pass", "no", "none", "skip", "no move", "stay"}


def format_order(order: Order) -> str:
    if "card" in order:
        return f"place {order['card']} " + " ".join(str(v) for v in order["markers"])
    if "take" in order or "abstain" in order:
        if "take" in order:
            text = f"take {order['take']}"
        else:
            move = order.get("move")
            text = f"abstain move {move[0]} to {move[1]}" if move else "abstain"
        return text + (" no houses" if order.get("houses") is False else "")
    if "move" in order:
        return f"move {order['move'][0]} to {order['move'][1]}"
    if "pass" in order:
        return "pass"
    if "build" in order:
        return "build" if order["build"] else "skip"
    if set(order) == {"houses"}:
        return "houses" if order["houses"] else "no houses"
    raise ValueError(f"not a Doge order: {order!r}")


# Spanish order words (docs/games/doge.md): the verb first, then the small words of a move
SPANISH_FIRST = {"colocar": "place", "poner": "place", "tomar": "take", "coger": "take", "abstenerse": "abstain",
                 "abstencion": "abstain", "me abstengo": "abstain", "mover": "move", "pasar": "pass", "paso": "pass",
                 "casas": "houses", "sin casas": "no houses", "construir": "build", "no construir": "skip",
                 "omitir": "skip", "saltar": "skip", "si": "yes"}
SPANISH_ANYWHERE = {"hasta": "to", "desde": "from", "de": "from", "mover": "move", "sin casas": "no houses"}
VERBS = ("place", "play", "card", "take", "advisor", "send", "put", "abstain", "move", "pass", "houses", "house",
         "no", "build", "skip", "yes", "decline")


def _normalise(text: str) -> str:
    text = text.strip().lower().replace("→", " to ").replace("->", " to ").replace(">", " to ")
    text = reword(text, SPANISH_FIRST, SPANISH_ANYWHERE).lower()
    if " move " in f" {text} " and " a " in text and " to " not in text:  # `mover castello a san marco`
        text = text.replace(" a ", " to ", 1)
    text = re.sub(r"[,;:+.!]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def area_of(words: str) -> str:
    """An area from its name: spaces or hyphens, any case, or an unambiguous prefix."""
    key = re.sub(r"[\s\-_']", "", words)
    if not key:
        raise IllegalOrder(message(N_("an area name is missing")))
    exact = [a for a, k in _KEYS.items() if k == key]
    if exact:
        return exact[0]
    found = [a for a, k in _KEYS.items() if k.startswith(key)]
    if len(found) == 1:
        return found[0]
    names = ", ".join(AREA_NAMES[a] for a in (found or AREAS))
    if found:
        raise IllegalOrder(message(N_("%(words)s could mean %(names)s; write more of the name"),
                                   words=repr(words), names=names))
    raise IllegalOrder(message(N_("%(words)s is not an area; the areas are %(names)s"), words=repr(words), names=names))


def _strip_word(text: str, *words: str) -> str:
    for word in words:
        if text == word:
            return ""
        if text.startswith(word + " "):
            return text[len(word) + 1:]
    return text


def _move(text: str) -> list[str]:
    text = _strip_word(_strip_word(text, "move", "and move", "and"), "house", "a house", "one house", "1 house")
    text = _strip_word(text, "from")
    if " to " in f" {text} ":
        source, _, target = f" {text} ".partition(" to ")
        return [area_of(source.strip()), area_of(target.strip())]
    words = text.split()
    readings = []
    for cut in range(1, len(words)):
        try:
            readings.append([area_of(" ".join(words[:cut])), area_of(" ".join(words[cut:]))])
        except IllegalOrder:
            continue
    if len(readings) != 1:
        raise IllegalOrder(message(N_("write a house move as: move <from district> to <to district>")))
    return readings[0]


def _placement(text: str) -> Order:
    text = _strip_word(text, "place", "play", "card")
    match = re.search(r"\d", text)
    if match is None:
        raise IllegalOrder(message(N_("say which markers to place after the area, e.g. 'place san-marco 3 1'")))
    area_part = _strip_word(text[: match.start()].strip(), "on", "in").strip()
    for suffix in (" with", " markers", " marker"):
        if area_part.endswith(suffix):
            area_part = area_part[: -len(suffix)].strip()
    rest = text[match.start():]
    if re.fullmatch(r"[\d\s]+", rest) is None:
        raise IllegalOrder(message(N_("after the area write only marker values (0-3), e.g. 'place san-marco 3 1'")))
    markers = sorted((int(c) for c in rest if c.isdigit()), reverse=True)
    return {"card": area_of(area_part), "markers": markers}


_NO_HOUSES = ("no houses", "without houses", "keep houses", "no house")


def _advisor(text: str) -> Order:
    # A district winner may add 'no houses' to give up the 2 houses he may place (rules version 2).
    for suffix in _NO_HOUSES:
        if text == suffix or text.endswith(" " + suffix):
            rest = text[: -len(suffix)].strip() or "abstain"
            return {**_advisor(rest), "houses": False}
    if text.startswith("abstain"):
        rest = _strip_word(text, "abstain")
        return {"abstain": True, "move": _move(rest)} if rest else {"abstain": True}
    rest = _strip_word(text, "take", "advisor", "place", "send", "put")
    rest = _strip_word(_strip_word(rest, "advisor", "it"), "to", "in", "into", "on")
    return {"take": area_of(rest)}


_PLACE_HOUSES = {"houses", "house", "place", "place houses", "place house", "place them", "place it", "yes", "y"}


def _place_houses(text: str) -> Order:
    # Tied winners and runners-up may place their houses (rules version 3); the words mirror the winner's.
    if text in _PLACE_HOUSES:
        return {"houses": True}
    if text in _NO_HOUSES or text in {"no", "n", "skip", "pass", "decline"}:
        return {"houses": False}
    raise IllegalOrder(message(N_("answer 'houses' to place them or 'no houses'")))


def _house_move(text: str) -> Order:
    if text in _PASS:
        return {"pass": True}
    return {"move": _move(text)}


def _build(text: str) -> Order:
    if text in _YES or text.startswith("build "):
        return {"build": True}
    if text in _NO:
        return {"build": False}
    raise IllegalOrder(message(N_("answer 'build' or 'skip'")))


_PARSERS = {
    "placement": _placement,
    "district-advisor": _advisor,
    "quarantia-advisor": _advisor,
    "house-move": _house_move,
    "build": _build,
    "place-houses": _place_houses,
}


def examples(prompt: Prompt, count: int = 4) -> list[str]:
    choices = prompt.choices
    if len(choices) <= count:
        picked = choices
    else:
        step = (len(choices) - 1) / (count - 1)
        picked = [choices[round(i * step)] for i in range(count)]
    return [format_order(c) for c in picked]


def parse_order(text: str, prompt: Prompt) -> Order:
    line = _normalise(text)
    parser = _PARSERS.get(prompt.kind)
    if parser is None:
        raise IllegalOrder(message(N_("no orders of kind %(kind)s are expected"), kind=repr(prompt.kind)))
    try:
        order = parser(line)
    except IllegalOrder as exc:
        raise IllegalOrder(message(N_("could not read %(text)s: %(problem)s%(hint)s"), text=repr(text.strip()),
                                   problem=exc.message or str(exc), hint=_hint(prompt))) from None
    if not prompt.allows(order):
        raise IllegalOrder(message(N_("%(order)s is not a legal %(kind)s order now%(hint)s"),
                                   order=repr(format_order(order)), kind=prompt.kind, hint=_hint(prompt)))
    return order


def _hint(prompt: Prompt) -> Message:
    """The examples a refusal shows: written only for a refused order (a mail's every order paid
    for four formatted examples before, 2 to 3 % of an order mail's drain)."""
    return message(N_("; for example: %(examples)s"), examples=" | ".join(examples(prompt)))


def order_problem(text: str) -> str | None:
    """Why `text` is no Doge order in any decision: every kind's reader, without the legality check."""
    line = _normalise(text)
    for parser in _PARSERS.values():
        try:
            parser(line)
        except IllegalOrder:
            continue
        return None
    return ("Doge orders look like `place san-marco 3 1`, `take dorsoduro`, `abstain`, "
            "`move castello to san-marco`, `pass`, `houses`, `no houses`, `build` or `skip`")


GRAMMAR_HELP = """\
**Doge orders** (one per line; case and spacing do not matter; write area names with spaces or
hyphens, or shorten them while unambiguous: `san marco`, `san-marco`, `san m`, `dors`, `q`):

- Ballot placement: `place <area> <markers>` - e.g. `place san marco 3 1` puts your 3 and 1
  markers on the San Marco card (`san-marco 3 1` works too).
- District winner: `take <area>` stands the district's advisor in that area (not its own
  district); `abstain`, or `abstain move <from> to <to>` with one end in the district won. Your
  2 houses are then placed in the district unless you add `no houses` (`abstain no houses`).
- Tied district winners and the runner-up(s): `houses` places the houses you may place in the
  district, `no houses` gives them up.
- Quarantia winner or runner-up: `take <district>`, `abstain`, or `abstain move <from> to <to>`.
- House move after a Quarantia tie: `move <from> to <to>`, or `pass`.
- Palace offer: `build` or `skip`.
"""


def grammar_help() -> str:
    return GRAMMAR_HELP
