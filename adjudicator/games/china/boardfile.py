"""Board files: validation, loading and the derived lookups the rules need.

A board is data (regions, colours, house spaces, roads, alliances, provenance) so that an owner of
the printed game can transcribe it into a JSON file of the same schema, check it with
`pbem boards check FILE` and install it with `pbem boards install` without touching code.

A *board* as a game option is a set of sides, `{"3-4p": side document, "4-5p": side document}`
(one side is enough when only that side is played). `BOARDS` holds the known sets: the built-in
stand-in, and those a server installed or a record carried (see adjudicator/engine/content.py).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from adjudicator.engine import ContentLibrary

from .components import CARD_COLOURS

SCHEMA_VERSION = 1
SIDES = ("3-4p", "4-5p")
BUILTIN_BOARD = "stand-in"


def validate_board(data: Any) -> list[str]:
    """Every problem found in a board document; an empty list means the board is usable."""
    if not isinstance(data, dict):
        return ["a board file must be a JSON object"]
    problems: list[str] = []
    if data.get("schema_version") != SCHEMA_VERSION:
        problems.append(f"schema_version must be {SCHEMA_VERSION}")
    if data.get("side") not in SIDES:
        problems.append(f"side must be one of {', '.join(SIDES)}")
    counts = data.get("player_counts")
    if not (isinstance(counts, list) and counts and all(c in (3, 4, 5) for c in counts)):
        problems.append("player_counts must be a non-empty list drawn from 3, 4, 5")
    if not isinstance(data.get("stand_in"), bool):
        problems.append("stand_in must be true (invented geometry) or false (a transcription of the print)")
    if not isinstance(data.get("provenance"), dict) or not data.get("provenance"):
        problems.append("provenance must be an object saying where each part of the board comes from")
    region_ids = _check_regions(data.get("regions"), problems)
    space_region = _check_spaces(data.get("house_spaces"), data.get("regions"), region_ids, problems)
    pairs = _check_alliances(data.get("alliances"), region_ids, problems)
    _check_roads(data.get("roads"), space_region, pairs, problems)
    _check_colours(data.get("regions"), pairs, problems)
    return problems


def _check_regions(regions: Any, problems: list[str]) -> set[str]:
    if not isinstance(regions, list) or not regions:
        problems.append("regions must be a non-empty list")
        return set()
    ids: set[str] = set()
    names: set[str] = set()
    for index, region in enumerate(regions):
        where = f"regions[{index}]"
        if not isinstance(region, dict):
            problems.append(f"{where} must be an object")
            continue
        rid, name = region.get("id"), region.get("name")
        if not isinstance(rid, str) or not rid or rid in ids:
            problems.append(f"{where}: id must be a unique non-empty string")
        else:
            ids.add(rid)
        if not isinstance(name, str) or not name or name.lower() in names:
            problems.append(f"{where}: name must be a unique non-empty string")
        else:
            names.add(name.lower())
        if region.get("colour") not in CARD_COLOURS:
            problems.append(f"{where}: colour must be one of {', '.join(CARD_COLOURS)}")
        spaces = region.get("house_spaces")
        if not isinstance(spaces, list) or not spaces or not all(isinstance(s, str) for s in spaces):
            problems.append(f"{where}: house_spaces must be a non-empty list of space ids")
        elif region.get("house_space_count", len(spaces)) != len(spaces):
            problems.append(f"{where}: house_space_count differs from the length of house_spaces")
        if not _is_xy(region.get("court_xy")):
            problems.append(f"{where}: court_xy must be two integers (where the court is drawn)")
    return ids


def _check_spaces(spaces: Any, regions: Any, region_ids: set[str], problems: list[str]) -> dict[str, Any]:
    if not isinstance(spaces, list) or not spaces:
        problems.append("house_spaces must be a non-empty list")
        return {}
    found: dict[str, Any] = {}  # each space's region as the file names it (checked above)
    for index, space in enumerate(spaces):
        where = f"house_spaces[{index}]"
        if not isinstance(space, dict):
            problems.append(f"{where} must be an object")
            continue
        sid, region = space.get("id"), space.get("region")
        if not isinstance(sid, str) or not sid or sid in found:
            problems.append(f"{where}: id must be a unique non-empty string")
            continue
        if region not in region_ids:
            problems.append(f"{where}: region {region!r} is not a region id")
        if not _is_xy(space.get("xy")):
            problems.append(f"{where}: xy must be two integers")
        found[sid] = region
    for region in regions if isinstance(regions, list) else []:
        if not isinstance(region, dict) or not isinstance(region.get("house_spaces"), list):
            continue
        listed = set(region["house_spaces"])
        actual = {s for s, r in found.items() if r == region.get("id")}
        if listed != actual:
            problems.append(f"region {region.get('id')}: house_spaces list differs from the spaces naming it")
    return found


def _check_alliances(alliances: Any, region_ids: set[str], problems: list[str]) -> set[frozenset[str]]:
    if not isinstance(alliances, list) or not alliances:
        problems.append("alliances must be a non-empty list")
        return set()
    pairs: set[frozenset[str]] = set()
    numbers = []
    for index, alliance in enumerate(alliances):
        where = f"alliances[{index}]"
        if not isinstance(alliance, dict):
            problems.append(f"{where} must be an object")
            continue
        numbers.append(alliance.get("number"))
        regions = alliance.get("regions")
        if not (isinstance(regions, list) and len(regions) == 2 and regions[0] != regions[1]
                and all(r in region_ids for r in regions)):
            problems.append(f"{where}: regions must be two different region ids")
            continue
        pair = frozenset(regions)
        if pair in pairs:
            problems.append(f"{where}: a second alliance between {' and '.join(sorted(pair))}")
        pairs.add(pair)
    if sorted(n for n in numbers if isinstance(n, int)) != list(range(1, len(alliances) + 1)):
        problems.append(f"alliance numbers must be 1..{len(alliances)}, each once")
    return pairs


def _check_roads(roads: Any, space_region: dict[str, str], pairs: set[frozenset[str]],
                 problems: list[str]) -> None:
    if not isinstance(roads, list):
        problems.append("roads must be a list of [space, space] pairs")
        return
    seen: set[frozenset[str]] = set()
    for index, road in enumerate(roads):
        where = f"roads[{index}]"
        if not (isinstance(road, list) and len(road) == 2 and road[0] != road[1]):
            problems.append(f"{where}: a road joins two different house space ids")
            continue
        unknown = [s for s in road if s not in space_region]
        if unknown:
            problems.append(f"{where}: no house space called {', '.join(map(str, unknown))}")
            continue
        edge = frozenset(road)
        if edge in seen:
            problems.append(f"{where}: duplicate road {road[0]}-{road[1]}")
        seen.add(edge)
        a, b = (space_region[s] for s in road)
        # A road across a border means the regions touch, and every touching pair is an alliance.
        if a != b and frozenset((a, b)) not in pairs:
            problems.append(f"{where}: the road crosses from {a} to {b}, which share no alliance")


def _check_colours(regions: Any, pairs: set[frozenset[str]], problems: list[str]) -> None:
    if not isinstance(regions, list):
        return
    colour: dict[Any, Any] = {r.get("id"): r.get("colour") for r in regions if isinstance(r, dict)}
    for colour_name in CARD_COLOURS:
        used = sorted(r for r, c in colour.items() if c == colour_name)
        if not 1 <= len(used) <= 2:
            problems.append(f"colour {colour_name} must be used by one or two regions (a card names them)")
    for pair in pairs:
        a, b = sorted(pair)
        if colour.get(a) is not None and colour.get(a) == colour.get(b):
            problems.append(f"neighbouring regions {a} and {b} have the same colour")


def _is_xy(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


@dataclass(frozen=True)
class Board:
    """A validated board with the lookups the rules use (built once per board file)."""

    side: str
    sha256: str
    stand_in: bool
    regions: tuple[str, ...]  # region ids in file order
    names: dict[str, str]
    colour: dict[str, str]  # region -> colour
    spaces: dict[str, tuple[str, ...]]  # region -> its house spaces
    region_of: dict[str, str]  # space -> region
    neighbours: dict[str, tuple[str, ...]]  # space -> spaces joined by a road
    alliances: tuple[tuple[int, str, str], ...]  # (number, region, region) by number
    data: dict[str, Any]

    def regions_of_colour(self, colour: str) -> list[str]:
        return [r for r in self.regions if self.colour[r] == colour]


def board_from_data(data: dict[str, Any]) -> Board:
    problems = validate_board(data)
    if problems:
        raise ValueError("invalid China board: " + "; ".join(problems))
    regions = tuple(r["id"] for r in data["regions"])
    neighbours: dict[str, list[str]] = {s["id"]: [] for s in data["house_spaces"]}
    for a, b in data["roads"]:
        neighbours[a].append(b)
        neighbours[b].append(a)
    alliances = sorted((a["number"], *a["regions"]) for a in data["alliances"])
    return Board(
        side=data["side"],
        sha256=hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest(),
        stand_in=data["stand_in"],
        regions=regions,
        names={r["id"]: r["name"] for r in data["regions"]},
        colour={r["id"]: r["colour"] for r in data["regions"]},
        spaces={r["id"]: tuple(r["house_spaces"]) for r in data["regions"]},
        region_of={s["id"]: s["region"] for s in data["house_spaces"]},
        neighbours={s: tuple(sorted(n)) for s, n in neighbours.items()},
        alliances=tuple((n, a, b) for n, a, b in alliances),
        data=data,
    )


def read_board_data(side: str) -> dict[str, Any]:
    """The JSON document of a built-in board side ("3-4p" or "4-5p")."""
    if side not in SIDES:
        raise ValueError(f"unknown board side {side!r}; known: {', '.join(SIDES)}")
    text = resources.files(__package__).joinpath("boards", f"board-{side}.json").read_text("utf-8")
    return json.loads(text)


def validate_board_set(data: Any) -> list[str]:
    """Every problem of a board set: one validated document per side, each under its own side."""
    if not isinstance(data, dict) or not data:
        return ["a board set must be an object with a board document for side 3-4p, 4-5p or both"]
    problems: list[str] = []
    for side, doc in data.items():
        if side not in SIDES:
            problems.append(f"{side!r} is not a board side; use {' or '.join(SIDES)}")
            continue
        problems += [f"side {side}: {p}" for p in validate_board(doc)]
        if isinstance(doc, dict) and doc.get("side") != side:
            problems.append(f"the document given for side {side} says side {doc.get('side')!r}")
    return problems


BOARDS = ContentLibrary("china", "board", validate_board_set)
BUILTIN_PIN = BOARDS.add(BUILTIN_BOARD, {side: read_board_data(side) for side in SIDES}, builtin=True)


def board_set(pin: str) -> dict[str, Any]:
    return BOARDS.data(pin)


@cache
def load_board(side: str, pin: str = BUILTIN_PIN) -> Board:
    """The validated board of one side of a board set (by default the built-in stand-in); cached,
    since states only name the set's pin and the side."""
    sides = BOARDS.data(pin)
    if side not in sides:
        raise ValueError(f"board {pin} has no {side} side; it has {', '.join(sorted(sides))}")
    return board_from_data(sides[side])
