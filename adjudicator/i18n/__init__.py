"""Languages of pages, mails and mail replies: Babel gettext catalogs, one per language.

The catalogs are `adjudicator/i18n/translations/<lang>/LC_MESSAGES/messages.po` (a third
language is one more such file and its code in `LANGUAGES`). They are compiled in memory when a
language is first used (`babel.messages.mofile.write_mo`), so no compiled `.mo` is committed,
built or written at run time: a clean clone, a read-only install and an edited `.po` all work
without a build step, and a `.mo` can never be stale.

Mails are composed outside any web request, so the language is chosen explicitly: `language(code)`
sets it for the block (a context variable, so threads and tasks do not leak it into each other) and
`_()` translates with it. Flask-Babel uses the same catalogs for the pages (web/i18n.py). No Flask
here: the service and the workers import this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from adjudicator.engine.protocol import capitalized

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"
DEFAULT = "en"  # the language of the msgids: needs no catalog
# code -> the language's own name (what the language menus show)
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}

# a code, or a function that finds it (asked at the first translation: see `language`)
_current: ContextVar[str | Callable[[], str]] = ContextVar("pbem_language", default=DEFAULT)


def normal(code: str | None) -> str:
    """A language code we have ("es", "es-AR" -> "es"), else the default."""
    code = (code or "").strip().replace("_", "-").lower()
    if code in LANGUAGES:
        return code
    base = code.split("-", 1)[0]
    return base if base in LANGUAGES else DEFAULT


def catalog_path(code: str) -> Path:
    return TRANSLATIONS / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(code: str) -> NullTranslations:
    """The compiled catalog of `code` (English and unknown codes: the msgids themselves)."""
    path = catalog_path(normal(code))
    if normal(code) == DEFAULT or not path.exists():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=normal(code), domain=DOMAIN)
    mo = BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)  # a fuzzy entry is not a translation yet: English
    mo.seek(0)
    return Translations(mo, domain=DOMAIN)


def current() -> str:
    code = _current.get()
    if callable(code):
        _current.set(DEFAULT)  # a translation while finding the language (an error) is in English
        code = normal(code())
        _current.set(code)  # `language`'s reset still restores what was before its block
    return code


@contextmanager
def language(code: str | None | Callable[[], str]) -> Iterator[None]:
    """Translate with `code` inside the block (mails to a seat, a web request's service calls).
    `code` may be a function that returns it: it is called at the first translation of the block,
    if any (an order POST that succeeds translates nothing, so it never looks its page's
    language up)."""
    token = _current.set(code if callable(code) else normal(code))
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message: str, **values: object) -> str:
    """`message` in the current language; `%(name)s` placeholders filled from `values`."""
    text = translations(current()).gettext(message)
    return text % values if values else text


def ngettext(singular: str, plural: str, n: int, **values: object) -> str:
    text = translations(current()).ngettext(singular, plural, n)
    return text % {"num": n, **values}


def prompt_text(text: str, message: tuple[str, dict[str, Any]] | None) -> str:
    """A game's text in the current language: its message (msgid and values, values that are
    messages translated too) when the game gives one, else the game's own (English) text."""
    if not message:
        return text
    msgid, values = message
    return capitalized(msgid, gettext(msgid, **{k: prompt_text("", v) if _is_message(v) else v
                                                for k, v in values.items()}))


def translate(message: tuple[str, dict[str, Any]]) -> str:
    """One game message in the current language (what `GameModule.render_view_in` is given)."""
    return prompt_text("", message)


def error_text(exc: BaseException) -> str:
    """A game's refusal (`IllegalOrder`) in the current language when it carries a message."""
    return prompt_text(str(exc), getattr(exc, "message", None))


def help_text(help: str) -> str:
    """A game's order grammar help (`GameModule.grammar_help()`, one whole msgid) in the current
    language; empty stays empty (the empty msgid is the catalog's header)."""
    return gettext(help) if help else ""


def _is_message(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], dict)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention: marks a msgid, translated later
    return message


_ = gettext

__all__ = ["DEFAULT", "LANGUAGES", "N_", "_", "current", "gettext", "help_text", "language", "ngettext", "normal",
           "prompt_text", "error_text", "translate", "translations"]
