"""`pbem bench fuzz --mails N`: a fuzz corpus of hostile mails through the real intake.

Hypothesis generates each mail: raw bytes, random headers, random MIME trees, and the crafted
kinds of `pbem bench hostile` with random sizes (deep MIME, huge HTML, bad charsets, header
injection, forged bounces, replayed Message-IDs with new content, mails to two seats, seat
addresses with bad tokens, oversized mails) next to mails with a valid seat address and orders
the game can take, so real games move on (a finished game is replaced by a new one). Each mail is
stored and processed by the service exactly as the SMTP listener does.

Every mail must end in exactly one reply or one logged drop: a reply is one new `reply` outbox
row and a `done` inbox row; a drop is a `dropped` row with its reason (and the warning the intake
logs), or a repeated Message-ID that `receive` logs and does not store. Prints `fuzz name: value`
lines: mails run, crashes (exceptions escaping, or caught as an internal error), stuck rows
(inbox rows left `new`), the slowest and 99th-percentile seconds per mail, replies and drops, and
mails that ended in neither or both. Exit status 1 on any crash, stuck row or unaccounted mail.
Needs Hypothesis (`pip install pbem[test]`).
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.mail import config

from . import install_hint, missing_extra
from .hostile import _bounce, _deep, _html, _parts, _plain

DOMAIN = "bench.test"  # the mail domain `pbem bench fuzz` sets (a test may set another)


@dataclass
class FuzzReport:
    mails: int = 0
    crashes: list[str] = field(default_factory=list)  # "kind: what escaped or was caught"
    stuck: int = 0
    replies: int = 0
    drops: int = 0
    duplicates: int = 0  # drops of a repeated Message-ID (logged by `receive`, not stored)
    unaccounted: list[str] = field(default_factory=list)  # neither one reply nor one logged drop
    seconds: list[float] = field(default_factory=list)
    slowest: dict[str, float] = field(default_factory=dict)  # kind -> its slowest mail
    kinds: Counter[str] = field(default_factory=Counter)
    games: int = 0  # games the valid orders played (a finished one is replaced)
    generator_stops: list[str] = field(default_factory=list)  # Hypothesis runs that ended early

    def percentile(self, q: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    def lines(self) -> list[str]:
        return [
            f"fuzz mails: {self.mails} run ({len(self.kinds)} kinds, {self.games} games played)",
            f"fuzz crashes: {len(self.crashes)}",
            f"fuzz stuck: {self.stuck} inbox rows left new",
            f"fuzz seconds per mail: max {max(self.seconds, default=0):.3f}, p99 {self.percentile(0.99):.3f}, "
            f"median {self.percentile(0.5):.4f}",
            f"fuzz replies: {self.replies}",
            f"fuzz logged drops: {self.drops} (of which {self.duplicates} repeated Message-IDs)",
            f"fuzz unaccounted: {len(self.unaccounted)} mails with neither or more than one reply or drop",
            *(f"fuzz kind {k}: {n} mails, slowest {self.slowest.get(k, 0):.3f} s"
              for k, n in sorted(self.kinds.items())),
            *(f"fuzz crash: {c}" for c in self.crashes[:10]),
            *(f"fuzz generator stopped early: {g}" for g in self.generator_stops[:10]),
            *(f"fuzz unaccounted: {u}" for u in self.unaccounted[:10]),
        ]

    @property
    def ok(self) -> bool:
        return not (self.crashes or self.stuck or self.unaccounted) and self.replies + self.drops == self.mails


class _LogCounter(logging.Handler):
    """Counts the intake's log records: a drop must be logged."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


# ---------------------------------------------------------------------------- the games mailed to


