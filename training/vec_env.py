"""The batched RIVEN environment as a Stable-Baselines3 ``VecEnv`` (MaskablePPO's ``action_masks``).

:class:`RivenSB3VecEnv` adapts :class:`riven_env.envs.vector.RivenVectorEnv` (one native call
steps every game, or the Python fallback) to SB3's interface: ``reset()`` returns the
observations only, ``step_wait()`` returns ``(obs, rewards, dones, infos)`` with one info dict per
game, ``infos[k]["terminal_observation"]`` and ``"TimeLimit.truncated"`` when game k finished
(SB3 bootstraps a truncated episode from it), and ``action_masks()`` for sb3-contrib's
MaskablePPO. ``env_method("set_opponent", opponent, indices=...)`` (self-play and league code)
replaces the opponent of the games named from each one's next game on
(:meth:`RivenVectorEnv.set_opponent`: on the native batch ``random`` or ``oracle[:PROFILE]``,
anything else refused with one line). It lives in the training layer because the environment
layer does not import SB3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from riven_env.envs.vector import RivenVectorEnv


class RivenSB3VecEnv(VecEnv):
    """``num_envs`` games of one scenario for SB3.

    Args:
        num_envs: Games at once.
        **kwargs: :class:`RivenVectorEnv`'s arguments (``scenario``, ``opponent``, ``engine``,
            ``learner_side``, ``obs_mode``, ``backend``, ``settings``...).
    """

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        self.venv = RivenVectorEnv(num_envs, **kwargs)
        super().__init__(
            num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )
        self._actions: np.ndarray | None = None
        self._seed: int | None = None
        self._episode_returns = np.zeros(num_envs, dtype=np.float64)
        self._episode_lengths = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> Any:
        obs, _ = self.venv.reset(seed=self._seed)
        self._seed = None
        self._episode_returns[:] = 0.0
        self._episode_lengths[:] = 0
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        dones = terminated | truncated
        self._episode_returns += rewards
        self._episode_lengths += 1
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = infos["final_obs"]
            for k in np.flatnonzero(dones):
                out[k]["terminal_observation"] = (
                    {key: value[k] for key, value in final.items()}
                    if isinstance(final, dict)
                    else final[k]
                )
                out[k]["TimeLimit.truncated"] = bool(truncated[k] and not terminated[k])
                # What SB3's Monitor reports (ep_rew_mean, ep_len_mean in the logs).
                out[k]["episode"] = {
                    "r": float(self._episode_returns[k]),
                    "l": int(self._episode_lengths[k]),
                }
                self._episode_returns[k] = 0.0
                self._episode_lengths[k] = 0
        return obs, rewards.astype(np.float32), dones, out

    def action_masks(self) -> np.ndarray:
        """``(num_envs, actions)`` bool, what MaskablePPO asks for."""
        return self.venv.action_masks()

    def close(self) -> None:
        self.venv.close()

    def seed(self, seed: int | None = None) -> Sequence[None | int]:
        self._seed = seed
        return [None if seed is None else seed + k for k in range(self.num_envs)]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.venv, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[k] for k in self._indices(indices)]
        if method_name == "set_opponent":
            # One call for every game named: the native batch takes the opponent per game.
            games = self._indices(indices)
            self.venv.set_opponent(*method_args, indices=games, **method_kwargs)
            return [None for _ in games]
        method = getattr(self.venv, method_name)
        return [method(*method_args, **method_kwargs) for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
