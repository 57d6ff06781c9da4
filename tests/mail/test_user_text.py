"""The renderer of players' and moderators' Markdown (adjudicator/render/usertext.py): what it makes
of the Markdown a player writes, that it stays sanitised, and that no text within the 10,000
characters of a press message costs more than 50 ms, by the known worst shapes of the `markdown`
package and by Hypothesis building texts of them and of random special characters."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.bench.hostile import HOSTILE_PRESS, hostile_press
from adjudicator.render.usertext import MAX_BLOCK_DEPTH, user_text_html
from adjudicator.service.people.press import MAX_PRESS

BUDGET = 0.050  # seconds of CPU for any text within the press cap


def _cpu_seconds(text: str) -> float:
    user_text_html.cache_clear()
    start = time.process_time()  # this process's CPU: other jobs on the machine do not count
    user_text_html(text)
    return time.process_time() - start


@pytest.mark.parametrize(("text", "html"), [
    ("Shall we *share* the **pot**, or ***all***?",
     "<p>Shall we <em>share</em> the <strong>pot</strong>, or <strong><em>all</em></strong>?</p>"),
    ("snake_case_name stays, _this_ leans", "<p>snake_case_name stays, <em>this</em> leans</p>"),
    ("`bid 3` and `` a`b ``", "<p><code>bid 3</code> and <code>a`b</code></p>"),
    ('[the rules](https://example.org/r "Rules")',
     '<p><a href="https://example.org/r" title="Rules" rel="nofollow noopener noreferrer">the rules</a></p>'),
    ("see <https://example.org>",
     '<p>see <a href="https://example.org" rel="nofollow noopener noreferrer">https://example.org</a></p>'),
    ("![a map](https://tracker.example/p.png)", "<p>a map</p>"),  # no picture: it could track the reader
    ("line one  \nline two\nline three", "<p>line one<br>\nline two\nline three</p>"),
    ("# Deal?\n\ntext", "<h1>Deal?</h1>\n<p>text</p>"),
    ("Deal\n---", "<h2>Deal</h2>"),
    ("> you said\n> > I said\n\nno", "<blockquote>\n<p>you said</p>\n<blockquote>\n<p>I said</p>\n</blockquote>\n"
     "</blockquote>\n<p>no</p>"),
    ("My orders:\n- bid 2\n- keep\n  - maybe\n\n1. one\n2. two",
     "<p>My orders:</p>\n<ul>\n<li>bid 2</li>\n<li>keep\n<ul>\n<li>maybe</li>\n</ul></li>\n</ul>\n"
     "<ol>\n<li>one</li>\n<li>two</li>\n</ol>"),
    ("- a\n\n- b", "<ul>\n<li><p>a</p></li>\n<li><p>b</p></li>\n</ul>"),
    ("```\nx < 1\n```\n\n    indented", "<pre><code>x &lt; 1\n</code></pre>\n<pre><code>indented\n</code></pre>"),
    ("a\n\n***\n\nb", "<p>a</p>\n<hr>\n<p>b</p>"),
    ("\\*not em\\* [no link] [x]", "<p>*not em* [no link] [x]</p>"),
])
def test_the_markdown_a_player_writes(text: str, html: str) -> None:
    assert user_text_html(text) == html


@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>", "<b onclick='x()'>b</b>", "[x](javascript:alert)", "<img src=x onerror=alert(1)>",
    '[x](https://a.example "t\\" onmouseover=\\"x")', "![x](javascript:alert)",
])
def test_raw_html_is_text_and_unsafe_links_lose_their_target(text: str) -> None:
    html = user_text_html(text)
    assert "<script" not in html and "<img" not in html and "<b" not in html
    assert 'href="javascript' not in html
    assert not re.search(r"<[a-z][^<>]*\bon\w+=", html)  # no event handler in any real tag


def test_nesting_stops_at_its_bound_and_the_rest_is_text() -> None:
    html = user_text_html(">" * 20 + " deep")
    assert html.count("<blockquote>") == MAX_BLOCK_DEPTH
    assert "&gt;" * (20 - MAX_BLOCK_DEPTH) in html and "deep" in html


WORST = {name: hostile_press(unit, MAX_PRESS) for name, unit in HOSTILE_PRESS.items()}


@pytest.mark.parametrize("name", WORST)
def test_each_known_worst_shape_renders_within_the_budget(name: str) -> None:
    text = WORST[name]
    seconds = min(_cpu_seconds(text) for _ in range(2))
    assert seconds <= BUDGET, f"{name}: {seconds * 1000:.1f} ms"


_UNITS = st.one_of(
    st.sampled_from(list(HOSTILE_PRESS.values())),
    st.text(alphabet="![]()*_`<>\\\"' \n#-+>1.ax:/", min_size=1, max_size=12),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units=st.lists(_UNITS, min_size=1, max_size=6))
def test_any_mix_of_worst_shapes_within_the_cap_renders_within_the_budget(units: list[str]) -> None:
    text = hostile_press("".join(units), MAX_PRESS)
    seconds = _cpu_seconds(text)
    if seconds > BUDGET:  # one more try: a pause of the machine is not the text's cost
        seconds = _cpu_seconds(text)
    assert seconds <= BUDGET, f"{seconds * 1000:.1f} ms for {text[:80]!r}..."
    html = user_text_html(text)
    assert "<script" not in html and "<img" not in html


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300))
def test_any_text_renders_without_error_and_keeps_its_words(text: str) -> None:
    html = user_text_html(text)
    words = [w for w in text.split() if w.isalnum() and w.isascii()] if "![" not in text else []
    for word in words:  # letters and digits alone are never markup: each word is shown
        assert word in html


@pytest.mark.parametrize(("text", "expected"), [
    ("11\\```\n", "<p>11```</p>"),  # the rest of an escaped run has no closer: text (it used to raise KeyError)
    ("a \\```b`` c", "<p>a `<code>b</code> c</p>"),  # ...or opens a span closed by a run as long
])
def test_a_run_of_backticks_after_an_escaped_one_opens_with_the_rest(text: str, expected: str) -> None:
    assert user_text_html(text).strip() == expected
