"""Melee: an opposed roll, 2d6 + Might (+ modifiers) each, compared (INTERPRETATION reading 3).

Outcome, checked in this order (RAW):

1. equal totals: **parry**, nothing happens;
2. the winner's total is at least ``melee.critical_ratio`` (2) times the loser's: **critical**,
   ``melee.critical_wounds`` wound(s) and the loser gains ``melee.critical_condition`` (Dazed);
   a critical beats the margin test, so 12 vs 6 is a critical, not a plain wound;
3. margin >= ``melee.wound_margin`` (5): **wound**, ``melee.wound_wounds`` wound(s);
4. otherwise (margin 1-4): **recoil**, the loser moves ``melee.recoil_distance`` (2") directly
   away (the game loop may then call a morale test: trigger ``recoiled``).

The initiator can lose. Opposed melee has no bands, so Momentum rerolls and boosts and Strain
do not apply to it (house decision: spends belong to 2d6 tests against a TN). House rule for a
corner case: a loser total below ``melee.critical_loser_floor`` (1) counts as that floor in the
double test, so heavy penalties cannot make every win a critical.

Modifiers (:func:`melee_modifiers`): charge +2 on the first strike only (RAW), outnumbered -1
per enemy in base contact beyond the first (RAW), the weapon's modifier and traits and the
model's Conditions (house rules).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from riven_env.rules.conditions import condition_modifiers
from riven_env.rules.dice import roll_2d6
from riven_env.rules.profiles import Weapon, trait_specs
from riven_env.rules.results import MeleeResult, Modifier, modifiers_total

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig


def melee_modifiers(
    *,
    weapon: Weapon | None,
    charge_strike: bool,
    enemies_in_contact: int,
    conditions: Iterable[str],
    defending: bool,
    rules: RulesConfig,
) -> list[Modifier]:
    """The modifiers to one side's melee roll.

    Args:
        weapon: The melee weapon used (``None``: no weapon modifiers).
        charge_strike: Whether this is the charging model's first strike (the Charge action).
        enemies_in_contact: Enemy models in base contact with this model (including the foe).
        conditions: The model's Conditions.
        defending: Whether this model did not start the fight (for ``defend_modifier`` traits).
        rules: The rules.
    """
    modifiers: list[Modifier] = []
    if charge_strike:
        modifiers.append(Modifier("charge", int(rules.get("melee.charge_bonus"))))
    extra_enemies = max(0, enemies_in_contact - 1)
    if extra_enemies:
        penalty = int(rules.get("melee.outnumbered_penalty")) * extra_enemies
        if penalty:
            modifiers.append(Modifier("outnumbered", -penalty))
    if weapon is not None and weapon.modifier:
        modifiers.append(Modifier(f"weapon:{weapon.name}", weapon.modifier))
    for trait in trait_specs(weapon, rules):
        value = trait.melee_modifier
        value += trait.charge_modifier if charge_strike else 0
        value += trait.defend_modifier if defending else 0
        if value:
            modifiers.append(Modifier(f"trait:{trait.name}", value))
    modifiers.extend(condition_modifiers(conditions, "melee", rules))
    return modifiers


def classify_melee(
    attacker_total: int, defender_total: int, rules: RulesConfig
) -> tuple[str, str | None]:
    """The outcome and winner of two melee totals (pure).

    Returns:
        ``(outcome, winner)``: outcome ``"parry"``, ``"recoil"``, ``"wound"`` or
        ``"critical"``; winner ``"attacker"``, ``"defender"`` or ``None`` on a parry.
    """
    if attacker_total == defender_total:
        return "parry", None
    winner = "attacker" if attacker_total > defender_total else "defender"
    high, low = max(attacker_total, defender_total), min(attacker_total, defender_total)
    floor = int(rules.get("melee.critical_loser_floor"))
    if high >= int(rules.get("melee.critical_ratio")) * max(low, floor):
        return "critical", winner
    if high - low >= int(rules.get("melee.wound_margin")):
        return "wound", winner
    return "recoil", winner


def melee_from_dice(
    attacker_dice: tuple[int, int],
    defender_dice: tuple[int, int],
    attacker_might: int,
    defender_might: int,
    attacker_modifiers: Sequence[Modifier],
    defender_modifiers: Sequence[Modifier],
    rules: RulesConfig,
) -> MeleeResult:
    """Resolve a melee from known dice (pure)."""
    attacker_total = sum(attacker_dice) + attacker_might + modifiers_total(list(attacker_modifiers))
    defender_total = sum(defender_dice) + defender_might + modifiers_total(list(defender_modifiers))
    outcome, winner = classify_melee(attacker_total, defender_total, rules)
    wounds = {
        "wound": int(rules.get("melee.wound_wounds")),
        "critical": int(rules.get("melee.critical_wounds")),
    }.get(outcome, 0)
    condition = str(rules.get("melee.critical_condition")) if outcome == "critical" else ""
    return MeleeResult(
        attacker_dice=attacker_dice,
        defender_dice=defender_dice,
        attacker_modifiers=tuple(attacker_modifiers),
        defender_modifiers=tuple(defender_modifiers),
        attacker_total=attacker_total,
        defender_total=defender_total,
        outcome=outcome,
        winner=winner,
        wounds=wounds,
        dazed=condition == "dazed",
        recoil_distance=float(rules.get("melee.recoil_distance")) if outcome == "recoil" else 0.0,
        condition=condition,
    )


def resolve_melee(
    attacker_might: int,
    defender_might: int,
    attacker_modifiers: Sequence[Modifier],
    defender_modifiers: Sequence[Modifier],
    rng: np.random.Generator,
    rules: RulesConfig,
) -> MeleeResult:
    """Roll and resolve one melee: the attacker's 2d6 first, then the defender's."""
    faces = int(rules.get("dice.faces"))
    attacker_dice = roll_2d6(rng, faces)
    defender_dice = roll_2d6(rng, faces)
    return melee_from_dice(
        attacker_dice,
        defender_dice,
        attacker_might,
        defender_might,
        attacker_modifiers,
        defender_modifiers,
        rules,
    )
