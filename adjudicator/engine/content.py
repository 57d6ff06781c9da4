"""Content libraries: the data files a game plays with that are not code (a China board, a
Founding Fathers deck).

Each item has a name ("standard", "printed") and a *pin*, `name@<first 16 hex of its sha256>`,
which names exactly one version of its data. A game option that chooses content accepts a name or
a pin; `GameInfo.resolve_options` turns a name into the pin of the version installed now, so a
game's options, state and record always refer to fixed data. Installing a new version under the
same name changes what new games get and never what a running game plays with.

Items shipped with the code are *built in*; others are installed by a server (the service keeps
them in its database) or come with a record being verified (the setup entry carries the data of
every pin that is not built in). Adding is idempotent and validated; nothing is ever removed from
a library, so a pin once known keeps meaning the same data.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .canonical import sha256_hex

PIN_HEX = 16
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
PIN_PATTERN = re.compile(rf"^([a-z0-9][a-z0-9-]{{0,39}})@([0-9a-f]{{{PIN_HEX}}})$")

Validator = Callable[[Any], list[str]]


class ContentError(ValueError):
    """Content that cannot be used; the message says what to fix."""


def pin_for(name: str, data: Any) -> str:
    return f"{name}@{sha256_hex(data)[:PIN_HEX]}"


def name_of(pin: str) -> str:
    return pin.split("@", 1)[0]


@dataclass(frozen=True)
class ContentItem:
    pin: str
    data: Any
    builtin: bool

    @property
    def name(self) -> str:
        return name_of(self.pin)


class ContentLibrary:
    """The known versions of one game's content of one kind (e.g. China boards)."""

    def __init__(self, game: str, kind: str, validate: Validator) -> None:
        self.game, self.kind, self._validate = game, kind, validate
        self._items: dict[str, ContentItem] = {}  # pin -> item
        self._current: dict[str, str] = {}  # name -> pin new games get

    def add(self, name: str, data: Any, *, builtin: bool = False, current: bool = True) -> str:
        """Validate and add one version; returns its pin. `current`: new games naming `name` get it."""
        if not NAME_PATTERN.match(name):
            raise ContentError(
                f"{self.kind} name {name!r} must be 1-40 lower-case letters, digits or '-', starting "
                "with a letter or digit"
            )
        pin = pin_for(name, data)
        if current and not builtin and name in self._current and self._items[self._current[name]].builtin:
            raise ContentError(f"{name!r} is the {self.kind} that comes with pbem; install yours under another name")
        if pin not in self._items:
            problems = self._validate(data)
            if problems:
                raise ContentError(f"invalid {self.game} {self.kind} {name!r}: " + "; ".join(problems[:10]))
            self._items[pin] = ContentItem(pin, data, builtin)
        if current:
            self._current[name] = pin
        return pin

    def add_pinned(self, pin: str, data: Any) -> str:
        """Add data that arrived under a pin (a record's setup entry); the pin must match the data."""
        match = PIN_PATTERN.match(pin)
        if not match or pin_for(match.group(1), data) != pin:
            raise ContentError(f"the {self.kind} data given for {pin!r} does not match its pin")
        return self.add(match.group(1), data, current=False)

    def resolve(self, value: Any) -> str:
        """The pin for an option value (a name or a pin); ContentError says what is known."""
        if isinstance(value, str):
            if value in self._items:
                return value
            if value in self._current:
                return self._current[value]
        known = ", ".join(self.names()) or "none"
        raise ContentError(f"no {self.game} {self.kind} {value!r} is installed; installed: {known}")

    def knows(self, value: Any) -> bool:
        return isinstance(value, str) and (value in self._items or value in self._current)

    def item(self, pin: str) -> ContentItem:
        try:
            return self._items[pin]
        except KeyError:
            raise ContentError(f"{self.game} {self.kind} {pin!r} is not installed on this server") from None

    def data(self, pin: str) -> Any:
        return self.item(pin).data

    def items(self) -> list[ContentItem]:
        return list(self._items.values())

    def names(self) -> list[str]:
        """Names new games can choose, built-in first."""
        return sorted(self._current, key=lambda n: (not self._items[self._current[n]].builtin, n))

    def current_pins(self) -> dict[str, str]:
        return dict(self._current)

    def extra_content(self, pin: str) -> dict[str, Any]:
        """{pin: data} when `pin` is not built in (what a record must carry), else {}."""
        item = self.item(pin)
        return {} if item.builtin else {pin: item.data}
