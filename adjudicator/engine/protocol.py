"""The game protocol: what every game module answers about a JSON state.

A game is a value (an instance of a `GameModule` subclass). The engine and the layers above only
ever talk to games through these methods, so a new game plugs into e-mail, web, records, deadlines
and self-play without touching them.
"""

from __future__ import annotations

import marshal
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice, product
from typing import Any

from .canonical import JSON, canonical_json, canonical_sort_key, copy_json
from .content import ContentError, ContentLibrary
from .redact import redact

Order = JSON  # a JSON value, usually a dict, e.g. {"card": "san-marco", "markers": [3, 1]}
State = dict[str, Any]
Event = dict[str, Any]  # {"kind": str, "data": {...}, "audience": None | [seat, ...]}


class IllegalOrder(ValueError):
    """An order that the rules refuse. The message is shown to the player: say what to do.

    Given a `message(...)` instead of a string, the exception's text is its English and
    `.message` keeps the msgid and values, so the player reads it in their language."""

    def __init__(self, text: str | Message = "", *args: Any) -> None:
        self.message: Message | None = text if isinstance(text, tuple) else None
        super().__init__(message_text(text) if isinstance(text, tuple) else text, *args)


@dataclass(frozen=True)
class Option:
    name: str
    default: JSON
    choices: tuple[JSON, ...] = ()
    help: str = ""
    # Content options (a board, a deck) choose from a library instead of fixed choices; their
    # resolved value is a pin (see engine/content.py).
    library: ContentLibrary | None = None
    label: str = ""  # the option's name in words for forms; default: the name, underscores as spaces
    # words for choices a bare value would not explain (Doge's year limit 0 = "no year limit")
    choice_words: tuple[tuple[JSON, str], ...] = ()

    def current_choices(self) -> tuple[JSON, ...]:
        return tuple(self.library.names()) if self.library else self.choices

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def words_for(self, value: JSON) -> str | None:
        """The words for a choice, or None when its value is shown as it is."""
        return next((words for choice, words in self.choice_words if choice == value), None)


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    rules_version: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...] = ()
    summary: str = ""
    # the pace a new game is offered (docs/games/*.md, "Waits"): hours a wait lasts, and the
    # follow-up period a seat's own next decisions get at least
    wait_hours: float = 72
    follow_up_hours: float = 36
    # Older rules versions whose records this build still replays (`GameModule.setup_version`,
    # `GameModule.for_rules`); a version not listed here is refused by `pbem verify` with the
    # version message. A published version is never dropped (tests/record/test_fixture_corpus.py).
    replays: tuple[str, ...] = ()

    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, JSON]:
        """Defaults filled in; unknown names or values outside an option's choices are refused."""
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise IllegalOrder(
                f"unknown option(s) {', '.join(unknown)} for {self.id}; "
                f"known: {', '.join(sorted(known)) or 'none'}"
            )
        resolved: dict[str, JSON] = {}
        for name, option in known.items():
            value = given.get(name, option.default)
            if option.library is not None:
                try:
                    resolved[name] = option.library.resolve(value)
                except ContentError as exc:
                    raise IllegalOrder(f"option {name}: {exc}") from None
                continue
            if option.choices and value not in option.choices:
                allowed = ", ".join(str(c) for c in option.choices)
                raise IllegalOrder(f"option {name} must be one of: {allowed}")
            resolved[name] = value
        return resolved

    def content_of(self, options: dict[str, Any]) -> dict[str, Any]:
        """{pin: data} of the content these (resolved) options use that is not built in: what a
        record's setup entry carries so that it replays anywhere."""
        carried: dict[str, Any] = {}
        for option in self.options:
            if option.library is not None:
                carried.update(option.library.extra_content(options[option.name]))
        return carried

    def add_content(self, options: dict[str, Any], carried: dict[str, Any]) -> None:
        """Make the content a record carries known (each pin checked against its data)."""
        used = {options.get(o.name): o.library for o in self.options if o.library is not None}
        for pin, data in carried.items():
            library = used.get(pin)
            if library is None:
                raise ContentError(f"the record carries {pin!r}, which none of its options uses")
            library.add_pinned(pin, data)


