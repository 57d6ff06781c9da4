"""Every event's exact effect on a built state, table-driven.

Each case builds a bare board (no state support, tokens in MA and CA, momentum 2 each, a 12 + 12
bag, track Defense, Economy, Civil Rights), applies `prep`, plays the card as an event, answers the
listed prompts (with scripted bag draws where support checks happen) and then compares the whole
public board with the starting one: the differences must be exactly `expect`, the played card must
be where its kind sends it, the game must be back at the opponent's play and the invariants hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from adjudicator.engine import copy_json, scripted_state
from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.data import CARDS, SEATS
from adjudicator.games.nineteen_sixty.effects import EVENTS

from .helpers import act, clear_board, give, start, waiting

K, X = "kennedy", "nixon"
BOARD = ("states", "media", "issues", "endorse")
SCALARS = ("momentum", "tokens", "candidate")


@dataclass
class Case:
    card: int
    seat: str = K
    prep: dict[str, Any] = field(default_factory=dict)
    orders: list[tuple[str, dict]] = field(default_factory=list)
    draws: list[int] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)
    name: str = ""

    def __str__(self) -> str:
        return f"{self.card}-{self.name or CARDS[self.card].name}"


def prepare(s: dict, prep: dict[str, Any]) -> None:
    """Board cubes as {where: {key: (kennedy, nixon)}} (cubes come from the supply), plus plain
    overrides (momentum, tokens, candidate, track, hands, discard, deck top, boxes)."""
    for kind in BOARD:
        for key, (k, n) in prep.get(kind, {}).items():
            for seat, v in zip(SEATS, (k, n), strict=True):
                if kind != "endorse":  # endorsement markers are not cubes
                    s["supply"][seat] -= v - s[kind][key][seat]
                s[kind][key][seat] = v
    for key in ("momentum", "tokens", "candidate"):
        s[key].update(prep.get(key, {}))
    if "track" in prep:
        s["track"] = list(prep["track"])
    placed = []
    for seat in SEATS:
        if f"hand:{seat}" in prep:
            s["discard"] += s["private"][seat]["hand"]
            s["private"][seat]["hand"] = []
            placed.append((s["private"][seat]["hand"], prep[f"hand:{seat}"]))
    if "discard" in prep:
        s["secret"]["deck"] += s["discard"]
        s["discard"] = []
        placed.append((s["discard"], prep["discard"]))
    for box, cards in prep.get("boxes", {}).items():
        placed.append((s["boxes"][box], cards))
    for pile, cards in placed:
        for card in cards:
            for other in (s["secret"]["deck"], s["discard"], *(p["hand"] for p in s["private"].values())):
                if card in other:
                    other.remove(card)
            pile.append(card)
        pile.sort()
    top = prep.get("deck_top", [])  # the first named card ends on top (the deck's last item)
    for card in top:
        for other in (s["secret"]["deck"], s["discard"], *(p["hand"] for p in s["private"].values())):
            if card in other:
                other.remove(card)
    s["secret"]["deck"] += reversed(top)
    s["effects"] += prep.get("effects", [])


def locations(s: dict) -> dict[int, str]:
    where: dict[int, str] = {}
    piles = {"deck": s["secret"]["deck"], "discard": s["discard"], "removed": s["removed"]}
    for seat in SEATS:
        piles[f"hand:{seat}"] = s["private"][seat]["hand"]
    for box, cards in s["boxes"].items():
        piles[f"box:{box}"] = cards
    for name, cards in piles.items():
        for card in cards:
            where[card] = name
    return where


def diff(before: dict, after: dict, played: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in BOARD:
        changed = {key: (after[kind][key][K], after[kind][key][X]) for key in after[kind]
                   if after[kind][key] != before[kind][key]}
        if changed:
            out[kind] = changed
    for key in SCALARS:
        changed = {seat: after[key][seat] for seat in SEATS if after[key][seat] != before[key][seat]}
        if changed:
            out[key] = changed
    if after["track"] != before["track"]:
        out["track"] = after["track"]
    if after["effects"] != before["effects"]:
        out["effects"] = after["effects"][len(before["effects"]):]
    a, b = locations(before), locations(after)
    moves = {c: (a.get(c), b.get(c)) for c in set(a) | set(b) if a.get(c) != b.get(c) and c != played}
    if moves:
        out["cards"] = moves
    return out


def place_of(card: int) -> str:
    kind = CARDS[card].persistent
    return {"none": "removed", "rest_of_turn": "box:turn"}.get(kind, f"box:{kind}")


def run(case: Case) -> tuple[dict, dict]:
    s = clear_board(start(first=case.seat))
    s["tokens"] = {K: "MA", X: "CA"}
    prepare(s, case.prep)
    s = give(s, case.seat, case.card)
    before = copy_json(s)
    if case.draws:
        s["secret"]["rng"] = scripted_state(list(case.draws))
    s = act(s, case.seat, {"play": case.card, "as": "event"})
    for seat, order in case.orders:
        s = act(s, seat, order)
    return before, s


def support(seat: str, *pairs: tuple[str, int]) -> list[tuple[str, dict]]:
    return [(seat, {"support": abbr, "n": n}) for abbr, n in pairs]


def remove(seat: str, *pairs: tuple[str, int]) -> list[tuple[str, dict]]:
    return [(seat, {"remove": abbr, "n": n}) for abbr, n in pairs]


def ones(*abbrs: str, seat: str = K) -> dict[str, tuple[int, int]]:
    return {a: (1, 0) if seat == K else (0, 1) for a in abbrs}


EAST_EMPTY = ("CT", "DE", "MA", "MD", "ME", "NH", "RI", "VT", "WV")
RULE = {"card", "seat"}

CASES = [
    Case(1, orders=support(K, ("CA", 1), ("NY", 1), ("PA", 1), ("OH", 1), ("IL", 1)),
         draws=[0],  # Nixon's token is in California: one check there, a Kennedy cube
         expect={"states": ones("CA", "NY", "PA", "OH", "IL"), "tokens": {K: "TX"}, "momentum": {K: 3}}),
    Case(1, name="failed check", orders=support(K, ("CA", 1), ("NY", 1), ("PA", 1), ("OH", 1), ("IL", 1)),
         draws=[12], expect={"states": ones("NY", "PA", "OH", "IL"), "tokens": {K: "TX"}, "momentum": {K: 3}}),
    Case(2, expect={"tokens": {X: "MD"}, "effects": [{"card": 2, "seat": K}]}),
    Case(3, orders=[(K, {"track": ["Civil Rights", "Defense", "Economy"]})],
         expect={"track": ["Civil Rights", "Defense", "Economy"]}),
    Case(4, X, expect={"effects": [{"card": 4, "seat": X}]}),
    Case(5, X, expect={"momentum": {X: 3}}),
    Case(6, orders=support(K, ("NY", 2), ("CT", 2), ("VT", 1)),
         expect={"states": {"NY": (2, 0), "CT": (2, 0), "VT": (1, 0)}}),
    Case(7, expect={}),
    Case(8, prep={"issues": {"Economy": (0, 1)}},
         expect={"track": ["Economy", "Defense", "Civil Rights"], "states": {"NY": (0, 1)}}),
    Case(8, name="nobody leads", expect={"track": ["Economy", "Defense", "Civil Rights"]}),
    Case(9, X, prep={"states": {"GA": (3, 0), "OH": (1, 0), "TX": (2, 0)}},
         orders=remove(X, ("GA", 2), ("TX", 2)),
         expect={"states": {"GA": (1, 0), "TX": (0, 0), "OH": (0, 0)}}),
    Case(10, prep={"states": {"OH": (0, 2), "PA": (0, 3), "TX": (0, 4)}}, orders=[(K, {"state": "OH"})],
         expect={"states": {"OH": (3, 0)}, "tokens": {K: "OH"}}),
    Case(11, prep={"track": ["Economy", "Defense", "Civil Rights"], "issues": {"Defense": (1, 0)}},
         orders=support(K, ("NY", 1), ("PA", 1), ("IL", 1)),
         expect={"track": ["Defense", "Economy", "Civil Rights"], "states": ones("NY", "PA", "IL")}),
    Case(11, name="nobody leads", expect={}),
    Case(12, X, orders=support(X, ("TX", 2), ("GA", 2), ("FL", 1)),
         expect={"states": {"TX": (0, 2), "GA": (0, 2), "FL": (0, 1)}, "issues": {"Civil Rights": (1, 0)}}),
    Case(13, prep={"issues": {"Defense": (0, 1)}}, orders=support(X, ("TX", 1), ("OH", 1), ("MI", 1)),
         expect={"momentum": {X: 3}, "states": ones("TX", "OH", "MI", seat=X)}),
    Case(14, X, prep={"states": {"GA": (1, 0)}},
         expect={"momentum": {K: 3}, "states": ones("AL", "AR", "FL", "LA", "MS", "NC", "SC", "TN", "TX", "VA")}),
    Case(15, prep={"states": {"NY": (1, 0), "PA": (1, 0), "NJ": (0, 1)}},
         expect={"momentum": {K: 3}, "states": ones(*EAST_EMPTY)}),
    Case(16, prep={"states": {"OH": (0, 2), "IL": (1, 0)}}, expect={}),  # 1 state each: a tie
    Case(16, name="Nixon leads", prep={"states": {"OH": (0, 2)}},
         expect={"momentum": {X: 3}, "states": ones("IL", "IN", "IA", "KY", "MI", "MN", "MO", "WI", seat=X)}),
    Case(17, expect={}),
    Case(18, X, orders=support(X, ("NY", 1), ("TX", 1), ("PA", 1), ("OH", 1), ("IL", 1), ("MI", 1), ("GA", 1)),
         expect={"states": ones("NY", "TX", "PA", "OH", "IL", "MI", "GA", seat=X)}),
    Case(19, X, prep={"issues": {"Civil Rights": (1, 0)}, "states": {"GA": (3, 0), "TX": (2, 0), "FL": (1, 0)}},
         orders=remove(K, ("GA", 3), ("TX", 2)),
         expect={"states": {"GA": (0, 0), "TX": (0, 0)}, "effects": [{"card": 19, "seat": K}]}),
    Case(19, X, name="nobody leads civil rights", expect={"effects": [{"card": 19, "seat": None}]}),
    Case(20, prep={"states": {"MI": (0, 2)}},
         expect={"tokens": {X: "MI"}, "states": {"MI": (0, 1)}, "effects": [{"card": 20, "seat": K}]}),
    Case(21, X, prep={"states": {"AK": (0, 1), "HI": (2, 0)}},
         orders=support(K, ("NY", 1), ("PA", 1), ("OH", 1), ("IL", 1), ("TX", 1)),
         expect={"states": ones("NY", "PA", "OH", "IL", "TX")}),
    Case(21, name="tie", prep={"states": {"AK": (0, 1), "HI": (1, 0)}}, expect={}),
    Case(22, prep={"states": {"CA": (0, 4)}}, expect={"states": {"CA": (0, 1)}, "momentum": {X: 1}}),
    Case(23, X, expect={"track": ["Defense", "Civil Rights", "Economy"], "issues": {"Civil Rights": (0, 3)}}),
    Case(24, prep={"issues": {"Civil Rights": (0, 2)}, "states": {"GA": (0, 3), "TX": (0, 1)}},
         orders=remove(K, ("GA", 2)),
         expect={"issues": {"Civil Rights": (0, 1)}, "states": {"GA": (0, 1), "TX": (0, 0)}}),
    Case(25, expect={"track": ["Defense", "Civil Rights", "Economy"], "issues": {"Civil Rights": (0, 1)}}),
    Case(26, expect={"effects": [{"card": 26, "seat": K}]}),
    Case(27, X, prep={"discard": [5, 22]}, orders=[(X, {"take": 22})],
         expect={"states": {"NY": (0, 1)}, "cards": {22: ("discard", "hand:nixon")}}),
    Case(27, X, name="declines", prep={"discard": [5, 22]}, orders=[(X, {"done": True})],
         expect={"states": {"NY": (0, 1)}}),
    Case(28, X, prep={"states": {"OK": (2, 0), "MS": (1, 0), "AL": (2, 0)}}, orders=remove(X, ("OK", 2), ("AL", 1)),
         expect={"states": {"OK": (0, 0), "AL": (1, 0)}}),
    Case(29, X, prep={"discard": [42, 5]}, orders=[(X, {"take": 42})],
         expect={"issues": {"Defense": (0, 1)}, "cards": {42: ("discard", "hand:nixon")}}),
    Case(29, X, name="Lodge not discarded", prep={"discard": [5]}, expect={"issues": {"Defense": (0, 1)}}),
    Case(30, X, prep={"states": {"TX": (2, 0)}},
         expect={"states": {"TX": (1, 0)}, "effects": [{"card": 30, "seat": X}]}),
    Case(31, expect={"effects": [{"card": 31, "seat": K}]}),
    Case(32, X, expect={}),
    Case(33, X, expect={}),
    Case(34, expect={}),
    Case(35, expect={}),
    Case(36, prep={"endorse": {"East": (0, 1)}}, orders=[(K, {"endorse": "South"})],
         expect={"endorse": {"South": (1, 0)}}),
    Case(36, name="removes Nixon's", prep={"endorse": {"East": (0, 1)}}, orders=[(K, {"endorse": "East"})],
         expect={"endorse": {"East": (0, 0)}}),
    Case(37, X, prep={"issues": {"Civil Rights": (0, 1)}}, orders=support(X, ("TX", 1), ("OH", 1), ("NY", 1)),
         expect={"track": ["Defense", "Civil Rights", "Economy"], "states": ones("TX", "OH", "NY", seat=X)}),
    Case(38, prep={"deck_top": [5, 89]},
         expect={"momentum": {K: 3}, "cards": {5: ("deck", "removed"), 89: ("deck", "discard")}}),
    Case(39, prep={"candidate": {K: "exhausted"}}, orders=support(K, ("GA", 2), ("FL", 1)),
         expect={"states": {"TX": (2, 0), "GA": (2, 0), "FL": (1, 0)}, "candidate": {K: "ready"}}),
    # the last cube has one place: NY
    Case(40, X, prep={"issues": {"Civil Rights": (0, 1)}}, orders=support(X, ("IL", 2), ("MI", 2)),
         expect={"states": {"IL": (0, 2), "MI": (0, 2), "NY": (0, 1)}}),
    Case(41, orders=[(K, {"issue": "Civil Rights"})], expect={"issues": {"Civil Rights": (3, 0)}}),
    Case(42, X, prep={"candidate": {X: "exhausted"}}, draws=[12, 0],  # Kennedy's token in MA: checks
         expect={"states": {"MA": (0, 1)}, "issues": {"Defense": (0, 2)}, "candidate": {X: "ready"}}),
    Case(43, orders=support(K, ("NY", 2), ("PA", 2), ("OH", 2), ("IL", 1)),
         expect={"states": {"NY": (2, 0), "PA": (2, 0), "OH": (2, 0), "IL": (1, 0)}}),
    Case(44, X, expect={"effects": [{"card": 44, "seat": X}]}),
    Case(45, X, expect={"tokens": {X: "NY"}, "issues": {"Civil Rights": (0, 1)}, "states": {"NY": (0, 2)},
                        "media": {"East": (0, 1)}}),
    Case(46, prep={"media": {"West": (1, 0), "South": (1, 0)}}, orders=[(K, {"region": "South"})]
         + support(K, ("GA", 2), ("TX", 2), ("FL", 1)),
         expect={"states": {"GA": (2, 0), "TX": (2, 0), "FL": (1, 0)}}),
    Case(46, name="no media", expect={}),
    Case(47, prep={"issues": {"Defense": (2, 0)}}, orders=support(K, *((a, 1) for a in ("NY", "PA", "OH", "IL", "TX"))),
         expect={"states": ones("NY", "PA", "OH", "IL", "TX")}),
    Case(48, X, expect={"track": ["Economy", "Defense", "Civil Rights"], "issues": {"Economy": (0, 2)}}),
    Case(49, orders=support(K, ("IL", 2), ("OH", 2), ("MI", 1)),
         expect={"states": {"IL": (2, 0), "OH": (2, 0), "MI": (1, 0)}}),
    Case(50, X, orders=support(X, ("IL", 2), ("OH", 2), ("WI", 1)),
         expect={"states": {"IL": (0, 2), "OH": (0, 2), "WI": (0, 1)}}),
    Case(51, expect={"issues": {"Defense": (3, 0)}}),
    Case(52, X, expect={"tokens": {X: "FL"}, "momentum": {X: 3}, "states": {"FL": (0, 1)}}),
    Case(53, prep={"hand:kennedy": [5, 9, 22], "deck_top": [60, 61]},
         orders=[(K, {"discard": 9}), (K, {"discard": 22}), (K, {"done": True})],
         expect={"cards": {9: ("hand:kennedy", "discard"), 22: ("hand:kennedy", "discard"),
                           60: ("deck", "hand:kennedy"), 61: ("deck", "hand:kennedy")}}),
    Case(54, expect={"effects": [{"card": 54, "seat": K}]}),
    Case(55, expect={"effects": [{"card": 55, "seat": K}]}),
    Case(56, orders=[(X, {"position": "Economy", "n": 2})], expect={"issues": {"Economy": (0, 2)}}),
    Case(57, prep={"hand:kennedy": [5, 9], "deck_top": [60]}, orders=[(K, {"discard": 9}), (K, {"done": True})],
         expect={"cards": {9: ("hand:kennedy", "discard"), 60: ("deck", "hand:kennedy")}}),
    Case(58, X, prep={"discard": [5, 89]}, orders=[(X, {"take": 89})],
         expect={"cards": {89: ("discard", "removed")}}),  # -1 then +1 momentum
    Case(58, X, name="Volunteers", prep={"discard": [5, 89], "momentum": {X: 0}}, orders=[(X, {"take": 5})],
         expect={"momentum": {X: 1}, "cards": {5: ("discard", "removed")}}),
    Case(59, orders=support(K, ("NY", 2), ("PA", 2), ("DE", 1)),
         expect={"states": {"NY": (2, 0), "PA": (2, 0), "DE": (1, 0)}}),
    Case(60, prep={"media": {"East": (0, 1)}}, orders=support(X, ("NY", 2), ("PA", 2), ("NJ", 1)),
         expect={"states": {"NY": (0, 2), "PA": (0, 2), "NJ": (0, 1)}}),
    Case(60, name="no media in the East", expect={}),
    Case(61, X, expect={"candidate": {K: "exhausted"}}),
    Case(62, prep={"track": ["Economy", "Civil Rights", "Defense"], "issues": {"Defense": (0, 1)}},
         expect={"track": ["Defense", "Economy", "Civil Rights"], "momentum": {X: 3}}),
    Case(63, prep={"issues": {"Economy": (0, 2), "Defense": (0, 1), "Civil Rights": (1, 0)}},
         expect={"momentum": {X: 0}, "issues": {"Economy": (0, 1), "Defense": (0, 0)}}),
    Case(64, prep={"momentum": {X: 5}}, expect={"momentum": {K: 5}}),
    Case(64, name="not behind", prep={"momentum": {X: 1}}, expect={}),
    Case(65, expect={"effects": [{"card": 65, "seat": K}]}),
    Case(66, prep={"discard": [5, 22]}, orders=[(K, {"take": 5})],
         expect={"states": {"IL": (1, 0)}, "cards": {5: ("discard", "hand:kennedy")}}),
    Case(67, prep={"states": {"OH": (0, 1)}}, orders=support(K, ("NY", 1), ("PA", 1), ("IL", 1)),
         expect={"states": ones("NY", "PA", "IL")}),
    Case(68, prep={"track": ["Economy", "Defense", "Civil Rights"]},
         expect={"track": ["Defense", "Economy", "Civil Rights"], "issues": {"Defense": (0, 1)}}),
    Case(69, X, orders=[(K, {"state": "VA"})], expect={"tokens": {K: "VA"}, "effects": [{"card": 69, "seat": X}]}),
    Case(70, X, expect={"momentum": {K: 0, X: 1}}),
    Case(71, X, orders=support(X, *((a, 1) for a in ("IA", "KY", "AZ", "CO", "KS", "OR", "WA"))),
         expect={"states": ones("IA", "KY", "AZ", "CO", "KS", "OR", "WA", seat=X)}),
    Case(72, X, prep={"issues": {"Civil Rights": (1, 0)}}, orders=support(X, ("TX", 2), ("VA", 2), ("FL", 1)),
         expect={"states": {"TX": (0, 2), "VA": (0, 2), "FL": (0, 1)}}),
    Case(72, X, name="Nixon leads civil rights", prep={"issues": {"Civil Rights": (0, 1)}}, expect={}),
    Case(73, X, prep={"states": {"NY": (2, 0), "PA": (2, 0)}}, orders=remove(X, ("NY", 1)),
         expect={"states": {"NY": (1, 0), "PA": (1, 0)}}),
    Case(74, expect={"effects": [{"card": 74, "seat": K}]}),
    Case(75, X, orders=[(X, {"media": "East"}), (X, {"media": "East"}), (X, {"media": "South"})],
         expect={"tokens": {X: "NY"}, "media": {"East": (0, 2), "South": (0, 1)}}),
    Case(76, expect={"effects": [{"card": 76, "seat": K}]}),
    Case(77, orders=support(K, ("NY", 2), ("PA", 2), ("TX", 1)),
         expect={"states": {"NY": (2, 0), "PA": (2, 0), "TX": (1, 0)}}),
    Case(78, prep={"issues": {"Economy": (1, 0)}},
         expect={"track": ["Economy", "Defense", "Civil Rights"], "states": {"NY": (2, 0)}}),
    Case(79, X, expect={"effects": [{"card": 79, "seat": X}]}),
    Case(80, prep={"media": {"West": (0, 1), "East": (0, 2), "South": (1, 0)}},
         orders=[(K, {"media": "East"}), (K, {"media": "West"})],
         expect={"media": {"East": (0, 1), "West": (0, 0)}}),
    Case(81, expect={"effects": [{"card": 81, "seat": K}]}),
    Case(82, X, prep={"issues": {"Defense": (1, 0)}}, expect={"momentum": {K: 3}, "states": {"FL": (1, 0)}}),
    Case(83, orders=[(K, {"campaign": a, "n": 1}) for a in ("NY", "PA", "NJ", "CT", "RI", "DE", "MD")],
         expect={"states": ones("NY", "PA", "NJ", "CT", "RI", "DE", "MD"), "tokens": {K: "MD"}}),
    Case(84, prep={"issues": {"Defense": (1, 0)}}, orders=support(K, ("NY", 1), ("IL", 1), ("TX", 1)),
         expect={"momentum": {K: 3}, "states": ones("NY", "IL", "TX")}),
    Case(85, expect={"effects": [{"card": 85, "seat": K}]}),
    Case(86, X, prep={"issues": {"Economy": (1, 0)}},
         orders=[(X, {"issue": "Economy"}), (X, {"issue": "Economy"}), (X, {"issue": "Defense"})],
         expect={"issues": {"Economy": (0, 1), "Defense": (0, 1)}}),
    Case(87, X, expect={"effects": [{"card": 87, "seat": X}]}),
    Case(88, X, expect={"effects": [{"card": 88, "seat": X}]}),
    Case(89, expect={"momentum": {X: 3}}),
    Case(90, X, expect={}),
    Case(91, X, prep={"deck_top": [60, 61]},
         expect={"cards": {60: ("deck", "hand:nixon"), 61: ("deck", "hand:nixon")}}),
    Case(92, X, prep={"issues": {"Economy": (2, 0), "Defense": (1, 0)}},
         orders=[(K, {"issue": "Economy"}), (K, {"issue": "Defense"})],
         expect={"momentum": {K: 1}, "issues": {"Economy": (1, 0), "Defense": (0, 0)}}),
    Case(92, X, name="leads one issue", prep={"issues": {"Economy": (2, 0)}}, expect={}),
    Case(93, X, prep={"issues": {"Economy": (2, 0), "Defense": (1, 0)}},
         expect={"momentum": {X: 3}, "issues": {"Economy": (1, 0), "Defense": (0, 0)}}),
    Case(94, prep={"issues": {"Economy": (0, 1), "Defense": (0, 1)}, "hand:kennedy": [5, 9], "deck_top": [60]},
         orders=[(K, {"discard": 5}), (K, {"done": True})],
         expect={"momentum": {K: 3}, "cards": {5: ("hand:kennedy", "discard"), 60: ("deck", "hand:kennedy")}}),
    Case(94, name="Nixon leads one", prep={"issues": {"Economy": (0, 1)}}, expect={}),
    Case(95, prep={"issues": {"Economy": (0, 2), "Civil Rights": (0, 1)}},
         orders=support(K, ("NY", 1), ("PA", 1), ("TX", 1)),
         expect={"issues": {"Economy": (0, 1), "Civil Rights": (0, 0)}, "states": ones("NY", "PA", "TX")}),
    Case(96, X, prep={"issues": {"Civil Rights": (2, 0), "Economy": (1, 0)}},
         expect={"issues": {"Civil Rights": (1, 0), "Economy": (0, 0)}, "momentum": {K: 1}}),
    Case(97, prep={"issues": {"Defense": (0, 2), "Economy": (1, 0)}},
         expect={"issues": {"Defense": (0, 1), "Economy": (0, 0)}}),
]

EXACT = sorted({c.card for c in CASES})


@pytest.mark.parametrize("case", CASES, ids=str)
def test_event_exact_effect(case: Case):
    before, after = run(case)
    got = diff(before, after, case.card)
    assert got == case.expect
    assert locations(after)[case.card] == place_of(case.card)
    prompts = waiting(after)
    opponent = X if case.seat == K else K
    assert list(prompts) == [opponent] and prompts[opponent].kind == "play", prompts
    assert not after["played"] and GAME.invariants(after) == []
    if case.draws:
        assert after["secret"]["rng"]["script"] == []  # every scripted draw was a check


def test_every_event_has_an_exact_case():
    assert EXACT == sorted(EVENTS)
