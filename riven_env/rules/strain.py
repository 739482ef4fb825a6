"""Strain: each model's track of physical and mental pressure.

RAW: the track maximum is Wit x 2 (``strain.track_per_wit``); taking 2 Strain turns one Miss
into a Partial, once per test (``strain.spend_cost``); the Rest action removes 4
(``strain.rest_removes``); exceeding the track gives a Condition. House rules: the sources in
``[strain.gain]`` (activating with the maximum dice, taking a wound, being recoiled; the
"stress" complication), the d6 Condition table ``[strain.overflow_table]``, and that Strain
drops back to the track maximum after an overflow (one roll per overflow, however far over).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from riven_env.errors import RulesDataError
from riven_env.rules.dice import roll_dice
from riven_env.rules.results import StrainChange

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig


def strain_max(wit: int, rules: RulesConfig) -> int:
    """Track maximum for a Wit rating."""
    return wit * int(rules.get("strain.track_per_wit"))


def strain_gain_amount(source: str, rules: RulesConfig) -> int:
    """Strain a source gives (``strain.gain.SOURCE``: max_dice_activation, wound, recoiled)."""
    gains = rules.section("strain.gain")
    if source not in gains:
        raise RulesDataError(
            f"{rules.source}: unknown Strain source {source!r}; known: {', '.join(gains)}"
        )
    return int(gains[source])


def overflow_condition(face: int, rules: RulesConfig) -> str:
    """The Condition of the overflow table for a die face."""
    return str(rules.get(f"strain.overflow_table.{face}"))


def gain_strain(
    current: int, amount: int, strain_max: int, rng: np.random.Generator, rules: RulesConfig
) -> StrainChange:
    """Add Strain; on exceeding the track, roll a Condition and drop back to the maximum.

    The die is rolled only on an overflow, so a gain that stays on the track draws nothing
    from ``rng``.

    Args:
        current: Strain now (0..strain_max).
        amount: Strain gained (>= 0).
        strain_max: The model's track maximum.
        rng: The game's Generator.
        rules: The rules.
    """
    if amount < 0:
        raise RulesDataError(f"gain_strain amount = {amount}: expected >= 0 (use rest_strain)")
    total = current + amount
    if total <= strain_max:
        return StrainChange(old_value=current, new_value=total, overflow=False)
    (face,) = roll_dice(rng, 1, int(rules.get("dice.faces")))
    return StrainChange(
        old_value=current,
        new_value=strain_max,
        overflow=True,
        roll=face,
        condition_gained=overflow_condition(face, rules),
    )


def rest_strain(current: int, rules: RulesConfig) -> StrainChange:
    """The Rest action: remove ``strain.rest_removes`` Strain (not below 0)."""
    return StrainChange(
        old_value=current,
        new_value=max(0, current - int(rules.get("strain.rest_removes"))),
        overflow=False,
    )


def can_take_strain(current: int, amount: int, strain_max: int, rules: RulesConfig) -> bool:
    """Whether a model may take Strain by choice (a spend): within the track, or overflow allowed."""
    return current + amount <= strain_max or bool(rules.get("strain.spend_may_overflow"))
