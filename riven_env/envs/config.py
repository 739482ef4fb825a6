"""Environment settings (``riven_env/envs/data/env.toml``): rewards, illegal actions, episodes.

:func:`load_env_config` reads the bundled file and applies overrides given as dotted keys
(``{"shaping.points": 0.05, "illegal.policy": "penalise"}``). Every bad key or value raises
:class:`~riven_env.errors.RivenError` subclass :class:`EnvConfigError` naming the key, the
value and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from riven_env.envs.errors import EnvArgumentError
from riven_env.errors import RivenError

ENV_FILE = "env.toml"
ILLEGAL_POLICIES = ("raise", "penalise")

_SCHEMA: dict[str, dict[str, type]] = {
    "outcome": {"win": float, "loss": float, "draw": float},
    "shaping": {"points": float, "wounds": float, "casualties": float},
    "illegal": {"policy": str, "penalty": float},
    "episode": {"max_learner_steps": int},
    "render": {"pixels_per_inch": int, "ansi_columns_per_inch": float, "ansi_rows_per_inch": float},
}


class EnvConfigError(RivenError):
    """An environment setting (file or override) is invalid; the message names the key."""


@dataclass(frozen=True)
class EnvConfig:
    """Validated environment settings.

    Attributes:
        win: Reward for a won game.
        loss: Reward for a lost game.
        draw: Reward for a drawn game.
        shaping_points: Weight of the victory-point difference in the shaping potential.
        shaping_wounds: Weight of the wound difference.
        shaping_casualties: Weight of the casualty (Down, Out, Fled) difference.
        illegal_policy: ``"raise"`` or ``"penalise"``.
        illegal_penalty: Reward of an ignored illegal action (``penalise``).
        max_learner_steps: Episode truncation after this many learner steps.
        pixels_per_inch: ``rgb_array`` resolution.
        ansi_columns_per_inch: ``ansi`` board columns per inch.
        ansi_rows_per_inch: ``ansi`` board rows per inch.
    """

    win: float
    loss: float
    draw: float
    shaping_points: float
    shaping_wounds: float
    shaping_casualties: float
    illegal_policy: str
    illegal_penalty: float
    max_learner_steps: int
    pixels_per_inch: int
    ansi_columns_per_inch: float
    ansi_rows_per_inch: float

    @property
    def shaping(self) -> bool:
        """Whether any shaping weight is non-zero."""
        return bool(self.shaping_points or self.shaping_wounds or self.shaping_casualties)


def _bundled_raw() -> dict[str, Any]:
    text = resources.files("riven_env.envs").joinpath("data", ENV_FILE).read_text("utf-8")
    return tomllib.loads(text)


def _check(section: str, key: str, value: Any, where: str) -> Any:
    kind = _SCHEMA[section][key]
    name = f"{where}: {section}.{key} = {value!r}"
    if kind is str:
        if key == "policy" and value not in ILLEGAL_POLICIES:
            raise EnvConfigError(f"{name}: expected one of {list(ILLEGAL_POLICIES)}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EnvConfigError(f"{name}: expected a whole number >= 1")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise EnvConfigError(f"{name}: expected a finite number")
    if section == "render" and value <= 0:
        raise EnvConfigError(f"{name}: expected a number > 0")
    return float(value)


def load_env_config(overrides: Mapping[str, Any] | None = None) -> EnvConfig:
    """The bundled settings with ``overrides`` (dotted keys) applied.

    Raises:
        EnvConfigError: An unknown key or a bad value (file or override).
    """
    raw = _bundled_raw()
    merged: dict[str, dict[str, Any]] = {}
    for section, keys in _SCHEMA.items():
        table = raw.get(section, {})
        unknown = sorted(set(table) - set(keys))
        if unknown:
            raise EnvConfigError(f"{ENV_FILE}: [{section}] unknown key(s) {unknown}")
        merged[section] = {}
        for key in keys:
            if key not in table:
                raise EnvConfigError(f"{ENV_FILE}: {section}.{key} is missing")
            merged[section][key] = _check(section, key, table[key], ENV_FILE)
    for dotted, value in (overrides or {}).items():
        section, _, key = str(dotted).partition(".")
        if section not in _SCHEMA or key not in _SCHEMA[section]:
            allowed = [f"{s}.{k}" for s, keys in _SCHEMA.items() for k in keys]
            raise EnvConfigError(f"environment setting {dotted!r} is unknown; allowed: {allowed}")
        merged[section][key] = _check(section, key, value, "override")
    return EnvConfig(
        win=merged["outcome"]["win"],
        loss=merged["outcome"]["loss"],
        draw=merged["outcome"]["draw"],
        shaping_points=merged["shaping"]["points"],
        shaping_wounds=merged["shaping"]["wounds"],
        shaping_casualties=merged["shaping"]["casualties"],
        illegal_policy=merged["illegal"]["policy"],
        illegal_penalty=merged["illegal"]["penalty"],
        max_learner_steps=merged["episode"]["max_learner_steps"],
        pixels_per_inch=merged["render"]["pixels_per_inch"],
        ansi_columns_per_inch=merged["render"]["ansi_columns_per_inch"],
        ansi_rows_per_inch=merged["render"]["ansi_rows_per_inch"],
    )


@dataclass(frozen=True)
class EnvParts:
    """What both environments build from their common arguments."""

    config: EnvConfig
    rules: Any
    scenario: Any
    encoder: Any
    catalogue: Any
    entity_encoder: Any = None


def build_env_parts(
    scenario: Any,
    *,
    settings: Mapping[str, Any] | None,
    illegal_action: str | None,
    rules_overrides: Mapping[str, object] | None,
    models_per_side: int | None,
    objectives: int | None,
    raster: bool = False,
    entity: bool = False,
    terrain_slots: int | None = None,
) -> EnvParts:
    """Load the env config, rules and scenario, and build the encoder and catalogue.

    Shared by the Gymnasium and the PettingZoo environments so that both read their
    arguments the same way.
    """
    from riven_env.encoding import ActionCatalogue, ObservationEncoder
    from riven_env.game.setup import resolve_rules

    overrides = dict(settings or {})
    if illegal_action is not None:
        overrides["illegal.policy"] = illegal_action
    config = load_env_config(overrides)
    rules = resolve_rules(None, rules_overrides)
    _refuse_choice_systems(rules)
    loaded = resolve_mission(scenario, rules)
    sizes = {"rules": rules, "models_per_side": models_per_side, "objectives": objectives}
    catalogue = ActionCatalogue(loaded, **sizes)
    entity_encoder = None
    if entity:
        from riven_env.encoding.entity import EntityEncoder

        entity_encoder = EntityEncoder(
            loaded, terrain_slots=terrain_slots, actions=catalogue.size, **sizes
        )
    return EnvParts(
        config=config,
        rules=rules,
        scenario=loaded,
        encoder=ObservationEncoder(loaded, raster=raster, **sizes),
        catalogue=catalogue,
        entity_encoder=entity_encoder,
    )


#: Prefix of a mission spec that the scenario generator makes: ``generated:KIND:SEED`` or
#: ``generated:KIND:SEED:MODELS`` (``riven_env.scenario.generator``).
GENERATED_PREFIX = "generated:"


def load_scenario_for(scenario: Any, rules: Any) -> Any:
    """A loaded scenario from a bundled name, a path or an already loaded Scenario."""
    if isinstance(scenario, str | Path):
        from riven_env.scenario import load_scenario

        return load_scenario(scenario, rules=rules)
    return scenario


def resolve_mission(spec: Any, rules: Any) -> Any:
    """A loaded scenario from a mission spec: a bundled name, a path, ``generated:KIND:SEED``
    (optionally ``:MODELS`` a side) or an already loaded Scenario.

    Raises:
        EnvConfigError: A malformed ``generated:`` spec (the message names it).
        ScenarioError: The generator or the loader refuses the scenario.
    """
    if isinstance(spec, str) and spec.startswith(GENERATED_PREFIX):
        from riven_env.scenario.generator import generate_scenario, to_toml
        from riven_env.scenario.loader import load_scenario_text

        parts = spec[len(GENERATED_PREFIX) :].split(":")
        if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts[1:]):
            raise EnvConfigError(
                f"mission {spec!r}: expected generated:KIND:SEED or generated:KIND:SEED:MODELS "
                "(KIND field, ruins or dungeon; SEED and MODELS whole numbers)"
            )
        models = int(parts[2]) if len(parts) == 3 else 5
        doc = generate_scenario(parts[0], int(parts[1]), models_per_side=models, rules=rules)  # type: ignore[arg-type]
        return load_scenario_text(to_toml(doc), spec, rules=rules)
    return load_scenario_for(spec, rules)


def mission_padding(scenarios: Sequence[Any]) -> tuple[int, int, int]:
    """``(models_per_side, objectives, terrain pieces)`` that fit every scenario given."""
    models = max(len(s.sides[side].models) for s in scenarios for side in ("blue", "red"))
    objectives = max(max(1, len(s.objectives)) for s in scenarios)
    terrain = max(len(s.table.pieces) for s in scenarios)
    return models, objectives, terrain


def build_missions(
    scenario: Any,
    *,
    settings: Mapping[str, Any] | None,
    illegal_action: str | None,
    rules_overrides: Mapping[str, object] | None,
    models_per_side: int | None,
    objectives: int | None,
    raster: bool = False,
    entity: bool = False,
    terrain_slots: int | None = None,
) -> list[EnvParts]:
    """:func:`build_env_parts` for one mission or each of a list, with one shared padding.

    Raises:
        EnvConfigError: An empty list, or missions whose action catalogues differ in size
            (their rules differ).
    """
    specs = list(scenario) if isinstance(scenario, list | tuple) else [scenario]
    if not specs:
        raise EnvConfigError("scenario=[]: give at least one mission")
    if len(specs) == 1 and not entity:
        return [
            build_env_parts(
                specs[0],
                settings=settings,
                illegal_action=illegal_action,
                rules_overrides=rules_overrides,
                models_per_side=models_per_side,
                objectives=objectives,
                raster=raster,
            )
        ]
    from riven_env.game.setup import resolve_rules

    rules = resolve_rules(None, rules_overrides)
    loaded = [resolve_mission(spec, rules) for spec in specs]
    need_models, need_objectives, need_terrain = mission_padding(loaded)
    parts = [
        build_env_parts(
            one,
            settings=settings,
            illegal_action=illegal_action,
            rules_overrides=rules_overrides,
            models_per_side=models_per_side or need_models,
            objectives=objectives or need_objectives,
            raster=raster,
            entity=entity,
            terrain_slots=terrain_slots,
        )
        for one in loaded
    ]
    sizes = {p.scenario.name: p.catalogue.size for p in parts}
    if len(set(sizes.values())) > 1:
        raise EnvConfigError(
            f"missions {sizes} have action catalogues of different sizes (different rules); "
            "one environment plays missions of one rules set"
        )
    del need_terrain  # each entity encoder checks its own table against terrain_slots
    return parts


def _refuse_choice_systems(rules: Any) -> None:
    """Refuse a dice engine whose melee is a round of ``choose`` decisions (RoS): the fixed
    action catalogue has no entries for them, so an episode could not go on past a melee."""
    from riven_env.rules.resolution import get_resolution

    name = rules.get("meta.resolution")
    if getattr(get_resolution(name, rules), "has_choices", False):
        raise EnvArgumentError(
            f"meta.resolution = {name!r}: its melee choices (choose decisions) have no entries "
            "in the action catalogue; the environments play engines without a choice phase"
        )


def check_render_mode(render_mode: str | None, allowed: list[str]) -> None:
    """Refuse a render mode the environment does not offer."""
    if render_mode is not None and render_mode not in allowed:
        raise EnvArgumentError(f"render_mode={render_mode!r}: expected one of {allowed}")
