"""The shipped deck and the deck validator."""

from __future__ import annotations

import copy
import json

from adjudicator.games.founding_fathers.data import deck, deck_text, stand_in_report, validate_deck


def load() -> dict:
    return json.loads(deck_text("standard"))


def test_shipped_deck_is_valid_and_complete() -> None:
    data = load()
    assert validate_deck(data) == []
    d = deck()
    assert len(d.statesmen) == 50
    eras = [i["era"] for i in data["issues"]]
    assert (eras.count("A"), eras.count("B"), eras.count("C")) == (20, 26, 21)
    gens = [d.actions[a]["generation"] for a in d.action_copies.values()]
    assert (gens.count(1), gens.count(2), gens.count(3)) == (23, 8, 10)  # 91 with the statesmen
    taxes = [t["kind"] for t in data["taxes"]]
    assert (taxes.count("tariff"), taxes.count("tax"), taxes.count("bond")) == (5, 5, 2)
    assert sum(s["ev"]["A"] for s in data["states"] if s["original"]) == 134


def test_every_card_has_provenance() -> None:
    data = load()
    for key in ("statesmen", "states", "offices", "taxes", "issues", "actions"):
        for card in data[key]:
            assert card["provenance"] in ("card", "play-report", "stand-in")
    assert stand_in_report(data)


def test_rulebook_example_faction_votes_fit() -> None:
    d = deck()
    v = {s: d.statesmen[s]["votes"] for s in d.statesmen}
    assert v["benjamin-franklin"] + v["george-washington"] + v["george-clinton"] == 16
    assert v["alexander-hamilton"] + v["charles-c-pinckney"] + v["john-marshall"] == 11
    assert v["thomas-jefferson"] + v["patrick-henry"] + v["william-henry-harrison"] + v["timothy-pickering"] == 8
    assert v["aaron-burr"] + v["james-madison"] + v["james-monroe"] + v["william-h-crawford"] == 16
    assert v["john-adams"] + v["john-jay"] + v["andrew-jackson"] + v["john-quincy-adams"] == 9


def test_validator_reports_problems() -> None:
    data = load()
    bad = copy.deepcopy(data)
    bad["statesmen"][0]["provenance"] = "rumour"
    bad["issues"][0]["options"][0]["effects"].append({"op": "teleport"})
    bad["states"][0]["ev"] = {"A": 3}
    bad["statesmen"][1]["id"] = bad["statesmen"][0]["id"]
    problems = validate_deck(bad)
    text = "\n".join(problems)
    assert "provenance" in text
    assert "unknown op 'teleport'" in text
    assert "ev needs" in text
    assert "duplicate id" in text
    assert validate_deck([]) == ["a deck is a JSON object"]
    assert validate_deck({"id": "x"})
