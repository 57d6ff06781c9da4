"""A notification's HTML part is converted block by block (so blocks that every seat's mail
repeats come from the cache): it must be the HTML the whole text converts to."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

from adjudicator.engine import apply_checked, get_game
from adjudicator.render.markdown import markdown_blocks_to_html, markdown_to_html
from adjudicator.service.play.notify import turn_lines
from adjudicator.store import Game, Seat

GAMES = ["doge", "china", "1960", "founding-fathers"]


def _same_html(html: str) -> str:
    """Block boundaries may differ in the whitespace between tags only."""
    return re.sub(r">\s+<", "><", html).strip()


def _mail_bodies(game_id: str, seed: int, steps: int = 60) -> list[str]:
    """The Markdown of the "your move" mails along a random game (every seat asked, every few steps)."""
    game = get_game(game_id)
    rnd = random.Random(seed)
    seats = game.seat_names(game.info.min_seats, game.info.resolve_options({}))
    state = game.setup(f"html:{seed}", seats, game.info.resolve_options({})).state
    row = Game(public_id="g1", game_type=game_id, state=state, due_at=datetime(2030, 1, 1, tzinfo=UTC))
    bodies: list[str] = []
    for step in range(steps):
        prompts = game.prompts(state)
        if not prompts:
            break
        if step % 5 == 0:
            row.state = state
            for seat, prompt in prompts.items():
                lines = turn_lines(row, game, Seat(game_id=1, seat=seat, seat_token_hash="h"), prompt)
                bodies.append("\n".join(["# Title", "", "## Since your last mail", "", "- one", "- two", "", *lines]))
        group = sorted(prompts)
        sealed = [s for s in group if prompts[s].sealed and prompts[s].group == prompts[group[0]].group]
        movers = sealed if prompts[group[0]].sealed else [rnd.choice(group)]
        state = apply_checked(game, state, {s: rnd.choice(prompts[s].choices) for s in movers}, prompts).state
    return bodies


@pytest.mark.parametrize("game_id", GAMES)
def test_block_by_block_html_is_the_html_of_the_whole_mail(game_id: str) -> None:
    bodies = _mail_bodies(game_id, seed=7)
    assert bodies
    for body in bodies:
        assert _same_html(markdown_blocks_to_html(body)) == _same_html(markdown_to_html(body))


@pytest.mark.parametrize("text", [
    "- a\n\n- b\n\n- c",  # a loose list stays one list
    "para\n\n    code 1\n\n    code 2\n\nafter",  # an indented code block with a blank line in it
    "term\n\n: its definition",  # a definition list (Markdown extra)
    "see [the page][p]\n\n[p]: https://example.org/",  # a reference link defined in a later block
    "text[^1]\n\n[^1]: a footnote",
    "1. one\n\n2. two",
    "| a | b |\n| - | - |\n| 1 | 2 |\n\nafter the table",
])
def test_constructs_that_span_blocks_convert_as_a_whole(text: str) -> None:
    assert _same_html(markdown_blocks_to_html(text)) == _same_html(markdown_to_html(text))
