"""Order words in another language: a line's words rewritten into the grammar's own before it is read.

A game lists the Spanish words a player may write for its order verbs (and the few fixed words
after them); `reword` gives the line in the game's English grammar. Accents and case never matter
(`jugar` = `JUGAR`, `campaña` = `campana`); names (states, areas, statesmen) are left as written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping


def unaccented(text: str) -> str:
    """`text` without accents (the grammars read plain ASCII names)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def reword(text: str, first: Mapping[str, str], anywhere: Mapping[str, str] | None = None) -> str:
    """`text` with its first words rewritten by `first` (longest phrase first: `no activar` before
    `no`) and any later whole word by `anywhere`. Keys are lower case without accents."""
    line = unaccented(text).strip()
    low = line.lower()
    for phrase in sorted(first, key=len, reverse=True):
        if low == phrase or re.match(re.escape(phrase) + r"(?=[\s,.:;#]|$)", low):
            line, low = first[phrase] + line[len(phrase):], (first[phrase] + line[len(phrase):]).lower()
            break
    if anywhere:
        pattern = re.compile(r"(?<![\w'-])(" + "|".join(map(re.escape, sorted(anywhere, key=len, reverse=True)))
                             + r")(?![\w'-])", re.IGNORECASE)
        line = pattern.sub(lambda m: anywhere[m.group(1).lower()], line)
    return line


def verbs_of(first: Mapping[str, str], english: tuple[str, ...]) -> tuple[str, ...]:
    """A game's `order_verbs`: its English verbs and the first word of each of its other-language phrases."""
    return tuple(dict.fromkeys([*english, *(phrase.split()[0] for phrase in first)]))
