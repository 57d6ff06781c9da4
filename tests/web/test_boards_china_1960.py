"""The China and 1960 boards: every view of random games draws, key facts are on the board, and
a seat's board shows nothing of another seat's private part."""

from __future__ import annotations

import re

import pytest
from markupsafe import Markup

from adjudicator.cli.playout import play_one
from adjudicator.engine import get_game
from adjudicator.record.verify import replay_record
from web.boards import board_html, hand_html

pytest.importorskip("adjudicator.games.china")
pytest.importorskip("adjudicator.games.nineteen_sixty")


def _states(game_id: str, seed: str, **kw):
    result = play_one(game_id, seed, check_views=False, **kw)
    assert not result.violations, result.violations[:3]
    return [state for _, state in replay_record(result.record.export(reveal_seed=True))]


def _scrambled_others(state: dict, seat: str | None) -> dict:
    """The same state with every other seat's private part (and the secret part) changed."""
    from adjudicator.cli.playout import _scramble

    changed = dict(state)
    changed["secret"] = _scramble(state.get("secret", {}))
    changed["private"] = {s: (p if s == seat else _scramble(p)) for s, p in (state.get("private") or {}).items()}
    return changed


def _space_class(html: str, space: str) -> str:
    match = re.search(f'<g class="([^"]*)" data-space="{re.escape(space)}">', html)
    assert match, f"space {space} is not on the board"
    return match.group(1)


# ---- China ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed,players,options", [
    ("china-a", 3, {}), ("china-b", 4, {"side": "4-5", "fortifications": True}),
    ("china-c", 5, {}), ("china-d", 4, {"fortifications": True})])
def test_china_board_draws_every_view_of_random_games(app, seed, players, options):
    game = get_game("china")
    forts = 0
    with app.app_context():
        for number, state in enumerate(_states("china", seed, players=players, options=options)):
            for seat in [None, *state["seats"]]:
                view = game.view(state, seat)
                html = board_html("china", view, seat)
                assert isinstance(html, Markup) and 'class="china"' in html
                assert "Stand-in board" in html and "STAND-IN GEOMETRY" in html
                # every house is drawn in its owner's colour on its own space, every fort marked
                for space, owner in view["houses"].items():
                    assert f"s-{owner}" in _space_class(html, space).split()
                for space in view["forts"]:
                    assert "fort" in _space_class(html, space).split()
                    forts += 1
                assert html.count('class="hs free') == 51 - len(view["houses"])
                # courts: one disc per seat with emissaries there, carrying the count
                for court in view["courts"].values():
                    for s, n in court.items():
                        if n:
                            assert f'data-seat="{s}" data-count="{n}"' in html
                assert html.count('class="scored-mark"') == len(view["scored"])
                assert f"<b>{view['deck_size']}</b> cards" in html
                assert "Your hand" not in html  # drawn beside the decision (hand_html), not in the board
                if seat is None:
                    assert hand_html("china", view, seat) is None
                elif number % 7 == 0:  # board and hand depend on nothing a seat may not see
                    scrambled = game.view(_scrambled_others(state, seat), seat)
                    assert board_html("china", scrambled, seat) == html
                    hand = view["private"][seat]["hand"]
                    assert html.count('class="ccard') == len(view["display"])
                    drawn = hand_html("china", view, seat)
                    assert hand_html("china", scrambled, seat) == drawn and "Your hand" in drawn
                    assert drawn.count('class="ccard') == len(hand) + len(view["display"])  # its cards, face-up ones
                    assert all(f"{colour} × {hand.count(colour)}" in drawn for colour in hand)  # how many of each
    assert forts or not options.get("fortifications"), "no fortification was ever drawn"


def test_china_board_has_the_board_files_alliances_and_roads(app):
    from adjudicator.games.china.boardfile import load_board

    game = get_game("china")
    state = _states("china", "china-e", players=5)[0]
    with app.app_context():
        html = board_html("china", game.view(state, None), None)
    board = load_board(state["board"])
    for number, a, b in board.alliances:
        assert f"Alliance {number}: {board.names[a]} and {board.names[b]}" in str(html).replace("&#39;", "'")
    assert html.count('<g class="court"') == len(board.regions)
    road_path = re.search(r'<path class="road" d="([^"]*)"', html).group(1)
    assert road_path.count("M") == len(board.data["roads"])


