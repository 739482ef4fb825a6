"""The Complication Oracle: what gets worse on a Miss (a house-rule d6 table in data).

Each entry's ``effect`` is one of a fixed set the game loop implements:

- ``strain``: the actor takes ``amount`` Strain.
- ``end_activation``: the actor's activation ends now.
- ``enemy_momentum``: the opposing side gains ``amount`` Momentum.
- ``lose_momentum``: the actor's pool loses ``amount`` Momentum (never below 0).
- ``condition``: the actor gains the Condition ``condition``.
- ``exposed``: the actor gains the Exposed Condition (``shooting.exposed_condition``).

Entries may carry ``flavour`` text per setting (``fantasy``, ``scifi``); rules text is shared.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from riven_env.errors import RulesDataError
from riven_env.rules.datacheck import (
    read_die_table,
    read_int,
    read_str,
    read_table,
    refuse_unknown_keys,
)
from riven_env.rules.dice import roll_dice
from riven_env.rules.results import Complication

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig

COMPLICATION_EFFECTS = frozenset(
    {"strain", "end_activation", "enemy_momentum", "lose_momentum", "condition", "exposed"}
)
_ENTRY_FIELDS = frozenset({"name", "text", "effect", "amount", "condition", "flavour"})


def parse_complication_table(
    raw: Mapping[str, Any], source: str, conditions: Iterable[str], settings: Iterable[str]
) -> dict[int, Complication]:
    """Parse ``[complications.table]``: a table keyed by die face covering every face once.

    Returns:
        Face to a template :class:`Complication` (its ``roll`` is the face).
    """
    section = read_table(raw, "complications", source)
    faces = read_int(read_table(raw, "dice", source), "faces", f"{source}: dice", low=2)
    where = f"{source}: complications.table"
    by_face = read_die_table(read_table(section, "table", f"{source}: complications"), where, faces)
    condition_names = set(conditions)
    setting_names = set(settings)
    entries: dict[int, Complication] = {}
    for face, entry in by_face.items():
        here = f"{where}.{face}"
        if not isinstance(entry, Mapping):
            raise RulesDataError(f"{here} = {entry!r}: expected a table (name, text, effect, ...)")
        refuse_unknown_keys(entry, _ENTRY_FIELDS, here)
        effect = read_str(entry, "effect", here, choices=COMPLICATION_EFFECTS)
        amount = read_int(entry, "amount", here, low=0, high=20, default=0)
        condition = read_str(entry, "condition", here, default="")
        if effect == "condition" and condition not in condition_names:
            raise RulesDataError(
                f"{here}.condition = {condition!r}: effect 'condition' needs a known Condition "
                f"({', '.join(sorted(condition_names))})"
            )
        if effect != "condition" and condition:
            raise RulesDataError(
                f"{here}.condition = {condition!r}: only effect 'condition' names one"
            )
        if effect in {"strain", "enemy_momentum", "lose_momentum"} and amount < 1:
            raise RulesDataError(f"{here}.amount = {amount!r}: effect {effect!r} needs amount >= 1")
        flavour_table = read_table(entry, "flavour", here, default={})
        flavour: dict[str, str] = {}
        for setting in flavour_table:
            if setting not in setting_names:
                raise RulesDataError(
                    f"{here}.flavour.{setting}: unknown setting; allowed: "
                    f"{', '.join(sorted(setting_names))} (meta.settings)"
                )
            flavour[setting] = read_str(flavour_table, setting, f"{here}.flavour")
        entries[face] = Complication(
            roll=face,
            name=read_str(entry, "name", here),
            text=read_str(entry, "text", here),
            effect=effect,
            amount=amount,
            condition=condition,
            flavour=flavour,
        )
    return entries


@functools.lru_cache(maxsize=32)
def complication_table(rules: RulesConfig) -> Mapping[int, Complication]:
    """The Complication Oracle, face to entry (cached per rules)."""
    from riven_env.rules.conditions import condition_specs

    return parse_complication_table(
        rules.raw, rules.source, condition_specs(rules), rules.get("meta.settings")
    )


def roll_complication(rng: np.random.Generator, rules: RulesConfig) -> Complication:
    """Roll on the Complication Oracle (one d6)."""
    (face,) = roll_dice(rng, 1, int(rules.get("dice.faces")))
    return complication_table(rules)[face]
