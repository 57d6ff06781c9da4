"""The prompt token: the guard against an order made on an old page. A seat's page hands it out
with the choices (pages/reading.py); an order checks it before it is applied and answers the
token of the seat's next prompt (orders.py). It lives with the orders, the one use case that
checks it; common keeps only the keyed hash (`tokens.prompt_token`)."""

from __future__ import annotations

import hmac

from adjudicator.engine import Prompt
from adjudicator.store import Game

from ..common.errors import StaleOrder
from ..common.prompts import Lru
from ..common.tokens import prompt_token

_TOKEN_CACHE = Lru(1024)


def token_for(g: Game, seat: str, prompt: Prompt | None) -> str | None:
    """The prompt token, remembered per (game, length, seat) for the very prompt object it was
    made from (cached prompts are shared): hashing a prompt's JSON costs as much as a SQL query."""
    if prompt is None:
        return None
    key = (g.public_id, g.record_length, seat)
    cached = _TOKEN_CACHE.get(key)
    if cached is not None and cached[0] is prompt:
        return cached[1]
    token = prompt_token(g.public_id, g.record_length, seat, prompt.to_json())
    _TOKEN_CACHE.put(key, (prompt, token))
    return token


def check_prompt_token(g: Game, seat: str, prompt: Prompt, given: str | None) -> None:
    """None skips the check (an e-mail without a token; Message-ID dedup covers duplicates)."""
    if given is None:
        return
    expected = token_for(g, seat, prompt) or ""
    if not hmac.compare_digest(expected, given):
        raise StaleOrder(
            "this order was made against an old page (it was already applied or the game moved on); "
            "reload the page and decide again"
        )
