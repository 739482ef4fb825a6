"""The seam between the game loop and a dice engine.

The game loop never calls the RIVEN modules directly for dice; it calls a
:class:`ResolutionSystem`. :class:`RivenResolution` implements it by delegating to the modules
of this package. Other games' engines live in :mod:`riven_env.rules.systems`, each registered
with :func:`register_resolution` together with its rules data file, the validator of its
section and its exact odds. The contract (pending records, pre-roll allocation, aftermath,
detail, the Oracle's choices) is ``docs/resolution-systems.md``, "Adding a system".
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

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
from riven_env.rules.profiles import ModelProfile
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
from riven_env.rules.rules_data import RulesConfig


@dataclass(frozen=True)
class RollContext:
    """What the game knows about a roll beyond its numbers (a system reads what it needs).

    Attributes:
        engaged: The roller is in base contact with an enemy (in a fray).
        charging: The roll is a charge's first strike.
        opponent: The other model's profile (a shot's target, a melee foe), or None.
        cover: The cover a shot is resolved against, or None.
        conditions: The roller's Conditions.
        wounds_left: The roller's wounds left.
        wounds_max: Its starting wounds under this system (0: no wound track known).
        helpers: Friends able to help (active, not engaged, within ``distances.rally_range``).
        helper_models: Their model indices, nearest first.
        final_round: The game is in its last round.
        opponent_wounds_left: The other model's wounds left (0 when there is none).
        profile: The roller's own profile, or None.
        resources: The roller's per-model resources (``ModelState.resources``).
    """

    engaged: bool = False
    charging: bool = False
    opponent: ModelProfile | None = None
    cover: str | None = None
    conditions: tuple[str, ...] = ()
    wounds_left: int = 0
    wounds_max: int = 0
    helpers: int = 0
    helper_models: tuple[int, ...] = ()
    final_round: bool = False
    opponent_wounds_left: int = 0
    profile: ModelProfile | None = None
    resources: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Combatant:
    """One side of a melee as the game hands it to :meth:`ResolutionSystem.start_melee`.

    Attributes:
        profile: The model's profile.
        modifiers: RIVEN's melee modifiers for it (charge, outnumbered, weapon, Conditions).
        context: What the game knows about it (its foe is ``context.opponent``).
        resources: Its per-model resources (``ModelState.resources``) when the melee starts.
    """

    profile: ModelProfile
    modifiers: tuple[Modifier, ...]
    context: RollContext = field(default_factory=RollContext)
    resources: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ChoiceView:
    """What the Enemy Oracle tells a system when it asks for a choice on a pending record.

    Attributes:
        model: The chooser's model id.
        resources: The chooser's resources now.
        momentum: The chooser's side's Momentum (before this roll's spends).
        strain: The chooser's Strain; ``strain_max`` its track maximum.
    """

    model: str
    resources: Mapping[str, int]
    momentum: int = 0
    strain: int = 0
    strain_max: int = 0


@dataclass(frozen=True)
class OracleChoice:
    """A system's choice for the Oracle: the option, a stable rule id, the reason in words."""

    option: str
    rule: str
    text: str


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
        context: RollContext | None = None,
    ) -> Any:
        """Roll a test to a pending record."""
        ...

    def spend_options(
        self,
        roll: Any,
        *,
        momentum: int,
        strain: int,
        strain_max: int,
        resources: Mapping[str, int] | None = None,
    ) -> list[str]:
        """The chooser's options on a pending record."""
        ...

    def apply_spend(self, roll: Any, option: str, rng: np.random.Generator) -> Any:
        """Apply one option (an allocation may roll the dice)."""
        ...

    def accept(self, roll: Any) -> Any | None:
        """The chooser accepted: None closes the roll, a record hands the choice on."""
        ...

    def finalise(self, roll: Any) -> TestResult | MeleeResult:
        """Close a pending record."""
        ...

    def starting_wounds(self, profile: ModelProfile) -> int:
        """A model's wounds at the start of a game."""
        ...

    def starting_resources(self, profile: ModelProfile) -> dict[str, int]:
        """A model's per-model resources at the start of a game."""
        ...

    def start_melee(
        self, attacker: Combatant, defender: Combatant, rng: np.random.Generator
    ) -> MeleeResult | Any:
        """Start a melee: a result at once, or a pending record with choices."""
        ...

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """Every ``(decision kind, option)`` the system can offer on a pending record."""
        ...

    def oracle_choice(
        self, roll: Any, options: Sequence[str], view: ChoiceView
    ) -> OracleChoice | None:
        """The system's own explainable choice for the Enemy Oracle (None: the Oracle's rules)."""
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
        context: RollContext | None = None,
    ) -> TestRoll:
        """See :func:`riven_env.rules.tests_2d6.roll_test` (RIVEN reads no context)."""
        return tests_2d6.roll_test(kind, attribute, attribute_value, tn, modifiers, rng, self.rules)

    def spend_options(
        self,
        roll: TestRoll,
        *,
        momentum: int,
        strain: int,
        strain_max: int,
        resources: Mapping[str, int] | None = None,
    ) -> list[str]:
        """See :func:`riven_env.rules.tests_2d6.spend_options`."""
        return tests_2d6.spend_options(
            roll, momentum=momentum, strain=strain, strain_max=strain_max, rules=self.rules
        )

    def apply_spend(self, roll: TestRoll, option: str, rng: np.random.Generator) -> TestRoll:
        """See :func:`riven_env.rules.tests_2d6.apply_spend`."""
        return tests_2d6.apply_spend(roll, option, rng, self.rules)

    def accept(self, roll: Any) -> Any | None:
        """RIVEN's tests have one chooser: accepting closes the roll."""
        return None

    def finalise(self, roll: TestRoll) -> TestResult:
        """See :func:`riven_env.rules.tests_2d6.finalise`."""
        return tests_2d6.finalise(roll)

    def starting_wounds(self, profile: ModelProfile) -> int:
        """The profile's wounds."""
        return profile.wounds

    def starting_resources(self, profile: ModelProfile) -> dict[str, int]:
        """RIVEN keeps no per-model resources (Momentum is the side's, Strain its own track)."""
        return {}

    def start_melee(
        self, attacker: Combatant, defender: Combatant, rng: np.random.Generator
    ) -> MeleeResult:
        """RIVEN's opposed melee has no choices: resolved at once (:meth:`resolve_melee`)."""
        return self.resolve_melee(
            attacker.profile.might,
            defender.profile.might,
            attacker.modifiers,
            defender.modifiers,
            rng,
        )

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """RIVEN's spends: a reroll of each test die, a boost and a Strain spend."""
        dice = int(self.rules.get("test.dice"))
        options = [f"{tests_2d6.REROLL_PREFIX}{k}" for k in range(dice)]
        return tuple(("spend", o) for o in [*options, tests_2d6.BOOST, tests_2d6.STRAIN])

    def oracle_choice(
        self, roll: Any, options: Sequence[str], view: ChoiceView
    ) -> OracleChoice | None:
        """None: the Oracle's profile spend rules decide RIVEN's spends."""
        return None

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


