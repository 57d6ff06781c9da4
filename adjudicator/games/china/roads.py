"""Road scoring: rows of one player's houses along the roads.

Reading (see docs/games/china.md): a *row* is a simple path along roads whose every space holds
a house of the player, with at least 4 houses; it may cross region borders. A row never visits a
space twice and never forks. Houses that hang off a row at a junction are a *branch* and score
nothing for that row. Each house counts at most once, so the rows a player scores are disjoint;
of all such sets of disjoint rows the one worth the most points is scored (the way a careful
player at the table would count). A row through a fortified house of the player is worth the
fortification multiplier (once per row).
"""

from __future__ import annotations

from collections.abc import Iterable

MIN_ROW = 4


def best_rows(houses: Iterable[str], neighbours: dict[str, tuple[str, ...]], fortified: Iterable[str] = (),
              multiplier: int = 1) -> tuple[int, list[list[str]]]:
    """Points and the chosen rows (each a list of spaces in road order) for one player's houses."""
    own = frozenset(houses)
    forts = frozenset(fortified) & own
    adjacency = {s: tuple(n for n in neighbours.get(s, ()) if n in own) for s in own}
    memo: dict[frozenset[str], tuple[int, tuple[tuple[str, ...], ...]]] = {}

    def weight(path: tuple[str, ...]) -> int:
        return len(path) * (multiplier if forts.intersection(path) else 1)

    def solve(spaces: frozenset[str]) -> tuple[int, tuple[tuple[str, ...], ...]]:
        if len(spaces) < MIN_ROW:
            return 0, ()
        if spaces in memo:
            return memo[spaces]
        parts = _components(spaces, adjacency)
        if len(parts) > 1:
            total = 0
            rows: tuple[tuple[str, ...], ...] = ()
            for part in parts:
                points, found = solve(part)
                total, rows = total + points, rows + found
            memo[spaces] = (total, rows)
            return memo[spaces]
        # Either no row uses `first`, or one of the paths through it does. A space with the
        # fewest neighbours has the fewest paths through it, which keeps the search small.
        first = min(spaces, key=lambda s: (sum(1 for n in adjacency[s] if n in spaces), s))
        ceiling = len(spaces) * (multiplier if forts & spaces else 1)
        best = solve(spaces - {first})
        for path in _paths_through(first, spaces, adjacency):
            if best[0] >= ceiling:
                break  # every house already scores: nothing can beat this
            rest_points, rest_rows = solve(spaces - frozenset(path))
            points = weight(path) + rest_points
            if points > best[0]:
                best = (points, (path, *rest_rows))
        memo[spaces] = best
        return best

    points, rows = solve(own)
    return points, sorted([list(r) for r in rows])


def _components(spaces: frozenset[str], adjacency: dict[str, tuple[str, ...]]) -> list[frozenset[str]]:
    left, parts = set(spaces), []
    while left:
        start = min(left)
        seen, todo = {start}, [start]
        while todo:
            for n in adjacency[todo.pop()]:
                if n in left and n not in seen:
                    seen.add(n)
                    todo.append(n)
        left -= seen
        parts.append(frozenset(seen))
    return parts


def _paths_through(start: str, spaces: frozenset[str], adjacency: dict[str, tuple[str, ...]]
                   ) -> list[tuple[str, ...]]:
    """Every simple path of at least MIN_ROW spaces inside `spaces` that contains `start`,
    one per vertex set (the points depend only on which houses a row holds)."""
    arms: list[tuple[str, ...]] = []  # simple paths leaving `start` (start itself excluded)

    def extend(path: list[str]) -> None:
        arms.append(tuple(path[1:]))
        for n in adjacency[path[-1]]:
            if n in spaces and n not in path:
                path.append(n)
                extend(path)
                path.pop()

    extend([start])
    found: dict[frozenset[str], tuple[str, ...]] = {}
    for i, left in enumerate(arms):
        for right in arms[i:]:
            if left and right and left[0] == right[0]:
                continue
            if set(left) & set(right):
                continue
            path = (*reversed(left), start, *right)
            if len(path) >= MIN_ROW:
                key = frozenset(path)
                if key not in found or path < found[key]:
                    found[key] = path
    return sorted(found.values())
