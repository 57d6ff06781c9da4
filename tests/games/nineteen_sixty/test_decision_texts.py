"""What 1960's decisions say (issue 25): the CP to spend and left, each card's side and debate
issue beside it, and the debate prompts' issues."""

from __future__ import annotations

from adjudicator.engine import apply_checked, copy_json
from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.flowbase import FLOW

from .helpers import give, script, start, waiting


def test_a_card_choice_shows_its_cp_event_side_and_debate_issue():
    # card 20 is a 2-CP Kennedy card of the Defense debate; 14 a 4-CP card of both with no issue
    assert GAME.order_label({"play": 20, "as": "cp"}) == ("play 20 cp — #20 Nixon Egged in Michigan "
                                                          "(2 CP · Kennedy · Defense)")
    assert GAME.order_label({"play": 14, "as": "event"}).endswith("(4 CP · Kennedy+Nixon)")


def test_the_cp_step_says_how_many_cp_there_are_to_spend_and_left():
    s = start()  # Kennedy plays first
    card = GAME.prompts(s)["kennedy"].choices[0]["play"]
    s = apply_checked(GAME, s, {"kennedy": {"play": card, "as": "cp"}}).state
    prompt = waiting(s)["kennedy"]
    cp = GAME.budget(GAME.view(s, "kennedy"), "kennedy")
    assert cp is not None and cp[0] == "%(cp)s CP to spend"
    assert prompt.text.startswith(f"{cp[1]['cp']} CP to spend, on one action: e.g. ")
    s = apply_checked(GAME, s, {"kennedy": {"campaign": "NY", "n": 1}}).state
    assert GAME.budget(GAME.view(s, "kennedy"), "kennedy") == ("%(left)s CP left", {"left": cp[1]["cp"] - 1})
    assert waiting(s)["kennedy"].text.startswith(f"{cp[1]['cp'] - 1} CP left, e.g. ")
    assert GAME.budget(GAME.view(s, "nixon"), "nixon") is None  # not Nixon's CP


def test_the_debate_prompts_say_which_issues_are_debated_and_the_default_side():
    """Rulebook: "Si una tarjeta muestra iconos para ambos candidatos, el jugador puede colocarla a
    ambos lados. En el caso de que ambos jugadores jueguen tales cartas, el jugador con la
    iniciativa puede decidir quién colocará su carta primero." Our documented default is the
    player's own side."""
    s = copy_json(start())
    for seat in ("kennedy", "nixon"):
        s["discard"] += s["private"][seat]["hand"]
        s["private"][seat]["hand"] = []
    s = give(s, "kennedy", 1)
    s = give(s, "nixon", 3)  # Gallup Poll: both icons, Civil Rights
    s["private"]["kennedy"].update(hand=[], strategy=[1])
    s["private"]["nixon"].update(hand=[], strategy=[3])
    s["turn"] = 6
    s["flow"] = [{"node": "turn", "args": {}}]
    s = script(s, 0, 0, 0, 0)
    FLOW.settle(s, [])
    pick = waiting(s)["nixon"].text
    assert pick.startswith("Debate: choose a card to reveal; it counts in the debate of its own issue. Still debated: ")
    assert all(f"{issue}: Kennedy 0, Nixon 0" in pick for issue in ("Defense", "Economy", "Civil Rights"))
    s = apply_checked(GAME, s, {"kennedy": {"debate": 1}, "nixon": {"debate": 3}}).state
    side = waiting(s)["nixon"]
    assert side.text == ("Your two-icon card #3 Gallup Poll counts in the Civil Rights debate: on whose side? "
                         "Without an answer it goes to your own side (`side nixon`).")
    assert GAME.default_order(s, "nixon") == {"side": "nixon"}
