"""A row's message (workers/mime.py: the email package with what a burst repeats kept) is byte for
byte the message built the plain way (`set_content`, `add_alternative`, the default policy), with
either line separator, for plain rows and for every header the policy must parse (non-ASCII,
long, encoded-word look-alikes, an address with a name, a second Reply-To, an unparsable or empty
value)."""

from __future__ import annotations

import email.policy
import io
import smtplib
from datetime import datetime
from email.generator import BytesGenerator
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.store import OutboxMessage
from workers import mailer, mime

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


def _plain_way(row: OutboxMessage, linesep: str, mangle_from: bool) -> bytes:
    msg = EmailMessage(policy=email.policy.default)
    for name, value in mime.fixed_headers(row):
        msg[name] = value
    for name, value in mime.row_headers(row):
        try:
            msg[name] = value
        except (ValueError, TypeError, IndexError):
            continue
    msg.set_content(row.body)
    msg.add_alternative(mime.html(row), subtype="html")
    msg.set_boundary(BOUNDARY)
    out = io.BytesIO()
    # bytes(msg) flattens with mangle_from_=False; smtplib.send_message with "\r\n" and True
    BytesGenerator(out, mangle_from_=mangle_from).flatten(msg, linesep=linesep)
    return out.getvalue()


@pytest.mark.parametrize(("linesep", "mangle_from"), [("\n", False), ("\r\n", True), ("\r\n", False)])
@pytest.mark.parametrize("n", range(len(ROWS)))
def test_the_messages_bytes_are_the_plain_ways(n: int, linesep: str, mangle_from: bool) -> None:
    row = OutboxMessage(id=100 + n, status="sending", **ROWS[n])
    row.created_at = datetime(2026, 1, 2, 3, 4, 5)
    for _ in range(2):  # built anew, then from what was kept
        assert mailer.message_bytes(row, linesep, mangle_from, boundary=BOUNDARY) == _plain_way(row, linesep,
                                                                                                mangle_from)


def test_a_shared_boundary_found_in_a_part_is_drawn_again() -> None:
    sample = mime.build_message(OutboxMessage(id=1, to="a@b.test", subject="s", body="x", headers={}))
    shared = sample.get_boundary()
    row = OutboxMessage(id=2, to="a@b.test", subject="s", body=f"--{shared}\n", headers={})
    msg = mime.build_message(row)
    assert msg.get_boundary() not in (None, shared)
    assert [part.get_content_type() for part in msg.iter_parts()] == ["text/plain", "text/html"]
    assert mime.build_message(OutboxMessage(id=3, to="a@b.test", subject="s", body="y", headers={})).get_boundary() \
        == shared


def test_a_read_header_is_the_parsed_one() -> None:
    msg = mime.build_message(OutboxMessage(id=4, to="a@b.test", subject="s", body="x", headers={}))
    assert msg["To"].addresses[0].addr_spec == "a@b.test"


def test_only_plain_values_skip_the_header_parser() -> None:
    assert mime.plain("To", "a.b+c@example.test") and mime.plain("Subject", "[g1] a: b (c)")
    assert not mime.plain("To", "Name <a@b.test>") and not mime.plain("To", "a@b.test, c@d.test")
    assert not mime.plain("Subject", "two  spaces") and not mime.plain("Subject", "=?utf-8?q?x?=")
    assert not mime.plain("Subject", "é") and not mime.plain("Subject", "x" * 70)
    assert not mime.plain("Date", "Fri, 02 Jan 2026 03:04:05 -0000"), "parsed headers always go to the parser"


@settings(max_examples=2000, deadline=None)
@given(st.binary(max_size=40) | st.text(alphabet=".\r\nab", max_size=40).map(str.encode))
def test_the_data_bytes_are_what_smtplib_sends(raw: bytes) -> None:
    client = _Recording()
    client.data(raw)
    assert mailer._data_bytes(raw) == b"".join(client.sent)


class _Recording(smtplib.SMTP):
    """An SMTP client that records what it would send after DATA, its relay always willing."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[bytes] = []

    def putcmd(self, cmd: str, args: str = "") -> None:
        pass

    def getreply(self) -> tuple[int, bytes]:
        return 354, b"go ahead"

    def send(self, s: bytes | str) -> None:
        self.sent.append(s if isinstance(s, bytes) else s.encode())
