"""Invictus's dice engine on the core (cpp/riven/rules/systems/invictus.cpp).

:class:`NativeInvictusResolution` has the methods of
:class:`~riven_env.rules.systems.invictus.InvictusResolution` and gives the same records, draw
for draw: the pending roll is the Python ``InvictusRoll``, a closed one the Python
``TestResult`` / ``MeleeResult`` with the same ``aftermath`` and ``detail``. RIVEN's rolls that
Invictus keeps (activation, morale, Out checks, the Complication Oracle) are the core's RIVEN
functions (:class:`~riven_env.native.rules.NativeRivenResolution`).
``tests/test_native_invictus.py`` proves the agreement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from riven_env.errors import IllegalActionError
from riven_env.native.rules import NativeRivenResolution, _call, _core, _mods, _stream, native_rules
from riven_env.rules.config import RulesConfig
from riven_env.rules.resolution import ChoiceView, Combatant, OracleChoice, RollContext
from riven_env.rules.results import Aftermath, MeleeResult, Modifier, TestResult
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


def _modifiers(pairs: Sequence[tuple[str, int]]) -> tuple[Modifier, ...]:
    return tuple(Modifier(source, value) for source, value in pairs)


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


class NativeInvictusResolution(NativeRivenResolution):
    """Invictus's dice for tests, shots and melee on the core; RIVEN's for the rest."""

    name = NAME

    def __init__(self, rules: RulesConfig) -> None:
        super().__init__(rules)
        self.settings = settings_for(rules)
        self._system = _call(_core().InvictusSystem, native_rules(rules))

    def __repr__(self) -> str:
        return f"NativeInvictusResolution(rules={self.rules.source!r})"

    # -------------------------------------------------------------- the roll across the seam
    def _roll(self, values: tuple[Any, ...]) -> InvictusRoll:
        (
            kind,
            attribute,
            value,
            mods,
            tn,
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
        ) = values
        return InvictusRoll(
            kind=kind,
            attribute=attribute,
            attribute_value=value,
            modifiers=_modifiers(mods),
            tn=tn,
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
            roll.kind,
            roll.attribute,
            int(roll.attribute_value),
            _mods(roll.modifiers),
            int(roll.tn),
            int(roll.pool),
            *invictus_roll_fields(roll),
            roll.rolled_band,
            None if roll.melee is None else _mods(roll.melee),
        )

    # -------------------------------------------------------------- setup
    def starting_wounds(self, profile: Any) -> int:
        """The track's boxes (the profile's wounds) plus the overflow that is Death's Door."""
        return int(self._system.starting_wounds(int(profile.wounds)))

    def starting_resources(self, profile: Any) -> dict[str, int]:
        return {LUCK_RESOURCE: int(self._system.starting_luck())}

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
    ) -> InvictusRoll:
        """See :meth:`InvictusResolution.roll_test`."""
        context = context or RollContext()
        opponent = getattr(context.opponent, attribute, None) if context.opponent else None
        with _stream(rng) as stream:
            values = _call(
                self._system.roll_test,
                kind,
                attribute,
                int(attribute_value),
                int(tn),
                _mods(modifiers),
                None if opponent is None else int(opponent),
                _facts(context),
                stream,
            )
        return self._roll(values)

    def start_melee(self, attacker: Combatant, defender: Combatant, rng: Any) -> InvictusRoll:
        """See :meth:`InvictusResolution.start_melee`."""
        a_context = replace(attacker.context, resources=attacker.resources)
        sides = [
            (int(attacker.profile.might), _mods(attacker.modifiers), _facts(a_context)),
            (int(defender.profile.might), _mods(defender.modifiers), _facts(defender.context)),
        ]
        with _stream(rng) as stream:
            values = _call(self._system.start_melee, sides[0], sides[1], stream)
        return self._roll(values)

    # -------------------------------------------------------------- choices
    def spend_options(
        self,
        roll: InvictusRoll,
        *,
        momentum: int,
        strain: int,
        strain_max: int,
        resources: Mapping[str, int] | None = None,
    ) -> list[str]:
        """See :meth:`InvictusResolution.spend_options`."""
        luck = (resources or {}).get(LUCK_RESOURCE)
        return list(
            self._system.spend_options(self._values(roll), None if luck is None else int(luck))
        )

    def apply_spend(self, roll: InvictusRoll, option: str, rng: Any) -> InvictusRoll:
        """See :meth:`InvictusResolution.apply_spend` (draws nothing)."""
        native = _core()
        values = self._values(roll)
        try:
            return self._roll(self._system.apply_spend(values, option))
        except native.IllegalAction:
            allowed = list(self._system.spend_options(values, int(roll.luck_spent) + 1))
            raise IllegalActionError(option, allowed, reason=f"Invictus {roll.kind} roll") from None

    def accept(self, roll: Any) -> Any | None:
        """Invictus's rolls have one chooser: accepting closes the roll."""
        return None

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """``favour:I`` and ``luck:I`` for each die of the largest pool."""
        return tuple(("spend", str(o)) for o in self._system.choice_vocabulary())

    # -------------------------------------------------------------- closing
    def finalise(self, roll: InvictusRoll) -> TestResult | MeleeResult:
        """See :meth:`InvictusResolution.finalise`."""
        aftermath_values, detail_values, fields = self._system.finalise(self._values(roll))
        aftermath = tuple(Aftermath(*entry) for entry in aftermath_values)
        detail: dict[str, Any] = {"system": NAME}
        for key, value in zip(_DETAIL_KEYS, detail_values, strict=True):
            detail[key] = list(value) if isinstance(value, list | tuple) else value
        if roll.melee is not None:
            (
                dice,
                a_mods,
                d_mods,
                total,
                outcome,
                winner,
                wounds,
                dazed,
                recoil,
                condition,
                spends,
            ) = fields
            return MeleeResult(
                attacker_dice=tuple(dice),  # type: ignore[arg-type]  # a pool
                defender_dice=(),  # type: ignore[arg-type]  # the Narrator never rolls
                attacker_modifiers=roll.modifiers,
                defender_modifiers=roll.melee,
                attacker_total=total,
                defender_total=0,
                outcome=outcome,
                winner=winner,
                wounds=wounds,
                dazed=dazed,
                recoil_distance=recoil,
                condition=condition,
                aftermath=aftermath,
                detail={**detail, "spends": list(spends)},
            )
        kind, attribute, value, _, tn, dice, total, result, rolled, spends = fields
        return TestResult(
            kind=kind,
            attribute=attribute,
            attribute_value=value,
            modifiers=roll.modifiers,
            tn=tn,
            dice=tuple(dice),  # type: ignore[arg-type]  # a pool, not two dice
            total=total,
            result=result,
            rolled_result=rolled,
            spends=tuple(spends),
            aftermath=aftermath,
            detail=detail,
        )

    # -------------------------------------------------------------- the Oracle
    def oracle_choice(
        self, roll: InvictusRoll, options: Sequence[str], view: ChoiceView
    ) -> OracleChoice | None:
        """See :meth:`InvictusResolution.oracle_choice`."""
        option, rule, text = self._system.oracle_choice(
            self._values(roll),
            [str(o) for o in options],
            str(view.model),
            int(view.resources.get(LUCK_RESOURCE, 0)),
        )
        return OracleChoice(option, rule, text)
