"""Doge component facts, transcribed once so the game never reads anything at run time.

Sources: the Spanish rulebook and the research notes kept outside the repository; every number
here is written in our own words.
"""

from __future__ import annotations

SEAT_COLOURS: list[str] = ["red", "blue", "green", "yellow"]

# The six districts in board order, then the Quarantia (the seventh area).
DISTRICTS: list[str] = ["cannaregio", "castello", "dorsoduro", "san-marco", "san-polo", "santa-croce"]
QUARANTIA = "quarantia"
AREAS: list[str] = DISTRICTS + [QUARANTIA]

AREA_NAMES: dict[str, str] = {
    "cannaregio": "Cannaregio",
    "castello": "Castello",
    "dorsoduro": "Dorsoduro",
    "san-marco": "San Marco",
    "san-polo": "San Polo",
    "santa-croce": "Santa Croce",
    "quarantia": "Quarantia",
}

# Per-player supply (the same with 3 or 4 players).
HOUSES = 15
PALACES = 8
RINGS = 6
MARKERS: list[int] = [3, 3, 2, 2, 1, 1, 0]  # kept sorted high to low
MAX_MARKERS_PER_CARD = 4

# Every district has five palace spaces; the n-th palace built there (0-based) costs 3 + n houses.
PALACE_COSTS: list[int] = [3, 4, 5, 6, 7]

# Placement rounds per game year, by player count.
ROUNDS: dict[int, int] = {3: 4, 4: 3}

# Advisors: one per district (home = that district) and three whose home is the Quarantia.
QUARANTIA_ADVISORS: list[str] = ["adv-quarantia-1", "adv-quarantia-2", "adv-quarantia-3"]
ADVISOR_HOME: dict[str, str] = {f"adv-{d}": d for d in DISTRICTS} | {a: QUARANTIA for a in QUARANTIA_ADVISORS}
ADVISORS: list[str] = list(ADVISOR_HOME)

# Rules version 2 (issue 14): the district winner may decline his two houses, a new choice in
# the district-advisor decision. Rules version 3: tied winners and runners-up are asked too (a
# new `place-houses` decision). A state that says "1" or "2" (a game started before, or a
# replayed older record: Doge.setup_version) keeps that version's prompts (docs/games/doge.md).
RULES_VERSION = "3"

# Year limit: an adjudicator safety end, not a rule of the game (docs/games/doge.md). 0 = none,
# the default: a game ends only as the rulebook says, and the deadline defaults drive there.
NO_YEAR_LIMIT = 0
DEFAULT_MAX_YEARS = NO_YEAR_LIMIT
MAX_YEARS_CHOICES: tuple[int, ...] = (NO_YEAR_LIMIT, 10, 15, 20, 25, 30, 40, 50, 100)
