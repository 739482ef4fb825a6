"""A trained MaskablePPO policy as an agent: ``ppo:PATH``.

The agent encodes the state with the same :class:`~riven_env.encoding.ObservationEncoder` and
:class:`~riven_env.encoding.ActionCatalogue` as the environments, masks the illegal actions
and picks the policy's most likely action (deterministic). It plays whichever side is to
decide, since the encoding is side-relative.

The encoding's padding (model slots per side, objective slots) is read from the sidecar file
``PATH.riven.json`` that training writes next to every model; without one, the scenario's own
sizes are used, and a size that does not match the model's spaces is an error.

Security: a model file is a zip holding pickled Python objects; loading it can run arbitrary
code. Load only model files from trusted sources.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import BaseAgent
from riven_env.errors import AgentSpecError
from riven_env.extras import require
from riven_env.files import read_json
from riven_env.game import Decision, GameState

SIDECAR_SUFFIX = ".riven.json"


def sidecar_path(model_path: str | Path) -> Path:
    """Where the encoding metadata of a model file lives (``model.zip.riven.json``)."""
    return Path(f"{model_path}{SIDECAR_SUFFIX}")


def write_sidecar(model_path: str | Path, metadata: dict[str, Any]) -> Path:
    """Write the encoding metadata of a saved model (scenario, padding, observation mode)."""
    path = sidecar_path(model_path)
    path.write_text(json.dumps(metadata, indent=2, sort_keys=True), encoding="utf-8")
    return path


def _model_file(path: str | Path) -> Path:
    candidate = Path(path)
    if candidate.suffix != ".zip" and not candidate.exists():
        candidate = candidate.with_name(candidate.name + ".zip")
    if not candidate.exists():
        raise AgentSpecError(f"ppo: model file {str(path)!r} does not exist")
    return candidate


class PPOAgent(BaseAgent):
    """Plays with a trained MaskablePPO policy (sb3-contrib), deterministically.

    Args:
        name: The agent spec (``"ppo:runs/duel/final.zip"``).
        side: The side it plays (informative: it plays whichever side is to decide).
        seed: Unused by the deterministic policy; kept for the agent protocol.
        path: The model zip (``.zip`` may be left out).
        model: An already loaded model (training evaluates its live model this way).
        metadata: Encoding metadata, as in the sidecar file (overrides the sidecar).

    Raises:
        AgentSpecError: No such file, or the model does not fit the scenario's encoding.
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
    ) -> None:
        super().__init__(name, side, seed)
        if path is None and model is None:
            raise AgentSpecError("ppo: give a model file, as in ppo:PATH")
        self.path = _model_file(path) if path is not None else None
        if metadata is None and self.path is not None and sidecar_path(self.path).exists():
            metadata = read_json(
                sidecar_path(self.path), what="model sidecar (JSON)", error=AgentSpecError
            )
            if not isinstance(metadata, dict):
                raise AgentSpecError(
                    f"{sidecar_path(self.path)}: expected a JSON object of encoding settings"
                )
        self.metadata: dict[str, Any] = dict(metadata or {})
        self._model = model
        self._encoders: dict[int, tuple[Any, Any, Any]] = {}

    @classmethod
    def from_model(
        cls, model: Any, side: str, metadata: dict[str, Any], name: str = "ppo:live"
    ) -> PPOAgent:
        """An agent around a model in memory (no file)."""
        return cls(name, side, None, model=model, metadata=metadata)

    # ------------------------------------------------------------------ loading
    @property
    def model(self) -> Any:
        """The MaskablePPO model (loaded on first use)."""
        if self._model is None:
            sb3_contrib = require("sb3_contrib", "rl", "ppo: agents")
            self._model = sb3_contrib.MaskablePPO.load(str(self.path), device="cpu")
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
        try:
            encoder = ObservationEncoder(state, raster=raster, **padding)
            catalogue = ActionCatalogue(state, **padding)
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
        obs = encoder.encode(state, side) if self._dict_obs else encoder.encode_flat(state, side)
        action, _ = self.model.predict(obs, deterministic=True, action_masks=mask)
        return index_map[int(np.asarray(action).reshape(()))]

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
        return state
