"""markdown_to_html's plain-paragraph path (a reply's receipts) must give exactly the HTML that
Python-Markdown gives: for generated texts near its edges, and for every paragraph of the
mails a game sends."""

from __future__ import annotations

import nh3
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.render import markdown as md

# letters, digits, spaces, line breaks, backticks and every character Markdown reacts to
ALPHABET = "aZé9 \n\t`*_[]<>&\\{}|#-+=:.!()~\"'\xa0\x85\u2028;,/%?"


def _markdown(text: str) -> str:
    return md._converter().reset().convert(text)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_a_generated_text_converts_as_markdown_does(text: str) -> None:
    fast = md._plain_paragraph(text)
    if fast is not None:
        assert fast == _markdown(text)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["Receipt", "`a b`", "`x`", "(receipt", "`c`);", "ok.", "é", "1.", "-", ":", "x:"]),
        max_size=12,
    ),
    st.lists(st.sampled_from([" ", "\n", "  ", " \n"]), max_size=12),
)
def test_a_generated_paragraph_converts_as_markdown_does(words: list[str], gaps: list[str]) -> None:
    text = "".join(w + (gaps[i] if i < len(gaps) else " ") for i, w in enumerate(words)).strip(" ")
    fast = md._plain_paragraph(text)
    if fast is not None:
        assert fast == _markdown(text)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40), st.integers(min_value=1, max_value=3))
def test_a_generated_text_ending_in_line_breaks_converts_as_markdown_does(text: str, breaks: int) -> None:
    text += "\n" * breaks
    fast = md._plain_paragraph(text)
    if fast is not None:
        assert fast == _markdown(text)


@settings(max_examples=2000, deadline=None)
@given(st.integers(min_value=1, max_value=7), st.sampled_from(["", " ", "  ", "\t"]),
       st.text(alphabet=ALPHABET, max_size=30), st.integers(min_value=0, max_value=2))
def test_a_generated_heading_converts_as_markdown_does(level: int, gap: str, text: str, breaks: int) -> None:
    heading = "#" * level + gap + text + "\n" * breaks
    fast = md._plain_heading(heading)
    if fast is not None:
        assert fast == _markdown(heading)


@pytest.mark.parametrize("text", ["# Bench 1 (g34rv5k), seat red", "## Now", "###### `x` y\n",
                                  "# s 1 (gu7xy2m), seat blue\n\n"])
def test_a_plain_heading_takes_the_fast_path(text: str) -> None:
    assert md._plain_heading(text) == _markdown(text)


@pytest.mark.parametrize("text", ["# a #", "#a", "####### a", "# *a*", "# a\nb", "#  a", "# a ", "# 1. a"])
def test_any_other_heading_is_left_to_markdown(text: str) -> None:
    assert md._plain_heading(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Sealed order `place cannaregio 1` received. Receipt (commitment): `5240ae55bd`. You may replace it.",
        "Your sealed order `bid 2` is in (receipt `ab12`); the others have not all ordered yet.\nNext line.",
        "Your sealed order `bid 2` is in (receipt `ab12`); otherwise there is nothing to do until you get a mail.\n",
        "Plain words only",
    ],
)
def test_reply_paragraphs_take_the_plain_path(text: str) -> None:
    assert md._plain_paragraph(text) is not None
    html = md.markdown_to_html(text)
    assert html == nh3.clean(
        _markdown(text),
        tags=md.TAGS,
        attributes=md.ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )


@pytest.mark.parametrize(
    "text",
    [
        "# Title",
        "- item",
        "1. item",
        "a *b*",
        "`a",
        "a  \nb",
        " a",
        "a\n: def",
        "a | b",
        "a & b",
        "``a``",
        "a\n===",
        "A `b\nc`",
    ],
)
def test_anything_else_is_left_to_markdown(text: str) -> None:
    assert md._plain_paragraph(text) is None


@pytest.mark.parametrize("game_id", ["doge", "1960"])
def test_every_block_of_a_games_mails_converts_as_markdown_does(game_id: str) -> None:
    from tests.mail.test_mail_html_blocks import _mail_bodies

    plain = 0
    for body in _mail_bodies(game_id, seed=16, steps=30):
        for block in md._BOUNDARY.split(body):
            fast = md._plain_paragraph(block) or md._plain_heading(block) or md._plain_then_code(block)
            if fast is not None:
                plain += 1
                assert fast == _markdown(block)
    assert plain > 0


CODE_ALPHABET = "aZé9 \t`*_[]<>&\\{}|#-+=:.!()~\"'\xa0\x85\u2028\u3000;,/%?"


@settings(max_examples=6000, deadline=None)
@given(st.sampled_from(["Keep this line.", "## Applied", "Did you mean:", "# T", "a *b*", "- x", ""]),
       st.lists(st.tuples(st.sampled_from(["    ", "   ", "     ", "\t", ""]),
                          st.text(alphabet=CODE_ALPHABET, max_size=20)), min_size=1, max_size=4),
       st.sampled_from(["\n\n", "\n", "\n\n\n", "\n \n"]), st.integers(min_value=0, max_value=2))
def test_a_generated_text_then_code_converts_as_markdown_does(head: str, lines: list[tuple[str, str]], gap: str,
                                                              breaks: int) -> None:
    text = head + gap + "\n".join(indent + line for indent, line in lines) + "\n" * breaks
    fast = md._plain_then_code(text)
    if fast is not None:
        assert fast == _markdown(text)


@pytest.mark.parametrize("text", [
    "Keep this line: the game's verifier page checks it against the record.\n\n"
    "    pbem receipt: game gzz4xpg seat green commitment 19c0609aedd1d58525283fbaf61648e2280b04dd047edea7c9484\n",
    "## Applied\n\n    place cannaregio 1\n    bid 2",
    "Did you mean:\n\n    bid 2\n\n",
])
def test_a_receipt_block_takes_the_plain_path(text: str) -> None:
    assert md._plain_then_code(text) == _markdown(text)


@pytest.mark.parametrize("text", ["a\n\n    x <b>", "a\n\n    x &amp;", "a\n\n     x", "a\n\n    x \n", "a\n    x",
                                  "- a\n\n    x", "a\n\n    x\n\n    y", "a\n\n\tx", "a\n\n    x\\y"])
def test_any_other_text_then_code_is_left_to_markdown(text: str) -> None:
    assert md._plain_then_code(text) is None


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=" \n[]^:*`~<ab", max_size=40))
def test_the_whole_text_check_is_the_patterns(text: str) -> None:
    assert md._spans_blocks(text) == (md._WHOLE.search(text) is not None)
