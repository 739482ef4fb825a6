"""Conditions as data with generic effect fields the game loop applies.

RIVEN names only Dazed (melee critical) and says that exceeding the Strain track gives "one of
the following Conditions" without listing them; every effect here is a house rule kept in
``[conditions.*]``. A model holds a set of Conditions: gaining one it already holds changes
nothing except restarting its expiry. The effect fields are deliberately generic so a designer
can add a Condition without code:

- ``test_modifier`` / ``melee_modifier`` / ``shot_modifier``: added to the holder's non-shot
  2d6 tests / melee rolls / shots (each field covers one kind only; they never stack).
- ``move_penalty``: inches taken off every move; ``max_actions`` / ``max_dice``: caps on
  actions per activation and activation dice (0 = no cap).
- ``forbids``: action names the holder cannot take.
- ``cover_against_shots``: ``"none"`` (shots at the holder ignore its cover; this wins over
  any improvement) or ``"+1"`` (its cover counts one step better, capped at the best cover).
- ``end_of_turn_wound_check``: at the end of its side's turn the holder rolls one die vs its
  Mettle; failure: 1 wound.
- ``expires``: when it ends on its own; ``removed_by``: actions that remove it.

A Condition is gained whenever its cause happens: there is no test to resist one (RAW: a
melee critical "gains" Dazed, exceeding the Strain track "gains" a Condition).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from riven_env.errors import RulesDataError
from riven_env.rules.datacheck import (
    read_bool,
    read_float,
    read_int,
    read_str,
    read_str_list,
    read_table,
    refuse_unknown_keys,
)
from riven_env.rules.results import Modifier

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig

EXPIRY_CHOICES = frozenset(
    {
        "end_of_activation",
        "end_of_next_activation",
        "start_of_next_activation",
        "end_of_side_turn",
        "never",
    }
)
COVER_EFFECT_CHOICES = frozenset({"", "none", "+1"})
MODIFIER_KINDS = ("test", "melee", "shot")
_FIELDS = frozenset(
    {
        "description",
        "test_modifier",
        "melee_modifier",
        "shot_modifier",
        "move_penalty",
        "max_actions",
        "max_dice",
        "forbids",
        "cover_against_shots",
        "end_of_turn_wound_check",
        "expires",
        "removed_by",
    }
)


@dataclass(frozen=True)
class ConditionSpec:
    """One Condition's data (see the module docstring for each field's meaning)."""

    name: str
    description: str
    test_modifier: int
    melee_modifier: int
    shot_modifier: int
    move_penalty: float
    max_actions: int
    max_dice: int
    forbids: frozenset[str]
    cover_against_shots: str
    end_of_turn_wound_check: bool
    expires: str
    removed_by: frozenset[str]

    def modifier(self, kind: str) -> int:
        """The modifier this Condition gives to a roll of ``kind`` (test, melee, shot)."""
        return {
            "test": self.test_modifier,
            "melee": self.melee_modifier,
            "shot": self.shot_modifier,
        }[kind]


@dataclass(frozen=True)
class ConditionLimits:
    """The combined limits of a set of Conditions.

    Attributes:
        max_actions: Cap on actions per activation, or ``None`` for no cap.
        max_dice: Cap on activation dice, or ``None`` for no cap.
        move_penalty: Inches off every move (summed).
        forbids: Actions the model cannot take.
        cover_steps: Steps the holder's cover improves against shots.
        ignores_cover: Whether shots at the holder ignore its cover.
        end_of_turn_wound_check: Whether it rolls for a wound at the end of its side's turn.
    """

    max_actions: int | None
    max_dice: int | None
    move_penalty: float
    forbids: frozenset[str]
    cover_steps: int
    ignores_cover: bool
    end_of_turn_wound_check: bool


def parse_condition(name: str, table: Mapping[str, Any], where: str) -> ConditionSpec:
    """Parse and validate one ``[conditions.NAME]`` table."""
    refuse_unknown_keys(table, _FIELDS, where)
    return ConditionSpec(
        name=name,
        description=read_str(table, "description", where, default=""),
        test_modifier=read_int(table, "test_modifier", where, low=-6, high=6, default=0),
        melee_modifier=read_int(table, "melee_modifier", where, low=-6, high=6, default=0),
        shot_modifier=read_int(table, "shot_modifier", where, low=-6, high=6, default=0),
        move_penalty=read_float(table, "move_penalty", where, low=0.0, default=0.0),
        max_actions=read_int(table, "max_actions", where, low=0, default=0),
        max_dice=read_int(table, "max_dice", where, low=0, default=0),
        forbids=frozenset(read_str_list(table, "forbids", where, default=[])),
        cover_against_shots=read_str(
            table, "cover_against_shots", where, choices=COVER_EFFECT_CHOICES, default=""
        ),
        end_of_turn_wound_check=read_bool(table, "end_of_turn_wound_check", where, default=False),
        expires=read_str(table, "expires", where, choices=EXPIRY_CHOICES),
        removed_by=frozenset(read_str_list(table, "removed_by", where, default=[])),
    )


def parse_conditions(raw: Mapping[str, Any], source: str) -> dict[str, ConditionSpec]:
    """Parse every ``[conditions.*]`` table of raw rules data."""
    section = read_table(raw, "conditions", source)
    specs: dict[str, ConditionSpec] = {}
    for name, table in section.items():
        where = f"{source}: conditions.{name}"
        if not isinstance(table, Mapping):
            raise RulesDataError(f"{where} = {table!r}: expected a table of effect fields")
        specs[name] = parse_condition(name, table, where)
    if not specs:
        raise RulesDataError(f"{source}: conditions: at least one Condition is required")
    return specs


@functools.lru_cache(maxsize=32)
def condition_specs(rules: RulesConfig) -> Mapping[str, ConditionSpec]:
    """Every Condition of the rules, by name (cached per rules)."""
    return parse_conditions(rules.raw, rules.source)


def condition_spec(name: str, rules: RulesConfig) -> ConditionSpec:
    """One Condition by name.

    Raises:
        RulesDataError: No such Condition; the message lists the known ones.
    """
    specs = condition_specs(rules)
    if name not in specs:
        raise RulesDataError(
            f"{rules.source}: unknown Condition {name!r}; known: {', '.join(sorted(specs))}"
        )
    return specs[name]


def condition_modifiers(conditions: Iterable[str], kind: str, rules: RulesConfig) -> list[Modifier]:
    """The modifiers a model's Conditions give to a roll of ``kind``.

    Args:
        conditions: Names of the Conditions the model holds.
        kind: ``"test"`` (non-shot 2d6 tests), ``"melee"`` or ``"shot"``.
        rules: The rules.

    Returns:
        One ``Modifier("condition:NAME", value)`` per Condition with a non-zero modifier,
        in name order (deterministic).
    """
    if kind not in MODIFIER_KINDS:
        raise RulesDataError(f"modifier kind {kind!r}: expected one of {', '.join(MODIFIER_KINDS)}")
    modifiers = []
    for name in sorted(set(conditions)):
        value = condition_spec(name, rules).modifier(kind)
        if value:
            modifiers.append(Modifier(f"condition:{name}", value))
    return modifiers


def condition_limits(conditions: Iterable[str], rules: RulesConfig) -> ConditionLimits:
    """Combine the limits of a set of Conditions (the tightest cap wins, penalties add)."""
    return _condition_limits(frozenset(conditions), rules)


@functools.lru_cache(maxsize=32)
def no_limits(rules: RulesConfig) -> ConditionLimits:
    """The limits of a model without Conditions (the same object on every call per rules)."""
    return _condition_limits(frozenset(), rules)


@functools.lru_cache(maxsize=1024)
def _condition_limits(conditions: frozenset[str], rules: RulesConfig) -> ConditionLimits:
    # Memoised: the game asks for the same few sets of Conditions thousands of times.
    specs = [condition_spec(name, rules) for name in sorted(conditions)]
    action_caps = [s.max_actions for s in specs if s.max_actions > 0]
    dice_caps = [s.max_dice for s in specs if s.max_dice > 0]
    return ConditionLimits(
        max_actions=min(action_caps) if action_caps else None,
        max_dice=min(dice_caps) if dice_caps else None,
        move_penalty=sum(s.move_penalty for s in specs),
        forbids=frozenset().union(*(s.forbids for s in specs)),
        cover_steps=sum(1 for s in specs if s.cover_against_shots == "+1"),
        ignores_cover=any(s.cover_against_shots == "none" for s in specs),
        end_of_turn_wound_check=any(s.end_of_turn_wound_check for s in specs),
    )


def conditions_removed_by(action: str, conditions: Iterable[str], rules: RulesConfig) -> list[str]:
    """The Conditions among ``conditions`` that taking ``action`` removes, in name order."""
    return [
        name for name in sorted(set(conditions)) if action in condition_spec(name, rules).removed_by
    ]


def conditions_expiring(when: str, conditions: Iterable[str], rules: RulesConfig) -> list[str]:
    """The Conditions among ``conditions`` whose ``expires`` equals ``when``, in name order."""
    if when not in EXPIRY_CHOICES:
        raise RulesDataError(
            f"expiry {when!r}: expected one of {', '.join(sorted(EXPIRY_CHOICES))}"
        )
    return [name for name in sorted(set(conditions)) if condition_spec(name, rules).expires == when]
