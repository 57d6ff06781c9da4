"""Why a Founding Fathers order line is not legal now (`GameModule.refusal`): no decision open, or an
order of another kind of decision than the one open. Anything else: None (the grammar's sentence,
which lists the orders that fit, stands)."""

from __future__ import annotations

from adjudicator.engine import N_, Message, Prompt, State, message


def refusal(state: State, seat: str, prompt: Prompt | None, text: str) -> Message | None:
    from .data import DEFAULT_DECK
    from .grammar import VERBS, _aliases, _tokens, format_order

    if prompt is None:
        return message(N_("you have no decision open now; the game waits on another player"))
    aliases = _aliases(DEFAULT_DECK)  # as parse_order reads it
    words = _tokens(text, aliases)
    if not words or words[0] not in VERBS:
        return None
    firsts = {_tokens(format_order(c), aliases)[0] for c in prompt.choices[:2000]}
    if words[0] not in firsts:
        return message(N_("`%(verb)s` is not an order of this decision (%(kind)s); now: %(decision)s"),
                       verb=words[0], kind=prompt.kind, decision=prompt.message or prompt.text)
    return None
