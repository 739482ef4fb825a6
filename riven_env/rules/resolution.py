"""The seam between the game loop and a dice engine.

The game loop never calls the RIVEN modules directly for dice; it calls a
:class:`ResolutionSystem`. :class:`RivenResolution` implements it by delegating to the modules
of this package. To compare another game's engine on the same missions, a designer writes a
class with the same methods and registers it with :func:`register_resolution`.

Example: an Invictus-style engine (``shared/rules/other-systems/invictus-rules.txt``) rolls a
pool of d6 and reads only the highest die (1-3 Miss, 4-5 Swing, 6 Hit, several 6s Crit), with
Favourable / Unfavourable circumstances adding or removing dice. Its ``roll_test`` would build
the pool from the attribute and the modifiers (each +1 a Favourable die), map the highest die
to our four bands (Miss -> "miss", Swing -> "partial", Hit -> "hit", Crit -> "critical") and
return a :class:`TestRoll` whose ``spends`` are empty; its ``spend_options`` could offer its
own currencies or nothing; ``resolve_melee`` could compare highest dice. Because the results
are the same record types, the game loop, event log, agents and reports need no change::

    class InvictusResolution:
        name = "invictus"
        def __init__(self, rules): ...
        def roll_test(self, kind, attribute, attribute_value, tn, modifiers, rng): ...
        ...

    register_resolution("invictus", InvictusResolution)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from riven_env.errors import RulesDataError
from riven_env.rules import (
    activation,
    casualties,
    complications,
    melee,
    morale,
    shooting,
    tests_2d6,
)
from riven_env.rules.config import RulesConfig
from riven_env.rules.results import (
    ActivationResult,
    Complication,
    MeleeResult,
    Modifier,
    MoraleResult,
    OutCheckResult,
    ShotEffect,
    TestResult,
    TestRoll,
)


@runtime_checkable
class ResolutionSystem(Protocol):
    """The dice operations the game loop needs. Every roll draws only from ``rng``."""

    name: str
    rules: RulesConfig

    def roll_activation(self, mettle: int, dice: int, rng: np.random.Generator) -> ActivationResult:
        """Roll an activation with ``dice`` dice."""
        ...

    def roll_test(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        rng: np.random.Generator,
    ) -> TestRoll:
        """Roll a test to a pending record."""
        ...

    def spend_options(
        self, roll: TestRoll, *, momentum: int, strain: int, strain_max: int
    ) -> list[str]:
        """Spends legal on a pending test."""
        ...

    def apply_spend(self, roll: TestRoll, option: str, rng: np.random.Generator) -> TestRoll:
        """Apply one spend."""
        ...

    def finalise(self, roll: TestRoll) -> TestResult:
        """Close a pending test."""
        ...

    def resolve_melee(
        self,
        attacker_might: int,
        defender_might: int,
        attacker_modifiers: Sequence[Modifier],
        defender_modifiers: Sequence[Modifier],
        rng: np.random.Generator,
    ) -> MeleeResult:
        """Roll and resolve one melee."""
        ...

    def shot_tn(self, cover: str) -> int:
        """The TN of a shot at a target in ``cover``."""
        ...

    def shot_effect(self, result_band: str) -> ShotEffect:
        """What a shot's band does."""
        ...

    def roll_morale(self, mettle: int, rng: np.random.Generator) -> MoraleResult:
        """Roll a morale test."""
        ...

    def roll_out_check(self, mettle: int, rng: np.random.Generator) -> OutCheckResult:
        """Roll a Down model's Out check."""
        ...

    def roll_complication(self, rng: np.random.Generator) -> Complication:
        """Roll on the Complication Oracle."""
        ...


