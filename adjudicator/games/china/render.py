"""Markdown for log events and views (e-mails and the text board)."""

from __future__ import annotations

from typing import Any

from .boardfile import load_board
from .components import TRACK_WRAP
from .grammar import region_names


def _region(rid: str) -> str:
    return region_names().get(rid, rid)


def _points(points: dict[str, int]) -> str:
    return ", ".join(f"{s} {p}" for s, p in sorted(points.items(), key=lambda kv: (-kv[1], kv[0]))) or "nobody"


def render_event(ev: dict[str, Any]) -> str:
    kind, d = ev["kind"], ev["data"]
    if kind == "game-started":
        board = "stand-in " if d.get("stand_in") else ""
        named = f" (board {d['board'].split('@')[0]})" if d.get("board") else ""
        return (f"China begins on the {board}{d['side']} board{named}; "
                f"seats in turn order: {', '.join(d['seats'])}.")
    if kind == "played":
        return f"**{d['seat']}** plays {' '.join(d['cards'])} to {_region(d['region'])}: {', '.join(d['pieces'])}."
    if kind == "placed":
        where = f" on {d['space']}" if d.get("space") else f" at the court of {_region(d['region'])}"
        article = "an" if d["piece"][0] in "aeiou" else "a"
        return f"{d['seat']} places {article} {d['piece']}{where}."
    if kind == "exchanged":
        source = "the deck" if d["took"] == "deck" else f"the face-up {d['took']}"
        return f"**{d['seat']}** exchanges {d['discarded']} for {source}."
    if kind == "passed":
        return f"**{d['seat']}** passes."
    if kind == "drew":
        return f"{d['seat']} draws {'from the deck' if d['source'] == 'deck' else 'the face-up ' + d['source']}."
    if kind == "drew-secret":
        return f"You drew a {d['card']} card."
    if kind == "display-refilled":
        return f"Face-up cards now: {', '.join(d['display'])}."
    if kind == "deck-reshuffled":
        return f"The deck ran out: {d['cards']} discarded cards are shuffled into a new deck."
    if kind == "last-round":
        return f"The deck ran out a second time: the round ends with {d['last']}'s turn, then final scoring."
    if kind == "scored":
        return _render_scored(d)
    if kind == "final-scoring":
        why = "the deck ran out twice" if d["reason"] == "deck" else "no piece can be placed any more"
        return f"Final scoring ({why})."
    if kind == "game-over":
        return f"Game over. Winner: {' and '.join(d['winners'])}. Scores: {_points(d['scores'])}."
    return f"{kind}: {d}"


def _render_scored(d: dict[str, Any]) -> str:
    if d["what"] == "region":
        houses = ", ".join(f"{s} {n}" for s, n in sorted(d["houses"].items())) or "no houses"
        return f"{_region(d['region'])} is scored (houses: {houses}): {_points(d['points'])}."
    if d["what"] == "alliance":
        a, b = (_region(r) for r in d["regions"])
        return f"Alliance {d['number']} ({a}–{b}): {_points(d['points'])}."
    rows = "; ".join(" – ".join(r) for r in d["rows"]) or "no row of 4"
    return f"Roads for {d['seat']}: {rows} ({d['points'].get(d['seat'], 0)} points)."


def score_text(points: int) -> str:
    """The score, with the track's wrap at 50 shown as point cards (display only)."""
    cards = points // TRACK_WRAP
    return f"{points}" + (f" (track {points % TRACK_WRAP} + {cards} point card{'s' * (cards > 1)})" if cards else "")


def render_view(view: dict[str, Any], seat: str | None) -> str:
    board = load_board(view["board"], view["board_set"])
    lines = [f"## China — {board.data.get('side_label', view['board'])}"]
    if view.get("stand_in_board"):
        lines.append("_The board geometry is a stand-in, not the printed board._")
    result = view.get("result")
    if result:
        lines.append(f"**Game over.** Winner: {' and '.join(result['winners'])}.")
    else:
        lines.append(f"Turn {view['turn']}: **{view['current']}** to play.")
        if view["exhaustions"] >= 2:
            lines.append(f"Last round: the game ends after {view['seats'][-1]}'s turn.")
    lines += ["", "| seat | score | hand | houses | emissaries | fortifications |", "| --- | --- | --- | --- | --- | --- |"]
    for s in view["seats"]:
        supply = view["supply"][s]
        lines.append(f"| {s} | {score_text(view['scores'][s])} | {view.get('hand_sizes', {}).get(s, '?')} | "
                     f"{supply['houses']} | {supply['emissaries']} | {supply['fortifications']} |")
    lines += ["", "| region | colour | houses | court | scored |", "| --- | --- | --- | --- | --- |"]
    for rid in board.regions:
        spaces = []
        for space in board.spaces[rid]:
            owner = view["houses"].get(space, "·")
            fort = "+F" if space in view["forts"] else ""
            spaces.append(f"{space.rpartition('-')[2]}:{owner}{fort}")
        court = ", ".join(f"{s} {n}" for s, n in sorted(view["courts"][rid].items())) or "—"
        scored = "yes" if rid in view["scored"] else ""
        lines.append(f"| {board.names[rid]} ({rid}) | {board.colour[rid]} | {' '.join(spaces)} | {court} | {scored} |")
    lines += ["", f"Face-up cards: {', '.join(view['display']) or 'none'}. "
              f"Deck: {view.get('deck_size', '?')} cards. Discard pile: {len(view['discard'])} cards. "
              f"Deck exhausted {view['exhaustions']} time(s)."]
    own = (view.get("private") or {}).get(seat) if seat else None
    if own is not None:
        lines.append(f"Your hand: {', '.join(own['hand']) or 'empty'}.")
    return "\n".join(lines)
