"""A game's own texts reach a Spanish reader in Spanish (issue 12): random games of each game that
words its texts as messages, where every log line and every decision is a message whose msgid
(and every msgid nested in its values) has a Spanish translation in the catalog."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from adjudicator import i18n
from adjudicator.cli.playout import choose_group
from adjudicator.engine import get_game
from adjudicator.engine.play import apply_checked

TRANSLATED = ["doge", "china", "1960", "founding-fathers"]  # all four: log lines and decisions are messages


def _spanish() -> dict[str, Any]:
    with i18n.catalog_path("es").open("rb") as f:
        return {m.id: m.string for m in read_po(f, locale="es") if m.id}


def _msgids(msg: Any) -> list[str]:
    """The msgids of a message and of the messages in its values, but for pure joins of values
    ("%(p0)s; %(p1)s"): they have no words to translate."""
    msgid, values = msg
    nested = [v for v in values.values() if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], dict)]
    own = [msgid] if any(c.isalpha() for c in re.sub(r"%\(\w+\)s", "", msgid)) else []
    return [*own, *(m for v in nested for m in _msgids(v))]


@pytest.mark.parametrize("game_id", TRANSLATED)
def test_every_log_line_and_decision_of_random_games_is_a_translated_message(game_id: str) -> None:
    game, spanish = get_game(game_id), _spanish()
    untranslated: set[str] = set()
    plain: set[str] = set()
    for seed in range(6):
        rnd = random.Random(seed)
        options = game.info.resolve_options({})
        count = rnd.randint(game.info.min_seats, game.info.max_seats)
        step = game.setup(f"texts:{seed}", game.seat_names(count, options), options)
        state, events = step.state, list(step.events)
        for _ in range(3000):
            for ev in events:
                msg = game.event_message(ev)
                if msg is None:
                    plain.add(f"event {ev['kind']}")
                    continue
                untranslated.update(m for m in _msgids(msg) if not spanish.get(m))
                with i18n.language("es"):
                    assert i18n.translate(msg)  # the Spanish fills every placeholder
            prompts = game.prompts(state)
            if not prompts:
                break
            for prompt in prompts.values():
                if prompt.message is None:
                    plain.add(f"decision {prompt.kind}")
                else:
                    untranslated.update(m for m in _msgids(prompt.message) if not spanish.get(m))
            orders = {s: rnd.choice(prompts[s].choices) for s in choose_group(rnd, prompts)}
            result = apply_checked(game, state, orders, prompts)
            state, events = result.state, list(result.events)
    assert not plain, f"{game_id}: texts with no message (English only): {sorted(plain)}"
    assert not untranslated, f"{game_id}: msgids without Spanish: {sorted(untranslated)[:10]}"


def test_a_china_log_line_and_decision_read_in_spanish() -> None:
    game = get_game("china")
    ev = {"kind": "placed", "data": {"seat": "red", "piece": "emissary", "region": "wei", "space": None}}
    assert game.render_event(ev).startswith("red places an emissary at the court of ")
    with i18n.language("es"):
        assert i18n.translate(game.event_message(ev)).startswith("red coloca un emisario en la corte de ")
    options = game.info.resolve_options({})
    state = game.setup("texts", game.seat_names(3, options), options).state
    [prompt] = game.prompts(state).values()
    with i18n.language("es"):
        assert i18n.prompt_text(prompt.text, prompt.message).startswith("Juega de 1 a 3 cartas")


def _card_messages() -> list[tuple[str, Any]]:
    from adjudicator.games.founding_fathers.data import DEFAULT_DECK, deck
    from adjudicator.games.founding_fathers.text import card_message as ff_card_message
    from adjudicator.games.nineteen_sixty.data import CARDS, ENDORSEMENTS, ISSUES
    from adjudicator.games.nineteen_sixty.text import card_message

    d = deck(DEFAULT_DECK)
    return [*((f"1960 {c}", card_message(c)) for c in [*CARDS, *ENDORSEMENTS, *ISSUES]),
            *((f"FF {c}", ff_card_message(c)) for c in [*d.statesmen, *d.action_copies, *d.actions, *d.issues,
                                                        *d.taxes])]


def test_every_card_text_has_spanish() -> None:
    """Card effect texts (hand, log, public page) are messages with Spanish for every msgid."""
    spanish = _spanish()
    missing = {m for _, msg in _card_messages() for m in _msgids(msg) if not spanish.get(m)}
    assert not missing, f"card texts without Spanish: {sorted(missing)[:10]}"
    with i18n.language("es"):
        assert all(i18n.translate(msg) for _, msg in _card_messages())  # every placeholder filled


def test_a_1960_card_text_reads_in_spanish_and_english() -> None:
    from adjudicator.engine import message_text
    from adjudicator.games.nineteen_sixty.text import card_message

    # #43: Kennedy adds 7 support, at most 2 per state (effects.py)
    msg = card_message(43)
    assert message_text(msg) == "Kennedy event: Kennedy adds 7 cubes of support in any states, at most 2 per state."
    with i18n.language("es"):
        assert i18n.translate(msg) == ("Evento de Kennedy: Kennedy añade 7 cubos de apoyo en los estados que elija, "
                                       "como máximo 2 por estado.")


def test_a_founding_fathers_card_text_reads_in_spanish() -> None:
    from adjudicator.games.founding_fathers.data import DEFAULT_DECK, deck
    from adjudicator.games.founding_fathers.text import card_message

    d = deck(DEFAULT_DECK)
    tax = next(c for c, t in d.taxes.items() if t["kind"] == "tax")
    with i18n.language("es"):
        text = i18n.translate(card_message(tax))
    assert text.startswith("Impuesto propuesto por ") and "dificultad" in text and text.endswith(".")


# Texts a player might mistype: empty, unknown words, a known verb with bad values, a doubled order.
_BAD_TEXTS = ["", "xyzzy", "play", "play 0 cp", "play red to nowhere: house", "exchange plaid for deck",
              "campaign atlantis 1", "track economy", "space nowhere", "vote maybe", "pass pass pass"]


def _refusals(game_id: str, seeds: int = 3) -> list[Any]:
    """The refusals (`IllegalOrder`) of bad texts and of legal orders of another decision, met in
    random games: what a player reads when an order is refused."""
    from adjudicator.engine import IllegalOrder

    game, found = get_game(game_id), []
    for seed in range(seeds):
        rnd = random.Random(seed)
        options = game.info.resolve_options({})
        state = game.setup(f"refusals:{seed}", game.seat_names(game.info.min_seats, options), options).state
        seen: list[Any] = []
        for _ in range(400):
            prompts = game.prompts(state)
            if not prompts:
                break
            for prompt in prompts.values():
                texts = [*_BAD_TEXTS, *(game.format_order(c) for p in seen[-3:] for c in p.choices[:2])]
                for text in texts:
                    try:
                        game.parse_order(text, prompt)
                    except IllegalOrder as exc:
                        found.append(exc)
                seen.append(prompt)
            orders = {s: rnd.choice(prompts[s].choices) for s in choose_group(rnd, prompts)}
            state = apply_checked(game, state, orders, prompts).state
    return found


@pytest.mark.parametrize("game_id", ["china", "1960", "founding-fathers"])
def test_every_refusal_met_in_random_games_is_a_translated_message(game_id: str) -> None:
    spanish, refusals = _spanish(), _refusals(game_id)
    assert len(refusals) > 20, "the bad orders should be refused"
    plain = sorted({str(e) for e in refusals if e.message is None})
    assert not plain, f"{game_id}: refusals with no message (English only): {plain[:5]}"
    missing = {m for e in refusals for m in _msgids(e.message) if not spanish.get(m)}
    assert not missing, f"{game_id}: refusal msgids without Spanish: {sorted(missing)[:10]}"
    with i18n.language("es"):
        assert all(i18n.error_text(e) for e in refusals)


def test_a_1960_refusal_reads_in_spanish() -> None:
    from adjudicator.engine import IllegalOrder

    game = get_game("1960")
    options = game.info.resolve_options({})
    state = game.setup("refusal", game.seat_names(2, options), options).state
    prompt = next(iter(game.prompts(state).values()))
    with pytest.raises(IllegalOrder) as refused:
        game.parse_order("campaign atlantis 1", prompt)
    assert str(refused.value).startswith("no state called 'atlantis'")
    with i18n.language("es"):
        assert i18n.error_text(refused.value).startswith("no hay ningún estado llamado 'atlantis'")
