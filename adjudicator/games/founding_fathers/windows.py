"""Windows open at every decision point: action cards played "at any time", and trade offers.

The engine only takes orders from prompted seats, so "any time" is modelled as extra choices
appended (after the node's own choices, so a missed deadline never takes one) to every open,
not sealed prompt of the holder:

- ``play CARD [on STATESMAN]`` for each action card in his hand whose effects cannot disturb the
  procedure in progress (support, tension, reserves, revenue, influence, flags, popularity,
  table rulings). The Hand of Time and statesman cards (a death or a new statesman mid-procedure)
  are offered only at the *quiet* windows listed in `QUIET`; Coalition Building stays in the
  Congress vote prompt, where it counts.
- ``trade`` opens a trade offer (node ``trade``): the offerer names a player, the faction
  influence and the cards he gives, the faction influence and the number of cards he asks; the
  other player accepts or declines (default), and on accept picks the cards he hands over. The
  exchange is applied at once and is binding. Card influence never changes hands (rulebook).
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, Event, Order, Prompt, event, message

from .flowbase import FLOW, FFNode, node, said
from .state import HAND_LIMIT, D, owned, rules_16

State = dict[str, Any]

SAFE_OPS = {"support", "tension", "reserves", "revenue", "influence", "flag", "popularity", "gain-influence",
            "ruling"}
QUIET = {"agenda", "draft", "discard", "bid", "newspapers", "faction-leader", "leader-change"}
NO_WINDOWS = {"trade", "trade-answer"}
# above the hand limit a player must play or discard "inmediatamente": no trade in between
NO_TRADE = {"discard"}
WINDOW_ACTS = frozenset({"play", "trade"})  # the `act` of every choice `with_windows` adds


def committed(state: State, seat: str) -> int:
    """Faction influence already promised to the rules: a standing auction bid, an officer's spend
    that Congress has not yet voted on (beyond his card's influence). It cannot be traded away."""
    n = 0
    for frame in state["flow"]:
        if frame["node"] == "auction" and frame["args"].get("winner") == seat:
            n += frame["args"]["best"]
    cur = state["issues"].get("current")
    if cur and cur.get("spend") and not cur.get("paid") and cur.get("officers"):
        sid = cur["officers"][0]
        if sid in state["statesmen"] and state["statesmen"][sid]["owner"] == seat:
            n += max(0, cur["spend"] - state["statesmen"][sid]["influence"])
    return n


def tradable(state: State, seat: str) -> int:
    return max(0, state["factions"][seat]["influence"] - committed(state, seat))


def card_plays(state: State, seat: str, kind: str) -> list[Order]:
    """The `play` orders open to `seat` at a prompt of this kind (the any-time window)."""
    d = D(state)
    out: list[Order] = []
    for c in state["private"][seat]["hand"]:
        if d.is_statesman(c):
            if kind in QUIET and d.statesmen[c]["state"] in state["map"]:
                out.append({"act": "play", "card": c})
            continue
        card = d.card(c)
        if card["timing"] == "vote":
            continue
        ops = {e["op"] for e in card["effect"]}
        if not ops <= SAFE_OPS and kind not in QUIET:
            continue
        if any(e["op"] == "popularity" and e.get("to") == "own-statesman" for e in card["effect"]):
            out += [{"act": "play", "card": c, "on": sid} for sid in owned(state, seat)]
        else:
            out.append({"act": "play", "card": c})
    return out


def with_windows(state: State, prompts: dict[str, Prompt]) -> dict[str, Prompt]:
    """The node's prompts with the any-time choices appended (not to sealed or trade prompts)."""
    if state.get("result"):
        return prompts
    # while a hand is above the limit, only its holder may act on it (play or discard) and the
    # prompts its card brings (a ruling, a death) are answered without other windows
    shedding = any(f["node"] == "limit" for f in state["flow"]) and not rules_16(state)
    out = {}
    for seat, p in prompts.items():
        if p.sealed or p.kind in NO_WINDOWS or (shedding and p.kind not in NO_TRADE):
            out[seat] = p
            continue
        extra = [o for o in card_plays(state, seat, p.kind) if o not in p.choices]
        if p.kind not in NO_TRADE or rules_16(state):  # 1.6 let a player over the limit trade first
            extra.append({"act": "trade"})
        # a hidden decision stays hidden with its extra choices (a card played then is only withheld
        # from the export a little longer; its events are public as ever)
        out[seat] = Prompt(seat=seat, kind=p.kind, choices=[*p.choices, *extra], sealed=False, group=None,
                           # a message's text is worded when read (Prompt.text), not here
                           text=p.text if p.message is None else "", message=p.message, presorted=True,
                           hidden=p.hidden)
    return out


def apply_window(state: State, seat: str, order: Order, events: list[Event]) -> None:
    """Apply an any-time order; the interrupted prompt reopens afterwards."""
    from .issues import play_card

    if order["act"] == "trade":
        state["secret"]["trade"] = {"give": [], "hand": []}
        FLOW.call(state, "trade", seat=seat, stage="partner", to=None, give=0, cards=0, ask=0, ask_cards=0)
        return
    play_card(state, seat, order["card"], order.get("on"), events)


# ------------------------------------------------------------------------------ trades
@node("trade")
class Trade(FFNode):
    """Stages: partner, give (influence), cards (cards given, one at a time), ask (influence),
    ask-cards (how many cards), answer (the other player), hand (he picks the cards he gives)."""

    def waiting(self, state, args):
        return [args["to"] if args["stage"] in ("answer", "hand") else args["seat"]]

    def prompts(self, state, args):
        seat = self.waiting(state, args)[0]
        kind = "trade-answer" if args["stage"] in ("answer", "hand") else "trade"
        # the cards offered and handed over are known to the two traders only (state["secret"]
        # holds them), so those orders are hidden from the public record until the end
        return {seat: Prompt(seat=seat, kind=kind, choices=self.choices(state, args, seat),
                             **said(self.text(state, args, seat)), presorted=True,
                             hidden=args["stage"] in ("cards", "hand"))}

    def choices(self, state, args, seat):
        stage, me = args["stage"], args["seat"]
        cancel: list[Order] = [{"act": "cancel"}]
        if stage == "partner":
            return cancel + [{"act": "with", "seat": s} for s in state["seats"] if s != me]
        if stage == "give":
            return cancel + [{"act": "give", "n": n} for n in range(tradable(state, me) + 1)]
        if stage == "cards":
            chosen = state["secret"]["trade"]["give"]
            left = [c for c in state["private"][me]["hand"] if c not in chosen]
            return cancel + [{"act": "done"}] + [{"act": "offer-card", "card": c} for c in left]
        if stage == "ask":
            return cancel + [{"act": "for", "n": n} for n in range(tradable(state, args["to"]) + 1)]
        if stage == "ask-cards":
            return cancel + [{"act": "for-cards", "n": n} for n in range(state["factions"][args["to"]]["hand"] + 1)]
        if stage == "answer":
            return [{"act": "decline"}, {"act": "accept"}]
        chosen = state["secret"]["trade"]["hand"]
        left = [c for c in state["private"][args["to"]]["hand"] if c not in chosen]
        return [{"act": "hand-card", "card": c} for c in left]

    def text(self, state, args, seat):
        stage = args["stage"]
        if stage in ("answer", "hand"):
            d = D(state)
            cards = ", ".join(d.name(c) for c in state["secret"]["trade"]["give"]) or message(N_("no card"))
            msgid = N_("%(seat)s offers %(give)s influence and %(cards)s for %(ask)s influence and %(ask_cards)s "
                       "card(s) of your choice: accept or decline.") if stage == "answer" else \
                N_("%(seat)s offers %(give)s influence and %(cards)s for %(ask)s influence and %(ask_cards)s card(s) "
                   "of your choice: pick a card to hand over.")
            return message(msgid, seat=args["seat"], give=args["give"], cards=cards, ask=args["ask"],
                           ask_cards=args["ask_cards"])
        return message({"partner": N_("Trade: name the player you make an offer to (or cancel)."),
                        "give": N_("Trade: faction influence you give."),
                        "cards": N_("Trade: add a card you give, or done."),
                        "ask": N_("Trade: faction influence you ask for."),
                        "ask-cards": N_("Trade: how many of his cards you ask for (he picks them).")}[stage])

    def default(self, state, args, seat):
        return self.choices(state, args, seat)[0]

    def apply(self, state, args, orders, events):
        order = next(iter(orders.values()))
        act = order["act"]
        if act in ("cancel", "decline"):
            if act == "decline":
                events.append(event("trade-declined", seat=args["seat"], to=args["to"]))
            self._close(state)
            return
        if act == "with":
            args["to"], args["stage"] = order["seat"], "give"
        elif act == "give":
            args["give"], args["stage"] = order["n"], "cards"
        elif act == "offer-card":
            state["secret"]["trade"]["give"].append(order["card"])
            args["cards"] += 1
        elif act == "done":
            args["stage"] = "ask"
        elif act == "for":
            args["ask"], args["stage"] = order["n"], "ask-cards"
        elif act == "for-cards":
            args["ask_cards"] = order["n"]
            if not (args["give"] or args["cards"] or args["ask"] or args["ask_cards"]):
                self._close(state)
                return
            args["stage"] = "answer"
            events.append(event("trade-offered", seat=args["seat"], to=args["to"], give=args["give"],
                                cards=args["cards"], ask=args["ask"], ask_cards=args["ask_cards"]))
        elif act == "accept":
            args["stage"] = "hand"
        elif act == "hand-card":
            state["secret"]["trade"]["hand"].append(order["card"])
        if args["stage"] == "hand" and len(state["secret"]["trade"]["hand"]) == args["ask_cards"]:
            self._exchange(state, args, events)

    def _exchange(self, state, args, events):
        a, b = args["seat"], args["to"]
        fa, fb = state["factions"][a], state["factions"][b]
        fa["influence"] += args["ask"] - args["give"]
        fb["influence"] += args["give"] - args["ask"]
        tr = state["secret"]["trade"]
        for src, dst, cards in ((a, b, tr["give"]), (b, a, tr["hand"])):
            for c in cards:
                state["private"][src]["hand"].remove(c)
                state["factions"][src]["hand"] -= 1
                state["private"][dst]["hand"].append(c)
                state["private"][dst]["hand"].sort()
                state["factions"][dst]["hand"] += 1
        events.append(event("trade", seat=a, to=b, give=args["give"], cards=len(tr["give"]), ask=args["ask"],
                            ask_cards=len(tr["hand"])))
        events.append(event("trade-cards", audience=[a, b], given=list(tr["give"]), received=list(tr["hand"])))
        self._close(state)
        if any(state["factions"][s]["hand"] > HAND_LIMIT for s in (a, b)):
            FLOW.call(state, "limit")  # at once: the limit holds at any time

    def _close(self, state):
        state["secret"].pop("trade", None)
        FLOW.ret(state)
