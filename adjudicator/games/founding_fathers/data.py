"""The deck as data: loading the installed decks and validating a replacement deck.

A deck is one JSON file (see ``decks/standard.json`` and docs/games/founding-fathers.md). Every
card carries ``provenance`` (``card``, ``play-report`` or ``stand-in``) and ``stand_in``: the
names of its fields whose values are stand-ins, not read off a printed card.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from adjudicator.engine import ContentLibrary

DECK_PACKAGE = __package__ or "adjudicator.games.founding_fathers"
DEFAULT_DECK = "standard"
ERAS = ("A", "B", "C")
PARTIES = ("L", "C")
PROVENANCE = ("card", "play-report", "stand-in")
OFFICES = (
    "president", "vice-president", "secretary-of-state", "secretary-of-the-treasury",
    "secretary-of-war", "special-envoy", "general", "chief-justice",
)
CABINET = ("secretary-of-state", "secretary-of-the-treasury", "secretary-of-war", "special-envoy")
APPOINTED = (*CABINET, "general", "chief-justice")
SUPPORT_PARTIES = ("L", "C", "pres", "anti-pres", "neutral", "own")
INFLUENCE_TARGETS = ("president", "leader-L", "leader-C", "leaders", "officer")
EFFECT_OPS = {
    "support": {"party", "n"}, "tension": {"n"}, "reserves": {"n"}, "revenue": {"n"},
    "influence": {"to", "n"}, "admit": {"state"}, "remove": {"card"}, "flag": {"flag"},
    "ruling": {"text"}, "popularity": {"to", "n"}, "votes": {"n"}, "gain-influence": {"n"},
    "death-roll": set(),
}
TAX_KINDS = ("tax", "tariff", "bond")
ACTION_TIMINGS = ("round", "vote")
SPECIALS = (None, "income", "free-speech", "both-parties")


def _deck_dir():  # package data only (importlib.resources): the module does no other I/O
    return resources.files(DECK_PACKAGE).joinpath("decks")


def _builtin_decks() -> dict[str, Any]:
    return {p.name[:-5]: json.loads(p.read_text(encoding="utf-8"))
            for p in _deck_dir().iterdir() if p.name.endswith(".json")}


# The known decks: those shipped here, those a server installed (pbem decks install) and those a
# record being verified carried (see adjudicator/engine/content.py).
DECKS = ContentLibrary("founding-fathers", "deck", lambda data: validate_deck(data))


def deck_text(name: str = DEFAULT_DECK) -> str:
    """The JSON text of a deck shipped with pbem, as written in its package file."""
    return _deck_dir().joinpath(f"{name}.json").read_text(encoding="utf-8")


def installed_decks() -> list[str]:
    """The deck names new games can choose."""
    return DECKS.names()


@cache
def _deck_of_pin(pin: str) -> Deck:
    return Deck(DECKS.data(pin))


def deck(ref: str = DEFAULT_DECK) -> Deck:
    """The deck a game plays with: `ref` is its pin (what states hold) or an installed name."""
    known = _BY_PIN.get(ref)  # rules code asks this many times a step, always with the state's pin
    if known is not None:
        return known
    pin = DECKS.resolve(ref)
    found = _deck_of_pin(pin)
    if ref == pin:  # a pin names one deck's data for good; a name may be re-pointed later
        _BY_PIN[pin] = found
    return found


_BY_PIN: dict[str, Deck] = {}


class Deck:
    """Indexed, read-only access to a validated deck."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.id = data["id"]
        self.statesmen = {s["id"]: s for s in data["statesmen"]}
        self.states = {s["id"]: s for s in data["states"]}
        self.offices = {o["id"]: o for o in data["offices"]}
        self.taxes = {t["id"]: t for t in data["taxes"]}
        self.issues = {i["id"]: i for i in data["issues"]}
        self.actions = {a["id"]: a for a in data["actions"]}
        self.by_number = sorted(self.statesmen, key=lambda s: self.statesmen[s]["number"])
        self.action_copies: dict[str, str] = {}  # copy id -> action id
        for a in data["actions"]:
            for k in range(1, a["copies"] + 1):
                self.action_copies[f"{a['id']}-{k}"] = a["id"]
        self.tariffs = sorted((t for t in data["taxes"] if t["kind"] == "tariff"), key=lambda t: t["level"])

    def card(self, cid: str) -> dict[str, Any]:
        """An action-deck card: a statesman or one copy of an action."""
        if cid in self.statesmen:
            return self.statesmen[cid]
        return self.actions[self.action_copies[cid]]

    def is_statesman(self, cid: str) -> bool:
        return cid in self.statesmen

    def generation_cards(self, generation: int) -> list[str]:
        """Every action-deck card of a generation: its statesmen and its action copies."""
        cards = [s for s in self.by_number if self.statesmen[s]["generation"] == generation]
        cards += [c for c, a in self.action_copies.items() if self.actions[a]["generation"] == generation]
        return cards

    def name(self, cid: str) -> str:
        for table in (self.statesmen, self.states, self.offices, self.taxes, self.issues):
            if cid in table:
                return table[cid]["name"]
        if cid in self.action_copies:
            return self.actions[self.action_copies[cid]]["name"]
        return cid


