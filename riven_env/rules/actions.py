"""The action catalogue (``[actions.*]``): what a model may do with each action it earns.

RIVEN names Charge, Focus, Rest and stabilise, and implies Move, melee and Shoot; the rest
(Aim, Disengage, Rally, Interact, Take cover, End) are house rules. The catalogue is data: the
game loop reads each :class:`ActionSpec` to know the cost, the kind of target, the test it
calls for, the Condition it applies or removes, and which actions it excludes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from riven_env.errors import RulesDataError
from riven_env.rules.datacheck import (
    read_bool,
    read_int,
    read_str,
    read_str_list,
    read_table,
    refuse_unknown_keys,
)
from riven_env.rules.profiles import ATTRIBUTES

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig

TARGET_KINDS = frozenset({"none", "enemy", "friend", "destination", "objective"})
_FIELDS = frozenset(
    {
        "cost",
        "target",
        "description",
        "attribute",
        "difficulty",
        "range",
        "once_per_activation",
        "excludes",
        "applies",
        "removes",
        "removes_self",
        "rules_keys",
    }
)


@dataclass(frozen=True)
class ActionSpec:
    """One action of the catalogue.

    Attributes:
        name: Action name (``"charge"``).
        cost: Actions it spends (0 for ``end``).
        target: ``"none"``, ``"enemy"``, ``"friend"``, ``"destination"`` or ``"objective"``.
        description: Rules text.
        attribute: Attribute of the 2d6 test it calls for, or ``""``.
        difficulty: Difficulty name of that test, or ``""`` (shots take their TN from cover).
        range: A ``[distances]`` key bounding the target's distance, or ``""``.
        once_per_activation: Whether a model may take it only once per activation.
        excludes: Actions that cannot be taken in the same activation (either order).
        applies: A Condition the actor gains, or ``""``.
        removes: Conditions removed from the target (self or friend) on success.
        removes_self: Conditions the actor loses by taking it.
        rules_keys: The data keys the action reads (documentation; checked to exist).
    """

    name: str
    cost: int
    target: str
    description: str
    attribute: str
    difficulty: str
    range: str
    once_per_activation: bool
    excludes: frozenset[str]
    applies: str
    removes: frozenset[str]
    removes_self: frozenset[str]
    rules_keys: tuple[str, ...]


def parse_actions(
    raw: Mapping[str, Any], source: str, conditions: Iterable[str]
) -> dict[str, ActionSpec]:
    """Parse and cross-check every ``[actions.*]`` table.

    Raises:
        RulesDataError: A bad field, a reference to an unknown action, Condition,
            difficulty or distance, or a ``rules_keys`` entry that does not exist.
    """
    section = read_table(raw, "actions", source)
    condition_names = frozenset(conditions)
    difficulties = frozenset(read_table(read_table(raw, "test", source), "difficulty", source))
    distances = frozenset(
        k for k, v in read_table(raw, "distances", source).items() if not isinstance(v, Mapping)
    )
    action_names = frozenset(section)
    specs: dict[str, ActionSpec] = {}
    for name, table in section.items():
        where = f"{source}: actions.{name}"
        if not isinstance(table, Mapping):
            raise RulesDataError(f"{where} = {table!r}: expected a table (cost, target, ...)")
        refuse_unknown_keys(table, _FIELDS, where)
        applies = read_str(table, "applies", where, choices={"", *condition_names}, default="")
        rules_keys = read_str_list(table, "rules_keys", where, default=[])
        for key in rules_keys:
            if not _has_key(raw, key):
                raise RulesDataError(f"{where}.rules_keys names {key!r}, which is not a rules key")
        specs[name] = ActionSpec(
            name=name,
            cost=read_int(table, "cost", where, low=0, high=3),
            target=read_str(table, "target", where, choices=TARGET_KINDS),
            description=read_str(table, "description", where),
            attribute=read_str(table, "attribute", where, choices={"", *ATTRIBUTES}, default=""),
            difficulty=read_str(
                table, "difficulty", where, choices={"", *difficulties}, default=""
            ),
            range=read_str(table, "range", where, choices={"", *distances}, default=""),
            once_per_activation=read_bool(table, "once_per_activation", where, default=False),
            excludes=frozenset(
                read_str_list(table, "excludes", where, choices=action_names, default=[])
            ),
            applies=applies,
            removes=frozenset(
                read_str_list(table, "removes", where, choices=condition_names, default=[])
            ),
            removes_self=frozenset(
                read_str_list(table, "removes_self", where, choices=condition_names, default=[])
            ),
            rules_keys=rules_keys,
        )
    return specs


def _has_key(raw: Mapping[str, Any], dotted: str) -> bool:
    node: Any = raw
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


@functools.lru_cache(maxsize=32)
def action_specs(rules: RulesConfig) -> Mapping[str, ActionSpec]:
    """The action catalogue, by name in data order (cached per rules)."""
    from riven_env.rules.conditions import condition_specs

    return parse_actions(rules.raw, rules.source, condition_specs(rules))


def action_spec(name: str, rules: RulesConfig) -> ActionSpec:
    """One action by name.

    Raises:
        RulesDataError: No such action; the message lists the known ones.
    """
    specs = action_specs(rules)
    if name not in specs:
        raise RulesDataError(f"{rules.source}: unknown action {name!r}; known: {', '.join(specs)}")
    return specs[name]


def excluded_by(taken: Iterable[str], rules: RulesConfig) -> frozenset[str]:
    """Actions a model can no longer take this activation, given the actions it has taken.

    Exclusion is symmetric: Rest excludes moving, so having moved also excludes Rest. Actions
    marked ``once_per_activation`` exclude themselves once taken.
    """
    specs = action_specs(rules)
    taken_set = set(taken)
    blocked: set[str] = set()
    for name, spec in specs.items():
        if name in taken_set:
            blocked |= spec.excludes
            if spec.once_per_activation:
                blocked.add(name)
        elif spec.excludes & taken_set:
            blocked.add(name)
    return frozenset(blocked)
