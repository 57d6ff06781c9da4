"""Markdown written by players and moderators (press, broadcasts) to sanitised HTML, in time linear
in the text's length.

The `markdown` package rescans the rest of a paragraph from every unmatched bracket and emphasis
mark: a 10,000-character press body of `![` took over a minute. This renderer reads the common
Markdown a player writes (paragraphs, line breaks, headings, emphasis, code, links, block quotes,
lists, rules, code blocks) in one pass:

- blocks: each line is looked at a fixed number of times per level of nesting, and block quotes
  and lists nest at most MAX_BLOCK_DEPTH levels (deeper markers are text);
- inline: brackets and emphasis marks go on stacks (CommonMark's delimiter stack) and are matched
  when their closer comes, never by searching ahead; a link's target and a code span's closer are
  found by scans that never cover the same text twice; at most MAX_OPEN marks are open at once
  (more are text), so merged contents are copied at most that many times.

Raw HTML is shown as text, images as their description (a picture could tell its sender who
reads the message), and the result still goes through the same nh3 policy as every other page
text. Not read: tables, footnotes, reference links (they show as written).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache

from .markdown import markdown_blocks_to_html, sanitise

MAX_BLOCK_DEPTH = 8  # nested block quotes and lists
MAX_OPEN = 64  # brackets and emphasis runs open at once

# ------------------------------------------------------------------------------------------- blocks

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")
_QUOTE = re.compile(r" {0,3}> ?")
_ITEM = re.compile(r"( {0,3})([-*+]|\d{1,9}[.)])( {1,4}|$)")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*")
_RULE_CHARS = frozenset("-*_")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_rule(line: str) -> bool:
    compact = line.replace(" ", "").replace("\t", "")
    return len(compact) >= 3 and compact[0] in _RULE_CHARS and compact == compact[0] * len(compact)


def _starts_block(line: str, depth: int) -> bool:
    """A line that ends a paragraph before it (a list or quote only while they may still nest)."""
    return bool(_FENCE.match(line) or _HEADING.match(line) or _is_rule(line)
                or (depth < MAX_BLOCK_DEPTH and (_QUOTE.match(line) or _ITEM.match(line))))


def _heading(line: str) -> str:
    stripped = line.strip()
    level = len(stripped) - len(stripped.lstrip("#"))
    text = stripped[level:].strip()
    closed = text.rstrip("#")
    if closed != text and (not closed or closed[-1] in " \t"):  # "## title ##": the closing run goes
        text = closed.rstrip()
    return f"<h{level}>{_inline(text)}</h{level}>"


def _code(lines: list[str], language: str = "") -> str:
    attr = f' class="language-{html.escape(language)}"' if language else ""
    return f"<pre><code{attr}>" + html.escape("\n".join(lines) + "\n" if lines else "", quote=False) + "</code></pre>"


def _paragraph_text(lines: list[str]) -> str:
    # trailing spaces stay on inner lines: two of them make a line break
    return "\n".join(line.lstrip() for line in lines).rstrip()


def _blocks(lines: list[str], depth: int, tight: bool = False) -> list[str]:
    out: list[str] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            text = _inline(_paragraph_text(para))
            out.append(text if tight else f"<p>{text}</p>")
            para.clear()

    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            flush()
            i += 1
            continue
        if para and (setext := _SETEXT.fullmatch(line)):
            level = 1 if setext.group(1)[0] == "=" else 2
            text = _inline(_paragraph_text(para))
            para.clear()
            out.append(f"<h{level}>{text}</h{level}>")
            i += 1
            continue
        if para and not _starts_block(line, depth):
            para.append(line)  # a paragraph's next line, indented or not
            i += 1
            continue
        flush()
        if fence := _FENCE.match(line):
            mark = fence.group(1)
            language = line[fence.end():].strip().split(" ")[0]
            body: list[str] = []
            i += 1
            while i < n and not (lines[i].lstrip(" ").startswith(mark) and not lines[i].strip(mark[0] + " \t")):
                body.append(lines[i])
                i += 1
            out.append(_code(body, language if language.replace("-", "").isalnum() else ""))
            i += 1
        elif _indent(line) >= 4:
            body = []
            while i < n and (_indent(lines[i]) >= 4 or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            out.append(_code(body))
        elif _HEADING.match(line):
            out.append(_heading(line))
            i += 1
        elif _is_rule(line):
            out.append("<hr />")
            i += 1
        elif depth < MAX_BLOCK_DEPTH and _QUOTE.match(line):
            i = _quote(lines, i, depth, out)
        elif depth < MAX_BLOCK_DEPTH and _ITEM.match(line):
            i = _list(lines, i, depth, out)
        else:
            para.append(line)
            i += 1
    flush()
    return out


def _quote(lines: list[str], i: int, depth: int, out: list[str]) -> int:
    """A block quote from line i: its `>` lines and the paragraph lines that lazily continue them."""
    inner: list[str] = []
    while i < len(lines):
        line = lines[i]
        marker = _QUOTE.match(line)
        if marker:
            inner.append(line[marker.end():])
        elif line.strip() and inner and inner[-1].strip() and not _starts_block(line, depth):
            inner.append(line)
        else:
            break
        i += 1
    out.append("<blockquote>\n" + "\n".join(_blocks(inner, depth + 1)) + "\n</blockquote>")
    return i


def _list(lines: list[str], i: int, depth: int, out: list[str]) -> int:
    """A list from line i: items of the same kind (bullets, or numbers), each with the lines
    indented past its marker, and lazy continuations of its paragraph."""
    first = _ITEM.match(lines[i])
    assert first is not None
    ordered = first.group(2)[0].isdigit()
    items: list[list[str]] = []
    loose = False
    blank_before = False
    n = len(lines)
    while i < n:
        line = lines[i]
        item = _ITEM.match(line)
        if item is None or item.group(2)[0].isdigit() != ordered:
            break
        if items and blank_before:
            loose = True
        column = item.end() if line[item.end():].strip() else len(item.group(1)) + len(item.group(2)) + 1
        body = [line[item.end():]]
        i += 1
        blank_before = False
        while i < n:
            line = lines[i]
            if not line.strip():
                body.append("")
                blank_before = True
            elif _indent(line) >= column:
                if blank_before:
                    loose = loose or any(part.strip() for part in body)
                body.append(line[column:])
                blank_before = False
            elif not blank_before and not _starts_block(line, depth):
                body.append(line)  # lazy continuation of the item's paragraph
            else:
                break
            i += 1
        while body and not body[-1].strip():
            body.pop()
        items.append(body)
        if blank_before and not (i < n and _ITEM.match(lines[i])):
            break
    tag = "ol" if ordered else "ul"
    rendered = ["<li>" + "\n".join(_blocks(body, depth + 1, tight=not loose)) + "</li>" for body in items]
    out.append(f"<{tag}>\n" + "\n".join(rendered) + f"\n</{tag}>")
    return i


# ------------------------------------------------------------------------------------------- inline

_PLAIN = re.compile(r"[^\\`*_\[\]!<>&\n]+")
_BACKTICKS = re.compile(r"`+")
_RUN = {"*": re.compile(r"\*+"), "_": re.compile(r"_+")}
# a link's target: no space, bracket, parenthesis or angle bracket (or <anything on the line>),
# and an optional quoted title on the line; each part stops at the first character it cannot take
_TARGET = re.compile(r"\([ \t]*(<[^<>\n]*>|[^\s()<>\[\]]*)(?:[ \t]+(\"[^\"\n]*\"|'[^'\n]*'))?[ \t]*\)")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^\s<>]*|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>", re.I)
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


@dataclass(eq=False)
class _Mark:
    """An opening bracket or emphasis run: `at` is its token's place in the output."""

    kind: str  # "[", "![", "*" or "_"
    at: int
    length: int = 0
    alive: bool = True


