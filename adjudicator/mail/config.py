"""Mail settings from the environment, read on each use (tests change them freely)."""

from __future__ import annotations

import os

DEFAULT_ADDRESS = "game-{game}+{seat}-{token}@{domain}"


def domain() -> str:
    return os.environ.get("PBEM_MAIL_DOMAIN", "pbem.localhost")


def address_format() -> str:
    """Must contain {game}, {seat}, {token} and {domain} (e.g. "pbem+{game}.{seat}.{token}@{domain}")."""
    return os.environ.get("PBEM_MAIL_ADDRESS", DEFAULT_ADDRESS)


def mail_from() -> str:
    return os.environ.get("MAIL_FROM") or f"pbem@{domain()}"


def max_message_bytes() -> int:
    return int(os.environ.get("PBEM_MAIL_MAX_BYTES", str(512 * 1024)))


def max_header_bytes() -> int:
    return int(os.environ.get("PBEM_MAIL_MAX_HEADER_BYTES", str(64 * 1024)))


def replies_per_hour() -> int:
    """Automatic replies to one address per hour; beyond it messages are dropped (loop brake)."""
    return int(os.environ.get("PBEM_MAIL_REPLIES_PER_HOUR", "200"))


def check_dns() -> bool:
    """DKIM/SPF need DNS; PBEM_MAIL_DNS=0 records "skipped" instead (offline installs, tests)."""
    return os.environ.get("PBEM_MAIL_DNS", "1") != "0"


def webhook_secret() -> str:
    return os.environ.get("PBEM_MAIL_WEBHOOK_SECRET", "")
