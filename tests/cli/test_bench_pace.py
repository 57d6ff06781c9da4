"""`pbem bench pace` plays simulated players on a simulated clock and prints the pace figures:
per title and player model, days, waits, mails and their median length, and the share of
decisions defaulted for the seats that answered every mail (issue 24)."""

from __future__ import annotations

import random
import re
import statistics

import pytest

from adjudicator import store
from adjudicator.bench import pace as benchpace


def test_bench_pace_prints_each_models_figures(toy, capsys, monkeypatch) -> None:
    from adjudicator.cli.main import main

    monkeypatch.delenv("SMTP_HOST", raising=False)
    monkeypatch.setenv("PBEM_MAIL_DNS", "0")
    monkeypatch.setenv("PBEM_MAIL_REPLIES_PER_HOUR", "")  # restored after the test (the bench sets it)
    try:
        assert main(["bench", "pace", "toy", "--games", "1", "--players", "3", "--quiet"]) == 0
    finally:
        store.configure(None)
    out = capsys.readouterr().out
    for model in benchpace.MODELS:
        line = re.search(rf"^toy {model}: ([\d.]+) ± [\d.]+ days .*median your-move mail (\d+) lines; "
                         rf"defaulted \(seats "
                         rf"answering every mail\) ([\d.]+) %, beside an abandoned seat ([\d.]+) %; finished 2 of 2$",
                         out, re.M)
        assert line, (model, out)
        days, lines, defaulted, beside = (float(x) for x in line.groups())
        assert days > 0 and 0 < lines <= 35
        assert defaulted == 0.0 and beside <= 2.0, "players who answer every mail are not defaulted"
    assert re.search(r"^toy: one-line mail players take [\d.]+ x the days of the expert mail players \([\d.]+ / "
                     r"[\d.]+, mean of 1 games each\); beside an abandoned seat [\d.]+ x \([\d.]+ / [\d.]+\)$",
                     out, re.M)


def test_the_games_of_one_run_do_not_answer_each_others_mail(toy, tmp_path, monkeypatch) -> None:
    """Two games with the same seed play alike: the second one's players read only its own mail
    (they used to answer the first game's mails too)."""
    monkeypatch.setenv("PBEM_MAIL_DNS", "0")
    store.configure(f"sqlite:///{tmp_path / 'pace.sqlite'}")
    store.init_db()
    try:
        for model in ("web", "mail-one"):
            first = benchpace.play("toy", 3, random.Random("same"), False, model)
            second = benchpace.play("toy", 3, random.Random("same"), False, model)
            assert first.finished and second.finished
            assert (second.days, second.waits, second.mails) == (first.days, first.waits, first.mails), model
    finally:
        store.configure(None)


def test_listed_orders_reads_a_short_mail_and_a_full_one() -> None:
    short = ("## Your decision\n\nBid.\nDeadline: **x**\n\nLegal orders (2 of 9; STATUS ...):\n\n"
             "    bid 1\n    bid 2\n\nReply")
    full = "Legal orders now:\n\n    keep\n    double\n    ... and 3 more (send STATUS for the full list)\n"
    assert benchpace.listed_orders(short) == ["bid 1", "bid 2"]
    assert benchpace.listed_orders(full) == ["keep", "double"]
    assert benchpace.listed_orders("You have nothing to decide.") == []


def test_listed_orders_keeps_a_whole_turn_line_as_one_line() -> None:
    body = ("Legal orders (2 of 9; STATUS ...):\n\n    play 23 cp; campaign Ohio 2; campaign Texas 1\n"
            "    play 23 event\n\nReply")
    assert benchpace.listed_orders(body) == ["play 23 cp; campaign Ohio 2; campaign Texas 1", "play 23 event"]


def test_the_ratio_is_of_the_means_over_the_games() -> None:
    one = {"days": 60.0, "days_abandoned": 20.0, "games": 8}
    expert = {"days": 50.0, "days_abandoned": 25.0, "games": 8}
    line = benchpace.ratio_line("1960", {"mail-one": one, "mail-expert": expert})
    assert line == ("1960: one-line mail players take 1.20 x the days of the expert mail players (60.0 / 50.0, mean "
                    "of 4 games each); beside an abandoned seat 0.80 x (20.0 / 25.0)")
    assert benchpace._spread([10.0, 20.0, 30.0, 40.0]) == pytest.approx(statistics.stdev([10, 20, 30, 40]) / 2)
    assert benchpace._spread([5.0]) == 0.0
