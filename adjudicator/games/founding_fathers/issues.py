"""The Issues phase: the President's desk, drawing issues, and each issue's resolution steps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.engine import N_, Event, Order, Rng, event, message

from .data import CABINET, ERAS
from .effects import add_cubes, apply_effects, raise_tension
from .flowbase import FLOW, FFNode, node
from .offices import appoint, appointment_choices, committee_due, fillable_vacancies
from .state import (
    D,
    ability,
    add_reserves,
    available_influence,
    congress_votes,
    office_of,
    owner,
    pay,
    president_seat,
    rules_16,
    seats_from_left,
    since,
    vacated,
)

State = dict[str, Any]


def schedule_rulings(state: State, rulings: list[str]) -> None:
    tasks = []
    for text in rulings:
        if text == "\x00death":
            tasks.append(("death", {"stage": "roll"}))
        else:
            tasks.append(("ruling", {"text": text}))
    FLOW.schedule(state, tasks)


# ------------------------------------------------------------------------------ the deck
def prerequisites_met(state: State, card: dict[str, Any]) -> bool:
    for p in card["prerequisites"]:
        if "resolved" in p and p["resolved"] not in state["issues"]["resolved"]:
            return False
        if "flag" in p and p["flag"] not in state["flags"]:
            return False
        if "tax" in p and not any(D(state).taxes[t]["kind"] == "tax" for t in state["taxes"]["active"]):
            return False
    return True


def next_era(era: str) -> str | None:
    k = ERAS.index(era)
    return ERAS[k + 1] if k + 1 < len(ERAS) else None


def last_era(state: State) -> bool:
    from .scenarios import final_era

    return next_era(state["issues"]["era"]) is None or state["issues"]["era"] == final_era(state["options"])


def to_next_deck(state: State, cid: str, events: list[Event]) -> None:
    nxt = next_era(state["issues"]["era"])
    if nxt is None or last_era(state):
        state["issues"]["removed"].append(cid)
        events.append(event("issue-removed", issue=cid))
    else:
        state["issues"]["pools"][nxt].append(cid)
        state["issues"]["pools"][nxt].sort()
        events.append(event("issue-deferred", issue=cid, era=nxt))


def issues_available(state: State) -> bool:
    iss = state["issues"]
    if iss["left"] > 0:
        return True
    if not last_era(state):
        return True
    return any(prerequisites_met(state, D(state).issues[c]) for c in iss["set_aside"])


def draw_issue(state: State, events: list[Event]) -> str | None:
    """Draw the next usable issue; unmet prerequisites go to the next era's deck (in the last era,
    they are set aside face up and drawn at random when the deck runs out)."""
    from .state import deal_issue_deck

    d = D(state)
    iss = state["issues"]
    rng = Rng.of(state)
    while True:
        if iss["left"] == 0:
            nxt = next_era(iss["era"])
            if nxt is not None and not last_era(state):
                deal_issue_deck(state, nxt)
                events.append(event("era-deck", era=nxt, cards=iss["left"]))
                continue
            usable = sorted(c for c in iss["set_aside"] if prerequisites_met(state, d.issues[c]))
            if not usable:
                for c in iss["set_aside"]:
                    iss["removed"].append(c)
                iss["set_aside"] = []
                iss["last_drawn"] = True
                return None
            cid = usable[rng.below(len(usable))]
            iss["set_aside"].remove(cid)
        else:
            cid = state["secret"]["issues"].pop(0)
            iss["left"] -= 1
        card = d.issues[cid]
        state["era"] = card["era"] if card["era"] >= state["era"] else state["era"]
        if not prerequisites_met(state, card):
            events.append(event("issue-unmet", issue=cid))
            if last_era(state):
                iss["set_aside"].append(cid)
                iss["set_aside"].sort()
            else:
                to_next_deck(state, cid, events)
            continue
        iss["drawn"] += 1
        events.append(event("issue-drawn", issue=cid, number=iss["drawn"]))
        if iss["left"] == 0 and last_era(state) and not any(
                prerequisites_met(state, d.issues[c]) for c in iss["set_aside"]):
            iss["last_drawn"] = True
            events.append(event("last-issue"))
        return cid


# ------------------------------------------------------------------------------ the desk
# What each kind of agenda choice does (the rulebook's facts, in our words), said beside the list.
AGENDA_ORDER = ("draw", "appoint", "tax-pass", "tax-repeal", "end")
AGENDA_CHOICES = {
    "draw": N_("`draw` turns up the next issue card, which you then resolve (assign one of its options or "
               "ignore it); four issues are drawn each term, taxes not counted."),
    "appoint": N_("`appoint OFFICE STATESMAN` gives a cabinet office to a statesman, who gains the office's "
                  "popularity; the General and the Chief Justice change only when their office is vacant or the "
                  "rules allow a replacement."),
    "tax-pass": N_("`tax pass` raises the revenue by the card's amount (each tax card once a term); a tax (not a "
                   "tariff or bond) then risks fiscal outrage, a die roll that may cost the President and the "
                   "Treasury popularity."),
    "tax-repeal": N_("`tax repeal` lowers the revenue by the card's amount."),
    "end": N_("`end` closes the agenda for this term (offered once nothing is left to draw and no vacancy can "
              "be filled)."),
}
@node("desk")
class Desk(FFNode):
    kind = "agenda"

    def waiting(self, state, args):
        if committee_due(state):
            return []
        return [president_seat(state)] if state["offices"]["president"] else []

    def choices(self, state, args, seat):
        out: list[Order] = []
        iss = state["issues"]
        can_draw = iss["drawn"] < 4 and issues_available(state) and not iss["last_drawn"]
        if can_draw:
            out.append({"act": "draw"})
        if not can_draw and not fillable_vacancies(state):
            out.append({"act": "end"})
        out += appointment_choices(state)
        out += tax_choices(state)
        return out

    def text(self, state, args, seat):
        return message(N_("The President's agenda: %(drawn)s of 4 issues drawn. %(choices)s"),
                       drawn=state["issues"]["drawn"])

    def worded(self, text, choices):
        # the sentences come from the choices the prompt has just built (listing them again
        # in `text` was a third of a replayed agenda step)
        acts = {c["act"] if c["act"] != "tax" else f"tax-{c['do']}" for c in choices}
        said = [message(AGENDA_CHOICES[a]) for a in AGENDA_ORDER if a in acts]
        # each kind of choice offered gets its sentence, joined by a msgid of placeholders only
        joined = message(" ".join(f"%(s{i})s" for i in range(len(said))), **{f"s{i}": m for i, m in enumerate(said)})
        msgid, values = text
        return message(msgid, **values, choices=joined)

    def default(self, state, args, seat):
        """Draw while issues remain, then fill the vacancies, then end the phase.

        The appointments "no necesitan hacerse inmediatamente, pero deben resolverse al final de
        las cuestiones", so once nothing is left to draw the default fills a *vacant* office. It
        never replaces a sitting holder: replacing the General could swap two statesmen back and
        forth forever (+1 popularity each time) while the vacancy stayed open."""
        choices = self.choices(state, args, seat)
        for c in choices:
            if c["act"] in ("draw", "end"):
                return c
        vacant = set(fillable_vacancies(state))
        fills = [c for c in choices if c["act"] == "appoint" and c["office"] in vacant]
        # a statesman without office first: moving a holder would mostly just move the vacancy
        for c in fills:
            if office_of(state, c["statesman"]) is None:
                return c
        return fills[0] if fills else choices[0]

    def advance(self, state, args, events):  # no President (cannot happen after setup): close the phase
        if committee_due(state):
            from .committee import start_committee

            start_committee(state, "replace", events)
            return
        FLOW.ret(state)

    def apply(self, state, args, orders, events):
        order = next(iter(orders.values()))
        act = order["act"]
        if act == "end":
            events.append(event("issues-ended"))
            FLOW.ret(state)
        elif act == "draw":
            FLOW.call(state, "draw")
        elif act == "appoint":
            appoint(state, order["office"], order["statesman"], events)
        elif act == "tax":
            start_tax(state, order, events)


def tax_choices(state: State) -> list[Order]:
    d = D(state)
    tx = state["taxes"]
    out: list[Order] = []
    treasury = state["offices"]["secretary-of-the-treasury"]
    for t in d.data["taxes"]:
        if t["kind"] == "tariff" or t["id"] in tx["tried"]:
            continue
        if t["id"] in tx["active"]:
            out.append({"act": "tax", "tax": t["id"], "do": "repeal"})
        elif treasury:
            out.append({"act": "tax", "tax": t["id"], "do": "pass"})
    if not tx["tariff_done"]:
        level = tx["tariff"]
        if level < len(d.tariffs) and treasury:
            out.append({"act": "tax", "tax": d.tariffs[level]["id"], "do": "pass"})
        if level > 0:
            out.append({"act": "tax", "tax": d.tariffs[level - 1]["id"], "do": "repeal"})
    return out


def start_tax(state: State, order: Order, events: list[Event]) -> None:
    d = D(state)
    t = d.taxes[order["tax"]]
    tx = state["taxes"]
    if t["kind"] == "tariff":
        tx["tariff_done"] = True
    else:
        tx["tried"].append(t["id"])
    officer = state["offices"][t["office"]] if order["do"] == "pass" else None
    state["issues"]["current"] = {
        "card": t["id"], "kind": "tax", "do": order["do"], "option": None,
        "officers": [officer] if officer else [], "difficulty": t["difficulty"] if order["do"] == "pass" else 0,
        "spend": 0, "votes": {}, "voters": [], "outcome": None, "delegated": False,
    }
    events.append(event("tax-proposed", tax=t["id"], do=order["do"]))
    if order["do"] == "pass":
        FLOW.call(state, "give")
    else:
        FLOW.call(state, "vote")


# ------------------------------------------------------------------------------ one issue
@node("draw")
class Draw(FFNode):
    def advance(self, state, args, events):
        cid = draw_issue(state, events)
        if cid is None:
            FLOW.ret(state)
            return
        state["issues"]["current"] = {
            "card": cid, "kind": "issue", "do": None, "option": None, "officers": [], "difficulty": 0,
            "spend": 0, "votes": {}, "voters": [], "outcome": None, "delegated": False,
        }
        FLOW.goto(state, "decide")
        if D(state).issues[cid]["hand_of_time"]:
            events.append(event("hand-of-time", issue=cid))
            FLOW.call(state, "death", stage="roll")


def decider(state: State) -> str | None:
    cur = state["issues"]["current"]
    office = "vice-president" if cur["delegated"] else "president"
    return state["offices"][office]


def option_officers(state: State, opt: dict[str, Any]) -> list[str] | None:
    out = []
    for office in opt["offices"]:
        h = decider(state) if office == "president" else state["offices"][office]
        if h is None:
            return None
        if h not in out:
            out.append(h)
    return out


@node("decide")
class Decide(FFNode):
    kind = "issue"

    def waiting(self, state, args):
        if committee_due(state):
            return []
        who = decider(state)
        if who is None:  # the Vice-President died while holding the delegation: back to the President
            return [president_seat(state)] if state["offices"]["president"] else []
        return [owner(state, who)]

    def advance(self, state, args, events):
        if committee_due(state):
            from .committee import start_committee

            start_committee(state, "replace", events)
            return
        if state["offices"]["president"] is None:  # nobody left to decide: the card is not lost
            cur = state["issues"]["current"]
            state["issues"]["current"] = None
            if not rules_16(state):  # 1.6 lost it
                to_next_deck(state, cur["card"], events)
            FLOW.ret(state)
            return
        state["issues"]["current"]["delegated"] = False

    def choices(self, state, args, seat):
        d = D(state)
        cur = state["issues"]["current"]
        card = d.issues[cur["card"]]
        is_president = not cur["delegated"]
        if (is_president and card["judicial_review"] and "judicial-review" in state["flags"]
                and state["offices"]["chief-justice"] is None):
            # the Chief Justice first, if the President may appoint one (under reduced negotiation
            # the committee fills offices, and leaves one that only an officer moving could fill)
            chief = appointment_choices(state, ["chief-justice"])
            if chief:
                return chief
        out: list[Order] = [{"act": "ignore"}]
        for opt in card["options"]:
            if option_officers(state, opt) is not None:
                out.append({"act": "assign", "option": opt["key"]})
        if is_president:
            vacant = sorted({o for opt in card["options"] for o in opt["offices"]
                             if o != "president" and state["offices"][o] is None})
            out += appointment_choices(state, vacant)
            if state["offices"]["vice-president"] and not state["term"]["delegated"]:
                out.append({"act": "delegate"})
        return out

    def text(self, state, args, seat):
        cur = state["issues"]["current"]
        return message(N_("Issue **%(issue)s**: ignore it, or assign an option to its office."),
                       issue=D(state).name(cur["card"]))

    def apply(self, state, args, orders, events):
        order = next(iter(orders.values()))
        cur = state["issues"]["current"]
        act = order["act"]
        if act == "appoint":
            appoint(state, order["office"], order["statesman"], events)
        elif act == "delegate":
            state["term"]["delegated"] = True
            cur["delegated"] = True
            events.append(event("delegated", issue=cur["card"], to=state["offices"]["vice-president"]))
        elif act == "ignore":
            cur["outcome"] = "ignored"
            events.append(event("issue-ignored", issue=cur["card"]))
            FLOW.goto(state, "outcome")
        else:
            card = D(state).issues[cur["card"]]
            opt = next(o for o in card["options"] if o["key"] == order["option"])
            cur["option"] = opt["key"]
            cur["officers"] = option_officers(state, opt)
            cur["difficulty"] = opt["difficulty"]
            events.append(event("issue-assigned", issue=cur["card"], option=opt["key"], officers=cur["officers"]))
            FLOW.goto(state, "give")


def officer_seat(state: State) -> str | None:
    cur = state["issues"]["current"]
    return owner(state, cur["officers"][0]) if cur["officers"] and cur["officers"][0] in state["statesmen"] else None


def needed(state: State) -> int:
    cur = state["issues"]["current"]
    total = sum(ability(state, s) for s in cur["officers"] if s in state["statesmen"])
    return max(0, cur["difficulty"] - total)


@node("give")
class Give(FFNode):
    """The President may move influence from his card to the officer's, for this issue."""
    kind = "give"

    def waiting(self, state, args):
        cur = state["issues"]["current"]
        pres = state["offices"]["president"]
        if not cur["officers"] or not pres or cur["officers"][0] == pres:
            return []
        if state["statesmen"][pres]["influence"] == 0:
            return []
        return [owner(state, pres)]

    def choices(self, state, args, seat):
        pres = state["offices"]["president"]
        return [{"act": "give", "n": n} for n in range(state["statesmen"][pres]["influence"] + 1)]

    def text(self, state, args, seat):
        return message(N_("Give influence from the President's card to the officer for this issue (give 0 to give "
                          "none)."))

    def apply(self, state, args, orders, events):
        n = next(iter(orders.values()))["n"]
        if n:
            pres = state["offices"]["president"]
            officer = state["issues"]["current"]["officers"][0]
            state["statesmen"][pres]["influence"] -= n
            state["statesmen"][officer]["influence"] += n
            events.append(event("influence-given", statesman=officer, n=n))
        FLOW.goto(state, "spend")

    def advance(self, state, args, events):
        FLOW.goto(state, "spend")


