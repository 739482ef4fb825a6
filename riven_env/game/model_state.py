"""The mutable per-model state of a game in progress."""

from __future__ import annotations

from dataclasses import dataclass, field

from riven_env.rules.profiles import ModelProfile

ACTIVE = "active"
DOWN = "down"
OUT = "out"
FLED = "fled"
EXTRACTED = "extracted"


@dataclass(slots=True)
class ModelState:
    """One model on (or removed from) the table.

    The profile is immutable and shared between copies of a game; everything else here is
    small and copied with :meth:`copy`.

    Attributes:
        index: Position of the model in ``GameState.models`` and in the tabletop's bases.
        id: Stable identifier from the scenario (``"blue-2"``).
        side: ``"blue"`` or ``"red"``.
        profile: The model's profile (attributes, Mettle, weapons, keywords).
        oracle: The Enemy Oracle profile that drives this model when an oracle plays it.
        wounds: Wounds left; at 0 the model is Down.
        status: ``active``, ``down``, ``out``, ``fled`` or ``extracted``.
        stable: A Down model that an ally stabilised makes no more Out checks.
        strain: Current Strain (track maximum Wit x 2).
        conditions: Condition name -> activations begun since it was gained (used for
            conditions that expire at the end of the model's next activation).
        activated: Already activated in the current side-turn.
        aim_bonus: Bonus to the next shot this activation (Aim).
        hunkered: Took cover (shots count its cover one step better until its next activation).
        moved_or_attacked: Took an action Rest excludes (``actions.rest.excludes``: moved or
            attacked) in this side-turn, in its activation or a Momentum bonus action
            (forbids Rest for the rest of the turn).
        rested: Rested in this side-turn, in its activation or a bonus action (forbids what
            Rest excludes for the rest of the turn). Both last until its side's next turn.
        focused: Used Focus this activation.
        charged: Charged this activation (the charge bonus applies to the first strike only).
        resources: Per-model currencies of the resolution system (Invictus and New World
            Luck); empty under RIVEN.
        wounds_max: Wounds at the start of the game under the resolution system (0: the
            profile's).
    """

    index: int
    id: str
    side: str
    profile: ModelProfile
    oracle: str | None
    wounds: int
    status: str = ACTIVE
    stable: bool = False
    strain: int = 0
    conditions: dict[str, int] = field(default_factory=dict)
    activated: bool = False
    aim_bonus: int = 0
    hunkered: bool = False
    moved_or_attacked: bool = False
    rested: bool = False
    focused: bool = False
    charged: bool = False
    resources: dict[str, int] = field(default_factory=dict)
    wounds_max: int = 0

    @property
    def is_active(self) -> bool:
        """True while the model is on the table and not Down."""
        return self.status == ACTIVE

    @property
    def is_down(self) -> bool:
        return self.status == DOWN

    @property
    def on_table(self) -> bool:
        """Active and Down models stand on the table; Out, Fled and Extracted ones do not."""
        return self.status in (ACTIVE, DOWN)

    def copy(self) -> ModelState:
        # Field by field rather than dataclasses.replace: copies are hot in search agents.
        return ModelState(
            self.index,
            self.id,
            self.side,
            self.profile,
            self.oracle,
            self.wounds,
            self.status,
            self.stable,
            self.strain,
            dict(self.conditions),
            self.activated,
            self.aim_bonus,
            self.hunkered,
            self.moved_or_attacked,
            self.rested,
            self.focused,
            self.charged,
            dict(self.resources) if self.resources else {},
            self.wounds_max,
        )

    def reset_activation_flags(self) -> None:
        # moved_or_attacked and rested last the side-turn (reset_turn_flags): a bonus action
        # belongs to the model's activation of that turn for Rest's "no movement, no attack".
        self.aim_bonus = 0
        self.focused = False
        self.charged = False

    def reset_turn_flags(self) -> None:
        """At the start of its side's turn: a new activation, Rest's bans lifted."""
        self.activated = False
        self.moved_or_attacked = False
        self.rested = False
