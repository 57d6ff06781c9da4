"""Time helpers: everything is aware UTC; `zoneinfo` only for display."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import overload
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def utcnow() -> datetime:
    return datetime.now(UTC)


@overload
def as_utc(dt: datetime) -> datetime: ...
@overload
def as_utc(dt: None) -> None: ...
@overload
def as_utc(dt: datetime | None) -> datetime | None: ...
def as_utc(dt: datetime | None) -> datetime | None:
    """`dt` in UTC; a naive one (SQLite gives them back so) is taken as UTC already."""
    if dt is None:
        return None
    return dt.replace(tzinfo=UTC) if dt.utcoffset() is None else dt.astimezone(UTC)


def check_timezone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        from .errors import ServiceError

        raise ServiceError(f"unknown time zone {name!r}; use a name like Europe/Berlin or UTC") from None
    return name


def format_deadline(dt: datetime | None, timezone: str = "UTC") -> str:
    """A deadline as players read it, in the game's time zone: '2025-03-04 18:00 CET'."""
    if dt is None:
        return "no deadline"
    local = as_utc(dt).astimezone(ZoneInfo(timezone))
    return local.strftime("%Y-%m-%d %H:%M %Z")


def window_free_at(times: list[datetime], bound: int, window: timedelta) -> datetime | None:
    """When one more event fits a bound of `bound` per sliding `window`, given the events' times
    in the last window (None: now). Rounded up to the minute, as refusals show it."""
    if len(times) < bound:
        return None
    free = sorted(times)[-bound] + window
    return free.replace(second=0, microsecond=0) + timedelta(minutes=1)
