"""The events as data: each card's event is a list of steps in a small effect vocabulary.

Players named in a step:
  "kennedy" / "nixon"  a fixed candidate (single-icon cards name their beneficiary)
  "P" / "opp"          the player resolving the event / the other one
  "lead:<issue>"       whoever has cubes on the issue (nobody: the step does nothing)
  "media:<region>"     whoever has media cubes in the region
  "state:<abbr>"       whoever leads the state
  "fifty"              whoever has more state cubes in AK and HI together (tie: nobody)

Places (`where`): ("any",), ("regions", [..]), ("states", [..]), ("empty",) states without support,
("ev", low, high, regions or None), ("picked",) the state picked earlier, ("picked_region",).

Steps:
  ("support", who, n, cap, where)          who adds n state support, at most cap per state
  ("remove", who, victim, n, cap, where)   who removes n of victim's state support
  ("lose", victim, n, abbr | "token")      victim loses n support in one state
  ("momentum", who, delta)                 momentum (never below 0)
  ("issue_up", issue, k)                   the issue tile moves up k places
  ("issue", who, issue | "picked", delta)  issue support (+: gain, opposing cubes first; -: loss)
  ("issue_each", who, -1)                  who loses one cube on every issue
  ("issue_split", who, n, "gain"|"lose")   who adds/removes n issue cubes one at a time, chosen
  ("token", who, abbr | "picked")          the candidate token moves there free
  ("media", who, n, region | None)         n media cubes (None: chosen one at a time)
  ("media_remove", who, n)                 who removes n opposing media cubes, chosen
  ("endorse", who)                         one endorsement in a chosen region
  ("pick_issue"|"pick_state"|"pick_region", who, filter)   a choice used by later steps
  ("retrieve", who, only | None)           who may take a card from the discard pile
  ("draw", who, n) / ("cycle", who)        draw / discard any number then draw as many
  ("exhaust", who) / ("restore", who)      the candidate card
  ("gm", region)                           Gathering Momentum
  ("checks", who, n, abbr | "picked")      support checks in a state
  ("mark", who)                            the rest-of-turn effect binds `who`
  ("if", condition, [steps])               ("leads", seat, issue) or ("leads_n", seat, 2)
  ("gallup", who) ("match_momentum",) ("medal", a, b) ("unpledged",)
  ("opposition",) ("tricky",) ("whistlestop",)
  ("reveal", who, n)                       High Hopes: turn up n deck cards one at a time; each
                                           with who's icon (own or both) is resolved for who
"""

from __future__ import annotations

from typing import Any

K, X = "kennedy", "nixon"
ANY = ("any",)
SOUTH = ("regions", ["South"])


def _leader_support(issue: str, n: int, cap: int, where: tuple = ANY) -> tuple:
    return ("support", f"lead:{issue}", n, cap, where)


