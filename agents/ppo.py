"""A trained MaskablePPO policy as an agent: ``ppo:PATH`` (and ``ppo+pickle:PATH``).

The agent encodes the state with the same :class:`~riven_env.encoding.ObservationEncoder` and
:class:`~riven_env.encoding.ActionCatalogue` as the environments, masks the illegal actions
and picks the policy's most likely action (deterministic). It plays whichever side is to
decide, since the encoding is side-relative.

``ppo:PATH`` loads a policy file of :mod:`riven_agents.policy_file`: ``NAME.safetensors`` plus its
``NAME.json`` sidecar (``PATH`` may leave out ``.safetensors``, or name a training output
folder, which means its ``final.safetensors``). Loading it reads tensors and JSON only: no
code in the file can run.

``ppo+pickle:PATH`` loads a stable-baselines3 ``.zip`` (what older versions saved). Such a
file holds pickled Python objects: loading it can run arbitrary code, so it needs this
explicit spec, and a warning is printed on stderr when it is loaded. ``ppo:`` refuses a
``.zip``. Its encoding padding is read from the old sidecar ``PATH.riven.json`` when present.
"""

from __future__ import annotations

import json
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from riven_agents.base import BaseAgent
from riven_agents.policy_file import WEIGHTS_SUFFIX, load_policy, policy_paths, read_sidecar

from riven_env.errors import AgentSpecError
from riven_env.extras import require
from riven_env.game import Decision, GameState

#: The encoding sidecar of a pickle-based ``.zip`` (``model.zip.riven.json``).
LEGACY_SIDECAR_SUFFIX = ".riven.json"
#: The policy a training output folder stands for (``ppo:runs/duel``).
FINAL_NAME = "final" + WEIGHTS_SUFFIX


def legacy_sidecar_path(model_path: str | Path) -> Path:
    """Where the encoding metadata of a pickle-based ``.zip`` lives."""
    return Path(f"{model_path}{LEGACY_SIDECAR_SUFFIX}")


def _is_zip(path: Path) -> bool:
    return path.suffix == ".zip" or (path.is_file() and zipfile.is_zipfile(path))


def resolve_policy_file(path: str | Path, *, trust_pickle: bool = False) -> Path:
    """The policy file that ``ppo:PATH`` (or ``ppo+pickle:PATH``) names.

    Raises:
        AgentSpecError: No such file, a folder without ``final.safetensors``, or a
            pickle-based ``.zip`` without the ``ppo+pickle:`` opt-in.
    """
    given = Path(path)
    if given.is_dir():
        candidate = given / FINAL_NAME
        if not candidate.is_file():
            raise AgentSpecError(
                f"ppo: {str(path)!r} is a folder without {FINAL_NAME}; give a policy file "
                f"(NAME{WEIGHTS_SUFFIX})"
            )
        given = candidate
    if trust_pickle:
        candidate = given if given.suffix == ".zip" else given.with_name(given.name + ".zip")
        if not candidate.is_file():
            raise AgentSpecError(f"ppo+pickle: model file {str(path)!r} does not exist")
        return candidate
    weights, _ = policy_paths(given)
    if weights.is_file():
        return weights
    zipped = given if given.suffix == ".zip" else given.with_name(given.name + ".zip")
    if zipped.is_file() and _is_zip(zipped):
        raise AgentSpecError(
            f"ppo: {str(zipped)!r} is a pickle-based stable-baselines3 zip: loading it can run "
            f"arbitrary code. Load it only if you trust its source, with the agent "
            f"ppo+pickle:{zipped}"
        )
    raise AgentSpecError(f"ppo: model file {str(path)!r} does not exist")


def pickle_warning(path: Path) -> str:
    """The warning printed when a pickle-based model is loaded."""
    return (
        f"warning: loading pickle-based model {path}: it can run arbitrary code; "
        "load only files from sources you trust"
    )


