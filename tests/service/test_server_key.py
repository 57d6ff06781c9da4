"""E-mail credentials depend on the server's key, not only on what the database stores."""

from __future__ import annotations

from adjudicator.service.common import serverkey
from adjudicator.service.common.tokens import mail_token, signon_password


def test_mail_credentials_change_with_the_server_key(monkeypatch) -> None:
    stored_hash = "ab" * 32
    monkeypatch.setenv("SECRET_KEY", "one")
    first = mail_token(stored_hash, "g1", "red"), signon_password(stored_hash, "g1", "red")
    monkeypatch.setenv("SECRET_KEY", "two")
    second = mail_token(stored_hash, "g1", "red"), signon_password(stored_hash, "g1", "red")
    assert first[0] != second[0] and first[1] != second[1]


def test_key_file_is_made_once_and_reused(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    key = serverkey.server_key(str(tmp_path))
    serverkey._key_file.cache_clear()
    assert serverkey.server_key(str(tmp_path)) == key
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_the_credentials_and_tags_are_the_whole_digest_s_base32_prefix() -> None:
    """tokens.b32_prefix encodes only the bytes the characters need: the same prefix, for every
    length the credentials and tags use, as encoding the whole digest."""
    import base64
    import hashlib

    from adjudicator.service.common.tokens import b32_prefix

    for n in range(50):
        digest = hashlib.sha256(str(n).encode()).digest()
        for length in (*range(1, 53), 12, 16, 20, 32):
            assert b32_prefix(digest, length) == base64.b32encode(digest).decode().lower()[:length]
