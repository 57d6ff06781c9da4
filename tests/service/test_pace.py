"""Correspondence pace: deadlines per wait, follow-ups, standing orders, one mail per wait and
civil disorder (issue 10; docs/email.md, "Waits"). The toy game: every round all seats seal a bid,
the highest unique bid wins and its seat then decides `keep` or `double`."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service import DeadlinePolicy
from adjudicator.store import OutboxMessage, Seat
from tests.support.play import PlayedGame, new_game, substitutes_move

HOUR = timedelta(hours=1)


def outbox(to: str | None = None, kind: str | None = None) -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        rows = s.exec(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    return [r for r in rows if (to is None or r.to == to) and (kind is None or r.kind == kind)]


def submit(tg: PlayedGame, seat: str, text: str, at: datetime) -> service.Submission:
    """The order, then the substitute's moves it leads to (a worker's tasks), at the same time."""
    with store.transaction() as s:
        result = service.submit(s, tg.game_id, seat, tg.tokens[seat], text, None, now=at)
    service.run_substitutes(result.tasks, now=at)
    return result


def sweep(at: datetime) -> list:
    with store.transaction() as s:
        tasks = service.sweep_deadlines(s, at)
    return service.run_substitutes(tasks, now=at)


def seat_row(tg: PlayedGame, seat: str) -> Seat:
    with store.transaction(write=False) as s:
        from adjudicator.store import Game

        gid = s.exec(select(Game.id).where(Game.public_id == tg.game_id)).one()
        return s.exec(select(Seat).where(Seat.game_id == gid, Seat.seat == seat)).one()


def started() -> datetime:
    return service.utcnow()


def test_a_follow_up_decision_continues_the_wait_instead_of_restarting_it(db, toy) -> None:
    tg = new_game(seats=2, policy=DeadlinePolicy(step_hours=72, follow_up_hours=12))
    t0 = started()
    due = tg.public().deadline
    assert timedelta(hours=71) < due - t0 <= timedelta(hours=72)
    submit(tg, "p2", "bid 0", t0 + 10 * HOUR)
    submit(tg, "p1", "bid 3", t0 + 20 * HOUR)  # completes the round; p1 wins and decides next
    assert tg.page("p1").prompt["kind"] == "choose"
    assert tg.public().deadline == due, "p1's own follow-up decision keeps the wait's deadline"
    turns = [m for m in outbox("p1@example.org") if m.kind == "turn"]
    assert turns == [], "no 'your move' mail for a decision that follows the seat's own order"


def test_a_follow_up_near_the_deadline_gets_the_follow_up_period(db, toy) -> None:
    tg = new_game(seats=2, policy=DeadlinePolicy(step_hours=72, follow_up_hours=12))
    t0 = started()
    submit(tg, "p2", "bid 0", t0 + HOUR)
    late = t0 + 70 * HOUR
    submit(tg, "p1", "bid 3", late)
    due = tg.public().deadline
    assert due == late + 12 * HOUR, "extended to the follow-up period, not restarted at 72 h"


def test_a_new_wait_on_another_seat_gets_the_full_deadline_and_one_mail(db, toy) -> None:
    tg = new_game(seats=2, policy=DeadlinePolicy(step_hours=72, follow_up_hours=12))
    t0 = started()
    submit(tg, "p2", "bid 0", t0 + HOUR)
    submit(tg, "p1", "bid 3", t0 + 2 * HOUR)
    before = len(outbox("p2@example.org", "turn"))
    submit(tg, "p1", "keep", t0 + 5 * HOUR)  # round 2: the game waits on p2 again
    assert tg.public().deadline == t0 + 5 * HOUR + 72 * HOUR
    p2_turns = outbox("p2@example.org", "turn")
    assert len(p2_turns) == before + 1
    body = p2_turns[-1].body
    assert "Since your last mail" in body and "Round 1 bids" in body, "the mail summarises what happened"
    assert outbox("p1@example.org", "turn") == [], "the acting seat gets no mail for its own next decision"


def test_standing_order_fills_a_later_sealed_decision_and_stays_hidden_until_the_reveal(db, toy) -> None:
    tg = new_game(seats=2)
    t0 = started()
    submit(tg, "p2", "bid 0", t0 + HOUR)
    submit(tg, "p1", "bid 3", t0 + 2 * HOUR)
    # p2 has nothing to decide now: it answers the next round ahead
    sub = submit(tg, "p2", "LATER bid 2", t0 + 3 * HOUR)
    assert sub.error is None and "bid 2" in sub.notes[0]
    assert [line.written for line in tg.page("p2").standing] == ["LATER bid 2"]
    assert tg.page("p1").standing == [], "another seat never sees them"
    assert "bid 2" not in str(tg.public()) and "LATER" not in str(tg.public())
    submit(tg, "p1", "keep", t0 + 4 * HOUR)  # round 2 opens: p2's standing order is sealed at once
    pub = tg.public()
    assert pub.waiting == ["p1"] and set(pub.commitments) == {"p2"}
    assert tg.page("p2").standing == [], "a LATER line is used once"
    assert tg.page("p2").receipt.order_text == "bid 2"
    other = tg.page("p1")
    shown = str(tg.public()) + str(other.view) + str(other.log) + str(other.receipt)
    assert "{'bid': 2}" not in shown and "p2 bid 2" not in shown, "the sealed order stays hidden from the others"
    assert outbox("p2@example.org", "turn")[-1:] == [] or "Round 2" not in outbox("p2@example.org", "turn")[-1].body
    submit(tg, "p1", "bid 1", t0 + 5 * HOUR)  # the reveal
    entry = [e for e in tg.full_export()["entries"] if e["kind"] == "orders"][-1]
    assert entry["data"]["orders"]["p2"] == {"bid": 2} and entry["data"]["standing"] == ["p2"]
    assert any(line.kind == "standing" for line in tg.public().log)


def test_always_rule_stays_and_a_line_that_does_not_fit_stays_queued(db, toy) -> None:
    tg = new_game(seats=2)
    t0 = started()
    submit(tg, "p2", "ALWAYS bid: bid 0\nLATER choose: double", t0 + HOUR)  # bid 0 fills round 1 at once
    assert set(tg.public().commitments) == {"p2"}
    for rnd in range(2):
        submit(tg, "p1", "bid 3", t0 + (2 + rnd) * HOUR)
        submit(tg, "p1", "keep", t0 + (2 + rnd) * HOUR)
    written = [line.written for line in tg.page("p2").standing]
    assert written == ["ALWAYS bid: bid 0", "LATER choose: double"], "p2 never won: its choose line waits"


def test_a_line_that_cannot_be_an_order_is_refused_at_entry(db, toy) -> None:
    tg = new_game(seats=2)
    sub = submit(tg, "p2", "LATER", started())
    assert sub.error and "LATER" in sub.error
    sub = submit(tg, "p2", "LATER fly to the moon", started())
    assert sub.error and "cannot be an order of Toy Auction" in sub.error and "bid 2" in sub.error
    assert tg.page("p2").standing == []


def test_five_lines_in_one_mail_get_one_reply_and_no_move_mail(db, toy) -> None:
    tg = new_game(seats=2, options={"rounds": 3})
    t0 = started()
    submit(tg, "p2", "ALWAYS bid 0", t0 + HOUR)  # p2 answers every round ahead
    mails_before = len(outbox("p1@example.org"))
    sub = submit(tg, "p1", "bid 3\nkeep\nbid 3\nkeep\nbid 3", t0 + 2 * HOUR)
    assert sub.error is None and sub.applied == ["bid 3", "keep", "bid 3", "keep", "bid 3"]
    new = outbox("p1@example.org")[mails_before:]
    assert [m.kind for m in new if m.kind in ("turn", "news", "reminder")] == []
    assert tg.page("p1").prompt["kind"] == "choose"


def test_civil_disorder_after_two_missed_deadlines_and_it_ends_when_the_seat_speaks(db, toy) -> None:
    tg = new_game(seats=2, options={"rounds": 5},
                  policy=DeadlinePolicy(step_hours=72, disorder_after=2, substitutes=False))
    t = started()
    for missed in (1, 2):
        submit(tg, "p1", "bid 3", t + HOUR)
        t = tg.public().deadline + HOUR
        sweep(t)  # p2 misses the round: defaulted
        assert seat_row(tg, "p2").missed == missed
        submit(tg, "p1", "keep", t + HOUR)
    row = seat_row(tg, "p2")
    assert row.disorder
    notices = outbox("p2@example.org", "disorder")
    assert len(notices) == 1 and "civil disorder" in notices[0].body
    assert any("civil disorder" in line.markdown for line in tg.public().log)
    assert [s.disorder for s in tg.public().seats] == [False, True]
    # round 3 opened: p2's default was sealed at once, nobody waits for it
    pub = tg.public()
    assert pub.waiting == ["p1"] and set(pub.commitments) == {"p2"}
    submit(tg, "p1", "bid 3", t + 2 * HOUR)
    assert [e for e in tg.full_export()["entries"] if e["kind"] == "orders"][-1]["data"]["defaulted"] == ["p2"]
    submit(tg, "p1", "keep", t + 3 * HOUR)
    # p2 speaks: civil disorder ends and the game waits for it again
    with store.transaction() as s:
        service.send_press(s, tg.game_id, "p2", tg.tokens["p2"], ["all"], "back!", now=t + 4 * HOUR)
    assert not seat_row(tg, "p2").disorder and seat_row(tg, "p2").missed == 0
    assert any("civil disorder ended" in line.markdown for line in tg.public().log)


def test_an_absence_is_not_a_missed_deadline(db, toy) -> None:
    tg = new_game(seats=2, policy=DeadlinePolicy(step_hours=72, disorder_after=1))
    t0 = started()
    first = (t0 + timedelta(days=1)).date()
    with store.transaction() as s:
        service.set_absence(s, tg.game_id, "p2", tg.tokens["p2"], first, first + timedelta(days=5), now=t0)
    submit(tg, "p1", "bid 3", t0 + HOUR)
    sweep(tg.public().deadline + HOUR)
    assert seat_row(tg, "p2").missed == 0 and not seat_row(tg, "p2").disorder


def test_moderator_changes_the_pace_and_shortens_a_deadline(db, toy) -> None:
    tg = new_game(seats=2)
    due = tg.public().deadline
    with store.transaction() as s:
        service.set_pace(s, tg.game_id, tg.admin_token, 24, 0, 3)
        moved = service.extend_deadline(s, tg.game_id, tg.admin_token, -24)
    assert abs(moved - (due - timedelta(hours=24))) < timedelta(seconds=2)
    with store.transaction(write=False) as s:
        assert service.game_pace(s, tg.game_id, tg.admin_token) == {
            "wait_hours": 24, "follow_up_hours": 0, "disorder_after": 3, "absence_budget_days": 28}
    assert tg.export()["entries"][-2]["data"]["action"] == "pace"


def test_resigned_seat_is_defaulted_at_once(db, toy) -> None:
    tg = new_game(seats=2)
    with store.transaction() as s:
        service.resign(s, tg.game_id, "p2", tg.tokens["p2"])
    substitutes_move(tg.game_id)  # the substitute plays it (a worker's task)
    assert set(tg.public().commitments) == {"p2"}, "its bid was sealed at once"


@pytest.mark.parametrize("mode", ["each"])
def test_the_start_mail_is_the_first_wait(db, toy, mode) -> None:
    new_game(seats=2)
    kinds = [m.kind for m in outbox("p1@example.org")]
    assert kinds == ["start"], "the start mail carries the first decision; no separate 'your move'"
    assert "## Your decision" in outbox("p1@example.org")[0].body


def test_a_follow_up_gets_at_least_a_day_and_a_half_by_default(db, toy) -> None:
    """Issue 24: a once-a-day reader answers a follow-up in time: the default follow-up period is
    36 hours (the games' and the policy's), and the reply's decision states the deadline."""
    assert DeadlinePolicy().follow_up == 36 * 3600
    tg = new_game(seats=2, policy=DeadlinePolicy(step_hours=24))
    t0 = started()
    submit(tg, "p2", "bid 0", t0 + HOUR)
    submit(tg, "p1", "bid 3", t0 + 20 * HOUR)  # p1 wins: its choice is a follow-up of its wait
    assert tg.page("p1").prompt["kind"] == "choose"
    assert tg.public().deadline >= t0 + 56 * HOUR


