"""Secrets: generated with `secrets`, stored only as sha256, compared in constant time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from adjudicator.engine import sha256_hex

from .serverkey import server_key

ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o/1/l/i: ids are read aloud and typed


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_salt() -> str:
    return secrets.token_hex(16)


def new_public_id() -> str:
    return "g" + "".join(secrets.choice(ID_ALPHABET) for _ in range(6))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(stored_hash: str | None, given: str | None) -> bool:
    if not stored_hash or not given:
        return False
    return hmac.compare_digest(stored_hash, hash_token(given))


def prompt_token(game_id: str, record_length: int, seat: str, prompt: dict[str, Any] | None) -> str:
    """Names exactly one decision: it changes whenever the record grows or the prompt changes, so
    an order made against an old page is refused, and the same order cannot be applied twice.
    (A sealed prompt keeps its token until the reveal, which is what lets a seat replace it.)"""
    return sha256_hex({"game": game_id, "length": record_length, "seat": seat, "prompt": prompt})[:32]


# ---------------------------------------------------------------------------- e-mail credentials
# A seat's reply-address token and SIGNON password are derived (HMAC under the server's key) from
# the seat's stored token hash, so nothing new or reversible is stored, a database copy alone
# cannot forge them, every mail can carry the address, and replacing the player (a new seat token)
# changes both at once: the old ones stop working.


@dataclass(frozen=True)
class MailKey:
    """A seat credential from a mail: kind "reply" (address token), "signon" (password) or "press"
    (the address of a press mail's Reply-To: a reply to it is press to `press_to`)."""

    kind: str
    value: str
    press_to: str = ""
    # the record length when the mail answered was written (its reply address says so): orders in
    # a mail answer the decision open then, never a later one (decisions.py). None: not known
    asked_at: int | None = None


def _derive(seat_token_hash: str, label: str, game_id: str, seat: str, length: int) -> str:
    return _derived(server_key(), seat_token_hash, label, game_id, seat, length)


@lru_cache(maxsize=4096)  # a deadline's mail writes each seat's reply address twice (body, Reply-To)
def _derived(key: str, seat_token_hash: str, label: str, game_id: str, seat: str, length: int) -> str:
    digest = hmac.new(f"{key}|{seat_token_hash}".encode(), f"{label}|{game_id}|{seat}".encode(),
                      hashlib.sha256).digest()
    return b32_prefix(digest, length)


def b32_prefix(digest: bytes, length: int) -> str:
    """`base64.b32encode(digest).decode().lower()[:length]`, encoding only the bytes those
    characters need (each 5 bytes become 8 characters on their own): `b32encode` is pure Python,
    and the whole digest was most of a delivered reply's Message-ID tag."""
    return base64.b32encode(digest[: (length + 7) // 8 * 5]).decode().lower()[:length]


MAIL_TOKEN_LENGTH = 20
DECISION_TAG = re.compile(r"d(\d{1,9})")


def mail_token(seat_token_hash: str, game_id: str, seat: str) -> str:
    return _derive(seat_token_hash, "reply", game_id, seat, MAIL_TOKEN_LENGTH)  # 100 bits


def tagged_token(token: str, asked_at: int | None) -> str:
    """A reply token followed by the decision its mail asks about (`d` and the record length when
    the mail was written): answering that mail answers that decision only."""
    return token if asked_at is None else f"{token}d{asked_at}"


def split_token(token: str) -> tuple[str, int | None]:
    """(the secret token, the decision tag or None) of an address's token part; a tag that does not
    read is ignored (the token alone decides who speaks)."""
    secret, tail = token[:MAIL_TOKEN_LENGTH], token[MAIL_TOKEN_LENGTH:]
    match = DECISION_TAG.fullmatch(tail.lower())
    return (secret, int(match.group(1))) if match else (token if not tail else secret, None)


def signon_password(seat_token_hash: str, game_id: str, seat: str) -> str:
    return _derive(seat_token_hash, "signon", game_id, seat, 12)  # 60 bits, typed by hand


def home_seat_token(seat_token_hash: str, game_id: str, seat: str) -> str:
    """The seat link a signed-in player's home shows: a second seat token, derived like the mail
    credentials (the seat token itself is stored only as a hash), replaced with the player."""
    return _derive(seat_token_hash, "home", game_id, seat, 32)  # 160 bits


def seat_token_matches(seat_token_hash: str | None, game_id: str, seat: str, given: str | None) -> bool:
    """A seat link's token: the one given at joining, or the home's derived one."""
    if token_matches(seat_token_hash, given):
        return True
    expected = home_seat_token(seat_token_hash or "-", game_id, seat)
    return hmac.compare_digest(expected.encode(), (given or "")[:64].encode()) and bool(seat_token_hash)


def press_reply_token(seat_token_hash: str, game_id: str, seat: str, sender: str) -> str:
    """The token of `seat`'s address for answering `sender`'s press: as secret as the reply token,
    and distinct, so that a mail to it is never read as orders."""
    return _derive(seat_token_hash, f"press>{sender}", game_id, seat, 20)


def mail_key_matches(seat_token_hash: str | None, game_id: str, seat: str, key: MailKey) -> bool:
    # compared in constant time, and computed even for an empty seat so timing tells nothing
    if key.kind == "press":
        expected = press_reply_token(seat_token_hash or "-", game_id, seat, key.press_to)
    else:
        derive = mail_token if key.kind == "reply" else signon_password
        expected = derive(seat_token_hash or "-", game_id, seat)
    return hmac.compare_digest(expected, key.value.strip().lower()) and bool(seat_token_hash)
