"""1960's rules versions, and which one a state plays by.

- gmt-2017-1: the first published rules.
- gmt-2017-2: the bag is reseeded the moment it runs out (board.draw), not at the next draw.
- gmt-2017-3: a declaration of campaign points in a state with support checks is final for the
  play (play.campaign_orders, events.place_choices).

States of the first two versions do not name their version: their recorded state hashes forbid
adding the name, so a state without one plays by gmt-2017-2 (what the server ran until
gmt-2017-3) unless the game bound to gmt-2017-1 (`NineteenSixty.for_rules`) is playing it. From
gmt-2017-3 on the state names its version.
"""

from __future__ import annotations

from typing import Any

RULES_VERSION = "gmt-2017-3"
UNNAMED = ("gmt-2017-1", "gmt-2017-2")  # versions whose states do not name themselves
VERSIONS = (*UNNAMED, RULES_VERSION)  # every published version, oldest first


def rules_version(state: dict[str, Any]) -> str:
    return state.get("rules_version", UNNAMED[-1])


def since(state: dict[str, Any], version: str) -> bool:
    """Does this state play by `version` or a later one?"""
    return VERSIONS.index(rules_version(state)) >= VERSIONS.index(version)
