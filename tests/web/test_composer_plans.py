"""The composer's two shortcuts, through the real seat page: a plan of several orders of one
action (1960's campaign, one prompt per state) sent as lines checked in turn, and a board word
(`where`) that narrows any list to the orders naming it."""

from __future__ import annotations

import re

from tests.web.conftest import Player, create_game, join
from tests.web.forms import forms_of, text_of
from web.composer import compose, naming, plan_of

CAMPAIGN = [(f'{{"campaign":"{s}","n":{n}}}', f"campaign {name} {n}")
            for s, name, most in [("NY", "New York", 3), ("WV", "West Virginia", 2), ("OH", "Ohio", 1)]
            for n in range(1, most + 1)]
STATES = ["Ohio", "West Virginia", *(f"State{n}" for n in range(28))]
OTHER = [('{"advertise":true}', "advertise"), ('{"travel":"OH"}', "travel Ohio")]


def test_a_plan_lists_each_target_once_with_the_largest_count():
    plan = plan_of(OTHER + CAMPAIGN, ("campaign",), ["Ohio", "Atlantis"])
    assert plan is not None and plan.verb == "campaign"
    assert plan.targets == ["New York", "West Virginia", "Ohio"] and plan.most == 3
    assert plan.chosen == ["Ohio"]  # a target nobody may campaign in is dropped
    assert plan.rows == ["Ohio", "", ""]
    assert plan_of(CAMPAIGN[:3], ("campaign",), []) is None  # one state only: no plan


def test_the_plan_is_offered_unless_another_verb_was_picked():
    assert compose(OTHER + CAMPAIGN, "", plan_verbs=("campaign",)).plan is not None
    assert compose(OTHER + CAMPAIGN, "campaign", plan_verbs=("campaign",)).plan is not None
    assert compose(OTHER + CAMPAIGN, "travel", plan_verbs=("campaign",)).plan is None
    assert compose(OTHER + CAMPAIGN, "").plan is None  # the game plans nothing


def test_a_state_picked_in_the_step_list_fills_the_next_plan_row():
    """A long decision's step list after "campaign" offers its states; picking one is a row of the
    plan (count 1), as a click on the state on the board is, so that Send is the next interaction
    and the list offers the states again for a further row."""
    many = [(f"{n}:{c}", f"campaign {STATES[n]} {c}") for n in range(30) for c in (1, 2, 3)] + OTHER
    first = compose(many, "campaign Ohio", plan_verbs=("campaign",))
    assert first.plan is not None and first.plan.filled[:2] == [("Ohio", 1), ("", 1)]
    assert first.picked == ["campaign"] and "Ohio" in [step.label for step in first.steps]
    second = compose(many, "campaign West Virginia", plan_verbs=("campaign",), planned=first.plan.chosen)
    assert second.plan is not None and second.plan.chosen == ["Ohio", "West Virginia"]
    again = compose(many, "campaign West Virginia", plan_verbs=("campaign",), planned=second.plan.chosen)
    assert again.plan is not None and again.plan.chosen == ["Ohio", "West Virginia"]  # not twice
    whole = compose(many, "campaign West Virginia 2", plan_verbs=("campaign",))  # a whole order: no row
    assert whole.plan is not None and whole.plan.chosen == [] and whole.final
    without = compose(many, "campaign Ohio")  # a game that plans nothing narrows as before
    assert without.plan is None and [label for _, label in without.final][0] == "campaign Ohio 1"


def test_where_keeps_the_orders_naming_a_board_word():
    assert [label for _, label in naming(OTHER + CAMPAIGN, "ohio")] == ["travel Ohio", "campaign Ohio 1"]
    assert [label for _, label in naming(OTHER + CAMPAIGN, "West Virginia")] == [
        "campaign West Virginia 1", "campaign West Virginia 2"]
    china = [("1", "play red red to Wei: house, house"), ("2", "play red to Chu: emissary")]
    assert naming(china, "Wei") == [china[0]]
    composer = compose(OTHER + CAMPAIGN, where="Ohio")
    assert composer.where == "Ohio" and len(composer.final) == 2
    nowhere = compose(OTHER + CAMPAIGN, where="Atlantis")  # names nothing: ignored
    assert nowhere.where == "" and len(nowhere.final) == len(OTHER + CAMPAIGN)


