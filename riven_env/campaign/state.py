"""The warband between missions: immutable records of each model and of the warband.

A :class:`WarbandModel` is what persists of one model from mission to mission: its advanced
attributes, Mettle, wounds, move, weapons and keywords (all starting as its library profile's),
its talents, lasting injuries, experience and status. :func:`model_profile` turns it into the
:class:`~riven_env.rules.profiles.ModelProfile` it fields in the next mission. Every change
makes a new record (:func:`dataclasses.replace`); nothing here rolls dice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from riven_env.rules.profiles import ModelProfile

#: A model's status between missions.
STATUSES: tuple[str, ...] = ("fit", "convalescing", "dead", "retired")


@dataclass(frozen=True)
class WarbandModel:
    """One model of the warband between missions.

    Attributes:
        id: Its name in the campaign, and its model id in every mission.
        base: The profile library key it was recruited as.
        might, agility, wit, resolve: Attributes (1..5).
        mettle: Activation threshold (lower is better).
        wounds: Wounds it starts each mission with.
        move: Move in inches.
        melee, ranged: Weapon keys of the profile library (None: none).
        keywords: Profile keywords (sorted).
        talents: Talents taken, in order.
        injuries: Lasting injuries suffered, in order.
        xp: Unspent experience.
        xp_total: Experience earned over the campaign.
        missions: Missions it fought.
        kills: Enemy models it took Down over the campaign.
        status: One of :data:`STATUSES`.
        resting: Whether it sits the next mission out by choice (a rest decision).
    """

    id: str
    base: str
    might: int
    agility: int
    wit: int
    resolve: int
    mettle: int
    wounds: int
    move: float
    melee: str | None
    ranged: str | None
    keywords: tuple[str, ...]
    talents: tuple[str, ...] = ()
    injuries: tuple[str, ...] = ()
    xp: int = 0
    xp_total: int = 0
    missions: int = 0
    kills: int = 0
    status: str = "fit"
    resting: bool = False

    @property
    def alive(self) -> bool:
        """Still in the warband (not dead, not retired)."""
        return self.status in ("fit", "convalescing")

    @property
    def fields(self) -> bool:
        """Plays the next mission: fit and not resting."""
        return self.status == "fit" and not self.resting

    def attribute(self, name: str) -> int:
        """The value of an attribute by name."""
        return int(getattr(self, name))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record (the campaign log's model records)."""
        return {
            "id": self.id,
            "base": self.base,
            "might": self.might,
            "agility": self.agility,
            "wit": self.wit,
            "resolve": self.resolve,
            "mettle": self.mettle,
            "wounds": self.wounds,
            "move": self.move,
            "melee": self.melee,
            "ranged": self.ranged,
            "keywords": list(self.keywords),
            "talents": list(self.talents),
            "injuries": list(self.injuries),
            "xp": self.xp,
            "xp_total": self.xp_total,
            "missions": self.missions,
            "kills": self.kills,
            "status": self.status,
            "resting": self.resting,
        }


@dataclass(frozen=True)
class Warband:
    """The warband between missions.

    Attributes:
        name: Display name.
        models: Every model ever in it, in joining order (the dead and retired included).
        points: Unspent campaign points (recruiting).
        max_models: The most living models it may hold.
        recruits: Profile keys it may recruit.
    """

    name: str
    models: tuple[WarbandModel, ...]
    points: int = 0
    max_models: int = 6
    recruits: tuple[str, ...] = ()

    def living(self) -> tuple[WarbandModel, ...]:
        """Models still in the warband."""
        return tuple(m for m in self.models if m.alive)

    def fielded(self) -> tuple[WarbandModel, ...]:
        """Models that play the next mission."""
        return tuple(m for m in self.models if m.fields)

    def model(self, model_id: str) -> WarbandModel:
        """The model with this id (KeyError when none)."""
        for m in self.models:
            if m.id == model_id:
                return m
        raise KeyError(model_id)

    def with_model(self, model: WarbandModel) -> Warband:
        """The warband with ``model`` replacing the record of the same id (or added)."""
        if any(m.id == model.id for m in self.models):
            return replace(
                self, models=tuple(model if m.id == model.id else m for m in self.models)
            )
        return replace(self, models=(*self.models, model))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record."""
        return {
            "name": self.name,
            "points": self.points,
            "max_models": self.max_models,
            "models": [m.to_dict() for m in self.models],
        }


def from_profile(model_id: str, base: str, profile: ModelProfile, **changes: Any) -> WarbandModel:
    """A new warband model with the stats of a library profile (``changes`` on top)."""
    model = WarbandModel(
        id=model_id,
        base=base,
        might=profile.might,
        agility=profile.agility,
        wit=profile.wit,
        resolve=profile.resolve,
        mettle=profile.mettle,
        wounds=profile.wounds,
        move=float(profile.move),
        melee=profile.melee.name if profile.melee is not None else None,
        ranged=profile.ranged.name if profile.ranged is not None else None,
        keywords=tuple(sorted(profile.keywords)),
    )
    return replace(model, **changes) if changes else model


def model_profile(model: WarbandModel, library: Any) -> ModelProfile:
    """The profile ``model`` fields: its library profile with the campaign's changes.

    The profile's name is ``BASE/ID`` (unique per model: the native core keys weapons by
    profile name); display names stay the library's.
    """
    base = library.profiles[model.base]
    return replace(
        base,
        name=f"{model.base}/{model.id}",
        might=model.might,
        agility=model.agility,
        wit=model.wit,
        resolve=model.resolve,
        mettle=model.mettle,
        wounds=model.wounds,
        move=model.move,
        melee=_weapon(model.melee, base.melee, library),
        ranged=_weapon(model.ranged, base.ranged, library),
        keywords=frozenset(model.keywords),
    )


def _weapon(key: str | None, own: Any, library: Any) -> Any:
    """The library weapon ``key`` (the profile's own when the library has no such key)."""
    if key is None:
        return None
    if own is not None and own.name == key:
        return own
    return library.weapons[key]


__all__ = ["STATUSES", "Warband", "WarbandModel", "from_profile", "model_profile"]
