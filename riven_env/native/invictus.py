"""Invictus's dice engine on the core (cpp/riven/rules/systems/invictus.cpp).

:class:`NativeInvictusResolution` has the methods of
:class:`~riven_env.rules.systems.invictus.InvictusResolution` and gives the same records, draw
for draw: the pending roll is the Python ``InvictusRoll``, a closed one the Python
``TestResult`` / ``MeleeResult`` with the same ``aftermath`` and ``detail``. RIVEN's rolls that
Invictus keeps (activation, morale, Out checks, the Complication Oracle) are the core's RIVEN
functions (:class:`~riven_env.native.rules.NativeRivenResolution`).
The calls across the seam are the common
:class:`~riven_env.native.system_base.NativeSystemResolution`'s; this module says how the roll
crosses it and how the core's closed roll reads.
``tests/test_native_invictus.py`` proves the agreement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from riven_env.native.rules import _call, _head_fields, _head_values, _modifiers, _mods
from riven_env.native.system_base import NativeSystemResolution
from riven_env.rules.resolution import ChoiceView, Combatant, RollContext
from riven_env.rules.results import Modifier
from riven_env.rules.systems.invictus import (
    LUCK_RESOURCE,
    NAME,
    InvictusRoll,
    settings_for,
)

__all__ = ["NativeInvictusResolution"]

_DETAIL_KEYS = (
    "band",
    "rolled_band",
    "pool",
    "rolled_dice",
    "favourable",
    "favour_used",
    "unfavourable",
    "danger_dice",
    "danger_factors",
    "move",
    "move_die",
    "luck_spent",
    "critical_health",
)


def _facts(context: RollContext) -> tuple[Any, ...]:
    """What the core reads of a RollContext."""
    return (
        bool(context.engaged),
        [str(c) for c in context.conditions],
        int(context.wounds_left),
        int(context.wounds_max),
        bool(context.final_round),
        int(context.resources.get(LUCK_RESOURCE, 0)),
    )


def invictus_roll_fields(roll: InvictusRoll) -> tuple[Any, ...]:
    """An Invictus roll's own fields as the core's tuples carry them (the dice and Danger Dice,
    the factors, the Fray and circumstance, the score, Critical Health, Luck and the spends):
    the part that the rules seam's rolls and the native state's pending roll share."""
    return (
        [int(d) for d in roll.dice],
        [int(d) for d in roll.rolled_dice],
        [int(d) for d in roll.danger],
        list(roll.factors),
        bool(roll.fray),
        bool(roll.favourable),
        bool(roll.unfavourable),
        int(roll.score),
        bool(roll.critical_health),
        int(roll.luck_held),
        int(roll.luck_spent),
        list(roll.spends),
    )


class NativeInvictusResolution(NativeSystemResolution):
    """Invictus's dice for tests, shots and melee on the core; RIVEN's for the rest."""

    name = NAME
    label = "Invictus"
    core_class = "InvictusSystem"
    _settings_for = staticmethod(settings_for)

    def shot_tn(self, cover: str) -> int:
        """House: the shot's TN from ``invictus.cover.score`` (the core's ``shot_tn``)."""
        return int(_call(self._system.shot_tn, str(cover)))

    # -------------------------------------------------------------- the roll across the seam
    def _roll(self, values: tuple[Any, ...]) -> InvictusRoll:
        (
            pool,
            dice,
            rolled,
            danger,
            factors,
            fray,
            favourable,
            unfavourable,
            score,
            critical,
            luck_held,
            luck_spent,
            spends,
            rolled_band,
            melee,
        ) = values[5:]
        return InvictusRoll(
            **_head_fields(values),
            pool=pool,
            dice=tuple(dice),
            rolled_dice=tuple(rolled),
            danger=tuple(danger),
            factors=tuple(factors),
            fray=fray,
            favourable=favourable,
            unfavourable=unfavourable,
            score=score,
            critical_health=critical,
            luck_held=luck_held,
            luck_spent=luck_spent,
            spends=tuple(spends),
            rolled_band=rolled_band,
            melee=None if melee is None else _modifiers(melee),
            settings=self.settings,
        )

    @staticmethod
    def _values(roll: InvictusRoll) -> tuple[Any, ...]:
        return (
            *_head_values(roll),
            int(roll.pool),
            *invictus_roll_fields(roll),
            roll.rolled_band,
            None if roll.melee is None else _mods(roll.melee),
        )

    def _test_facts(self, attribute: str, context: RollContext) -> tuple[Any, ...]:
        """The opponent's value of the attribute (the Danger Dice's factor) and the facts."""
        opponent = getattr(context.opponent, attribute, None) if context.opponent else None
        return (None if opponent is None else int(opponent), _facts(context))

    def _melee_side(self, side: Combatant, *, attacking: bool) -> tuple[Any, ...]:
        """Might, the modifiers and the facts (the attacker's with its Luck)."""
        context = replace(side.context, resources=side.resources) if attacking else side.context
        return (int(side.profile.might), _mods(side.modifiers), _facts(context))

    def _spend_args(self, resources: Mapping[str, int] | None) -> tuple[Any, ...]:
        luck = (resources or {}).get(LUCK_RESOURCE)
        return (None if luck is None else int(luck),)

    def _refusal_args(self, roll: InvictusRoll) -> tuple[Any, ...]:
        return (int(roll.luck_spent) + 1,)

    def _apply_spend(self, values: tuple[Any, ...], option: str, rng: Any) -> tuple[Any, ...]:
        """Invictus's raises draw nothing."""
        return self._system.apply_spend(values, option)

    def _oracle_args(self, view: ChoiceView) -> tuple[Any, ...]:
        return (int(view.resources.get(LUCK_RESOURCE, 0)),)

    def _detail(self, roll: InvictusRoll, values: Sequence[Any]) -> dict[str, Any]:
        return {
            key: list(value) if isinstance(value, list | tuple) else value
            for key, value in zip(_DETAIL_KEYS, values, strict=True)
        }

    def _melee_sides(
        self, roll: InvictusRoll, head: Sequence[Any]
    ) -> tuple[Sequence[int], Sequence[int], int, int, tuple[Modifier, ...]]:
        """The attacker's pool; the Narrator rolls no dice."""
        dice, _, _, total = head
        return dice, (), total, 0, roll.melee or ()

    # -------------------------------------------------------------- setup and vocabulary
    def starting_wounds(self, profile: Any) -> int:
        """The track's boxes (the profile's wounds) plus the overflow that is Death's Door."""
        return int(self._system.starting_wounds(int(profile.wounds)))

    def starting_resources(self, profile: Any) -> dict[str, int]:
        return {LUCK_RESOURCE: int(self._system.starting_luck())}

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """``favour:I`` and ``luck:I`` for each die of the largest pool."""
        return tuple(("spend", str(o)) for o in self._system.choice_vocabulary())
