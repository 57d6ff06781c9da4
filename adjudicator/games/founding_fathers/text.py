"""Plain-English texts for the coded effects and cards (written here from the deck's data, never
copied from a printed card): used by the log, the hand, the choices and the public page."""

from __future__ import annotations

from typing import Any

from .data import DEFAULT_DECK, Deck, deck

PARTY_NAMES = {"L": "Liberal", "C": "Conservative", "G": "non-party"}
_SUPPORT_TOWARD = {
    "L": "the Liberals", "C": "the Conservatives", "pres": "the President's party",
    "anti-pres": "the party opposing the President", "own": "your statesman's party",
}
_INFLUENCE_TO = {
    "president": "the President", "leader-L": "the Liberal party leader", "leader-C": "the Conservative party leader",
    "leaders": "each party leader", "officer": "the officer in charge",
}
_POPULARITY_TO = {"president": "the President", "own-statesman": "your chosen statesman"}


def _signed(n: int, noun: str, up: str = "rises", down: str = "falls") -> str:
    if noun.endswith("reserves"):
        up, down = "rise", "fall"
    return f"{noun} {up if n >= 0 else down} by {abs(n)}"


def words(key: str) -> str:
    """An id such as ``judicial-review`` or ``54th-parallel`` as words."""
    return key.replace("-", " ").replace("_", " ")


def effect_text(eff: dict[str, Any], d: Deck | None = None) -> str:
    """One coded effect in a short sentence fragment (no final full stop)."""
    d = d or deck(DEFAULT_DECK)
    op, n = eff.get("op"), eff.get("n", 0)
    if op == "none":
        return "no effect"
    if op == "support":
        if eff["party"] == "neutral":
            return f"public support moves {n} back toward the centre"
        return f"public support moves {n} toward {_SUPPORT_TOWARD.get(eff['party'], eff['party'])}"
    if op == "tension":
        return _signed(n, "sectional tension")
    if op == "reserves":
        return _signed(n, "the reserves")
    if op == "revenue":
        return _signed(n, "the revenue")
    if op == "influence":
        return f"{_INFLUENCE_TO.get(eff['to'], eff['to'])} {'gains' if n >= 0 else 'loses'} {abs(n)} influence"
    if op == "popularity":
        return f"{_POPULARITY_TO.get(eff['to'], eff['to'])} {'gains' if n >= 0 else 'loses'} {abs(n)} popularity"
    if op == "admit":
        return f"{d.name(eff['state'])} joins the Union"
    if op == "remove":
        return f"the issue {d.name(eff['card'])} leaves the game"
    if op == "flag":
        return f"{words(eff['flag'])} is now in force"
    if op == "ruling":
        return f"the table rules on this: {eff['text']}"
    if op == "votes":
        return f"your faction has {n} more votes in this Congress vote"
    if op == "gain-influence":
        return f"your faction gains {n} influence"
    if op == "death-roll":
        return "a death roll is made for the statesmen in play"
    return words(str(op))


def effects_text(effects: list[dict[str, Any]], d: Deck | None = None, empty: str = "no further effect") -> str:
    return "; ".join(effect_text(e, d) for e in effects) or empty


def _outcome(name: str, r: dict[str, Any], d: Deck) -> str:
    parts = [effects_text(r["effects"], d, "")] if r["effects"] else []
    if r["popularity"]:
        parts.append(f"the President {'gains' if r['popularity'] > 0 else 'loses'} {abs(r['popularity'])} popularity")
    parts.append("the card leaves the game" if r["to"] == "removed" else "the card returns in the next era")
    return f"{name}: " + "; ".join(parts)


def _option(o: dict[str, Any], d: Deck) -> str:
    who = " or ".join(d.offices[x]["name"] for x in o["offices"])
    needs = f"{who}, difficulty {o['difficulty']}" + (", needs a Congress vote" if o["congress"] else "")
    gain = f"; success gives {o['popularity']} popularity" if o["popularity"] else ""
    return f"{words(o['key']).capitalize()} ({needs}{gain}): {effects_text(o['effects'], d)}"


def issue_text(card: dict[str, Any], d: Deck) -> str:
    opts = " | ".join(_option(o, d) for o in card["options"])
    return f"{opts}. {_outcome('If it fails', card['failed'], d)}. {_outcome('If ignored', card['ignored'], d)}."


def statesman_text(s: dict[str, Any], d: Deck) -> str:
    special = {"income": "earns extra influence each turn", "free-speech": "makes speeches at no cost",
               "both-parties": "may stand for either party"}.get(s["special"] or "", "")
    party = PARTY_NAMES.get(s["party"], s["party"])
    return (f"{party} statesman from {d.name(s['state'])}: ability {s['ability']}, popularity {s['popularity']}, "
            f"{s['votes']} Congress votes" + (f", income {s['income']}" if s["income"] else "")
            + (", military" if s["military"] else "") + (f"; {special}" if special else "") + ".")


def action_text(a: dict[str, Any], d: Deck) -> str:
    when = "Play during a Congress vote" if a["timing"] == "vote" else "Play in the action round"
    stays = " It stays in play." if a["persistent"] else ""
    return f"{when}: {effects_text(a['effect'], d)}.{stays}"


def tax_text(t: dict[str, Any], d: Deck) -> str:
    kind = {"tax": "Tax", "tariff": f"Tariff level {t['level']}", "bond": "Bond"}[t["kind"]]
    outrage = f", outrage {t['outrage']}" if t["outrage"] else ""
    return (f"{kind} proposed by the {d.offices[t['office']]['name']} (difficulty {t['difficulty']}"
            + (", needs a Congress vote" if t["congress"] else "")
            + f"): revenue {t['revenue']:+d}{outrage}, popularity {t['popularity']:+d}.")


def card_text(cid: str, deck_ref: str = DEFAULT_DECK) -> str:
    """The effect text of any card a player can hold or see: statesman, action, issue or tax."""
    d = deck(deck_ref)
    if cid in d.statesmen:
        return statesman_text(d.statesmen[cid], d)
    if cid in d.action_copies or cid in d.actions:
        return action_text(d.actions[d.action_copies.get(cid, cid)], d)
    if cid in d.issues:
        return issue_text(d.issues[cid], d)
    if cid in d.taxes:
        return tax_text(d.taxes[cid], d)
    raise KeyError(f"no card {cid!r} in deck {d.id!r}")


def card_label(cid: str, deck_ref: str = DEFAULT_DECK) -> str:
    """Name and effect together, for choices and the log."""
    d = deck(deck_ref)
    return f"{d.name(cid)} ({card_text(cid, deck_ref)})"
