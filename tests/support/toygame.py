"""A tiny sealed-bid game, id ``"toy"``, for service, web and worker tests.

Rules: 2-4 seats ``p1..pN``, ``rounds`` rounds (default 3). Each round every seat makes a
**sealed** bid 0-3 (group ``round-R``). The highest bid that nobody else made (the highest
*unique* bid) wins the round; its seat then answers an **open** prompt: ``keep`` (1 point) or
``double`` (a coin from the seeded RNG: 2 points or 0). If no bid is unique nobody scores. Ties in
the final score are broken by a secret, shuffled tiebreak order, so the seed matters twice.

Grammar: ``bid 2``, ``keep``, ``double``. Defaults: ``bid 0`` and ``keep``.

Each seat's own past bids live in ``state["private"][seat]`` (a seat sees only its own); the
tiebreak order and the RNG live in ``state["secret"]``. Importing this module registers the game
(idempotently, so importing it under two module names does no harm).
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator.engine import (
    Event,
    GameInfo,
    GameModule,
    IllegalOrder,
    Option,
    Order,
    Outcome,
    Prompt,
    Rng,
    State,
    Step,
    event,
    register,
    seed_state,
)
from adjudicator.engine.registry import _GAMES

BIDS = (0, 1, 2, 3)


class ToyGame(GameModule):
    info = GameInfo(
        id="toy",
        title="Toy Auction",
        rules_version="1",
        min_seats=2,
        max_seats=4,
        options=(Option("rounds", 3, (1, 2, 3, 4, 5), "how many rounds are played"),),
        summary="Sealed bids 0-3; the highest unique bid scores (a test game).",
    )

    # setup and prompts ------------------------------------------------------------------------
    def setup(self, seed: str, seats: list[str], options: dict[str, Any]) -> Step:
        secret: dict[str, Any] = {"rng": seed_state(seed)}
        order = list(seats)
        Rng(secret).shuffle(order)
        secret["tiebreak"] = order
        state: State = {
            "seats": list(seats),
            "round": 1,
            "rounds": int(options.get("rounds", 3)),
            "phase": "bid",
            "chooser": None,
            "scores": {s: 0 for s in seats},
            "history": [],
            "private": {s: {"bids": []} for s in seats},
            "secret": secret,
        }
        return Step(state, [event("start", seats=list(seats), rounds=state["rounds"])])

    def prompts(self, state: State) -> dict[str, Prompt]:
        if state["phase"] == "bid":
            group = f"round-{state['round']}"
            return {
                s: Prompt(s, "bid", [{"bid": b} for b in BIDS], sealed=True, group=group,
                          text=f"Round {state['round']}: bid 0-3 (sealed).")
                for s in state["seats"]
            }
        if state["phase"] == "choose":
            seat = state["chooser"]
            return {seat: Prompt(seat, "choose", [{"choice": "keep"}, {"choice": "double"}],
                                 text="You won the round: `keep` 1 point or `double` (a coin: 2 or 0).")}
        return {}

    # applying ---------------------------------------------------------------------------------
    def apply(self, state: State, orders: dict[str, Order]) -> Step:
        events: list[Event] = []
        if state["phase"] == "bid":
            self._apply_bids(state, orders, events)
        elif state["phase"] == "choose":
            self._apply_choice(state, orders[state["chooser"]]["choice"], events)
        else:
            raise IllegalOrder("the game is over")
        return Step(state, events)

    def _apply_bids(self, state: State, orders: dict[str, Order], events: list[Event]) -> None:
        bids = {seat: int(order["bid"]) for seat, order in orders.items()}
        for seat, bid in bids.items():
            state["private"][seat]["bids"].append(bid)
            events.append(event("own-bid", audience=[seat], seat=seat, bid=bid))
        counts = {b: list(bids.values()).count(b) for b in bids.values()}
        unique = [b for b, n in counts.items() if n == 1]
        winner = None
        if unique:
            best = max(unique)
            winner = next(s for s in state["seats"] if bids[s] == best)
        state["history"].append({"round": state["round"], "bids": bids, "winner": winner, "choice": None})
        events.append(event("bids", round=state["round"], bids=bids, winner=winner))
        if winner is None:
            self._next_round(state, events)
        else:
            state["phase"] = "choose"
            state["chooser"] = winner

    def _apply_choice(self, state: State, choice: str, events: list[Event]) -> None:
        seat = state["chooser"]
        points = 1
        if choice == "double":
            points = 2 * Rng.of(state).below(2)  # the seeded coin
        state["scores"][seat] += points
        state["history"][-1]["choice"] = choice
        events.append(event("choice", seat=seat, choice=choice, points=points))
        state["chooser"] = None
        self._next_round(state, events)

    def _next_round(self, state: State, events: list[Event]) -> None:
        if state["round"] >= state["rounds"]:
            state["phase"] = "over"
            state["tiebreak"] = list(state["secret"]["tiebreak"])  # published once it decides
            out = self.outcome(state)
            assert out is not None
            events.append(event("end", winners=out.winners, scores=out.scores))
            return
        state["round"] += 1
        state["phase"] = "bid"

    def default_order(self, state: State, seat: str) -> Order:
        return {"bid": 0} if state["phase"] == "bid" else {"choice": "keep"}

    # text -------------------------------------------------------------------------------------
    def parse_order(self, text: str, prompt: Prompt) -> Order:
        words = text.strip().lower().split()
        if prompt.kind == "bid":
            if len(words) == 2 and words[0] == "bid" and re.fullmatch(r"\d+", words[1]):
                order: Order = {"bid": int(words[1])}
                if prompt.allows(order):
                    return order
            raise IllegalOrder(f"write `bid N` with N from 0 to 3, not {text.strip()!r}")
        if len(words) == 1 and words[0] in ("keep", "double"):
            return {"choice": words[0]}
        raise IllegalOrder(f"write `keep` or `double`, not {text.strip()!r}")

    def format_order(self, order: Order) -> str:
        if "bid" in order:
            return f"bid {order['bid']}"
        return str(order["choice"])

    def order_problem(self, text: str) -> str | None:
        if re.fullmatch(r"bid \d+|keep|double", " ".join(text.lower().split())):
            return None
        return "the toy game's orders are `bid N`, `keep` and `double`"

    def grammar_help(self) -> str:
        return "`bid 2` (a sealed bid 0-3), then for the round's winner `keep` or `double`."

    def render_event(self, ev: Event) -> str:
        d = ev["data"]
        kind = ev["kind"]
        if kind == "start":
            return f"The game starts: {', '.join(d['seats'])}, {d['rounds']} rounds."
        if kind == "own-bid":
            return f"You ({d['seat']}) bid {d['bid']}."
        if kind == "bids":
            shown = ", ".join(f"{s} {b}" for s, b in sorted(d["bids"].items()))
            who = f"**{d['winner']}** wins" if d["winner"] else "no unique bid, nobody wins"
            return f"Round {d['round']} bids: {shown}; {who}."
        if kind == "choice":
            return f"{d['seat']} chose {d['choice']} and scores {d['points']}."
        if kind == "end":
            return f"Game over. Winner: {', '.join(d['winners'])}."
        return f"{kind}: {d}"

    def render_view(self, view: State, seat: str | None) -> str:
        lines = [f"**Round {min(view['round'], view['rounds'])} of {view['rounds']}**", ""]
        lines += [f"- {s}: {view['scores'][s]} point(s)" for s in view["seats"]]
        own = (view.get("private") or {}).get(seat or "")
        if own:
            lines += ["", f"Your bids so far: {', '.join(map(str, own['bids'])) or 'none'}"]
        return "\n".join(lines)

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        scores = dict(state["scores"])
        top = max(scores.values())
        tied = [s for s in state["secret"]["tiebreak"] if scores[s] == top]
        winner = tied[0]
        return Outcome([winner], scores, f"{winner} wins with {top} point(s)")

    def secret_markers(self, state: State) -> list[str]:
        return []


def register_toy() -> GameModule:
    """Register the toy game once; a second copy of this module reuses the first instance."""
    existing = _GAMES.get("toy")
    if existing is not None and type(existing).__name__ == "ToyGame":
        return existing
    return register(TOY)


TOY = ToyGame()
register_toy()
