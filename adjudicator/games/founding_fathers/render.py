"""Markdown for events and views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .data import APPOINTED, DEFAULT_DECK, deck
from .grammar import format_order
from .text import card_text, effect_text, words

State = dict[str, Any]


def _name(cid: Any, deck_id: str = DEFAULT_DECK) -> str:
    if not isinstance(cid, str):
        return str(cid)
    try:
        return deck(deck_id).name(cid)
    except KeyError:
        return cid


def _names(ids: list[Any]) -> str:
    return ", ".join(_name(i) for i in ids) or "nobody"


def _party(p: Any) -> str:
    return {"L": "Liberal", "C": "Conservative"}.get(p, str(p))


def _support_now(now: int) -> str:
    return "level" if now == 0 else f"{abs(now)} {'Liberal' if now > 0 else 'Conservative'}"


def _pm(n: int, noun: str, gain: str = "gains", lose: str = "loses") -> str:
    return f"{gain if n >= 0 else lose} {abs(n)} {noun}"


def _why(why: Any) -> str:
    if not why:
        return ""
    text = str(why)
    if text[:2] in ("L ", "C "):  # "L party leader"
        return f" ({_party(text[0])}{text[1:]})"
    if text.startswith("appointed "):
        return f" (appointed {_name(text[10:])})"
    return f" ({_name(text)})"


def _trade(d: dict[str, Any], done: bool) -> str:
    give = [f"{d['give']} influence"] * bool(d["give"]) + [f"{d['cards']} card(s)"] * bool(d["cards"])
    ask = [f"{d['ask']} influence"] * bool(d["ask"]) + [f"{d['ask_cards']} card(s)"] * bool(d["ask_cards"])
    verb = "trades with" if done else "offers a trade to"
    return (f"**{d['seat']}** {verb} **{d['to']}**: {' and '.join(give) or 'nothing'} "
            f"for {' and '.join(ask) or 'nothing'}.")


def _ruling(d: dict[str, Any]) -> str:
    eff = d.get("effect") or {"op": "none"}
    return f"Table ruling on “{d['text']}”: {effect_text(eff)}."


def _issue_outcome(d: dict[str, Any]) -> str:
    how = {"resolved": "resolved", "failed": "failed", "ignored": "ignored", "cancelled": "cancelled by the Court and counts as failed"}
    option = f" (option: {words(d['option'])})" if d.get("option") else ""
    return f"**{_name(d['issue'])}** is {how.get(d['outcome'], words(str(d['outcome'])))}{option}."


def _votes(votes: dict[str, int]) -> str:
    return ", ".join(f"{_name(c)} {n}" for c, n in sorted(votes.items(), key=lambda kv: -kv[1])) or "no votes"


def _election(d: dict[str, Any]) -> str:
    vp = f", {_name(d['vice_president'])} Vice-President" if d.get("vice_president") else ", no Vice-President"
    return f"Election (electoral votes: {_votes(d.get('votes', {}))}): {_name(d['president'])} is President{vp}."


def _game_over(d: dict[str, Any]) -> str:
    reason = {"civil-war": "civil war", "monetary-collapse": "monetary collapse",
              "last-issue": "the last issue was drawn"}.get(d["reason"], words(d["reason"]))
    scores = ", ".join(f"{s} {n}" for s, n in d.get("scores", {}).items())
    return f"**Game over** ({reason}). Winners: {', '.join(d['winners'])}" + (f". Scores: {scores}." if scores else ".")


def _papers(d: dict[str, Any]) -> str:
    if d.get("auto"):
        return f"The {_party(d['party'])} newspapers pay out: public support moves {d['n']} toward them."
    lifted = sum(d.get("lifted", []))
    return (f"The {_party(d['party'])} newspapers: {lifted} cube(s) lifted, "
            f"public support moves {d['n']} toward the {_party(d['party'])}s.")


Sentence = Callable[[dict[str, Any]], str]
SENTENCES: dict[str, Sentence] = {
    "game-started": lambda d: f"Founding Fathers begins with {', '.join(d['seats'])} (deck {d['deck'].split('@')[0]}).",
    "phase": lambda d: f"**Turn {d['turn']}**: the {words(d['phase'])} phase begins.",
    "issue-drawn": lambda d: f"The President draws issue **{_name(d['issue'])}**.",
    "issue-outcome": _issue_outcome,
    "issue-assigned": lambda d: (f"**{_name(d['issue'])}** is given to {_names(d['officers'])} "
                                 f"(option: {words(d['option'])})."),
    "issue-declined": lambda d: f"Nobody takes up **{_name(d['issue'])}**.",
    "issue-deferred": lambda d: f"**{_name(d['issue'])}** is put back for era {d['era']}.",
    "issue-ignored": lambda d: f"The President ignores **{_name(d['issue'])}**.",
    "issue-met": lambda d: f"The officer meets the difficulty of **{_name(d['issue'])}**, spending {d['spend']} influence.",
    "issue-unmet": lambda d: f"The difficulty of **{_name(d['issue'])}** is not met.",
    "issue-removed": lambda d: f"**{_name(d['issue'])}** leaves the game.",
    "issues-ended": lambda d: "No issue is left for this term.",
    "last-issue": lambda d: "The last issue card has been drawn: the game ends after it.",
    "delegated": lambda d: f"The President delegates **{_name(d['issue'])}** to the Vice-President, {_name(d['to'])}.",
    "hand-of-time": lambda d: f"**{_name(d['issue'])}** brings the Hand of Time: a death roll follows.",
    "hand-of-time-roll": lambda d: f"Hand of Time: a {d['roll']} is rolled for {_name(d['statesman'])}.",
    "appointed": lambda d: (f"{_name(d['statesman'])} is appointed {_name(d['office'])}"
                            + (f", replacing {_name(d['replaced'])}." if d.get("replaced") else ".")),
    "resigned": lambda d: f"{_name(d['statesman'])} resigns as {_name(d['office'])}.",
    "succeeded": lambda d: f"{_name(d['statesman'])} succeeds to the office of {_name(d['office'])}.",
    "office-claimed": lambda d: f"**{d['seat']}** claims {_name(d['office'])} for {_name(d['statesman'])}.",
    "committee": lambda d: (f"The players {'draft' if d['mode'] == 'draft' else 'fill'} the vacant offices, "
                            f"in this order: {', '.join(d['order'])}."),
    "died": lambda d: (f"{_name(d['statesman'])} dies"
                       + (f" in office ({_name(d['office'])})" if d.get("office") else "")
                       + f"; {d['seat']} scores {d['vp']} VP."),
    "retired": lambda d: f"{_name(d['statesman'])} retires; {d['seat']} scores {d['vp']} VP.",
    "state-admitted": lambda d: (f"{_name(d['state'])} joins the Union"
                                 + (f", beside {_names(d['beside'])}." if d.get("beside") else ".")),
    "election-result": _election,
    "treasury": lambda d: (f"The Treasury collects revenue of {d['revenue']:+d} and pays {d['interest']} "
                           f"interest; the reserves now stand at {d['reserves']}."),
    "game-over": _game_over,
    "actions-reshuffled": lambda d: f"A new action deck is shuffled: generation {d['generation']}, {d['cards']} cards.",
    "era-deck": lambda d: f"**Era {d['era']}** begins: its issue deck has {d['cards']} cards.",
    "auction-bid": lambda d: (f"**{d['seat']}** bids {d['n']} influence for the extra initiative." if d["n"]
                              else f"**{d['seat']}** passes in the extra-initiative auction."),
    "extra-initiative": lambda d: f"**{d['seat']}** wins the extra initiative for {d['paid']} influence and draws an action card.",
    "candidacy": lambda d: f"{_name(d['statesman'])} {'runs' if d['run'] else 'does not run'} for President.",
    "running-mate-asked": lambda d: f"{_name(d['candidate'])} asks {_name(d['mate'])} to be his running mate.",
    "running-mate-answer": lambda d: f"{_name(d['mate'])} {'accepts' if d['accept'] else 'declines'} {_name(d['candidate'])}'s offer.",
    "running-mate": lambda d: f"{_name(d['mate'])} is {_name(d['candidate'])}'s running mate.",
    "nominees": lambda d: (f"Nominees: {_names(d['candidates'])}"
                           + (" (a single candidate)" if d.get("single") else "")
                           + (" (separate votes for President and Vice-President)" if d.get("post12") else "") + "."),
    "placement-order": lambda d: f"Election cubes are placed in this order: {_names(d['order'])}.",
    "cube": lambda d: f"{_name(d['statesman'])} places an election cube in {_name(d['state'])}.",
    "cube-deferred": lambda d: f"{_name(d['statesman'])} waits to place his election cube.",
    "tiebreak": lambda d: f"A tie for {_name(d['office'])} between {_names(d['candidates'])}: the states break it.",
    "tiebreak-state": lambda d: f"Tie-break: {_name(d['state'])} votes.",
    "tiebreak-vote": lambda d: (f"{_name(d['statesman'])} backs {_name(d['candidate'])} in the tie-break." if d.get("candidate")
                                else f"{_name(d['statesman'])} backs nobody in the tie-break."),
    "tiebreak-state-result": lambda d: (f"Tie-break in {_name(d['state'])} ({_votes(d['votes'])}): "
                                        + (f"won by {_name(d['winner'])}." if d.get("winner") else "no winner.")),
    "tiebreak-justice": lambda d: f"The Chief Justice breaks the tie for {_name(d['candidate'])}.",
    "tiebreak-result": lambda d: (f"Tie-break result (states won: {_votes(d['states'])}): "
                                  f"ranking {_names(d['ranking'])}."),
    "black-ring": lambda d: f"{_name(d['statesman'])} lost the election and takes a black ring ({d['rings']} in all).",
    "black-cube": lambda d: f"**{d['seat']}** is blamed for the rise in tension and takes a black cube.",
    "tension": lambda d: f"Sectional tension {'rises' if d['n'] >= 0 else 'falls'} by {abs(d['n'])} (now {d['now']}/5).",
    "civil-war": lambda d: "Tension reaches its peak: **civil war** breaks out.",
    "support": lambda d: (f"Public support moves {d['n']} toward the {_party(d['party'])}s "
                          f"(now {_support_now(d['now'])})."),
    "reserves": lambda d: f"The reserves {'rise' if d['n'] >= 0 else 'fall'} by {abs(d['n'])} (now {d['now']}).",
    "revenue": lambda d: f"The revenue {'rises' if d['n'] >= 0 else 'falls'} by {abs(d['n'])} (now {d['now']}).",
    "economic-crisis": lambda d: f"Economic crisis: a {d['roll']} is rolled (result {d['result']}).",
    "monetary-collapse": lambda d: "The reserves have run too low: **monetary collapse**.",
    "flag": lambda d: f"From now on, {words(d['flag'])} is in force.",
    "ruling": _ruling,
    "popularity": lambda d: f"{_name(d['statesman'])} {_pm(d['n'], 'popularity')}{_why(d.get('why'))}.",
    "influence": lambda d: f"{_name(d['statesman'])} {_pm(d['n'], 'influence')}{_why(d.get('why'))}.",
    "influence-given": lambda d: f"{_name(d['statesman'])} is given {d['n']} influence to work on the issue.",
    "faction-influence": lambda d: f"**{d['seat']}** {_pm(d['n'], 'influence')}.",
    "coalition": lambda d: f"**{d['seat']}** gains {d['n']} extra votes in this Congress vote.",
    "income": lambda d: "Income: every faction gains 1 influence; party leaders and statesmen with income gain theirs.",
    "newspapers": _papers,
    "speech": lambda d: f"{_name(d['statesman'])} makes a speech and rolls {d['roll']}.",
    "speech-result": lambda d: f"{_name(d['statesman'])}'s speech totals {d['total']}.",
    "whip": lambda d: (f"{_name(d['statesman'])} whips up the party: rolls {d['roll']}, public support moves "
                       f"{d['n']} (now {_support_now(d['now'])})."),
    "fund": lambda d: (f"{_name(d['statesman'])} funds the {_party(d['party'])} newspapers"
                       + (" with a new cube." if d["box"] == 0 else f", moving a cube to box {d['box'] + 1}.")),
    "drafted": lambda d: f"**{d['seat']}** drafts an action card.",
    "drafted-card": lambda d: f"You drafted {_name(d['card'])}.",
    "discarded": lambda d: f"**{d['seat']}** discards {_name(d['card'])}.",
    "card-played": lambda d: (f"**{d['seat']}** plays {_name(d['card'])}"
                              + (f" on {_name(d['target'])}" if d.get("target") else "")
                              + f" ({_card_text(d['card']).rstrip('.')})."),
    "statesman-played": lambda d: f"**{d['seat']}** brings {_name(d['statesman'])} into play.",
    "hand-revealed": lambda d: f"**{d['seat']}** shows their hand: {_names(d['hand'])}.",
    "reduced-faction": lambda d: f"**{d['seat']}** has no statesman left in play.",
    "donor-named": lambda d: f"**{d['donor']}** is to give **{d['seat']}** a statesman.",
    "statesman-given": lambda d: f"**{d['donor']}** gives {_name(d['statesman'])} to **{d['seat']}**.",
    "succession-bids": lambda d: (f"Bids for the presidency ({', '.join(f'{s} {n}' for s, n in d['bids'].items())}): "
                                  f"{_name(d['winner'])} becomes President."),
    "tax-proposed": lambda d: f"The Treasury proposes to {words(d['do'])} **{_name(d['tax'])}**.",
    "tax-failed": lambda d: f"The proposal to {words(d['do'])} **{_name(d['tax'])}** fails.",
    "tax-passed": lambda d: f"**{_name(d['tax'])}** is passed; revenue now {d['revenue']}.",
    "tax-repealed": lambda d: f"**{_name(d['tax'])}** is repealed; revenue now {d['revenue']}.",
    "tax-outrage": lambda d: (f"Tax outrage: rolled {d['roll']} for a total of {d['total']}; "
                              f"{d['lost']} popularity lost."),
    "voted": lambda d: (f"**{d['seat']}** abstains." if d["vote"] == "abstain" else
                        f"**{d['seat']}** votes {d['vote']} with {d['votes']} votes"
                        + (f" ({d['bought']} influence spent on extra votes)." if d.get("bought") else ".")),
    "congress": lambda d: f"Congress on **{_name(d['issue'])}**: {d['yes']} yes, {d['no']} no.",
    "tie-broken": lambda d: f"The Vice-President breaks the tie: the bill {'passes' if d['passed'] else 'fails'}.",
    "review": lambda d: (f"The Supreme Court {'strikes down' if d['cancelled'] else 'upholds'} "
                         f"**{_name(d['issue'])}**."),
    "persuasion": lambda d: (f"{_name(d['statesman'])} tries to persuade {_name(d['target'])}: rolls "
                             f"{' + '.join(map(str, d['dice']))}"
                             + (f", {', '.join(d['modifiers'])}" if d.get("modifiers") else "")
                             + f", total {d['total']}."),
    "persuasion-spend": lambda d: f"**{d['seat']}** spends {d['n']} influence on the persuasion (total now {d['total']}).",
    "persuaded": lambda d: (f"{_name(d['statesman'])} is persuaded (total {d['total']}) and leaves "
                            f"**{d['was']}** for **{d['seat']}**."),
    "persuasion-failed": lambda d: (f"{_name(d['statesman'])} fails to persuade {_name(d['target'])} "
                                    f"(total {d['total']}: {d['why']})."),
    "faction-leader": lambda d: f"**{d['seat']}** makes {_name(d['statesman'])} faction leader.",
    "trade-offered": lambda d: _trade(d, False),
    "trade": lambda d: _trade(d, True),
    "trade-declined": lambda d: f"**{d['to']}** turns down **{d['seat']}**'s offer.",
    "trade-cards": lambda d: f"In the trade you gave {_names(d['given']) if d['given'] else 'no card'} "
                             f"and received {_names(d['received']) if d['received'] else 'no card'}.",
}


def _card_text(cid: Any) -> str:
    try:
        return card_text(cid)
    except KeyError:
        return "a card of another deck"


def order_label(order: dict[str, Any]) -> str:
    """The order's text with the names of the cards, statesmen, offices and taxes it names."""
    text = format_order(order)
    named = " ".join(_name(w) for w in text.split())
    return f"{text} — {named}" if named != text else text


