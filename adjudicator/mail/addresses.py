"""Seat reply addresses: `game-<id>+<seat>-<token>@<domain>` by default (PBEM_MAIL_ADDRESS)."""

from __future__ import annotations

import re
from email.utils import getaddresses
from functools import lru_cache

from . import config

_FIELDS = {"game": r"(?P<game>[a-z0-9]{1,32})", "seat": r"(?P<seat>[a-z0-9_.-]{1,64}?)",
           "token": r"(?P<token>[a-z0-9]{8,64})", "domain": r"(?P<domain>[^@\s]+)"}


def reply_address(game_id: str, seat: str, token: str) -> str:
    return config.address_format().format(game=game_id, seat=seat, token=token, domain=config.domain())


def _pattern() -> re.Pattern[str]:
    return _compiled(config.address_format())


@lru_cache(maxsize=8)
def _compiled(fmt: str) -> re.Pattern[str]:
    out, pos = [], 0
    for m in re.finditer(r"\{(game|seat|token|domain)\}", fmt):
        out.append(re.escape(fmt[pos:m.start()]))
        out.append(_FIELDS[m.group(1)])
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    return re.compile("".join(out), re.IGNORECASE)


def parse_reply_address(addr: str) -> tuple[str, str, str] | None:
    """(game, seat, token) of a seat address on our domain, else None."""
    m = _pattern().fullmatch(addr.strip().lower())
    if m is None or m.group("domain") != config.domain().lower():
        return None
    return m.group("game"), m.group("seat"), m.group("token")


def seat_addresses(values: list[str]) -> list[tuple[str, str, str]]:
    """Every seat address among header values / envelope recipients, in order, without repeats."""
    return list(_seat_addresses(tuple(values), config.address_format(), config.domain()))


@lru_cache(maxsize=256)
def _seat_addresses(values: tuple[str, ...], _fmt: str, _domain: str) -> tuple[tuple[str, str, str], ...]:
    """Cached: one mail's recipients are read three times on its way (lock, speaker, notice);
    the settings are part of the key."""
    found: list[tuple[str, str, str]] = []
    for _name, addr in getaddresses(list(values)):
        parsed = parse_reply_address(addr)
        if parsed and parsed not in found:
            found.append(parsed)
    return tuple(found)


@lru_cache(maxsize=256)  # a mail's From is read twice on its way (token check, speaker); senders repeat
def plain(addr: str) -> str:
    """The bare, lower-cased address of a From value ("" if there is none)."""
    pairs = getaddresses([addr])
    return pairs[0][1].strip().lower() if pairs and "@" in pairs[0][1] else ""