# ------------------------------------------------------------------------------------- validation
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_card(where: str, card: Any, fields: dict[str, Any], problems: list[str]) -> bool:
    if not isinstance(card, dict):
        problems.append(f"{where}: not an object")
        return False
    for name, kind in fields.items():
        if name not in card:
            problems.append(f"{where}: missing field {name!r}")
            continue
        value = card[name]
        ok = {
            "str": isinstance(value, str) and value != "",
            "int": _is_int(value),
            "bool": isinstance(value, bool),
            "list": isinstance(value, list),
            "dict": isinstance(value, dict),
        }[kind] if isinstance(kind, str) else value in kind
        if not ok:
            problems.append(f"{where}: field {name!r} has a bad value {value!r}")
    if card.get("provenance") not in PROVENANCE:
        problems.append(f"{where}: provenance must be one of {', '.join(PROVENANCE)}")
    if not isinstance(card.get("stand_in"), list) or not all(isinstance(x, str) for x in card.get("stand_in", [])):
        problems.append(f"{where}: stand_in must be a list of field names")
    return True


def _check_effects(where: str, effects: Any, ids: dict[str, set[str]], problems: list[str]) -> None:
    if not isinstance(effects, list):
        problems.append(f"{where}: effects must be a list")
        return
    for k, eff in enumerate(effects):
        w = f"{where} effect {k + 1}"
        if not isinstance(eff, dict) or eff.get("op") not in EFFECT_OPS:
            problems.append(f"{w}: unknown op {eff.get('op') if isinstance(eff, dict) else eff!r}; "
                            f"known: {', '.join(sorted(EFFECT_OPS))}")
            continue
        need = EFFECT_OPS[eff["op"]]
        have = set(eff) - {"op"}
        if have != need:
            problems.append(f"{w}: {eff['op']} takes exactly {sorted(need)}")
            continue
        if "n" in need and not _is_int(eff["n"]):
            problems.append(f"{w}: n must be an integer")
        if eff["op"] == "support" and eff["party"] not in SUPPORT_PARTIES:
            problems.append(f"{w}: party must be one of {', '.join(SUPPORT_PARTIES)}")
        if eff["op"] == "influence" and eff["to"] not in INFLUENCE_TARGETS:
            problems.append(f"{w}: influence goes to one of {', '.join(INFLUENCE_TARGETS)}")
        if eff["op"] == "popularity" and eff["to"] not in ("president", "own-statesman"):
            problems.append(f"{w}: popularity goes to president or own-statesman")
        if eff["op"] == "admit" and eff["state"] not in ids["states"]:
            problems.append(f"{w}: unknown state {eff['state']!r}")
        if eff["op"] == "remove" and eff["card"] not in ids["issues"]:
            problems.append(f"{w}: unknown issue {eff['card']!r}")
        if eff["op"] in ("flag", "ruling") and not isinstance(eff.get("flag", eff.get("text")), str):
            problems.append(f"{w}: text expected")


