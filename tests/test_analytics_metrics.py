"""Game metrics on hand-built game records with known answers (docs/metrics.md)."""

from __future__ import annotations

import math

import pytest

from riven_env.analytics.metrics import (
    GameFacts,
    balance,
    bootstrap_interval,
    clear_index,
    compute_metrics,
    decisiveness,
    drama,
    drawishness,
    first_player_advantage,
    flight_share,
    game_decisiveness,
    game_drama,
    game_lead_changes,
    lead_changes,
    length,
    lethality,
    metrics_json,
)
from riven_env.analytics.trajectory import Checkpoint, trajectory_from_events


def path(*points: tuple[int, int, int, int]) -> list[Checkpoint]:
    """Checkpoints from (blue points, red points, blue active, red active) tuples."""
    return [Checkpoint(k, k // 2 + 1, *p) for k, p in enumerate(points)]


def game(winner=None, *, draw=False, first="blue", rounds=4, decisions=40, lost=None,
         fled=None, trajectory=()):  # fmt: skip
    return GameFacts(winner, draw, first, rounds, decisions, lost or {}, fled or {}, trajectory)


def test_lead_uses_points_then_models():
    assert Checkpoint(0, 1, 2, 1, 1, 5).lead() == "blue"
    assert Checkpoint(0, 1, 1, 1, 4, 5).lead() == "red"
    assert Checkpoint(0, 1, 1, 1, 5, 5).lead() is None


def test_first_player_advantage_counts_draws_as_half():
    games = [game("blue", first="blue"), game("red", first="blue"), game(None, draw=True)] * 4
    m = first_player_advantage(games)
    assert m.estimate.value == pytest.approx((1 + 0 + 0.5) / 3)
    assert m.estimate.n == 12
    assert m.estimate.low <= m.estimate.value <= m.estimate.high
    assert m.parts["first_wins"].value == pytest.approx(1 / 3)


def test_balance_is_one_minus_the_win_rate_gap():
    games = [game("blue")] * 6 + [game("red")] * 2 + [game(None, draw=True)] * 2
    m = balance(games)
    assert m.estimate.value == pytest.approx(1 - abs(0.6 - 0.2))
    assert m.parts["blue_wins"].value == pytest.approx(0.6)
    assert 0.0 <= m.estimate.low <= m.estimate.value <= m.estimate.high <= 1.0
    even = balance([game("blue"), game("red")] * 10)
    assert even.estimate.value == pytest.approx(1.0)


def test_drawishness_is_the_draw_rate():
    m = drawishness([game(None, draw=True)] + [game("blue")] * 3)
    assert m.estimate.value == pytest.approx(0.25)
    assert m.method == "wilson"


def test_decisiveness_from_when_the_winner_leads_for_good():
    # Blue takes the lead at checkpoint 1 of 4 and keeps it: clear index 1, 1 - 2/4.
    g = game("blue", trajectory=path((0, 0, 3, 3), (1, 0, 3, 3), (1, 0, 3, 2), (2, 0, 3, 1)))
    assert clear_index(g) == 1
    assert game_decisiveness(g) == pytest.approx(0.5)
    # Red led until the last checkpoint: clear only at the end.
    late = game("blue", trajectory=path((0, 1, 3, 3), (0, 1, 3, 3), (2, 1, 3, 3)))
    assert game_decisiveness(late) == pytest.approx(0.0)
    # A win the lead does not show (level at the end) counts as clear at the end.
    hidden = game("red", trajectory=path((0, 0, 3, 3), (0, 0, 3, 3)))
    assert clear_index(hidden) == 1
    m = decisiveness([g, late, hidden, game(None, draw=True, trajectory=g.trajectory)])
    assert m.estimate.n == 3  # the draw is left out
    assert m.estimate.value == pytest.approx(0.5 / 3)


def test_lead_changes_ignore_level_checkpoints():
    g = game("blue", trajectory=path((1, 0, 3, 3), (1, 1, 3, 3), (1, 2, 3, 3), (3, 2, 3, 3)))
    assert game_lead_changes(g) == 2  # blue -> (level) -> red -> blue
    steady = game("blue", trajectory=path((1, 0, 3, 3), (1, 1, 3, 3), (2, 1, 3, 3)))
    assert game_lead_changes(steady) == 0
    m = lead_changes([g, steady])
    assert m.estimate.value == pytest.approx(1.0)
    assert m.parts["any_change"].value == pytest.approx(0.5)


def test_drama_is_the_share_the_loser_was_level_or_ahead():
    g = game("blue", trajectory=path((0, 0, 3, 3), (0, 1, 3, 3), (2, 1, 3, 3), (3, 1, 3, 3)))
    assert game_drama(g) == pytest.approx(0.5)
    m = drama([g, game("red", trajectory=path((0, 1, 3, 3), (0, 2, 3, 3)))])
    assert m.estimate.value == pytest.approx(0.25)
    assert m.parts["loser_led"].value == pytest.approx(0.5)


def test_length_rounds_and_decisions():
    m = length([game(rounds=4, decisions=30), game(rounds=6, decisions=50)])
    assert m.estimate.value == pytest.approx(5.0)
    assert m.parts["decisions"].value == pytest.approx(40.0)


def test_lethality_is_casualties_per_round():
    games = [game(rounds=4, lost={"blue": 2, "red": 2}), game(rounds=2, lost={"red": 1})]
    m = lethality(games)
    assert m.estimate.value == pytest.approx((4 / 4 + 1 / 2) / 2)
    assert m.parts["red_lost"].value == pytest.approx((2 / 4 + 1 / 2) / 2)
    assert m.estimate.low >= 0.0


def test_flight_share_pools_fled_over_lost():
    games = [
        game(lost={"blue": 3, "red": 1}, fled={"blue": 1}),
        game(lost={"red": 4}, fled={"red": 2}),
        game(lost={}),  # no losses: not in the denominator
    ]
    m = flight_share(games)
    assert m.estimate.value == pytest.approx(3 / 8)
    assert m.estimate.n == 2
    assert m.parts["blue"].value == pytest.approx(1 / 3)
    assert m.parts["red"].value == pytest.approx(2 / 5)


def test_bootstrap_is_seeded_and_degenerate_data_has_zero_width():
    data = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    a = bootstrap_interval([data], lambda x: float(x.mean()))
    b = bootstrap_interval([data], lambda x: float(x.mean()))
    assert a == b
    flat = bootstrap_interval([[2.0] * 5], lambda x: float(x.mean()))
    assert (flat.low, flat.value, flat.high) == (2.0, 2.0, 2.0)
    assert math.isnan(bootstrap_interval([[1.0]], lambda x: float(x.mean())).low)


def test_every_metric_is_in_the_json():
    out = metrics_json(compute_metrics([game("blue", trajectory=path((1, 0, 3, 3)))] * 3))
    assert set(out) == {
        "first_player_advantage", "balance", "decisiveness", "drawishness", "lead_changes",
        "drama", "length", "lethality", "flight_share",
    }  # fmt: skip
    assert {"value", "low", "high", "n", "method", "parts"} <= set(out["balance"])


def test_trajectory_from_an_event_log():
    events = [
        {"type": "game_start", "models": [{"id": "b1", "side": "blue"}, {"id": "b2", "side": "blue"},
                                          {"id": "r1", "side": "red"}]},
        {"type": "turn_end", "round": 1},
        {"type": "down", "model": "b1", "round": 1},
        {"type": "score", "side": "red", "total": 1, "round": 1},
        {"type": "turn_end", "round": 1},
        {"type": "removed", "model": "b1", "reason": "out", "round": 2},  # already counted Down
        {"type": "removed", "model": "r1", "reason": "fled", "round": 2},
        {"type": "game_end", "round": 2, "rounds": 2, "points": {"blue": 1, "red": 1}},
    ]  # fmt: skip
    rows = trajectory_from_events(events)
    assert [(r["blue_points"], r["red_points"], r["blue_active"], r["red_active"]) for r in rows] == [
        (0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 0),
    ]  # fmt: skip
    assert [r["step"] for r in rows] == [0, 1, 2]
