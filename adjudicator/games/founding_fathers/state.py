"""The state: setup, and the small queries every phase asks (owners, popularity, leaders, votes)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, IllegalOrder, Rng, message, seed_state

from .data import APPOINTED, DECKS, ERAS, OFFICES, Deck, deck

State = dict[str, Any]
SEAT_COLOURS = ["red", "blue", "green", "yellow", "purple", "black"]
TENSION_WAR = 5  # Peace, 1, 2, 3, 4, Civil War
SUPPORT_LIMIT = 15  # reading: the track's end; support never passes it
HAND_LIMIT = 3
DRAFT_DEAL = 7
START = {
    3: [["benjamin-franklin", "george-washington"], ["john-jay", "alexander-hamilton"],
        ["thomas-jefferson", "john-adams", "aaron-burr"]],
    4: [["benjamin-franklin", "george-washington", "john-adams"], ["john-jay", "alexander-hamilton"],
        ["thomas-jefferson"], ["aaron-burr"]],
    5: [["benjamin-franklin", "george-washington"], ["alexander-hamilton"], ["thomas-jefferson"], ["aaron-burr"],
        ["john-jay", "john-adams"]],
    6: [["benjamin-franklin", "george-washington"], ["john-jay", "alexander-hamilton"], ["thomas-jefferson"],
        ["aaron-burr"], ["john-adams"], ["james-madison", "james-monroe"]],
}


def D(state: State) -> Deck:
    return deck(state["deck"])


# Rules 1.6-2 (issue 14) and 1.6-3 (issue 30) changed how games play (docs/games/founding-fathers.md);
# a state keeps the behaviour of the version it names (a replayed record of an older version:
# FoundingFathers.setup_version), so a game started under a version plays to its end by it.
RULES_VERSION = "1.6-3"
RULES_16 = "1.6"
VERSIONS = (RULES_16, "1.6-2", RULES_VERSION)  # every published version, oldest first


def rules_16(state: State) -> bool:
    """Does this state play by rules 1.6 (before issue 14's changes)?"""
    return state["rules_version"] == RULES_16


def since(state: State, version: str) -> bool:
    """Does this state play by `version` or a later one?"""
    return VERSIONS.index(state["rules_version"]) >= VERSIONS.index(version)


def new_state(seed: str, seats: list[str], options: dict[str, Any], rules_version: str = RULES_VERSION) -> State:
    d = deck(options["deck"])
    state: State = {
        "game": "founding-fathers", "rules_version": rules_version, "seats": list(seats), "options": dict(options),
        "deck": DECKS.resolve(options["deck"]),  # the pin: this exact version of the deck
        "turn": 1, "phase": "issues", "era": "A",
        "statesmen": {}, "gone": {}, "offices": dict.fromkeys(OFFICES),
        "factions": {s: {"influence": 3, "vp": 0, "hand": 2, "black": 0} for s in seats},
        "revenue": -30, "reserves": 0, "ledger": {"start": 0, "changes": 0},
        "support": 0, "tension": 0,
        "map": sorted(s for s, c in d.states.items() if c["original"]),
        "taxes": {"active": [], "tariff": 0, "tried": [], "tariff_done": False},
        "issues": {"era": "A", "left": 0, "pools": {e: [] for e in ERAS}, "resolved": [], "removed": [],
                   "set_aside": [], "drawn": 0, "last_drawn": False, "current": None},
        "flags": [], "term": {"delegated": False, "replacements": [], "coalition": {}, "vacated": []},
        "actions": {"left": 0, "discard": [], "generation": 1, "future": [], "persistent": []},
        "papers": {p: {"lower": [0, 0, 0], "upper": [0, 0, 0]} for p in ("L", "C")},
        "election": None, "people": None, "result": None, "flow": [],
        "private": {s: {"hand": []} for s in seats},
        "secret": {"rng": seed_state(seed), "issues": [], "actions": [], "packet": []},
    }
    if rules_version == RULES_16:
        del state["term"]["vacated"]  # 1.6 kept no vacated offices: its state hashes lack the key
    rng = Rng.of(state)
    start = START[len(seats)]
    for seat, sids in zip(seats, start, strict=True):
        for sid in sids:
            _enter(state, sid, seat)
    gen1 = [s for s in d.generation_cards(1) if d.is_statesman(s) and s not in state["statesmen"]]
    rng.shuffle(gen1)
    for seat in seats:
        while sum(1 for x in state["statesmen"].values() if x["owner"] == seat) < 3:
            _enter(state, gen1.pop(), seat)
    pile = gen1 + [c for c in d.generation_cards(1) if not d.is_statesman(c)]
    rng.shuffle(pile)
    state["secret"]["actions"] = pile
    for seat in seats:
        for _ in range(2):
            state["private"][seat]["hand"].append(pile.pop())
    state["actions"]["left"] = len(pile)
    state["actions"]["future"] = d.generation_cards(2) + d.generation_cards(3)
    state["offices"]["president"] = "george-washington"
    state["offices"]["vice-president"] = "john-adams"
    state["statesmen"]["george-washington"]["elected"] = 1
    state["actions"]["removed"] = []
    scenario = options.get("scenario", "standard")
    if scenario in ("B", "C"):
        from .scenarios import setup_scenario

        setup_scenario(state, d, scenario)
    deal_issue_deck(state, state["era"])
    return state


def _enter(state: State, sid: str, seat: str) -> None:
    state["statesmen"][sid] = {"owner": seat, "cubes": 0, "bonus": 0, "influence": 0, "elected": 0}


def enter_statesman(state: State, sid: str, seat: str) -> None:
    _enter(state, sid, seat)


def deal_issue_deck(state: State, era: str) -> None:
    """Form the era's issue deck: its cards plus those carried over to it, shuffled."""
    d = D(state)
    iss = state["issues"]
    cards = [i for i, c in d.issues.items() if c["era"] == era and i not in iss["removed"]
             and i not in iss["resolved"] and not any(i in p for p in iss["pools"].values())]
    cards += iss["pools"][era]
    iss["pools"][era] = []
    Rng.of(state).shuffle(cards)
    state["secret"]["issues"] = cards
    iss["era"] = era
    iss["left"] = len(cards)


# ------------------------------------------------------------------------------------- queries
def owner(state: State, sid: str) -> str:
    return state["statesmen"][sid]["owner"]


def popularity(state: State, sid: str) -> int:
    s = state["statesmen"][sid]
    return D(state).statesmen[sid]["popularity"] + s["bonus"] + s["cubes"]


def number(state: State, sid: str) -> int:
    return D(state).statesmen[sid]["number"]


def party(state: State, sid: str) -> str:
    return D(state).statesmen[sid]["party"]


def in_party(state: State, sid: str, p: str) -> bool:
    q = party(state, sid)
    return q == p or q == "G"


def ability(state: State, sid: str) -> int:
    return D(state).statesmen[sid]["ability"]


def office_of(state: State, sid: str) -> str | None:
    for office, holder in state["offices"].items():
        if holder == sid:
            return office
    return None


def holder(state: State, office: str) -> str | None:
    return state["offices"][office]


def seat_of_office(state: State, office: str) -> str | None:
    h = state["offices"][office]
    return owner(state, h) if h else None


def president_seat(state: State) -> str:
    h = state["offices"]["president"]
    return owner(state, h) if h else state["seats"][0]


def president_party(state: State) -> str | None:
    h = state["offices"]["president"]
    return party(state, h) if h else None


def seats_from_left(state: State, of: str | None = None, include_self_last: bool = True) -> list[str]:
    seats = state["seats"]
    start = seats.index(of or president_seat(state))
    order = seats[start + 1:] + seats[:start]
    return order + [seats[start]] if include_self_last else order


def seats_from(state: State, first: str) -> list[str]:
    seats = state["seats"]
    k = seats.index(first)
    return seats[k:] + seats[:k]


def owned(state: State, seat: str) -> list[str]:
    return sorted((s for s, x in state["statesmen"].items() if x["owner"] == seat), key=lambda s: number(state, s))


def congress_votes(state: State, seat: str) -> int:
    d = D(state)
    return sum(d.statesmen[s]["votes"] for s in owned(state, seat)) + state["term"]["coalition"].get(seat, 0)


def leader(state: State, p: str) -> str | None:
    """The party leader: the most popular statesman of the party in play (oldest on a tie).
    Elbridge Gerry is never a party leader."""
    best = [s for s in state["statesmen"] if party(state, s) == p]
    if not best:
        return None
    return min(best, key=lambda s: (-popularity(state, s), number(state, s)))


def oldest_first(state: State, sids: list[str]) -> list[str]:
    return sorted(sids, key=lambda s: number(state, s))


def available_influence(state: State, seat: str, sid: str | None = None) -> int:
    """Faction pool plus the influence on one statesman's card (never another's)."""
    extra = state["statesmen"][sid]["influence"] if sid and sid in state["statesmen"] else 0
    return state["factions"][seat]["influence"] + extra


def pay(state: State, seat: str, amount: int, sid: str | None = None) -> None:
    """Spend from the statesman's card first, then the faction pool (a reading, see the docs)."""
    if sid and sid in state["statesmen"]:
        card = state["statesmen"][sid]
        take = min(card["influence"], amount)
        card["influence"] -= take
        amount -= take
    if amount > state["factions"][seat]["influence"]:
        raise IllegalOrder(message(N_("not enough influence")))
    state["factions"][seat]["influence"] -= amount


def add_reserves(state: State, n: int) -> None:
    state["reserves"] += n
    state["ledger"]["changes"] += n


def move_support(state: State, p: str, n: int) -> None:
    """Move public support n spaces toward party p (L is positive, C negative)."""
    step = n if p == "L" else -n
    state["support"] = max(-SUPPORT_LIMIT, min(SUPPORT_LIMIT, state["support"] + step))


def support_party(state: State) -> str | None:
    s = state["support"]
    return "L" if s > 0 else "C" if s < 0 else None


def other(p: str) -> str:
    return "C" if p == "L" else "L"


def vacated(state: State) -> list[str]:
    """Offices left vacant by a death or an election (and by a holder who moved into one); none
    under rules 1.6, where holders were never named to another office."""
    if rules_16(state):
        return []
    return state["term"].setdefault("vacated", [])


def mark_vacated(state: State, office: str) -> None:
    if not rules_16(state) and office not in vacated(state):
        vacated(state).append(office)


def eligible_appointees(state: State, office: str, movers: bool = True) -> list[str]:
    """Statesmen the President may appoint to `office` now (see the rules on eligibility).

    A holder of another office may be named too when `office` was left vacant by a death or an
    election ("a menos que sean nombrados para un departamento vacante por muerte o elección");
    such holders come after the others, and `movers=False` leaves them out (the defaults and the
    committee, where moving a holder only moves the vacancy)."""
    base = _eligible(state, office, False)
    if not movers or state["offices"][office] is not None or office not in vacated(state):
        return base
    # checked apart, so that a holder can only add names: he never displaces a statesman without
    # office (a military holder would otherwise shut out the relaxed General's choice)
    return base + sorted(s for s in _eligible(state, office, True) if s not in base)


def _eligible(state: State, office: str, with_holders: bool) -> list[str]:
    pres, vp = state["offices"]["president"], state["offices"]["vice-president"]
    if pres is None:
        return []
    current = state["offices"][office]
    pp = party(state, pres)
    # office_of for every statesman at once (the first office he holds, as office_of finds it):
    # this runs for every appointment prompt, and asking office by office was most of its cost
    held: dict[str, str] = {}
    for name, holder in state["offices"].items():
        if holder is not None:
            held.setdefault(holder, name)
    pool = [s for s in state["statesmen"] if s not in (pres, vp) and s != current]
    free = [s for s in pool if s not in held]
    takers = free + [s for s in pool if held.get(s) in APPOINTED] if with_holders else free

    def party_ok(sids: list[str]) -> list[str]:
        if pp == "G":
            return sids
        # the limit of one outsider is relaxed once every own-party statesman has an office
        own_free = [s for s in state["statesmen"] if s not in (pres, vp) and in_party(state, s, pp)
                    and s not in held]
        if not own_free:
            return sids

        def outsiders(moving: str) -> int:  # the office a holder leaves no longer counts
            left = held.get(moving)
            return sum(1 for o in APPOINTED if o not in (office, left) and state["offices"][o]
                       and not in_party(state, state["offices"][o], pp))

        return [s for s in sids if in_party(state, s, pp) or outsiders(s) == 0]

    if office == "general":
        if current is not None:
            if not in_party(state, current, pp) and pp != "G":
                better = free
            else:
                better = [s for s in free if ability(state, s) > ability(state, current)]
        else:
            better = takers
        military = [s for s in better if D(state).statesmen[s]["military"]]
        if military:
            return sorted(party_ok(military))
        if any(D(state).statesmen[s]["military"] for s in free):
            return []  # a military statesman exists but the General may not be replaced by him now
        if current is not None and better == []:
            return []
        if free:
            return sorted(party_ok(better or free))
        return sorted(s for s in pool) if current is None else []
    if current is not None:
        return []
    return sorted(party_ok(takers))