class RivenResolution:
    """RIVEN v0.1's dice engine, configured by one :class:`RulesConfig`."""

    name = "riven"

    def __init__(self, rules: RulesConfig) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"RivenResolution(rules={self.rules.source!r})"

    def roll_activation(self, mettle: int, dice: int, rng: np.random.Generator) -> ActivationResult:
        """See :func:`riven_env.rules.activation.roll_activation`."""
        return activation.roll_activation(mettle, dice, rng, self.rules)

    def roll_test(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        rng: np.random.Generator,
    ) -> TestRoll:
        """See :func:`riven_env.rules.tests_2d6.roll_test`."""
        return tests_2d6.roll_test(kind, attribute, attribute_value, tn, modifiers, rng, self.rules)

    def spend_options(
        self, roll: TestRoll, *, momentum: int, strain: int, strain_max: int
    ) -> list[str]:
        """See :func:`riven_env.rules.tests_2d6.spend_options`."""
        return tests_2d6.spend_options(
            roll, momentum=momentum, strain=strain, strain_max=strain_max, rules=self.rules
        )

    def apply_spend(self, roll: TestRoll, option: str, rng: np.random.Generator) -> TestRoll:
        """See :func:`riven_env.rules.tests_2d6.apply_spend`."""
        return tests_2d6.apply_spend(roll, option, rng, self.rules)

    def finalise(self, roll: TestRoll) -> TestResult:
        """See :func:`riven_env.rules.tests_2d6.finalise`."""
        return tests_2d6.finalise(roll)

    def resolve_melee(
        self,
        attacker_might: int,
        defender_might: int,
        attacker_modifiers: Sequence[Modifier],
        defender_modifiers: Sequence[Modifier],
        rng: np.random.Generator,
    ) -> MeleeResult:
        """See :func:`riven_env.rules.melee.resolve_melee`."""
        return melee.resolve_melee(
            attacker_might, defender_might, attacker_modifiers, defender_modifiers, rng, self.rules
        )

    def shot_tn(self, cover: str) -> int:
        """See :func:`riven_env.rules.shooting.shot_tn`."""
        return shooting.shot_tn(cover, self.rules)

    def shot_effect(self, result_band: str) -> ShotEffect:
        """See :func:`riven_env.rules.shooting.shot_effect`."""
        return shooting.shot_effect(result_band, self.rules)

    def roll_morale(self, mettle: int, rng: np.random.Generator) -> MoraleResult:
        """See :func:`riven_env.rules.morale.roll_morale`."""
        return morale.roll_morale(mettle, rng, self.rules)

    def roll_out_check(self, mettle: int, rng: np.random.Generator) -> OutCheckResult:
        """See :func:`riven_env.rules.casualties.roll_out_check`."""
        return casualties.roll_out_check(mettle, rng, self.rules)

    def roll_complication(self, rng: np.random.Generator) -> Complication:
        """See :func:`riven_env.rules.complications.roll_complication`."""
        return complications.roll_complication(rng, self.rules)


_REGISTRY: dict[str, Callable[[RulesConfig], ResolutionSystem]] = {"riven": RivenResolution}


def register_resolution(name: str, factory: Callable[[RulesConfig], ResolutionSystem]) -> None:
    """Make a resolution system available to :func:`get_resolution` under ``name``."""
    _REGISTRY[name] = factory


def resolution_names() -> list[str]:
    """Names of the registered resolution systems."""
    return sorted(_REGISTRY)


def get_resolution(name: str, rules: RulesConfig) -> ResolutionSystem:
    """Build the resolution system registered as ``name`` for these rules.

    Raises:
        RulesDataError: No system has that name; the message lists the registered ones.
    """
    if name not in _REGISTRY:
        raise RulesDataError(
            f"unknown resolution system {name!r}; registered: {', '.join(resolution_names())}"
        )
    return _REGISTRY[name](rules)


def _register_bundled_systems() -> None:
    """Import the bundled systems of :mod:`riven_env.rules.systems` (each registers itself)."""
    from riven_env.rules.systems import riddle_of_steel  # noqa: F401


_register_bundled_systems()
