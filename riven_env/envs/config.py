"""Environment settings (``riven_env/envs/data/env.toml``): rewards, illegal actions, episodes.

:func:`load_env_config` reads the bundled file and applies overrides given as dotted keys
(``{"shaping.points": 0.05, "illegal.policy": "penalise"}``). Every bad key or value raises
:class:`~riven_env.errors.RivenError` subclass :class:`EnvConfigError` naming the key, the
value and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

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


def build_env_parts(
    scenario: Any,
    *,
    settings: Mapping[str, Any] | None,
    illegal_action: str | None,
    rules_overrides: Mapping[str, object] | None,
    models_per_side: int | None,
    objectives: int | None,
    raster: bool = False,
) -> EnvParts:
    """Load the env config, rules and scenario, and build the encoder and catalogue.

    Shared by the Gymnasium and the PettingZoo environments so that both read their
    arguments the same way.
    """
    from riven_env.encoding import ActionCatalogue, ObservationEncoder
    from riven_env.envs.gym_env import load_scenario_for
    from riven_env.game.setup import resolve_rules

    overrides = dict(settings or {})
    if illegal_action is not None:
        overrides["illegal.policy"] = illegal_action
    config = load_env_config(overrides)
    rules = resolve_rules(None, rules_overrides)
    _refuse_choice_systems(rules)
    loaded = load_scenario_for(scenario, rules)
    sizes = {"rules": rules, "models_per_side": models_per_side, "objectives": objectives}
    return EnvParts(
        config=config,
        rules=rules,
        scenario=loaded,
        encoder=ObservationEncoder(loaded, raster=raster, **sizes),
        catalogue=ActionCatalogue(loaded, **sizes),
    )


def _refuse_choice_systems(rules: Any) -> None:
    """Refuse a dice engine whose melee is a round of ``choose`` decisions (RoS): the fixed
    action catalogue has no entries for them, so an episode could not go on past a melee."""
    from riven_env.envs.gym_env import EnvArgumentError
    from riven_env.rules.resolution import get_resolution

    name = rules.get("meta.resolution")
    if getattr(get_resolution(name, rules), "has_choices", False):
        raise EnvArgumentError(
            f"meta.resolution = {name!r}: its melee choices (choose decisions) have no entries "
            "in the action catalogue; the environments play engines without a choice phase"
        )


def check_render_mode(render_mode: str | None, allowed: list[str]) -> None:
    """Refuse a render mode the environment does not offer."""
    from riven_env.envs.gym_env import EnvArgumentError

    if render_mode is not None and render_mode not in allowed:
        raise EnvArgumentError(f"render_mode={render_mode!r}: expected one of {allowed}")
