"""Reading a line the way a person meant it: "did you mean ...", chatter, and why an order is refused.

One place for the mail reply and the web refusal alike (orders.py calls it for both).

**The chatter rule** (docs/email.md, "Greetings, signatures and typos"). A mail line that is no
command and that the game's grammar cannot read as any order (`GameModule.order_problem`) is
*chatter*, skipped and listed as "not read", unless it is *close* to an order or a command:

1. its first word is, or is at least `WORD_CUTOFF` alike to (difflib's ratio, words of 3 letters
   or more), a command word or an order verb of the game (`GameModule.order_verbs`, Spanish too);
2. or the whole line is at least `LINE_CUTOFF` alike to one of the legal orders now;
3. or it has at most `SHORT_LINE` words and its first word (4 letters or more) is at least
   `NAME_CUTOFF` alike to a name in the legal orders now (a state, an area...): the verb left out.

A close line is read as an attempted order: refused with the reason and the closest legal orders,
never skipped. So "Hi,", "Hello Nixon team:" and "Saludos, Ana" are chatter; "campain ohio 1", "ohoi 2" (in a campaign
decision) and "STAUTS" are not.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

from adjudicator.engine import GameModule, Prompt
from adjudicator.i18n import prompt_text
from adjudicator.mail.words import SPANISH, plain

WORD_CUTOFF = 0.8
NAME_CUTOFF = 0.75  # `ohoi` for `ohio`
LINE_CUTOFF = 0.7
SHORT_LINE = 4
SUGGEST_CUTOFF = 0.55  # how alike a legal order must be to be offered as "did you mean"
SUGGESTED = 3  # closest legal orders offered, best first
SCANNED = 3000  # legal orders compared at most (a long decision is a grid of thousands)

MAIL_COMMANDS = ("HELP", "STATUS", "HISTORY", "LIST", "PRESS", "ABSENT", "RESIGN", "SIGNON", "LATER", "ALWAYS",
                 "STANDING")
WEB_COMMANDS = ("LATER", "ALWAYS", "STANDING")  # what the seat page's command box reads besides orders


def _norm(text: str) -> str:
    """Lower case, no accents, hyphens and punctuation as spaces: `San-Marco,` ~ `san marco`."""
    return " ".join(re.sub(r"[^a-z0-9' ]+", " ", plain(text).lower()).split())


def _legal_texts(game: GameModule, prompt: Prompt | None) -> list[str]:
    if prompt is None:
        return []
    texts = []
    for choice in prompt.choices[:SCANNED]:
        try:
            texts.append(game.format_order(choice))
        except (ValueError, KeyError, TypeError):
            continue
    return texts


def command_words(commands: Sequence[str]) -> dict[str, str]:
    """Normalised word -> the word as a player writes it, English and Spanish."""
    words = {c.lower(): c for c in commands}
    words.update({es.lower(): es for es, en in SPANISH.items() if en in commands and len(es) > 2})
    return words


def _alike(word: str, candidates: Iterable[str], cutoff: float = WORD_CUTOFF) -> str | None:
    """The candidate most alike to `word` at `cutoff` or more (exact first)."""
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return found[0] if found else None


def _verbs(game: GameModule) -> set[str]:
    return {_norm(v) for v in game.order_verbs}


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def _nearness(target: str, text: str) -> tuple[float, int, float]:
    """How a legal order ranks as "did you mean" for `target`, smallest first: the lines' shapes
    with the numbers left out (`play # cp`), then how far the numbers are (card 80 was meant as
    79 rather than 7, which plain string likeness prefers), then plain likeness."""
    shape = difflib.SequenceMatcher(None, re.sub(r"\d+", "#", target), re.sub(r"\d+", "#", text)).ratio()
    mine, theirs = _numbers(target), _numbers(text)
    apart = sum(abs(a - b) for a, b in zip(mine, theirs, strict=True)) if len(mine) == len(theirs) else 10**9
    return (-shape, apart, -difflib.SequenceMatcher(None, target, text).ratio())


def is_close(game: GameModule, prompt: Prompt | None, line: str, commands: Sequence[str]) -> bool:
    """Whether a line the grammar cannot read is close to an order or command (the rule above)."""
    words = _norm(line).split()
    if not words:
        return False
    first = words[0]
    if len(first) >= 3 and _alike(first, {*_verbs(game), *command_words(commands)}):
        return True
    legal = [_norm(t) for t in _legal_texts(game, prompt)]
    if difflib.get_close_matches(" ".join(words), legal, n=1, cutoff=LINE_CUTOFF):
        return True
    if len(words) <= SHORT_LINE:
        names = {w for t in legal for w in t.split() if len(w) >= 4 and not w.isdigit()} - _verbs(game)
        return len(first) >= 4 and _alike(first, names, NAME_CUTOFF) is not None
    return False


def is_chatter(game: GameModule, prompt: Prompt | None, line: str, commands: Sequence[str]) -> bool:
    """A mail line neither read as an order by the game's grammar nor close to one: skipped."""
    return game.order_problem(line) is not None and not is_close(game, prompt, line, commands)


def did_you_mean(game: GameModule, prompt: Prompt | None, line: str,
                 commands: Sequence[str] = WEB_COMMANDS) -> list[str]:
    """The closest legal orders to a refused line, best first (at most `SUGGESTED`); a command
    word first when the line's first word is a misspelt command."""
    words = _norm(line).split()
    out: list[str] = []
    if words and words[0] not in _verbs(game):  # `pass` is an order, not a misspelt PRESS
        known = command_words(commands)
        command = _alike(words[0], known)
        if command and command != words[0] and _alike(words[0], _verbs(game)) is None:
            out.append(known[command])
    legal = _legal_texts(game, prompt)
    by_norm: dict[str, str] = {}
    for text in legal:
        by_norm.setdefault(_norm(text), text)
    if words and words[0] not in _verbs(game):  # the verb left out (`ohoi 2`): compare with what follows it
        for text in legal:
            tail = _norm(text).split(maxsplit=1)[1:]
            if tail:
                by_norm.setdefault(tail[0], text)
    target = " ".join(words)
    close = difflib.get_close_matches(target, list(by_norm), n=SUGGESTED * 4, cutoff=SUGGEST_CUTOFF)
    for c in sorted(close, key=lambda text: _nearness(target, text)):
        if by_norm[c] not in out:
            out.append(by_norm[c])
    return out[:SUGGESTED]


def refusal_reason(game: GameModule, state: dict | None, seat: str, prompt: Prompt | None, line: str) -> str | None:
    """Why `line` is not legal for `seat` now, in the game's words and the reader's language, or
    None (the caller keeps the grammar's own sentence). A game that cannot explain says nothing."""
    if state is None:
        return None
    words = line.split(maxsplit=1)
    if words and game.order_problem(line) is not None:  # a misspelt verb: explain the order meant
        verb = _alike(_norm(words[0]), _verbs(game))
        if verb:
            line = " ".join([verb, *words[1:]])
    try:
        reason = game.refusal(state, seat, prompt, line)
    except Exception:  # an explanation must never turn a refusal into a crash
        return None
    return prompt_text("", reason) if reason else None
