"""A profile made ready to play: its conditions bound to their predicates, its words written.

The engine walks a profile's rules at every decision point, and explains the rule that
fires in the words of the printed cards. Both depend on the profile alone, so
:func:`compiled` prepares them once per profile: each condition list becomes a tuple of
``(predicate, argument, negated)`` checks, and each rule's card line is written out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from riven_agents.oracle import words
from riven_agents.oracle.profiles import (
    ActionRef,
    Condition,
    DiceRule,
    OracleProfile,
    PriorityRule,
    target_side,
)
from riven_agents.oracle.situation import PREDICATES, Situation

Check = tuple[Callable[[Situation, object], bool], object, bool]
"""One condition ready to test: its predicate, argument and whether it is negated."""

_CACHE_LIMIT = 64  # profiles in play at once are a handful; a guard against reloading loops
_cache: dict[int, tuple[OracleProfile, CompiledProfile]] = {}


def checks_for(conditions: Sequence[Condition]) -> tuple[Check, ...]:
    """The conditions as checks for :func:`all_pass`."""
    return tuple((PREDICATES[c.name], c.arg, c.negated) for c in conditions)


def all_pass(situation: Situation, checks: Sequence[Check]) -> bool:
    """Whether every check holds (as :func:`riven_agents.oracle.situation.all_hold`)."""
    # A plain loop rather than all(): no generator per call on the hottest path.
    for predicate, arg, negated in checks:  # noqa: SIM110
        if predicate(situation, arg) == negated:
            return False
    return True


@dataclass(frozen=True)
class Order:
    """An action to take with whose models its target is picked from, and by which selector.

    Attributes:
        action: The action.
        side: ``"enemy"``, ``"friend"`` or ``""`` (see :func:`~agents.oracle.profiles.target_side`).
        selector: The target selector (the rule's, else the profile's), or None without a side.
    """

    action: ActionRef
    side: str
    selector: str | None


@dataclass(frozen=True)
class CompiledRule:
    """A priority rule with its checks, its order and its card line."""

    rule: PriorityRule
    checks: tuple[Check, ...]
    order: Order
    text: str


@dataclass(frozen=True)
class CompiledDice:
    """A dice rule with its checks and its card line."""

    rule: DiceRule
    checks: tuple[Check, ...]
    text: str


@dataclass(frozen=True)
class CompiledProfile:
    """What the engine needs of one profile at every decision point.

    Attributes:
        profile: The profile.
        hold_when: Checks of its ``hold_when`` (empty: it never holds back).
        bonus_when: Checks of its bonus policy's conditions (empty without a policy).
        bonus_text: The bonus policy's card line ("" without a policy).
        dice: Its dice rules, in order.
        priorities: Its priority rules, in order.
        fallback: The order of each face of its fallback table, by face - 1.
        fallback_texts: The card line of each face of its fallback table, by face - 1.
    """

    profile: OracleProfile
    hold_when: tuple[Check, ...]
    bonus_when: tuple[Check, ...]
    bonus_text: str
    dice: tuple[CompiledDice, ...]
    priorities: tuple[CompiledRule, ...]
    fallback: tuple[Order, ...]
    fallback_texts: tuple[str, ...]


def compiled(profile: OracleProfile) -> CompiledProfile:
    """The compiled form of ``profile`` (built once per profile object, then remembered)."""
    entry = _cache.get(id(profile))
    if entry is not None and entry[0] is profile:
        return entry[1]
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    found = _compile(profile)
    _cache[id(profile)] = (profile, found)  # holds the profile so its id is not reused
    return found


def _compile(profile: OracleProfile) -> CompiledProfile:
    bonus = profile.bonus
    return CompiledProfile(
        profile=profile,
        hold_when=checks_for(profile.hold_when),
        bonus_when=checks_for(bonus.when) if bonus is not None else (),
        bonus_text=words.bonus_text(bonus) if bonus is not None else "",
        dice=tuple(
            CompiledDice(rule, checks_for(rule.when), words.dice_rule_text(rule))
            for rule in profile.dice
        ),
        priorities=tuple(
            CompiledRule(
                rule,
                checks_for(rule.when),
                _order(profile, rule.action, rule.target),
                words.rule_text(rule, profile),
            )
            for rule in profile.priorities
        ),
        fallback=tuple(_order(profile, entry.action, entry.target) for entry in profile.fallback),
        fallback_texts=tuple(
            words.fallback_text(profile, roll) for roll in range(1, len(profile.fallback) + 1)
        ),
    )


def _order(profile: OracleProfile, action: ActionRef, target: str | None) -> Order:
    side = target_side(action)
    return Order(action, side, profile.target_for(action, target) if side else None)


__all__ = ["Check", "CompiledProfile", "Order", "all_pass", "checks_for", "compiled"]
