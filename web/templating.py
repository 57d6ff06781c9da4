"""Jinja filters and globals: Markdown, times in a policy's time zone, absolute links."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel.dates import format_datetime
from flask import Flask, current_app, g, has_app_context, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from adjudicator.record.verdict import receipt_line

from .markdown import render_markdown, stored_html


def absolute_url(endpoint: str, **values) -> str:
    """A full link, on PBEM_BASE_URL when configured (links are copied into e-mails)."""
    base = current_app.config.get("PBEM_BASE_URL")
    if base:
        return base + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def as_utc(when: datetime | None) -> datetime | None:
    if when is None:
        return None
    if when.tzinfo is None:  # the store keeps naive UTC datetimes
        return when.replace(tzinfo=UTC)
    return when.astimezone(UTC)


def viewer_zone(tz: str | None = None) -> str:
    """The zone times are shown in: `tz`, else the page's viewer's (`set_viewer_zone`), else UTC."""
    return tz or (g.get("viewer_zone") if has_app_context() else None) or "UTC"


def set_viewer_zone(tz: str | None) -> None:
    """Every time this request's page shows is in `tz` (a seat's own zone, a player's, a game's)."""
    g.viewer_zone = tz or "UTC"


def format_time(when: datetime | None, tz: str | None = None, pattern: str = "EEE d MMM y, HH:mm") -> str:
    when = as_utc(when)
    if when is None:
        return ""
    name = viewer_zone(tz)
    try:
        zone = ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        zone, name = UTC, "UTC"
    local = when.astimezone(zone)
    # day and month names in the page's language ("lun 3 mar 2031" on a Spanish page)
    return f"{format_datetime(local, pattern, locale=get_locale() or 'en')} {name}"


def log_time(when: datetime | None) -> str:
    """A log line's time, short: "3 Mar, 18:05 Europe/Madrid"."""
    return format_time(when, None, "d MMM, HH:mm")


def time_left(when: datetime | None) -> str:
    when = as_utc(when)
    if when is None:
        return ""
    seconds = int((when - datetime.now(UTC)).total_seconds())
    if seconds <= 0:
        return _("due now")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return _("%(days)s d %(hours)s h left", days=days, hours=hours)
    if hours:
        return _("%(hours)s h %(minutes)s min left", hours=hours, minutes=minutes)
    return _("%(minutes)s min left", minutes=minutes)


RECENT_LOG_LINES = 60  # log lines on a game or seat page; the rest are on the whole-log page


def option_text(value: object) -> str:
    """An option value as players read it; a content pin shows its name and version."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if isinstance(value, str) and "@" in value:
        name, _sep, version = value.partition("@")
        return _("%(name)s (version %(version)s)", name=name, version=version[:8])
    return str(value)


def option_title(game: Any, name: str) -> str:
    """An option's name in words (the game's label for it, else its name without underscores)."""
    for option in getattr(getattr(game, "info", None), "options", ()):
        if option.name == name:
            return option.title
    return name.replace("_", " ").capitalize()


def option_value(game: Any, name: str, value: object) -> str:
    """An option's value in words: the game's words for that choice (Doge's year limit 0 reads
    "no year limit (rulebook end only)"), else as `option_text` shows it."""
    for option in getattr(getattr(game, "info", None), "options", ()):
        if option.name == name:
            return option.words_for(value) or option_text(value)
    return option_text(value)


def timezones() -> list[str]:
    """The IANA zone names a form offers (regions/cities, and UTC)."""
    return sorted(z for z in available_timezones() if "/" in z or z == "UTC")


def register_templating(app: Flask) -> None:
    app.jinja_env.globals["option_text"] = option_text
    app.jinja_env.globals["option_title"] = option_title
    app.jinja_env.globals["option_value"] = option_value
    app.jinja_env.globals["recent_lines"] = RECENT_LOG_LINES
    app.jinja_env.filters["markdown"] = render_markdown
    app.jinja_env.filters["stored_html"] = stored_html
    app.jinja_env.filters["local_time"] = format_time
    app.jinja_env.filters["log_time"] = log_time
    app.jinja_env.filters["time_left"] = time_left
    app.jinja_env.globals["absolute_url"] = absolute_url
    app.jinja_env.globals["Markup"] = Markup
    app.jinja_env.globals["receipt_line"] = receipt_line
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
