"""The order grammar: canonical text for every order, and a forgiving reader.

Canonical forms (what `format_order` writes; names may be written in full, by surname, or by id):

    draw | end | ignore | delegate | decline | pass
    appoint secretary-of-state thomas-jefferson
    tax pass sugar-and-salt-tax | tax repeal tariff-1
    assign war                       the option of the issue (resolve, war, negotiate ...)
    give 1 | spend 2 | extra 3 | bid 2
    vote yes | vote no buy 2 | vote abstain
    tie pass | tie fail | uphold | cancel
    rule none | rule support L 2 | rule tension -1 | rule reserves -10 | rule popularity president 1
    mate aaron-burr | mate none | accept | refuse    (running mates; an asked statesman may refuse)
    reduce                           (optional reduced faction, in the Round: pay 1 to receive a statesman)
    ask blue | hand aaron-burr        (a player left without statesmen names a donor, who hands one over)
    run yes | run no                 (single-party election: a statesman asked whether he runs)
    place defer                      (the first placer of a side puts his first cube later)
    tiebreak VA | back james-madison | back none     (election tie-break: state order, votes)
    place VA | take coalition-building-2 | discard dolley-todd-1
    persuade james-madison aaron-burr (persuasion option, in the Round) | lead james-madison | keep
    claim secretary-of-state thomas-jefferson   (reduced negotiation: the office committee)
    trade | trade with blue | give 2 | offer dolley-todd-1 | done | for 1 | for 1 cards | cancel
    accept | decline | hand coalition-building-2    (answering a trade offer)
    play dolley-todd-1 on james-madison    (an action card, offered at every decision point)
    lift 1 0 0                       newspaper cubes lifted from the start, middle and right boxes
    speech james-madison | whip james-madison | fund james-madison box 0
    play coalition-building-1 | play make-an-important-speech-1 on james-madison
"""

from __future__ import annotations

import re
from functools import cache

from adjudicator.engine import N_, IllegalOrder, Message, Order, Prompt, message
from adjudicator.engine.wording import reword

from .data import DECKS, DEFAULT_DECK, EFFECT_OPS, SUPPORT_PARTIES, deck, installed_decks
from .state import SEAT_COLOURS

FILLER = {"to", "the", "as", "of", "i", "please", "and", "a", "my", "for", "with"}
OFFICE_ALIASES = {
    "president": "president", "vp": "vice-president", "vice-president": "vice-president",
    "sos": "secretary-of-state", "state": "secretary-of-state", "secstate": "secretary-of-state",
    "treasury": "secretary-of-the-treasury", "sectreas": "secretary-of-the-treasury",
    "secretary-of-treasury": "secretary-of-the-treasury", "war": "secretary-of-war",
    "secwar": "secretary-of-war", "envoy": "special-envoy", "cj": "chief-justice",
    "justice": "chief-justice", "general": "general",
}


def format_order(order: Order) -> str:
    act = order["act"]
    if act in ("draw", "end", "ignore", "delegate", "decline", "pass", "reduce", "keep", "trade", "cancel", "done",
               "accept"):
        return act
    if act == "persuade":
        return f"persuade {order['statesman']} {order['target']}"
    if act == "lead":
        return f"lead {order['statesman']}"
    if act == "claim":
        return f"claim {order['office']} {order['statesman']}"
    if act == "with":
        return f"trade with {order['seat']}"
    if act == "offer-card":
        return f"offer {order['card']}"
    if act == "for":
        return f"for {order['n']}"
    if act == "for-cards":
        return f"for {order['n']} cards"
    if act == "hand-card":
        return f"hand {order['card']}"
    if act == "appoint":
        return f"appoint {order['office']} {order['statesman']}"
    if act == "tax":
        return f"tax {order['do']} {order['tax']}"
    if act == "assign":
        return f"assign {order['option']}"
    if act in ("give", "spend", "extra", "bid"):
        return f"{act} {order['n']}"
    if act == "vote":
        return f"vote {order['vote']}" + (f" buy {order['buy']}" if order["buy"] else "")
    if act == "tie":
        return "tie pass" if order["pass"] else "tie fail"
    if act == "review":
        return "cancel" if order["cancel"] else "uphold"
    if act == "rule":
        if order["op"] == "none":
            return "rule none"
        if order["op"] == "support":
            return f"rule support {order['party']} {order['n']}"
        if order["op"] == "popularity":
            return f"rule popularity {order['to']} {order['n']}"
        return f"rule {order['op']} {order['n']}"
    if act == "mate":
        return f"mate {order['statesman'] or 'none'}"
    if act == "mate-answer":
        return "accept" if order["accept"] else "refuse"
    if act == "ask":
        return f"ask {order['seat']}"
    if act == "give-statesman":
        return f"hand {order['statesman']}"
    if act == "run":
        return "run yes" if order["run"] else "run no"
    if act == "tb-state":
        return f"tiebreak {order['state']}"
    if act == "back":
        return f"back {order['candidate'] or 'none'}"
    if act == "place":
        return f"place {order['state']}"
    if act in ("take", "discard"):
        return f"{act} {order['card']}"
    if act == "lift":
        return "lift " + " ".join(str(n) for n in order["boxes"])
    if act in ("speech", "whip"):
        return f"{act} {order['statesman']}"
    if act == "fund":
        return f"fund {order['statesman']} box {order['box']}"
    if act == "play":
        return f"play {order['card']}" + (f" on {order['on']}" if order.get("on") else "")
    raise ValueError(f"not a Founding Fathers order: {order!r}")


