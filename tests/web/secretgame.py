"""A one-decision test game whose private and secret parts carry unmistakable strings, so a test
can grep every rendered page for them."""

from __future__ import annotations

from adjudicator.engine import (
    GameInfo,
    GameModule,
    IllegalOrder,
    Outcome,
    Prompt,
    Step,
    event,
    register,
)
from adjudicator.engine.registry import _GAMES


def private_marker(seat: str) -> str:
    return f"PRIVATE-{seat}-d41d8cd9"


SECRET_MARKER = "SECRET-DECK-8f00b204"


class SecretGame(GameModule):
    info = GameInfo(id="secretive", title="Secretive", rules_version="1", min_seats=2, max_seats=3,
                    summary="A test game with private notes.")

    def setup(self, seed, seats, options):
        state = {
            "seats": list(seats), "done": [],
            "private": {s: {"note": private_marker(s)} for s in seats},
            "secret": {"deck": SECRET_MARKER},
        }
        return Step(state, [event("start", seats=list(seats)),
                            *[event("note", audience=[s], note=private_marker(s)) for s in seats]])

    def prompts(self, state):
        return {s: Prompt(s, "pass", [{"pass": True}], text="Say pass.")
                for s in state["seats"] if s not in state["done"]}

    def apply(self, state, orders):
        (seat,) = orders
        state["done"].append(seat)
        return Step(state, [event("passed", seat=seat)])

    def default_order(self, state, seat):
        return {"pass": True}

    def parse_order(self, text, prompt):
        if text.strip().lower() == "pass":
            return {"pass": True}
        raise IllegalOrder("write `pass`")

    def format_order(self, order):
        return "pass"

    def render_event(self, ev):
        d = ev["data"]
        if ev["kind"] == "note":
            return f"Your note: {d['note']}"
        if ev["kind"] == "passed":
            return f"{d['seat']} passed."
        return "Started. <script>alert(1)</script> [x](javascript:alert(1))"

    def render_view(self, view, seat):
        own = (view.get("private") or {}).get(seat or "", {})
        return f"Done: {', '.join(view['done']) or 'nobody'}. " + (f"Note: {own['note']}" if own else "")

    def outcome(self, state):
        if len(state["done"]) < len(state["seats"]):
            return None
        return Outcome(list(state["seats"]), {s: 0 for s in state["seats"]}, "everybody passed")

    def secret_markers(self, state):
        return [SECRET_MARKER]


def register_secretive() -> GameModule:
    existing = _GAMES.get("secretive")
    if existing is not None:
        return existing
    return register(SecretGame())
