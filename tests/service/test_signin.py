"""Sign-in links: signed, expiring, single use, bounded; asking answers the same for every address."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.people import signin
from adjudicator.store import OutboxMessage, PlayerAccount


def _ask(address: str, now=None) -> list:
    with store.transaction() as s:
        return service.request_sign_in(s, address, now=now)


def _mailed_links(address: str) -> list[str]:
    with store.transaction(write=False) as s:
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.to == address, OutboxMessage.kind == "signin")
                      .order_by(OutboxMessage.id)).all()
    return [re.search(r"/signin/([^>\s]+)>", r.body).group(1) for r in rows]


def _redeem(token: str, now=None) -> str:
    with store.transaction() as s:
        return service.redeem_sign_in(s, token, now=now)


def _refusal(token: str, now=None) -> str:
    with pytest.raises(service.SignInRefused) as refused:
        _redeem(token, now)
    return refused.value.reason


def test_a_link_signs_in_once_and_verifies_the_address(db):
    tasks = _ask("  Ann@Example.ORG ")
    assert len(tasks) == 1 and tasks[0][0] == "deliver"
    (token,) = _mailed_links("ann@example.org")
    with store.transaction(write=False) as s:
        service.check_sign_in(s, token)  # looking does not use it
        assert s.exec(select(PlayerAccount)).all() == []
    assert _redeem(token) == "ann@example.org"
    with store.transaction(write=False) as s:
        assert [a.email for a in s.exec(select(PlayerAccount))] == ["ann@example.org"]
    assert _refusal(token) == "used"


def test_expired_and_tampered_links_are_refused(db):
    _ask("bob@example.org")
    (token,) = _mailed_links("bob@example.org")
    later = service.utcnow() + timedelta(seconds=signin.LINK_SECONDS + 1)
    assert _refusal(token, now=later) == "expired"
    nonce_part, signature = token.rsplit(".", 1)
    # the first character (the last one's low bits are base64 padding: changing them may change nothing)
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    assert _refusal(f"{nonce_part}.{flipped}") == "invalid"
    assert _refusal(token[:-3]) == "invalid"
    assert _refusal("not-a-link") == "invalid"
    # a link signed with another server's key is refused too
    other = signin.URLSafeTimedSerializer("another key", salt="pbem-sign-in").dumps("made-up")
    assert _refusal(other) == "invalid"
    assert _redeem(token) == "bob@example.org"  # none of that used the real link up


def test_requests_are_bounded_per_address_and_answer_the_same(db):
    answers = [_ask("carl@example.org") for _ in range(signin.LINKS_PER_ADDRESS_HOUR + 2)]
    assert [len(a) for a in answers] == [1] * signin.LINKS_PER_ADDRESS_HOUR + [0, 0]
    assert len(_mailed_links("carl@example.org")) == signin.LINKS_PER_ADDRESS_HOUR
    # an hour later the address may ask again
    assert len(_ask("carl@example.org", now=service.utcnow() + timedelta(hours=1, minutes=1))) == 1
    # rows of links a day old are dropped (the signature's age refuses those links anyway)
    _ask("dan@example.org", now=service.utcnow() + timedelta(days=2))
    with store.transaction(write=False) as s:
        assert [r.email for r in s.exec(select(signin.SignInLink))] == ["dan@example.org"]


def test_the_server_wide_bound_holds_back_only_addresses_that_asked_already(db, monkeypatch):
    monkeypatch.setattr(signin, "LINKS_PER_SERVER_HOUR", 2)
    assert [len(_ask(f"p{n}@example.org")) for n in range(4)] == [1, 1, 1, 1]  # first requests: all mailed
    assert len(_ask("p0@example.org")) == 0  # a second request past the bound: nothing
    assert len(_ask("p9@example.org")) == 1  # a new address still gets its link


def test_a_flood_from_many_networks_does_not_stop_a_players_link(db):
    """Issue 26: 330 requests from 11 client addresses used up the server-wide bound and a real
    player then got no mail. Each network gets its own bound; the server-wide one never refuses
    an address asking for the first time in the hour."""
    def ask(address: str, client: str) -> int:
        with store.transaction() as s:
            return len(service.request_sign_in(s, address, client=client))

    per_network = signin.LINKS_PER_CLIENT_HOUR
    assert per_network * 11 >= signin.LINKS_PER_SERVER_HOUR  # the flood does fill the server-wide count
    mailed = sum(ask(f"victim{net}-{n}@example.org", f"198.51.{net}.{n % 250 + 1}")
                 for net in range(11) for n in range(per_network))
    assert mailed == 11 * per_network == 330
    assert ask("one-more@example.org", "198.51.3.77") == 0  # a flooding network is held back
    assert ask("player@example.org", "192.0.2.10") == 1  # a real player's first request: mailed
    assert len(_mailed_links("player@example.org")) == 1
    assert ask("victim0-0@example.org", "192.0.2.11") == 0  # a repeat past the server-wide bound: not


@pytest.mark.parametrize("address", ["", "ann", "ann@", "a b@example.org", "ann@example", "x" * 400 + "@e.org",
                                     "ann@example.org\nBcc: eve@example.org"])
def test_a_malformed_address_is_refused_with_what_to_type(db, address):
    with pytest.raises(service.ServiceError, match="is not an e-mail address"):
        _ask(address)


def test_the_per_client_bound(db, monkeypatch):
    """One client network asking links for many addresses is held back (an IPv4 /24 and an IPv6
    /56 count as one); other networks and the other bounds go on; the address is not stored."""
    monkeypatch.setattr(signin, "LINKS_PER_CLIENT_HOUR", 2)

    def ask(address: str, client: str) -> int:
        with store.transaction() as s:
            return len(service.request_sign_in(s, address, client=client))

    assert [ask(f"p{n}@example.org", f"203.0.113.{n + 9}") for n in range(3)] == [1, 1, 0]  # one /24
    assert ask("p3@example.org", "203.0.114.10") == 1
    assert [ask(f"q{n}@example.org", f"2001:db8:1:{n + 2}::1") for n in range(3)] == [1, 1, 0]  # one /56
    assert ask("q3@example.org", "2001:db8:1:100::1") == 1  # another /56
    assert [ask(f"r{n}@example.org", "") for n in range(3)] == [1, 1, 1]  # no client known (not the web)
    with store.transaction(write=False) as s:
        nonces = [r.nonce for r in s.exec(select(signin.SignInLink))]
    assert not any("203.0.113" in n or "2001" in n for n in nonces)
    assert signin.client_tag("203.0.113.9") == signin.client_tag("203.0.113.10") != signin.client_tag("203.0.114.9")
    assert signin.client_tag("junk") == ""


def test_a_link_pressed_in_ten_browsers_at_once_signs_in_one(pg_db, monkeypatch):
    """Issue 26: on PostgreSQL 8 of 10 simultaneous presses of one link signed in. Every request
    here reads the unused row before any of them writes; exactly one may use it."""
    import threading

    _ask("eve@example.org")
    (token,) = _mailed_links("eve@example.org")
    read_all = threading.Barrier(10, timeout=30)
    link_row = signin._link_row

    def read_then_wait(s, token, now):
        row = link_row(s, token, now)
        read_all.wait()  # all ten have seen the link unused
        return row

    monkeypatch.setattr(signin, "_link_row", read_then_wait)
    outcomes: list[str] = []

    def press() -> None:
        try:
            outcomes.append(_redeem(token))
        except service.SignInRefused as refused:
            outcomes.append(refused.reason)

    threads = [threading.Thread(target=press) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["eve@example.org"] + ["used"] * 9
    with store.transaction(write=False) as s:
        assert [a.email for a in s.exec(select(PlayerAccount))] == ["eve@example.org"]
