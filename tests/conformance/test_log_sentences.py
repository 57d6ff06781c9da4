"""Every log line of every game reads as a sentence: no raw dict/list, JSON, empty tail or
generic fallback rendering, in public and private events alike (issue 12, "a log of sentences")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import adjudicator.games
from adjudicator.cli.playout import play_one
from adjudicator.engine import all_games, get_game

# The project's titles (tests register toy games of their own).
GAMES = sorted(g for g, m in all_games().items() if type(m).__module__.startswith("adjudicator.games."))
# A few games per title over its player counts; optional rules on where they add event kinds.
PLAYS: dict[str, list[tuple[int, dict]]] = {
    "doge": [(3, {}), (4, {}), (5, {})],
    "china": [(3, {}), (4, {"fortifications": True}), (5, {})],
    "1960": [(2, {}), (2, {"vice_presidents": True, "restricted_positioning": True}), (2, {})],
    "founding-fathers": [
        (3, {}),
        (4, {"persuasion": True, "bad_reputation": True, "black_rings": True, "reduced_faction": True}),
        (5, {"reduced_negotiation": True}),
    ],
}
PACKAGES = {"doge": "doge", "china": "china", "1960": "nineteen_sixty", "founding-fathers": "founding_fathers"}

RAW_REPR = re.compile(r"[{}\[\]]|'\w[^']*':|\"\w+\":|\b(True|False|None)\b")


def _problem(kind: str, line: str, data: dict | None = None) -> str | None:
    """Why a rendered line is not a sentence a player understands (None: it is)."""
    words = kind.replace("-", " ").replace("_", " ")
    head, _, tail = line.partition(":")
    if not line.strip():
        return "empty line"
    if RAW_REPR.search(line):
        return "raw dict/list/JSON or Python literal"
    if line.rstrip().endswith(":"):
        return "empty tail"
    stripped = line.strip("*() .").lower()
    # the old fallbacks: the bare kind, or the kind followed by "key value, key value"
    listed = head.strip("*( ").lower() in (words, kind) and tail.split()[:1] and tail.split()[0] in (data or {})
    if stripped == words or listed:
        return "generic fallback (no sentence for this event kind)"
    return None


def test_the_checker_catches_the_old_debug_lines():
    # The lines quoted in issue 12, and the old generic fallbacks, must all be caught.
    assert _problem("setup", "setup: bag {'kennedy': 12, 'nixon': 12}")
    assert _problem("travel", "travel: cost 1, seat kennedy, to MN", {"cost": 1, "seat": "kennedy", "to": "MN"})
    assert _problem("economic-crisis", "Economic crisis: a 6 is rolled.", {"roll": 6}) is None
    assert _problem("issue_decay", "issue decay: ")
    assert _problem("ruling", "ruling: text x, effect {'op': 'support', 'party': 'C', 'n': 2}")
    assert _problem("debate_stage", "debate stage: order ['Economy', 'Civil Rights', 'Defense']")
    assert _problem("civil-war", "civil war")
    assert _problem("unpledged", "(unpledged)")
    assert _problem("retrieve", "Nixon takes #45 back (play True).")
    assert _problem("turn", "**Turn 1**") is None


@pytest.mark.parametrize("game_id", GAMES)
def test_every_logged_event_renders_as_a_sentence(game_id):
    game = get_game(game_id)
    problems: dict[str, str] = {}
    kinds: set[str] = set()
    for k, (players, options) in enumerate(PLAYS[game_id]):
        result = play_one(game_id, f"sentences-{k}", players, options, check_views=False)
        assert result.violations == []
        for ev in result.record.events:
            kinds.add(ev["kind"])
            line = game.render_event(ev)
            why = _problem(ev["kind"], line, ev["data"])
            if why and ev["kind"] not in problems:
                problems[ev["kind"]] = f"{why}: {line!r} (data {ev['data']!r})"
    assert len(kinds) > 10, "the games played must cover the game's common events"
    assert problems == {}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_kind_in_the_source_has_a_sentence(game_id):
    # Random games do not reach every event (a tie-break, a persuasion...): each kind a game can
    # emit must at least be named in its renderer.
    package = Path(adjudicator.games.__file__).parent / PACKAGES[game_id]
    emitted = set()
    for path in package.glob("*.py"):
        emitted |= set(re.findall(r"\bevent\(\s*\"([a-z_-]+)\"", path.read_text(encoding="utf-8")))
    # the sentences live in render.py, or in log.py where a game words them as messages (1960)
    renderer = "".join((package / name).read_text(encoding="utf-8") for name in ("render.py", "log.py")
                       if (package / name).exists())
    assert emitted, "no event found in the source: the pattern above is out of date"
    missing = sorted(k for k in emitted if f'"{k}"' not in renderer)
    assert missing == []
