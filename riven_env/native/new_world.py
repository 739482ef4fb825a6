"""New World's dice engine on the core (cpp/riven/rules/systems/new_world.cpp).

:class:`NativeNewWorldResolution` has the methods of
:class:`~riven_env.rules.systems.new_world.NewWorldResolution` and gives the same records, draw
for draw: the pending roll is the Python ``NewWorldRoll``, a closed one the Python
``TestResult`` / ``MeleeResult`` with the same ``aftermath`` and ``detail``. RIVEN's rolls that
New World keeps (activation, morale, Out checks, the Complication Oracle, the shot table) are
the core's RIVEN functions (:class:`~riven_env.native.rules.NativeRivenResolution`).
``tests/test_native_new_world.py`` proves the agreement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from riven_env.errors import IllegalActionError
from riven_env.native.rules import NativeRivenResolution, _call, _core, _mods, _stream, native_rules
from riven_env.rules.config import RulesConfig
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import ChoiceView, Combatant, OracleChoice, RollContext
from riven_env.rules.results import Aftermath, MeleeResult, Modifier, TestResult
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


def _modifiers(pairs: Sequence[tuple[str, int]]) -> tuple[Modifier, ...]:
    return tuple(Modifier(source, value) for source, value in pairs)


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


class NativeNewWorldResolution(NativeRivenResolution):
    """New World's dice for tests, shots and melee on the core; RIVEN's for the rest."""

    name = NAME

    def __init__(self, rules: RulesConfig) -> None:
        super().__init__(rules)
        self.settings = settings_for(rules)
        self._system = _call(_core().NewWorldSystem, native_rules(rules))

    def __repr__(self) -> str:
        return f"NativeNewWorldResolution(rules={self.rules.source!r})"

    # -------------------------------------------------------------- the roll across the seam
    def _roll(self, values: tuple[Any, ...]) -> NewWorldRoll:
        (
            kind,
            attribute,
            value,
            mods,
            tn,
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
        ) = values
        return NewWorldRoll(
            kind=kind,
            attribute=attribute,
            attribute_value=value,
            modifiers=_modifiers(mods),
            tn=tn,
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
            roll.kind,
            roll.attribute,
            int(roll.attribute_value),
            _mods(roll.modifiers),
            int(roll.tn),
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

    # -------------------------------------------------------------- setup
    def starting_resources(self, profile: ModelProfile) -> dict[str, int]:
        """See :meth:`NewWorldResolution.starting_resources`."""
        return {LUCK: int(self._system.starting_luck(fighter(profile)))}

    # -------------------------------------------------------------- rolls
    def roll_test(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        rng: Any,
        context: RollContext | None = None,
    ) -> NewWorldRoll:
        """See :meth:`NewWorldResolution.roll_test`."""
        context = context or RollContext()
        with _stream(rng) as stream:
            values = _call(
                self._system.roll_test,
                kind,
                attribute,
                int(attribute_value),
                int(tn),
                _mods(modifiers),
                _facts(context),
                stream,
            )
        return self._roll(values)

    def start_melee(self, attacker: Combatant, defender: Combatant, rng: Any) -> NewWorldRoll:
        """See :meth:`NewWorldResolution.start_melee`."""
        sides = [
            (fighter(c.profile), _mods(c.modifiers), int(c.resources.get(LUCK, 0)))
            for c in (attacker, defender)
        ]
        with _stream(rng) as stream:
            values = _call(self._system.start_melee, sides[0], sides[1], stream)
        return self._roll(values)

    # -------------------------------------------------------------- choices
    def spend_options(
        self,
        roll: NewWorldRoll,
        *,
        momentum: int,
        strain: int,
        strain_max: int,
        resources: Mapping[str, int] | None = None,
    ) -> list[str]:
        """See :meth:`NewWorldResolution.spend_options`."""
        return list(self._system.spend_options(self._values(roll)))

    def apply_spend(self, roll: NewWorldRoll, option: str, rng: Any) -> NewWorldRoll:
        """See :meth:`NewWorldResolution.apply_spend` (an allocation rolls the dice)."""
        native = _core()
        values = self._values(roll)
        # A Luck spend draws nothing: callers may pass no stream for it, as the Python engine
        # allows (an allocation without one runs out of the empty script's faces).
        rng = native.ScriptedDice([]) if rng is None else rng
        try:
            with _stream(rng) as stream:
                return self._roll(self._system.apply_spend(values, option, stream))
        except native.IllegalAction:
            allowed = list(self._system.spend_options(values))
            raise IllegalActionError(
                option, allowed, reason=f"New World {roll.kind} roll"
            ) from None

    def accept(self, roll: NewWorldRoll) -> NewWorldRoll | None:
        """See :meth:`NewWorldResolution.accept`."""
        handed = self._system.accept(self._values(roll))
        return None if handed is None else self._roll(handed)

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """``allocate help:K`` for each helper count, then ``spend luck``."""
        return tuple((str(k), str(o)) for k, o in self._system.choice_vocabulary())

    # -------------------------------------------------------------- closing
    def finalise(self, roll: NewWorldRoll) -> TestResult | MeleeResult:
        """See :meth:`NewWorldResolution.finalise`."""
        aftermath_values, detail_values, fields = self._system.finalise(self._values(roll))
        aftermath = tuple(Aftermath(*entry) for entry in aftermath_values)
        keys = _TEST_DETAIL if roll.melee is None else _MELEE_DETAIL
        detail: dict[str, Any] = {"system": NAME, **dict(zip(keys, detail_values, strict=True))}
        if roll.melee is not None:
            (
                a_dice,
                d_dice,
                _,
                _,
                a_total,
                d_total,
                outcome,
                winner,
                wounds,
                dazed,
                recoil,
                condition,
                spends,
            ) = fields
            return MeleeResult(
                attacker_dice=tuple(a_dice),  # type: ignore[arg-type]
                defender_dice=tuple(d_dice),  # type: ignore[arg-type]
                attacker_modifiers=roll.modifiers,
                defender_modifiers=roll.melee[2],
                attacker_total=a_total,
                defender_total=d_total,
                outcome=outcome,
                winner=winner,
                wounds=wounds,
                dazed=dazed,
                recoil_distance=recoil,
                condition=condition,
                aftermath=aftermath,
                detail={**detail, "spends": list(spends)},
            )
        kind, attribute, value, _, tn, dice, total, result, rolled, spends, momentum = fields
        return TestResult(
            kind=kind,
            attribute=attribute,
            attribute_value=value,
            modifiers=roll.modifiers,
            tn=tn,
            dice=tuple(dice),  # type: ignore[arg-type]
            total=total,
            result=result,
            rolled_result=rolled,
            spends=tuple(spends),
            momentum_gained=momentum,
            aftermath=aftermath,
            detail=detail,
        )

    # -------------------------------------------------------------- the Oracle
    def oracle_choice(
        self, roll: NewWorldRoll, options: Sequence[str], view: ChoiceView
    ) -> OracleChoice | None:
        """See :meth:`NewWorldResolution.oracle_choice`."""
        option, rule, text = self._system.oracle_choice(
            self._values(roll), [str(o) for o in options], str(view.model)
        )
        return OracleChoice(option, rule, text)
