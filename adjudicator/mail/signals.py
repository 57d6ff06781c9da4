"""DKIM and SPF results: recorded on the inbox row and shown to the moderator, never trusted alone
(a reply-address token or a SIGNON password decides who speaks)."""

from __future__ import annotations

import ipaddress
import logging

from . import config

log = logging.getLogger(__name__)


def dkim_result(raw: bytes) -> str:
    if b"dkim-signature:" not in raw[: config.max_header_bytes()].lower():
        return "none"
    if not config.check_dns():
        return "skipped"
    try:
        import dkim

        return "pass" if dkim.verify(raw, timeout=3) else "fail"
    except Exception as exc:  # DNS trouble or a malformed signature: a signal, not an error
        log.info("DKIM check failed: %s", exc)
        return "error"


def spf_result(peer: str, envelope_from: str, helo: str = "") -> str:
    """SPF needs the connecting IP, so it applies only to mail received over SMTP from outside."""
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return "none"
    if ip.is_loopback or ip.is_private or not envelope_from or not config.check_dns():
        return "none" if not config.check_dns() or not envelope_from else "local"
    try:
        import spf

        result, _explanation = spf.check2(i=str(ip), s=envelope_from, h=helo or "unknown", timeout=5)
        return str(result)
    except Exception as exc:
        log.info("SPF check failed: %s", exc)
        return "error"
