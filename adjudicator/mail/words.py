"""Command words of the mail language in every language we speak, read in any mail.

A player writes `ESTADO` or `STATUS`, whatever their seat's language: a mail is often written
from habit or copied from another player's help. Each word maps to the English word the parser
and the service know; accents are optional (`DESPUES` = `DESPUÉS`), case never matters.
A third language adds its words here and its help text in its catalog.
"""

from __future__ import annotations

import unicodedata

# Spanish word -> the English command word (the Spanish rulebooks' usage where they have one)
SPANISH: dict[str, str] = {
    "AYUDA": "HELP",
    "ESTADO": "STATUS",
    "HISTORIAL": "HISTORY",
    "LISTA": "LIST",
    "MENSAJE": "PRESS",  # MENSAJE A <puestos> | MENSAJE A TODOS ... FINMENSAJE
    "A": "TO",
    "PARA": "TO",
    "TODOS": "ALL",
    "FINMENSAJE": "ENDPRESS",
    "AUSENTE": "ABSENT",
    "CANCELAR": "CANCEL",
    "RENUNCIAR": "RESIGN",
    "ENTRAR": "SIGNON",
    "FIN": "SIGNOFF",
    "DESPUES": "LATER",
    "SIEMPRE": "ALWAYS",
    "PERMANENTES": "STANDING",
    "BORRAR": "CLEAR",
}

ALIASES: dict[str, str] = {**SPANISH}


def plain(word: str) -> str:
    """Upper case without accents: `después` -> `DESPUES`."""
    decomposed = unicodedata.normalize("NFKD", word.upper())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def canonical(word: str) -> str:
    """The English command word for `word` in any language (an unknown word: itself, upper case)."""
    key = plain(word)
    return ALIASES.get(key, word.upper())
