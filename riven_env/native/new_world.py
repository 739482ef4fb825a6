"""New World's dice engine on the core (cpp/riven/rules/systems/new_world.cpp).

:class:`NativeNewWorldResolution` has the methods of
:class:`~riven_env.rules.systems.new_world.NewWorldResolution` and gives the same records, draw
for draw: the pending roll is the Python ``NewWorldRoll``, a closed one the Python
``TestResult`` / ``MeleeResult`` with the same ``aftermath`` and ``detail``. RIVEN's rolls that
New World keeps (activation, morale, Out checks, the Complication Oracle, the shot table) are
the core's RIVEN functions (:class:`~riven_env.native.rules.NativeRivenResolution`).
The calls across the seam are the common
:class:`~riven_env.native.system_base.NativeSystemResolution`'s; this module says how the roll
crosses it and how the core's closed roll reads.
``tests/test_native_new_world.py`` proves the agreement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from riven_env.native.rules import _head_fields, _head_values, _modifiers, _mods
from riven_env.native.system_base import NativeSystemResolution
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import Combatant, RollContext
from riven_env.rules.results import Modifier
from riven_env.rules.systems.new_world import LUCK, NAME, NewWorldRoll, settings_for

__all__ = ["NativeNewWorldResolution", "fighter"]

_DETAIL_HEAD = ("bonus", "helpers", "helper_bonus", "luck_spent", "rolled_total", "snake_eyes")
_TEST_DETAIL = (*_DETAIL_HEAD, "difficulty", "success", "margin")
_MELEE_DETAIL = (
    *_DETAIL_HEAD,
    "defender_bonus",
    "defender_luck_spent",
    "defender_snake_eyes",
    "margin",
)


def fighter(profile: ModelProfile) -> tuple[Any, ...]:
    """What the core reads of a profile: its attributes and keywords (sorted, so the tuple is
    the same whatever the frozenset's order; the core takes the highest value of any)."""
    return (
        int(profile.might),
        int(profile.agility),
        int(profile.wit),
        int(profile.resolve),
        int(profile.mettle),
        sorted(str(k) for k in profile.keywords),
    )


def _facts(context: RollContext) -> tuple[Any, ...]:
    """What the core reads of a RollContext."""
    return (
        None if context.profile is None else fighter(context.profile),
        None if context.opponent is None else fighter(context.opponent),
        None if context.cover is None else str(context.cover),
        int(context.helpers),
        [int(k) for k in context.helper_models],
        int(context.resources.get(LUCK, 0)),
    )


class NativeNewWorldResolution(NativeSystemResolution):
    """New World's dice for tests, shots and melee on the core; RIVEN's for the rest."""

    name = NAME
    label = "New World"
    core_class = "NewWorldSystem"
    _settings_for = staticmethod(settings_for)

    # -------------------------------------------------------------- the roll across the seam
    def _roll(self, values: tuple[Any, ...]) -> NewWorldRoll:
        (
            bonus,
            difficulty,
            dice,
            available,
            helpers,
            helper_models,
            luck_held,
            luck_spent,
            spends,
            rolled,
            chooser,
            melee,
            defender_luck_held,
            defender_luck_spent,
            rolled_total,
        ) = values[5:]
        return NewWorldRoll(
            **_head_fields(values),
            bonus=bonus,
            difficulty=difficulty,
            dice=tuple(dice),
            helpers_available=available,
            helpers=helpers,
            helper_models=tuple(helper_models),
            luck_held=luck_held,
            luck_spent=luck_spent,
            spends=tuple(spends),
            rolled=rolled,
            chooser=chooser,
            melee=None if melee is None else (tuple(melee[0]), int(melee[1]), _modifiers(melee[2])),
            defender_luck_held=defender_luck_held,
            defender_luck_spent=defender_luck_spent,
            rolled_total=rolled_total,
            settings=self.settings,
        )

    @staticmethod
    def _values(roll: NewWorldRoll) -> tuple[Any, ...]:
        melee = None
        if roll.melee is not None:
            dice, bonus, mods = roll.melee
            melee = ([int(d) for d in dice], int(bonus), _mods(mods))
        return (
            *_head_values(roll),
            int(roll.bonus),
            int(roll.difficulty),
            [int(d) for d in roll.dice],
            int(roll.helpers_available),
            int(roll.helpers),
            [int(k) for k in roll.helper_models],
            int(roll.luck_held),
            int(roll.luck_spent),
            list(roll.spends),
            bool(roll.rolled),
            str(roll.chooser),
            melee,
            int(roll.defender_luck_held),
            int(roll.defender_luck_spent),
            int(roll.rolled_total),
        )

    def _test_facts(self, attribute: str, context: RollContext) -> tuple[Any, ...]:
        return (_facts(context),)

    def _melee_side(self, side: Combatant, *, attacking: bool) -> tuple[Any, ...]:
        """The fighter, the modifiers and the Luck held (either side may spend it)."""
        return (fighter(side.profile), _mods(side.modifiers), int(side.resources.get(LUCK, 0)))

    # New World's choices take the stream (an allocation rolls the dice): the base's apply_spend.

    def _detail(self, roll: NewWorldRoll, values: Sequence[Any]) -> dict[str, Any]:
        keys = _TEST_DETAIL if roll.melee is None else _MELEE_DETAIL
        return dict(zip(keys, values, strict=True))

    def _melee_sides(
        self, roll: NewWorldRoll, head: Sequence[Any]
    ) -> tuple[Sequence[int], Sequence[int], int, int, tuple[Modifier, ...]]:
        """Both sides' 2d6 and totals."""
        a_dice, d_dice, _, _, a_total, d_total = head
        # Called for a melee only (the base's finalise); a test has no defender's modifiers.
        return a_dice, d_dice, a_total, d_total, roll.melee[2] if roll.melee is not None else ()

    def _test_extra(self, extra: Sequence[Any]) -> dict[str, Any]:
        """The Momentum a critical gains."""
        (momentum,) = extra
        return {"momentum_gained": momentum}

    # -------------------------------------------------------------- setup and choices
    def starting_resources(self, profile: ModelProfile) -> dict[str, int]:
        """See :meth:`NewWorldResolution.starting_resources`."""
        return {LUCK: int(self._system.starting_luck(fighter(profile)))}

    def accept(self, roll: NewWorldRoll) -> NewWorldRoll | None:
        """See :meth:`NewWorldResolution.accept` (a melee's attacker hands over to the
        defender)."""
        handed = self._system.accept(self._values(roll))
        return None if handed is None else self._roll(handed)

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """``allocate help:K`` for each helper count, then ``spend luck``."""
        return tuple((str(k), str(o)) for k, o in self._system.choice_vocabulary())