@cache
def _aliases(deck_id: str) -> dict[str, str]:
    d = deck(deck_id)
    out: dict[str, str] = dict(OFFICE_ALIASES)
    for o in d.offices:
        out[o] = o
        out[_slug(d.offices[o]["name"])] = o
    surnames: dict[str, list[str]] = {}
    for sid, s in d.statesmen.items():
        out[sid] = sid
        surnames.setdefault(_slug(s["name"].split()[-1]), []).append(sid)
    for name, sids in surnames.items():
        if len(sids) == 1 and name not in out:
            out[name] = sids[0]
    for st, s in d.states.items():
        out[st.lower()] = st
        out[_slug(s["name"])] = st
    for cid in (*d.taxes, *d.issues, *d.action_copies):
        out[cid] = cid
    for opt in {o["key"] for i in d.issues.values() for o in i["options"]}:
        out.setdefault(opt, opt)
    return out


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


# Spanish order words (docs/games/founding-fathers.md): the verb first, then the fixed words after it
SPANISH_FIRST = {
    "robar": "draw", "terminar": "end", "ignorar": "ignore", "delegar": "delegate", "declinar": "decline",
    "rechazar": "decline", "pasar": "pass", "paso": "pass", "reducir": "reduce", "mantener": "keep",
    "comerciar": "trade", "negociar": "trade", "cancelar": "cancel", "hecho": "done", "listo": "done",
    "aceptar": "accept", "persuadir": "persuade", "liderar": "lead", "dirigir": "lead", "reclamar": "claim",
    "ofrecer": "offer", "entregar": "hand", "nombrar": "appoint", "impuesto": "tax", "asignar": "assign",
    "dar": "give", "gastar": "spend", "pujar": "bid", "votar": "vote", "empate": "tie", "confirmar": "uphold",
    "regla": "rule", "dictar": "rule", "companero": "mate", "rehusar": "refuse", "pedir": "ask",
    "presentarse": "run", "desempate": "tiebreak", "respaldar": "back", "apoyar": "back", "colocar": "place",
    "poner": "place", "tomar": "take", "coger": "take", "descartar": "discard", "levantar": "lift",
    "discurso": "speech", "disciplinar": "whip", "financiar": "fund", "jugar": "play",
}
SPANISH_ANYWHERE = {"si": "yes", "abstencion": "abstain", "sobre": "on", "con": "with", "ninguno": "none",
                    "nadie": "none", "caja": "box", "comprar": "buy", "cartas": "cards", "aplazar": "defer",
                    "derogar": "repeal", "fallar": "fail"}


def _tokens(text: str, aliases: dict[str, str]) -> list[str]:
    text = reword(text, SPANISH_FIRST, SPANISH_ANYWHERE).strip().lower().replace("’", "'")
    words = [w for w in re.split(r"[\s,;:!?()\"']+|\.(?!\d)", text) if w]
    out: list[str] = []
    i = 0
    while i < len(words):
        for n in (5, 4, 3, 2, 1):
            if i + n <= len(words):
                key = _slug("-".join(words[i:i + n])) if n > 1 or not re.fullmatch(r"-?\d+", words[i]) else words[i]
                if key in aliases and (n > 1 or key not in FILLER):
                    out.append(aliases[key].lower() if not aliases[key].isupper() else aliases[key].lower())
                    i += n
                    break
        else:
            out.append(words[i])
            i += 1
    return [w for w in out if w not in FILLER]


