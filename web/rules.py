"""Rules at hand: each game's own documentation (docs/games/<game>.md and <game>-rules.md) as a page
of the site, with anchors a seat page, a mail or a decision can link to.

The Markdown goes through the project's one sanitising renderer; the anchors are added after it, from
the tables' own structure (never from the text of a row): a table whose first column is `#` lists
cards (`card-14`), one whose first column is `id` lists rules (`rule-D17`), one whose first column
names a prompt lists decisions (`decision-cp`, the prompt's kind). Headings get ids from their words.
The files are packaged with `web` (web/gamedocs is docs/games), so an installed wheel has them.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from flask import Blueprint, abort, render_template, url_for
from markupsafe import Markup

from adjudicator.engine import all_games
from adjudicator.render import markdown_to_html

bp = Blueprint("rules", __name__)

DOCS = Path(__file__).parent / "gamedocs"
RULEBOOK_ANCHOR = "rulebook"

_TABLE = re.compile(r"<table>.*?</table>", re.S)
_HEADER_CELL = re.compile(r"<th[^>]*>(.*?)</th>", re.S)
_ROW = re.compile(r"<tr>\s*<td[^>]*>(.*?)</td>(?:\s*<td[^>]*>(.*?)</td>)?", re.S)
_HEADING = re.compile(r"<h([23])>(.*?)</h\1>", re.S)
_TAG = re.compile(r"<[^>]+>")
_CODE = re.compile(r"<code>(.*?)</code>", re.S)


def _text(fragment: str) -> str:
    return html.unescape(_TAG.sub("", fragment)).strip()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")[:60] or "part"


@dataclass(frozen=True)
class Anchor:
    id: str
    label: str  # what a link to it reads ("#14 Gathering Momentum in the South", "Orders")


@dataclass(frozen=True)
class RulesPage:
    game: str
    title: str
    body: Markup  # sanitised HTML with anchors
    contents: tuple[Anchor, ...]  # the h2 headings, for the page's table of contents
    anchors: dict[str, Anchor]  # every id the page has


def _row_id(kind: str, first: str) -> str | None:
    if kind == "card":
        number = _text(first).lstrip("#")
        return f"card-{number}" if number.isdigit() else None
    if kind == "rule":
        return "rule-" + slug(_text(first)) if _text(first) else None
    code = _CODE.search(first)  # a prompt's kind is written as code (`cp`), else as the cell's first word
    word = _text(code.group(1)) if code else (_text(first).split() or [""])[0]
    return "decision-" + slug(word) if word else None


def _table_kind(table: str) -> str | None:
    header = _HEADER_CELL.search(table)
    first = _text(header.group(1)).casefold() if header else ""
    if first == "#":
        return "card"
    if first == "id":
        return "rule"
    if first.startswith("prompt"):
        return "decision"
    return None


def add_anchors(body: str, anchors: dict[str, Anchor], contents: list[Anchor]) -> str:
    """`body` (sanitised HTML) with ids on headings and on the rows of card, rule and decision
    tables; the first row of a repeated id keeps it. Fills `anchors` and `contents`."""

    def heading(match: re.Match[str]) -> str:
        label = _text(match.group(2))
        anchor_id = slug(label)
        if anchor_id in anchors:
            return match.group(0)
        anchors[anchor_id] = Anchor(anchor_id, label)
        if match.group(1) == "2":
            contents.append(anchors[anchor_id])
        return f'<h{match.group(1)} id="{anchor_id}">{match.group(2)}</h{match.group(1)}>'

    def table(match: re.Match[str]) -> str:
        # a wide table scrolls in its own box on a phone; the box takes the keyboard focus so that
        # it can be scrolled without a pointer
        return '<div class="table-wrap" tabindex="0">' + rows(match) + "</div>"

    def rows(match: re.Match[str]) -> str:
        kind = _table_kind(match.group(0))
        if kind is None:
            return match.group(0)

        def row(m: re.Match[str]) -> str:
            anchor_id = _row_id(kind, m.group(1))
            if anchor_id is None or anchor_id in anchors:
                return m.group(0)
            label = (f"#{anchor_id[5:]} {_text(m.group(2) or '')}".strip() if kind == "card"
                     else _text(m.group(1)))
            anchors[anchor_id] = Anchor(anchor_id, label)
            return f'<tr id="{anchor_id}">' + m.group(0)[len("<tr>"):]

        return _ROW.sub(row, match.group(0))

    return _TABLE.sub(table, _HEADING.sub(heading, body))


def _docs_link(body: str, game: str) -> str:
    """The two files link each other by file name; on the site they are parts of one page."""
    return (body.replace(f'href="{game}-rules.md"', f'href="#{RULEBOOK_ANCHOR}"')
            .replace(f'href="{game}.md"', 'href="#top"'))


@cache
def rules_page(game: str) -> RulesPage | None:
    """The game's documentation page, or None if the game has no docs (rendered once per process)."""
    module = all_games().get(game)
    guide, rulebook = DOCS / f"{game}.md", DOCS / f"{game}-rules.md"
    if module is None or not guide.is_file():
        return None
    anchors: dict[str, Anchor] = {}
    contents: list[Anchor] = []
    parts = [markdown_to_html(guide.read_text(encoding="utf-8"))]
    if rulebook.is_file():
        parts.append(f'<div id="{RULEBOOK_ANCHOR}">' + markdown_to_html(rulebook.read_text(encoding="utf-8"))
                     + "</div>")
    body = add_anchors(_docs_link("\n".join(parts), game), anchors, contents)
    return RulesPage(game, module.info.title, Markup(body), tuple(contents), anchors)


def rules_link(game: str, anchor: str = "") -> str | None:
    """The rules page of `game` at `anchor` if the page has it (else its top); None without docs."""
    page = rules_page(game)
    if page is None:
        return None
    return url_for("rules.page", game=game, _anchor=anchor if anchor in page.anchors else None)


def decision_rules(game: str, kind: str) -> str | None:
    """The rules page's row of this kind of decision, else its section on orders, else its top."""
    page = rules_page(game)
    if page is None:
        return None
    for anchor in (f"decision-{slug(kind)}", *(a.id for a in page.contents if a.id.startswith("order"))):
        if anchor in page.anchors:
            return rules_link(game, anchor)
    return rules_link(game)


_CARD_NUMBER = re.compile(r"#(\d{1,3})\b")


def cards_named(game: str, labels: list[str]) -> list[tuple[str, str]]:
    """(label, link) of each card the docs list that the labels name as "#N", in order, once."""
    page = rules_page(game)
    if page is None:
        return []
    seen: dict[str, tuple[str, str]] = {}
    for label in labels:
        for number in _CARD_NUMBER.findall(label):
            anchor = page.anchors.get(f"card-{int(number)}")
            if anchor is not None and anchor.id not in seen:
                seen[anchor.id] = (anchor.label, rules_link(game, anchor.id) or "")
    return sorted(seen.values(), key=lambda pair: int(pair[0].split()[0].lstrip("#")))


@bp.route("/rules")
def index():
    return render_template("rules/index.html", games=[(g, m.info.title) for g, m in sorted(all_games().items())
                                                      if rules_page(g) is not None])


@bp.route("/rules/<game>")
def page(game: str):
    rules = rules_page(game)
    if rules is None:
        abort(404)
    return render_template("rules/page.html", rules=rules)


def register_rules(app) -> None:  # noqa: ANN001 - a Flask app
    app.register_blueprint(bp)
    app.jinja_env.globals["rules_link"] = rules_link
    app.jinja_env.globals["decision_rules"] = decision_rules
    app.jinja_env.globals["cards_named"] = cards_named