def test_a_decision_opened_by_an_automatic_move_is_a_new_wait_with_its_mail(db) -> None:
    """Issue 24: in 1960 beside a resigned opponent, whose decisions take the default at once, a
    decision of Kennedy's that opens after Nixon's automatic move is a new wait: a "your move"
    mail and the full deadline, not the follow-up period."""
    from adjudicator.engine import get_game
    from adjudicator.service.common.core import current_prompts, find_game

    module = get_game("1960")
    tg = new_game(game="1960", seats=2, policy=DeadlinePolicy(step_hours=48))
    with store.transaction() as s:
        service.resign(s, tg.game_id, "nixon", tg.tokens["nixon"])
    at = started()
    substitutes_move(tg.game_id, at)
    rnd = __import__("random").Random(5)
    for _ in range(300):
        with store.transaction(write=False) as s:
            g = find_game(s, tg.game_id)
            prompt = current_prompts(g).get("kennedy")
            nixon_orders = sum(1 for e in tg.full_export()["entries"]
                               if e["kind"] == "orders" and "nixon" in e["data"]["orders"]) if prompt else 0
        assert prompt is not None, "the game ended before an automatic move opened a decision"
        mails = len(outbox("kennedy@example.org", "turn"))
        at += HOUR
        submit(tg, "kennedy", module.format_order(rnd.choice(prompt.choices)), at)
        after = sum(1 for e in tg.full_export()["entries"] if e["kind"] == "orders" and "nixon" in e["data"]["orders"])
        if after > nixon_orders and tg.page("kennedy").prompt is not None:
            assert len(outbox("kennedy@example.org", "turn")) == mails + 1, "the new wait has its mail"
            assert tg.public().deadline - at >= timedelta(hours=47), "and the full deadline"
            turn = outbox("kennedy@example.org", "turn")[-1].body
            assert "Deadline: **" in turn and "## Your decision" in turn
            return
    pytest.fail("Nixon never moved automatically between two decisions of Kennedy")


