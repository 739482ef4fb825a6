"""Policy files that cannot run code when loaded: safetensors weights plus a JSON sidecar.

A stable-baselines3 ``.zip`` holds pickled Python objects (cloudpickled spaces and
schedules), so loading one runs whatever code its author put there. RIVEN Lab saves
trained policies in a format that holds only data instead::

    NAME.safetensors   the network weights (``policy.*``) and, for resuming, the Adam
                       moments (``optimizer.*``): tensors only, read by ``safetensors``
    NAME.json          the sidecar: format and version, the algorithm and policy class
                       (names from a fixed allow-list), the observation and action spaces,
                       the policy settings needed to rebuild the network, the encoding
                       metadata (scenario, padding, observation mode) and the timestep count

Loading rebuilds the policy object from the sidecar (every class is looked up by name in
:data:`ACTIVATIONS`, :data:`FEATURE_EXTRACTORS`, :data:`OPTIMIZERS` or the algorithm's
policy aliases; nothing is imported by a name read from the file) and fills it with
``load_state_dict`` from the safetensors file. No pickle is read at any point.

The sidecar's ``format`` is :data:`FORMAT` and its ``version`` :data:`FORMAT_VERSION`;
``docs/training.md`` documents every key.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from riven_env.errors import AgentSpecError
from riven_env.extras import require

WEIGHTS_SUFFIX = ".safetensors"
SIDECAR_SUFFIX = ".json"
FORMAT = "riven-policy"
FORMAT_VERSION = 1
ALGORITHM = "MaskablePPO"

# Classes a sidecar may name, by the name it uses. Anything else is refused, so a sidecar
# can never make the loader import or call code of its choosing.
ACTIVATIONS = ("Tanh", "ReLU", "ELU", "LeakyReLU", "GELU", "SiLU", "Sigmoid")
FEATURE_EXTRACTORS = ("FlattenExtractor", "CombinedExtractor")
OPTIMIZERS = ("Adam", "AdamW", "RMSprop", "SGD")
# RIVEN Lab's own policy classes a sidecar may name (beside sb3-contrib's aliases), each
# imported from a fixed module: riven_agents.entity_policy.
CUSTOM_POLICIES = ("EntityPolicy",)
# Constructor settings that are classes, and where their allowed names are listed.
_CLASS_SETTINGS = {
    "activation_fn": ACTIVATIONS,
    "features_extractor_class": FEATURE_EXTRACTORS,
    "optimizer_class": OPTIMIZERS,
}
# Constructor arguments the loader supplies itself rather than reading from the sidecar.
_SUPPLIED = ("observation_space", "action_space", "lr_schedule")


def policy_paths(path: str | Path) -> tuple[Path, Path]:
    """``(weights, sidecar)`` of a policy named with or without ``.safetensors``."""
    path = Path(path)
    weights = path if path.suffix == WEIGHTS_SUFFIX else path.with_name(path.name + WEIGHTS_SUFFIX)
    return weights, weights.with_suffix(SIDECAR_SUFFIX)


# ---------------------------------------------------------------------------- spaces
def _number(value: float) -> float | str:
    # JSON has no infinity: write it as a string and read it back with float().
    return value if math.isfinite(value) else str(value)


def _bound(array: Any) -> Any:
    import numpy as np

    flat = np.asarray(array, dtype=np.float64).ravel()
    if flat.size and np.all(flat == flat[0]):
        return _number(float(flat[0]))  # the usual case: one bound for every cell
    return [_number(float(v)) for v in flat]


def space_to_json(space: Any) -> dict[str, Any]:
    """A gymnasium space as plain JSON data (Box, Discrete, MultiBinary, MultiDiscrete, Dict).

    Raises:
        AgentSpecError: The space is of another type.
    """
    from gymnasium import spaces

    if isinstance(space, spaces.Dict):
        return {"type": "Dict", "spaces": {k: space_to_json(s) for k, s in space.spaces.items()}}
    if isinstance(space, spaces.Box):
        return {
            "type": "Box",
            "shape": list(space.shape),
            "dtype": str(space.dtype),
            "low": _bound(space.low),
            "high": _bound(space.high),
        }
    if isinstance(space, spaces.Discrete):
        return {"type": "Discrete", "n": int(space.n), "start": int(space.start)}
    if isinstance(space, spaces.MultiBinary):
        n = space.n
        return {
            "type": "MultiBinary",
            "n": [int(v) for v in n] if isinstance(n, tuple | list) else int(n),
        }
    if isinstance(space, spaces.MultiDiscrete):
        return {"type": "MultiDiscrete", "nvec": [int(v) for v in space.nvec.ravel()]}
    raise AgentSpecError(f"cannot save a policy with a {type(space).__name__} space")


def space_from_json(data: Mapping[str, Any], where: str = "space") -> Any:
    """The gymnasium space of :func:`space_to_json` data.

    Raises:
        AgentSpecError: The data does not describe a supported space (``where`` names it).
    """
    import numpy as np
    from gymnasium import spaces

    try:
        kind = data["type"]
        if kind == "Dict":
            return spaces.Dict(
                {k: space_from_json(v, f"{where}.{k}") for k, v in data["spaces"].items()}
            )
        if kind == "Box":
            shape = tuple(int(v) for v in data["shape"])
            dtype = np.dtype(data["dtype"])
            if dtype.kind not in "fiu":
                raise ValueError(f"dtype {dtype} is not numeric")

            def bound(value: Any) -> Any:
                values = np.asarray(
                    [float(v) for v in value] if isinstance(value, list) else float(value),
                    dtype=dtype,
                )
                return values.reshape(shape) if values.ndim else np.full(shape, values, dtype)

            return spaces.Box(bound(data["low"]), bound(data["high"]), shape, dtype)
        if kind == "Discrete":
            return spaces.Discrete(int(data["n"]), start=int(data.get("start", 0)))
        if kind == "MultiBinary":
            n = data["n"]
            return spaces.MultiBinary(int(n) if isinstance(n, int) else [int(v) for v in n])
        if kind == "MultiDiscrete":
            return spaces.MultiDiscrete([int(v) for v in data["nvec"]])
        raise ValueError(f"unknown space type {kind!r}")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise AgentSpecError(f"{where}: not a valid space description ({exc})") from None


# ---------------------------------------------------------------------------- settings
def _class_by_name(setting: str, name: str) -> type:
    import torch
    from stable_baselines3.common import torch_layers

    allowed = _CLASS_SETTINGS[setting]
    if name not in allowed:
        raise AgentSpecError(f"{setting} = {name!r} is not allowed; allowed: {', '.join(allowed)}")
    module = {"activation_fn": torch.nn, "optimizer_class": torch.optim}.get(setting, torch_layers)
    return getattr(module, name)


def _plain(value: Any, where: str) -> Any:
    """``value`` if it is JSON data (tuples become lists); refuse anything else."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, list | tuple):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        return {str(k): _plain(v, f"{where}.{k}") for k, v in value.items()}
    raise AgentSpecError(f"cannot save policy setting {where} ({type(value).__name__})")


