"""Scripted-dice tests of every between-mission rule of the campaign (docs/campaigns.md).

Each test fixes the dice (:class:`ScriptedDice`) and checks the rule's result against the
bundled campaign rules (``riven_env/rules/data/campaign-v0.1.toml``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from riven_env.campaign.aftermath import (
    apply_injury,
    experience,
    fate_test,
    post_battle,
    rest_test,
    revert_injury,
)
from riven_env.campaign.decisions import (
    advance_options,
    apply_advance,
    apply_recruit,
    recruit_options,
    rest_options,
)
from riven_env.campaign.dice import CampaignDice, ScriptedDice, roll_2d6_test
from riven_env.campaign.outcome import MissionOutcome, ModelOutcome, read_outcome
from riven_env.campaign.policy import OraclePolicy, RandomPolicy
from riven_env.campaign.rules import load_campaign_rules
from riven_env.campaign.state import Warband, WarbandModel, from_profile, model_profile
from riven_env.rules import bundled_rules
from riven_env.scenario import load_library

RULES = load_campaign_rules()
LIBRARY = load_library(rules=bundled_rules())


def model(base: str = "veteran", model_id: str = "m", **changes) -> WarbandModel:
    return from_profile(model_id, base, LIBRARY.profiles[base], **changes)


def outcome(models: dict[str, ModelOutcome], *, won: bool = False, objectives=()) -> MissionOutcome:
    return MissionOutcome(
        "blue",
        "blue" if won else "red",
        False,
        "eliminate",
        3,
        {"blue": 0, "red": 0},
        tuple(objectives),
        models,
        {},
    )


# ---------------------------------------------------------------- the 2d6 test


def test_a_2d6_test_reads_rivens_bands() -> None:
    # 2d6 + 2 vs TN 8: margins -4 / 0 / +1 / +4.
    cases = [((1, 1), "miss"), ((3, 3), "partial"), ((4, 3), "hit"), ((5, 5), "critical")]
    for faces, band in cases:
        assert roll_2d6_test(ScriptedDice(faces), 2, "standard").band == band


# ---------------------------------------------------------------- fate of the fallen

VET = model()  # resolve 2


@pytest.mark.parametrize(
    ("ending", "faces", "expected"),
    [
        ("down", (1, 1), "injury"),  # 4 vs 8: miss
        ("down", (1, 2), "injury"),  # 5 vs 8: miss
        ("stabilised", (1, 2), "convalesce"),  # 5 + 2 = 7 vs 8: partial
        ("down", (3, 3), "convalesce"),  # 8 vs 8: partial
        ("down", (4, 3), "recovered"),  # 9 vs 8: hit
        ("down", (6, 6), "recovered"),  # critical
        ("out", (1, 1), "dead"),  # 4 vs 10: miss
        ("out", (3, 4), "injury"),  # 9 vs 10: partial
        ("out", (5, 5), "convalesce"),  # 12 vs 10: hit
        ("out", (6, 6), "recovered"),  # 14 vs 10: critical
    ],
)
def test_fate_test_bands(ending: str, faces: tuple[int, int], expected: str) -> None:
    dice = ScriptedDice(faces)
    fate, fields = fate_test(VET, ending, RULES, dice)
    assert fate == expected
    assert dice.used == 2
    assert fields["test"]["dice"] == list(faces)


def test_fled_and_active_models_roll_nothing() -> None:
    dice = ScriptedDice([])
    assert fate_test(VET, "fled", RULES, dice)[0] == "recovered"
    assert fate_test(VET, "active", RULES, dice)[0] == "recovered"
    assert dice.used == 0


def test_a_solo_hero_taken_out_tests_at_standard_with_its_momentum() -> None:
    hero = model("hero", "wren")  # resolve 2
    # 3 + 2 = 5 + 2 (resolve) = 7 vs 8 (solo.out_difficulty standard): partial -> injury.
    assert fate_test(hero, "out", RULES, ScriptedDice([3, 2]), solo=True)[0] == "injury"
    # The same dice with 5 unspent Momentum: +2 (solo.fate_bonus_max) -> 9: hit -> convalesce.
    fate, fields = fate_test(hero, "out", RULES, ScriptedDice([3, 2]), solo=True, momentum=5)
    assert (fate, fields["momentum_bonus"]) == ("convalesce", 2)
    # A warband model with the same dice tests at hard (TN 10): miss -> dead.
    assert fate_test(hero, "out", RULES, ScriptedDice([3, 2]))[0] == "dead"


# ---------------------------------------------------------------- lasting injuries


@pytest.mark.parametrize(
    ("roll", "field", "value"),
    [(1, "might", 2), (2, "move", 4.0), (3, "mettle", 4), (4, "agility", 1), (5, "wit", 1)],
)
def test_each_injury_row(roll: int, field: str, value) -> None:
    injured, record = apply_injury(VET, RULES.injuries[roll], RULES)
    assert getattr(injured, field) == value
    assert injured.injuries == (RULES.injuries[roll].name,)
    assert injured.status == "fit"
    assert record["roll"] == roll


def test_the_hard_lesson_gives_experience_and_no_injury() -> None:
    injured, record = apply_injury(VET, RULES.injuries[6], RULES)
    assert (injured.xp, injured.injuries, record["xp"]) == (1, (), 1)


def test_an_injury_past_the_minimum_retires_the_model() -> None:
    frail = model("archer")  # might 1
    injured, record = apply_injury(frail, RULES.injuries[1], RULES)
    assert injured.status == "retired" and record["retired"] == "past a bound"


def test_a_lame_model_never_moves_below_the_minimum() -> None:
    slow = model(move=3.0)
    injured, _ = apply_injury(slow, RULES.injuries[2], RULES)
    assert injured.move == RULES.move_min and injured.status == "retired"


def test_three_lasting_injuries_retire_a_model() -> None:
    current = VET
    for roll in (3, 2, 5):
        current, record = apply_injury(current, RULES.injuries[roll], RULES)
    assert current.status == "retired"
    assert record["retired"] == "3 lasting injuries"


# ---------------------------------------------------------------- experience


def test_experience_per_reason_and_its_cap() -> None:
    result = ModelOutcome("m", "active", kills=1, criticals=1)
    gained, reasons = experience(
        VET, result, outcome({"m": result}, won=True, objectives=["c"]), RULES
    )
    assert reasons == {"survived": 1, "objective": 1, "kill": 1, "critical": 1, "won": 1}
    assert gained == 5
    many = ModelOutcome("m", "active", kills=4, criticals=3)
    assert experience(VET, many, outcome({"m": many}, won=True), RULES)[0] == 5  # per_mission_max
    out = ModelOutcome("m", "out", kills=1)
    assert experience(VET, out, outcome({"m": out}, won=True, objectives=["c"]), RULES) == (
        1,
        {"kill": 1},
    )


# ---------------------------------------------------------------- the whole sequence


def test_post_battle_with_scripted_dice() -> None:
    band = Warband(
        "w",
        (
            model("captain", "a"),
            model("veteran", "b"),
            model("archer", "c"),
            replace(model("warrior", "d"), status="convalescing", injuries=("lamed",), move=4.0),
        ),
        points=3,
        max_models=6,
    )
    result = outcome(
        {
            "a": ModelOutcome("a", "out"),
            "b": ModelOutcome("b", "down", kills=1),
            "c": ModelOutcome("c", "active", criticals=1),
        },
        won=True,
    )
    # a: out, (1,1) + 3 = 5 vs 10: dead.  b: down, (1,1) + 2 = 4 vs 8: injury, d6 3: mettle +1.
    # d (sat out, lamed): rest test (4,3) + 2 = 9 vs 6: hit, heals the lameness.
    dice = ScriptedDice([1, 1, 1, 1, 3, 4, 3])
    after, records = post_battle(band, ("a", "b", "c"), result, RULES, dice)
    assert dice.used == 7
    assert after.model("a").status == "dead"
    assert after.model("b").mettle == 4 and after.model("b").injuries == ("broken nerve",)
    assert after.model("b").xp == 3  # survived + kill + won (Down is not Out)
    assert after.model("c").xp == 3  # survived + critical + won
    d = after.model("d")
    assert (d.status, d.injuries, d.move) == ("fit", (), 5.0)
    assert after.points == 3 + RULES.income + RULES.income_won
    kinds = [r["type"] for r in records]
    assert kinds == [
        "experience",
        "fate",
        "experience",
        "fate",
        "injury",
        "experience",
        "rest",
        "income",
    ]


def test_a_rest_test_that_fails_heals_nothing() -> None:
    hurt = replace(VET, status="convalescing", injuries=("old wound",), agility=1)
    back, record = rest_test(hurt, RULES, ScriptedDice([1, 1]))  # 4 vs 6: miss
    assert (back.status, back.injuries, record["healed"]) == ("fit", ("old wound",), None)
    assert revert_injury(hurt, RULES).agility == 2


# ---------------------------------------------------------------- advances


def test_advance_options_follow_costs_and_caps() -> None:
    assert advance_options(replace(VET, xp=3), RULES) == ["save"]
    four = advance_options(replace(VET, xp=4), RULES)
    assert four[0] == "save" and all(o.startswith("talent:") for o in four[1:])
    rich = advance_options(replace(VET, xp=10, might=5), RULES)
    assert "attribute:might" not in rich and "attribute:agility" in rich and "mettle" in rich
    best = replace(VET, xp=10, mettle=RULES.mettle_best)
    assert "mettle" not in advance_options(best, RULES)


def test_apply_each_kind_of_advance() -> None:
    rich = replace(VET, xp=20)
    assert apply_advance(rich, "attribute:might", RULES).might == 4
    assert apply_advance(rich, "attribute:might", RULES).xp == 20 - RULES.attribute_cost
    assert apply_advance(rich, "mettle", RULES).mettle == 2
    tough = apply_advance(rich, "talent:tough", RULES)
    assert (tough.wounds, tough.talents) == (3, ("tough",))
    assert "talent:tough" not in advance_options(tough, RULES)  # once per model
    assert "terror" in apply_advance(rich, "talent:dread", RULES).keywords
    assert apply_advance(rich, "talent:marksman", RULES).ranged == "longbow"
    assert apply_advance(rich, "save", RULES) == rich


def test_the_advanced_model_fields_its_advanced_profile() -> None:
    advanced = apply_advance(replace(VET, xp=20), "talent:marksman", RULES)
    profile = model_profile(replace(advanced, might=5), LIBRARY)
    assert (profile.might, profile.ranged.name, profile.name) == (5, "longbow", "veteran/m")


# ---------------------------------------------------------------- recruitment and rest


def test_recruitment_needs_points_and_room() -> None:
    band = Warband("w", (VET,), points=5, max_models=2, recruits=("warrior", "veteran"))
    assert recruit_options(band, RULES) == ["none", "recruit:warrior"]
    after, recruit = apply_recruit(band, "recruit:warrior", RULES, LIBRARY)
    assert (recruit.id, after.points, len(after.living())) == ("warrior-1", 0, 2)
    assert recruit_options(replace(after, points=50), RULES) == ["none"]  # full


def test_only_an_injured_fit_model_may_rest() -> None:
    assert rest_options(VET) == ["play"]
    assert rest_options(replace(VET, injuries=("lamed",))) == ["play", "rest"]


# ---------------------------------------------------------------- the Oracle's rules


def test_oracle_advance_rules_in_order() -> None:
    oracle = OraclePolicy(RULES)
    warrior = model("warrior", xp=10)  # Mettle 4
    assert oracle.choose("advance", advance_options(warrior, RULES), {"model": warrior})[1] == (
        "mettle-first"
    )
    archer = model("archer", xp=6)  # ranged, agility 3 >= might 1
    assert oracle.choose("advance", advance_options(archer, RULES), {"model": archer})[:2] == (
        "attribute:agility",
        "main-attribute",
    )
    vet = replace(VET, xp=4)
    assert oracle.choose("advance", advance_options(vet, RULES), {"model": vet})[:2] == (
        "talent:tough",
        "talent",
    )
    assert oracle.choose("advance", ["save"], {"model": VET})[0] == "save"


def test_oracle_recruits_the_strongest_affordable_and_rests_the_injured() -> None:
    oracle = OraclePolicy(RULES)
    band = Warband("w", (VET,), points=9, recruits=("warrior", "veteran", "archer"))
    choice = oracle.choose("recruit", recruit_options(band, RULES), {"warband": band})
    assert choice[:2] == ("recruit:veteran", "strongest-affordable")
    hurt = replace(VET, injuries=("lamed",))
    context = {"model": hurt, "fielding_others": 2, "rested": False}
    assert oracle.choose("rest", ["play", "rest"], context)[:2] == ("rest", "rest-injured")
    assert oracle.choose("rest", ["play", "rest"], {**context, "fielding_others": 1})[0] == "play"
    assert oracle.choose("rest", ["play", "rest"], {**context, "rested": True})[0] == "play"


def test_random_policy_is_seeded() -> None:
    options = ["a", "b", "c", "d"]
    picks = [[RandomPolicy(7).choose("advance", options, {})[0] for _ in range(1)] for _ in "xy"]
    assert picks[0] == picks[1]
    assert CampaignDice(3).d6() == CampaignDice(3).d6()


# ---------------------------------------------------------------- reading a mission


def test_read_outcome_from_events() -> None:
    events = [
        {
            "type": "game_start",
            "models": [
                {"id": "a", "side": "blue"},
                {"id": "b", "side": "blue"},
                {"id": "r1", "side": "red"},
            ],
            "momentum": {"blue": 0},
        },
        {"type": "wound", "model": "r1", "amount": 1, "wounds_left": 0, "source": "a"},
        {"type": "down", "model": "r1"},
        {"type": "shot", "shooter": "a", "result": "critical"},
        {"type": "down", "model": "b"},
        {"type": "stabilise", "model": "b", "by": "a"},
        {"type": "objective", "objective": "centre", "side": "blue", "event": "controlled"},
        {"type": "objective", "objective": "centre", "side": "blue", "event": "controlled"},
        {
            "type": "game_end",
            "winner": "blue",
            "draw": False,
            "reason": "eliminate",
            "rounds": 4,
            "points": {"blue": 2, "red": 0},
        },
    ]
    result = read_outcome(events)
    assert result.won and result.objectives == ("centre",)
    assert result.models["a"] == ModelOutcome("a", "active", kills=1, criticals=1)
    assert result.models["b"].ending == "stabilised"