class ChoiceGrid(Sequence):
    """Choices that are every combination of a few parts, listed on demand instead of built.

    The order is that of nested loops over `axes` (the first outermost), so a grid equals the list
    `[build(*parts) for parts in itertools.product(*axes)]` item for item, and a random pick of
    an index draws the same choice from either. `split(order)` gives the parts an order is made of
    (each looked up in its axis); it may raise KeyError, TypeError or AttributeError for an order
    of the wrong shape. A lookup is O(1): split, locate, build that one choice and compare it.
    `build` returns a new value that shares no list or dict with the axes: the checked order is
    that value itself (`Prompt.own_copy`), and a game's apply may change it."""

    __slots__ = ("axes", "build", "split", "_size")

    def __init__(self, axes: Sequence[Sequence[Any]], build: Callable[..., Order],
                 split: Callable[[Order], tuple[Any, ...]]) -> None:
        self.axes = tuple(axes)
        self.build, self.split = build, split
        size = 1
        for axis in self.axes:
            size *= len(axis)
        self._size = size

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):  # only the choices asked for (a mail shows the first few of hundreds)
            start, stop, step = index.indices(self._size)
            if step > 0:  # walked in C, as iteration is: no index arithmetic per choice
                build = self.build
                return [build(*parts) for parts in islice(product(*self.axes), start, stop, step)]
            return [self[i] for i in range(start, stop, step)]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("choice index out of range")
        parts = []
        for axis in reversed(self.axes):
            index, at = divmod(index, len(axis))
            parts.append(axis[at])
        return self.build(*reversed(parts))

    def __iter__(self) -> Iterator[Order]:
        build = self.build
        return (build(*parts) for parts in product(*self.axes))

    def candidate(self, order: Order) -> Order | None:
        """The choice made of the parts `order` splits into, if every part is on its axis.

        Axes are short (a hand of cards, the marker sets of one supply), so each part is found by
        a scan in C: a grid is usually asked once or twice, and an index would cost more to build."""
        try:
            parts = self.split(order)
            found = [axis[axis.index(part)] for axis, part in zip(self.axes, parts, strict=True)]
        except (KeyError, TypeError, AttributeError, ValueError):
            return None
        return self.build(*found)

    def __contains__(self, order: object) -> bool:
        choice = self.candidate(order)
        return choice is not None and choice == order

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChoiceGrid | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=False))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking like the list it stands for

    def __repr__(self) -> str:
        return f"ChoiceGrid({len(self)} choices)"


Message = tuple[str, dict[str, Any]]  # a msgid and its values


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention
    """Marks a game's text for the catalogs (extracted by pybabel with `-k N_`). The engine and the
    games stay pure: they only name the msgid; the service translates it for the reader."""
    return msgid


def message(msgid: str, **values: Any) -> Message:
    """A translatable text: the msgid (marked `N_(...)` for extraction) and its `%(name)s` values."""
    return (msgid, values)


# A msgid that begins with this placeholder starts a sentence: its first letter is raised once the
# values are filled in (the value may begin with a name or with "the player", in any language).
CAPITAL = "%(capital)s"


def capitalized(msgid: str, text: str) -> str:
    """`text` (the filled-in `msgid`) with its first letter raised when the msgid starts a sentence."""
    return text[:1].upper() + text[1:] if msgid.startswith(CAPITAL) else text


def message_text(msg: Message) -> str:
    """The English of a message (values that are messages too, in English)."""
    msgid, values = msg
    if not values:
        return msgid
    return capitalized(msgid, msgid % {k: message_text(v) if _is_message(v) else v for k, v in values.items()})


def _is_message(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], dict)


class _PromptText:
    """`Prompt.text`: when left empty beside a `message`, the message's English, worded on first
    read. A replay or a random playout builds a prompt per step and never reads its text, and
    filling in the message was several per cent of such a step."""

    def __get__(self, prompt: Prompt | None, owner: type | None = None) -> str:
        if prompt is None:
            return ""  # the field's default (a dataclass asks the class)
        text: str = prompt.__dict__["_text"]
        if not text and prompt.message is not None:
            text = prompt.__dict__["_text"] = message_text(prompt.message)
        return text

    def __set__(self, prompt: Prompt, text: str) -> None:
        prompt.__dict__["_text"] = text


