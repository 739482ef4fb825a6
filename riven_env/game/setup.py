"""Build a new game from a scenario: place the models, open the pools, roll for first side.

The set-up both engines start from: the Python reference (:func:`prepare_game` then
``GameState.start``) and the native core (:mod:`riven_env.native.start`, which exports the
prepared state). The chooser between them, :func:`riven_env.engines.new_game`, stands above
both.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from riven_env.game.model_state import ModelState
from riven_env.game.state import SIDES, GameState
from riven_env.rules import RulesConfig, bundled_rules, load_rules
from riven_env.table import Bases


def resolve_scenario(scenario: Any, rules: RulesConfig) -> Any:
    """The loaded Scenario of ``scenario`` (a bundled name or a path, loaded once per process
    and file version, or a Scenario, as it is)."""
    if isinstance(scenario, str | Path):
        path = Path(scenario)
        stamp = path.stat().st_mtime_ns if path.is_file() else None
        return _load_scenario_cached(str(scenario), stamp, rules)
    return scenario


@functools.lru_cache(maxsize=32)
def _load_scenario_cached(name_or_path: str, stamp: int | None, rules: RulesConfig) -> Any:
    """Load a scenario once per process (Scenarios are immutable; a changed file reloads)."""
    from riven_env.scenario import load_scenario

    return load_scenario(name_or_path, rules=rules)


def resolve_rules(
    rules: RulesConfig | None = None, overrides: Mapping[str, object] | None = None
) -> RulesConfig:
    """The rules to play with: the bundled data, or ``rules``, with ``overrides`` applied."""
    if rules is None:
        return load_rules(None, overrides) if overrides else bundled_rules()
    if overrides:
        return load_rules(rules.source, {**dict(rules.overrides or {}), **dict(overrides)})
    return rules


def momentum_owners(scenario: Any, rules: RulesConfig) -> dict[str, str]:
    """The owner of each side's Momentum pool.

    A side owns its pool (RAW), except in solo-hero mode, where the lone hero owns a
    personal pool (``momentum.solo_hero_pool = "model"``).
    """
    owners = {side: side for side in SIDES}
    if scenario.mode == "solo_hero" and rules.get("momentum.solo_hero_pool") == "model":
        keyword = rules.get("profiles.hero.keyword")
        for side in SIDES:
            heroes = [m for m in scenario.sides[side].models if keyword in m.profile.keywords]
            if len(scenario.sides[side].models) == 1 and heroes:
                owners[side] = heroes[0].id
    return owners


def prepare_game(
    scenario: Any,
    seed: int | np.random.SeedSequence | None = None,
    *,
    rules: RulesConfig | None = None,
    overrides: Mapping[str, object] | None = None,
) -> GameState:
    """:func:`riven_env.engines.new_game` up to ``GameState.start``: the models placed, the first
    side rolled,
    ``game_start`` emitted (the batched native environment starts its games from here)."""
    rules = resolve_rules(rules, overrides)
    scenario = resolve_scenario(scenario, rules)
    rng = np.random.default_rng(seed)
    return prepared_game(scenario, rules, rng, roll_first_side(scenario, rng), seed)


def roll_first_side(scenario: Any, rng: np.random.Generator) -> str:
    """The side that plays first: the scenario's, or rolled on the game's stream (one draw)."""
    first = scenario.first_side
    return SIDES[int(rng.integers(0, 2))] if first == "roll" else first


def prepared_game(
    scenario: Any, rules: RulesConfig, rng: np.random.Generator, first: str, seed: Any
) -> GameState:
    """:func:`prepare_game` of a loaded scenario and rules, its first side already chosen on
    ``rng`` (``seed`` is what ``game_start`` records)."""
    entries = scenario.models()
    bases = Bases.from_lists(
        [m.position for m in entries], [m.profile.base_diameter for m in entries]
    )
    models = [
        ModelState(
            index=k,
            id=m.id,
            side=m.side,
            profile=m.profile,
            oracle=m.oracle or scenario.sides[m.side].oracle,
            wounds=m.profile.wounds,
        )
        for k, m in enumerate(entries)
    ]
    state = GameState(
        scenario=scenario,
        rules=rules,
        table=scenario.table,
        bases=bases,
        models=models,
        momentum_owner=momentum_owners(scenario, rules),
        rng=rng,
        first_side=first,
    )
    for model in state.models:  # the resolution system may keep its own wound track and currencies
        model.wounds = model.wounds_max = state.resolution.starting_wounds(model.profile)
        model.resources = dict(state.resolution.starting_resources(model.profile))
    state.emit("game_start", **game_start_fields(state, seed))
    return state


def game_start_fields(state: GameState, seed: Any) -> dict[str, Any]:
    """The ``game_start`` event: everything a replay needs to draw the table."""
    scenario = state.scenario
    rules = state.rules
    return {
        "schema": 1,
        "scenario": scenario.name,
        "title": scenario.title,
        "setting": scenario.setting,
        "mode": scenario.mode,
        "seed": seed if isinstance(seed, int) or seed is None else str(seed),
        "rules": {"source": Path(str(rules.source)).name, "overrides": dict(rules.overrides or {})},
        "rounds": scenario.rounds,
        "first_side": state.first_side,
        "agents": {},
        "table": state.table.to_spec(),
        "deployment": {k: [list(r) for r in v] for k, v in scenario.deployment.items()},
        "objectives": [
            {
                "name": o.name,
                "x": o.x,
                "y": o.y,
                "radius": o.radius,
                "kind": o.kind,
                "points": o.points,
            }
            for o in scenario.objectives
        ],
        "sides": {k: {"name": s.name, "oracle": s.oracle} for k, s in scenario.sides.items()},
        "momentum": dict(state.momentum),
        "models": [
            {
                "id": m.id,
                "side": m.side,
                "profile": m.profile.name,
                "name": m.profile.display_names.get(scenario.setting, m.profile.name)
                if m.profile.display_names
                else m.profile.name,
                "x": state.position(m.index)[0],
                "y": state.position(m.index)[1],
                "base": m.profile.base_diameter,
                "wounds": m.wounds,
                "mettle": m.profile.mettle,
                "might": m.profile.might,
                "agility": m.profile.agility,
                "wit": m.profile.wit,
                "resolve": m.profile.resolve,
                "move": m.profile.move,
                "strain_max": m.profile.strain_max(rules),
                "keywords": sorted(m.profile.keywords),
                "oracle": m.oracle,
                **({"resources": dict(m.resources)} if m.resources else {}),
            }
            for m in state.models
        ],
    }
