"""Result records of every dice mechanic: frozen dataclasses with JSON-ready ``to_dict()``.

Dice tuples always hold the dice as finally resolved (after any reroll). Band names of 2d6
tests are ``"miss"``, ``"partial"``, ``"hit"`` and ``"critical"``, worst to best.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Band = Literal["miss", "partial", "hit", "critical"]
BANDS: tuple[str, ...] = ("miss", "partial", "hit", "critical")
"""2d6 test bands from worst to best; the index is the tier."""

MeleeOutcome = Literal["parry", "recoil", "wound", "critical"]

AFTERMATH_EFFECTS: tuple[str, ...] = (
    "resource",
    "strain",
    "wound",
    "complication",
    "condition",
    "end_activation",
)
"""What an :class:`Aftermath` may do (``docs/resolution-systems.md``)."""


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(_jsonable(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


class _Record:
    """Mixin: ``to_dict()`` for frozen dataclasses whose fields are JSON-friendly."""

    def to_dict(self) -> dict[str, Any]:
        """Return the record as a dict of JSON-ready values (tuples become lists)."""
        return _jsonable(asdict(self))  # type: ignore[call-overload]


@dataclass(frozen=True)
class Modifier(_Record):
    """One named modifier to a roll, e.g. ``Modifier("charge", 2)``."""

    source: str
    value: int

    def to_dict(self) -> dict[str, Any]:
        """Return the modifier as a dict (what the mixin's generic walk gives, directly)."""
        return {"source": self.source, "value": self.value}


def modifiers_total(modifiers: tuple[Modifier, ...] | list[Modifier]) -> int:
    """Sum the values of a list of modifiers."""
    return sum(m.value for m in modifiers)


@dataclass(frozen=True)
class Aftermath(_Record):
    """One effect of a closed roll that the game loop applies after its result.

    RIVEN's own rolls have none; another resolution system uses them for what its rules add
    (Invictus: Luck earned on a Crit, a Danger Die's hard move; New World: Luck spent).

    Attributes:
        who: ``"actor"`` (the model that rolled) or ``"target"`` (the other model).
        effect: One of :data:`AFTERMATH_EFFECTS`.
        amount: Resource change, Strain or wounds (0 where the effect has no amount).
        name: The resource (``effect == "resource"``) or Condition (``"condition"``) named.
        reason: Why, for the event log (``"luck spent"``, ``"hard move"``).
    """

    who: str
    effect: str
    amount: int = 0
    name: str = ""
    reason: str = ""


@dataclass(frozen=True)
class ActivationResult(_Record):
    """An activation roll.

    Attributes:
        mettle: The threshold each die had to meet or beat.
        dice: The dice rolled.
        successes: Dice that met or beat ``mettle``.
        actions: Actions the model may take.
        turn_passes: Whether the side-turn passes to the opponent after this activation.
        rule: Which row of the activation table applied, e.g. ``"one_success_with_failures"``.
    """

    mettle: int
    dice: tuple[int, ...]
    successes: int
    actions: int
    turn_passes: bool
    rule: str


@dataclass(frozen=True)
class TestRoll(_Record):
    """A 2d6 test rolled but not yet finalised: the controlling agent may still spend.

    Attributes:
        kind: What the test is for (``"shot"``, ``"disengage"``, ``"rally"``, ...).
        attribute: The attribute added (``"agility"``, ...).
        attribute_value: Its rating.
        modifiers: Every modifier applied.
        tn: The target number.
        dice: The two dice as they stand now.
        rolled_result: The band the dice give, before boosts and Strain.
        result: The band after boosts and Strain.
        spends: Spends applied so far, in order (``"reroll:0"``, ``"boost"``, ``"strain"``).
        momentum_spent: Momentum the spends cost.
        strain_taken: Strain the spends cost (the caller adds it to the model's track).
        critical_momentum: Momentum a Critical grants (from the rules when rolled), so that
            :func:`~riven_env.rules.tests_2d6.finalise` needs no rules argument.
    """

    __test__ = False  # not a pytest test class, despite the name

    kind: str
    attribute: str
    attribute_value: int
    modifiers: tuple[Modifier, ...]
    tn: int
    dice: tuple[int, int]
    rolled_result: str
    result: str
    spends: tuple[str, ...] = ()
    momentum_spent: int = 0
    strain_taken: int = 0
    critical_momentum: int = 0

    @property
    def total(self) -> int:
        """2d6 + attribute + modifiers."""
        return sum(self.dice) + self.attribute_value + modifiers_total(self.modifiers)

    @property
    def margin(self) -> int:
        """Total minus TN."""
        return self.total - self.tn

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready values, with ``total`` and ``margin`` included."""
        return {**super().to_dict(), "total": self.total, "margin": self.margin}


@dataclass(frozen=True)
class TestResult(_Record):
    """A finalised 2d6 test.

    Attributes:
        momentum_gained: Momentum the caller grants the pool (a Critical gives
            ``momentum.gain.critical``).
        Other fields as in :class:`TestRoll`; ``total`` is 2d6 + attribute + modifiers.
    """

    __test__ = False

    kind: str
    attribute: str
    attribute_value: int
    modifiers: tuple[Modifier, ...]
    tn: int
    dice: tuple[int, int]
    total: int
    result: str
    rolled_result: str
    spends: tuple[str, ...]
    momentum_spent: int = 0
    strain_taken: int = 0
    momentum_gained: int = 0
    aftermath: tuple[Aftermath, ...] = ()
    """Effects the game applies after the result (other resolution systems)."""
    detail: dict[str, Any] = field(default_factory=dict)
    """The resolution system's own reading of the roll (``detail`` of the event); RIVEN: {}."""


@dataclass(frozen=True)
class MeleeResult(_Record):
    """An opposed melee roll (no bands: totals are compared)."""

    attacker_dice: tuple[int, int]
    defender_dice: tuple[int, int]
    attacker_modifiers: tuple[Modifier, ...]
    defender_modifiers: tuple[Modifier, ...]
    attacker_total: int
    defender_total: int
    outcome: str
    winner: str | None
    wounds: int
    dazed: bool
    recoil_distance: float
    condition: str = ""
    """The Condition the loser gains (the critical's Dazed), or ``""``."""
    aftermath: tuple[Aftermath, ...] = ()
    """Effects the game applies after the outcome (``who``: attacker = actor)."""
    detail: dict[str, Any] = field(default_factory=dict)
    """The resolution system's own reading of the melee; RIVEN: {}."""

    @property
    def loser(self) -> str | None:
        """``"attacker"``, ``"defender"`` or ``None`` on a parry."""
        if self.winner is None:
            return None
        return "defender" if self.winner == "attacker" else "attacker"


@dataclass(frozen=True)
class Complication(_Record):
    """A roll on the Complication Oracle.

    Attributes:
        roll: The die.
        name: Entry name.
        text: Rules text.
        effect: One of ``strain``, ``end_activation``, ``enemy_momentum``,
            ``lose_momentum``, ``condition``, ``exposed``.
        amount: Strain gained or Momentum moved (0 when the effect has no amount).
        condition: The Condition gained for ``effect == "condition"``, else ``""``.
        flavour: Setting name to flavour text.
    """

    roll: int
    name: str
    text: str
    effect: str
    amount: int
    condition: str
    flavour: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ShotEffect(_Record):
    """What a shot's band does.

    Attributes:
        wounds: Wounds the target takes.
        push_distance: Inches the target is pushed directly away from the shooter.
        shooter_exposed: Whether the shooter gains the Exposed Condition.
        complication: Whether the shooter rolls on the Complication Oracle.
    """

    wounds: int
    push_distance: float
    shooter_exposed: bool
    complication: bool


@dataclass(frozen=True)
class ShotResult(_Record):
    """A finalised shot: the test, the cover it was resolved against, and the effect."""

    test: TestResult
    cover: str
    effect: ShotEffect


@dataclass(frozen=True)
class MoraleResult(_Record):
    """A morale test: one die vs Mettle; on failure the model flees ``flee_distance``."""

    mettle: int
    die: int
    passed: bool
    flee_distance: float
    flee_dice: tuple[int, ...]


@dataclass(frozen=True)
class OutCheckResult(_Record):
    """The end-of-turn roll of an unstabilised Down model: failure means Out."""

    mettle: int
    die: int
    out: bool


@dataclass(frozen=True)
class StrainChange(_Record):
    """A change to a model's Strain.

    Attributes:
        old_value: Strain before.
        new_value: Strain after (never above the track maximum).
        overflow: Whether the change exceeded the track.
        roll: The d6 rolled on the overflow table (0 when there was no overflow).
        condition_gained: The Condition from the overflow table, or ``""``.
    """

    old_value: int
    new_value: int
    overflow: bool
    roll: int = 0
    condition_gained: str = ""