def validate_deck(data: Any) -> list[str]:
    """Every problem found in a deck (an empty list: the deck can be installed)."""
    problems: list[str] = []
    if not isinstance(data, dict):
        return ["a deck is a JSON object"]
    for key in ("id", "title"):
        if not isinstance(data.get(key), str) or not data.get(key):
            problems.append(f"deck: missing {key}")
    tables = ("statesmen", "states", "offices", "taxes", "issues", "actions")
    for key in tables:
        if not isinstance(data.get(key), list) or not data.get(key):
            problems.append(f"deck: {key} must be a non-empty list")
    if problems:
        return problems
    ids: dict[str, set[str]] = {}
    for key in tables:
        seen: set[str] = set()
        for k, card in enumerate(data[key]):
            cid = card.get("id") if isinstance(card, dict) else None
            if not isinstance(cid, str) or not cid:
                problems.append(f"{key} #{k + 1}: missing id")
            elif cid in seen:
                problems.append(f"{key}: duplicate id {cid!r}")
            else:
                seen.add(cid)
        ids[key] = seen
    # states
    for s in data["states"]:
        w = f"state {s.get('id')}"
        if not _check_card(w, s, {"id": "str", "name": "str", "original": "bool", "ev": "dict", "neighbours": "list"},
                           problems):
            continue
        if set(s["ev"]) != set(ERAS) or not all(_is_int(v) and v > 0 for v in s["ev"].values()):
            problems.append(f"{w}: ev needs a positive integer for each era A, B, C")
        for n in s["neighbours"]:
            if n not in ids["states"] or n == s["id"]:
                problems.append(f"{w}: bad neighbour {n!r}")
    by_state = {s["id"]: s for s in data["states"] if isinstance(s, dict)}
    for s in by_state.values():
        for n in s.get("neighbours", []):
            if n in by_state and s["id"] not in by_state[n].get("neighbours", []):
                problems.append(f"state {s['id']}: neighbour {n} does not list it back")
    if not any(s.get("original") for s in by_state.values()):
        problems.append("states: no original state")
    # offices
    if ids["offices"] != set(OFFICES):
        problems.append(f"offices: exactly these are needed: {', '.join(OFFICES)}")
    for o in data["offices"]:
        _check_card(f"office {o.get('id')}", o, {"id": "str", "name": "str", "appointment_popularity": "int",
                                                  "elected": "bool"}, problems)
    # statesmen
    numbers = set()
    for s in data["statesmen"]:
        w = f"statesman {s.get('id')}"
        if not _check_card(w, s, {"id": "str", "number": "int", "generation": (1, 2, 3), "name": "str",
                                  "state": "str", "party": ("L", "C", "G"), "ability": "int", "military": "bool",
                                  "popularity": "int", "votes": "int", "income": "int", "special": SPECIALS}, problems):
            continue
        if s["state"] not in ids["states"]:
            problems.append(f"{w}: unknown home state {s['state']!r}")
        if s["number"] in numbers:
            problems.append(f"{w}: number {s['number']} used twice")
        numbers.add(s["number"])
        if s["ability"] < 0 or s["votes"] < 0 or s["income"] < 0:
            problems.append(f"{w}: ability, votes and income are not negative")
    names = {s.get("name"): s.get("id") for s in data["statesmen"] if isinstance(s, dict)}
    for needed in ("George Washington", "John Adams"):
        if needed not in names:
            problems.append(f"statesmen: {needed} is needed by the setup")
    # taxes
    levels = []
    for t in data["taxes"]:
        w = f"tax {t.get('id')}"
        if not _check_card(w, t, {"id": "str", "name": "str", "kind": TAX_KINDS, "level": "int", "difficulty": "int",
                                  "revenue": "int", "outrage": "int", "popularity": "int", "office": OFFICES,
                                  "congress": "bool"}, problems):
            continue
        if t["kind"] == "tariff":
            levels.append(t["level"])
    if sorted(levels) != list(range(1, len(levels) + 1)):
        problems.append("tariffs: levels must be 1, 2, 3 ... without gaps")
    # issues
    for i in data["issues"]:
        w = f"issue {i.get('id')}"
        if not _check_card(w, i, {"id": "str", "name": "str", "era": ERAS, "kind": ("issue", "admission"),
                                  "options": "list", "failed": "dict", "ignored": "dict", "judicial_review": "bool",
                                  "prerequisites": "list", "hand_of_time": "bool"}, problems):
            continue
        if i["kind"] == "admission" and i.get("state") not in ids["states"]:
            problems.append(f"{w}: an admission names a state")
        if not i["options"]:
            problems.append(f"{w}: at least one option")
        keys = set()
        for o in i["options"]:
            ow = f"{w} option {o.get('key') if isinstance(o, dict) else '?'}"
            if not isinstance(o, dict) or not isinstance(o.get("key"), str) or o["key"] in keys:
                problems.append(f"{ow}: options need distinct keys")
                continue
            keys.add(o["key"])
            if (not _is_int(o.get("difficulty")) or not _is_int(o.get("popularity"))
                    or not isinstance(o.get("congress"), bool)):
                problems.append(f"{ow}: difficulty, popularity (integers) and congress (true/false) are needed")
            offices = o.get("offices")
            if (not isinstance(offices, list) or not offices
                    or any(x not in OFFICES or x == "vice-president" for x in offices)):
                problems.append(f"{ow}: offices must list responsible offices (not the vice-president)")
            _check_effects(ow, o.get("effects"), ids, problems)
        for result in ("failed", "ignored"):
            r = i[result]
            if not _is_int(r.get("popularity")) or r.get("to") not in ("removed", "next-era"):
                problems.append(f"{w} {result}: popularity (integer) and to (removed / next-era) are needed")
            _check_effects(f"{w} {result}", r.get("effects"), ids, problems)
        for p in i["prerequisites"]:
            if not isinstance(p, dict) or len(p) != 1:
                problems.append(f"{w}: a prerequisite is one of resolved / flag / tax")
            elif "resolved" in p and p["resolved"] not in ids["issues"]:
                problems.append(f"{w}: prerequisite names an unknown issue {p['resolved']!r}")
            elif not ({"resolved", "flag", "tax"} & set(p)):
                problems.append(f"{w}: unknown prerequisite {p!r}")
    if not any(i.get("era") == "A" for i in data["issues"] if isinstance(i, dict)):
        problems.append("issues: era A has no cards")
    # actions
    for a in data["actions"]:
        w = f"action {a.get('id')}"
        if not _check_card(w, a, {"id": "str", "name": "str", "generation": (1, 2, 3), "copies": "int",
                                  "timing": ACTION_TIMINGS, "persistent": "bool", "effect": "list"}, problems):
            continue
        if a["copies"] < 1:
            problems.append(f"{w}: copies is at least 1")
        if a["id"] in ids["statesmen"]:
            problems.append(f"{w}: an action id may not be a statesman id")
        _check_effects(w, a["effect"], ids, problems)
    return problems


def stand_in_report(data: dict[str, Any]) -> list[str]:
    """One line per card with stand-in values (for the docs and the game page)."""
    lines = []
    for key in ("statesmen", "states", "offices", "taxes", "issues", "actions"):
        for card in data[key]:
            if card["provenance"] == "stand-in" or card["stand_in"]:
                lines.append(f"{key[:-1] if key != 'taxes' else 'tax'} {card['name']}: "
                             f"{card['provenance']}; stand-in: {', '.join(card['stand_in']) or 'all'}")
    return lines


for _name, _data in sorted(_builtin_decks().items()):
    DECKS.add(_name, _data, builtin=True)
