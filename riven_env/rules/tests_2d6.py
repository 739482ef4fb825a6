"""The 2d6 test engine: roll, optional spends, finalise.

RAW (INTERPRETATION reading 1): total = 2d6 + attribute + modifiers; margin = total - TN;
bands by margin (``[test.bands]``): Miss <= -3, Partial -2..0, Hit +1..+3, Critical >= +4.
A Critical grants ``momentum.gain.critical`` Momentum (the caller adds it to the pool).

Spending is the controlling agent's choice, made between :func:`roll_test` and
:func:`finalise`. Options (see :func:`spend_options`):

- ``"reroll:I"``: Momentum (``momentum.cost.reroll``) rerolls die I; the new die stands.
- ``"boost"``: Momentum (``momentum.cost.boost``) moves the result up one tier, up to
  ``momentum.boost_ceiling`` (RAW: Miss -> Partial -> Hit, never to Critical).
- ``"strain"``: the model takes ``strain.spend_cost`` Strain to turn a Miss into a Partial.

Stacking (house rule): per test at most ``momentum.max_rerolls_per_test`` rerolls (1),
``momentum.max_boosts_per_test`` boosts (1) and one Strain spend (RAW: once per test).
Rerolls come first: once a boost or Strain shifted the result, the dice are locked. An option
is offered only when it is affordable and can improve the result (a reroll of a die whose
every face gives the same or a worse band is not offered; of two equal dice only the first
is offered), which keeps the decision space small and free of dominated moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from riven_env.errors import IllegalActionError, RulesDataError
from riven_env.rules.dice import roll_2d6, roll_die
from riven_env.rules.momentum import momentum_cost
from riven_env.rules.results import BANDS, Modifier, TestResult, TestRoll
from riven_env.rules.strain import can_take_strain

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig

REROLL_PREFIX = "reroll:"
BOOST = "boost"
STRAIN = "strain"


def band_for_margin(margin: int, rules: RulesConfig) -> str:
    """The band of a margin (total - TN): ``"miss"``, ``"partial"``, ``"hit"`` or ``"critical"``."""
    if margin <= int(rules.get("test.bands.miss_max")):
        return "miss"
    if margin <= int(rules.get("test.bands.partial_max")):
        return "partial"
    if margin <= int(rules.get("test.bands.hit_max")):
        return "hit"
    return "critical"


def band_tier(band: str) -> int:
    """A band's tier, 0 (miss) to 3 (critical)."""
    if band not in BANDS:
        raise RulesDataError(f"band {band!r}: expected one of {', '.join(BANDS)}")
    return BANDS.index(band)


def difficulty_tn(name: str, rules: RulesConfig) -> int:
    """The TN of a named difficulty (``test.difficulty.NAME``: easy, standard, hard, brutal)."""
    table = rules.section("test.difficulty")
    if name not in table:
        raise RulesDataError(
            f"{rules.source}: unknown difficulty {name!r}; known: {', '.join(table)}"
        )
    return int(table[name])


def roll_test(
    kind: str,
    attribute: str,
    attribute_value: int,
    tn: int,
    modifiers: Sequence[Modifier],
    rng: np.random.Generator,
    rules: RulesConfig,
) -> TestRoll:
    """Roll a 2d6 test to a pending record (spends may follow, then :func:`finalise`)."""
    dice = roll_2d6(rng, int(rules.get("dice.faces")))
    return make_test_roll(kind, attribute, attribute_value, tn, modifiers, dice, rules)


def make_test_roll(
    kind: str,
    attribute: str,
    attribute_value: int,
    tn: int,
    modifiers: Sequence[Modifier],
    dice: tuple[int, int],
    rules: RulesConfig,
) -> TestRoll:
    """Build a pending test from known dice (pure: for replays, odds and tests)."""
    mods = tuple(modifiers)
    total = sum(dice) + attribute_value + sum(m.value for m in mods)
    band = band_for_margin(total - tn, rules)
    return TestRoll(
        kind=kind,
        attribute=attribute,
        attribute_value=attribute_value,
        modifiers=mods,
        tn=tn,
        dice=(int(dice[0]), int(dice[1])),
        rolled_result=band,
        result=band,
        critical_momentum=int(rules.get("momentum.gain.critical")),
    )


def _shifted(roll: TestRoll) -> bool:
    return any(not s.startswith(REROLL_PREFIX) for s in roll.spends)