@dataclass
class Prompt:
    """One seat's pending decision.

    `choices` lists every legal order, sorted canonically (or, with `presorted`, in the game's
    own fixed order; a `ChoiceGrid` lists a product of parts without building it). A sealed
    prompt belongs to `group`: the group's orders are collected secretly and applied together in
    one `apply` call. A `hidden` prompt's order is played at once but not announced (a card handed
    over in a trade): the game's events tell each seat what it may learn, and the public record
    withholds the order until the game ends.
    """

    seat: str
    kind: str
    choices: list[Order] | ChoiceGrid
    sealed: bool = False
    group: str | None = None
    text: str = _PromptText()  # type: ignore[assignment]  # what is being decided, one Markdown line
    hidden: bool = False  # the order names something only its seat may know (see above)

    presorted: bool = False  # the game already lists choices in a fixed order; skip sorting
    # `text` as a msgid and its values (`N_`), so pages and mails can show it in the reader's
    # language (adjudicator.i18n); `text` stays the English. Not part of the prompt's identity.
    message: Message | None = field(default=None, compare=False, repr=False)

    # Building the index costs about five scans of the choices (measured on Doge's 273-choice
    # placement), so a prompt looked up only a few times is scanned instead.
    SCANNED_LOOKUPS = 4
    _index: dict[bytes, Order] | None = field(default=None, init=False, repr=False, compare=False)
    _lookups: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.presorted:
            self.choices = sorted(self.choices, key=canonical_sort_key())
        if self.sealed and not self.group:
            raise ValueError("a sealed prompt needs a group")

    def find(self, order: Order) -> Order | None:
        """The prompt's own copy of `order`, or None if it is not a legal choice.

        The first few lookups scan the choices (equality first, then canonical bytes, so that
        `true` never passes for `1`); a prompt asked more often builds an index once, keyed by
        the order's exact marshal bytes, which makes every later lookup O(1)."""
        # a list first: isinstance against the grid, an ABC's subclass, costs a Python-level check
        if type(self.choices) is not list and isinstance(self.choices, ChoiceGrid):
            choice = self.choices.candidate(order)
            if choice is None or choice != order:
                return None
            if _same_types(choice, order) or canonical_json(choice) == canonical_json(order):
                return choice
            return None
        index = self._index
        if index is None:
            self._lookups += 1
            if self._lookups <= self.SCANNED_LOOKUPS:
                return self._scan(order)
            index = self._index = {}
            for choice in self.choices:
                try:
                    index.setdefault(_exact_key(choice), choice)
                except ValueError:  # not plain JSON types: only the scan can find it
                    pass
        try:
            found = index.get(_exact_key(order))
        except ValueError:
            found = None
        # A miss may still be legal: the same dict with its keys in another order.
        return found if found is not None else self._scan(order)

    def _scan(self, order: Order) -> Order | None:
        # list.index compares in C, and an order that is one of the choices (random play, a
        # default) is found by identity without any comparison of its contents.
        choices, start, target = self.choices, 0, None
        while True:
            try:
                position = choices.index(order, start)
            except ValueError:
                return None
            choice = choices[position]
            if choice is order:
                return choice
            if _same_types(choice, order):  # two marshal calls: cheaper than encoding both
                return choice
            if target is None:
                target = canonical_json(order)
            if canonical_json(choice) == target:
                return choice
            start = position + 1

    def allows(self, order: Order) -> bool:
        return self.find(order) is not None

    def own_copy(self, order: Order) -> Order | None:
        """Like `find`, but a copy of the choice that nothing else holds (what `apply` may change):
        a grid builds its choice afresh for each lookup, so only a listed choice is copied."""
        found = self.find(order)
        if found is None or (type(self.choices) is not list and isinstance(self.choices, ChoiceGrid)):
            return found
        return copy_json(found)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "choices": self.choices if isinstance(self.choices, list) else list(self.choices),
            "sealed": self.sealed,
            "group": self.group,
            "text": self.text,
            **({"hidden": True} if self.hidden else {}),  # absent when False: prompt tokens stay as they were
        }


def _same_types(a: Order, b: Order) -> bool:
    """For two equal values: are they also alike in every type and key order (so `true` is not
    taken for `1`)? False may still mean canonically equal (keys in another order): ask that."""
    try:
        return _exact_key(a) == _exact_key(b)
    except ValueError:
        return False


