"""The body language, modelled on the Diplomacy judges: a mail body -> a list of commands.

Order lines are grouped (consecutive lines go to the service together, which checks each against
the prompt current at that moment). `//` starts a comment; quoted `>` lines and a client's
"On ... wrote:" line are skipped; SIGNOFF or an "Original Message" marker ends the body. A `-- `
signature line or a closing ("Saludos,", "Thanks, Ana", "Sent from my phone") starts the signature:
its lines are not read, only listed in the reply (an `unread` command). Chatter among the orders is
told apart by the service, which knows the game (service/play/suggest.py).
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
# A closing ("Saludos,", "Thanks, Ana", "Sent from my phone") starts the signature: it and the
# lines after it are not read as orders, only listed in the reply as not read. A closing is one of
# these phrases alone on its line, optionally followed by punctuation and a name of up to 3 words.
_CLOSING = re.compile(
    r"^(best|best regards|best wishes|kind regards|regards|cheers|thanks|thank you|many thanks|thx|ta|"
    r"see you|bye|love|yours|saludos|un saludo|saludos cordiales|un abrazo|abrazos|besos|gracias|muchas gracias|"
    r"atentamente|cordialmente|hasta luego|hasta pronto|nos vemos|chao|chau|adi[oó]s)"
    r"[\s,.!:;-]*(\w+[.,]?\s*){0,3}[!.]*$", re.IGNORECASE)
_SENT_FROM = re.compile(r"^(sent from|sent with|get outlook|enviado desde|enviado con|obtener outlook|"
                        r"descargar outlook)\b", re.IGNORECASE)
UNREAD_SHOWN = 10  # not-read lines listed in the reply at most


@dataclass
class Command:
    name: str  # orders / help / status / history / list / press / absent / resign / signon / error / unread
    args: list[str] = field(default_factory=list)
    text: str = ""  # order lines, the press text, or an error's msgid (translated when answered)
    line: str = ""  # the line as written (for replies)


def clean_lines(text: str) -> list[str]:
    """The lines written above SIGNOFF or a signature marker, without quoted text."""
    return _split(text)[0]


def _split(text: str) -> tuple[list[str], list[str]]:
    """(the lines written above SIGNOFF or a `-- ` marker, quoted text dropped; the signature
    below a `-- ` marker). An "Original Message" marker or SIGNOFF ends both."""
    lines: list[str] = []
    signature: list[str] | None = None
    for raw in text.splitlines()[: MAX_LINES * 4]:
        stripped = raw.strip()
        if _END.match(raw.rstrip("\n")) or _END.match(stripped):
            if signature is None and stripped == "--":
                signature = []  # the signature marker: what follows is listed as not read
                continue
            break
        if stripped.startswith(">") or _WROTE.match(stripped):
            continue
        (lines if signature is None else signature).append(stripped[:MAX_LINE])
        if len(lines) + len(signature or ()) >= MAX_LINES:
            break
    return lines, [line for line in signature or [] if line]


def _closing_at(lines: list[str]) -> int:
    """The index of the first closing line (a signature's start), or len(lines). A mail's first
    line is never a closing ("Thanks for waiting" above the orders): it is left to the service,
    which reads chatter as chatter anyway."""
    written = False
    for i, line in enumerate(lines):
        code = line.split("//", 1)[0].strip()
        if not code:
            continue
        if _SENT_FROM.match(code) or (written and _CLOSING.match(code)):
            return i
        written = True
    return len(lines)


def parse_body(text: str) -> list[Command]:
    commands: list[Command] = []
    orders: list[str] = []
    lines, signature = _split(text)
    cut = _closing_at(lines)
    lines, signature = lines[:cut], [line for line in lines[cut:] if line] + signature

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
    if signature:
        commands.append(Command("unread", args=signature[:MAX_LINES]))
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
        return Command("error", line="(reply to press)",
                       text=_("your reply to %(sender)s's press was empty", sender=sender))
    return Command("press", args=[sender], text=body, line=_("(reply to %(sender)s's press)", sender=sender))