def test_china_board_survives_broken_views(app):
    broken = [{}, {"board": "9-9p"}, {"board": "3-4p", "houses": None, "courts": {"qin": "x"}},
              {"board": "3-4p", "houses": {"nowhere": "<i>x</i>", "qin-1": "<i>x</i>"}, "seats": ["<i>x</i>", 3],
               "courts": {"qin": {"<i>x</i>": 2}}, "scored": ["qin", "zzz"], "supply": {"<i>x</i>": None},
               "private": {"<i>x</i>": {"hand": ["<i>x</i>"]}}, "result": {"winners": "ab"}, "display": None}]
    with app.app_context():
        for view in broken:
            html = board_html("china", view, "<i>x</i>")
            assert html is not None and "<i>x" not in html


# ---- 1960 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed,options", [
    ("1960-a", {}), ("1960-b", {"vice_presidents": True, "restricted_positioning": True}), ("1960-c", {})])
def test_1960_board_draws_every_view_of_random_games(app, seed, options):
    from adjudicator.games.nineteen_sixty.data import STATES

    game = get_game("1960")
    debates = 0
    with app.app_context():
        for number, state in enumerate(_states("1960", seed, options=options)):
            for seat in [None, "kennedy", "nixon"]:
                view = game.view(state, seat)
                html = board_html("1960", view, seat)
                assert isinstance(html, Markup) and 'class="b1960"' in html
                assert html.count('class="st ') == 50
                for abbr, spot in view["states"].items():
                    k, n = spot["kennedy"], spot["nixon"]
                    cubes = f"K{k}" if k else f"N{n}" if n else "0"
                    assert f'data-state="{abbr}" data-cubes="{cubes}"' in html
                    tile = re.search(f'<div class="([^"]*)" data-state="{abbr}"', html).group(1).split()
                    assert ("carried-k" in tile) == (k >= 4) and ("carried-n" in tile) == (n >= 4)
                    assert f"{STATES[abbr].ev} electoral votes" in html
                for s in ("kennedy", "nixon"):
                    token = view["tokens"][s]
                    assert re.search(f'data-state="{token}"[^>]*>(?:(?!</div>).)*t-{s}', html)
                    assert f'data-bag="{s}">{view["bag"][s]}<' in html
                    assert f'data-momentum="{s}">{view["momentum"][s]}<' in html
                for card in view["boxes"]["election_day"]:
                    assert f"#{card} " in html
                if view.get("debate"):
                    debates += 1
                    assert "The debates" in html
                    for issue in view["debate"]["order"]:
                        assert f'<tr data-issue="{issue}">' in html
                else:
                    assert "The debates" not in html
                if seat is None:
                    assert "Your hand" not in html
                elif number % 9 == 0:
                    other = board_html("1960", game.view(_scrambled_others(state, seat), seat), seat)
                    assert other == html
            if view.get("result"):
                assert "Election result" in html
    assert debates, "the random game never reached the debates"


def test_1960_board_survives_broken_views(app):
    broken = [{}, {"states": None, "track": "abc"},
              {"states": {"XX": {"kennedy": "<i>x</i>"}}, "tokens": {"kennedy": 5}},
              {"debate": {"order": ["<i>x</i>"], "cards": {"<i>x</i>": {"kennedy": ["<i>x</i>", 999]}},
                          "winners": {"<i>x</i>": "nixon"}, "pending": {"nixon": "<i>x</i>"}},
               "boxes": {"<i>x</i>": ["<i>x</i>"]}, "effects": [None, {"card": 1}],
               "result": {"ev": None, "unpledged": ["<i>x</i>"]},
               "private": {"kennedy": {"hand": ["<i>x</i>", 3]}}}]
    with app.app_context():
        for view in broken:
            html = board_html("1960", view, "kennedy")
            assert html is not None and "<i>x" not in html


def test_1960_states_the_composer_offers_are_links_that_pick_them(app):
    """While a seat composes an order on a state (e.g. after "campaign"), the board's states that
    the next step offers are links; the others stay plain."""
    game = get_game("1960")
    state = _states("1960", "1960-links")[5]
    with app.app_context():
        html = board_html("1960", game.view(state, "kennedy"), "kennedy",
                          {"Ohio": "/play/g/kennedy/t?pick=campaign+Ohio#orders"})
        plain = board_html("1960", game.view(state, "kennedy"), "kennedy")
    assert '<a class="ab pick" href="/play/g/kennedy/t?pick=campaign+Ohio#orders">OH</a>' in html
    assert html.count('class="ab pick"') == 1 and 'class="ab pick"' not in plain