def render_event(ev: dict[str, Any]) -> str:
    sentence = SENTENCES.get(ev["kind"])
    if sentence is None:  # an event this renderer does not know (tests catch it): still readable
        return f"({words(ev['kind'])})"
    return sentence(ev.get("data", {}))


def render_view(view: State, seat: str | None) -> str:
    d = deck(view.get("deck", DEFAULT_DECK))
    lines = [f"## Founding Fathers — turn {view['turn']}, {view['phase']}, era {view['era']}", ""]
    sup = view["support"]
    lines.append(f"Revenue {view['revenue']} · Reserves {view['reserves']} · Public support "
                 f"{abs(sup)} {'L' if sup > 0 else 'C' if sup < 0 else ''} · Tension {view['tension']}/5")
    lines.append("Map: " + ", ".join(view["map"]))
    lines.append("")
    lines.append("| Office | Statesman |")
    lines.append("|---|---|")
    for o in ("president", "vice-president", *APPOINTED):
        h = view["offices"][o]
        lines.append(f"| {d.offices[o]['name']} | {d.statesmen[h]['name'] if h else '—'} |")
    lines.append("")
    lines.append("| Seat | VP | Influence | Hand | Statesmen (popularity, influence) |")
    lines.append("|---|---|---|---|---|")
    for s in view["seats"]:
        f = view["factions"][s]
        mine = [f"{d.statesmen[x]['name']} ({d.statesmen[x]['popularity'] + v['bonus'] + v['cubes']}, {v['influence']})"
                for x, v in view["statesmen"].items() if v["owner"] == s]
        lines.append(f"| {s} | {f['vp']} | {f['influence']} | {f['hand']} | {'; '.join(mine)} |")
    if view["issues"]["resolved"]:
        lines.append("")
        lines.append("Resolved issues: " + ", ".join(d.name(c) for c in view["issues"]["resolved"]))
    if seat and seat in view.get("private", {}):
        lines.append("")
        hand = view["private"][seat]["hand"]
        lines.append("Your hand:" + ("".join(f"\n- {d.name(c)}: {card_text(c, view.get('deck', DEFAULT_DECK))}"
                                             for c in hand) or " empty"))
    if view.get("result"):
        r = view["result"]
        lines.append("")
        lines.append(f"**Game over** ({r['reason']}): " + ", ".join(f"{s} {n}" for s, n in r["scores"].items()))
    return "\n".join(lines)
