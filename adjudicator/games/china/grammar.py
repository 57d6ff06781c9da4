"""The order grammar for e-mail and the web command box.

    play red red to Wei: house, house      exchange red for deck      pass
    space wei-3                            draw deck / draw green

Forgiving: any case, extra spaces and commas, colour and piece prefixes ("r", "pur", "h", "em"),
region names or ids and their unique prefixes ("Ch'in", "chin", "qin", "zh"), counts ("2 houses").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from adjudicator.engine import N_, IllegalOrder, Message, Order, Prompt, message
from adjudicator.engine.wording import reword

from .boardfile import BOARDS, SIDES, load_board
from .components import CARD_COLOURS

PIECES = ("emissary", "fortification", "house")
CARD_ALIASES = {"violet": "purple", "lilac": "purple", "lila": "purple"}
PIECE_ALIASES = {"fort": "fortification", "fortress": "fortification", "envoy": "emissary"}
DECK_WORDS = {"deck", "decktop", "topofdeck", "top", "pile", "drawpile", "thedeck", "stack"}
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "a": 1, "an": 1}
SHOWN = 12  # choices listed in an error message
# Spanish order words (docs/games/china.md): the verb, then colours, pieces and the small words
SPANISH_FIRST = {"jugar": "play", "juego": "play", "cambiar": "exchange", "intercambiar": "exchange",
                 "descartar": "discard", "pasar": "pass", "paso": "pass", "espacio": "space", "casilla": "space",
                 "robar": "draw", "tomar": "draw", "coger": "draw"}
SPANISH_ANYWHERE = {"rojo": "red", "roja": "red", "rojas": "red", "rojos": "red", "verde": "green", "verdes": "green",
                    "naranja": "orange", "naranjas": "orange", "morado": "purple", "morada": "purple",
                    "morados": "purple", "moradas": "purple", "amarillo": "yellow", "amarilla": "yellow",
                    "amarillos": "yellow", "amarillas": "yellow", "casa": "house", "casas": "houses",
                    "emisario": "emissary", "emisarios": "emissaries", "fortificacion": "fortification",
                    "fortificaciones": "fortifications", "fortaleza": "fortification", "en": "in", "por": "for",
                    "mazo": "deck", "baraja": "deck", "dos": "two", "tres": "three", "una": "one"}
VERBS = ("play", "exchange", "swap", "change", "trade", "discard", "pass", "space", "house", "fortification",
         "build", "place", "draw", "take")


def _line(text: str) -> str:
    """An order line as the readers take it: Spanish words in English, lower case, single spaces."""
    text = reword(text.replace("’", "'"), SPANISH_FIRST, SPANISH_ANYWHERE)
    return " ".join(text.strip().lower().split())


@lru_cache(maxsize=1)
def region_names() -> dict[str, str]:
    """Region id -> printed name, from the built-in boards (both sides share their regions)."""
    names: dict[str, str] = {}
    for side in SIDES:
        names.update(load_board(side).names)
    return names


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _pick(word: str, options: list[str], what: str, aliases: dict[str, str] | None = None) -> str:
    """An exact option or alias, else the only option starting with `word`."""
    key = _norm(word)
    table = {_norm(o): o for o in options}
    table.update({_norm(a): o for a, o in (aliases or {}).items() if o in options})
    if key in table:
        return table[key]
    hits = sorted({o for k, o in table.items() if key and k.startswith(key)})
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise IllegalOrder(message(N_("%(word)s could be %(hits)s: write more of the %(what)s"), word=repr(word),
                                   hits=", ".join(hits), what=message(what)))
    raise IllegalOrder(message(N_("%(word)s is not a %(what)s; write one of: %(options)s"), word=repr(word),
                               what=message(what), options=", ".join(options)))


# formatting -------------------------------------------------------------------------------------

def format_order(order: Order) -> str:
    if not isinstance(order, dict):
        raise ValueError(f"not a China order: {order!r}")
    if "play" in order:
        region = region_names().get(order["region"], order["region"])
        return f"play {' '.join(order['play'])} to {region}: {', '.join(order['pieces'])}"
    if "exchange" in order:
        return f"exchange {order['exchange']} for {order['take']}"
    if "pass" in order:
        return "pass"
    if "space" in order:
        return f"space {order['space']}"
    if "draw" in order:
        return f"draw {order['draw']}"
    raise ValueError(f"not a China order: {order!r}")


# parsing ----------------------------------------------------------------------------------------

PLAY = re.compile(r"^(?:play\s+)?(?P<cards>.+?)\s+(?:to|in|into|on|at)\s+(?P<region>[^:]+?)\s*"
                  r"(?::|with|-|;)\s*(?P<pieces>.+)$")
EXCHANGE = re.compile(r"^(?:exchange|swap|change|trade|discard)\s+(?P<card>[a-z']+)\s*[,;]?\s*"
                      r"(?:for|and\s+take|take|and\s+draw|draw|->|with)?\s*(?P<take>.+)$")


def parse_order(text: str, prompt: Prompt) -> Order:
    line = _line(text)
    if not line:
        raise IllegalOrder(message(N_("empty order. %(hint)s"), hint=_choices_hint(prompt)))
    if prompt.kind == "turn":
        order = _parse_turn(line, prompt)
    elif prompt.kind == "space":
        order = _parse_space(line, prompt)
    elif prompt.kind == "draw":
        order = _parse_draw(line, prompt)
    else:
        raise IllegalOrder(message(N_("no orders of kind %(kind)s in China"), kind=prompt.kind))
    if not prompt.allows(order):  # the caller lists the legal orders, the closest first
        raise IllegalOrder(message(N_("`%(order)s` is not legal now."), order=format_order(order)))
    return order


def _parse_turn(line: str, prompt: Prompt) -> dict[str, Any]:
    if line in ("pass", "pass turn"):
        return {"pass": True}
    match = EXCHANGE.match(line)
    if match:
        card = _pick(match["card"], CARD_COLOURS, N_("card colour"), CARD_ALIASES)
        return {"exchange": card, "take": _source(match["take"])}
    match = PLAY.match(line)
    if not match:
        raise IllegalOrder(message(N_("write `play red red to Wei: house, house`, `exchange red for deck` "
                                      "(or `for green`, a face-up card) or `pass`. %(hint)s"),
                                   hint=_choices_hint(prompt)))
    cards = _counted(match["cards"], CARD_COLOURS, N_("card colour"), CARD_ALIASES)
    regions = sorted({c["region"] for c in prompt.choices if "region" in c} | set(region_names()))
    aliases = {region_names()[r]: r for r in regions if r in region_names()}
    region = _pick(match["region"], regions, N_("region"), aliases)
    pieces = _counted(match["pieces"].replace("fortified house", "fortification house"), list(PIECES),
                      N_("piece (house, emissary, fortification)"), PIECE_ALIASES)
    return {"play": sorted(cards), "region": region, "pieces": sorted(pieces)}


def _counted(text: str, options: list[str], what: str, aliases: dict[str, str]) -> list[str]:
    """Words like "red, red", "2 red", "house and emissary" into a list of options."""
    found: list[str] = []
    count = 1
    for word in re.split(r"[\s,+&/]+|\band\b", text):
        if not word:
            continue
        if word.isdigit() or word in NUMBER_WORDS:
            count = int(word) if word.isdigit() else NUMBER_WORDS[word]
            continue
        found += [_pick_plural(word, options, what, aliases)] * count
        count = 1
    if not found:
        raise IllegalOrder(message(N_("name at least one %(what)s"), what=message(what)))
    return found


def _pick_plural(word: str, options: list[str], what: str, aliases: dict[str, str]) -> str:
    """Like _pick, also reading plurals (houses, emissaries)."""
    try:
        return _pick(word, options, what, aliases)
    except IllegalOrder:
        for single in (word[:-3] + "y" if word.endswith("ies") else "", word[:-1] if word.endswith("s") else ""):
            if single:
                try:
                    return _pick(single, options, what, aliases)
                except IllegalOrder:
                    pass
        raise


def _source(text: str) -> str:
    word = _norm(re.sub(r"\b(the|a|face[\s-]?up|card|from)\b", "", text))
    if word in DECK_WORDS or word.startswith("deck"):
        return "deck"
    return _pick(word, CARD_COLOURS, N_("face-up card colour (or deck)"), CARD_ALIASES)


def _parse_space(line: str, prompt: Prompt) -> dict[str, Any]:
    body = re.sub(r"^(space|house|fortification|fortified house|fort|at|on|build|place)\b\s*", "", line)
    body = re.sub(r"^(at|on)\b\s*", "", body)
    key = _norm(body)
    names = region_names()
    for choice in prompt.choices:
        space = choice["space"]
        region, _, number = space.rpartition("-")
        keys = {_norm(space), number, _norm(names.get(region, region)) + number}
        if key in keys:
            return {"space": space}
    spaces = ", ".join(c["space"] for c in prompt.choices)
    raise IllegalOrder(message(N_("write `space ID` with one of the free spaces: %(spaces)s"), spaces=spaces))


def _parse_draw(line: str, prompt: Prompt) -> dict[str, Any]:
    body = re.sub(r"^(draw|take)\b\s*", "", line)
    return {"draw": _source(body or "deck")}


def order_problem(text: str) -> str | None:
    """Why `text` is no China order in any decision (None: it may be one).

    The same readers as `parse_order`, without the prompt: any region name is let through (an
    installed board may name its regions and spaces freely), and so is `space <anything>`."""
    line = _line(text)
    if not line:
        return "the line is empty"
    for reads in (_could_be_turn, _could_be_space, _could_be_draw):
        try:
            if reads(line):
                return None
        except IllegalOrder:
            continue
    return ("China orders look like `play red red to Wei: house, house`, `exchange red for deck`, "
            "`pass`, `space wei-3` or `draw deck`")


def _could_be_turn(line: str) -> bool:
    if line in ("pass", "pass turn"):
        return True
    match = EXCHANGE.match(line)
    if match:  # parse_order reads such a line as an exchange or not at all
        _pick(match["card"], CARD_COLOURS, N_("card colour"), CARD_ALIASES)
        _source(match["take"])
        return True
    match = PLAY.match(line)
    if not match:
        return False
    _counted(match["cards"], CARD_COLOURS, N_("card colour"), CARD_ALIASES)
    _counted(match["pieces"].replace("fortified house", "fortification house"), list(PIECES), N_("piece"),
             PIECE_ALIASES)
    return True


def _could_be_space(line: str) -> bool:
    if re.match(r"space\s+\S", line):
        return True
    body = re.sub(r"^(space|house|fortification|fortified house|fort|at|on|build|place)\b\s*", "", line)
    key = _norm(re.sub(r"^(at|on)\b\s*", "", body))
    # the built-in boards number their spaces (`wei-3`, `3`, `wei3`); installed ones may not
    return bool(key) and (key[-1].isdigit() or key in _known_space_keys())


def _known_space_keys() -> frozenset[str]:
    """Every way `parse_order` may name a space of the boards this server knows (built once per set
    of installed boards: each line of a mail asks, greetings included)."""
    return _space_keys(tuple(item.pin for item in BOARDS.items()))


@lru_cache(maxsize=4)
def _space_keys(pins: tuple[str, ...]) -> frozenset[str]:
    keys: set[str] = set()
    for item in BOARDS.items():
        for side in item.data.values():
            names = {r["id"]: r["name"] for r in side["regions"]}
            for space in side["house_spaces"]:
                region, _, number = space["id"].rpartition("-")
                named = {region, names.get(region, region), region_names().get(region, region)}
                keys |= {_norm(space["id"]), number} | {_norm(n) + number for n in named}
    return frozenset(keys)


def _could_be_draw(line: str) -> bool:
    _parse_draw(line, Prompt("", "draw", []))
    return True


def _choices_hint(prompt: Prompt) -> Message:
    shown = ", ".join(f"`{format_order(c)}`" for c in prompt.choices[:SHOWN])
    more = len(prompt.choices) - SHOWN
    if more > 0:
        return message(N_("Legal now: %(shown)s and %(more)s more."), shown=shown, more=more)
    return message(N_("Legal now: %(shown)s."), shown=shown)


def grammar_help() -> str:
    return "\n".join([
        "**China orders** (one per line; case and spacing do not matter, names may be shortened):",
        "",
        "- `play red red to Wei: house, house` — play cards to place pieces in one region; "
        "pieces are `house`, `emissary`, `fortification` (`fortification, house` puts your house on it). "
        "A pair of one colour pays for one piece in a region of another colour: "
        "`play purple green green to Chu: house, emissary`.",
        "- `exchange red for deck` or `exchange red for green` — discard one card and take the deck's "
        "top card or a face-up card.",
        "- `pass` — only when no card can be exchanged.",
        "- `space wei-3` (or just `3`) — where the next house or fortification goes.",
        "- `draw deck` or `draw green` — refill your hand one card at a time.",
    ])