class PPOAgent(BaseAgent):
    """Plays with a trained MaskablePPO policy (sb3-contrib), deterministically.

    Args:
        name: The agent spec (``"ppo:runs/duel/final.safetensors"``).
        side: The side it plays (informative: it plays whichever side is to decide).
        seed: Unused by the deterministic policy; kept for the agent protocol.
        path: The policy file (``.safetensors`` may be left out; a training output folder
            means its ``final.safetensors``), or with ``trust_pickle`` an SB3 ``.zip``.
        model: An already loaded model or policy (training evaluates its live model so).
        metadata: Encoding metadata, as in the sidecar file (overrides the sidecar).
        trust_pickle: Load a pickle-based ``.zip`` (agent ``ppo+pickle:PATH``); it can run
            code, and a warning is printed when it is loaded.

    Raises:
        AgentSpecError: No such file, a damaged sidecar, a ``.zip`` without
            ``trust_pickle``, or (when acting) a model that does not fit the scenario.
    """

    def __init__(
        self,
        name: str,
        side: str,
        seed: int | Sequence[int] | None = None,
        *,
        path: str | Path | None = None,
        model: Any = None,
        metadata: dict[str, Any] | None = None,
        trust_pickle: bool = False,
    ) -> None:
        super().__init__(name, side, seed)
        if path is None and model is None:
            raise AgentSpecError("ppo: give a model file, as in ppo:PATH")
        self.trust_pickle = trust_pickle
        self.path = resolve_policy_file(path, trust_pickle=trust_pickle) if path else None
        if metadata is None and self.path is not None:
            metadata = self._file_metadata(self.path)
        self.metadata: dict[str, Any] = dict(metadata or {})
        self._model = model
        self._encoders: dict[int, tuple[Any, Any, Any]] = {}
        self._twins: dict[int, Any] = {}  # id(Python encoder) -> its core twin

    def _file_metadata(self, path: Path) -> dict[str, Any]:
        if not self.trust_pickle:
            return dict(read_sidecar(path).get("encoding", {}))
        legacy = legacy_sidecar_path(path)
        if not legacy.exists():
            return {}
        try:
            return dict(json.loads(legacy.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise AgentSpecError(f"{legacy}: not a readable JSON sidecar ({exc})") from None

    @classmethod
    def from_model(
        cls, model: Any, side: str, metadata: dict[str, Any], name: str = "ppo:live"
    ) -> PPOAgent:
        """An agent around a model in memory (no file)."""
        return cls(name, side, None, model=model, metadata=metadata)

    # ------------------------------------------------------------------ loading
    @property
    def model(self) -> Any:
        """The policy (loaded on first use): an SB3 policy, or a whole model for a zip."""
        if self._model is None:
            if self.trust_pickle:
                sb3_contrib = require("sb3_contrib", "rl", "ppo+pickle: agents")
                # Said at the moment the pickle is read, wherever that happens.
                print(pickle_warning(self.path), file=sys.stderr, flush=True)
                try:
                    self._model = sb3_contrib.MaskablePPO.load(str(self.path), device="cpu")
                except Exception as exc:  # noqa: BLE001 - a damaged zip fails in many ways
                    raise AgentSpecError(
                        f"{self.path}: cannot load the model zip ({type(exc).__name__}: {exc})"
                    ) from None
            else:
                self._model, _ = load_policy(self.path)
        return self._model

    def _encoding(self, state: GameState) -> tuple[Any, Any, Any]:
        """(encoder, catalogue, scenario) for the state's scenario, checked against the model."""
        key = id(state.scenario)
        cached = self._encoders.get(key)
        if cached is not None and cached[2] is state.scenario:
            return cached
        from gymnasium import spaces

        from riven_env.encoding import ActionCatalogue, ObservationEncoder

        model = self.model
        dict_obs = isinstance(model.observation_space, spaces.Dict)
        raster = dict_obs and "raster" in model.observation_space.spaces
        padding = {
            "models_per_side": self.metadata.get("models_per_side"),
            "objectives": self.metadata.get("objectives"),
        }
        entity = dict_obs and "pairs" in model.observation_space.spaces
        try:
            catalogue = ActionCatalogue(state, **padding)
            if entity:
                from riven_env.encoding.entity import EntityEncoder

                encoder = EntityEncoder(
                    state,
                    terrain_slots=model.observation_space["terrain"].shape[0],
                    actions=catalogue.size,
                    **padding,
                )
            else:
                encoder = ObservationEncoder(state, raster=raster, **padding)
        except Exception as exc:
            raise AgentSpecError(
                f"{self.name}: cannot encode scenario {state.scenario.name!r}: {exc}"
            ) from exc
        expected = (
            tuple(model.observation_space["models"].shape) if dict_obs else (encoder.flat_size,)
        )
        got = encoder.space_spec()["models"]["shape"] if dict_obs else (encoder.flat_size,)
        if tuple(got) != expected or catalogue.size != model.action_space.n:
            raise AgentSpecError(
                f"{self.name}: the model was trained for observations {expected} and "
                f"{model.action_space.n} actions, but scenario {state.scenario.name!r} "
                f"encodes to {tuple(got)} and {catalogue.size} actions (trained on "
                f"{self.metadata.get('scenario', 'an unknown scenario')})"
            )
        cached = (encoder, catalogue, state.scenario)
        self._encoders[key] = cached
        return cached

    # ------------------------------------------------------------------ acting
    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        encoder, catalogue, _ = self._encoding(state)
        side = state.current_side
        index_map = catalogue.legal_index(state, legal)
        mask = np.zeros(catalogue.size, dtype=bool)
        mask[list(index_map)] = True
        encoder = self._twin(encoder, state)
        if self._entity_obs:
            obs = encoder.encode(state, side, mask)
        elif self._dict_obs:
            obs = encoder.encode(state, side)
        else:
            obs = encoder.encode_flat(state, side)
        action, _ = self.model.predict(obs, deterministic=True, action_masks=mask)
        return index_map[int(np.asarray(action).reshape(()))]

    def _twin(self, encoder: Any, state: GameState) -> Any:
        """``encoder``, or its core twin when ``state`` is a native game's.

        The Python encoders read a native state through its Python view, a full export per
        decision; the twins read the native state directly and give the same arrays to the
        bit (``tests/test_native_entity.py``, ``tests/test_native_batch.py``). A raster has
        no twin and keeps the Python path.
        """
        from riven_env.native.loop import NativeGameState

        if not isinstance(state, NativeGameState) or getattr(encoder, "raster", False):
            return encoder
        twin = self._twins.get(id(encoder))
        if twin is None or twin.python is not encoder:
            from riven_env.envs.native_obs import NativeEntityEncoder, NativeFlatEncoder

            twin = NativeEntityEncoder(encoder) if self._entity_obs else NativeFlatEncoder(encoder)
            self._twins[id(encoder)] = twin
        return twin

    @property
    def _entity_obs(self) -> bool:
        """Whether the model reads entity observations (``riven/Skirmish-v1``)."""
        return self._dict_obs and "pairs" in self.model.observation_space.spaces

    @property
    def _dict_obs(self) -> bool:
        from gymnasium import spaces

        return isinstance(self.model.observation_space, spaces.Dict)

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if self.path is not None:  # reload from the file in the other process
            state["_model"] = None
        state["_encoders"] = {}
        state["_twins"] = {}
        return state
