"""Each game reads its order verbs in Spanish (issue 24) and explains its common refusals in the
rule's words through `GameModule.refusal` (issue 25, item 3): built states, exact texts."""

from __future__ import annotations

import pytest

from adjudicator.engine import message_text
from adjudicator.engine.wording import reword
from adjudicator.games.china import GAME as CHINA
from adjudicator.games.doge import GAME as DOGE
from adjudicator.games.founding_fathers import GAME as FF
from adjudicator.games.nineteen_sixty import GAME as SIXTY
from tests.games.china.helpers import ALEX, DORIS, new_game, put_houses, set_cards
from tests.games.doge.helpers import fresh


def test_reword_rewrites_the_first_words_and_fixed_words_without_accents():
    assert reword("JUGAR 23 PC anticipar", {"jugar": "play"}, {"pc": "cp", "anticipar": "preempt"}) == \
        "play 23 cp preempt"
    assert reword("Hacer campaña Ohio 2", {"hacer campana": "campaign", "campana": "campaign"}) == "campaign Ohio 2"
    assert reword("no activar", {"no activar": "no trigger", "no": "no"}) == "no trigger"
    assert reword("jugarreta", {"jugar": "play"}) == "jugarreta"  # whole words only


@pytest.mark.parametrize(("spanish", "english"), [
    ("jugar 23 pc", "play 23 cp"), ("jugar 23 pc anticipar", "play 23 cp preempt"),
    ("jugar 23 evento", "play 23 event"),
    ("jugar candidato", "play candidate"), ("hacer campaña nueva york 2", None), ("campaña ohio 2", "campaign ohio 2"),
    ("viajar texas", "travel texas"), ("publicidad", "advertise"), ("posicionar economía 2", "position economy 2"),
    ("listo", "done"), ("no activar", "no trigger"), ("primero nixon", "first nixon"), ("pasar", "pass"),
])
def test_1960_spanish_verbs_read_as_the_english_order(spanish, english):
    from adjudicator.games.nineteen_sixty.grammar import read

    if english is None:  # a Spanish state name is not translated: the grammar says so
        assert SIXTY.order_problem(spanish) is not None
        return
    assert read(spanish) == read(english)


def test_china_spanish_verbs_colours_and_pieces():
    state = new_game()
    put_houses(state, {"wei-1": ALEX})
    set_cards(state, {DORIS: ["green", "red", "red"]})
    prompt = CHINA.prompts(state)[state["current"]]
    assert CHINA.parse_order("jugar rojo rojo en Wei: casa, casa", prompt) == \
        CHINA.parse_order("play red red to Wei: house, house", prompt)
    assert CHINA.parse_order("cambiar verde por mazo", prompt) == {"exchange": "green", "take": "deck"}


def test_doge_spanish_verbs():
    state = fresh(3)
    prompt = DOGE.prompts(state)["red"]
    assert DOGE.parse_order("colocar san marco 3 1", prompt) == {"card": "san-marco", "markers": [3, 1]}
    assert DOGE.order_problem("mover castello a san marco") is None
    assert DOGE.order_problem("no construir") is None and DOGE.order_problem("construir") is None


def test_founding_fathers_spanish_verbs_are_known_words():
    assert FF.order_problem("votar si") is None and FF.order_problem("robar") is None
    assert FF.order_problem("hola a todos") is not None
    assert {"votar", "robar", "nombrar"} <= set(FF.order_verbs)


def test_doge_refusal_names_the_used_markers_and_the_used_card():
    """Doge (docs/games/doge-rules.md): each player has ballot markers 0, 1, 1, 2, 2, 3, 3 and plays
    each area card once a year."""
    state = fresh(3)
    prompt = DOGE.prompts(state)["red"]
    state["private"]["red"]["markers"] = [2, 1, 0]
    assert message_text(DOGE.refusal(state, "red", prompt, "place castello 3")) == \
        "those markers are used up: your ballot markers left are 2, 1, 0"
    state["cards_used"]["red"].append("castello")
    assert message_text(DOGE.refusal(state, "red", prompt, "place castello 1")) == \
        "you have played the Castello card already this year; each area card once a year"
    assert DOGE.refusal(state, "red", prompt, "hello") is None  # nothing to explain: the grammar's sentence


def test_china_refusal_names_the_hand():
    state = new_game()
    put_houses(state, {"wei-1": ALEX})
    set_cards(state, {DORIS: ["green", "red", "yellow"]})
    prompt = CHINA.prompts(state)[state["current"]]
    assert message_text(CHINA.refusal(state, DORIS, prompt, "play red red to Wei: house, house")) == \
        "you do not hold those cards; your hand: green, red, yellow"
    assert message_text(CHINA.refusal(state, DORIS, prompt, "exchange purple for deck")) == \
        "you hold no purple card to exchange; your hand: green, red, yellow"
    assert message_text(CHINA.refusal(state, DORIS, prompt, "pass")) == \
        "you may pass only when you cannot exchange a card"
    assert message_text(CHINA.refusal(state, ALEX, None, "pass")) == \
        "it is not your turn; the game waits on another player"


def test_did_you_mean_offers_legal_orders_and_misspelt_commands_not_commands_for_verbs():
    from adjudicator.service.play.suggest import MAIL_COMMANDS, did_you_mean

    state = new_game()
    put_houses(state, {"wei-1": ALEX})
    set_cards(state, {DORIS: ["green", "red", "yellow"]})
    prompt = CHINA.prompts(state)[state["current"]]
    assert did_you_mean(CHINA, prompt, "STAUTS", MAIL_COMMANDS) == ["STATUS"]
    assert did_you_mean(CHINA, prompt, "ESTDO", MAIL_COMMANDS) == ["ESTADO"]
    assert "PRESS" not in did_you_mean(CHINA, prompt, "pass", MAIL_COMMANDS)  # a verb, not a misspelt PRESS
    assert did_you_mean(CHINA, prompt, "exchange gren for deck")[0] == "exchange green for deck"


def test_did_you_mean_puts_the_nearest_card_number_first():
    """A card not in the hand (`play 80 cp`): the cards nearest by number come first, not the
    shortest line (`play 7 cp` is more alike as a string, but 79 is what a player mistyped)."""
    from adjudicator.engine import Prompt
    from adjudicator.service.play.suggest import did_you_mean

    hand = [7, 57, 79]
    prompt = Prompt(seat="kennedy", kind="play-card", choices=[{"play": n, "as": "cp"} for n in hand])
    assert did_you_mean(SIXTY, prompt, "play 80 cp") == ["play 79 cp", "play 57 cp", "play 7 cp"]
    assert did_you_mean(SIXTY, prompt, "play 8 cp")[0] == "play 7 cp"
