"""The campaign file schema (version 1) and its loaded form.

A campaign file is TOML (``docs/campaigns.md``, "The campaign file"): ``[campaign]`` (name,
setting, mode), ``[warband]`` with its ``[[warband.models]]``, ``[threat]`` (the enemy
roster and its points per step), ``[[chain]]`` (a bundled or file mission, or a generator
kind, per step) and ``[end]``. The key specs here are checked by
:mod:`riven_env.campaign.loader` with the scenario loader's field checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from riven_env.campaign.state import Warband
from riven_env.scenario import GENERATOR_KINDS, SETTINGS
from riven_env.scenario.checks import FieldSpec
from riven_env.scenario.schema import (
    MAX_MODELS_PER_SIDE,
    MODEL_ID_PATTERN,
    MODEL_ID_WORDS,
    MODES,
    NAME_PATTERN,
    NAME_WORDS,
)

SCHEMA_VERSION = 1
MAX_STEPS = 100
MAX_POINTS = 10_000
ENEMY_SOURCES: tuple[str, ...] = ("threat", "mission")

TOP_FIELDS = {
    "schema_version": FieldSpec("int", required=True),
    "campaign": FieldSpec("table", required=True),
    "warband": FieldSpec("table", required=True),
    "threat": FieldSpec("table", required=True),
    "chain": FieldSpec("tables", required=True, max_items=MAX_STEPS),
    "end": FieldSpec("table", default={}),
}
CAMPAIGN_FIELDS = {
    "name": FieldSpec("str", required=True, pattern=NAME_PATTERN, pattern_words=NAME_WORDS),
    "title": FieldSpec("str", required=True),
    "description": FieldSpec("str", default=""),
    "setting": FieldSpec("str", required=True, choices=SETTINGS),
    "mode": FieldSpec("str", default="warband", choices=MODES),
    "rules": FieldSpec("str"),
}
WARBAND_FIELDS = {
    "name": FieldSpec("str", required=True),
    "points": FieldSpec("int", default=0, minimum=0, maximum=MAX_POINTS),
    "max_models": FieldSpec(
        "int",
        default=6,
        minimum=1,
        maximum=MAX_MODELS_PER_SIDE,
        limit_key="scenario.max_models_per_side",
    ),
    "recruits": FieldSpec("str_list", default=()),
    "models": FieldSpec(
        "tables",
        required=True,
        max_items=MAX_MODELS_PER_SIDE,
        limit_key="scenario.max_models_per_side",
    ),
}
_ATTRIBUTE = FieldSpec("int", minimum=1, maximum=5)
MODEL_FIELDS = {
    "id": FieldSpec("str", required=True, pattern=MODEL_ID_PATTERN, pattern_words=MODEL_ID_WORDS),
    "profile": FieldSpec("str", required=True),
    "might": _ATTRIBUTE,
    "agility": _ATTRIBUTE,
    "wit": _ATTRIBUTE,
    "resolve": _ATTRIBUTE,
}
THREAT_FIELDS = {
    "enemy": FieldSpec("str_list", required=True),
    "points_start": FieldSpec("int", required=True, minimum=1, maximum=MAX_POINTS),
    "points_per_step": FieldSpec("int", default=0, minimum=0, maximum=MAX_POINTS),
    "points_max": FieldSpec("int", default=MAX_POINTS, minimum=1, maximum=MAX_POINTS),
    "oracle": FieldSpec("str"),
}
STEP_FIELDS = {
    "mission": FieldSpec("str"),
    "generator": FieldSpec("str", choices=GENERATOR_KINDS),
    "seed": FieldSpec("int", minimum=0, maximum=2**63 - 1),
    "count": FieldSpec("int", default=1, minimum=1, maximum=MAX_STEPS),
    "enemy": FieldSpec("str", default="threat", choices=ENEMY_SOURCES),
    "enemy_points": FieldSpec("int", minimum=1, maximum=MAX_POINTS),
}
END_FIELDS = {
    "min_models": FieldSpec("int", default=1, minimum=1, maximum=MAX_MODELS_PER_SIDE),
    "wins": FieldSpec("int", default=0, minimum=0, maximum=MAX_STEPS),
}


@dataclass(frozen=True)
class ThreatSpec:
    """How the enemy grows: ``enemy`` profiles cycled until the step's points are spent."""

    enemy: tuple[str, ...]
    points_start: int
    points_per_step: int
    points_max: int
    oracle: str | None

    def points(self, step: int) -> int:
        """The enemy's points at ``step`` (0-based)."""
        return min(self.points_start + step * self.points_per_step, self.points_max)


@dataclass(frozen=True)
class StepSpec:
    """One mission of the chain (``count`` expanded).

    Attributes:
        index: 0-based step number.
        mission: Path of a mission file (bundled or the campaign's own), or None.
        mission_name: What the file named it as (``skirmish-5v5``, ``missions/x.toml``).
        generator: Generator kind, or None.
        seed: A pinned generator seed, or None (drawn from the campaign's seed).
        enemy: ``threat`` (the threat roster) or ``mission`` (the mission's own red side).
        enemy_points: A pinned enemy budget, or None (the threat's for the step).
        field: The chain entry's field path (for messages).
    """

    index: int
    mission: Path | None
    mission_name: str | None
    generator: str | None
    seed: int | None
    enemy: str
    enemy_points: int | None
    field: str


@dataclass(frozen=True)
class CampaignSpec:
    """A loaded, validated campaign file."""

    name: str
    title: str
    description: str
    setting: str
    mode: str
    rules_path: Path | None
    warband: Warband
    threat: ThreatSpec
    steps: tuple[StepSpec, ...]
    min_models: int
    wins: int
    source: str

    @property
    def solo(self) -> bool:
        return self.mode == "solo_hero"


@dataclass(frozen=True)
class CampaignInfo:
    """A bundled campaign in a listing."""

    name: str
    title: str
    setting: str
    mode: str
    steps: int
    path: Path


__all__ = [
    "CAMPAIGN_FIELDS",
    "END_FIELDS",
    "ENEMY_SOURCES",
    "MODEL_FIELDS",
    "SCHEMA_VERSION",
    "STEP_FIELDS",
    "THREAT_FIELDS",
    "TOP_FIELDS",
    "WARBAND_FIELDS",
    "CampaignInfo",
    "CampaignSpec",
    "StepSpec",
    "ThreatSpec",
]