class _Inline:
    def __init__(self, text: str) -> None:
        self.text = text
        self.out: list[str] = []
        self.marks: list[_Mark] = []  # every mark in order of `at` (dead ones are removed lazily)
        self.brackets: list[_Mark] = []
        self.inactive_below = 0  # brackets below this place in `brackets` cannot make a link
        self.runs: dict[tuple[str, int], list[_Mark]] = {}
        self.open = 0
        self.ticks: dict[int, list[int]] = {}  # backtick run length -> where such runs start
        self.tick_next: dict[int, int] = {}
        if "`" in text:
            for run in _BACKTICKS.finditer(text):
                self.ticks.setdefault(run.end() - run.start(), []).append(run.start())

    def render(self) -> str:
        text, out, pos, end = self.text, self.out, 0, len(self.text)
        while pos < end:
            plain = _PLAIN.match(text, pos)
            if plain:
                out.append(plain.group())
                pos = plain.end()
                continue
            char = text[pos]
            if char == "\\":
                pos = self._backslash(pos)
            elif char == "\n":
                if out and out[-1].endswith("  "):
                    out[-1] = out[-1].rstrip(" ")
                    out.append("<br />\n")
                else:
                    out.append("\n")
                pos += 1
            elif char == "`":
                pos = self._code_span(pos)
            elif char in "*_":
                pos = self._emphasis(pos, char)
            elif char == "[" or (char == "!" and text.startswith("[", pos + 1)):
                kind = "[" if char == "[" else "!["
                self._open(_Mark(kind, len(out)), kind)
                pos += len(kind)
            elif char == "]":
                pos = self._close_bracket(pos)
            elif char == "<" and (link := _AUTOLINK.match(text, pos)):
                target = link.group(1)
                href = target if ":" in target.split("@")[0] else f"mailto:{target}"
                out.append(f'<a href="{html.escape(href)}">{html.escape(target, quote=False)}</a>')
                pos = link.end()
            else:
                out.append(_ESCAPES.get(char, char))
                pos += 1
        return "".join(out)

    def _backslash(self, pos: int) -> int:
        following = self.text[pos + 1:pos + 2]
        if following == "\n":
            self.out.append("<br />\n")
            return pos + 2
        if following in _PUNCTUATION and following:
            self.out.append(_ESCAPES.get(following, following))
            return pos + 2
        self.out.append("\\")
        return pos + 1

    def _code_span(self, pos: int) -> int:
        length = _BACKTICKS.match(self.text, pos).end() - pos  # type: ignore[union-attr]  # pos is at a `
        # after an escaped backtick the rest of its run opens with fewer backticks than the whole run
        # the scan listed (a backslash and three open with two): only whole runs that long close it
        starts = self.ticks.get(length, [])
        k = self.tick_next.get(length, 0)
        while k < len(starts) and starts[k] <= pos:  # each run is passed once, over the whole text
            k += 1
        self.tick_next[length] = k
        if k == len(starts):
            self.out.append("`" * length)
            return pos + length
        close = starts[k]
        code = self.text[pos + length:close].replace("\n", " ")
        if len(code) > 2 and code[0] == code[-1] == " " and code.strip():
            code = code[1:-1]
        self.out.append("<code>" + html.escape(code, quote=False) + "</code>")
        return close + length

    def _open(self, mark: _Mark, literal: str) -> None:
        self.out.append(literal)
        if self.open >= MAX_OPEN:
            return  # too many open: this one stays text
        self.marks.append(mark)
        if mark.kind in ("[", "!["):
            self.brackets.append(mark)
        else:
            self.runs.setdefault((mark.kind, mark.length), []).append(mark)
        self.open += 1

    def _collapse(self, mark: _Mark) -> str:
        """Close `mark`: the marks opened after it become text; returns what it encloses."""
        while self.marks and self.marks[-1].at >= mark.at:
            top = self.marks.pop()
            if not top.alive:
                continue
            top.alive = False
            self.open -= 1
            stack = self.brackets if top.kind in ("[", "![") else self.runs[(top.kind, top.length)]
            stack.pop()  # the newest of its kind: every newer one was removed before it
        self.inactive_below = min(self.inactive_below, len(self.brackets))
        inner = "".join(self.out[mark.at + 1:])
        del self.out[mark.at:]
        return inner

    def _emphasis(self, pos: int, char: str) -> int:
        text = self.text
        end = _RUN[char].match(text, pos).end()  # type: ignore[union-attr]  # pos is at a * or _
        length = end - pos
        before = text[pos - 1] if pos else " "
        after = text[end] if end < len(text) else " "
        left = not after.isspace() and (after not in _PUNCTUATION or before.isspace() or before in _PUNCTUATION)
        right = not before.isspace() and (before not in _PUNCTUATION or after.isspace() or after in _PUNCTUATION)
        if char == "_":  # no emphasis inside a word: snake_case_names stay as they are
            left, right = left and (not right or before in _PUNCTUATION), right and (not left or after in _PUNCTUATION)
        if length > 3:
            self.out.append(text[pos:end])
            return end
        openers = self.runs.get((char, length))
        if right and openers:
            inner = self._collapse(openers[-1])
            tags = {1: ("<em>", "</em>"), 2: ("<strong>", "</strong>"),
                    3: ("<strong><em>", "</em></strong>")}[length]
            self.out.append(tags[0] + inner + tags[1])
        elif left:
            self._open(_Mark(char, len(self.out), length), text[pos:end])
        else:
            self.out.append(text[pos:end])
        return end

    def _close_bracket(self, pos: int) -> int:
        if not self.brackets:
            self.out.append("]")
            return pos + 1
        mark = self.brackets[-1]
        target = _TARGET.match(self.text, pos + 1)
        if target is None or len(self.brackets) <= self.inactive_below:
            self.brackets.pop()  # stays text, and so does this bracket
            self.inactive_below = min(self.inactive_below, len(self.brackets))
            mark.alive = False
            self.open -= 1
            self.out.append("]")
            return pos + 1
        inner = self._collapse(mark)
        if mark.kind == "![":
            self.out.append(inner)  # a picture shows as its description
        else:
            href = target.group(1).strip("<>")
            title = f' title="{html.escape(target.group(2)[1:-1])}"' if target.group(2) else ""
            self.out.append(f'<a href="{html.escape(href)}"{title}>{inner}</a>')
            self.inactive_below = len(self.brackets)  # no link inside a link
        return target.end()


def _inline(text: str) -> str:
    return _Inline(text).render()


@lru_cache(maxsize=256)  # a page of old press rows, rendered on read, is shown again and again
def user_text_html(text: str) -> str:
    """Sanitised HTML of a player's or moderator's Markdown (see the module doc)."""
    lines = (text or "").replace("\r\n", "\n").replace("\r", "\n").replace("\t", "    ").split("\n")
    return sanitise("\n".join(_blocks(lines, 0)))


def mail_html(before: str, user_html: str, after: str) -> str:
    """The HTML part of a mail that carries a person's words: the server's own Markdown before and
    after them (rendered as every mail's is), and their HTML as it was stored when written."""
    return "\n".join([markdown_blocks_to_html(before), user_html, markdown_blocks_to_html(after)])