EVENTS: dict[int, list[tuple[Any, ...]]] = {
    1: [("token", K, "TX"), ("momentum", K, 1), ("support", K, 5, 1, ANY)],
    2: [("token", X, "MD")],
    3: [("gallup", "P")],
    4: [],
    5: [("momentum", "P", 1)],
    6: [("support", K, 5, 2, ("states", ["CT", "MA", "ME", "NY", "RI", "VT"]))],
    7: [],
    8: [("issue_up", "Economy", 1), _leader_support("Economy", 1, 1, ("states", ["NY"]))],
    9: [("remove", X, K, 5, 2, ("regions", ["South", "Midwest"]))],
    10: [("pick_state", "P", "swing"), ("support", "P", 5, 5, ("picked",)), ("token", "P", "picked")],
    11: [("issue_up", "Defense", 1), _leader_support("Defense", 3, 1)],
    12: [("support", X, 5, 2, SOUTH), ("issue", K, "Civil Rights", 1)],
    13: [("momentum", "lead:Defense", 1), _leader_support("Defense", 3, 1)],
    14: [("gm", "South")],
    15: [("gm", "East")],
    16: [("gm", "Midwest")],
    17: [("gm", "West")],
    18: [("support", X, 7, 1, ANY)],
    19: [("remove", "lead:Civil Rights", "lead:Civil Rights", 5, 5, SOUTH), ("mark", "lead:Civil Rights")],
    20: [("token", X, "MI"), ("lose", X, 1, "MI")],
    21: [("support", "fifty", 5, 1, ANY)],
    22: [("momentum", "opp", -1), ("lose", "opp", 3, "token")],
    23: [("issue_up", "Civil Rights", 1), ("issue", "P", "Civil Rights", 3)],
    24: [("issue", X, "Civil Rights", -1), ("remove", K, X, 5, 2, SOUTH)],
    25: [("issue_up", "Civil Rights", 1), ("issue", X, "Civil Rights", 1)],
    26: [],
    27: [("support", X, 1, 1, ("states", ["NY"])), ("retrieve", X, None)],
    28: [("remove", X, K, 3, 3, ("states", ["OK", "MS", "AL"]))],
    29: [("issue", X, "Defense", 1), ("retrieve", X, 42)],
    30: [("lose", K, 1, "TX")],
    31: [],
    32: [],
    33: [],
    34: [],
    35: [],
    36: [("endorse", K)],
    37: [("issue_up", "Civil Rights", 1), _leader_support("Civil Rights", 3, 1)],
    38: [("reveal", K, 2)],
    39: [("support", K, 2, 2, ("states", ["TX"])), ("support", K, 3, 2, SOUTH), ("restore", K)],
    40: [_leader_support("Civil Rights", 5, 2, ("states", ["IL", "MI", "NY"]))],
    41: [("pick_issue", K, None), ("issue", K, "picked", 3)],
    42: [("support", X, 2, 2, ("states", ["MA"])), ("issue", X, "Defense", 2), ("restore", X)],
    43: [("support", K, 7, 2, ANY)],
    44: [],
    45: [("token", X, "NY"), ("issue", X, "Civil Rights", 1), ("support", X, 2, 2, ("states", ["NY"])),
         ("media", X, 1, "East")],
    46: [("pick_region", "P", "own_media"), ("support", "P", 5, 2, ("picked_region",))],
    47: [_leader_support("Defense", 5, 1)],
    48: [("issue_up", "Economy", 1), ("issue", X, "Economy", 2)],
    49: [("support", K, 5, 2, ("regions", ["Midwest"]))],
    50: [("support", X, 5, 2, ("states", ["IL", "IN", "MI", "MN", "OH", "WI"]))],
    51: [("issue", K, "Defense", 3)],
    52: [("token", "P", "FL"), ("momentum", "P", 1), ("support", "P", 1, 1, ("states", ["FL"]))],
    53: [("cycle", "P")],
    54: [],
    55: [],
    56: [("opposition",)],
    57: [("cycle", K)],
    58: [("momentum", X, -1), ("tricky",)],
    59: [("support", K, 5, 2, ("states", ["DE", "MD", "NJ", "NY", "PA"]))],
    60: [("support", "media:East", 5, 2, ("regions", ["East"]))],
    61: [("exhaust", "opp")],
    62: [("issue_up", "Defense", 2), ("momentum", "lead:Defense", 1)],
    63: [("momentum", X, -2), ("issue_each", X, -1)],
    64: [("match_momentum",)],
    65: [],
    66: [("support", K, 1, 1, ("states", ["IL"])), ("retrieve", K, None)],
    67: [("support", "P", 3, 1, ("empty",))],
    68: [("issue_up", "Defense", 1), ("issue", X, "Defense", 1)],
    69: [("pick_state", K, "md_va"), ("token", K, "picked")],
    70: [("momentum", X, -1), ("momentum", K, -3)],
    71: [("support", X, 7, 1, ("ev", 0, 10, ["West", "Midwest"]))],
    72: [("if", ("leads", K, "Civil Rights"), [("support", X, 5, 2, SOUTH)])],
    73: [("remove", X, K, 5, 1, ANY)],
    74: [],
    75: [("token", X, "NY"), ("media", X, 3, None)],
    76: [],
    77: [("support", K, 5, 2, ("ev", 20, 99, None))],
    78: [("issue_up", "Economy", 2), _leader_support("Economy", 2, 2, ("states", ["NY"]))],
    79: [("mark", "P")],
    80: [("media_remove", K, 2)],
    81: [],
    82: [("momentum", "lead:Defense", 1), _leader_support("Defense", 1, 1, ("states", ["FL"]))],
    83: [("whistlestop",)],
    84: [("momentum", "lead:Defense", 1), _leader_support("Defense", 3, 1)],
    85: [],
    86: [("issue_split", X, 3, "gain")],
    87: [],
    88: [],
    89: [("momentum", X, 1)],
    90: [],
    91: [("draw", X, 2)],
    92: [("if", ("leads_n", K, 2), [("momentum", K, -1), ("issue_split", K, 2, "lose")])],
    93: [("issue_each", K, -1), ("momentum", X, 1)],
    94: [("if", ("leads_n", X, 2), [("momentum", K, 1), ("cycle", K)])],
    95: [("issue_each", X, -1), ("support", K, 3, 1, ANY)],
    96: [("medal", "Civil Rights", "Economy")],
    97: [("medal", "Defense", "Economy")],
}

# Election Day events: resolved on turn 9, in the order the initiative player chooses.
ELECTION_EVENTS: dict[int, list[tuple[Any, ...]]] = {
    7: [("checks", K, 5, "IL")],
    32: [("checks", "state:CT", 5, "CA")],
    33: [("unpledged",)],
    90: [("pick_state", X, "all"), ("checks", X, 3, "picked")],
}

MISSING: tuple[int, ...] = ()  # events not yet encoded would be playable for CP only