@node("spend")
class Spend(FFNode):
    kind = "resolve"

    def waiting(self, state, args):
        seat = officer_seat(state)
        return [seat] if seat else []

    def choices(self, state, args, seat):
        cur = state["issues"]["current"]
        need = needed(state)
        out: list[Order] = []
        if need <= available_influence(state, seat, cur["officers"][0]):
            out.append({"act": "spend", "n": need})
        out.append({"act": "decline"})
        return out

    def text(self, state, args, seat):
        return message(N_("Resolve it: spend %(n)s influence to meet the difficulty, or decline (it fails)."),
                       n=needed(state))

    def default(self, state, args, seat):
        return {"act": "decline"}

    def advance(self, state, args, events):  # the officer died: the issue fails
        state["issues"]["current"]["outcome"] = "failed"
        FLOW.goto(state, "outcome")

    def apply(self, state, args, orders, events):
        order = next(iter(orders.values()))
        cur = state["issues"]["current"]
        if order["act"] == "decline":
            cur["outcome"] = "failed"
            events.append(event("issue-declined", issue=cur["card"]))
            FLOW.goto(state, "outcome")
            return
        cur["spend"] = order["n"]
        events.append(event("issue-met", issue=cur["card"], spend=order["n"]))
        if needs_congress(state):
            FLOW.goto(state, "vote")
        else:
            pay_officer(state, cur["spend"])
            FLOW.goto(state, "review")


