"""Issue 28: a whole game of each title with a seat in civil disorder played by the substitute,
the other seats answering alternately by e-mail (the real intake: the listener's `accept`, the
worker's ingest, inline) and on the web (the seat page's command box, the real route); the
substitute's moves are the worker's "substitute" tasks (run inline here). The record export
then verifies.

The substitute searches with a small budget here (a few short playouts): the moves are still its
own choices from its seat's view, recorded and marked as the substitute's; only its strength is
less, which these tests do not measure (`pbem bench bots` does)."""

from __future__ import annotations

import json
import random

import pytest

from adjudicator import service, store
from adjudicator.bots import BotConfig, search
from adjudicator.record import verify_bytes
from adjudicator.service.common.core import locked_game
from adjudicator.service.common.snapshot import table_of
from adjudicator.service.play import deadlines, pace
from tests.mail.conftest import address, message, send
from tests.support.play import new_game
from tests.web.conftest import Player
from workers.enqueue import enqueue

pytestmark = pytest.mark.slow

FAST = BotConfig(candidates=2, samples=1, horizon=1, step_limit=40)
TITLES = [("1960", 2, {}), ("china", 3, {}), ("doge", 3, {}), ("founding-fathers", 3, {"scenario": "C"})]


@pytest.fixture
def mail_too(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_MAIL_DNS", "0")
    monkeypatch.setenv("PBEM_MAIL_DOMAIN", "pbem.test")
    monkeypatch.delenv("MAIL_FROM", raising=False)
    monkeypatch.setattr(search, "config_for", lambda game: FAST)


def _abandon(game_id: str, seat: str) -> None:
    """The seat misses two deadlines in a row (deadlines.missed_deadline, as a deadline counts them):
    civil disorder; the game goes on at once, the substitute's move as a worker's task."""
    now = service.utcnow()
    with store.transaction() as s:
        t = table_of(s, locked_game(s, game_id))
        tasks = deadlines.missed_deadline(s, t, [seat], now) + deadlines.missed_deadline(s, t, [seat], now)
        tasks += pace.settle(s, t, now)
    assert any(t[0] == "substitute" for t in tasks) or _waits_on_player(game_id, seat)
    enqueue(tasks)


def _waits_on_player(game_id: str, abandoned: str) -> bool:
    with store.transaction(write=False) as s:
        return any(seat != abandoned for seat in service.public_game(s, game_id).waiting)


@pytest.mark.parametrize(("title", "seats", "options"), TITLES, ids=[t[0] for t in TITLES])
def test_a_whole_game_with_a_substitute_in_civil_disorder_by_mail_and_on_the_web(
        app, client, mail_too, title, seats, options) -> None:
    played = new_game(game=title, seats=seats, options=options)
    enqueue(played.tasks)
    names = list(played.tokens)
    abandoned = names[-1]
    _abandon(played.game_id, abandoned)
    rnd = random.Random(f"{title}-28")
    by = {"mail": 0, "web": 0}
    for turn in range(3000):
        with store.transaction(write=False) as s:
            public = service.public_game(s, played.game_id)
            if public.status == "finished":
                break
            assert not public.thinking, "the substitute's move waits for nobody (its task ran inline)"
            assert public.waiting and abandoned not in public.waiting, (public.waiting, public.thinking)
            seat = public.waiting[0]
            page = service.seat_state(s, played.game_id, seat, played.tokens[seat])
        assert page.prompt is not None and page.choices, (seat, page.prompt)
        order = rnd.choice(page.choices)
        if turn % 2 == 0:  # by mail, to the address of the decision's mail
            by["mail"] += 1
            assert send(message(order, to=address(played.game_id, seat, tagged=True),
                                sender=f"{seat}@example.org"))
        else:  # on the web: the seat page's command box
            by["web"] += 1
            resp = Player(client, f"/play/{played.game_id}/{seat}/{played.tokens[seat]}").command(order)
            assert resp.status_code == 200, resp.status_code
        with store.transaction(write=False) as s:
            after = service.seat_state(s, played.game_id, seat, played.tokens[seat])
        assert after.prompt_token != page.prompt_token or after.receipt is not None or after.over, \
            f"{seat}'s order {order!r} was not taken"
    else:
        pytest.fail(f"the {title} game did not end")
    assert by["mail"] and by["web"]
    export = client.get(f"/game/{played.game_id}/export.json")
    assert export.status_code == 200
    assert verify_bytes(export.data) is not None  # `pbem verify` replays the record
    entries = json.loads(export.data)["entries"]
    substitute = [e for e in entries if e["kind"] == "orders" and e["data"].get("substitute")]
    assert substitute and all(e["data"]["substitute"] == [abandoned] for e in substitute)
    assert not any(e["data"].get("defaulted") for e in entries if e["kind"] == "orders"), \
        "nobody took a default: the players answered, the substitute played the abandoned seat"