def _exact_key(value: Order) -> bytes:
    """Bytes equal only for values of exactly the same types, contents and key order.

    Marshal format 0 writes `true` and `1` differently and does not depend on whether a string
    is interned; it refuses subclasses (ValueError), which the caller leaves to the scan."""
    return marshal.dumps(value, 0)


@dataclass
class Step:
    """The result of setup or apply: the new state and the events it produced."""

    state: State
    events: list[Event] = field(default_factory=list)


@dataclass
class Outcome:
    winners: list[str]
    scores: dict[str, int]
    summary: str
    message: Message | None = field(default=None, compare=False)  # `summary` as a msgid and values

    def to_json(self) -> dict[str, Any]:
        return {"winners": self.winners, "scores": self.scores, "summary": self.summary}


def event(kind: str, audience: list[str] | None = None, **data: JSON) -> Event:
    """Build a log event. Private data belongs only in events with an audience."""
    return {"kind": kind, "data": data, "audience": audience}


class GameModule(ABC):
    """Base class of every game. Abstract methods are the protocol; a game missing one (for
    instance `default_order`) cannot be instantiated and so never registers."""

    info: GameInfo

    def seat_names(self, count: int, options: dict[str, JSON]) -> list[str]:
        """Names of the seats for this many players (colours, candidates...)."""
        return [f"p{i + 1}" for i in range(count)]

    @abstractmethod
    def setup(self, seed: str, seats: list[str], options: dict[str, JSON]) -> Step: ...

    def setup_version(self, rules_version: str, seed: str, seats: list[str], options: dict[str, JSON]) -> Step:
        """The setup of a record played under `rules_version`: this build's version, or one of
        `info.replays`, which a game that lists any must override (the state then carries that
        version, and the game keeps its old behaviour for it)."""
        if rules_version != self.info.rules_version:
            raise IllegalOrder(f"rules version {rules_version} cannot be replayed by this build")
        return self.setup(seed, seats, options)

    def for_rules(self, rules_version: str) -> GameModule:
        """The game that plays a record of `rules_version` on from its setup (`setup_version`).

        A game whose states name their rules version answers itself: the state selects the
        behaviour. A game with older versions whose states did not name it (their recorded state
        hashes forbid adding the name now) returns a game bound to that version, which plays those
        states by it; `pbem verify` replays every record with the game this returns."""
        return self

    @abstractmethod
    def prompts(self, state: State) -> dict[str, Prompt]:
        """Who must decide what now; an empty mapping means the game is over."""

    @abstractmethod
    def apply(self, state: State, orders: dict[str, Order]) -> Step:
        """Apply one seat's order, or a whole sealed group's orders, to a copy of `state`.

        The engine's `apply_checked` has already checked that every order is one of the prompt's
        choices and hands over a private copy, so games may mutate `state` freely.
        """

    @abstractmethod
    def default_order(self, state: State, seat: str) -> Order:
        """What happens for this seat if its deadline passes."""

    @abstractmethod
    def parse_order(self, text: str, prompt: Prompt) -> Order:
        """Read one order line of the game's grammar; raise IllegalOrder with a helpful message."""

    @abstractmethod
    def format_order(self, order: Order) -> str:
        """The canonical text of an order: parse_order(format_order(o)) == o."""

    @abstractmethod
    def render_event(self, ev: Event) -> str:
        """Markdown for one log event."""

    def event_message(self, ev: Event) -> Message | None:
        """The log line as a msgid and values (`message(N_(...), ...)`), so a reader sees it in
        their language; None: only `render_event`'s English (the default)."""
        return None

    @abstractmethod
    def render_view(self, view: State, seat: str | None) -> str:
        """Markdown description of a view, for e-mails and the text board."""

    def render_view_in(self, view: State, seat: str | None, translate: Callable[[Message], str]) -> str:
        """`render_view` in the reader's language: the game words it as messages and `translate`
        (given by the service) turns each into text. The default: the English `render_view`."""
        return self.render_view(view, seat)

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None: ...

    def view(self, state: State, seat: str | None) -> State:
        """What `seat` may see (None: a public observer). Override to add derived facts."""
        return redact(state, seat)

    def evaluate(self, state: State, seat: str) -> float | None:
        """How good `state` looks for `seat`, higher better (its score against the best other
        seat's, say), for the substitute (adjudicator/bots) to weigh a choice without playing to the
        end. Called on imagined states built from the seat's view; never used by the rules.
        None (the default): the game has no evaluation and the substitute plays on to the end."""
        return None

    def budget(self, view: State, seat: str) -> Message | None:
        """What `seat` has left to spend in its open decision, in words (1960: "3 CP left"), from
        the seat's view: a page shows it beside the decision and after each row of a plan's
        preview. None (the default): the decision counts nothing."""
        return None

    def grammar_help(self) -> str:
        """A short Markdown explanation of the order grammar, with examples."""
        return ""

    # The words an order line may begin with, in every language the grammar reads (Spanish too):
    # a mail line whose first word is close to one is an attempted order, never chatter.
    order_verbs: tuple[str, ...] = ()

    def refusal(self, state: State, seat: str, prompt: Prompt | None, text: str) -> Message | None:
        """Why the order line `text` is not legal for `seat` now, in the words of the rule (whose
        decision it is, which cost or limit, which marker is used up), or None when the game has
        nothing to add to `parse_order`'s refusal. Called only after `parse_order` refused `text`
        (or with `prompt` None: the seat has nothing to decide); it must not change `state`."""
        return None

    def never_legal(self, state: State, seat: str, text: str) -> Message | None:
        """Why the standing order `text` can never again be a legal order of `seat` from `state` on
        (a card removed from the game), or None (it may still fit some decision: it stays queued)."""
        return None

    def order_problem(self, text: str) -> str | None:
        """Why `text` cannot be an order of this game in any decision (None: it might be one).

        Standing orders are checked with this when a seat leaves them, before any decision they
        fit is open; the default accepts every line."""
        return None

    def invariants(self, state: State) -> list[str]:
        """Game-specific consistency checks (pieces conserved, limits held); [] when all hold.

        Self-play and the fuzz tests call this after every step."""
        return []