def needs_congress(state: State) -> bool:
    cur = state["issues"]["current"]
    d = D(state)
    if cur["kind"] == "tax":
        return d.taxes[cur["card"]]["congress"]
    opt = next(o for o in d.issues[cur["card"]]["options"] if o["key"] == cur["option"])
    return opt["congress"]


def pay_officer(state: State, n: int) -> None:
    cur = state["issues"]["current"]
    cur["paid"] = True
    if n and cur["officers"] and cur["officers"][0] in state["statesmen"]:
        sid = cur["officers"][0]
        pay(state, owner(state, sid), min(n, available_influence(state, owner(state, sid), sid)), sid)


@node("vote")
class Vote(FFNode):
    """Congress: every seat votes from the President's left (the President last)."""
    kind = "vote"

    def _next(self, state):
        cur = state["issues"]["current"]
        if not cur["voters"] and not cur["votes"]:
            cur["voters"] = seats_from_left(state)
        for seat in cur["voters"]:
            if seat not in cur["votes"]:
                return seat
        return None

    def waiting(self, state, args):
        seat = self._next(state)
        return [seat] if seat else []

    def choices(self, state, args, seat):
        pool = state["factions"][seat]["influence"]
        out: list[Order] = [{"act": "vote", "vote": "abstain", "buy": 0}]
        for v in ("yes", "no"):
            out += [{"act": "vote", "vote": v, "buy": k} for k in range(pool + 1)]
        d = D(state)
        for c in state["private"][seat]["hand"]:
            if not d.is_statesman(c) and d.card(c)["timing"] == "vote":
                out.append({"act": "play", "card": c})
        return out

    def text(self, state, args, seat):
        cur = state["issues"]["current"]
        return message(N_("Congress votes on **%(issue)s**: yes / no (you may buy 3 votes per influence) or abstain. "
                          "Your votes: %(votes)s."),
                       issue=D(state).name(cur["card"]), votes=congress_votes(state, seat))

    def apply(self, state, args, orders, events):
        seat, order = next(iter(orders.items()))
        cur = state["issues"]["current"]
        if order["act"] == "play":
            play_card(state, seat, order["card"], None, events)
            return
        votes = congress_votes(state, seat) + 3 * order["buy"] if order["vote"] != "abstain" else 0
        if order["buy"]:
            state["factions"][seat]["influence"] -= order["buy"]
        cur["votes"][seat] = {"vote": order["vote"], "votes": votes}
        events.append(event("voted", seat=seat, vote=order["vote"], votes=votes, bought=order["buy"]))

    def advance(self, state, args, events):
        cur = state["issues"]["current"]
        yes = sum(v["votes"] for v in cur["votes"].values() if v["vote"] == "yes")
        no = sum(v["votes"] for v in cur["votes"].values() if v["vote"] == "no")
        events.append(event("congress", issue=cur["card"], yes=yes, no=no))
        if yes == no and state["offices"]["vice-president"]:
            FLOW.goto(state, "tie")
            return
        congress_result(state, yes > no, events)


