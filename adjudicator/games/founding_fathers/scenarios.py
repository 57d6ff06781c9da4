"""Scenarios B (the Jefferson-Jackson era, from 1805) and C (countdown to civil war, from 1841).

Set up as the rulebook's scenario pages say: board values, which earlier issues are resolved or
failed, persistent actions in play, the map, the action deck, removed actions and statesmen, the
factions per player count, offices, extra popularity (kept in `bonus`: printed-like, not scored)
and extra influence. Both start at the People phase; only the scenario's era deck is used.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Rng

from .data import Deck

State = dict[str, Any]

_A_RESOLVED = ["assume-state-debts", "bill-of-rights", "british-attacks-on-shipping", "land-act-of-1804",
               "napoleon-seeks-help", "northwest-indian-war", "pay-off-war-bonds", "quasi-war-with-france",
               "re-locate-capital", "sedition-act", "tax-rebellion", "12th-amendment", "virginia-slave-revolt",
               "admit-ky", "admit-tn", "admit-oh"]
_A_FAILED = ["end-slavery", "france-demands-support", "suffrage-for-women"]

SCENARIOS: dict[str, dict[str, Any]] = {
    "B": {
        "era": "B", "revenue": 15, "reserves": -20, "tariff": 1, "tension": 1, "support": 3,
        "resolved": [*_A_RESOLVED, "create-national-bank"], "failed": _A_FAILED,
        "persistent": {"theory-of-judicial-review": None, "dolley-todd": "james-madison"},
        "admitted": ["KY", "OH", "TN"],
        "generations": (1, 2),
        "removed_actions": ["abigail-smith", "dominate-the-president", "expose-a-spy-in-the-cabinet",
                            "north-carolina-divides-its-votes", "panic-of-1797", "pennsylvania-divides-its-votes",
                            "sabotage-a-negotiation", "virginia-kentucky-resolutions"],
        "kept_actions": None,
        "retired": ["benjamin-franklin", "george-washington", "patrick-henry", "john-adams", "alexander-hamilton",
                    "aaron-burr"],
        "factions": {
            3: [["george-clinton", "james-madison", "elbridge-gerry", "william-h-crawford"],
                ["thomas-jefferson", "james-monroe", "albert-gallatin", "andrew-jackson"],
                ["timothy-pickering", "charles-c-pinckney", "john-marshall", "john-quincy-adams", "dewitt-clinton"]],
            4: [["george-clinton", "james-madison", "elbridge-gerry", "william-h-crawford"],
                ["thomas-jefferson", "james-monroe", "albert-gallatin", "andrew-jackson"],
                ["john-jay", "timothy-pickering", "rufus-king", "john-quincy-adams"],
                ["charles-c-pinckney", "thomas-pinckney", "john-marshall", "james-k-polk"]],
            5: [["george-clinton", "james-madison", "elbridge-gerry"],
                ["thomas-jefferson", "james-monroe", "albert-gallatin"],
                ["john-jay", "rufus-king", "john-marshall"],
                ["timothy-pickering", "john-quincy-adams", "william-henry-harrison"],
                ["charles-c-pinckney", "thomas-pinckney", "james-k-polk"]],
            6: [["george-clinton", "james-madison", "elbridge-gerry"],
                ["thomas-jefferson", "james-monroe", "albert-gallatin"],
                ["john-jay", "rufus-king", "john-marshall"],
                ["timothy-pickering", "john-quincy-adams", "william-henry-harrison"],
                ["charles-c-pinckney", "thomas-pinckney", "james-k-polk"],
                ["henry-clay", "thomas-hart-benton", "martin-van-buren"]],
        },
        "coalition_to": {3: 2},  # the third player starts with a Coalition Building card (3 players)
        "offices": {"president": "thomas-jefferson", "vice-president": "george-clinton",
                    "chief-justice": "john-marshall"},
        "elected": {"thomas-jefferson": 2},
        "bonus": {"thomas-jefferson": 6, "james-madison": 3, "george-clinton": 2, "timothy-pickering": 2,
                  "john-marshall": 2, "charles-c-pinckney": 1, "james-monroe": 1, "albert-gallatin": 1},
        "influence": {"thomas-jefferson": 2, "timothy-pickering": 1, "john-marshall": 1},
    },
    "C": {
        "era": "C", "revenue": -1, "reserves": -30, "tariff": 0, "tension": 2, "support": -3,
        "resolved": [*_A_RESOLVED, "adams-onis-treaty", "defunding-the-bank-of-the-usa", "extension-of-slavery-crisis",
                     "first-seminole-war", "french-attacks-on-shipping", "indian-removal-act", "land-act-of-1820",
                     "monroe-doctrine", "nat-turner-slave-uprising", "nullification-crisis", "second-seminole-war",
                     "specie-circular", "war-of-1812", "admit-al", "admit-ar", "admit-il", "admit-in", "admit-la",
                     "admit-me", "admit-mi", "admit-ms", "admit-mo"],
        "failed": [*_A_FAILED, "create-national-bank", "dorr-rebellion-of-rhode-island", "financial-panic",
                   "internal-improvements", "panic-of-1819"],
        "persistent": {"theory-of-judicial-review": None, "republic-of-texas-established": None},
        "admitted": ["KY", "OH", "TN", "AL", "AR", "IL", "IN", "LA", "ME", "MI", "MS", "MO"],
        "generations": (1, 2, 3),
        "removed_actions": None,
        # Gen I and II actions kept (id: copies kept, None = all); Gen III is kept whole
        "kept_actions": {"coalition-building": None, "duel": None, "make-an-important-speech": None,
                         "sabotage-a-negotiation": 1, "secession": None, "theory-of-nullification-applied": None},
        "retired": ["david-crockett", "martin-van-buren"],
        "retire_generation_1_except": ["albert-gallatin", "william-henry-harrison"],
        "factions": {
            3: [["william-henry-harrison", "roger-b-taney", "richard-m-johnson", "william-r-king"],
                ["albert-gallatin", "william-h-seward", "henry-clay", "james-buchanan"],
                ["daniel-webster", "thomas-hart-benton", "lewis-cass", "john-tyler"]],
            4: [["william-henry-harrison", "roger-b-taney", "william-r-king"],
                ["albert-gallatin", "henry-clay", "james-buchanan"],
                ["richard-m-johnson", "daniel-webster", "john-tyler"],
                ["william-h-seward", "thomas-hart-benton", "winfield-scott"]],
            5: [["william-henry-harrison", "roger-b-taney", "george-m-dallas"],
                ["albert-gallatin", "henry-clay", "james-buchanan"],
                ["richard-m-johnson", "daniel-webster", "john-tyler"],
                ["william-h-seward", "thomas-hart-benton", "winfield-scott"],
                ["lewis-cass", "zachary-taylor", "james-k-polk"]],
            6: [["william-henry-harrison", "roger-b-taney", "george-m-dallas"],
                ["albert-gallatin", "henry-clay", "james-buchanan"],
                ["richard-m-johnson", "daniel-webster", "john-tyler"],
                ["william-h-seward", "thomas-hart-benton", "winfield-scott"],
                ["john-c-calhoun", "william-r-king", "james-k-polk"],
                ["lewis-cass", "zachary-taylor", "abraham-lincoln"]],
        },
        "coalition_to": {3: 0, 4: 0, 5: 0, 6: 0},
        "offices": {"president": "william-henry-harrison", "vice-president": "john-tyler",
                    "chief-justice": "roger-b-taney"},
        "elected": {"william-henry-harrison": 1},
        "bonus": {"albert-gallatin": 4, "william-henry-harrison": 3, "henry-clay": 2, "daniel-webster": 2,
                  "john-c-calhoun": 2, "richard-m-johnson": 1, "john-tyler": 1},
        "influence": {"daniel-webster": 1, "henry-clay": 1, "thomas-hart-benton": 1},
    },
}


def final_era(options: dict[str, Any]) -> str:
    """The era whose last issue ends the game: scenario B ends with era B; the standard game may
    be shortened to era A (option `short_game`: "terminar el juego estándar al final de Era A")."""
    if options.get("scenario") == "B":
        return "B"
    if options.get("short_game") and options.get("scenario", "standard") == "standard":
        return "A"
    return "C"


def setup_scenario(state: State, d: Deck, name: str) -> None:
    """Replace the standard setup in `state` (already built) by the scenario's."""
    sc = SCENARIOS[name]
    seats = state["seats"]
    rng = Rng.of(state)
    state.update(revenue=sc["revenue"], reserves=sc["reserves"], tension=sc["tension"], support=sc["support"],
                 era=sc["era"], phase="people")
    state["ledger"] = {"start": sc["reserves"], "changes": 0}
    state["taxes"]["tariff"] = sc["tariff"]
    iss = state["issues"]
    iss["resolved"] = [c for c in sc["resolved"] if c in d.issues]
    iss["removed"] = [c for c in sc["failed"] if c in d.issues]
    earlier = [c for c, card in d.issues.items() if card["era"] < sc["era"]]
    iss["removed"] += [c for c in earlier if c not in iss["resolved"] and c not in iss["removed"]]
    later = [c for c, card in d.issues.items() if card["era"] > sc["era"]]
    iss["removed"] += later  # "use only the scenario's deck"
    iss["removed"].sort()
    for c in iss["resolved"]:  # flags set by the earlier resolutions (the 12th Amendment, ...)
        for eff in d.issues[c]["options"][0]["effects"]:
            if eff["op"] == "flag" and eff["flag"] not in state["flags"]:
                state["flags"].append(eff["flag"])
    state["map"] = sorted({*(s for s, c in d.states.items() if c["original"]), *sc["admitted"]})
    # statesmen and the action deck
    state["statesmen"] = {}
    state["gone"] = {}
    retired = list(sc["retired"])
    if sc.get("retire_generation_1_except") is not None:
        keep = sc["retire_generation_1_except"]
        retired += [s for s in d.by_number if d.statesmen[s]["generation"] == 1 and s not in keep]
    for sid in retired:
        state["gone"][sid] = "retired"
    for seat, sids in zip(seats, sc["factions"][len(seats)], strict=True):
        for sid in sids:
            state["statesmen"][sid] = {"owner": seat, "cubes": 0, "bonus": sc["bonus"].get(sid, 0),
                                       "influence": sc["influence"].get(sid, 0), "elected": sc["elected"].get(sid, 0)}
    persistent = []
    for action, on in sc["persistent"].items():
        copy = f"{action}-1"
        if copy in d.action_copies:
            persistent.append(copy)
            for eff in d.actions[action]["effect"]:
                if eff["op"] == "flag" and eff["flag"] not in state["flags"]:
                    state["flags"].append(eff["flag"])
                if eff["op"] == "popularity" and on in state["statesmen"]:
                    state["statesmen"][on]["bonus"] += eff["n"]
    state["flags"].sort()
    removed: list[str] = []
    pile: list[str] = []
    for gen in (1, 2, 3):
        for cid in d.generation_cards(gen):
            if cid in persistent or cid in state["statesmen"] or cid in state["gone"]:
                continue
            if gen not in sc["generations"]:
                continue
            if not d.is_statesman(cid) and _removed(sc, d, cid, gen):
                removed.append(cid)
            else:
                pile.append(cid)
    future = [c for c in d.generation_cards(3) if 3 not in sc["generations"] and c not in state["gone"]]
    rng.shuffle(pile)
    hands: dict[str, list[str]] = {s: [] for s in seats}
    coalition = sc["coalition_to"].get(len(seats))
    if coalition is not None:
        card = next((c for c in pile if d.action_copies.get(c) in ("coalition-building", "coalition-building-ii",
                                                                    "coalition-building-iii")), None)
        if card:
            pile.remove(card)
            hands[seats[coalition]].append(card)
    for seat in seats:
        for _ in range(2):
            hands[seat].append(pile.pop())
    for seat in seats:
        state["private"][seat]["hand"] = sorted(hands[seat])
        state["factions"][seat]["hand"] = len(hands[seat])
    state["secret"]["actions"] = pile
    state["actions"] = {"left": len(pile), "discard": [], "generation": max(sc["generations"]), "future": future,
                        "persistent": sorted(persistent), "removed": sorted(removed)}
    state["offices"] = dict.fromkeys(state["offices"])
    state["offices"].update(sc["offices"])


def _removed(sc: dict[str, Any], d: Deck, cid: str, gen: int) -> bool:
    action = d.action_copies[cid]
    if sc["removed_actions"] is not None:
        return action in sc["removed_actions"]
    if gen == 3:
        return False
    kept = sc["kept_actions"]
    if action not in kept:
        return True
    limit = kept[action]
    return limit is not None and int(cid.rsplit("-", 1)[1]) > limit