def _structural_options(roll: TestRoll, rules: RulesConfig) -> list[str]:
    """Spends allowed by the per-test limits and able to improve the result (cost ignored)."""
    options: list[str] = []
    tier = band_tier(roll.result)
    rerolls = sum(1 for s in roll.spends if s.startswith(REROLL_PREFIX))
    if rerolls < int(rules.get("momentum.max_rerolls_per_test")) and not _shifted(roll):
        faces = int(rules.get("dice.faces"))
        seen: set[int] = set()
        for index, value in enumerate(roll.dice):
            if value in seen:
                continue
            seen.add(value)
            rest = roll.total - value
            best = band_for_margin(rest + faces - roll.tn, rules)
            if band_tier(best) > tier:
                options.append(f"{REROLL_PREFIX}{index}")
    boosts = roll.spends.count(BOOST)
    ceiling = band_tier(str(rules.get("momentum.boost_ceiling")))
    if boosts < int(rules.get("momentum.max_boosts_per_test")) and tier < ceiling:
        options.append(BOOST)
    if STRAIN not in roll.spends and roll.result == "miss":
        options.append(STRAIN)
    return options


def spend_options(
    roll: TestRoll, *, momentum: int, strain: int, strain_max: int, rules: RulesConfig
) -> list[str]:
    """The spends legal now: within the per-test limits, able to improve, and affordable.

    Args:
        roll: The pending test.
        momentum: The pool before this test's spends (``roll.momentum_spent`` is deducted).
        strain: The model's Strain before this test's spends (``roll.strain_taken`` is added).
        strain_max: The model's track maximum.
        rules: The rules.

    Returns:
        Options in a stable order: ``"reroll:0"``, ``"reroll:1"``, ``"boost"``, ``"strain"``.
    """
    pool = momentum - roll.momentum_spent
    legal = []
    for option in _structural_options(roll, rules):
        if option == STRAIN:
            cost = int(rules.get("strain.spend_cost"))
            if can_take_strain(strain + roll.strain_taken, cost, strain_max, rules):
                legal.append(option)
        elif pool >= momentum_cost(BOOST if option == BOOST else "reroll", rules):
            legal.append(option)
    return legal


def apply_spend(
    roll: TestRoll, option: str, rng: np.random.Generator, rules: RulesConfig
) -> TestRoll:
    """Apply one spend and return the new pending test.

    Affordability is the caller's to check (via :func:`spend_options`); this function checks
    the per-test limits and that the spend can improve the result.

    Raises:
        IllegalActionError: The option is not allowed on this test now.
    """
    allowed = _structural_options(roll, rules)
    if option not in allowed:
        raise IllegalActionError(
            option, allowed, reason=f"spend on a {roll.result} {roll.kind} test"
        )
    spends = (*roll.spends, option)
    if option.startswith(REROLL_PREFIX):
        index = int(option[len(REROLL_PREFIX) :])
        dice = list(roll.dice)
        dice[index] = roll_die(rng, int(rules.get("dice.faces")))
        rerolled = make_test_roll(
            roll.kind,
            roll.attribute,
            roll.attribute_value,
            roll.tn,
            roll.modifiers,
            (dice[0], dice[1]),
            rules,
        )
        return replace(
            roll,
            dice=rerolled.dice,
            rolled_result=rerolled.rolled_result,
            result=rerolled.result,
            spends=spends,
            momentum_spent=roll.momentum_spent + momentum_cost("reroll", rules),
        )
    if option == BOOST:
        return replace(
            roll,
            result=BANDS[band_tier(roll.result) + 1],
            spends=spends,
            momentum_spent=roll.momentum_spent + momentum_cost(BOOST, rules),
        )
    return replace(
        roll,
        result="partial",
        spends=spends,
        strain_taken=roll.strain_taken + int(rules.get("strain.spend_cost")),
    )


def finalise(roll: TestRoll) -> TestResult:
    """Close a test: no more spends. A Critical result sets ``momentum_gained``."""
    return TestResult(
        kind=roll.kind,
        attribute=roll.attribute,
        attribute_value=roll.attribute_value,
        modifiers=roll.modifiers,
        tn=roll.tn,
        dice=roll.dice,
        total=roll.total,
        result=roll.result,
        rolled_result=roll.rolled_result,
        spends=roll.spends,
        momentum_spent=roll.momentum_spent,
        strain_taken=roll.strain_taken,
        momentum_gained=roll.critical_momentum if roll.result == "critical" else 0,
    )
