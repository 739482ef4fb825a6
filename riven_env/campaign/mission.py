"""Turn the warband and a chain step into that step's mission (a loaded Scenario).

The step's document is a generated one (:func:`~riven_env.scenario.generate_scenario` of the
step's kind, seed and the campaign's setting) or a mission file's. Its blue side becomes the
warband's fielded models (ids: their campaign names) and, for ``enemy = "threat"``, its red
side the threat roster for the step's points. The document is validated and placed by the
scenario loader with the library profiles, then each warband model's entry gets the profile
it has earned (:func:`~riven_env.campaign.state.model_profile`): advanced attributes,
injuries, talents; the bases, and so the placement, never change.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any

from riven_env.campaign.rules import CampaignRules
from riven_env.campaign.schema import CampaignSpec, StepSpec
from riven_env.campaign.state import Warband, model_profile
from riven_env.files import parse_toml
from riven_env.scenario import Scenario, generate_scenario, load_scenario_text, to_toml
from riven_env.scenario.loader import read_scenario_text
from riven_env.scenario.schema import MAX_MODELS_PER_SIDE


@dataclass(frozen=True)
class StepMission:
    """A step's mission, ready to play."""

    scenario: Scenario
    document: dict[str, Any]
    enemy_points: int | None
    enemy: tuple[str, ...]


def threat_roster(profiles: tuple[str, ...], points: int, rules: CampaignRules) -> list[str]:
    """The enemy models for ``points``: ``profiles`` cycled while the next one fits (at least
    one model, at most the per-side limit)."""
    roster: list[str] = []
    spent = 0
    while len(roster) < MAX_MODELS_PER_SIDE:
        key = profiles[len(roster) % len(profiles)]
        cost = rules.points[key]
        if roster and spent + cost > points:
            break
        roster.append(key)
        spent += cost
    return roster


def _grouped(keys: list[str]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for key in keys:
        if entries and entries[-1]["profile"] == key:
            entries[-1]["count"] = entries[-1].get("count", 1) + 1
        else:
            entries.append({"profile": key})
    return entries


def base_document(
    campaign: CampaignSpec, step: StepSpec, seed: int, enemies: int
) -> dict[str, Any]:
    """The step's mission document before the warband and the threat go in."""
    if step.generator is not None:
        return generate_scenario(
            step.generator,
            seed,
            setting=campaign.setting,  # type: ignore[arg-type]
            models_per_side=max(1, min(enemies, MAX_MODELS_PER_SIDE)),
        )
    assert step.mission is not None
    text = read_scenario_text(step.mission)
    return copy.deepcopy(parse_toml(text, str(step.mission)))


def step_mission(
    campaign: CampaignSpec,
    step: StepSpec,
    warband: Warband,
    seed: int,
    rules: CampaignRules,
    library: Any,
) -> StepMission:
    """The scenario of ``step`` for ``warband`` (generator seed ``seed``).

    Raises:
        ScenarioError: The mission cannot field this warband (its own problem, naming the
            mission and the field).
    """
    points = (
        step.enemy_points if step.enemy_points is not None else campaign.threat.points(step.index)
    )
    roster = threat_roster(campaign.threat.enemy, points, rules) if step.enemy == "threat" else []
    doc = base_document(campaign, step, seed, len(roster) or 5)
    doc.pop("balance", None)  # a mission's declared balance knobs name its own roster
    header = doc["scenario"]
    origin = step.generator or header.get("name", "mission")
    header["name"] = f"{campaign.name}-{step.index + 1}"
    header["title"] = f"{campaign.title}, mission {step.index + 1} ({origin})"
    header["mode"] = campaign.mode
    fielded = warband.fielded()
    blue = doc["sides"]["blue"]
    blue["name"] = warband.name
    blue["models"] = [{"profile": m.base, "id": m.id} for m in fielded]
    if step.enemy == "threat":
        red = doc["sides"]["red"]
        red["models"] = _grouped(roster)
        if campaign.threat.oracle:
            red["oracle"] = campaign.threat.oracle
    source = f"<{campaign.source}: {step.field} (step {step.index + 1})>"
    scenario = load_scenario_text(to_toml(doc), source)
    profiles = {m.id: model_profile(m, library) for m in fielded}
    side = scenario.sides["blue"]
    models = tuple(replace(e, profile=profiles[e.id]) for e in side.models)
    sides = {**scenario.sides, "blue": replace(side, models=models)}
    enemy = tuple(e.profile.name for e in scenario.sides["red"].models)
    return StepMission(
        replace(scenario, sides=sides), doc, points if step.enemy == "threat" else None, enemy
    )


__all__ = ["StepMission", "base_document", "step_mission", "threat_roster"]
