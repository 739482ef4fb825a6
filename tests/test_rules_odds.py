"""Exact odds (riven_env.rules.odds): hand-worked cases, invariants, and bad input.

Hand-worked numbers use the bundled rules (RAW readings of INTERPRETATION.md). The
module is imported as ``odds`` (never ``from ... import test_odds``) so that pytest does
not mistake the library function ``test_odds`` for a test.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from scipy.stats import chisquare

from riven_env.errors import RivenError, RulesDataError
from riven_env.rules import odds
from riven_env.rules.config import RulesConfig, load_rules
from riven_env.rules.results import Modifier

# Ways to roll each 2d6 total, by hand: 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 (totals 2..12).
WAYS_2D6 = {total: 6 - abs(total - 7) for total in range(2, 13)}


@pytest.fixture(scope="module")
def rules() -> RulesConfig:
    return load_rules()


@pytest.fixture(scope="module")
def sbh_rules() -> RulesConfig:
    return load_rules(overrides={"activation.turnover": "sbh"})


class StandInRules:
    """A tiny ``.get()`` object for data the real loader would refuse (to test our checks)."""

    def __init__(self, base: RulesConfig, **values: object):
        self._base = base
        self._values = values

    def get(self, key: str) -> object:
        return self._values.get(key.replace(".", "__"), self._base.get(key))


def _outcomes(result: dict[str, F]) -> F:
    return sum(
        (v for k, v in result.items() if k not in ("expected_actions", "p_turn_passes")), F(0)
    )


# ----------------------------------------------------------------------------- dice


def test_two_d6_distribution_is_exact():
    distribution = odds.sum_distribution(2, 6)
    assert distribution == {total: F(ways, 36) for total, ways in WAYS_2D6.items()}
    assert distribution[7] == F(6, 36)
    assert sum(distribution.values()) == 1


# ----------------------------------------------------------------------- activation


def test_activation_mettle4_one_die(rules):
    result = odds.activation_odds(4, 1, rules)
    assert result["one_clean"] == F(1, 2)
    assert result["pass"] == F(1, 2)
    assert result["one_then_pass"] == result["two"] == result["three"] == 0
    assert result["expected_actions"] == F(1, 2)
    assert result["p_turn_passes"] == F(1, 2)


def test_activation_mettle4_two_dice(rules):
    result = odds.activation_odds(4, 2, rules)
    assert result["two"] == F(1, 4)
    assert result["one_then_pass"] == F(1, 2)
    assert result["pass"] == F(1, 4)
    assert result["one_clean"] == 0
    assert result["expected_actions"] == 1
    assert result["p_turn_passes"] == F(3, 4)


def test_activation_mettle3_three_dice(rules):
    # A die succeeds on 3-6: p = 2/3. Binomial(3, 2/3): 1/27, 6/27, 12/27, 8/27.
    result = odds.activation_odds(3, 3, rules)
    assert result["pass"] == F(1, 27)
    assert result["one_then_pass"] == F(6, 27)
    assert result["two"] == F(12, 27)
    assert result["three"] == F(8, 27)
    assert result["one_clean"] == 0
    assert result["expected_actions"] == 2
    assert result["p_turn_passes"] == F(7, 27)


def test_activation_mettle6_and_2_single_die(rules):
    assert odds.activation_odds(6, 1, rules)["one_clean"] == F(1, 6)
    assert odds.activation_odds(2, 1, rules)["one_clean"] == F(5, 6)


def test_activation_sbh_variant(sbh_rules):
    # Under sbh one failed die does not pass the turn; two do (after the actions).
    two_dice = odds.activation_odds(4, 2, sbh_rules)
    assert two_dice["one_clean"] == F(1, 2)
    assert two_dice["one_then_pass"] == 0
    assert two_dice["p_turn_passes"] == F(1, 4)
    three_dice = odds.activation_odds(4, 3, sbh_rules)
    assert three_dice["pass"] == F(1, 8)
    assert three_dice["one_then_pass"] == F(3, 8)
    assert three_dice["two"] == F(3, 8)
    assert three_dice["three"] == F(1, 8)
    assert three_dice["expected_actions"] == F(3, 2)
    assert three_dice["p_turn_passes"] == F(1, 2)


def test_sbh_lone_failed_die_may_keep_the_turn():
    # SBH as printed: with sbh_no_success_passes false, one failed die is not a turnover.
    printed = load_rules(
        overrides={"activation.turnover": "sbh", "activation.sbh_no_success_passes": False}
    )
    assert odds.activation_outcome_keys(printed) == (
        "pass", "zero_clean", "one_then_pass", "one_clean", "two", "three",
    )  # fmt: skip
    one_die = odds.activation_odds(4, 1, printed)
    assert one_die["zero_clean"] == F(1, 2)
    assert one_die["pass"] == 0
    assert one_die["p_turn_passes"] == 0
    assert odds.activation_odds(4, 2, printed)["pass"] == F(1, 4)  # two failures still pass
    assert _outcomes(odds.activation_odds(5, 3, printed)) == 1


def test_sbh_failures_to_pass_is_read_from_data(rules):
    strict = load_rules(
        overrides={"activation.turnover": "sbh", "activation.sbh_failures_to_pass": 1}
    )
    # Any failed die passes the turn: 3 dice at Mettle 4 keep the turn only on 3 successes.
    assert odds.activation_odds(4, 3, strict)["p_turn_passes"] == F(7, 8)
    # Two successes and one failure still give 2 actions.
    assert odds.activation_odds(4, 3, strict)["two"] == F(3, 8)


@pytest.mark.parametrize(
    ("successes", "failures", "raw", "sbh"),
    [
        (0, 1, (0, True), (0, True)),
        (0, 3, (0, True), (0, True)),
        (1, 0, (1, False), (1, False)),
        (1, 1, (1, True), (1, False)),
        (1, 2, (1, True), (1, True)),
        (2, 0, (2, False), (2, False)),
        (2, 1, (2, False), (2, False)),
        (3, 0, (3, False), (3, False)),
    ],
)
def test_activation_outcome_every_case(rules, sbh_rules, successes, failures, raw, sbh):
    assert odds.activation_outcome(successes, failures, rules) == raw
    assert odds.activation_outcome(successes, failures, sbh_rules) == sbh


@pytest.mark.parametrize("turnover", ["raw", "sbh"])
def test_activation_outcomes_sum_to_one_everywhere(turnover):
    rules = load_rules(overrides={"activation.turnover": turnover})
    rows = odds.activation_table(rules)
    assert [(row.mettle, row.dice) for row in rows] == [
        (mettle, dice) for mettle in range(2, 7) for dice in (1, 2, 3)
    ]
    for row in rows:
        assert set(row.odds) == set(odds.ACTIVATION_KEYS)
        assert _outcomes(dict(row.odds)) == 1
        p = F(7 - row.mettle, 6)
        assert row.odds["expected_actions"] == row.dice * p  # mean of Binomial(dice, p)
        assert row.to_dict()["p_turn_passes"] == float(row.odds["p_turn_passes"])


def test_dominated_choices_raw_match_design_finding(rules):
    found = {(c.mettle, c.dice, c.dominated_by) for c in odds.dominated_choices(rules)}
    # INTERPRETATION.md: 3 dice beat 2 dice at every Mettle; at Mettle 4+ or better
    # (thresholds 2-4) 3 dice also beat 1 die. At 5+ and 6+ one die passes less often.
    assert found == {
        (2, 1, 3), (2, 2, 3), (3, 1, 3), (3, 2, 3), (4, 1, 3), (4, 2, 3), (5, 2, 3), (6, 2, 3),
    }  # fmt: skip
    mettle4 = [c for c in odds.dominated_choices(rules) if (c.mettle, c.dice) == (4, 1)]
    assert "1.50 vs 0.50" in mettle4[0].why
    assert "50.0% vs 50.0%" in mettle4[0].why  # a tie on one measure, strict on the other


def test_dominated_choices_sbh_differs(sbh_rules):
    found = {(c.mettle, c.dice, c.dominated_by) for c in odds.dominated_choices(sbh_rules)}
    assert (4, 1, 2) in found  # one failure no longer passes the turn
    assert (5, 2, 3) not in found  # three dice pass more often under sbh


@pytest.mark.parametrize(("mettle", "dice"), [(4, 0), (4, 4), (1, 2), (7, 1), (9, 1)])
def test_activation_refuses_out_of_range(rules, mettle, dice):
    with pytest.raises(odds.OddsInputError) as caught:
        odds.activation_odds(mettle, dice, rules)
    assert caught.value.field in {"mettle", "dice"}
    assert "allowed" in str(caught.value)
    assert isinstance(caught.value, RivenError)


def test_activation_refuses_unknown_turnover_in_data(rules):
    bad = StandInRules(rules, activation__turnover="xyz")
    with pytest.raises(RulesDataError, match="activation.turnover.*raw, sbh"):
        odds.activation_odds(4, 2, bad)


def test_activation_max_dice_is_read_from_data(rules):
    four = StandInRules(rules, activation__max_dice=4)
    result = odds.activation_odds(4, 4, four)
    assert result["actions_4"] == F(1, 16)
    assert result["expected_actions"] == 2
    assert _outcomes(result) == 1


# ------------------------------------------------------------------------ 2d6 tests


def test_standard_test_matches_printed_table(rules):
    assert odds.test_odds(0, 8, rules=rules) == {
        "miss": F(10, 36),  # 2-5
        "partial": F(16, 36),  # 6-8
        "hit": F(9, 36),  # 9-11
        "critical": F(1, 36),  # 12
    }


@pytest.mark.parametrize(
    ("attribute", "tn", "modifier", "expected"),
    [
        # Easy TN 6: miss 2-3, partial 4-6, hit 7-9, critical 10+.
        (0, 6, 0, (3, 12, 15, 6)),
        # Hard TN 10 with Agility 2: the same as TN 8 bare.
        (2, 10, 0, (10, 16, 9, 1)),
        # Brutal TN 12 bare: miss up to 9, partial 10-12, no hit or critical.
        (0, 12, 0, (30, 6, 0, 0)),
        # TN 12 with attribute 3 and +1: totals 6..16; miss <= 9 (2d6 <= 5), partial 10-12
        # (2d6 6-8), hit 13-15 (2d6 9-11), critical 16 (2d6 12).
        (3, 12, 1, (10, 16, 9, 1)),
        # A big penalty: TN 6, attribute 1, modifier -4: 2d6 - 3 vs 6; miss <= 3 means
        # 2d6 <= 6 (15), partial 2d6 7-9 (15), hit 2d6 10-12 (6).
        (1, 6, -4, (15, 15, 6, 0)),
    ],
)
def test_band_edges(rules, attribute, tn, modifier, expected):
    result = odds.test_odds(attribute, tn, modifier, rules=rules)
    assert tuple(result[band] for band in odds.BANDS) == tuple(F(n, 36) for n in expected)
    assert sum(result.values()) == 1


def test_only_the_net_margin_matters(rules):
    for attribute in range(1, 6):
        for tn in (6, 8, 10, 12):
            for modifier in (-3, 0, 2):
                shifted = odds.test_odds(0, tn - attribute - modifier, rules=rules)
                assert odds.test_odds(attribute, tn, modifier, rules=rules) == shifted


def test_bands_are_read_from_data(rules):
    wide = load_rules(overrides={"test.bands.hit_max": 4})
    assert odds.test_odds(0, 8, rules=wide)["critical"] == 0  # 12 - 8 = 4 is now a Hit
    assert odds.test_odds(0, 8, rules=rules)["critical"] == F(1, 36)


def test_bands_out_of_order_are_refused(rules):
    bad = StandInRules(rules, test__bands__partial_max=-5)
    with pytest.raises(RulesDataError, match="miss_max < partial_max < hit_max"):
        odds.test_odds(0, 8, rules=bad)


def test_difficulty_tn(rules):
    assert [odds.difficulty_tn(name, rules) for name in ("easy", "standard", "hard", "brutal")] == [
        6,
        8,
        10,
        12,
    ]
    with pytest.raises(odds.OddsInputError, match="easy, standard, hard, brutal"):
        odds.difficulty_tn("heroic", rules)


def test_non_integer_arguments_are_refused(rules):
    with pytest.raises(odds.OddsInputError, match="attribute"):
        odds.test_odds("3", 8, rules=rules)  # type: ignore[arg-type]
    with pytest.raises(odds.OddsInputError, match="vs_modifier"):
        odds.melee_odds(3, 3, 0, 1.5, rules=rules)  # type: ignore[arg-type]


def test_default_rules_are_loaded_lazily():
    assert odds.test_odds(0, 8) == odds.test_odds(0, 8, rules=load_rules())


# ------------------------------------------------------------------------- shooting


def test_shoot_uses_cover_tn(rules):
    assert odds.shoot_odds(0, "soft", rules=rules) == {
        "miss": F(21, 36),  # 2d6 <= 7
        "partial": F(12, 36),  # 8-10
        "hit": F(3, 36),  # 11-12
        "critical": F(0),
    }
    for cover in ("none", "soft", "hard"):
        tn = rules.get(f"shooting.cover_tn.{cover}")
        assert odds.shoot_odds(3, cover, 1, rules) == odds.test_odds(3, tn, 1, rules)


def test_shoot_refuses_unknown_cover(rules):
    with pytest.raises(odds.OddsInputError, match="none, soft, hard") as caught:
        odds.shoot_odds(2, "glass", rules=rules)
    assert caught.value.field == "cover"


# ---------------------------------------------------------------------------- melee


def test_melee_equal_sides_are_symmetric(rules):
    result = odds.melee_odds(3, 3, rules=rules)
    assert result["parry"] == F(sum(w * w for w in WAYS_2D6.values()), 36 * 36)  # 146/1296
    for effect in ("recoil", "wound", "critical"):
        assert result[f"{effect}_dealt"] == result[f"{effect}_taken"]
    assert sum(result.values()) == 1


def test_melee_critical_by_hand(rules):
    # Might 3 vs 3: critical when a + 3 >= 2(b + 3), i.e. a >= 2b + 3 on the 2d6 rolls.
    # b=2 (1 way): a 7-12 (21 ways); b=3 (2 ways): a 9-12 (10); b=4 (3 ways): a 11-12 (3).
    assert odds.melee_odds(3, 3, rules=rules)["critical_dealt"] == F(21 + 2 * 10 + 3 * 3, 1296)


def test_melee_views_mirror(rules):
    mine = odds.melee_odds(4, 2, 2, -1, rules)
    theirs = odds.melee_odds(2, 4, -1, 2, rules)
    for effect in ("recoil", "wound", "critical"):
        assert mine[f"{effect}_dealt"] == theirs[f"{effect}_taken"]
    assert mine["parry"] == theirs["parry"]
    assert mine["wound_dealt"] + mine["critical_dealt"] > mine["wound_taken"]
    assert sum(mine.values()) == 1


def test_melee_loser_floor(rules):
    # The opponent totals 2d6 - 11 <= 1: every roll of ours (2..12) wins. With the floor of
    # 1, doubling needs only 2: every exchange is a critical.
    assert odds.melee_odds(0, 0, 0, -11, rules)["critical_dealt"] == 1
    # With a floor of 5 doubling needs 10+ (6 ways in 36); the loser's real total still
    # sets the margin, so the rest are wounds (margin >= 5) or recoils.
    floor5 = load_rules(overrides={"melee.critical_loser_floor": 5})
    result = odds.melee_odds(0, 0, 0, -11, floor5)
    assert result["critical_dealt"] == F(6, 36)
    assert result["recoil_dealt"] + result["wound_dealt"] == F(30, 36)


def test_melee_wound_margin_from_data(rules):
    lenient = load_rules(overrides={"melee.wound_margin": 1})
    result = odds.melee_odds(3, 3, rules=lenient)
    assert result["recoil_dealt"] == 0  # every non-critical win is a wound
    assert sum(result.values()) == 1


def test_odds_input_error_pickles():
    import pickle

    error = pickle.loads(pickle.dumps(odds.OddsInputError("dice", 4, "1..3")))
    assert (error.field, error.value, error.allowed) == ("dice", 4, "1..3")
    assert str(error) == "dice=4 is not allowed; allowed: 1..3"


# ------------------------------------------- cross-checks against the resolution engine
#
# The odds are derived independently of riven_env.rules.{activation,tests_2d6,melee}. Two
# kinds of check tie them together: exact enumeration of every dice outcome through the
# engine's pure classifiers, and chi-square goodness of fit of 20,000 seeded rolls of the
# engine's sampling functions against the exact odds.

# A fit this bad (p < 1e-4) is a real disagreement, not bad luck; with a fixed seed the
# verdict is deterministic, and a true match fails only if the seed is that unlucky.
CHI_SQUARE_MIN_P = 1e-4
SAMPLES = 20_000


def _engine_activation_distribution(mettle: int, dice: int, rules) -> dict[str, F]:
    # The engine's classifier over every equally likely roll, scored like activation_odds.
    from riven_env.rules.activation import classify_activation

    keys = (*odds.activation_outcome_keys(rules), "expected_actions", "p_turn_passes")
    result = {key: F(0) for key in keys}
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    for values in rolls:
        activation = classify_activation(values, mettle, rules)
        chance = F(1, len(rolls))
        result[odds.activation_key(activation.actions, activation.turn_passes)] += chance
        result["expected_actions"] += activation.actions * chance
        result["p_turn_passes"] += chance if activation.turn_passes else 0
    return result


def _nonzero_outcomes(result: dict[str, F]) -> dict[str, F]:
    return {
        key: value
        for key, value in result.items()
        if value and key not in ("expected_actions", "p_turn_passes")
    }


def test_activation_matches_engine_classifier_raw(rules):
    for mettle in range(2, 7):
        for dice in (1, 2, 3):
            assert _engine_activation_distribution(mettle, dice, rules) == odds.activation_odds(
                mettle, dice, rules
            )


@pytest.mark.parametrize("no_success_passes", [True, False])
@pytest.mark.parametrize("failures_to_pass", [1, 2, 3])
def test_activation_matches_engine_classifier_sbh(no_success_passes, failures_to_pass):
    sbh_rules = load_rules(
        overrides={
            "activation.turnover": "sbh",
            "activation.sbh_no_success_passes": no_success_passes,
            "activation.sbh_failures_to_pass": failures_to_pass,
        }
    )
    for mettle in range(2, 7):
        for dice in (1, 2, 3):
            assert _engine_activation_distribution(mettle, dice, sbh_rules) == odds.activation_odds(
                mettle, dice, sbh_rules
            )


def test_tests_match_engine_bands(rules):
    from riven_env.rules.tests_2d6 import make_test_roll

    for attribute, tn, modifier in itertools.product(range(0, 6), (6, 8, 10, 12), (-2, 0, 3)):
        counts = dict.fromkeys(odds.BANDS, F(0))
        for dice in itertools.product(range(1, 7), repeat=2):
            roll = make_test_roll(
                "odds", "agility", attribute, tn, [Modifier("m", modifier)], dice, rules
            )
            counts[roll.result] += F(1, 36)
        assert counts == odds.test_odds(attribute, tn, modifier, rules)


def test_melee_matches_engine_classifier(rules):
    from riven_env.rules.melee import melee_from_dice

    for might, vs, modifier, vs_modifier in [
        (3, 3, 0, 0),
        (4, 2, 2, -1),
        (1, 5, 0, -11),
        (2, 2, -3, 0),
    ]:
        counts = dict.fromkeys(odds.MELEE_KEYS, F(0))
        for mine, theirs in itertools.product(itertools.product(range(1, 7), repeat=2), repeat=2):
            result = melee_from_dice(
                mine,
                theirs,
                might,
                vs,
                [Modifier("m", modifier)],
                [Modifier("v", vs_modifier)],
                rules,
            )
            if result.winner is None:
                key = "parry"
            else:
                key = f"{result.outcome}_{'dealt' if result.winner == 'attacker' else 'taken'}"
            counts[key] += F(1, 1296)
        assert counts == odds.melee_odds(might, vs, modifier, vs_modifier, rules)


def _assert_fits(observed: dict[str, int], expected: dict[str, F]) -> None:
    keys = [key for key, p in expected.items() if p > 0]
    assert sum(observed.get(key, 0) for key in keys) == SAMPLES  # nothing impossible happened
    statistic = chisquare(
        [observed.get(key, 0) for key in keys], [float(expected[key]) * SAMPLES for key in keys]
    )
    assert statistic.pvalue > CHI_SQUARE_MIN_P, (observed, statistic)


def test_sampled_activation_fits_exact_odds(rules):
    from riven_env.rules.activation import roll_activation

    rng = np.random.default_rng(12345)
    observed: dict[str, int] = {}
    for _ in range(SAMPLES):
        result = roll_activation(4, 3, rng, rules)
        key = odds.activation_key(result.actions, result.turn_passes)
        observed[key] = observed.get(key, 0) + 1
    _assert_fits(observed, _nonzero_outcomes(odds.activation_odds(4, 3, rules)))


def test_sampled_tests_fit_exact_odds(rules):
    from riven_env.rules.tests_2d6 import finalise, roll_test

    rng = np.random.default_rng(12345)
    observed: dict[str, int] = {}
    for _ in range(SAMPLES):
        result = finalise(roll_test("shot", "agility", 2, 10, [Modifier("aim", 1)], rng, rules))
        observed[result.result] = observed.get(result.result, 0) + 1
    _assert_fits(observed, odds.test_odds(2, 10, 1, rules))


def test_sampled_melee_fits_exact_odds(rules):
    from riven_env.rules.melee import resolve_melee

    rng = np.random.default_rng(12345)
    observed: dict[str, int] = {}
    for _ in range(SAMPLES):
        result = resolve_melee(3, 2, [Modifier("charge", 2)], [], rng, rules)
        if result.winner is None:
            key = "parry"
        else:
            key = f"{result.outcome}_{'dealt' if result.winner == 'attacker' else 'taken'}"
        observed[key] = observed.get(key, 0) + 1
    _assert_fits(observed, odds.melee_odds(3, 2, 2, 0, rules))
