"""Training configuration: ``training/config/default.toml`` plus a user file plus ``--set``.

Every key of the default file is known with its type; a user file or a ``--set`` override
may only change known keys, with a value of the same type (an int is accepted for a float).
Errors raise :class:`TrainConfigError` naming the file or override, the key, the value and
what was expected.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from riven_env.errors import RivenError, did_you_mean
from riven_env.files import parse_json, parse_toml, read_toml

DEFAULT_CONFIG = Path(__file__).with_name("config") / "default.toml"
RANGES_CONFIG = Path(__file__).with_name("config") / "ranges.toml"
ACTIVATIONS = ("tanh", "relu")
POLICY_KINDS = ("mlp", "entity")
OBS_MODES = ("flat", "dict", "entity")
VEC_ENVS = ("auto", "batched", "subproc", "dummy")


class TrainConfigError(RivenError):
    """A training configuration value is invalid; the message names the key."""


def _read(path: Path) -> dict[str, Any]:
    return read_toml(path, what="training config", error=TrainConfigError)


def _same_type(default: Any, value: Any, where: str) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise TrainConfigError(f"{where} = {value!r}: expected true or false")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TrainConfigError(f"{where} = {value!r}: expected a number")
        if not math.isfinite(value):
            raise TrainConfigError(f"{where} = {value!r}: expected a finite number")
        return float(value)
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TrainConfigError(f"{where} = {value!r}: expected a whole number")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise TrainConfigError(f"{where} = {value!r}: expected text")
        return value
    if isinstance(default, list):
        if not isinstance(value, list):
            raise TrainConfigError(f"{where} = {value!r}: expected a list")
        return value
    if isinstance(default, dict):
        if not isinstance(value, dict):
            raise TrainConfigError(f"{where} = {value!r}: expected a table")
        return value
    return value


def _merge(
    base: dict[str, Any],
    extra: Mapping[str, Any],
    source: str,
    origins: dict[str, str] | None = None,
) -> None:
    for section, table in extra.items():
        if section not in base:
            raise TrainConfigError(
                f"{source}: unknown section [{section}]{did_you_mean(section, base)}; "
                f"known: {sorted(base)}"
            )
        if not isinstance(table, Mapping):
            raise TrainConfigError(f"{source}: [{section}] = {table!r}: expected a table")
        for key, value in table.items():
            if key not in base[section]:
                raise TrainConfigError(
                    f"{source}: unknown key {section}.{key}{did_you_mean(key, base[section])}; "
                    f"known: {sorted(base[section])}"
                )
            base[section][key] = _same_type(base[section][key], value, f"{source}: {section}.{key}")
            if origins is not None:
                origins[f"{section}.{key}"] = source


def parse_set(items: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``["ppo.n_steps=128", "env.settings={\\"shaping.points\\": 0.1}"]`` as nested tables.

    Values are read as TOML values (numbers, true/false, quoted text, lists, inline tables);
    a bare word that is not valid TOML is taken as text.

    Raises:
        TrainConfigError: An item without ``=`` or without a ``SECTION.KEY``.
    """
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        section, dot, name = key.strip().partition(".")
        if not sep or not dot or not name:
            raise TrainConfigError(f"--set {item!r}: expected SECTION.KEY=VALUE (ppo.n_steps=128)")
        try:
            value = parse_toml(f"v = {text.strip()}", "--set", error=TrainConfigError)["v"]
        except TrainConfigError:
            try:
                value = parse_json(text, "--set", error=TrainConfigError)
            except TrainConfigError:
                value = text.strip()
        out.setdefault(section, {})[name] = value
    return out


def load_train_config(
    path: str | Path | None = None, overrides: Sequence[str] = ()
) -> dict[str, dict[str, Any]]:
    """The default config, updated by the file ``path`` and the ``--set`` items.

    Returns:
        ``{section: {key: value}}``.

    Raises:
        TrainConfigError: An unknown key, a value of the wrong type, or a bad choice.
    """
    config = copy.deepcopy(_read(DEFAULT_CONFIG))
    origins: dict[str, str] = {}  # dotted key -> the file or "--set" that gave its value
    if path is not None:
        _merge(config, _read(Path(path)), str(path), origins)
    _merge(config, parse_set(overrides), "--set", origins)
    _check_choices(config, origins)
    return config