def policy_settings(policy: Any) -> dict[str, Any]:
    """The constructor settings of an SB3 policy as JSON data (classes by name)."""
    settings: dict[str, Any] = {}
    for key, value in policy._get_constructor_parameters().items():
        if key in _SUPPLIED:
            continue
        if key in _CLASS_SETTINGS:
            name = value.__name__
            _class_by_name(key, name)  # refuse at save time what load would refuse
            settings[key] = name
        else:
            settings[key] = _plain(value, key)
    return settings


def policy_kwargs_from_sidecar(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The ``policy_kwargs`` that rebuild the network a sidecar describes (classes by name)."""
    kwargs: dict[str, Any] = {}
    for key, value in doc.get("policy_settings", {}).items():
        kwargs[key] = _class_by_name(key, value) if key in _CLASS_SETTINGS else value
    return kwargs


# ---------------------------------------------------------------------------- save
def save_policy(
    model: Any,
    path: str | Path,
    metadata: Mapping[str, Any],
    *,
    optimizer: bool = True,
) -> Path:
    """Save an SB3 MaskablePPO model's policy as ``path`` (.safetensors) plus its sidecar.

    Args:
        model: The MaskablePPO model (or anything with ``policy`` and ``num_timesteps``).
        path: Where to write; ``.safetensors`` is added when missing.
        metadata: The encoding metadata (scenario, padding, observation mode, actions).
        optimizer: Also save the optimizer state (what ``riven train --resume`` needs).

    Returns:
        The path of the weights file.
    """
    require("safetensors", "rl", "saving a policy")
    from safetensors.torch import save_file

    policy = model.policy
    weights, sidecar = policy_paths(path)
    tensors, aliases = _unshared(policy.state_dict())
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "algorithm": ALGORITHM,
        "policy_class": _policy_alias(type(policy)),
        "observation_space": space_to_json(policy.observation_space),
        "action_space": space_to_json(policy.action_space),
        "policy_settings": policy_settings(policy),
        "encoding": dict(metadata),
        "num_timesteps": int(getattr(model, "num_timesteps", 0)),
    }
    if aliases:
        doc["tensor_aliases"] = aliases
    if optimizer and getattr(policy, "optimizer", None) is not None:
        state = policy.optimizer.state_dict()
        values: dict[str, dict[str, Any]] = {}
        for index, entry in state["state"].items():
            for name, value in entry.items():
                if hasattr(value, "detach"):
                    tensors[f"optimizer.state.{index}.{name}"] = value.detach().cpu().contiguous()
                else:
                    values.setdefault(str(index), {})[name] = _plain(value, f"optimizer.{name}")
        doc["optimizer"] = {
            "param_groups": _plain(state["param_groups"], "optimizer.param_groups"),
            "values": values,
        }
    weights.parent.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(weights), metadata={"format": FORMAT, "version": str(FORMAT_VERSION)})
    sidecar.write_text(json.dumps(doc, indent=2, sort_keys=True), encoding="utf-8")
    return weights


def _unshared(state: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``policy.*`` tensors with each shared tensor once, and the names left out.

    A policy whose actor and critic share a features extractor with weights (EntityPolicy)
    lists every weight under three names; safetensors stores a tensor once, so the others
    are saved as aliases (``tensor_aliases`` in the sidecar: left-out name -> saved name).
    """
    tensors: dict[str, Any] = {}
    aliases: dict[str, str] = {}
    seen: dict[tuple[int, tuple[int, ...], tuple[int, ...]], str] = {}
    for key, value in state.items():
        name = f"policy.{key}"
        identity = (value.data_ptr(), tuple(value.shape), tuple(value.stride()))
        if value.numel() and identity in seen:
            aliases[name] = seen[identity]
            continue
        seen[identity] = name
        tensors[name] = value.detach().cpu().contiguous()
    return tensors, aliases


def with_aliases(tensors: Mapping[str, Any], doc: Mapping[str, Any]) -> dict[str, Any]:
    """``tensors`` with the sidecar's ``tensor_aliases`` filled in (see :func:`_unshared`)."""
    out = dict(tensors)
    aliases = doc.get("tensor_aliases") or {}
    if not isinstance(aliases, Mapping):
        raise AgentSpecError(f"tensor_aliases = {aliases!r}: expected a table of names")
    for name, saved in aliases.items():
        if saved not in tensors:
            raise AgentSpecError(f"tensor_aliases: {name} names {saved!r}, which is not saved")
        out[name] = tensors[saved]
    return out


def _policy_classes() -> dict[str, type]:
    """Every policy class a sidecar may name: sb3-contrib's aliases and :data:`CUSTOM_POLICIES`."""
    sb3_contrib = require("sb3_contrib", "rl", "policy files")
    from riven_agents.entity_policy import EntityPolicy

    return {**sb3_contrib.MaskablePPO.policy_aliases, "EntityPolicy": EntityPolicy}


def _policy_alias(policy_type: type) -> str:
    for alias, cls in _policy_classes().items():
        if cls is policy_type:
            return alias
    raise AgentSpecError(f"cannot save a policy of class {policy_type.__name__}")


# ---------------------------------------------------------------------------- limits
#: The largest network and spaces a sidecar may describe, checked before torch allocates
#: anything (a hostile or corrupt sidecar would otherwise fail only when memory runs out).
#: Far above any RIVEN policy: the entity observation of the largest mission has a few
#: thousand numbers and the action catalogue a few hundred entries.
MAX_LAYERS = 16
MAX_LAYER_WIDTH = 4096
MAX_SPACE_ELEMENTS = 1 << 20
MAX_SPACE_DIMS = 4
MAX_ACTIONS = 1 << 16


def _size_error(where: str, text: str) -> AgentSpecError:
    return AgentSpecError(f"{where}: {text}")


def _space_elements(data: Any, where: str) -> int:
    """How many numbers the JSON space ``data`` holds, refusing one past the limits."""
    if not isinstance(data, Mapping):
        return 0  # space_from_json names the malformed description
    kind = data.get("type")
    if kind == "Dict" and isinstance(data.get("spaces"), Mapping):
        return sum(_space_elements(v, f"{where}.{k}") for k, v in data["spaces"].items())
    dims = data.get("shape") if kind == "Box" else data.get("n") if kind == "MultiBinary" else None
    if kind == "MultiDiscrete":
        dims = [len(data["nvec"])] if isinstance(data.get("nvec"), list) else None
        for n in data.get("nvec") or []:
            if isinstance(n, int) and n > MAX_ACTIONS:
                raise _size_error(where, f"{n} choices; allowed at most {MAX_ACTIONS}")
    if kind == "Discrete":
        n = data.get("n")
        if isinstance(n, int) and n > MAX_ACTIONS:
            raise _size_error(where, f"{n} actions; allowed at most {MAX_ACTIONS}")
        return 1
    if isinstance(dims, int):
        dims = [dims]
    if not isinstance(dims, list) or not all(isinstance(d, int) for d in dims):
        return 0
    if len(dims) > MAX_SPACE_DIMS:
        raise _size_error(
            where, f"shape {dims} has {len(dims)} dimensions; allowed at most {MAX_SPACE_DIMS}"
        )
    total = 1
    for d in dims:
        total *= max(d, 0)
    if total > MAX_SPACE_ELEMENTS:
        raise _size_error(
            where, f"shape {dims} holds {total} numbers; allowed at most {MAX_SPACE_ELEMENTS}"
        )
    return total


def check_sizes(doc: Mapping[str, Any], where: str) -> None:
    """Refuse a sidecar whose network or spaces pass the limits above (one line naming it).

    Raises:
        AgentSpecError: ``net_arch`` has more than :data:`MAX_LAYERS` layers or a layer wider
            than :data:`MAX_LAYER_WIDTH`, or a space is larger than :data:`MAX_SPACE_ELEMENTS`
            numbers, :data:`MAX_SPACE_DIMS` dimensions or :data:`MAX_ACTIONS` actions.
    """
    for key in ("observation_space", "action_space"):
        total = _space_elements(doc.get(key), f"{where} {key}")
        if total > MAX_SPACE_ELEMENTS:
            raise _size_error(
                f"{where} {key}", f"{total} numbers; allowed at most {MAX_SPACE_ELEMENTS}"
            )
    settings = doc.get("policy_settings")
    arch = settings.get("net_arch") if isinstance(settings, Mapping) else None
    layers = arch.items() if isinstance(arch, Mapping) else [("", arch)]
    for name, widths in layers:
        if not isinstance(widths, list):
            continue
        here = f"{where} policy_settings.net_arch" + (f".{name}" if name else "")
        if len(widths) > MAX_LAYERS:
            raise _size_error(here, f"{len(widths)} layers; allowed at most {MAX_LAYERS}")
        for width in widths:
            if (
                isinstance(width, bool)
                or not isinstance(width, int)
                or not 1 <= width <= MAX_LAYER_WIDTH
            ):
                raise _size_error(
                    here, f"layer width {width!r}; allowed: an integer in [1, {MAX_LAYER_WIDTH}]"
                )


# ---------------------------------------------------------------------------- load
def read_sidecar(path: str | Path) -> dict[str, Any]:
    """The checked sidecar of a policy file.

    Raises:
        AgentSpecError: No sidecar, not JSON, or not this format and version.
    """
    weights, sidecar = policy_paths(path)
    try:
        doc = json.loads(sidecar.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AgentSpecError(
            f"{weights}: its sidecar {sidecar.name} is missing (a policy is the pair "
            f"NAME{WEIGHTS_SUFFIX} + NAME{SIDECAR_SUFFIX})"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AgentSpecError(f"{sidecar}: not a readable JSON sidecar ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise AgentSpecError(f"{sidecar}: not a RIVEN policy sidecar (format {FORMAT!r})")
    if doc.get("version") != FORMAT_VERSION:
        raise AgentSpecError(
            f"{sidecar}: version {doc.get('version')!r} is not supported; allowed: {FORMAT_VERSION}"
        )
    if doc.get("algorithm") != ALGORITHM:
        raise AgentSpecError(f"{sidecar}: algorithm {doc.get('algorithm')!r}; allowed: {ALGORITHM}")
    check_sizes(doc, str(sidecar))
    return doc


def _read_tensors(weights: Path) -> dict[str, Any]:
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    try:
        return load_file(str(weights), device="cpu")
    except FileNotFoundError:
        raise AgentSpecError(f"{weights}: policy file does not exist") from None
    except (SafetensorError, OSError, ValueError) as exc:
        raise AgentSpecError(f"{weights}: not a readable safetensors file ({exc})") from None


def build_policy(doc: Mapping[str, Any], learning_rate: float = 0.0) -> Any:
    """An untrained SB3 policy object as the sidecar ``doc`` describes it."""
    aliases = _policy_classes()
    name = doc.get("policy_class")
    if name not in aliases:
        raise AgentSpecError(f"policy_class {name!r} is not allowed; allowed: {', '.join(aliases)}")
    check_sizes(doc, "sidecar")  # before torch allocates a thing
    observation_space = space_from_json(doc["observation_space"], "observation_space")
    action_space = space_from_json(doc["action_space"], "action_space")
    try:
        return aliases[name](
            observation_space,
            action_space,
            lambda _progress: learning_rate,
            **policy_kwargs_from_sidecar(doc),
        )
    except TypeError as exc:
        raise AgentSpecError(f"policy_settings do not fit {name}: {exc}") from None


def load_policy_state(policy: Any, tensors: Mapping[str, Any], where: str) -> None:
    """Fill ``policy`` with the ``policy.*`` tensors (strict: every weight, no other)."""
    state = {k[len("policy.") :]: v for k, v in tensors.items() if k.startswith("policy.")}
    try:
        policy.load_state_dict(state, strict=True)
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0]
        raise AgentSpecError(
            f"{where}: the weights do not fit the sidecar's policy ({first})"
        ) from None


def load_optimizer_state(
    policy: Any, tensors: Mapping[str, Any], doc: Mapping[str, Any], where: str
) -> bool:
    """Restore the optimizer state saved with the weights; ``False`` when none was saved."""
    saved = doc.get("optimizer")
    if not saved:
        return False
    state: dict[int, dict[str, Any]] = {}
    for key, value in tensors.items():
        if key.startswith("optimizer.state."):
            index, name = key[len("optimizer.state.") :].split(".", 1)
            state.setdefault(int(index), {})[name] = value
    for index, values in saved.get("values", {}).items():
        state.setdefault(int(index), {}).update(values)
    groups = [dict(g) for g in saved["param_groups"]]
    for group in groups:
        if isinstance(group.get("betas"), list):
            group["betas"] = tuple(group["betas"])
    try:
        policy.optimizer.load_state_dict({"state": state, "param_groups": groups})
    except (ValueError, KeyError, RuntimeError) as exc:
        raise AgentSpecError(f"{where}: the optimizer state does not fit ({exc})") from None
    return True


def load_policy(path: str | Path) -> tuple[Any, dict[str, Any]]:
    """Load a policy saved by :func:`save_policy`, without unpickling anything.

    Returns:
        ``(policy, sidecar)``: the SB3 policy in evaluation mode on the CPU (it has
        ``predict(obs, deterministic=..., action_masks=...)``, ``observation_space`` and
        ``action_space``) and the sidecar document.

    Raises:
        AgentSpecError: A missing or damaged file, or a sidecar that names something not
            allowed.
    """
    weights, _ = policy_paths(path)
    doc = read_sidecar(weights)
    tensors = with_aliases(_read_tensors(weights), doc)
    policy = build_policy(doc)
    load_policy_state(policy, tensors, str(weights))
    policy.set_training_mode(False)
    return policy, doc


__all__ = [
    "ACTIVATIONS",
    "CUSTOM_POLICIES",
    "FEATURE_EXTRACTORS",
    "FORMAT",
    "FORMAT_VERSION",
    "OPTIMIZERS",
    "SIDECAR_SUFFIX",
    "WEIGHTS_SUFFIX",
    "build_policy",
    "load_optimizer_state",
    "load_policy",
    "load_policy_state",
    "policy_kwargs_from_sidecar",
    "policy_paths",
    "policy_settings",
    "read_sidecar",
    "save_policy",
    "space_from_json",
    "space_to_json",
    "with_aliases",
]
