"""WCAG contrast of the project's text colour pairs, read from the CSS itself: every pair of text
and background colours the stylesheets define must reach 4.5:1 (issue 12; WCAG 2.x AA)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
MIN_RATIO = 4.5


def _css(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def _luminance(colour: str) -> float:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ratio(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _vars(css: str, selector: str) -> dict[str, str]:
    block = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert block, f"{selector} not found in the CSS"
    return dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})", block.group(1)))


def _rule(css: str, selector: str) -> dict[str, str]:
    """The colour declarations of the rule whose selector list starts with `selector`."""
    block = re.search(r"(?m)^" + re.escape(selector) + r"[^{]*\{([^}]*)\}", css)
    assert block, f"{selector} not found in the CSS"
    return dict(re.findall(r"(color|background):\s*(#[0-9a-fA-F]{3,6})", block.group(1)))


def _pairs() -> list[tuple[str, str, str]]:
    style, boards = _css("style.css"), _css("boards.css")
    root = _vars(style, ":root")
    pairs = [(f"style {fg} on {bg}", root[fg], root[bg]) for fg, bg in (
        ("--fg", "--bg"), ("--fg", "--card"), ("--muted", "--bg"), ("--muted", "--card"), ("--accent", "--bg"),
        ("--accent-fg", "--accent"), ("--bad", "--bad-bg"), ("--bad", "--bg"), ("--good", "--good-bg"),
        ("--warn", "--warn-bg"))]
    # Doge districts: a built palace space shows its owner's colour behind white text, except yellow
    built = _rule(style, ".doge .space.built")["color"]
    for colour in ("red", "blue", "green", "yellow", "other"):
        bg = _rule(style, f".c-{colour} .swatch")["background"]
        fg = _rule(style, ".space.c-yellow")["color"] if colour == "yellow" else built
        pairs.append((f"Doge palace space {colour}", fg, bg))
    # China cards and counters: white text unless the rule sets its own colour
    for colour in ("green", "orange", "purple", "red", "yellow"):
        rule = _rule(boards, f".k-{colour}.ccard")
        pairs.append((f"China card {colour}", rule.get("color", "#fff"), rule["background"]))
    # 1960: candidate colours as text on their light backgrounds and behind white text
    b = _vars(boards, ".b1960")
    for seat in ("k", "n"):
        pairs.append((f"1960 --{seat} on --{seat}-bg", b[f"--{seat}"], b[f"--{seat}-bg"]))
        pairs.append((f"1960 white on --{seat}", "#fff", b[f"--{seat}"]))
    return pairs


def test_the_ratio_matches_known_values():
    assert ratio("#000", "#fff") == pytest.approx(21.0)
    assert ratio("#fff", "#fff") == pytest.approx(1.0)
    assert ratio("#fff", "#d4a20a") == pytest.approx(2.34, abs=0.01)  # the old white on Doge yellow


@pytest.mark.parametrize(("what", "fg", "bg"), _pairs())
def test_text_colour_pairs_reach_aa_contrast(what, fg, bg):
    assert ratio(fg, bg) >= MIN_RATIO, f"{what}: {fg} on {bg} is {ratio(fg, bg):.2f}:1"


def test_every_page_starts_with_a_skip_link_to_the_main_content(client):
    # every page extends base.html; the index, the create form and an error page stand for them
    for url in ("/", "/new", "/no-such-page"):
        html = client.get(url).get_data(as_text=True)
        assert '<a class="skip-link" href="#main">' in html, url
        assert html.index("skip-link") < html.index("<header"), url
        assert '<main id="main"' in html, url
