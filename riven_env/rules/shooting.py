"""Shooting: 2d6 + Agility vs the target's Evasion TN by cover (INTERPRETATION reading 4).

RAW: TN 8 / 10 / 12 for no / soft / hard cover (``[shooting.cover_tn]``), read with the 2d6
bands. Effects by band (``[shooting.effects.*]``): Miss: the shot goes wide and the shooter
rolls on the Complication Oracle; Partial: 1 wound, and (house design of "loses cover or
exposes position") the shooter gains the Exposed Condition: shots at it ignore its cover
until the end of its next activation; Hit: 1 wound; Critical: 1 wound and the target is
pushed back 3". No shooting into a melee unless the shooter is adjacent to a friendly model
in it (``shooting.into_melee_needs_adjacent_friend``).

Cover steps (house rules): the target's Conditions may make shots ignore its cover
(Exposed: ``cover_against_shots = "none"``, which wins) or count it one step better
(Hunkered, Prone: ``"+1"``, capped at the best cover); a weapon trait's ``cover_steps``
(Piercing) counts it that many steps worse. Steps move along ``shooting.cover_order``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from riven_env.errors import RulesDataError
from riven_env.rules.conditions import condition_limits, condition_modifiers
from riven_env.rules.profiles import Weapon, trait_specs
from riven_env.rules.results import Modifier, ShotEffect, ShotResult, TestResult

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig


def cover_order(rules: RulesConfig) -> list[str]:
    """Cover levels from worst (none) to best (hard)."""
    return list(rules.get("shooting.cover_order"))


def shot_tn(cover: str, rules: RulesConfig) -> int:
    """The Evasion TN against a target in ``cover`` (``shooting.cover_tn.COVER``)."""
    table = rules.section("shooting.cover_tn")
    if cover not in table:
        raise RulesDataError(f"{rules.source}: unknown cover {cover!r}; known: {', '.join(table)}")
    return int(table[cover])


def effective_cover(
    cover: str, target_conditions: Iterable[str], weapon: Weapon | None, rules: RulesConfig
) -> str:
    """The cover a shot is resolved against, after the target's Conditions and weapon traits."""
    order = cover_order(rules)
    if cover not in order:
        raise RulesDataError(f"{rules.source}: unknown cover {cover!r}; known: {', '.join(order)}")
    limits = condition_limits(target_conditions, rules)
    if limits.ignores_cover:
        return order[0]
    step = order.index(cover) + limits.cover_steps
    step -= sum(trait.cover_steps for trait in trait_specs(weapon, rules))
    return order[max(0, min(len(order) - 1, step))]


def shot_modifiers(
    *, weapon: Weapon | None, shooter_conditions: Iterable[str], rules: RulesConfig
) -> list[Modifier]:
    """The modifiers to a shot: the weapon's modifier and traits, the shooter's Conditions."""
    modifiers: list[Modifier] = []
    if weapon is not None and weapon.modifier:
        modifiers.append(Modifier(f"weapon:{weapon.name}", weapon.modifier))
    for trait in trait_specs(weapon, rules):
        if trait.shot_modifier:
            modifiers.append(Modifier(f"trait:{trait.name}", trait.shot_modifier))
    modifiers.extend(condition_modifiers(shooter_conditions, "shot", rules))
    return modifiers


def in_range(weapon: Weapon, distance: float) -> bool:
    """Whether a target ``distance`` inches away (edge to edge) is within the weapon's range."""
    return weapon.kind == "ranged" and distance <= weapon.range


def may_shoot_into_melee(shooter_adjacent_to_friend_in_it: bool, rules: RulesConfig) -> bool:
    """Whether a shot at a model engaged in melee is allowed."""
    if not rules.get("shooting.into_melee_needs_adjacent_friend"):
        return True
    return shooter_adjacent_to_friend_in_it


def shot_effect(result_band: str, rules: RulesConfig) -> ShotEffect:
    """What a shot's final band does (``shooting.effects.BAND``)."""
    effects = rules.section("shooting.effects")
    if result_band not in effects:
        raise RulesDataError(f"shot band {result_band!r}: expected one of {', '.join(effects)}")
    table = effects[result_band]
    return ShotEffect(
        wounds=int(table["wounds"]),
        push_distance=float(table["push_distance"]),
        shooter_exposed=bool(table["shooter_exposed"]),
        complication=bool(table["complication"]),
    )


def shot_result(test: TestResult, cover: str, rules: RulesConfig) -> ShotResult:
    """Combine a finalised shot test with its effect."""
    return ShotResult(test=test, cover=cover, effect=shot_effect(test.result, rules))
