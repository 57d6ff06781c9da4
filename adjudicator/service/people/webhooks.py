"""Chat webhook URLs a seat gives us: checked when saved and again at every connection.

A webhook is a request our server makes to an address a stranger chose, so it must not reach
anything only the server can reach (server-side request forgery): the URL must be https (http
only where the operator sets PBEM_WEBHOOK_ALLOW_HTTP=1), and every address its host resolves to
must be a public unicast address: no loopback, private, link-local (the cloud metadata service),
shared, multicast, reserved or unspecified address. The mailer connects to the very address that
was checked (no second lookup an attacker's DNS could answer differently) and follows no redirect.
PBEM_WEBHOOK_ALLOW_PRIVATE=1 lifts the address check for an operator whose chat server is on the
local network.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_URL = 500
TIMEOUT_SECONDS = 10
MAX_RESPONSE_BYTES = 64 * 1024


class WebhookUrlError(ValueError):
    """The URL may not be used; the message says why and what to do."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written (the TLS server name and the Host header)
    port: int
    path: str  # path and query
    address: str  # the checked IP address to connect to


def allow_http() -> bool:
    return os.environ.get("PBEM_WEBHOOK_ALLOW_HTTP", "") == "1"


def allow_private() -> bool:
    return os.environ.get("PBEM_WEBHOOK_ALLOW_PRIVATE", "") == "1"


def _split(url: str) -> tuple[str, str, int, str]:
    if len(url) > MAX_URL or any(c.isspace() or ord(c) < 32 for c in url):
        raise WebhookUrlError(f"the chat webhook must be one URL of at most {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise WebhookUrlError("the chat webhook is not a valid URL") from None
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise WebhookUrlError("the chat webhook must be an https:// URL")
    if scheme == "http" and not allow_http():
        raise WebhookUrlError("the chat webhook must be an https:// URL (this server does not send to http)")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise WebhookUrlError("the chat webhook must not carry a user name or password before its host")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise WebhookUrlError("the chat webhook URL has no host")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, host, port or (443 if scheme == "https" else 80), path


def refused_reason(address: str) -> str:
    """Why we never connect to this IP address ("" if it is a public unicast address)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None:
            return refused_reason(str(embedded))
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address (such as the cloud metadata service)"
    if ip.is_multicast:
        return "a multicast address"
    if ip.is_unspecified or ip.is_reserved:
        return "a reserved address"
    if ip.is_private or not ip.is_global:
        return "a private or internal address"
    return ""


def resolve(url: str) -> Target:
    """The URL's target with a checked address; WebhookUrlError if it may not be used."""
    scheme, host, port, path = _split(url)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise WebhookUrlError(f"the chat webhook's host {host} cannot be resolved; check the URL") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise WebhookUrlError(f"the chat webhook's host {host} has no address")
    if not allow_private():
        for address in addresses:  # every address: a round-robin name must not hide an internal one
            reason = refused_reason(address)
            if reason:
                raise WebhookUrlError(f"the chat webhook's host {host} is {reason} ({address}); "
                                      "give the public URL your chat service shows you")
    return Target(scheme, host, port, path, addresses[0])


def check_url(url: str) -> str:
    """The URL as stored ("" for none), or WebhookUrlError."""
    url = url.strip()
    if url:
        resolve(url)
    return url
