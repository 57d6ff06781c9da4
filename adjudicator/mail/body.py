"""The body language, modelled on the Diplomacy judges: a mail body -> a list of commands.

Order lines are grouped (consecutive lines go to the service together, which checks each against
the prompt current at that moment). `//` starts a comment; quoted `>` lines and a client's
"On ... wrote:" line are skipped; SIGNOFF, a `-- ` signature line or an "Original Message" marker
ends the body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from adjudicator.i18n import N_, _

from .words import canonical

MAX_LINES = 500
MAX_LINE = 500
KEYWORDS = ("HELP", "STATUS", "HISTORY", "LIST", "PRESS", "ABSENT", "RESIGN", "SIGNON")
_END = re.compile(r"^(signoff|fin|--|-- |-+ ?original message ?-+|-+ ?mensaje original ?-+|_{10,})$",
                  re.IGNORECASE)
_WROTE = re.compile(r"^(on\s.+wrote|.{0,80}\s(a écrit|schrieb|escribió|scrisse))\s*:$", re.IGNORECASE)


@dataclass
class Command:
    name: str  # orders / help / status / history / list / press / absent / resign / signon / error
    args: list[str] = field(default_factory=list)
    text: str = ""  # order lines, the press text, or an error's msgid (translated when answered)
    line: str = ""  # the line as written (for replies)


def clean_lines(text: str) -> list[str]:
    lines: list[str] = []
    for raw in text.splitlines()[: MAX_LINES * 4]:
        stripped = raw.strip()
        if _END.match(raw.rstrip("\n")) or _END.match(stripped):
            break
        if stripped.startswith(">") or _WROTE.match(stripped):
            continue
        lines.append(stripped[:MAX_LINE])
        if len(lines) >= MAX_LINES:
            break
    return lines


def parse_body(text: str) -> list[Command]:
    commands: list[Command] = []
    orders: list[str] = []
    lines = clean_lines(text)

    def flush() -> None:
        if orders:
            commands.append(Command("orders", text="\n".join(orders)))
            orders.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        code = line.split("//", 1)[0].strip()
        if not code:
            continue
        words = code.split()
        head = canonical(words[0])  # AYUDA, ESTADO, ... read as HELP, STATUS, ... (words.py)
        if head not in KEYWORDS:
            orders.append(code)
            continue
        flush()
        args = words[1:]
        if head == "PRESS":
            if not args or canonical(args[0]) != "TO" or len(args) < 2:
                commands.append(Command("error", line=code, text=N_(
                    "write PRESS TO <seats> or PRESS TO ALL, then the message, then ENDPRESS on a line "
                    "of its own")))
                break
            body: list[str] = []
            while i < len(lines) and canonical(lines[i].strip()) != "ENDPRESS":
                body.append(lines[i])
                i += 1
            if i >= len(lines):
                commands.append(Command("error", line=code, text=N_("the press message has no ENDPRESS line")))
                break
            i += 1  # the ENDPRESS line
            to = [_recipient(w) for w in " ".join(args[1:]).replace(",", " ").split() if w.strip()]
            commands.append(Command("press", args=to, text="\n".join(body).strip(), line=code))
        else:
            commands.append(Command(head.lower(), args=args, line=code))
    flush()
    return _once(commands)


def _recipient(word: str) -> str:
    """A seat name as written, or `all` (TODOS)."""
    return "all" if canonical(word) == "ALL" else word.strip().lower()


READ_ONLY = ("help", "status", "history", "list")


def _once(commands: list[Command]) -> list[Command]:
    """Each read-only command once per mail (the first): 300 STATUS lines must not make a reply
    of megabytes. Orders, press and the rest stay as written."""
    seen: set[str] = set()
    out: list[Command] = []
    for cmd in commands:
        if cmd.name in READ_ONLY:
            if cmd.name in seen:
                continue
            seen.add(cmd.name)
        out.append(cmd)
    return out


def press_reply(text: str, sender: str) -> Command:
    """A reply to a press mail: all of it (quoted text and signature dropped, up to SIGNOFF) is press
    to `sender`. No line is read as an order or a command, so chat can never move a piece."""
    lines = clean_lines(text)
    while lines and not lines[-1]:
        lines.pop()
    body = "\n".join(lines).strip()
    if not body:
        return Command("error", line="(reply to press)", text=_("your reply to %(sender)s's press was empty", sender=sender))
    return Command("press", args=[sender], text=body, line=_("(reply to %(sender)s's press)", sender=sender))
