"""Markdown for log events and views (e-mails and the text board)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from adjudicator.engine import N_, Message, message, message_text

from .boardfile import load_board
from .components import TRACK_WRAP
from .grammar import region_names


def _region(rid: str) -> str:
    return region_names().get(rid, rid)


def _points(points: dict[str, int]) -> str | Message:
    return (", ".join(f"{s} {p}" for s, p in sorted(points.items(), key=lambda kv: (-kv[1], kv[0])))
            or message(N_("nobody")))


def render_event(ev: dict[str, Any]) -> str:
    return message_text(event_message(ev))


STARTED = {(False, False): N_("China begins on the %(side)s board; seats in turn order: %(seats)s."),
           (True, False): N_("China begins on the stand-in %(side)s board; seats in turn order: %(seats)s."),
           (False, True): N_("China begins on the %(side)s board (board %(board)s); seats in turn order: %(seats)s."),
           (True, True): N_("China begins on the stand-in %(side)s board (board %(board)s); seats in turn order: "
                            "%(seats)s.")}
PLACED = {"house": N_("%(seat)s places a house on %(space)s."),
          "fortification": N_("%(seat)s places a fortification on %(space)s."),
          "emissary": N_("%(seat)s places an emissary at the court of %(region)s.")}


def event_message(ev: dict[str, Any]) -> Message:  # noqa: C901 - one branch per event kind
    """One log line as a msgid and values (the reader's language, issue 12); `render_event` is its English."""
    kind, d = ev["kind"], ev["data"]
    if kind == "game-started":
        return message(STARTED[bool(d.get("stand_in")), bool(d.get("board"))], side=d["side"],
                       board=str(d.get("board") or "").split("@")[0], seats=", ".join(d["seats"]))
    if kind == "played":
        return message(N_("**%(seat)s** plays %(cards)s to %(region)s: %(pieces)s."), seat=d["seat"],
                       cards=" ".join(d["cards"]), region=_region(d["region"]), pieces=", ".join(d["pieces"]))
    if kind == "placed":
        return _placed(d)
    if kind == "exchanged":
        if d["took"] == "deck":
            return message(N_("**%(seat)s** exchanges %(card)s for the deck."), seat=d["seat"], card=d["discarded"])
        return message(N_("**%(seat)s** exchanges %(card)s for the face-up %(took)s."), seat=d["seat"],
                       card=d["discarded"], took=d["took"])
    if kind == "passed":
        return message(N_("**%(seat)s** passes."), seat=d["seat"])
    if kind == "drew":
        if d["source"] == "deck":
            return message(N_("%(seat)s draws from the deck."), seat=d["seat"])
        return message(N_("%(seat)s draws the face-up %(card)s."), seat=d["seat"], card=d["source"])
    if kind == "drew-secret":
        return message(N_("You drew a %(card)s card."), card=d["card"])
    if kind == "display-refilled":
        return message(N_("Face-up cards now: %(cards)s."), cards=", ".join(d["display"]))
    if kind == "deck-reshuffled":
        return message(N_("The deck ran out: %(cards)s discarded cards are shuffled into a new deck."),
                       cards=d["cards"])
    if kind == "last-round":
        return message(N_("The deck ran out a second time: the round ends with %(seat)s's turn, then final scoring."),
                       seat=d["last"])
    if kind == "scored":
        return _scored(d)
    if kind == "final-scoring":
        if d["reason"] == "deck":
            return message(N_("Final scoring (the deck ran out twice)."))
        return message(N_("Final scoring (no piece can be placed any more)."))
    if kind == "game-over":
        return message(N_("Game over. Winner: %(winners)s. Scores: %(scores)s."),
                       winners=" and ".join(d["winners"]), scores=_points(d["scores"]))
    return message(N_("(%(event)s)"), event=kind.replace("-", " "))  # a kind this renderer does not know


def _placed(d: dict[str, Any]) -> Message:
    piece = d["piece"]
    on_space = bool(d.get("space"))
    if piece in PLACED and on_space == (piece != "emissary"):
        return message(PLACED[piece], seat=d["seat"], space=d.get("space"), region=_region(d.get("region", "")))
    if on_space:  # no game places other pieces; still a sentence
        return message(N_("%(seat)s places %(piece)s on %(space)s."), seat=d["seat"], piece=piece, space=d["space"])
    return message(N_("%(seat)s places %(piece)s at the court of %(region)s."), seat=d["seat"], piece=piece,
                   region=_region(d["region"]))


def _scored(d: dict[str, Any]) -> Message:
    if d["what"] == "region":
        houses = ", ".join(f"{s} {n}" for s, n in sorted(d["houses"].items())) or message(N_("no houses"))
        return message(N_("%(region)s is scored (houses: %(houses)s): %(points)s."), region=_region(d["region"]),
                       houses=houses, points=_points(d["points"]))
    if d["what"] == "alliance":
        a, b = (_region(r) for r in d["regions"])
        return message(N_("Alliance %(number)s (%(a)s–%(b)s): %(points)s."), number=d["number"], a=a, b=b,
                       points=_points(d["points"]))
    rows = "; ".join(" – ".join(r) for r in d["rows"]) or message(N_("no row of 4"))
    return message(N_("Roads for %(seat)s: %(rows)s (%(points)s points)."), seat=d["seat"], rows=rows,
                   points=d["points"].get(d["seat"], 0))


def score_text(points: int, translate: Callable[[Message], str] = message_text) -> str:
    """The score, with the track's wrap at 50 shown as point cards (display only)."""
    cards = points // TRACK_WRAP
    if not cards:
        return f"{points}"
    extra = message(N_("(track %(track)s + %(cards)s point card)") if cards == 1
                    else N_("(track %(track)s + %(cards)s point cards)"), track=points % TRACK_WRAP, cards=cards)
    return f"{points} {translate(extra)}"


def _side(label: str) -> str | Message:
    """The board's side ("3-4 player side") as a message, so that it reads in the reader's language."""
    players = re.fullmatch(r"(\S+) player side", label)
    return message(N_("%(players)s player side"), players=players[1]) if players else label


def render_view(view: dict[str, Any], seat: str | None, translate: Callable[[Message], str] = message_text) -> str:
    """The text board; `translate` gives each of its words in the reader's language (the service
    passes it, see GameModule.render_view_in; English by default)."""
    t = translate
    board = load_board(view["board"], view["board_set"])
    lines = [t(message(N_("## China — %(side)s"), side=_side(board.data.get("side_label", view["board"]))))]
    if view.get("stand_in_board"):
        lines.append(t(message(N_("_The board geometry is a stand-in, not the printed board._"))))
    result = view.get("result")
    if result:
        lines.append(t(message(N_("**Game over.** Winner: %(winners)s."), winners=" and ".join(result["winners"]))))
    else:
        lines.append(t(message(N_("Turn %(turn)s: **%(seat)s** to play."), turn=view["turn"], seat=view["current"])))
        if view["exhaustions"] >= 2:
            lines.append(t(message(N_("Last round: the game ends after %(seat)s's turn."), seat=view["seats"][-1])))
    lines += ["", t(message(N_("| seat | score | hand | houses | emissaries | fortifications |"))),
              "| --- | --- | --- | --- | --- | --- |"]
    for s in view["seats"]:
        supply = view["supply"][s]
        lines.append(f"| {s} | {score_text(view['scores'][s], t)} | {view.get('hand_sizes', {}).get(s, '?')} | "
                     f"{supply['houses']} | {supply['emissaries']} | {supply['fortifications']} |")
    lines += ["", t(message(N_("| region | colour | houses | court | scored |"))), "| --- | --- | --- | --- | --- |"]
    yes = t(message(N_("yes")))
    for rid in board.regions:
        spaces = []
        for space in board.spaces[rid]:
            owner = view["houses"].get(space, "·")
            fort = "+F" if space in view["forts"] else ""
            spaces.append(f"{space.rpartition('-')[2]}:{owner}{fort}")
        court = ", ".join(f"{s} {n}" for s, n in sorted(view["courts"][rid].items())) or "—"
        scored = yes if rid in view["scored"] else ""
        lines.append(f"| {board.names[rid]} ({rid}) | {board.colour[rid]} | {' '.join(spaces)} | {court} | {scored} |")
    display = ", ".join(view["display"]) or t(message(N_("none")))
    lines += ["", t(message(N_("Face-up cards: %(cards)s. Deck: %(deck)s cards. Discard pile: %(discard)s cards. "
                               "Deck exhausted %(times)s time(s)."), cards=display, deck=view.get("deck_size", "?"),
                            discard=len(view["discard"]), times=view["exhaustions"]))]
    own = (view.get("private") or {}).get(seat) if seat else None
    if own is not None:
        lines.append(t(message(N_("Your hand: %(cards)s."), cards=", ".join(own["hand"]) or t(message(N_("empty"))))))
    return "\n".join(lines)