def _check_choices(config: Mapping[str, Mapping[str, Any]], origins: Mapping[str, str]) -> None:
    """Check choices and ranges; ``origins`` names the file or ``--set`` of each value."""

    def at(dotted: str) -> str:
        return f"{origins[dotted]}: {dotted}" if dotted in origins else dotted

    activation = config["policy"]["activation"]
    if activation not in ACTIVATIONS:
        raise TrainConfigError(
            f"{at('policy.activation')} = {activation!r}: expected one of {list(ACTIVATIONS)}"
        )
    vec_env = config["train"]["vec_env"]
    if vec_env not in VEC_ENVS:
        raise TrainConfigError(
            f"{at('train.vec_env')} = {vec_env!r}: expected one of {list(VEC_ENVS)}"
        )
    kind = config["policy"]["kind"]
    if kind not in POLICY_KINDS:
        raise TrainConfigError(
            f"{at('policy.kind')} = {kind!r}: expected one of {list(POLICY_KINDS)}"
        )
    obs_mode = config["env"]["obs_mode"]
    if obs_mode not in OBS_MODES:
        raise TrainConfigError(
            f"{at('env.obs_mode')} = {obs_mode!r}: expected one of {list(OBS_MODES)}"
        )
    if (kind == "entity") != (obs_mode == "entity"):
        raise TrainConfigError(
            f"{at('policy.kind')} = {kind!r} with {at('env.obs_mode')} = {obs_mode!r}: the "
            "entity policy reads entity observations (obs_mode 'entity'), the MLP flat or dict"
        )
    d_model, heads = config["policy"]["d_model"], config["policy"]["attention_heads"]
    if isinstance(d_model, int) and isinstance(heads, int) and heads > 0 and d_model % heads:
        raise TrainConfigError(
            f"{at('policy.d_model')} = {d_model}: must divide by policy.attention_heads ({heads})"
        )
    from riven_training.league import WEIGHTINGS

    pfsp = config["league"]["pfsp"]
    if pfsp not in WEIGHTINGS:
        raise TrainConfigError(
            f"{at('league.pfsp')} = {pfsp!r}: expected one of {sorted(WEIGHTINGS)}"
        )
    net_arch = config["policy"]["net_arch"]
    if not net_arch or not all(isinstance(n, int) and not isinstance(n, bool) for n in net_arch):
        raise TrainConfigError(
            f"{at('policy.net_arch')} = {net_arch!r}: expected a list of positive integers"
        )
    for section, keys in _ranges().items():
        for key, bounds in keys.items():
            value = config[section][key]
            for item in value if isinstance(value, list) else [value]:
                if not _in_range(item, bounds):
                    raise TrainConfigError(
                        f"{at(f'{section}.{key}')} = {value!r}: expected {_range_words(bounds)} "
                        "(training/config/ranges.toml)"
                    )


def _ranges() -> dict[str, dict[str, dict[str, float]]]:
    return read_toml(RANGES_CONFIG, what="training ranges file", error=TrainConfigError)


def _in_range(value: Any, bounds: Mapping[str, float]) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return False
    return not (
        ("min" in bounds and value < bounds["min"])
        or ("max" in bounds and value > bounds["max"])
        or ("above" in bounds and value <= bounds["above"])
        or ("below" in bounds and value >= bounds["below"])
    )


def _range_words(bounds: Mapping[str, float]) -> str:
    words = {"min": ">= {}", "above": "> {}", "max": "<= {}", "below": "< {}"}
    parts = [
        words[key].format(bounds[key]) for key in ("min", "above", "max", "below") if key in bounds
    ]
    return "a finite number " + " and ".join(parts)