class Targets:
    """A running Doge game, its seats' addresses and credentials; a new game when one ends."""

    def __init__(self) -> None:
        self.games = 0
        self.serial = 0
        self.message_ids: list[str] = []
        self._new_game()

    def _new_game(self) -> None:
        from adjudicator import service, store

        with store.transaction() as s:
            created = service.create_game(s, game="doge", seats=3, title=f"Fuzz {self.games}\r\nBcc: x@y")
        self.tokens: dict[str, str] = {}
        for i, (seat, invite) in enumerate(created.invites.items()):
            with store.transaction() as s:
                service.common.verified.verify_address(s, f"{seat}@{config.domain()}")  # a confirmed player's
                joined = service.join_game(s, created.game_id, seat, invite, f"P{i}\r\nCc: z@y",
                                           email=f"{seat}@{config.domain()}")
            self.tokens[seat] = joined.seat_token
        self.game_id = created.game_id
        self.games += 1
        self.refresh()

    def refresh(self) -> None:
        """Addresses, passwords and the open decisions' order texts, read from the store."""
        from adjudicator import store
        from adjudicator.service.common.core import current_prompts, find_game, module_of, seats_of
        from adjudicator.service.common.tokens import signon_password
        from adjudicator.service.play.notify import reply_address

        with store.transaction(write=False) as s:
            g = find_game(s, self.game_id)
            if g.status == "finished":
                finished = True
            else:
                finished = False
                rows = seats_of(s, g)
                self.addresses = {r.seat: reply_address(g, r) for r in rows}
                self.passwords = {r.seat: signon_password(r.seat_token_hash or "-", g.public_id, r.seat) for r in rows}
                game = module_of(g)
                self.orders = {seat: [game.format_order(c) for c in list(p.choices)[:40]]
                               for seat, p in current_prompts(g).items()}
        if finished:
            self._new_game()

    @property
    def seats(self) -> list[str]:
        return sorted(self.addresses)


# ---------------------------------------------------------------------------- mail strategies


