"""A row's message written directly (workers/rawmail.py) is byte for byte the email package's
`build_message(row)` flattened, with either line separator, for plain rows and for every header
the fast path must leave to the email package (non-ASCII, long, encoded-word look-alikes, an
address with a name, a second Reply-To, an unparsable or empty value)."""

from __future__ import annotations

import io
from datetime import datetime
from email.generator import BytesGenerator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.store import OutboxMessage
from workers import mailer, rawmail

BOUNDARY = "===============1234567890123456789=="
BODY = """# Game (g1), seat red

## Since your last mail

- *Default orders for blue, green*
- A long line that the quoted-printable encoder has to cut somewhere after seventy-six characters, twice over.

| Area | Owner |
| --- | --- |
| Castello | red x1 |

    place cannaregio 1 0
    place cannaregio 2
"""
ROWS = [
    dict(to="a@b.test", subject="[g1] Game: your move (red)", body=BODY,
         headers={"Auto-Submitted": "auto-generated", "X-PBEM-Game": "g1", "List-Id": "pbem game g1 <g1.pbem.test>",
                  "Reply-To": "game-g1+red-abc@pbem.test", "References": "<game-g1@pbem.test>"}),
    dict(to="Álvaro <a@b.test>", subject="Año nuevo: ¡tu turno! " * 5, body="ñ" * 100 + "\n\nline",
         headers={"X-Odd": "=?utf-8?q?x?=", "reply-to": "x@y.test", "Reply-To": "z@w.test"}),
    dict(to="x@y.test", subject="S" * 69, body="short ascii\nlines", headers={}),
    dict(to="x@y.test", subject="S" * 70, body="x" * 200, headers={"In-Reply-To": "<a@b> <c@d>", "X-Long": "w " * 60}),
    dict(to="x@y.test", subject="  spaced   out ", body="", headers={"Bad:": "x", "X-Empty": ""}),
    dict(to="x@y.test, z@q.test", subject="\r\nBcc: evil@x.test", body=BODY * 3, headers={"X-Seat": "ünï"}),
    dict(to="x@y.test", subject="dots", body=".\n..\nFrom here\n", headers={"In-Reply-To": "<not an id>"}),
    dict(to="x@y.test", subject="from", body="From the start\nFrom\nFrom  two\n From not\nFrom ", headers={}),
    dict(to="x@y.test", subject="breaks", body="cr\rline\r\nmixed\x0bvt\x0cff\u2028ls\n\n" + "é" * 90, headers={}),
]


def _slow(row: OutboxMessage, linesep: str, mangle_from: bool) -> bytes:
    msg = mailer.build_message(row)
    msg.set_boundary(BOUNDARY)
    out = io.BytesIO()
    # bytes(msg) flattens with mangle_from_=False; smtplib.send_message with "\r\n" and True
    BytesGenerator(out, mangle_from_=mangle_from).flatten(msg, linesep=linesep)
    return out.getvalue()


@pytest.mark.parametrize(("linesep", "mangle_from"), [("\n", False), ("\r\n", True), ("\r\n", False)])
@pytest.mark.parametrize("n", range(len(ROWS)))
def test_the_direct_bytes_are_the_email_packages(n: int, linesep: str, mangle_from: bool) -> None:
    row = OutboxMessage(id=100 + n, status="sending", **ROWS[n])
    row.created_at = datetime(2026, 1, 2, 3, 4, 5)
    fast = mailer.message_bytes(row, linesep, mangle_from, boundary=lambda: BOUNDARY)
    assert fast == _slow(row, linesep, mangle_from)


def test_a_boundary_found_in_a_part_is_drawn_again() -> None:
    row = OutboxMessage(id=1, to="a@b.test", subject="s", body=f"--{BOUNDARY}\n", headers={})
    marks = iter([BOUNDARY, "=" * 15 + "1" * 19 + "=="])
    raw = mailer.message_bytes(row, boundary=lambda: next(marks))
    assert f'boundary="{"=" * 15 + "1" * 19}=="'.encode() in raw


def test_only_plain_values_skip_the_header_parser() -> None:
    assert rawmail.plain("To", "a.b+c@example.test") and rawmail.plain("Subject", "[g1] a: b (c)")
    assert not rawmail.plain("To", "Name <a@b.test>") and not rawmail.plain("To", "a@b.test, c@d.test")
    assert not rawmail.plain("Subject", "two  spaces") and not rawmail.plain("Subject", "=?utf-8?q?x?=")
    assert not rawmail.plain("Subject", "é") and not rawmail.plain("Subject", "x" * 70)
    assert not rawmail.plain("Date", "Fri, 02 Jan 2026 03:04:05 -0000"), "parsed headers always go to the parser"


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="From \n\r>x", max_size=40))
def test_mangling_from_lines_is_the_generators_pattern(text: str) -> None:
    assert rawmail._mangled(text) == rawmail._FROM.sub(">From ", text)


@settings(max_examples=2000, deadline=None)
@given(st.binary(max_size=40) | st.text(alphabet=".\r\nab", max_size=40).map(str.encode))
def test_the_data_bytes_are_what_smtplib_sends(raw: bytes) -> None:
    import smtplib

    quoted = smtplib._quote_periods(raw)  # type: ignore[attr-defined]
    assert mailer._data_bytes(raw) == (quoted if quoted[-2:] == b"\r\n" else quoted + b"\r\n") + b".\r\n"
