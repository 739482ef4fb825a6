"""The activation roll: 1-3 d6 against the model's Mettle threshold.

RAW (INTERPRETATION reading 2, ``activation.turnover = "raw"``), a die succeeds when it meets
or beats Mettle, and the table is read literally:

==============================  =========  ==================
dice                            actions    turn
==============================  =========  ==================
0 successes                     0          passes
1 success, at least 1 failure   1          passes after
1 success on 1 die              1          side may go on
2 or 3 successes                that many  side may go on
==============================  =========  ==================

Variant ``"sbh"`` (Song of Blades and Heroes): actions = successes, and the turn passes after
the activation when ``activation.sbh_failures_to_pass`` (2) or more dice failed, or, with
``activation.sbh_no_success_passes`` (default true), when no die succeeded (as printed, SBH
lets a single failed die keep the turn: set it false for that).

A design finding (see docs/rules-reference.md): under RAW, 3 dice give more actions than 2
and pass the turn less often at every Mettle, so 2 dice is a dominated choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from riven_env.errors import IllegalActionError
from riven_env.rules.dice import roll_dice
from riven_env.rules.results import ActivationResult

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig


def classify_activation(
    dice_values: Sequence[int], mettle: int, rules: RulesConfig
) -> ActivationResult:
    """Read activation dice under the configured turnover rule (pure; no randomness).

    Args:
        dice_values: The dice rolled (1 to ``activation.max_dice`` of them).
        mettle: The model's Mettle threshold.
        rules: The rules.

    Raises:
        IllegalActionError: Too many or too few dice.
    """
    max_dice = int(rules.get("activation.max_dice"))
    dice = tuple(int(v) for v in dice_values)
    if not 1 <= len(dice) <= max_dice:
        raise IllegalActionError(
            f"activation with {len(dice)} dice",
            legal=range(1, max_dice + 1),
            reason="activation.max_dice",
        )
    successes = sum(1 for v in dice if v >= mettle)
    failures = len(dice) - successes
    if rules.get("activation.turnover") == "sbh":
        if failures >= int(rules.get("activation.sbh_failures_to_pass")):
            passes, rule = True, "sbh_failures_pass"
        elif successes == 0 and rules.get("activation.sbh_no_success_passes"):
            passes, rule = True, "sbh_no_success"
        else:
            passes, rule = False, "sbh_continue"
        return ActivationResult(mettle, dice, successes, successes, passes, rule)
    if successes == 0:
        return ActivationResult(mettle, dice, 0, 0, True, "no_successes")
    if successes == 1 and failures > 0:
        return ActivationResult(mettle, dice, 1, 1, True, "one_success_with_failures")
    if successes == 1:
        return ActivationResult(mettle, dice, 1, 1, False, "one_success_clean")
    return ActivationResult(mettle, dice, successes, successes, False, "multiple_successes")


def roll_activation(
    mettle: int, dice: int, rng: np.random.Generator, rules: RulesConfig
) -> ActivationResult:
    """Roll ``dice`` activation dice against ``mettle`` and classify them."""
    max_dice = int(rules.get("activation.max_dice"))
    if not 1 <= dice <= max_dice:
        raise IllegalActionError(
            f"activate with {dice} dice",
            legal=range(1, max_dice + 1),
            reason="activation.max_dice",
        )
    return classify_activation(roll_dice(rng, dice, int(rules.get("dice.faces"))), mettle, rules)