def test_a_substitute_plays_a_seat_in_civil_disorder_and_the_record_replays(db, toy) -> None:
    """Issue 28: with substitutes on (the default outside tournaments), the seat in civil disorder
    gets the substitute's choice, recorded as an ordinary order marked as the substitute's."""
    from adjudicator.record import verify_record

    tg = new_game(seats=2, options={"rounds": 5}, policy=DeadlinePolicy(step_hours=72, disorder_after=2))
    t = started()
    for _ in (1, 2):
        submit(tg, "p1", "bid 3", t + HOUR)
        t = tg.public().deadline + HOUR
        sweep(t)
        submit(tg, "p1", "keep", t + HOUR)
    assert seat_row(tg, "p2").disorder
    submit(tg, "p1", "bid 3", t + 2 * HOUR)
    entries = [e for e in tg.full_export()["entries"] if e["kind"] == "orders"]
    last = entries[-1]["data"]
    assert last["substitute"] == ["p2"] and last["defaulted"] == []
    played = tg.full_export()
    assert any(f"P2 (substitute) plays bid {last['orders']['p2']['bid']}" in line.markdown
               for line in tg.public().log), [line.markdown for line in tg.public().log][-6:]
    verify_record(played)
    # the standings count the substitute's move as a decision p2 missed, as a default is
    from adjudicator.service.history.results import game_result
    from adjudicator.store import Game

    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == tg.game_id)).one()
        missed = {r.seat: r.missed for r in game_result(s, g).seats}
    defaults = sum("p2" in e["data"]["defaulted"] for e in played["entries"] if e["kind"] == "orders")
    substituted = sum("p2" in (e["data"].get("substitute") or []) for e in played["entries"] if e["kind"] == "orders")
    assert substituted >= 1 and missed["p2"] == defaults + substituted and missed["p1"] == 0