@dataclass(frozen=True)
class GameWords:
    """A game's text side as the plain functions of its grammar and render modules: how an order
    is read and written, and how events and views are worded. `render_view` takes the reader's
    `translate` as an optional third argument (English by default)."""

    parse_order: Callable[[str, Prompt], Order]
    format_order: Callable[[Order], str]
    render_event: Callable[[Event], str]
    render_view: Callable[[State, str | None, Callable[[Message], str]], str]
    event_message: Callable[[Event], Message | None] | None = None
    grammar_help: Callable[[], str] | None = None
    order_problem: Callable[[str], str | None] | None = None
    order_label: Callable[[Order], str] | None = None  # a choice's words on a page; default: format_order
    refusal: Callable[[State, str, Prompt | None, str], Message | None] | None = None  # GameModule.refusal
    never_legal: Callable[[State, str, str], Message | None] | None = None  # GameModule.never_legal


class WordedGame(GameModule):
    """A game whose text side is its `words`: the protocol's text methods call those functions,
    so a game names its grammar and renderers once instead of rebinding each of them."""

    words: GameWords

    def parse_order(self, text: str, prompt: Prompt) -> Order:
        return self.words.parse_order(text, prompt)

    def format_order(self, order: Order) -> str:
        return self.words.format_order(order)

    def order_label(self, order: Order) -> str:
        """An order's words where it is offered as a choice (a page's list)."""
        label = self.words.order_label or self.words.format_order
        return label(order)

    def grammar_help(self) -> str:
        return self.words.grammar_help() if self.words.grammar_help else ""

    def order_problem(self, text: str) -> str | None:
        return self.words.order_problem(text) if self.words.order_problem else None

    def render_event(self, ev: Event) -> str:
        return self.words.render_event(ev)

    def event_message(self, ev: Event) -> Message | None:
        return self.words.event_message(ev) if self.words.event_message else None

    def render_view(self, view: State, seat: str | None) -> str:
        return self.words.render_view(view, seat, message_text)

    def render_view_in(self, view: State, seat: str | None, translate: Callable[[Message], str]) -> str:
        return self.words.render_view(view, seat, translate)

    def refusal(self, state: State, seat: str, prompt: Prompt | None, text: str) -> Message | None:
        return self.words.refusal(state, seat, prompt, text) if self.words.refusal else None

    def never_legal(self, state: State, seat: str, text: str) -> Message | None:
        return self.words.never_legal(state, seat, text) if self.words.never_legal else None
