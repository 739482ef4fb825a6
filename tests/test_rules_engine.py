"""Dice mechanics: activation, 2d6 bands and spends, melee, shooting, Down/Out, morale, Strain.

Every test runs twice: on the Python engine and on the native core (tests/rules_engines.py
swaps the rule functions below for their twins in riven_env.native.rules).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pytest
from rules_engines import ENGINES, use_engine

from riven_env.errors import IllegalActionError
from riven_env.rules import (
    BANDS,
    Modifier,
    apply_spend,
    band_for_margin,
    classify_activation,
    classify_melee,
    complication_table,
    difficulty_tn,
    effective_cover,
    finalise,
    gain_strain,
    load_rules,
    make_test_roll,
    may_shoot_into_melee,
    melee_from_dice,
    melee_modifiers,
    out_check_from_die,
    resolve_melee,
    rest_strain,
    roll_activation,
    roll_complication,
    roll_morale,
    roll_out_check,
    roll_test,
    shot_effect,
    shot_modifiers,
    shot_tn,
    spend_options,
)
from riven_env.rules.profiles import Weapon

RULES = load_rules()
SBH = load_rules(overrides={"activation.turnover": "sbh"})

#: The rule functions each test calls, run on both engines.
PORTED = (
    "apply_spend", "band_for_margin", "classify_activation", "classify_melee", "difficulty_tn",
    "effective_cover", "finalise", "gain_strain", "make_test_roll", "may_shoot_into_melee",
    "melee_from_dice", "melee_modifiers", "out_check_from_die", "resolve_melee", "rest_strain",
    "roll_activation", "roll_complication", "roll_morale", "roll_out_check", "roll_test",
    "shot_effect", "shot_modifiers", "shot_tn", "spend_options",
)  # fmt: skip


@pytest.fixture(autouse=True, params=ENGINES)
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test on the Python engine, then on the native core."""
    use_engine(request.param, globals(), PORTED, monkeypatch)
    return str(request.param)