def congress_result(state: State, passed: bool, events: list[Event]) -> None:
    cur = state["issues"]["current"]
    if passed:
        pay_officer(state, cur["spend"])
        FLOW.goto(state, "review")
    else:
        pay_officer(state, cur["spend"] // 2)
        cur["outcome"] = "failed"
        FLOW.goto(state, "outcome")


@node("tie")
class Tie(FFNode):
    kind = "tie"

    def waiting(self, state, args):
        vp = state["offices"]["vice-president"]
        return [owner(state, vp)] if vp else []

    def choices(self, state, args, seat):
        return [{"act": "tie", "pass": False}, {"act": "tie", "pass": True}]

    def text(self, state, args, seat):
        return message(N_("Congress is tied: as Vice-President, decide whether it passes."))

    def advance(self, state, args, events):
        congress_result(state, False, events)

    def apply(self, state, args, orders, events):
        passed = next(iter(orders.values()))["pass"]
        events.append(event("tie-broken", passed=passed))
        congress_result(state, passed, events)


@node("review")
class Review(FFNode):
    kind = "review"

    def _applies(self, state):
        cur = state["issues"]["current"]
        return (cur["kind"] == "issue" and D(state).issues[cur["card"]]["judicial_review"]
                and "judicial-review" in state["flags"] and state["offices"]["chief-justice"] is not None)

    def waiting(self, state, args):
        if not self._applies(state):
            return []
        return [owner(state, state["offices"]["chief-justice"])]

    def choices(self, state, args, seat):
        return [{"act": "review", "cancel": False}, {"act": "review", "cancel": True}]

    def text(self, state, args, seat):
        return message(N_("As Chief Justice, uphold the resolution or cancel it (judicial review)."))

    def advance(self, state, args, events):
        state["issues"]["current"]["outcome"] = "resolved"
        FLOW.goto(state, "outcome")

    def apply(self, state, args, orders, events):
        cancel = next(iter(orders.values()))["cancel"]
        cur = state["issues"]["current"]
        cur["outcome"] = "cancelled" if cancel else "resolved"
        events.append(event("review", issue=cur["card"], cancelled=cancel))
        FLOW.goto(state, "outcome")


@node("outcome")
class Outcome(FFNode):
    def advance(self, state, args, events):
        cur = state["issues"]["current"]
        state["issues"]["current"] = None
        FLOW.ret(state)
        state["term"]["blame"] = blame_seat(state, cur)
        rulings = settle_tax(state, cur, events) if cur["kind"] == "tax" else settle_issue(state, cur, events)
        state["term"].pop("blame", None)
        schedule_rulings(state, rulings)


def blame_seat(state: State, cur: dict[str, Any]) -> str | None:
    """Bad reputation: the last player able to prevent a rise of the tension (reading: the one
    who ignored the issue; the officer who declined to spend; the Chief Justice who cancelled it;
    the President when Congress voted it down, when a resolution itself raises it, and for tax
    outrage)."""
    pres = state["offices"]["president"]
    pres_seat = owner(state, pres) if pres else None
    if cur["outcome"] == "ignored":
        who = state["offices"]["vice-president"] if cur["delegated"] else pres
        return owner(state, who) if who and who in state["statesmen"] else pres_seat
    if cur["outcome"] == "cancelled":  # the Chief Justice could have upheld it
        cj = state["offices"]["chief-justice"]
        return owner(state, cj) if cj and cj in state["statesmen"] else pres_seat
    if cur["outcome"] == "failed" and not cur["votes"] and cur["officers"] and cur["officers"][0] in state["statesmen"]:
        return owner(state, cur["officers"][0])
    return pres_seat


def _popularity(state: State, sids: Sequence[str | None], n: int, events: list[Event], why: str) -> None:
    seen = []
    for sid in sids:
        if sid and sid not in seen and sid in state["statesmen"]:
            seen.append(sid)
            add_cubes(state, sid, n, events, why)


def issue_head(state: State, cur: dict[str, Any]) -> str | None:
    """Who takes the President's share of an issue's popularity gain or loss.

    "Una vez por mandato, el Vicepresidente puede hacerse responsable de una cuestión como si
    fuese el Presidente": our reading (founding-fathers-rules.md, F42) is that for a delegated issue
    the Vice-President stands in the President's place in every respect, the popularity that the
    results give "al Presidente" included (Ignored: only he loses it). Rules before 1.6-3 still
    charged the President."""
    pres = state["offices"]["president"]
    if cur["delegated"] and since(state, "1.6-3"):
        return state["offices"]["vice-president"] or pres  # he died meanwhile: back to the President
    return pres


def settle_issue(state: State, cur: dict[str, Any], events: list[Event]) -> list[str]:
    d = D(state)
    card = d.issues[cur["card"]]
    outcome = cur["outcome"]
    pres = issue_head(state, cur)
    officers = [s for s in cur["officers"] if s in state["statesmen"]]
    ctx = {"officers": officers}
    events.append(event("issue-outcome", issue=card["id"], outcome=outcome, option=cur["option"]))
    if outcome == "cancelled" and rules_16(state):  # 1.6: no result at all, the card to the next era
        to_next_deck(state, card["id"], events)
        return []
    if outcome == "resolved":
        opt = next(o for o in card["options"] if o["key"] == cur["option"])
        rulings = apply_effects(state, opt["effects"], ctx, events)
        _popularity(state, [pres, *officers], opt["popularity"], events, card["id"])
        if card["id"] not in state["issues"]["removed"]:
            state["issues"]["resolved"].append(card["id"])
        return rulings
    # A cancelled resolution "por lo general" counts as Failed: its effects were never applied
    # (the review comes first), the spent influence stays lost, and the Failed result applies,
    # popularity and the card's destination included. The deck has no card-specific cancel result.
    result = card["failed" if outcome == "cancelled" else outcome]
    rulings = apply_effects(state, result["effects"], ctx, events)
    who = [pres] if outcome == "ignored" else [pres, *officers]
    _popularity(state, who, result["popularity"], events, card["id"])
    if result["to"] == "next-era":
        to_next_deck(state, card["id"], events)
    else:
        state["issues"]["removed"].append(card["id"])
    return rulings


OUTRAGE = ((7, 0, 0), (9, 1, 0), (10, 2, 0))  # up to total: popularity lost, tension


def settle_tax(state: State, cur: dict[str, Any], events: list[Event]) -> list[str]:
    d = D(state)
    t = d.taxes[cur["card"]]
    tx = state["taxes"]
    pres = state["offices"]["president"]
    if cur["outcome"] != "resolved":
        events.append(event("tax-failed", tax=t["id"], do=cur["do"]))
        return []
    if cur["do"] == "pass":
        state["revenue"] += t["revenue"]
        if t["kind"] == "tariff":
            tx["tariff"] = t["level"]
        else:
            tx["active"].append(t["id"])
            tx["active"].sort()
        events.append(event("tax-passed", tax=t["id"], revenue=state["revenue"]))
        _popularity(state, [pres, *cur["officers"]], t["popularity"], events, t["id"])
        if t["kind"] == "tax":
            count = sum(1 for a in tx["active"] if d.taxes[a]["kind"] == "tax")
            roll = Rng.of(state).between(1, 6)
            total = count + t["outrage"] + roll
            lost, tension = 3, 1
            for top, n, ten in OUTRAGE:
                if total <= top:
                    lost, tension = n, ten
                    break
            events.append(event("tax-outrage", roll=roll, total=total, lost=lost))
            treasury = state["offices"]["secretary-of-the-treasury"]
            _popularity(state, [pres, treasury], -lost, events, "tax outrage")
            if tension:
                raise_tension(state, tension, events)
    else:
        state["revenue"] -= t["revenue"]
        if t["kind"] == "tariff":
            tx["tariff"] = t["level"] - 1
        else:
            tx["active"].remove(t["id"])
            tx["tried"].append(t["id"]) if t["id"] not in tx["tried"] else None
        events.append(event("tax-repealed", tax=t["id"], revenue=state["revenue"]))
    return []


# ------------------------------------------------------------------------------ phase start
def start_issues(state: State, events: list[Event]) -> None:
    for office in CABINET:
        if state["offices"][office]:
            events.append(event("resigned", office=office, statesman=state["offices"][office]))
            state["offices"][office] = None
    state["issues"]["drawn"] = 0
    state["taxes"]["tried"] = []
    state["taxes"]["tariff_done"] = False
    state["term"]["delegated"] = False
    # the cabinet just resigned: only the General's and Chief Justice's vacancies keep their cause
    if rules_16(state):  # 1.6 forgot every cause, and kept no vacated offices
        state["term"]["replacements"] = []
    else:
        state["term"]["replacements"] = [o for o in state["term"]["replacements"] if o not in CABINET]
        state["term"]["vacated"] = [o for o in vacated(state) if o not in CABINET]
    state["phase"] = "issues"
    events.append(event("phase", phase="issues", turn=state["turn"]))


def play_card(state: State, seat: str, cid: str, target: str | None, events: list[Event]) -> None:
    """Play an action card from the hand (statesmen enter play; actions take effect)."""
    from .state import enter_statesman

    d = D(state)
    state["private"][seat]["hand"].remove(cid)
    state["factions"][seat]["hand"] -= 1
    if d.is_statesman(cid):
        enter_statesman(state, cid, seat)
        events.append(event("statesman-played", seat=seat, statesman=cid))
        return
    card = d.card(cid)
    events.append(event("card-played", seat=seat, card=cid, target=target))
    own_party = D(state).statesmen[target]["party"] if target else None
    state["term"]["blame"] = seat
    rulings = apply_effects(state, card["effect"], {"seat": seat, "statesman": target, "party": own_party}, events)
    state["term"].pop("blame", None)
    if card["persistent"]:
        state["actions"]["persistent"].append(cid)
    else:
        state["actions"]["discard"].append(cid)
    schedule_rulings(state, rulings)


def reserves_note(state: State) -> None:  # keeps add_reserves imported for readers of this module
    add_reserves(state, 0)
