"""Oracle audit: measures on constructed records with known answers, and a tiny real audit."""

from __future__ import annotations

import math

import pytest

from riven_env.analytics.oracle_audit import (
    GameAudit,
    choice_label,
    conditional_entropy,
    dice_in,
    entropy,
    measures,
    predictability_values,
    rules_read,
    run_audit,
    with_extra_models,
)
from riven_env.game.decisions import Decision
from riven_env.scenario import load_scenario


def test_entropy_and_conditional_entropy():
    assert entropy({"a": 2, "b": 2}) == pytest.approx(1.0)
    assert entropy({"a": 5}) == 0.0
    fixed = [("k1", "charge", "r"), ("k1", "charge", "r"), ("k2", "shoot", "r")]
    assert conditional_entropy(fixed) == pytest.approx(0.0)
    coin = [("k", "a", "r"), ("k", "b", "r")]
    assert conditional_entropy(coin) == pytest.approx(1.0)
    assert math.isnan(conditional_entropy([]))


def test_predictability_is_leave_one_out():
    # Key k: three charges and one shot; the lone key s is left out (nothing to learn from).
    game = GameAudit("blue", "blue", decisions=[
        ("k", "charge", "r"), ("k", "charge", "r"), ("k", "charge", "r"), ("k", "shoot", "r"),
        ("s", "move", "r"),
    ])  # fmt: skip
    hits, tries = predictability_values([game])
    # Each charge is predicted by the other two charges (vs one shot): 3 hits; the shot is not.
    assert (hits, tries) == ([3.0], [4.0])


def test_rules_read_and_dice_counted_from_the_explanation_and_events():
    assert rules_read("take_objective", "blue-1, rule 9 (take_objective): ...", 12) == 9
    assert rules_read("dice:2", "Dice rule 2: ...", 12) == 2
    assert rules_read("d6:4", "no priority applies; the d6 rolled 4", 12) == 12
    mine = {"b1"}
    assert dice_in({"type": "activation", "model": "b1", "dice": [3, 5]}, mine) == 2
    assert dice_in({"type": "shot", "shooter": "r1", "dice": [3, 5]}, mine) == 0
    melee = {"type": "melee", "attacker": "r1", "defender": "b1", "attacker_dice": [1, 2],
             "defender_dice": [4, 4]}  # fmt: skip
    assert dice_in(melee, mine) == 2
    assert dice_in({"type": "morale", "model": "b1", "die": 3}, mine) == 1


def test_choice_label_keeps_dice_and_destination_kind_not_targets():
    assert choice_label(Decision("activate", model=0, dice=2)) == "activate:2d"
    assert choice_label(Decision("move", model=0, destination=("toward_objective", 1))) == (
        "move@toward_objective"
    )
    assert choice_label(Decision("shoot", model=0, target=3)) == "shoot"


def test_measures_on_constructed_games():
    games = [
        GameAudit("blue", "blue", decisions=[("k", "a", "r1")] * 4, rated=[True, False],
                  activations=2, rules_read=6, dice=8, rules_fired={"r1"}),
        GameAudit("red", "blue", decisions=[("k", "a", "r1")] * 4, rated=[False, False],
                  activations=2, rules_read=2, dice=4, rules_fired=set()),
    ]  # fmt: skip
    out = measures(games, "beast")
    assert out["predictability"].value == pytest.approx(1.0)
    assert out["conditional_entropy"].value == pytest.approx(0.0)
    assert out["rules_read"].value == pytest.approx(8 / 4)
    assert out["dice_rolled"].value == pytest.approx(12 / 4)
    assert out["bad_move_rate"].value == pytest.approx(0.25)
    assert out["oracle_score"].value == pytest.approx(0.5)
    assert out["oracle_score_as_blue"].value == 1.0 and out["oracle_score_as_red"].value == 0.0


def test_extra_models_are_added_to_one_side(tmp_path):
    path = with_extra_models("skirmish-5v5", "red", 2, tmp_path)
    scenario, base = load_scenario(path), load_scenario("skirmish-5v5")
    assert len(scenario.sides["red"].models) == len(base.sides["red"].models) + 2
    assert len(scenario.sides["blue"].models) == len(base.sides["blue"].models)
    assert with_extra_models("skirmish-5v5", "red", 0, tmp_path) == "skirmish-5v5"


def test_a_small_real_audit(tmp_path):
    audit = run_audit("beast", "duel-1v1", games=2, reference="random", rate_share=1.0,
                      compensate=False, db=tmp_path / "a.duckdb")  # fmt: skip
    data = audit.to_json()
    for name in ("predictability", "variety", "rules_read", "dice_rolled", "bad_move_rate"):
        assert name in data["measures"]
    assert data["measures"]["dice_rolled"]["value"] >= 1.0
    assert data["measures"]["rules_read"]["value"] >= 1.0


def test_compensation_rows_say_when_the_limit_was_not_enough():
    from riven_env.analytics.oracle_audit import compensation_row
    from riven_env.analytics.report_sections import audit_section

    found = compensation_row("g", "tactical", "s", {"weaker": "reference", "extra_models": 3,
                             "plausible": [2, 3], "max_extra": 4}, 16)  # fmt: skip
    assert found[3:7] == ("compensation_models_for_reference", 3.0, 2.0, 3.0)
    beyond = compensation_row("g", "beast", "s", {"weaker": "oracle", "extra_models": None,
                              "plausible": [], "max_extra": 4}, 16)  # fmt: skip
    assert beyond[4] is None and beyond[5] == 5.0
    names = ("group_id", "profile", "scenario", "measure", "value", "low", "high", "n", "method")
    html = audit_section([dict(zip(names, row, strict=True)) for row in (found, beyond)])
    assert "more than 4" in html and "3.00 [2.00, 3.00]" in html
