"""Texts for the coded effects and cards (written here from the deck's data, never copied from a
printed card): used by the log, the hand, the choices and the public page.

Each text is built as a message (msgid and values, issue 12), so the service can show it in the
reader's language; the `*_text` functions give its English. Names (statesmen, states, offices,
cards) and the deck's own words (a table ruling, a flag's id) stay as printed.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, Message, message, message_text

from .data import DEFAULT_DECK, Deck, deck

Text = str | Message

PARTY_NAMES = {"L": "Liberal", "C": "Conservative", "G": "non-party"}
_STATESMAN = {"L": N_("Liberal statesman from %(state)s: %(stats)s"),
              "C": N_("Conservative statesman from %(state)s: %(stats)s"),
              "G": N_("non-party statesman from %(state)s: %(stats)s")}
_SUPPORT_TOWARD = {
    "L": N_("the Liberals"), "C": N_("the Conservatives"), "pres": N_("the President's party"),
    "anti-pres": N_("the party opposing the President"), "own": N_("your statesman's party"),
}
_INFLUENCE_TO = {
    "president": N_("the President"), "leader-L": N_("the Liberal party leader"),
    "leader-C": N_("the Conservative party leader"), "leaders": N_("each party leader"),
    "officer": N_("the officer in charge"),
}
_POPULARITY_TO = {"president": N_("the President"), "own-statesman": N_("your chosen statesman")}
_SIGNED = {"tension": (N_("sectional tension rises by %(n)s"), N_("sectional tension falls by %(n)s")),
           "reserves": (N_("the reserves rise by %(n)s"), N_("the reserves fall by %(n)s")),
           "revenue": (N_("the revenue rises by %(n)s"), N_("the revenue falls by %(n)s"))}
_SPECIAL = {"income": N_("earns extra influence each turn"), "free-speech": N_("makes speeches at no cost"),
            "both-parties": N_("may stand for either party")}
# A card text closed by a full stop, which the log leaves out (placeholders only: no words).
_CLOSED = "%(text)s."


def words(key: str) -> str:
    """An id such as ``judicial-review`` or ``54th-parallel`` as words."""
    return key.replace("-", " ").replace("_", " ")


def _join(items: list[Text], sep: str) -> Text:
    """Items joined by `sep`; a message when an item is one (its msgid has only placeholders)."""
    words = [i for i in items if isinstance(i, str)]
    if len(words) == len(items):
        return sep.join(words)
    return message(sep.join(f"%(p{k})s" for k in range(len(items))), **{f"p{k}": i for k, i in enumerate(items)})


def _named(table: dict[str, str], key: str) -> Text:
    return message(table[key]) if key in table else key


def _gains(who: Text, n: int, what: str) -> Message:
    if what == "influence":
        return message(N_("%(who)s gains %(n)s influence") if n >= 0 else N_("%(who)s loses %(n)s influence"),
                       who=who, n=abs(n))
    return message(N_("%(who)s gains %(n)s popularity") if n >= 0 else N_("%(who)s loses %(n)s popularity"),
                   who=who, n=abs(n))


def effect_message(eff: dict[str, Any], d: Deck | None = None) -> Message:  # noqa: PLR0911 - one line per op
    """One coded effect as a short sentence fragment (no final full stop)."""
    d = d or deck(DEFAULT_DECK)
    op, n = eff.get("op"), eff.get("n", 0)
    if op == "none":
        return message(N_("no effect"))
    if op == "support":
        if eff["party"] == "neutral":
            return message(N_("public support moves %(n)s back toward the centre"), n=n)
        return message(N_("public support moves %(n)s toward %(party)s"), n=n,
                       party=_named(_SUPPORT_TOWARD, eff["party"]))
    if op in _SIGNED:
        up, down = _SIGNED[op]
        return message(up if n >= 0 else down, n=abs(n))
    if op == "influence":
        return _gains(_named(_INFLUENCE_TO, eff["to"]), n, "influence")
    if op == "popularity":
        return _gains(_named(_POPULARITY_TO, eff["to"]), n, "popularity")
    if op == "admit":
        return message(N_("%(state)s joins the Union"), state=d.name(eff["state"]))
    if op == "remove":
        return message(N_("the issue %(card)s leaves the game"), card=d.name(eff["card"]))
    if op == "flag":
        return message(N_("%(flag)s is now in force"), flag=words(eff["flag"]))
    if op == "ruling":
        return message(N_("the table rules on this: %(text)s"), text=eff["text"])
    if op == "votes":
        return message(N_("your faction has %(n)s more votes in this Congress vote"), n=n)
    if op == "gain-influence":
        return message(N_("your faction gains %(n)s influence"), n=n)
    if op == "death-roll":
        return message(N_("a death roll is made for the statesmen in play"))
    return message("%(op)s", op=words(str(op)))


def effect_text(eff: dict[str, Any], d: Deck | None = None) -> str:
    return message_text(effect_message(eff, d))


def effects_message(effects: list[dict[str, Any]], d: Deck | None = None, empty: str = N_("no further effect")) -> Text:
    if not effects:
        return message(empty) if empty else ""
    return _join([effect_message(e, d) for e in effects], "; ")


def effects_text(effects: list[dict[str, Any]], d: Deck | None = None, empty: str = "no further effect") -> str:
    text = effects_message(effects, d, empty)
    return text if isinstance(text, str) else message_text(text)


def _outcome(failed: bool, r: dict[str, Any], d: Deck) -> Message:
    parts: list[Text] = [effects_message(r["effects"], d, "")] if r["effects"] else []
    if r["popularity"]:
        parts.append(_gains(message(N_("the President")), r["popularity"], "popularity"))
    parts.append(message(N_("the card leaves the game") if r["to"] == "removed" else
                         N_("the card returns in the next era")))
    return message(N_("If it fails: %(effects)s") if failed else N_("If ignored: %(effects)s"),
                   effects=_join(parts, "; "))


def _option(o: dict[str, Any], d: Deck) -> Message:
    who = _join([d.offices[x]["name"] for x in o["offices"]], " or ") if len(o["offices"]) < 2 else \
        message(N_("%(some)s or %(last)s"), some=" or ".join(d.offices[x]["name"] for x in o["offices"][:-1]),
                last=d.offices[o["offices"][-1]]["name"])
    needs: Text = message(N_("%(who)s, difficulty %(n)s"), who=who, n=o["difficulty"])
    if o["congress"]:
        needs = message(N_("%(text)s, needs a Congress vote"), text=needs)
    if o["popularity"]:
        needs = message(N_("%(text)s; success gives %(n)s popularity"), text=needs, n=o["popularity"])
    return message("%(key)s (%(needs)s): %(effects)s", key=words(o["key"]).capitalize(), needs=needs,
                   effects=effects_message(o["effects"], d))


def issue_message(card: dict[str, Any], d: Deck) -> Message:
    opts = _join([_option(o, d) for o in card["options"]], " | ")
    return message("%(options)s. %(failed)s. %(ignored)s", options=opts, failed=_outcome(True, card["failed"], d),
                   ignored=_outcome(False, card["ignored"], d))


def statesman_message(s: dict[str, Any], d: Deck) -> Message:
    stats: Text = message(N_("ability %(ability)s, popularity %(popularity)s, %(votes)s Congress votes"),
                          ability=s["ability"], popularity=s["popularity"], votes=s["votes"])
    if s["income"]:
        stats = message(N_("%(text)s, income %(n)s"), text=stats, n=s["income"])
    if s["military"]:
        stats = message(N_("%(text)s, military"), text=stats)
    if s["special"] in _SPECIAL:
        stats = message("%(text)s; %(special)s", text=stats, special=message(_SPECIAL[s["special"]]))
    party = _STATESMAN.get(s["party"])
    if party is None:
        return message("%(party)s statesman from %(state)s: %(stats)s", party=s["party"], state=d.name(s["state"]),
                       stats=stats)
    return message(party, state=d.name(s["state"]), stats=stats)


def action_message(a: dict[str, Any], d: Deck) -> Message:
    when = N_("Play during a Congress vote: %(effects)s") if a["timing"] == "vote" else \
        N_("Play in the action round: %(effects)s")
    text = message(when, effects=effects_message(a["effect"], d))
    return message(N_("%(text)s. It stays in play"), text=text) if a["persistent"] else text


def tax_message(t: dict[str, Any], d: Deck) -> Message:
    office = d.offices[t["office"]]["name"]
    kind = {"tax": message(N_("Tax proposed by the %(office)s"), office=office),
            "tariff": message(N_("Tariff level %(level)s proposed by the %(office)s"), level=t["level"], office=office),
            "bond": message(N_("Bond proposed by the %(office)s"), office=office)}[t["kind"]]
    needs: Text = message(N_("difficulty %(n)s"), n=t["difficulty"])
    if t["congress"]:
        needs = message(N_("%(text)s, needs a Congress vote"), text=needs)
    gains: Text = message(N_("revenue %(n)s"), n=f"{t['revenue']:+d}")
    if t["outrage"]:
        gains = message(N_("%(text)s, outrage %(n)s"), text=gains, n=t["outrage"])
    gains = message(N_("%(text)s, popularity %(n)s"), text=gains, n=f"{t['popularity']:+d}")
    return message("%(kind)s (%(needs)s): %(gains)s", kind=kind, needs=needs, gains=gains)


def card_message(cid: str, deck_ref: str = DEFAULT_DECK, stop: bool = True) -> Message:
    """The effect text of any card a player can hold or see: statesman, action, issue or tax;
    `stop=False` leaves out the final full stop (the log puts the text in brackets)."""
    d = deck(deck_ref)
    if cid in d.statesmen:
        text = statesman_message(d.statesmen[cid], d)
    elif cid in d.action_copies or cid in d.actions:
        text = action_message(d.actions[d.action_copies.get(cid, cid)], d)
    elif cid in d.issues:
        text = issue_message(d.issues[cid], d)
    elif cid in d.taxes:
        text = tax_message(d.taxes[cid], d)
    else:
        raise KeyError(f"no card {cid!r} in deck {d.id!r}")
    return message(_CLOSED, text=text) if stop else text


def card_text(cid: str, deck_ref: str = DEFAULT_DECK) -> str:
    """The English effect text of any card (see `card_message`)."""
    return message_text(card_message(cid, deck_ref))


def card_label(cid: str, deck_ref: str = DEFAULT_DECK) -> str:
    """Name and effect together, for choices and the log."""
    d = deck(deck_ref)
    return f"{d.name(cid)} ({card_text(cid, deck_ref)})"
