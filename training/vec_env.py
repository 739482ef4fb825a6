"""The batched RIVEN environment as a Stable-Baselines3 ``VecEnv`` (MaskablePPO's ``action_masks``).

:class:`RivenSB3VecEnv` adapts :class:`riven_env.envs.vector.RivenVectorEnv` (one native call
steps every game, or the Python fallback) to SB3's interface: ``reset()`` returns the
observations only, ``step_wait()`` returns ``(obs, rewards, dones, infos)`` with one info dict per
game, ``infos[k]["terminal_observation"]`` and ``"TimeLimit.truncated"`` when game k finished
(SB3 bootstraps a truncated episode from it), and ``action_masks()`` for sb3-contrib's
MaskablePPO. A finished game's info also holds what self-play and league bookkeeping read
(:meth:`riven_training.selfplay.SelfPlayPool.record`): ``result`` (``{"winner": ...}``),
``opponent`` (the spec that played it) and ``learner_side``.

Two things a league run needs, without leaving the native batch:

* **Several missions.** ``scenario`` may be a list: the games are dealt to the missions in
  contiguous blocks as evenly as possible (each block one native batch, all padded alike, so
  the observations and the action catalogue agree), stepped one block after the other.
* **An opponent pool.** ``opponent`` may be an :class:`~riven_env.envs.opponents.OpponentPool`
  of specs the core plays (``random``, ``oracle[:PROFILE]``): each game draws its opponent per
  episode from the pool's weights, on a stream of its own seeded by ``reset`` (the same seed
  gives the same draws). ``env_method("set_opponent", pool_or_spec)`` changes the weights (or
  the opponent) from each game's next episode on: the league's PFSP update.

It lives in the training layer because the environment layer does not import SB3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from riven_env.envs.gym_env import EnvArgumentError
from riven_env.envs.opponents import OpponentPool, describe
from riven_env.envs.vector import RivenVectorEnv, native_opponent

# Stream of the pool draws: default_rng([reset seed, POOL_STREAM]), apart from every game's own.
POOL_STREAM = 7_000_003


def deal(games: int, blocks: int) -> list[int]:
    """How many of ``games`` each of ``blocks`` blocks gets (the first ones one more)."""
    return [games // blocks + (1 if k < games % blocks else 0) for k in range(blocks)]


def pool_refusal(opponent: Any) -> str | None:
    """Why the native batch cannot play an opponent pool (None when every member is native)."""
    if not isinstance(opponent, OpponentPool):
        return None
    others = [spec for spec in opponent.specs if not native_opponent(spec)]
    if not others:
        return None
    return (
        f"opponent pool members {others} (the native batch plays 'random' and "
        "'oracle[:PROFILE]' itself; policy snapshots need one Python environment per process)"
    )


class RivenSB3VecEnv(VecEnv):
    """``num_envs`` games of one mission or several, for SB3.

    Args:
        num_envs: Games at once (at least one per mission).
        scenario: One mission (a bundled name, a path, ``generated:KIND:SEED``) or a list.
        opponent: An agent spec, or an :class:`OpponentPool` of specs the core plays.
        **kwargs: :class:`RivenVectorEnv`'s other arguments (``engine``, ``learner_side``,
            ``obs_mode``, ``backend``, ``settings``...).

    Raises:
        EnvArgumentError: Fewer games than missions, a pool with members the batch does not
            play (on the batched backend), or missions whose observations differ.
    """

    def __init__(
        self,
        num_envs: int,
        scenario: Any = None,
        opponent: Any = "random",
        **kwargs: Any,
    ) -> None:
        missions = list(scenario) if isinstance(scenario, list | tuple) else [scenario]
        missions = [m for m in missions if m is not None] or [None]
        if num_envs < len(missions):
            raise EnvArgumentError(
                f"num_envs={num_envs} for {len(missions)} missions: expected at least one "
                "game per mission"
            )
        if kwargs.get("backend") == "batched":
            why = pool_refusal(opponent)
            if why is not None:
                raise EnvArgumentError(f"backend='batched' cannot run {why}")
        if len(missions) > 1:
            kwargs = {**kwargs, **self._padding(missions, kwargs)}
        self._pool: OpponentPool | None = None
        first_spec = opponent
        if isinstance(opponent, OpponentPool):
            self._pool = opponent
            first_spec = opponent.specs[0]
        self.blocks: list[RivenVectorEnv] = []
        for mission, games in zip(missions, deal(num_envs, len(missions)), strict=True):
            extra = {} if mission is None else {"scenario": mission}
            self.blocks.append(RivenVectorEnv(games, opponent=first_spec, **extra, **kwargs))
        self.venv = self.blocks[0]
        for block in self.blocks[1:]:
            if block.single_observation_space != self.venv.single_observation_space:
                raise EnvArgumentError(
                    f"missions {missions}: their observation spaces differ "
                    f"({block.single_observation_space} vs {self.venv.single_observation_space})"
                )
        self.missions = missions
        super().__init__(
            num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )
        self._actions: np.ndarray | None = None
        self._seed: int | None = None
        self._episode_returns = np.zeros(num_envs, dtype=np.float64)
        self._episode_lengths = np.zeros(num_envs, dtype=np.int64)
        self._sides = np.array(["blue"] * num_envs, dtype=object)
        # Each game's opponent now (the spec of its running game) and the one its next game gets.
        self._current: list[str] = [describe(first_spec)] * num_envs
        self._queued: list[str] = list(self._current)
        self._pool_rng = np.random.default_rng()

    @staticmethod
    def _padding(missions: Sequence[Any], kwargs: dict[str, Any]) -> dict[str, int]:
        """``models_per_side`` and ``objectives`` that fit every mission (build_missions' own)."""
        from riven_env.envs.config import mission_padding, resolve_mission
        from riven_env.game.setup import resolve_rules

        rules = resolve_rules(None, kwargs.get("rules_overrides"))
        models, objectives, _ = mission_padding([resolve_mission(m, rules) for m in missions])
        return {
            "models_per_side": kwargs.get("models_per_side") or models,
            "objectives": kwargs.get("objectives") or objectives,
        }

    # ------------------------------------------------------------------ blocks
    def _spans(self) -> list[tuple[int, int]]:
        spans, start = [], 0
        for block in self.blocks:
            spans.append((start, start + block.num_envs))
            start += block.num_envs
        return spans

    def _join(self, parts: list[Any]) -> Any:
        if len(parts) == 1:
            return parts[0]
        if isinstance(parts[0], dict):
            return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
        return np.concatenate(parts)

    def _set_opponent(self, spec: str, k: int) -> None:
        """Game k's next game is played by ``spec``."""
        for (start, end), block in zip(self._spans(), self.blocks, strict=True):
            if start <= k < end:
                block.set_opponent(spec, indices=[k - start])
                return

    def _draw(self) -> str:
        return self._pool.draw(self._pool_rng)

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> Any:
        seed = self._seed
        self._seed = None
        self._pool_rng = np.random.default_rng(None if seed is None else [int(seed), POOL_STREAM])
        if self._pool is not None:
            # The first game of each: its opponent is set before the game starts.
            self._current = [self._draw() for _ in range(self.num_envs)]
            for k, spec in enumerate(self._current):
                self._set_opponent(spec, k)
        observations, sides = [], []
        for (start, _), block in zip(self._spans(), self.blocks, strict=True):
            obs, info = block.reset(seed=None if seed is None else seed + start)
            observations.append(obs)
            sides.append(info["learner_side"])
        self._sides = np.concatenate(sides)
        if self._pool is not None:
            self._queued = [self._draw() for _ in range(self.num_envs)]
            for k, spec in enumerate(self._queued):
                self._set_opponent(spec, k)
        self._episode_returns[:] = 0.0
        self._episode_lengths[:] = 0
        return self._join(observations)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        actions = np.asarray(self._actions).reshape(-1)
        parts: list[tuple[Any, ...]] = []
        for (start, end), block in zip(self._spans(), self.blocks, strict=True):
            parts.append(block.step(actions[start:end]))
        obs = self._join([p[0] for p in parts])
        rewards = np.concatenate([p[1] for p in parts])
        terminated = np.concatenate([p[2] for p in parts])
        truncated = np.concatenate([p[3] for p in parts])
        dones = terminated | truncated
        self._episode_returns += rewards
        self._episode_lengths += 1
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        sides = np.concatenate([p[4]["learner_side"] for p in parts])
        for (start, end), part in zip(self._spans(), parts, strict=True):
            finished = np.flatnonzero(dones[start:end])
            if not len(finished):
                continue
            infos = part[4]
            final = infos["final_obs"]
            for j in finished:
                k = start + int(j)
                info = out[k]
                info["terminal_observation"] = (
                    {key: value[j] for key, value in final.items()}
                    if isinstance(final, dict)
                    else final[j]
                )
                info["TimeLimit.truncated"] = bool(truncated[k] and not terminated[k])
                # What SB3's Monitor reports (ep_rew_mean, ep_len_mean in the logs).
                info["episode"] = {
                    "r": float(self._episode_returns[k]),
                    "l": int(self._episode_lengths[k]),
                }
                # What SelfPlayPool.record / League.record read.
                info["result"] = {"winner": infos["final_winner"][j]}
                info["opponent"] = self._current[k]
                info["learner_side"] = self._sides[k]
                self._episode_returns[k] = 0.0
                self._episode_lengths[k] = 0
                self._current[k] = self._queued[k]
                if self._pool is not None:
                    self._queued[k] = self._draw()
                    self._set_opponent(self._queued[k], k)
        self._sides = sides
        return obs, rewards.astype(np.float32), dones, out

    def action_masks(self) -> np.ndarray:
        """``(num_envs, actions)`` bool, what MaskablePPO asks for."""
        return self._join([block.action_masks() for block in self.blocks])

    def set_opponent(self, opponent: Any, indices: Sequence[int] | None = None) -> None:
        """The opponent (a spec or a pool of native specs) of the games named from each one's
        next game on (a pool: a new draw for each game's next game)."""
        games = list(range(self.num_envs)) if indices is None else list(indices)
        if self.venv.backend == "batched":
            why = pool_refusal(opponent)
            if why is not None:
                raise EnvArgumentError(f"set_opponent: {why}")
        if isinstance(opponent, OpponentPool):
            self._pool = opponent
            for k in games:
                self._queued[k] = self._draw()
                self._set_opponent(self._queued[k], k)
            return
        self._pool = None
        for k in games:
            self._queued[k] = describe(opponent)
            self._set_opponent(opponent, k)

    def close(self) -> None:
        for block in self.blocks:
            block.close()

    def seed(self, seed: int | None = None) -> Sequence[None | int]:
        self._seed = seed
        return [None if seed is None else seed + k for k in range(self.num_envs)]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.venv, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        for block in self.blocks:
            setattr(block, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[k] for k in self._indices(indices)]
        if method_name == "set_opponent":
            # One call for every game named: the batch takes the opponent per game.
            games = self._indices(indices)
            self.set_opponent(*method_args, indices=games, **method_kwargs)
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
