"""Scenarios: the mission file schema, loading and validation, placement, generation.

A scenario is a TOML file (``docs/scenario-schema.md``) naming the table and its terrain,
deployment zones, objectives, the two sides' models (from the profile library
``scenarios/profiles.toml``) and the victory conditions. The game loop codes against the
loaded form returned by :func:`load_scenario`::

    from riven_env.scenario import load_scenario

    scenario = load_scenario("skirmish-5v5")
    for model in scenario.models():
        print(model.id, model.profile.name, model.position)

This package never imports gymnasium, pettingzoo, torch or matplotlib.
"""

from __future__ import annotations

from riven_env.scenario.checks import ScenarioProblems
from riven_env.scenario.generator import GENERATOR_KINDS, generate_scenario, to_toml
from riven_env.scenario.library import ProfileLibrary, load_library
from riven_env.scenario.loader import (
    bundled_dir,
    list_bundled,
    load_scenario,
    load_scenario_text,
    resolve_scenario,
    validate_file,
    validate_text,
)
from riven_env.scenario.oracle_names import oracle_profile_names
from riven_env.scenario.placement import PlacementSlot, place_models
from riven_env.scenario.schema import (
    OBJECTIVE_KINDS,
    SCHEMA_VERSION,
    SETTINGS,
    VICTORY_TYPES,
    ModelEntry,
    Objective,
    Scenario,
    ScenarioInfo,
    SideSpec,
    VictoryCondition,
    VictorySpec,
)

__all__ = [
    "GENERATOR_KINDS",
    "OBJECTIVE_KINDS",
    "SCHEMA_VERSION",
    "SETTINGS",
    "VICTORY_TYPES",
    "ModelEntry",
    "Objective",
    "PlacementSlot",
    "ProfileLibrary",
    "Scenario",
    "ScenarioInfo",
    "ScenarioProblems",
    "SideSpec",
    "VictoryCondition",
    "VictorySpec",
    "bundled_dir",
    "generate_scenario",
    "list_bundled",
    "load_library",
    "load_scenario",
    "load_scenario_text",
    "oracle_profile_names",
    "place_models",
    "resolve_scenario",
    "to_toml",
    "validate_file",
    "validate_text",
]