def strategies(t: Targets) -> dict[str, Callable[[Any], tuple[bytes, list[str], str]]]:
    """Mail kinds: each draws (raw message, envelope recipients, envelope sender)."""
    from hypothesis import strategies as st

    # Every draw has the same shape whatever the games hold (Hypothesis replays a draw sequence and
    # refuses strategies that depend on outside state): lists that change are indexed by a number.
    index = st.integers(0, 1 << 20)

    def pick(draw: Any, items: list[str], default: str = "STATUS") -> str:
        number = draw(index)
        return items[number % len(items)] if items else default

    def picks(draw: Any, items: list[str], default: str, most: int = 3) -> list[str]:
        return [items[n % len(items)] if items else default for n in draw(st.lists(index, min_size=1, max_size=most))]

    seat = st.sampled_from(sorted(t.tokens))
    domain = config.domain()
    junk = st.text(alphabet=st.characters(codec="utf-8"), max_size=200)
    line = st.one_of(junk.map(lambda x: x.replace("\r", " ").replace("\n", " ")),
                     st.sampled_from(["STATUS", "HELP", "LOG", "STANDING", "STANDING CLEAR", "LATER pass",
                                      "ALWAYS take: take dorsoduro", "PRESS TO all", "PRESS TO blue", "END PRESS",
                                      "SIGNON", "pass", "abstain", "-- ", "> quoted", "bid 2", "place zz 9 9"]))
    header_name = st.one_of(st.sampled_from(["To", "From", "Cc", "Subject", "Message-ID", "Content-Type",
                                             "Content-Transfer-Encoding", "In-Reply-To", "References",
                                             "Auto-Submitted", "Return-Path", "Delivered-To", "X-Original-To",
                                             "Precedence", "List-Id", "MIME-Version", "Reply-To", "Sender"]),
                            st.from_regex(r"\A[!-9;-~]{1,30}\Z"))
    header_value = st.one_of(junk, st.sampled_from(["", "=?utf-8?q?a=0D=0ABcc:_x@y?=", "=?x-bogus?b?////?=",
                                                   "multipart/mixed; boundary=", 'text/html; charset="utf-16"',
                                                   "<>", "\r\n\tBcc: x@y", "auto-replied"]))

    def recipient(draw: Any) -> str:
        who = draw(seat)
        return draw(st.sampled_from([
            t.addresses[who], _bad_token(t.addresses[who], draw(st.integers(0, 30))), f"pbem@{domain}",
            f"game-{t.game_id}+{who}@{domain}", f"game-gzzzzzz+{who}-{'A' * 24}@{domain}",
            "someone@elsewhere.test", f"bounce-1-{'0' * 16}@{domain}", "", "<<>>", "a@b@c"]))

    def sender(draw: Any) -> str:
        return draw(st.sampled_from([f"{draw(seat)}@{domain}", "stranger@evil.test", "MAILER-DAEMON@mx.test",
                                     "", '"Eve\r\nBcc: x@y" <eve@evil.test>', "not an address"]))

    def mid(draw: Any) -> str:
        replay, old, number = draw(st.integers(0, 9)), pick(draw, t.message_ids[-50:], ""), draw(st.integers(0, 10**9))
        if replay == 7 and old:  # a replayed Message-ID (not 0: Hypothesis draws its smallest value often)
            return old
        made = f"<fz{len(t.message_ids)}.{number}@client.test>"
        t.message_ids.append(made)
        return made

    def head(draw: Any, to: str, frm: str, extra: str = "") -> str:
        return f"From: {frm}\r\nTo: {to}\r\nSubject: fuzz\r\nMessage-ID: {mid(draw)}\r\nMIME-Version: 1.0\r\n{extra}"

    def serial() -> str:
        """A header that keeps generated mails apart: Hypothesis draws the same small examples
        again and again, and equal bytes would only test the duplicate check."""
        t.serial += 1
        return f"X-Fuzz-Serial: {t.serial}"

    def raw_bytes(draw: Any) -> tuple[bytes, list[str], str]:
        prefix = f"To: {recipient(draw)}\r\n".encode() if draw(st.booleans()) else b""
        prefix = f"{serial()}\r\n".encode() + prefix if draw(st.integers(0, 3)) else prefix
        return prefix + draw(st.binary(max_size=3000)), [], draw(st.sampled_from(["", "x@client.test"]))

    def random_headers(draw: Any) -> tuple[bytes, list[str], str]:
        lines = [f"{draw(header_name)}: {draw(header_value)}" for _ in range(draw(st.integers(0, 12)))]
        lines.insert(draw(st.integers(0, len(lines))), f"To: {recipient(draw)}")
        lines.insert(draw(st.integers(0, len(lines))), serial())
        sep = draw(st.sampled_from(["\r\n", "\n", "\r"]))
        body = sep.join(draw(st.lists(line, max_size=12)))
        raw = (sep.join(lines) + sep + sep + body).encode("utf-8", "surrogateescape")
        return raw, [recipient(draw) for _ in range(draw(st.integers(0, 2)))], "x@client.test"

    def mime_tree(draw: Any) -> tuple[bytes, list[str], str]:
        leaf = st.tuples(st.sampled_from(["text/plain", "text/html", "application/octet-stream", "message/rfc822",
                                          "text/plain; charset=x-bogus", "text/plain; charset=utf-7", "image/png",
                                          "text/enriched", ""]),
                         st.sampled_from(["", "base64", "quoted-printable", "8bit", "x-uuencode", "bogus"]),
                         st.lists(line, max_size=6).map("\r\n".join))
        tree = st.recursive(leaf, lambda kids: st.tuples(
            st.sampled_from(["multipart/mixed", "multipart/alternative", "multipart/related", "multipart/x-weird",
                             "multipart/report; report-type=delivery-status"]), st.just("multi"),
            st.lists(kids, max_size=5)), max_leaves=25)
        body = _render_part(draw(tree), [0])
        raw = (head(draw, recipient(draw), sender(draw)) + body).encode("utf-8", "surrogateescape")
        return raw, [], "x@client.test"

    def deep(draw: Any) -> tuple[bytes, list[str], str]:
        n = len(t.message_ids)
        t.message_ids.append(f"<deep-{n}@h.test>")
        to, frm = draw(st.sampled_from([(t.addresses[t.seats[0]], f"{t.seats[0]}@{domain}"),
                                        (f"pbem@{domain}", "stranger@evil.test")]))
        return _deep(to, frm, draw(st.integers(15, 1500)), n), [], "x@client.test"

    def huge_html(draw: Any) -> tuple[bytes, list[str], str]:
        unit = draw(st.sampled_from(["<ul><li>x", "<a", "<div>", "<table><tr><td>x", "&#", "<!--", "<p>bid 2 "]))
        size = draw(st.sampled_from([2_000, 40_000, 150_000, 300_000, 450_000]))
        to, frm = draw(st.sampled_from([(t.addresses[t.seats[0]], f"{t.seats[0]}@{domain}"),
                                        (f"pbem@{domain}", "stranger@evil.test")]))
        n = len(t.message_ids) + 40_000
        t.message_ids.append(f"<html-{n}@h.test>")
        return _html(to, frm, unit * (size // len(unit)), n), [], "x@client.test"

    def bad_charset(draw: Any) -> tuple[bytes, list[str], str]:
        charset = draw(st.sampled_from(["x-bogus-42", "utf-7", "utf-16", "", "\u263a", "iso-2022-jp", "unknown-8bit",
                                        "us-ascii", "cp1252", "utf-32-le"]))
        cte = draw(st.sampled_from(["base64", "quoted-printable", "x-uuencode", "8bit", "7bit", "binary", "bogus"]))
        who = draw(seat)
        text = draw(st.binary(max_size=600))
        raw = (head(draw, t.addresses[who], f"{who}@{domain}", f"Content-Type: text/plain; charset=\"{charset}\"\r\n"
                    f"Content-Transfer-Encoding: {cte}\r\n\r\n")).encode("utf-8", "surrogateescape") + text
        return raw, [], "x@client.test"

    def header_injection(draw: Any) -> tuple[bytes, list[str], str]:
        evil = draw(st.sampled_from(["\r\nBcc: victim@x.test", "\n\tBcc: x@y", "\rTo: x@y", "\x00Bcc: x",
                                     "=?utf-8?q?hi=0D=0ABcc:_v@x.test?=", "x" * 5000]))
        who = draw(seat)
        return _plain(t.addresses[who], f"{who}@{domain}", draw(line), len(t.message_ids) + 60_000,
                      mid=mid(draw), extra=evil), [], "x@client.test"

    def forged_bounce(draw: Any) -> tuple[bytes, list[str], str]:
        n = len(t.message_ids) + 80_000
        t.message_ids.append(f"<bounce-{n}@mx.test>")
        guess = draw(st.sampled_from([f"<pbem-{draw(st.integers(0, 500))}-1700000000@{domain}>",
                                      f"<pbem-1-1-{'f' * 16}@{domain}>", "<x@y>", ""]))
        raw = _bounce(n, guess)
        env_to = draw(st.sampled_from([[], [f"bounce-{draw(st.integers(0, 500))}-{'0' * 16}@{domain}"]]))
        return raw, env_to, draw(st.sampled_from(["", "MAILER-DAEMON@mx.test"]))

    def replayed(draw: Any) -> tuple[bytes, list[str], str]:
        who = draw(seat)
        reuse = pick(draw, t.message_ids, "<first@client.test>")
        body = "\r\n".join(picks(draw, t.orders.get(who, []), "STATUS"))
        return _plain(t.addresses[who], f"{who}@{domain}", body, 0, mid=reuse), [], "x@client.test"

    def two_seats(draw: Any) -> tuple[bytes, list[str], str]:
        a, b = draw(st.permutations(t.seats))[:2]
        body = "\r\n".join(picks(draw, [*t.orders.get(a, []), "STATUS"], "STATUS"))
        raw = head(draw, f"{t.addresses[a]}, {t.addresses[b]}", f"{a}@{domain}",
                   f"Cc: {t.addresses[b]}\r\nContent-Type: text/plain\r\n\r\n") + body
        return raw.encode(), [t.addresses[b]] if draw(st.booleans()) else [], "x@client.test"

    def bad_token(draw: Any) -> tuple[bytes, list[str], str]:
        who = draw(seat)
        to = _bad_token(t.addresses[who], draw(st.integers(0, 30)))
        body = "\r\n".join(picks(draw, t.orders.get(who, []), "pass"))
        frm = draw(st.sampled_from([f"{who}@{domain}", "stranger@evil.test"]))
        return (head(draw, to, frm, "Content-Type: text/plain\r\n\r\n") + body).encode(), [], "x@client.test"

    def valid_orders(draw: Any) -> tuple[bytes, list[str], str]:
        """A seat's own mail: its open decision's orders (the game moves on), commands, press."""
        who = pick(draw, sorted(t.orders), t.seats[0])
        lines = picks(draw, t.orders.get(who, []), "STATUS", most=3) + draw(st.lists(line, max_size=2))
        frm = draw(st.sampled_from([f"{who}@{domain}", f"{who}@{domain}", "stranger@evil.test"]))
        return (head(draw, t.addresses[who], frm, "Content-Type: text/plain; charset=utf-8\r\n\r\n")
                + "\r\n".join(lines)).encode("utf-8", "surrogateescape"), [], f"{who}@{domain}"

    def signon(draw: Any) -> tuple[bytes, list[str], str]:
        who = draw(seat)
        password = draw(st.sampled_from([t.passwords[who], t.passwords[who][::-1], "", "x" * 40]))
        body = f"SIGNON {t.game_id} {who} {password}\r\n" + "\r\n".join(draw(st.lists(line, max_size=3)))
        frm = draw(st.sampled_from([f"{who}@{domain}", "stranger@evil.test"]))
        return (head(draw, f"pbem@{domain}", frm, "Content-Type: text/plain\r\n\r\n") + body).encode(
            "utf-8", "surrogateescape"), [], "x@client.test"

    def oversized(draw: Any) -> tuple[bytes, list[str], str]:
        who = draw(seat)
        n = len(t.message_ids) + 90_000
        t.message_ids.append(f"<parts-{n}@h.test>")
        frm = draw(st.sampled_from([f"{who}@{domain}", "stranger@evil.test"]))
        if draw(st.booleans()):
            return _parts(t.addresses[who], frm, draw(st.integers(45, 700)), n), [], "x@client.test"
        big = "A" * draw(st.sampled_from([520_000, 700_000]))
        return (head(draw, t.addresses[who], frm, "Content-Type: text/plain\r\n\r\n") + big).encode(), [], ""

    made = {
        "raw bytes": raw_bytes, "random headers": random_headers, "random MIME tree": mime_tree,
        "deep MIME": deep, "huge HTML": huge_html, "bad charset": bad_charset, "header injection": header_injection,
        "forged bounce": forged_bounce, "replayed Message-ID": replayed, "two seats": two_seats,
        "bad token": bad_token, "valid seat orders": valid_orders, "SIGNON": signon, "oversized": oversized,
    }
    return {name: made[name] for name in KINDS}


KINDS = ("raw bytes", "random headers", "random MIME tree", "deep MIME", "huge HTML", "bad charset",
         "header injection", "forged bounce", "replayed Message-ID", "two seats", "bad token",
         "valid seat orders", "SIGNON", "oversized")
# Cheap kinds are drawn more often than the costly ones (each of those takes 0.1-1 s).
WEIGHTS = {"deep MIME": 1, "huge HTML": 1, "oversized": 1}


def _bad_token(address: str, at: int) -> str:
    local, _, domain = address.partition("@")
    at = len(local) - 1 - at % 8
    flipped = "B" if local[at] != "B" else "C"
    return f"{local[:at]}{flipped}{local[at + 1:]}@{domain}"


def _render_part(part: tuple[str, str, Any], counter: list[int]) -> str:
    ctype, cte, content = part
    if cte != "multi":
        headers = (f"Content-Type: {ctype}\r\n" if ctype else "") + (
            f"Content-Transfer-Encoding: {cte}\r\n" if cte else "")
        return f"{headers}\r\n{content}\r\n"
    counter[0] += 1
    boundary = f"b{counter[0]}"
    inner = "".join(f"--{boundary}\r\n{_render_part(kid, counter)}" for kid in content)
    return f'Content-Type: {ctype}; boundary="{boundary}"\r\n\r\n{inner}--{boundary}--\r\n'


# ---------------------------------------------------------------------------- running


def run_fuzz(mails: int, seed: int = 0, only: list[str] | None = None) -> FuzzReport:
    """Send `mails` generated mails through the intake of the configured store (`only`: these
    kinds alone)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st
    from hypothesis.errors import FlakyStrategyDefinition
    from sqlmodel import func, select

    from adjudicator import service, store
    from adjudicator.store import InboxMessage, OutboxMessage

    report = FuzzReport()
    targets = Targets()
    kinds = {name: make for name, make in strategies(targets).items() if not only or name in only}
    total = sum(WEIGHTS.get(name, 6) for name in kinds)
    quotas = {name: max(1, mails * WEIGHTS.get(name, 6) // total) for name in kinds}
    quotas[next(iter(quotas)) if only else "valid seat orders"] += mails - sum(quotas.values())  # the rest plays
    logs = _LogCounter()
    intake_log = logging.getLogger("adjudicator.service")
    intake_log.addHandler(logs)
    level = intake_log.level
    intake_log.setLevel(logging.INFO)

    def replies() -> int:
        with store.transaction(write=False) as s:
            return s.exec(select(func.count(OutboxMessage.id)).where(OutboxMessage.kind == "reply")).one()

    def one(kind: str, raw: bytes, envelope_to: list[str], envelope_from: str) -> None:
        report.mails += 1
        report.kinds[kind] += 1
        before, logged = replies(), len(logs.records)
        ids: list[int] = []
        t0 = time.perf_counter()
        try:
            with store.transaction() as s:
                tasks = service.receive_mail(s, raw, "smtp", envelope_from, envelope_to, "127.0.0.1")
            for _task, inbox_id in tasks:
                with store.transaction() as s:
                    service.process_mail(s, inbox_id)
                ids.append(inbox_id)
        except Exception as exc:  # noqa: BLE001 - an exception escaping the intake is what we count
            report.crashes.append(f"{kind}: {type(exc).__name__}: {exc}"[:300])
            return
        finally:
            report.seconds.append(time.perf_counter() - t0)
            report.slowest[kind] = max(report.slowest.get(kind, 0.0), report.seconds[-1])
        made = replies() - before
        if not ids:  # a repeated Message-ID: receive logs it and stores nothing
            if made == 0 and len(logs.records) > logged:
                report.drops += 1
                report.duplicates += 1
            else:
                report.unaccounted.append(f"{kind}: not stored, {made} replies, nothing logged")
            return
        with store.transaction(write=False) as s:
            rows = s.exec(select(InboxMessage).where(InboxMessage.id.in_(ids))).all()  # type: ignore[attr-defined]
        for row in rows:
            if row.status == "new":
                report.stuck += 1
            elif row.outcome.startswith("internal error"):
                report.crashes.append(f"{kind}: {row.outcome}")
        statuses = [r.status for r in rows]
        if statuses == ["done"] and made == 1:
            report.replies += 1
        elif statuses == ["dropped"] and made == 0 and rows[0].outcome and len(logs.records) > logged:
            report.drops += 1
        else:
            outcome = rows[0].outcome if rows else ""
            report.unaccounted.append(f"{kind}: rows {statuses}, {made} replies, outcome {outcome!r}")

    def fuzz(kind: str, quota: int) -> None:
        """One kind, `quota` mails (each kind its own Hypothesis run, so each gets its share)."""

        @hypothesis_seed(seed)
        @settings(max_examples=quota, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def send(data: Any) -> None:  # no early return: every call must draw alike (see `strategies`)
            raw, envelope_to, envelope_from = kinds[kind](data.draw)
            one(kind, raw, envelope_to, envelope_from)
            targets.refresh()  # the orders the next mail may carry (and a new game when this one ended)

        while report.kinds[kind] < quota:  # Hypothesis may stop a run early; run until the quota is sent
            sent = report.kinds[kind]
            try:
                send()
            except FlakyStrategyDefinition as exc:  # a generator's fault, not the intake's: go on
                report.generator_stops.append(f"{kind}: {str(exc).splitlines()[0]}")
            if report.kinds[kind] == sent:
                break

    try:
        for kind, quota in quotas.items():
            fuzz(kind, quota)
        with store.transaction(write=False) as s:
            report.stuck = len(s.exec(select(InboxMessage.id).where(InboxMessage.status == "new")).all())
    finally:
        intake_log.removeHandler(logs)
        intake_log.setLevel(level)
    report.games = targets.games
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mails", type=int, default=10_000, help="how many mails to generate and send")
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis seed (the same seed, the same corpus)")
    parser.add_argument("--kind", action="append", choices=KINDS, help="only this kind (repeatable)")
    args = parser.parse_args(argv)
    if missing := missing_extra():
        print(install_hint("pbem bench fuzz", missing))
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-fuzz-"))
    os.environ.update(fuzz_environment(tmp))
    os.environ.pop("SMTP_HOST", None)
    from adjudicator import store

    store.configure(f"sqlite:///{tmp / 'fuzz.sqlite'}")
    store.init_db()
    report = run_fuzz(args.mails, args.seed, args.kind)
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def fuzz_environment(tmp: Path) -> dict[str, str]:
    """Mail written to files, no DNS, and reply limits high enough that every mail is read to the
    end (the limits themselves are tested in tests/mail)."""
    return {"PBEM_EAGER": "1", "PBEM_MAIL_DIR": str(tmp / "mail"), "PBEM_MAIL_DNS": "0",
            "PBEM_MAIL_DOMAIN": DOMAIN, "PBEM_MAIL_REPLIES_PER_HOUR": "1000000",
            "PBEM_MAIL_HELP_PER_HOUR": "1000000"}
