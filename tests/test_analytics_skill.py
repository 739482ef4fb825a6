"""Skill trace: strength, Kendall tau and ladder steps on constructed matrices."""

from __future__ import annotations

import pytest

from riven_env.analytics.matrix import Matrix, add_run
from riven_env.analytics.skill import analyse, default_ladder, kendall_tau


def ladder_matrix(labels, beats):
    """Each ordered run of 10 games: blue wins when ``beats(blue, red)``, else red wins."""
    m = Matrix(labels=list(labels))
    k = len(labels)
    for i in range(k):
        for j in range(k):
            if i != j:
                add_run(m, i, j, ["blue" if beats(i, j) else "red"] * 10)
    return m


def test_a_perfect_ladder_is_monotone_with_tau_one():
    trace = analyse(ladder_matrix("abcd", lambda i, j: i > j), "g", "s")
    assert trace.tau.value == pytest.approx(1.0)
    assert trace.tau.low == pytest.approx(1.0)  # no game varies, no replicate differs
    assert trace.monotone
    assert trace.strength["d"].value == pytest.approx(1.0)
    assert trace.strength["a"].value == pytest.approx(0.0)
    assert [s[:2] for s in trace.steps] == [("b", "a"), ("c", "b"), ("d", "c")]


def test_an_inverted_ladder_has_tau_minus_one_and_is_not_monotone():
    trace = analyse(ladder_matrix("abc", lambda i, j: i < j), "g", "s")
    assert trace.tau.value == pytest.approx(-1.0)
    assert not trace.monotone


def test_when_blue_always_wins_skill_does_not_pay():
    trace = analyse(ladder_matrix("abc", lambda i, j: True), "g", "s")
    assert all(s.value == pytest.approx(0.5) for s in trace.strength.values())
    assert trace.tau.value == pytest.approx(0.0)
    assert trace.matrix.interval(0, 1, "blue").value == pytest.approx(1.0)
    assert trace.matrix.interval(0, 1, "red").value == pytest.approx(0.0)


def test_default_ladder_doubles_mcts_budgets():
    assert default_ladder(("oracle:beast",), 4, 3) == [
        "random", "greedy", "oracle:beast", "mcts:4", "mcts:8", "mcts:16",
    ]  # fmt: skip
    assert kendall_tau([1.0, 1.0, 1.0]) == 0.0