def parse_order(text: str, prompt: Prompt, deck_id: str = DEFAULT_DECK) -> Order:
    aliases = _aliases(deck_id)
    wanted = _tokens(text, aliases)
    if not wanted:
        raise IllegalOrder(message(N_("empty order; write one of: %(examples)s"), examples=_examples(prompt)))
    exact = []
    for choice in prompt.choices:
        if _tokens(format_order(choice), aliases) == wanted:
            exact.append(choice)
    if len(exact) == 1:
        return exact[0]
    # forgiving: a unique choice whose words start with what was written
    loose = [c for c in prompt.choices
             if _tokens(format_order(c), aliases)[:len(wanted)] == wanted
             or _tokens(format_order(c), aliases)[1:] == wanted]
    if len(loose) == 1:
        return loose[0]
    if loose:
        raise IllegalOrder(message(N_("%(text)s could mean several orders; write one of: %(examples)s"),
                                   text=repr(text), examples=_examples(prompt, loose)))
    raise IllegalOrder(message(N_("%(text)s is not a legal %(kind)s order now; write one of: %(examples)s"),
                               text=repr(text), kind=prompt.kind, examples=_examples(prompt)))


# The first word of every form `format_order` writes, and the fixed words that follow one: `parse_order`
# also takes a choice's words without their first one (`thomas-jefferson` for `speech thomas-jefferson`).
VERBS = frozenset((
    "draw", "end", "ignore", "delegate", "decline", "pass", "reduce", "keep", "trade", "cancel", "done", "accept",
    "persuade", "lead", "claim", "offer", "hand", "appoint", "tax", "assign", "give", "spend", "extra", "bid",
    "vote", "tie", "uphold", "rule", "mate", "refuse", "ask", "run", "tiebreak", "back", "place", "take",
    "discard", "lift", "speech", "whip", "fund", "play",
))
SECOND_WORDS = frozenset(("pass", "repeal", "yes", "no", "abstain", "fail", "none", "defer", "cards",
                          *EFFECT_OPS, *(p.lower() for p in SUPPORT_PARTIES), *SEAT_COLOURS))


def order_problem(text: str) -> str | None:
    """Why `text` is no Founding Fathers order in any decision (None: it may be one).

    `parse_order` matches a line's words against the words of each legal choice, in full, as a
    start, or without the choice's first word; so a line can be an order only when its first word
    is the first or second word of some order: a verb, a fixed word, a number or a name."""
    words = _tokens(text, _aliases(DEFAULT_DECK))
    if not words:
        return "the line is empty"
    first = words[0]
    if first in VERBS or first in SECOND_WORDS or re.fullmatch(r"-?\d+", first) or first in _names():
        return None
    return (f"no Founding Fathers order starts with {first!r}; orders start with a verb such as "
            "`draw`, `pass`, `vote`, `appoint`, `place`, `play` or a name from the order")


def _names() -> frozenset[str]:
    """Every id and alias of every known deck, as `_tokens` writes them (a deck can be installed later)."""
    names: set[str] = set()
    for ref in {DEFAULT_DECK, *installed_decks()}:
        names |= _deck_names(DECKS.resolve(ref))  # by pin: a name may be installed again
    return frozenset(names)


@cache
def _deck_names(pin: str) -> frozenset[str]:
    d = deck(pin)
    ids = [*d.statesmen, *d.states, *d.offices, *d.taxes, *d.issues, *d.actions, *d.action_copies,
           *(o["key"] for i in d.issues.values() for o in i["options"]), *_aliases(pin).values()]
    return frozenset(i.lower() for i in ids)


def _examples(prompt: Prompt, choices: list[Order] | None = None) -> str | Message:
    items = [format_order(c) for c in (choices or prompt.choices)]
    if len(items) > 8:
        return message("%(shown)s%(more)s", shown="; ".join(items[:8]),
                       more=message(N_(" (and %(n)s more)"), n=len(items) - 8))
    return "; ".join(items)


def grammar_help() -> str:
    return "Founding Fathers orders, one per line:\n\n" + "\n".join(
        "    " + line.strip() for line in (__doc__ or "").split("\n")[3:] if line.strip())
