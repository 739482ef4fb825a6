"""The common part of a resolution system whose dice engine is in the core.

A ported system (Invictus, New World) is a core class (``InvictusSystem``, ``NewWorldSystem``)
with the same methods: ``roll_test``, ``start_melee``, ``spend_options``, ``apply_spend``,
``finalise``, ``oracle_choice`` and ``choice_vocabulary``, each taking the pending roll as a
tuple of its fields. :class:`NativeSystemResolution` calls them behind the Python engine's
method signatures (:class:`~riven_env.rules.resolution.ResolutionSystem`): the stream, the
errors, the result records (``TestResult`` / ``MeleeResult`` with their ``aftermath`` and
``detail``) are handled once here. A subclass says how its roll crosses the seam
(:meth:`~NativeSystemResolution._roll` and :meth:`~NativeSystemResolution._values`), what the
core reads of a roll's context and a melee's sides, and how its closed roll's fields read. RIVEN's
rolls that a system keeps (activation, morale, Out checks, the Complication Oracle, the shot
table) are the core's RIVEN functions (:class:`~riven_env.native.rules.NativeRivenResolution`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from riven_env.errors import IllegalActionError
from riven_env.native.rules import NativeRivenResolution, _call, _core, _mods, _stream, native_rules
from riven_env.rules.config import RulesConfig
from riven_env.rules.resolution import ChoiceView, Combatant, OracleChoice, RollContext
from riven_env.rules.results import Aftermath, MeleeResult, Modifier, TestResult

__all__ = ["NativeSystemResolution"]


class NativeSystemResolution(NativeRivenResolution):
    """A system's dice for tests, shots and melee on the core; RIVEN's for the rest.

    Each method is the Python system's method of the same name, draw for draw. Subclasses set
    :attr:`name` (``meta.resolution``), :attr:`label` (the name in error messages) and
    :attr:`core_class` (the core's class), and fill in the hooks below.
    """

    name: str
    label: str
    core_class: str

    def __init__(self, rules: RulesConfig) -> None:
        super().__init__(rules)
        self.settings = self._settings_for(rules)
        self._system = _call(getattr(_core(), self.core_class), native_rules(rules))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rules={self.rules.source!r})"

    # -------------------------------------------------------------- hooks
    @staticmethod
    def _settings_for(rules: RulesConfig) -> Any:
        """The Python system's parsed settings (the rolls carry them)."""
        raise NotImplementedError

    def _roll(self, values: tuple[Any, ...]) -> Any:
        """The Python pending roll of the core's roll tuple."""
        raise NotImplementedError

    @staticmethod
    def _values(roll: Any) -> tuple[Any, ...]:
        """The core's roll tuple of a Python pending roll."""
        raise NotImplementedError

    def _test_facts(self, attribute: str, context: RollContext) -> tuple[Any, ...]:
        """The core ``roll_test``'s arguments after the modifiers (what it reads of the context)."""
        raise NotImplementedError

    def _melee_side(self, side: Combatant, *, attacking: bool) -> tuple[Any, ...]:
        """What the core ``start_melee`` reads of one side."""
        raise NotImplementedError

    def _spend_args(self, resources: Mapping[str, int] | None) -> tuple[Any, ...]:
        """The core ``spend_options``'s arguments after the roll (none by default)."""
        return ()

    def _refusal_args(self, roll: Any) -> tuple[Any, ...]:
        """The core ``spend_options``'s arguments after the roll for the options an illegal
        choice's error lists (none by default)."""
        return ()

    def _apply_spend(self, values: tuple[Any, ...], option: str, rng: Any) -> tuple[Any, ...]:
        """The core ``apply_spend`` (by default a choice may roll dice: it takes the stream; a
        choice that draws nothing may be given no stream, as the Python engine allows)."""
        rng = _core().ScriptedDice([]) if rng is None else rng
        with _stream(rng) as stream:
            return self._system.apply_spend(values, option, stream)

    def _oracle_args(self, view: ChoiceView) -> tuple[Any, ...]:
        """The core ``oracle_choice``'s arguments after the model (none by default)."""
        return ()

    def _detail(self, roll: Any, values: Sequence[Any]) -> dict[str, Any]:
        """A closed roll's ``detail`` (after its ``system``) from the core's detail values."""
        raise NotImplementedError

    def _melee_sides(
        self, roll: Any, head: Sequence[Any]
    ) -> tuple[Sequence[int], Sequence[int], int, int, tuple[Modifier, ...]]:
        """A closed melee's ``(attacker dice, defender dice, attacker total, defender total,
        defender modifiers)`` from the head of the core's melee fields (those before the
        outcome)."""
        raise NotImplementedError

    def _test_extra(self, extra: Sequence[Any]) -> dict[str, Any]:
        """A closed test's fields beyond RIVEN's (the core's test fields after the spends)."""
        return {}

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
    ) -> Any:
        """See the Python system's ``roll_test``."""
        context = context or RollContext()
        facts = self._test_facts(attribute, context)
        with _stream(rng) as stream:
            values = _call(
                self._system.roll_test,
                kind,
                attribute,
                int(attribute_value),
                int(tn),
                _mods(modifiers),
                *facts,
                stream,
            )
        return self._roll(values)

    def start_melee(self, attacker: Combatant, defender: Combatant, rng: Any) -> Any:
        """See the Python system's ``start_melee``."""
        sides = (
            self._melee_side(attacker, attacking=True),
            self._melee_side(defender, attacking=False),
        )
        with _stream(rng) as stream:
            values = _call(self._system.start_melee, *sides, stream)
        return self._roll(values)

    # -------------------------------------------------------------- choices
    def spend_options(
        self,
        roll: Any,
        *,
        momentum: int,
        strain: int,
        strain_max: int,
        resources: Mapping[str, int] | None = None,
    ) -> list[str]:
        """See the Python system's ``spend_options``."""
        return list(self._system.spend_options(self._values(roll), *self._spend_args(resources)))

    def apply_spend(self, roll: Any, option: str, rng: Any) -> Any:
        """See the Python system's ``apply_spend``."""
        native = _core()
        values = self._values(roll)
        try:
            return self._roll(self._apply_spend(values, option, rng))
        except native.IllegalAction:
            allowed = list(self._system.spend_options(values, *self._refusal_args(roll)))
            raise IllegalActionError(
                option, allowed, reason=f"{self.label} {roll.kind} roll"
            ) from None

    # -------------------------------------------------------------- closing
    def finalise(self, roll: Any) -> TestResult | MeleeResult:
        """See the Python system's ``finalise``."""
        aftermath_values, detail_values, fields = self._system.finalise(self._values(roll))
        aftermath = tuple(Aftermath(*entry) for entry in aftermath_values)
        detail: dict[str, Any] = {"system": self.name, **self._detail(roll, detail_values)}
        if roll.melee is not None:
            *head, outcome, winner, wounds, dazed, recoil, condition, spends = fields
            a_dice, d_dice, a_total, d_total, d_mods = self._melee_sides(roll, head)
            return MeleeResult(
                attacker_dice=tuple(a_dice),  # type: ignore[arg-type]  # the system's dice
                defender_dice=tuple(d_dice),  # type: ignore[arg-type]
                attacker_modifiers=roll.modifiers,
                defender_modifiers=d_mods,
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
        kind, attribute, value, _, tn, dice, total, result, rolled, spends, *extra = fields
        return TestResult(
            kind=kind,
            attribute=attribute,
            attribute_value=value,
            modifiers=roll.modifiers,
            tn=tn,
            dice=tuple(dice),  # type: ignore[arg-type]  # the system's dice, not two
            total=total,
            result=result,
            rolled_result=rolled,
            spends=tuple(spends),
            aftermath=aftermath,
            detail=detail,
            **self._test_extra(extra),
        )

    # -------------------------------------------------------------- the Oracle
    def oracle_choice(self, roll: Any, options: Sequence[str], view: ChoiceView) -> OracleChoice:
        """See the Python system's ``oracle_choice``."""
        option, rule, text = self._system.oracle_choice(
            self._values(roll), [str(o) for o in options], str(view.model), *self._oracle_args(view)
        )
        return OracleChoice(option, rule, text)