def test_substitutes_are_on_by_default_and_the_plain_defaults_stay_available(db, toy) -> None:
    with store.transaction() as s:
        plain = service.create_game(s, game="toy", seats=2, title="T", policy=DeadlinePolicy())
        off = service.create_game(s, game="toy", seats=2, title="T", policy=DeadlinePolicy(substitutes=False))
    with store.transaction() as s:
        from adjudicator.store import Game

        rows = {g.public_id: g.substitutes for g in s.exec(select(Game))}
    assert rows[plain.game_id] is True and rows[off.game_id] is False


def test_a_game_nobody_plays_any_more_ends_on_the_plain_defaults(db, toy) -> None:
    """Substitutes play for the players still at the table; when every seat is in civil disorder
    or resigned the defaults finish the game without any search."""
    tg = new_game(seats=2, options={"rounds": 2})
    with store.transaction() as s:
        for row in s.exec(select(Seat).where(Seat.seat.in_(["p1", "p2"]))):  # type: ignore[attr-defined]
            row.resigned = True
            s.add(row)
    sweep(started() + 100 * HOUR)
    orders = [e["data"] for e in tg.full_export()["entries"] if e["kind"] == "orders"]
    assert orders and all(not d.get("substitute") for d in orders)
    assert all(d["defaulted"] for d in orders)


def test_a_failing_substitute_never_stops_the_game_the_default_plays(db, toy, monkeypatch) -> None:
    from adjudicator.service.play import pace

    def broken(*args, **kwargs):
        raise RuntimeError("search failed")

    monkeypatch.setattr(pace, "choose", broken)
    tg = new_game(seats=2, options={"rounds": 5}, policy=DeadlinePolicy(step_hours=72, disorder_after=2))
    t = started()
    for _ in (1, 2):
        submit(tg, "p1", "bid 3", t + HOUR)
        t = tg.public().deadline + HOUR
        sweep(t)
        submit(tg, "p1", "keep", t + HOUR)
    submit(tg, "p1", "bid 3", t + 2 * HOUR)
    last = [e for e in tg.full_export()["entries"] if e["kind"] == "orders"][-1]["data"]
    assert last["defaulted"] == ["p2"] and "substitute" not in last
