"""Why a Doge order line is not legal now, in the rule's words (`GameModule.refusal`): an area card
already played this year, ballot markers already used, more than four markers, or an order of
another kind of decision. Anything else: None (the grammar's sentence stands)."""

from __future__ import annotations

from adjudicator.engine import N_, IllegalOrder, Message, Prompt, State, message

from .data import AREA_NAMES
from .placement import remove_markers


def refusal(state: State, seat: str, prompt: Prompt | None, text: str) -> Message | None:
    from .grammar import _PARSERS, _normalise

    line = _normalise(text)
    placement = None
    try:
        placement = _PARSERS["placement"](line)
    except IllegalOrder:
        pass
    if prompt is None:
        return message(N_("you have no decision open now; the game waits on the other players"))
    if placement is None:
        return None
    if prompt.kind != "placement":
        return message(N_("ballot markers are placed only in the placement rounds; now: %(decision)s"),
                       decision=prompt.message or prompt.text)
    card, markers = placement["card"], placement["markers"]
    if card in state["cards_used"][seat]:
        return message(N_("you have played the %(area)s card already this year; each area card once a year"),
                       area=AREA_NAMES[card])
    if not 1 <= len(markers) <= 4:
        return message(N_("place 1 to 4 ballot markers with one card"))
    left = state["private"][seat]["markers"]
    if remove_markers(left, markers) is None:
        return message(N_("those markers are used up: your ballot markers left are %(left)s"),
                       left=", ".join(str(m) for m in sorted(left, reverse=True)) or "-")
    return None
