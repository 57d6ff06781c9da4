"""Component counts and rule parameters, read from components.json once and checked."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

SEAT_COLOURS = ["blue", "green", "red", "violet", "yellow"]  # the rulebook's examples use these
PIECE_KINDS = ("houses", "emissaries", "fortifications")


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("components.json").read_text("utf-8")
    data = json.loads(text)
    problems = validate_components(data)
    if problems:
        raise ValueError("invalid China components.json: " + "; ".join(problems))
    return data


def validate_components(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return ["components must be a JSON object"]
    problems = []
    colours = data.get("card_colours")
    if not (isinstance(colours, list) and len(colours) == 5 and colours == sorted(set(colours))):
        problems.append("card_colours must be 5 distinct colour names in alphabetical order")
        colours = []
    per = data.get("cards_per_colour")
    if not (isinstance(per, dict) and set(per) == set(colours) and all(isinstance(n, int) for n in per.values())):
        problems.append("cards_per_colour must give a count for every card colour")
    removed = data.get("removed_per_colour")
    if not (isinstance(removed, dict) and set(removed) == {"3", "4", "5"}):
        problems.append("removed_per_colour must give the cards removed for 3, 4 and 5 players")
    pieces = data.get("pieces_per_player")
    if not (isinstance(pieces, dict) and set(pieces) == set(PIECE_KINDS)):
        problems.append(f"pieces_per_player must give {', '.join(PIECE_KINDS)}")
    effect = data.get("fortification_effect")
    if not (isinstance(effect, dict) and isinstance(effect.get("region_points_multiplier"), int)
            and isinstance(effect.get("road_points_multiplier"), int)):
        problems.append("fortification_effect needs integer region_points_multiplier and road_points_multiplier")
    for key in ("hand_size", "display_size", "score_track_wrap"):
        if not isinstance(data.get(key), int) or data[key] < 1:
            problems.append(f"{key} must be a positive integer")
    return problems


COMPONENTS = _load()
CARD_COLOURS: list[str] = COMPONENTS["card_colours"]
CARDS_PER_COLOUR: dict[str, int] = COMPONENTS["cards_per_colour"]
HAND_SIZE: int = COMPONENTS["hand_size"]
DISPLAY_SIZE: int = COMPONENTS["display_size"]
PIECES: dict[str, int] = COMPONENTS["pieces_per_player"]
REGION_MULTIPLIER: int = COMPONENTS["fortification_effect"]["region_points_multiplier"]
ROAD_MULTIPLIER: int = COMPONENTS["fortification_effect"]["road_points_multiplier"]
TRACK_WRAP: int = COMPONENTS["score_track_wrap"]


def removed_per_colour(players: int) -> int:
    return int(COMPONENTS["removed_per_colour"][str(players)])
