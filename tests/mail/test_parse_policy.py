"""The inbound parse reads headers through a cache (mail/parse.py's POLICY): every mail, the
ordinary and the hostile ones, must give exactly the ParsedMail that policy.default gives."""

from __future__ import annotations

from collections.abc import Callable
from email import policy
from email.parser import BytesHeaderParser

import pytest

from adjudicator.bench import hostile
from adjudicator.mail import config
from adjudicator.mail import parse as parse_mod
from adjudicator.mail.headers import CachedHeaders
from adjudicator.mail.parse import ParsedMail, headers_only, parse
from tests.mail.conftest import message

TO, SEAT = "game-abc+red-token@pbem.test", "p1@example.org"


def _crafted() -> list[bytes]:
    head = "From: {frm}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <c{n}@h.test>\r\n"
    odd_headers = [
        ("=?utf-8?q?J=C3=B6rg?= <j@example.org>", "=?utf-8?b?w7NyZGVuZXM=?= and more"),
        ("j@example.org (a comment)", "=?bogus-charset?q?x?="),
        ('"Last, First" <lf@example.org>, other@example.org', "=?utf-8?q?broken"),
        ("<>", "Re: Re:  orders\t spaced"),
        ("undisclosed-recipients:;", "\xe9t\xe9 raw latin-1"),
        ("no-reply@example.org", "x" * 300),  # longer than the cache takes
        ("a@b@c", "=?utf-8?q?" + "=C3=A9" * 80 + "?="),
    ]
    mails = [
        (head.format(frm=frm, to=TO, subject=subject, n=n) + "\r\nSTATUS\r\n").encode(
            "utf-8", "surrogateescape"
        )
        for n, (frm, subject) in enumerate(odd_headers)
    ]
    mails.append(
        (
            head.format(frm=SEAT, to=TO, subject="latin", n=90)
            + "Content-Type: text/plain; charset=latin-1\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n"
        ).encode()
        + "place \xe9 1\r\n".encode("latin-1")
    )
    mails.append(
        (
            head.format(frm=SEAT, to=TO, subject="b64", n=91) + "MIME-Version: 1.0\r\n"
            'Content-Type: multipart/alternative; boundary="q"\r\n\r\n--q\r\n'
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            "U1RBVFVT\r\n--q\r\nContent-Type: text/html\r\n\r\n<p>STATUS</p>\r\n--q--\r\n"
        ).encode()
    )
    mails.append(
        (
            head.format(frm=SEAT, to=TO, subject="att", n=92) + "MIME-Version: 1.0\r\n"
            "Content-Type: multipart/mixed; boundary=z\r\n\r\n--z\r\nContent-Type: text/plain\r\n"
            "Content-Disposition: attachment; filename=a.txt\r\n\r\nNOT THIS\r\n--z\r\n"
            'Content-Type: text/html; charset="utf-8"\r\n\r\n<div>place x 1</div>\r\n--z--\r\n'
        ).encode()
    )
    mails.append(
        (
            head.format(frm=SEAT, to=TO, subject="auto", n=93) + "Auto-Submitted: auto-replied\r\n"
            "Precedence: bulk\r\nIn-Reply-To: <a@b>\r\nReferences: <r1@x> junk <r2@y>\r\n"
            "Cc: c1@example.org, =?utf-8?q?C=C3=A9?= <c2@example.org>\r\nContent-Type: multipart/report;"
            " report-type=delivery-status; boundary=r\r\n\r\n--r\r\n\r\nx\r\n--r--\r\n"
        ).encode()
    )
    mails.append(b"no headers at all, only text\r\n")
    mails.append(
        b'From: \xff\xfe\r\nTo: \x00\r\nContent-Type: text/plain; charset="\xff"\r\n\r\n\xff\xfe body\r\n'
    )
    mails.append(
        b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!notbase64\r\n"
    )
    for body, kwargs in [
        ("place cannaregio 1\nLATER vote: no", {}),
        ("STATUS", {"Cc": "x@example.org"}),
        ("\u00e9l\u00e8ve", {"subject": "=?utf-8?q?Caf=C3=A9?="}),
    ]:
        mails.append(bytes(message(body, to=TO, sender=SEAT, **kwargs)))
    return mails


def _hostile() -> list[bytes]:
    return [
        hostile._deep(TO, SEAT, 5, 1),
        hostile._deep(TO, SEAT, 60, 2),
        hostile._deep(TO, SEAT, 1000, 3),
        hostile._html(TO, SEAT, "<ul>" * 300 + "place x 1", 4),
        hostile._html(TO, SEAT, "<a b='" * 2000, 5),
        hostile._plain(TO, SEAT, "=E9=\r\nplace", 6, extra="\r\nBcc: evil@example.org"),
        hostile._plain(TO, SEAT, "x", 7, mid="<same@h.test>"),
        hostile._parts(TO, SEAT, 30, 8),
        hostile._parts(TO, SEAT, 600, 9),
        hostile._bounce(10, "<pbem-1-2-abc@pbem.test>"),
    ]


