"""The expert agent's tuning, read from ``data/expert.toml`` and checked key by key.

Every key of the file is required and typed; a bad or missing value raises
:class:`ExpertDataError` naming the file, the key, the value and what is allowed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from riven_agents.evaluation import EvaluationWeights

from riven_env.errors import RivenError
from riven_env.files import read_toml

DATA_FILE = Path(__file__).resolve().parent / "data" / "expert.toml"
SCENARIO_PROFILE = "scenario"
"""A rollout profile value: each model plays its own scenario Oracle profile."""
MIXTURE_PROFILE = "mixture"
"""``rollout.enemy_profile`` value: each simulation draws the enemy's profile from
``rollout.enemy_mixture`` (a search robust to whichever profile the enemy really plays)."""
VALUE_BASELINES = ("none", "root")
"""``value.baseline`` values: a leaf valued on its own, or relative to the search's root."""


class ExpertDataError(RivenError):
    """The expert agent's settings file holds a bad value; the message names the key."""


@dataclass(frozen=True)
class ExpertSettings:
    """The expert's search parameters (see ``data/expert.toml`` for each key's meaning)."""

    simulations: int
    exploration: float
    widening_base: float
    widening_scale: float
    widening_exponent: float
    max_tree_depth: int
    reuse_tree: bool
    rollout_decisions: int
    self_profile: str
    enemy_profile: str
    enemy_mixture: tuple[str, ...]
    spend_profile: str
    turnover_cost: float
    prior_order: tuple[str, ...]
    evaluation: EvaluationWeights
    value_baseline: str
    normalise_values: bool
    source: str


# section -> key -> (type, minimum or None); the minimum is inclusive.
_NUMBERS: dict[str, dict[str, tuple[type, float | None]]] = {
    "search": {
        "simulations": (int, 1),
        "exploration": (float, 0.0),
        "widening_base": (float, 1.0),
        "widening_scale": (float, 0.0),
        "widening_exponent": (float, 0.0),
        "max_tree_depth": (int, 1),
    },
    "rollout": {"decisions": (int, 0)},
    "rules": {"turnover_cost": (float, 0.0)},
}
_TEXTS = {"rollout": ("self_profile", "enemy_profile"), "rules": ("spend_profile",)}


def _section(doc: dict[str, Any], name: str, source: str) -> dict[str, Any]:
    found = doc.get(name)
    if not isinstance(found, dict):
        raise ExpertDataError(f"{source}: [{name}] is missing or not a table")
    return found


def _number(table: dict[str, Any], section: str, key: str, kind: type, low: Any, source: str):
    value = table.get(key)
    ok_type = isinstance(value, int) if kind is int else isinstance(value, int | float)
    if isinstance(value, bool) or not ok_type:
        raise ExpertDataError(
            f"{source}: {section}.{key} = {value!r}: expected {'a whole number' if kind is int else 'a number'}"
        )
    if low is not None and value < low:
        raise ExpertDataError(f"{source}: {section}.{key} = {value!r}: must be >= {low}")
    return kind(value)


def _profile(value: Any, key: str, source: str, *extra: str) -> str:
    from riven_agents.oracle import profile_names

    allowed = (SCENARIO_PROFILE, *extra, *profile_names())
    if value not in allowed:
        raise ExpertDataError(f"{source}: {key} = {value!r}: allowed {', '.join(allowed)}")
    return value


def parse_settings(doc: dict[str, Any], source: str) -> ExpertSettings:
    """Check a parsed settings document and build :class:`ExpertSettings`.

    Raises:
        ExpertDataError: A section or key is missing, mistyped or out of range.
    """
    values: dict[str, Any] = {}
    for section, keys in _NUMBERS.items():
        table = _section(doc, section, source)
        for key, (kind, low) in keys.items():
            name = "rollout_decisions" if (section, key) == ("rollout", "decisions") else key
            values[name] = _number(table, section, key, kind, low, source)
    for section, keys in _TEXTS.items():
        table = _section(doc, section, source)
        for key in keys:
            extra = (MIXTURE_PROFILE,) if key == "enemy_profile" else ()
            values[key] = _profile(table.get(key), f"{section}.{key}", source, *extra)
    reuse = _section(doc, "search", source).get("reuse_tree")
    if not isinstance(reuse, bool):
        raise ExpertDataError(f"{source}: search.reuse_tree = {reuse!r}: expected true or false")
    values["reuse_tree"] = reuse
    mixture = _section(doc, "rollout", source).get("enemy_mixture")
    if not isinstance(mixture, list) or not mixture:
        raise ExpertDataError(
            f"{source}: rollout.enemy_mixture = {mixture!r}: expected a non-empty list of "
            "Oracle profile names"
        )
    values["enemy_mixture"] = tuple(
        _profile(name, "rollout.enemy_mixture", source) for name in mixture
    )
    if SCENARIO_PROFILE in values["enemy_mixture"]:
        raise ExpertDataError(f"{source}: rollout.enemy_mixture must name Oracle profiles")
    if values["spend_profile"] == SCENARIO_PROFILE:
        raise ExpertDataError(f"{source}: rules.spend_profile must name an Oracle profile")
    order = _section(doc, "prior", source).get("order")
    if not isinstance(order, list) or not all(isinstance(k, str) for k in order):
        raise ExpertDataError(f"{source}: prior.order = {order!r}: expected a list of names")
    values["prior_order"] = tuple(order)
    table = _section(doc, "evaluation", source)
    weights = {}
    for f in fields(EvaluationWeights):
        weights[f.name] = _number(table, "evaluation", f.name, float, None, source)
    unknown = sorted(set(table) - set(weights))
    if unknown:
        raise ExpertDataError(
            f"{source}: evaluation.{unknown[0]} is not a weight "
            f"(allowed: {', '.join(f.name for f in fields(EvaluationWeights))})"
        )
    values["evaluation"] = EvaluationWeights(**weights)
    value = _section(doc, "value", source)
    baseline = value.get("baseline")
    if baseline not in VALUE_BASELINES:
        raise ExpertDataError(
            f"{source}: value.baseline = {baseline!r}: allowed {', '.join(VALUE_BASELINES)}"
        )
    values["value_baseline"] = baseline
    normalise = value.get("normalise")
    if not isinstance(normalise, bool):
        raise ExpertDataError(f"{source}: value.normalise = {normalise!r}: expected true or false")
    values["normalise_values"] = normalise
    return ExpertSettings(**values, source=source)


@functools.lru_cache(maxsize=8)
def load_settings(path: str | Path | None = None) -> ExpertSettings:
    """The expert's settings from ``path`` (default: the bundled ``data/expert.toml``)."""
    file = Path(path) if path is not None else DATA_FILE
    return parse_settings(read_toml(file, what="expert settings file"), str(file))


__all__ = [
    "DATA_FILE",
    "MIXTURE_PROFILE",
    "VALUE_BASELINES",
    "ExpertDataError",
    "ExpertSettings",
    "load_settings",
    "parse_settings",
]