def _start_1960(client) -> Player:
    """A 1960 game whose Kennedy holds a CP prompt after playing his highest-CP card."""
    _, _, invites = create_game(client, game="1960", seats=2)
    players = [join(client, url, name) for url, name in zip(invites, ["Ada", "Bob"], strict=True)]
    for p in players:  # whoever won the initiative lets Kennedy play first
        if "first kennedy" in p.page():
            p.command("first kennedy")
    kennedy = next(p for p in players if "/kennedy/" in p.url)
    form = kennedy.order_form()
    plays = [label for _, label in form.selects["order"] if re.match(r"play \d+ cp —", label)]
    best = max(plays, key=lambda label: int(re.search(r"\((\d+) CP\b", label).group(1)))
    kennedy.command(best.split(" — ")[0])
    return kennedy


def test_a_campaign_over_three_states_is_one_form(client):
    kennedy = _start_1960(client)
    html = kennedy.page()
    [plan] = [f for f in forms_of(html) if "plan_verb" in f.fields]
    assert plan.fields["plan_verb"] == "campaign"
    counts = dict(plan.selects["count"])
    most = max(int(v) for v in counts)
    assert most >= 3
    targets = [t for _, t in plan.selects["target"] if t != "(none)"]
    # three states the token need not travel to: each takes the largest count
    reachable = [t for t in targets if any(label == f"campaign {t} {most}" for label in _labels(kennedy, t))][:3]
    assert len(reachable) == 3
    resp = plan.submit(client, kennedy.url, follow=True, target=[*reachable, ""][:len(plan_rows(html))],
                       count=["1"] * len(plan_rows(html)))
    html = resp.get_data(as_text=True)
    applied = re.findall(r"<li><code>([^<]*)</code></li>", html.split('class="applied"')[1].split("</ul>")[0])
    assert applied == [f"campaign {state} 1" for state in reachable], text_of(html)[:3000]


def test_a_state_picked_in_the_step_list_is_a_row_of_the_plan_on_the_page(client):
    """After "campaign", the step list's state (a GET with `pick`) comes back as the plan's first
    row, chosen; the step list carries it on (a hidden `plan`), so a second pick adds a row."""
    kennedy = _start_1960(client)
    [plan] = [f for f in forms_of(kennedy.page()) if "plan_verb" in f.fields]
    first, second = [t for _, t in plan.selects["target"] if t != "(none)"][:2]
    html = client.get(kennedy.url, query_string={"pick": f"campaign {first}"}).get_data(as_text=True)
    rows = re.findall(r'<select name="target">(.*?)</select>', html, re.S)
    assert [re.findall(r"<option selected>([^<]*)</option>", row) for row in rows[:2]] == [[first], []]
    [steps] = [f for f in forms_of(html) if "pick" in f.selects or "pick" in f.buttons]
    assert steps.fields.get("plan") == first
    html = client.get(kennedy.url, query_string={"pick": f"campaign {second}", "plan": first}).get_data(as_text=True)
    rows = re.findall(r'<select name="target">(.*?)</select>', html, re.S)
    assert [re.findall(r"<option selected>([^<]*)</option>", row) for row in rows[:2]] == [[first], [second]]


def test_a_plan_naming_no_row_is_explained(client):
    kennedy = _start_1960(client)
    [plan] = [f for f in forms_of(kennedy.page()) if "plan_verb" in f.fields]
    resp = plan.submit(client, kennedy.url, target="", count="1")
    assert resp.status_code == 422
    assert "Choose at least one row" in resp.get_data(as_text=True)


def plan_rows(html: str) -> list[str]:
    return re.findall(r'<select name="target">', html)


def _labels(player: Player, where: str) -> list[str]:
    html = player.client.get(player.url, query_string={"where": where}).get_data(as_text=True)
    return [label.split(" — ")[0] for f in forms_of(html) if "order" in f.selects for value, label in f.selects["order"]
            if value]