def _reference(monkeypatch: pytest.MonkeyPatch) -> Callable[..., ParsedMail]:
    """parse() as it was: policy.default, every header parsed at each read (the Message-ID too)."""

    def parse_default(*args: object, **kwargs: object) -> ParsedMail:
        with monkeypatch.context() as m:
            m.setattr(parse_mod, "POLICY", policy.default)
            m.setattr(parse_mod, "_parsed_message_id", parse_mod.message_id_of)  # its parser, always
            return parse(*args, **kwargs)  # type: ignore[arg-type]

    return parse_default


@pytest.mark.parametrize("raw", _crafted() + _hostile())
@pytest.mark.parametrize("trusted", [False, True])
def test_the_cached_headers_parse_every_mail_as_policy_default(
    raw: bytes, trusted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _reference(monkeypatch)(raw, "sender@client.test", trusted=trusted)
    assert parse(raw, "sender@client.test", trusted=trusted) == expected
    assert parse(raw, "sender@client.test", trusted=trusted) == expected  # from the cache this time
    assert parse(raw, "", trusted=trusted) == _reference(monkeypatch)(raw, "", trusted=trusted)


_IDS = ["<c1@h.test>", "<a.b-c+d=e_f{g}~'!#$%&*/?^`|@x.y.example>", "<a..b@h.test>", "<.a@h.test>",
        "<a.@h.test>", "<a@[10.0.0.1]>", '<"quoted local"@h.test>', "<a@h.test> (a comment)",
        "(comment) <a@h.test>", "<a@h.test> trailing", "<a@h.test> <b@h.test>", " <a@h.test>  ",
        "<a@h.test>\r\n  <b@h.test>", "<a b@h.test>", "<>", "", "no brackets@h.test", "<a@b@c>",
        "<\xe9t\xe9@h.test>", "<=?utf-8?q?x?=@h.test>", "<a\\b@h.test>", "<" + "x" * 890 + "@h.t>",
        "<" + "x" * 897 + "@h.t>", "<" + "x" * 2000 + "@h.test>", "<a@h.test", "a@h.test>"]


@pytest.mark.parametrize("mid", _IDS)
def test_a_plain_message_id_is_read_as_the_policy_parses_it(mid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = f"From: {SEAT}\r\nTo: {TO}\r\nMessage-ID: {mid}\r\nSubject: x\r\n\r\nSTATUS\r\n".encode(
        "utf-8", "surrogateescape")
    assert parse(raw).message_id == _reference(monkeypatch)(raw).message_id


def test_a_plain_message_id_does_not_go_through_the_header_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object) -> str:
        raise AssertionError("parsed")

    monkeypatch.setattr(parse_mod, "message_id_of", refused)
    assert parse(bytes(message("STATUS", to=TO, sender=SEAT, mid="<p-12.x@bench.test>"))).message_id == \
        "<p-12.x@bench.test>"


def test_the_cache_returns_the_same_header_and_skips_long_values() -> None:
    registry = CachedHeaders(maxsize=4, max_chars=10)
    short = registry("To", "a@b.c")
    assert registry("To", "a@b.c") is short and str(short) == "a@b.c"
    assert registry("To", "a@b.c, d@e.f") is not registry("To", "a@b.c, d@e.f")  # over max_chars
    assert str(registry("Subject", "=?utf-8?q?Caf=C3=A9?=")) == "Café"


def test_fuzzed_mails_parse_as_policy_default(monkeypatch: pytest.MonkeyPatch, tmp_path, sqlite_db) -> None:
    """Every mail of a short `pbem bench fuzz` corpus (hostile kinds included), at the intake's
    own call, parsed both ways."""
    pytest.importorskip("hypothesis")
    pytest.importorskip("adjudicator.games.doge")
    from adjudicator.bench.fuzz import fuzz_environment, run_fuzz
    from adjudicator.service.mail import mailprep

    for name, value in fuzz_environment(tmp_path).items():
        monkeypatch.setenv(name, value)
    reference, checked, differ = _reference(monkeypatch), [], []

    def both(raw: bytes, *args: object, **kwargs: object) -> ParsedMail:
        got = parse(raw, *args, **kwargs)  # type: ignore[arg-type]
        checked.append(raw)
        if got != reference(raw, *args, **kwargs):
            differ.append(raw[:200])
        return got

    monkeypatch.setattr(mailprep, "parse", both)  # the intake's parse (inbound._handle, the drain)
    report = run_fuzz(120, seed=16)
    assert report.crashes == [], report.lines()
    assert len(checked) > 60 and differ == []


@pytest.mark.parametrize("raw", _crafted() + _hostile())
def test_the_shared_header_block_reads_as_a_fresh_parse(raw: bytes) -> None:
    fresh = BytesHeaderParser(policy=policy.compat32).parsebytes(raw[: config.max_header_bytes()])
    first, again = headers_only(raw), headers_only(bytes(raw))  # the second from the cache
    assert (
        again is first
        and first.items() == fresh.items()
        and list(map(type, first.defects)) == list(map(type, fresh.defects))
    )