OddsFunction = Callable[..., dict[str, Any]]
SectionValidator = Callable[[Mapping[str, Any], str, Mapping[str, Any]], None]


@dataclass(frozen=True)
class SystemSpec:
    """A registered resolution system.

    Attributes:
        name: The value of ``meta.resolution``.
        factory: Builds the engine for a :class:`RulesConfig`.
        rules_file: Its bundled data file in ``riven_env/rules/data`` (None: RIVEN's only).
        section: The top-level table that file holds (None: none).
        validate: Checks the section (refusing unknown keys); ``(section, source, raw)`` with
            ``raw`` the whole merged data (for cross references to RIVEN's sections).
        odds_test: Exact odds for ``riven odds test --resolution NAME``: ``(rules, **options)``.
        odds_melee: Exact odds for ``riven odds melee --resolution NAME`` (options ``might``,
            ``vs``, ``modifier``, ``vs_modifier``), where the system defines a melee.
        odds_shoot: Exact odds for ``riven odds shoot --resolution NAME`` (options
            ``agility``, ``cover``, ``modifier``, ``vs_agility``).
    """

    name: str
    factory: Callable[[RulesConfig], ResolutionSystem]
    rules_file: str | None = None
    section: str | None = None
    validate: SectionValidator | None = None
    odds_test: OddsFunction | None = None
    odds_melee: OddsFunction | None = None
    odds_shoot: OddsFunction | None = None


_REGISTRY: dict[str, SystemSpec] = {"riven": SystemSpec("riven", RivenResolution)}
_BUILTINS_LOADED = False


def _load_builtins() -> None:
    """Import the bundled systems (they register themselves) the first time one is asked for.

    Lazy because the systems import this module: importing them from here at import time
    would be circular.
    """
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED = True
    importlib.import_module("riven_env.rules.systems")


def register_resolution(
    name: str,
    factory: Callable[[RulesConfig], ResolutionSystem],
    *,
    rules_file: str | None = None,
    section: str | None = None,
    validate: SectionValidator | None = None,
    odds_test: OddsFunction | None = None,
    odds_melee: OddsFunction | None = None,
    odds_shoot: OddsFunction | None = None,
) -> None:
    """Make a resolution system available under ``name`` (``meta.resolution``).

    Args:
        name: The system's name.
        factory: Builds the engine from the merged rules.
        rules_file: Its bundled TOML file (in ``riven_env/rules/data``), holding one table.
        section: The name of that table; required with ``rules_file``.
        validate: Validates the section; must refuse unknown keys.
        odds_test: Its exact odds for ``riven odds test --resolution``.
        odds_melee: Its exact melee odds for ``riven odds melee --resolution``.
        odds_shoot: Its exact shot odds for ``riven odds shoot --resolution``.

    Raises:
        RulesDataError: ``rules_file`` without ``section``.
    """
    if rules_file is not None and not section:
        raise RulesDataError(f"resolution system {name!r}: rules_file needs a section name")
    _REGISTRY[name] = SystemSpec(
        name, factory, rules_file, section, validate, odds_test, odds_melee, odds_shoot
    )


def resolution_names() -> list[str]:
    """Names of the registered resolution systems."""
    _load_builtins()
    return sorted(_REGISTRY)


def system_spec(name: str) -> SystemSpec:
    """The registration of system ``name``.

    Raises:
        RulesDataError: No system has that name; the message lists the registered ones.
    """
    _load_builtins()
    if name not in _REGISTRY:
        raise RulesDataError(
            f"unknown resolution system {name!r}; registered: {', '.join(resolution_names())}"
        )
    return _REGISTRY[name]


def get_resolution(name: str, rules: RulesConfig) -> ResolutionSystem:
    """Build the resolution system registered as ``name`` for these rules.

    Raises:
        RulesDataError: No system has that name; the message lists the registered ones.
    """
    return system_spec(name).factory(rules)