class ScriptedRng:
    """Stands in for a numpy Generator: returns scripted die faces in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def integers(self, low: int, high: int, size: int | None = None) -> object:
        count = 1 if size is None else size
        drawn = [self.faces.pop(0) for _ in range(count)]
        for face in drawn:
            assert low <= face < high, f"scripted face {face} outside {low}..{high - 1}"
        return drawn[0] if size is None else np.array(drawn)


# ---------------------------------------------------------------- activation (reading 2)


@pytest.mark.parametrize(
    ("dice", "actions", "passes", "rule"),
    [
        ((3,), 0, True, "no_successes"),
        ((4,), 1, False, "one_success_clean"),
        ((1, 2), 0, True, "no_successes"),
        ((4, 1), 1, True, "one_success_with_failures"),
        ((1, 1, 6), 1, True, "one_success_with_failures"),
        ((4, 5), 2, False, "multiple_successes"),
        ((6, 4, 1), 2, False, "multiple_successes"),
        ((4, 4, 4), 3, False, "multiple_successes"),
        ((1, 2, 3), 0, True, "no_successes"),
    ],
)
def test_activation_raw_table(dice: tuple[int, ...], actions: int, passes: bool, rule: str) -> None:
    result = classify_activation(dice, 4, RULES)
    assert (result.actions, result.turn_passes, result.rule) == (actions, passes, rule)
    assert result.successes == sum(1 for d in dice if d >= 4)


@pytest.mark.parametrize(
    ("dice", "actions", "passes"),
    [
        ((1,), 0, True),  # no success passes (activation.sbh_no_success_passes)
        ((1, 2), 0, True),
        ((4, 1), 1, False),
        ((4, 1, 1), 1, True),
        ((4, 5, 1), 2, False),
        ((6, 6, 6), 3, False),
    ],
)
def test_activation_sbh_variant(dice: tuple[int, ...], actions: int, passes: bool) -> None:
    result = classify_activation(dice, 4, SBH)
    assert (result.actions, result.turn_passes) == (actions, passes)


def test_activation_sbh_as_printed_lets_one_failed_die_keep_the_turn() -> None:
    printed = load_rules(overrides={"turnover": "sbh", "sbh_no_success_passes": "false"})
    assert not classify_activation((1,), 4, printed).turn_passes
    assert classify_activation((1, 1), 4, printed).turn_passes


def test_activation_die_meets_or_beats_mettle() -> None:
    assert classify_activation((3,), 3, RULES).successes == 1
    assert classify_activation((2,), 3, RULES).successes == 0


def test_activation_dice_count_is_checked() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(IllegalActionError, match="4 dice"):
        roll_activation(4, 4, rng, RULES)
    with pytest.raises(IllegalActionError):
        classify_activation((), 4, RULES)


def test_roll_activation_reads_the_dice_it_rolls() -> None:
    result = roll_activation(4, 3, ScriptedRng([4, 1, 6]), RULES)
    assert result.dice == (4, 1, 6) and result.actions == 2 and not result.turn_passes


# ---------------------------------------------------------------- 2d6 bands (reading 1)


@pytest.mark.parametrize("tn", [6, 8, 10, 12])
def test_band_edges_follow_the_tn(tn: int) -> None:
    def band(total: int) -> str:
        return band_for_margin(total - tn, RULES)

    assert band(tn - 3) == "miss" and band(tn - 2) == "partial"
    assert band(tn) == "partial" and band(tn + 1) == "hit"
    assert band(tn + 3) == "hit" and band(tn + 4) == "critical"


def test_standard_tn_reproduces_the_printed_table() -> None:
    expected = {
        2: "miss",
        5: "miss",
        6: "partial",
        8: "partial",
        9: "hit",
        11: "hit",
        12: "critical",
    }
    for total, band in expected.items():
        assert band_for_margin(total - difficulty_tn("standard", RULES), RULES) == band


def test_difficulties() -> None:
    assert [difficulty_tn(n, RULES) for n in ("easy", "standard", "hard", "brutal")] == [
        6,
        8,
        10,
        12,
    ]


def test_roll_test_total_includes_attribute_and_modifiers() -> None:
    roll = roll_test("rally", "resolve", 2, 8, [Modifier("x", 1)], ScriptedRng([3, 3]), RULES)
    assert roll.total == 9 and roll.result == "hit" and roll.dice == (3, 3)
    result = finalise(roll)
    assert result.total == 9 and result.momentum_gained == 0
    assert json.loads(json.dumps(result.to_dict()))["dice"] == [3, 3]
    assert roll.to_dict()["margin"] == 1


def test_critical_grants_momentum_on_finalise() -> None:
    roll = make_test_roll("shot", "agility", 4, 8, (), (4, 4), RULES)
    assert roll.result == "critical" and finalise(roll).momentum_gained == 1


# ---------------------------------------------------------------- spends


def _options(roll, momentum=5, strain=0, strain_max=6, rules=RULES):  # type: ignore[no-untyped-def]
    return spend_options(roll, momentum=momentum, strain=strain, strain_max=strain_max, rules=rules)


def test_miss_offers_reroll_boost_and_strain() -> None:
    roll = make_test_roll("interact", "wit", 1, 8, (), (1, 2), RULES)  # total 4: miss
    assert _options(roll) == ["reroll:0", "reroll:1", "boost", "strain"]


def test_equal_dice_offer_one_reroll_and_useless_rerolls_are_not_offered() -> None:
    roll = make_test_roll("interact", "wit", 0, 8, (), (2, 2), RULES)  # total 4, a 6 gives 8
    assert _options(roll)[:1] == ["reroll:0"] and "reroll:1" not in _options(roll)
    critical = make_test_roll("shot", "agility", 4, 8, (), (6, 6), RULES)
    assert _options(critical) == []
    # hopeless: brutal TN, even a 6 cannot leave the Miss band
    hopeless = make_test_roll("shot", "agility", 0, 14, (), (1, 1), RULES)
    assert _options(hopeless) == ["boost", "strain"]


def test_boost_never_reaches_critical() -> None:
    hit = make_test_roll("shot", "agility", 3, 8, (), (3, 3), RULES)  # 9: hit
    assert "boost" not in _options(hit)
    partial = make_test_roll("shot", "agility", 2, 8, (), (3, 3), RULES)  # 8: partial
    boosted = apply_spend(partial, "boost", np.random.default_rng(0), RULES)
    assert boosted.result == "hit" and boosted.rolled_result == "partial"
    assert boosted.momentum_spent == 2 and "boost" not in _options(boosted)


def test_strain_turns_a_miss_into_a_partial_once_per_test() -> None:
    miss = make_test_roll("shot", "agility", 0, 12, (), (1, 1), RULES)
    strained = apply_spend(miss, "strain", np.random.default_rng(0), RULES)
    assert strained.result == "partial" and strained.strain_taken == 2
    assert "strain" not in _options(strained)
    with pytest.raises(IllegalActionError):
        apply_spend(strained, "strain", np.random.default_rng(0), RULES)
    # strain then boost: partial -> hit, the most a test can climb
    climbed = apply_spend(strained, "boost", np.random.default_rng(0), RULES)
    assert finalise(climbed).result == "hit" and finalise(climbed).spends == ("strain", "boost")


def test_affordability() -> None:
    miss = make_test_roll("shot", "agility", 1, 8, (), (1, 2), RULES)
    assert _options(miss, momentum=0) == ["strain"]
    assert _options(miss, momentum=1) == ["reroll:0", "reroll:1", "strain"]
    no_overflow = load_rules(overrides={"strain.spend_may_overflow": False})
    assert "strain" not in _options(miss, momentum=0, strain=5, strain_max=6, rules=no_overflow)
    assert "strain" in _options(miss, momentum=0, strain=4, strain_max=6, rules=no_overflow)
    assert "strain" in _options(miss, momentum=0, strain=6, strain_max=6)  # RAW default: may push


def test_reroll_replaces_the_die_and_locks_after_a_shift() -> None:
    miss = make_test_roll("shot", "agility", 1, 8, (), (1, 2), RULES)
    rerolled = apply_spend(miss, "reroll:0", ScriptedRng([6]), RULES)
    assert rerolled.dice == (6, 2) and rerolled.result == "hit" and rerolled.momentum_spent == 1
    assert not any(o.startswith("reroll") for o in _options(rerolled))  # one reroll per test
    shifted = apply_spend(miss, "strain", np.random.default_rng(0), RULES)
    assert not any(o.startswith("reroll") for o in _options(shifted))


def test_a_reroll_can_make_things_worse_and_the_new_die_stands() -> None:
    partial = make_test_roll("shot", "agility", 2, 8, (), (5, 1), RULES)  # 8: partial
    worse = apply_spend(partial, "reroll:0", ScriptedRng([1]), RULES)
    assert worse.dice == (1, 1) and worse.result == "miss"


# ---------------------------------------------------------------- melee (reading 3)


@pytest.mark.parametrize(
    ("attacker", "defender", "outcome", "winner"),
    [
        (9, 9, "parry", None),
        (10, 9, "recoil", "attacker"),
        (13, 9, "recoil", "attacker"),
        (14, 9, "wound", "attacker"),
        (17, 9, "wound", "attacker"),
        (18, 9, "critical", "attacker"),
        (12, 6, "critical", "attacker"),  # double beats a margin of only 6... and margin 5+
        (8, 4, "critical", "attacker"),  # double with a margin of only 4
        (5, 10, "critical", "defender"),  # the initiator can lose
        (7, 10, "recoil", "defender"),
    ],
)
def test_melee_outcomes(attacker: int, defender: int, outcome: str, winner: str | None) -> None:
    assert classify_melee(attacker, defender, RULES) == (outcome, winner)


def test_melee_critical_loser_floor() -> None:
    assert classify_melee(1, 0, RULES) == ("recoil", "attacker")
    assert classify_melee(2, -1, RULES) == ("critical", "attacker")


def test_melee_result_effects() -> None:
    critical = melee_from_dice((6, 6), (1, 1), 3, 2, (), (), RULES)  # 15 vs 4
    assert (critical.outcome, critical.wounds, critical.dazed, critical.condition) == (
        "critical",
        1,
        True,
        "dazed",
    )
    assert critical.loser == "defender"
    recoil = melee_from_dice((3, 3), (2, 2), 3, 3, (), (), RULES)  # 9 vs 7
    assert (recoil.outcome, recoil.wounds, recoil.recoil_distance) == ("recoil", 0, 2.0)
    wound = melee_from_dice((6, 5), (2, 2), 3, 3, (), (), RULES)  # 14 vs 7: double
    assert wound.outcome == "critical"
    wound = melee_from_dice((6, 5), (3, 2), 3, 3, (), (), RULES)  # 14 vs 8: margin 6
    assert (wound.outcome, wound.wounds, wound.dazed) == ("wound", 1, False)


def test_melee_modifiers_charge_first_strike_only_and_outnumbered() -> None:
    first = melee_modifiers(
        weapon=None,
        charge_strike=True,
        enemies_in_contact=1,
        conditions=(),
        defending=False,
        rules=RULES,
    )
    assert first == [Modifier("charge", 2)]
    later = melee_modifiers(
        weapon=None,
        charge_strike=False,
        enemies_in_contact=3,
        conditions=(),
        defending=False,
        rules=RULES,
    )
    assert later == [Modifier("outnumbered", -2)]


def test_melee_modifiers_weapon_traits_and_conditions() -> None:
    spear = Weapon("spear", "melee", 0.0, 1, frozenset({"impact", "shield"}))
    charging = melee_modifiers(
        weapon=spear,
        charge_strike=True,
        enemies_in_contact=1,
        conditions=("shaken",),
        defending=False,
        rules=RULES,
    )
    assert charging == [
        Modifier("charge", 2),
        Modifier("weapon:spear", 1),
        Modifier("trait:impact", 1),
        Modifier("condition:shaken", -1),
    ]
    defending = melee_modifiers(
        weapon=spear,
        charge_strike=False,
        enemies_in_contact=1,
        conditions=(),
        defending=True,
        rules=RULES,
    )
    assert defending == [Modifier("weapon:spear", 1), Modifier("trait:shield", 1)]


# ---------------------------------------------------------------- shooting (reading 4)


def test_shot_tn_by_cover_and_bands() -> None:
    assert [shot_tn(c, RULES) for c in ("none", "soft", "hard")] == [8, 10, 12]
    assert band_for_margin(13 - shot_tn("hard", RULES), RULES) == "hit"
    assert band_for_margin(12 - shot_tn("hard", RULES), RULES) == "partial"


def test_shot_effects() -> None:
    miss, partial, hit, critical = (shot_effect(b, RULES) for b in BANDS)
    assert (miss.wounds, miss.complication, miss.shooter_exposed) == (0, True, False)
    assert (partial.wounds, partial.shooter_exposed, partial.complication) == (1, True, False)
    assert (hit.wounds, hit.shooter_exposed, hit.push_distance) == (1, False, 0.0)
    assert (critical.wounds, critical.push_distance) == (1, 3.0)


def test_cover_steps_from_conditions_and_traits() -> None:
    rifle = Weapon("rifle", "ranged", 24.0, 0, frozenset({"piercing"}))
    assert effective_cover("hard", ("exposed",), None, RULES) == "none"
    assert effective_cover("hard", ("exposed", "hunkered"), None, RULES) == "none"
    assert effective_cover("none", ("hunkered",), None, RULES) == "soft"
    assert effective_cover("hard", ("hunkered", "prone"), None, RULES) == "hard"
    assert effective_cover("soft", (), rifle, RULES) == "none"
    assert effective_cover("soft", ("hunkered",), rifle, RULES) == "soft"


def test_shot_modifiers_and_melee_rule() -> None:
    bow = Weapon("bow", "ranged", 18.0, 0, frozenset({"accurate"}))
    mods = shot_modifiers(weapon=bow, shooter_conditions=("aiming", "pinned"), rules=RULES)
    assert mods == [
        Modifier("trait:accurate", 1),
        Modifier("condition:aiming", 1),
        Modifier("condition:pinned", -1),
    ]
    assert not may_shoot_into_melee(False, RULES) and may_shoot_into_melee(True, RULES)


# ---------------------------------------------------------------- Down/Out, morale


def test_out_check_die_vs_mettle() -> None:
    assert out_check_from_die(4, 3).out and not out_check_from_die(4, 4).out
    assert roll_out_check(5, ScriptedRng([4]), RULES).out
    assert not roll_out_check(5, ScriptedRng([5]), RULES).out


def test_morale_pass_and_fail_with_flee_distance() -> None:
    passed = roll_morale(4, ScriptedRng([4]), RULES)
    assert passed.passed and passed.flee_distance == 0.0 and passed.flee_dice == ()
    failed = roll_morale(4, ScriptedRng([3, 5]), RULES)
    assert not failed.passed and failed.flee_dice == (5,) and failed.flee_distance == 8.0
    shortest = roll_morale(6, ScriptedRng([1, 1]), RULES)
    assert shortest.flee_distance == 4.0


# ---------------------------------------------------------------- Strain, complications


def test_strain_gain_within_the_track_rolls_nothing() -> None:
    change = gain_strain(2, 3, 6, ScriptedRng([]), RULES)
    assert (change.new_value, change.overflow, change.condition_gained) == (5, False, "")


@pytest.mark.parametrize(
    ("face", "condition"),
    [(1, "dazed"), (2, "shaken"), (3, "exhausted"), (4, "prone"), (5, "pinned"), (6, "bleeding")],
)
def test_strain_overflow_rolls_a_condition_and_drops_to_the_max(face: int, condition: str) -> None:
    change = gain_strain(5, 2, 6, ScriptedRng([face]), RULES)
    assert change.overflow and change.new_value == 6 and change.condition_gained == condition
    assert change.roll == face


def test_rest_removes_four_strain() -> None:
    assert rest_strain(6, RULES).new_value == 2 and rest_strain(3, RULES).new_value == 0


def test_complication_table_covers_every_face_with_known_effects() -> None:
    table = complication_table(RULES)
    assert sorted(table) == [1, 2, 3, 4, 5, 6]
    effects = {entry.effect for entry in table.values()}
    assert effects == {
        "strain",
        "end_activation",
        "enemy_momentum",
        "lose_momentum",
        "condition",
        "exposed",
    }
    for face in range(1, 7):
        entry = roll_complication(ScriptedRng([face]), RULES)
        assert entry.roll == face and entry.name and entry.text
        assert set(entry.flavour) == {"fantasy", "scifi"}


# ---------------------------------------------------------------- determinism


def _session(seed: int) -> str:
    rng = np.random.default_rng(seed)
    records = [
        roll_activation(4, 3, rng, RULES),
        roll_test("shot", "agility", 3, 10, [], rng, RULES),
        roll_morale(5, rng, RULES),
        roll_out_check(4, rng, RULES),
        roll_complication(rng, RULES),
        gain_strain(5, 4, 6, rng, RULES),
    ]
    pending = roll_test("disengage", "agility", 1, 8, [], rng, RULES)
    options = _options(pending)
    if options:
        pending = apply_spend(pending, options[0], rng, RULES)
    records.append(finalise(pending))
    records.append(resolve_melee(3, 2, [Modifier("charge", 2)], [], rng, RULES))
    return json.dumps([r.to_dict() for r in records], sort_keys=True)


def test_same_seed_same_results_byte_for_byte() -> None:
    assert _session(7) == _session(7)
    assert len({_session(seed) for seed in range(8)}) > 1
