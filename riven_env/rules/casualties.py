"""Down and Out (INTERPRETATION reading 5, RAW).

A model at 0 wounds is Down: it cannot activate. At the end of each turn of its own side an
unstabilised Down model rolls one die vs its Mettle; failure (below Mettle) means Out. An ally
within ``distances.stabilise_range`` (3") may spend ``casualties.stabilise_cost`` (1) action to
stabilise it: it stays Down but stops rolling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from riven_env.rules.dice import roll_dice
from riven_env.rules.results import OutCheckResult

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig


def out_check_from_die(mettle: int, die: int) -> OutCheckResult:
    """Read an Out check die (pure): below Mettle is Out."""
    return OutCheckResult(mettle=mettle, die=die, out=die < mettle)


def roll_out_check(mettle: int, rng: np.random.Generator, rules: RulesConfig) -> OutCheckResult:
    """Roll the end-of-turn check of an unstabilised Down model."""
    (die,) = roll_dice(
        rng, int(rules.get("casualties.out_check_dice")), int(rules.get("dice.faces"))
    )
    return out_check_from_die(mettle, die)


def stabilise_range(rules: RulesConfig) -> float:
    """Inches within which an ally may stabilise a Down model."""
    return float(rules.get("distances.stabilise_range"))


def roll_wound_check(mettle: int, rng: np.random.Generator, rules: RulesConfig) -> tuple[int, bool]:
    """End-of-turn wound check of a Condition such as Bleeding (``end_of_turn_wound_check``).

    Returns:
        ``(die, wounded)``: one die vs Mettle; below Mettle means 1 wound.
    """
    (die,) = roll_dice(rng, 1, int(rules.get("dice.faces")))
    return die, die < mettle
