"""Errors a user can act on. Each message says what to do next."""

from __future__ import annotations


class ServiceError(Exception):
    """Base class; adapters show `str(error)` to the user."""


class NotFound(ServiceError):
    pass


class Forbidden(ServiceError):
    """A wrong or outdated seat, invite or admin token."""


class StaleOrder(ServiceError):
    """The prompt token no longer matches the current prompt (already answered, or moved on)."""


class NotYourTurn(ServiceError):
    """`suggestions`: a misspelt command the line may have meant ("did you mean STATUS")."""

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.suggestions = list(suggestions or [])


class Conflict(ServiceError):
    """The game is not in a state that allows this (not running, already started, seat taken)."""


class BadOrder(ServiceError):
    """Wraps the game's IllegalOrder; `choices` are the legal orders, formatted."""

    def __init__(self, message: str, choices: list[str] | None = None) -> None:
        super().__init__(message)
        self.choices = list(choices or [])


class TooMany(ServiceError):
    """A bound on how much may be sent or created in a while; the message says when it may be
    again (`retry_at`, UTC)."""

    def __init__(self, message: str, retry_at: object = None) -> None:
        super().__init__(message)
        self.retry_at = retry_at
