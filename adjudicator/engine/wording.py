"""Order words in another language: a line's words rewritten into the grammar's own before it is read.

A game lists the Spanish words a player may write for its order verbs (and the few fixed words
after them); `reword` gives the line in the game's English grammar. Accents and case never matter
(`jugar` = `JUGAR`, `campaña` = `campana`); names (states, areas, statesmen) are left as written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping


def unaccented(text: str) -> str:
    """`text` without accents (the grammars read plain ASCII names)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def reword(text: str, first: Mapping[str, str], anywhere: Mapping[str, str] | None = None) -> str:
    """`text` with its first words rewritten by `first` (longest phrase first: `no activar` before
    `no`) and any later whole word by `anywhere`. Keys are lower case without accents."""
    line = unaccented(text).strip()
    later = anywhere or {}
    starts, words = _patterns(first, later)
    match = starts.match(line)
    if match:
        line = first[match.group(1).lower()] + line[match.end(1):]
    if words is not None:
        line = words.sub(lambda m: later[m.group(1).lower()], line)
    return line


_COMPILED: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[re.Pattern[str], re.Pattern[str] | None]] = {}


def _patterns(first: Mapping[str, str], anywhere: Mapping[str, str]) -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    """The two regular expressions of a pair of tables, built once per set of words."""
    key = (tuple(first), tuple(anywhere))
    found = _COMPILED.get(key)
    if found is None:
        def alternatives(table: Mapping[str, str]) -> str:
            return "|".join(map(re.escape, sorted(table, key=len, reverse=True)))

        starts = re.compile(r"(" + alternatives(first) + r")(?=[\s,.:;#]|$)", re.IGNORECASE) if first \
            else re.compile(r"(?!)")
        words = re.compile(r"(?<![\w'-])(" + alternatives(anywhere) + r")(?![\w'-])", re.IGNORECASE) \
            if anywhere else None
        found = _COMPILED[key] = (starts, words)
    return found


def verbs_of(first: Mapping[str, str], english: Iterable[str]) -> tuple[str, ...]:
    """A game's `order_verbs`: its English verbs and the first word of each of its other-language phrases."""
    return tuple(dict.fromkeys([*english, *(phrase.split()[0] for phrase in first)]))
