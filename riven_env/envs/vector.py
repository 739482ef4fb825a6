"""Many RIVEN games stepped at once: a Gymnasium ``VectorEnv`` (PufferLib / EnvPool style).

:class:`RivenVectorEnv` runs ``num_envs`` single-learner games of one scenario, each exactly as
:class:`~riven_env.envs.gym_env.RivenSkirmishEnv` plays it (the same streams: the environment's,
the game's dice, the opponent's; the same observations, masks and rewards), in one of two ways:

* ``batched`` (``engine="native"`` with the ``random`` opponent or the Enemy Oracle
  (``"oracle"``, ``"oracle:PROFILE"``, ``native-oracle`` alike), ``obs_mode`` ``"flat"``,
  ``"dict"`` or ``"entity"`` without the raster): one native call (``riven_env._native.BatchEnv``,
  ``cpp/riven/envs/batch.cpp``) applies the N learner actions, plays the opponent up to each
  learner's next decision (random: ``legal[integers(0, len(legal))]`` from each game's own
  stream, as ``RandomAgent`` does; the Oracle: ``riven::oracle::decide`` on the game's own
  state, its fallback table rolled on that same stream, as ``OracleAgent`` rolls its own), restarts finished games and writes the observations, masks,
  rewards and flags into preallocated arrays, the GIL released (routes still go through the
  Python planner callback, which takes the GIL back for its own code);
* ``python`` (every other opponent, engine or observation mode): the N single environments
  stepped one after the other, the fallback with the same interface.

Finished games restart in the same step (``AutoresetMode.SAME_STEP``): the returned observation
is the next game's first, and ``infos["final_obs"]`` (with the ``"_final_obs"`` flags) holds the
finished game's last, ``infos["final_winner"]`` its winner. ``action_masks()`` is MaskablePPO's hook; ``set_opponent(opponent,
indices)`` replaces games' opponents from their next game on (on the batch: ``random`` or
``oracle[:PROFILE]``, per game); the SB3 ``VecEnv`` adapter is
``riven_training.vec_env.RivenSB3VecEnv``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from riven_env.encoding.layout import SIDES
from riven_env.envs.gym_env import (
    DEFAULT_SCENARIO,
    LEARNER_SIDES,
    EnvArgumentError,
    RivenSkirmishEnv,
)
from riven_env.errors import IllegalActionError
from riven_env.native.guard import NativeGuard

__all__ = ["BACKENDS", "RivenVectorEnv", "batched_refusal", "native_opponent"]

BACKENDS = ("batched", "python")
"""How :class:`RivenVectorEnv` steps its games: one native call, or N Python environments."""

# Agent kinds the batch plays as the Enemy Oracle in the core (``KIND`` or ``KIND:PROFILE``).
_ORACLE_KINDS = ("oracle", "native-oracle")

# Seeds drawn for reset() without a seed stay below this (RivenSkirmishEnv's bound).
_SEED_BOUND = 2**62
# The side names as an object array: a batch's per-row names are one indexing, not a list built
# in Python every step.
_SIDE_NAMES = np.array(SIDES, dtype=object)


def native_opponent(opponent: Any) -> bool:
    """Whether the native batch plays ``opponent`` itself: ``"random"`` or ``"oracle[:PROFILE]"``
    (``native-oracle[:PROFILE]`` alike); a policy snapshot, a pool or an agent object needs Python."""
    return isinstance(opponent, str) and (
        opponent == "random" or opponent.split(":", 1)[0] in _ORACLE_KINDS
    )


def opponent_refusal(opponent: Any) -> str:
    """Why the native batch cannot play ``opponent`` (for :func:`native_opponent` False)."""
    from riven_env.envs.opponents import describe

    return (
        f"opponent={describe(opponent)!r} (the native batch plays 'random' and "
        "'oracle[:PROFILE]' itself; a policy snapshot, another agent or an opponent pool "
        "needs the Python agents of backend='python')"
    )


def batched_refusal(
    scenario: Any, opponent: Any, engine: str, obs_mode: str, raster: bool
) -> str | None:
    """Why the native batch cannot run these settings (None when it can)."""
    if engine != "native":
        return f"engine={engine!r} (the batch is the native engine's)"
    if not native_opponent(opponent):
        return opponent_refusal(opponent)
    if obs_mode not in ("flat", "dict", "entity") or raster:
        return (
            f"obs_mode={obs_mode!r}, raster={raster} (the batch encodes flat, dict or entity "
            "observations without the raster)"
        )
    if isinstance(scenario, list | tuple) and len(scenario) != 1:
        return "a list of missions (the batch plays one scenario)"
    return None


#: Why a batched vector env does not pickle: its games live in one native batch, which keeps no
#: record to replay them from (a single env's native game does: docs/environments.md).
PICKLE_REFUSAL = (
    "a batched RivenVectorEnv does not pickle (its games live in the native core): pickle the "
    "function that builds it (as SubprocVecEnv and AsyncVectorEnv do), or use backend='python'"
)


class RivenVectorEnv(VectorEnv):
    """``num_envs`` RIVEN games with one learner each, stepped together.

    Args:
        num_envs: Games at once.
        scenario: A bundled name, a path or a loaded Scenario (one mission).
        opponent: An agent spec; ``"random"`` and ``"oracle[:PROFILE]"`` run natively, others
            on the Python fallback.
        engine: ``"auto"``, ``"native"`` or ``"python"``: the engine of every game (None: the
            process default, ``auto`` unless ``RIVEN_ENGINE`` says otherwise; ``auto`` is
            native where the core can play the missions).
        learner_side: ``"blue"``, ``"red"`` or ``"random"`` (drawn per game).
        obs_mode: ``"flat"`` (default), ``"dict"`` or ``"entity"`` (the EntityEncoder Dict:
            the core writes the blocks and the pairs, the terrain rows are built once per side).
        backend: ``"batched"``, ``"python"`` or None (batched when the settings allow it).
        **kwargs: The single environment's other arguments (``settings``, ``illegal_action``,
            ``rules_overrides``, ``models_per_side``, ``objectives``, ``raster``).

    Raises:
        EnvArgumentError: A bad argument, or ``backend="batched"`` for settings it cannot run
            (the message says which and what is allowed).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        scenario: Any = DEFAULT_SCENARIO,
        opponent: Any = "random",
        *,
        engine: str | None = None,
        learner_side: str = "blue",
        obs_mode: str = "flat",
        backend: str | None = None,
        **kwargs: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise EnvArgumentError(f"num_envs={num_envs!r}: expected a whole number >= 1")
        if backend not in (None, *BACKENDS):
            raise EnvArgumentError(f"backend={backend!r}: expected one of {list(BACKENDS)} or None")
        if learner_side not in LEARNER_SIDES:
            raise EnvArgumentError(
                f"learner_side={learner_side!r}: expected one of {list(LEARNER_SIDES)}"
            )
        from riven_env.engines import pick_engine

        missions = list(scenario) if isinstance(scenario, list | tuple) else [scenario]
        engine = pick_engine(engine, missions, overrides=kwargs.get("rules_overrides"))
        why = batched_refusal(scenario, opponent, engine, obs_mode, bool(kwargs.get("raster")))
        if backend == "batched" and why is not None:
            raise EnvArgumentError(
                f"backend='batched' cannot run {why}; use backend='python' or None"
            )
        self.backend = backend or ("python" if why is not None else "batched")
        self.num_envs = num_envs
        self.engine = engine
        self.obs_mode = obs_mode
        self.envs = [
            RivenSkirmishEnv(
                scenario,
                opponent,
                learner_side=learner_side,
                obs_mode=obs_mode,
                engine=engine,
                **kwargs,
            )
            for _ in range(num_envs if self.backend == "python" else 1)
        ]
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, first.catalogue.size), dtype=bool)
        self._sides = np.zeros(num_envs, dtype=np.int8)
        self._batch: Any = None
        # Every call into the batch holds it: a second thread gets RuntimeError, not a race in
        # the core (riven_env/native/guard.py).
        self._guard = NativeGuard()
        self._template: Any = None
        self._oracles: dict[str, Any] = {}
        # The winner of each game that finished in the last step (-1: a draw), as the batch has it.
        self._winner = np.full(num_envs, -1, dtype=np.int8)
        # Each game's opponent setting (what set_opponent last gave it, for its next game).
        self.opponents: list[Any] = [opponent] * num_envs
        if self.backend == "batched":
            self._build_batch(first, learner_side)

    # ------------------------------------------------------------------ the native batch
    def _build_batch(self, env: RivenSkirmishEnv, learner_side: str) -> None:
        from riven_env.envs.native_batch import BatchArrays, build_native_batch

        self._batch, self._template = build_native_batch(env, learner_side, self.num_envs)
        arrays = BatchArrays(self.num_envs, self._batch.row_size, self._batch.actions)
        self._entity_rows: Any = None
        if self.obs_mode == "entity":
            from riven_env.envs.native_obs import EntityRows

            self._entity_rows = EntityRows(env.entity_encoder, self._template.table)
        self._arrays = arrays
        self._obs, self._final_obs, self._mask_bytes = arrays.obs, arrays.final_obs, arrays.mask
        self._rewards, self._terminated = arrays.rewards, arrays.terminated
        self._truncated, self._illegal = arrays.truncated, arrays.illegal
        self._sides, self._winner = arrays.sides, arrays.winner

    def _outputs(self) -> tuple:
        return self._arrays.outputs()

    def _shape(self, flat: np.ndarray, sides: np.ndarray | None = None) -> Any:
        """The batch's observations as the single environment's space gives them (``sides``:
        each row's learner side, for the entity terrain rows; default: the games' sides now)."""
        if self.obs_mode == "flat":
            return flat.copy()
        if self._entity_rows is not None:
            return self._entity_rows.split(flat, self._sides if sides is None else sides)
        enc = self.envs[0].encoder
        split_models, split_objectives = enc._flat_splits
        n = flat.shape[0]
        return {
            "models": flat[:, :split_models].reshape(n, *enc._models_shape).copy(),
            "objectives": flat[:, split_models:split_objectives]
            .reshape(n, *enc._objectives_shape)
            .copy(),
            "global": flat[:, split_objectives:].copy(),
        }

    # ------------------------------------------------------------------ gymnasium API
    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start every game: ``seed`` (an int: game k gets ``seed + k``; or one per game)."""
        if options:
            raise EnvArgumentError(
                f"options={options!r}: the vector env takes no reset options (build a new one)"
            )
        seeds = self._seeds(seed)
        if self._batch is not None:
            with self._guard:
                self._batch.reset(np.asarray(seeds, dtype=np.uint64), *self._outputs())
                self._masks = self._mask_bytes.astype(bool)
            return self._shape(self._obs), self._infos(None)
        observations = []
        for k, env in enumerate(self.envs):
            obs, _ = env.reset(seed=seeds[k])
            observations.append(obs)
            self._after(k, env)
        return self._stack(observations), self._infos(None)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        """One learner action per game; finished games restart at once (SAME_STEP)."""
        actions = np.asarray(actions).reshape(-1)
        if actions.shape[0] != self.num_envs:
            raise EnvArgumentError(
                f"actions of shape {np.asarray(actions).shape}: expected {self.num_envs} actions"
            )
        if self._batch is not None:
            sides_before = self._sides.copy()
            try:
                with self._guard:
                    self._batch.step(
                        np.ascontiguousarray(actions, dtype=np.int64), *self._outputs()
                    )
            except ValueError as error:
                raise IllegalActionError(str(error)) from None
            done = (self._terminated | self._truncated).astype(bool)
            final = None
            if done.any():
                # A finished game's learner side is the side before the step (its next game
                # may draw another).
                final = self._shape(self._final_obs, sides_before)
            self._masks = self._mask_bytes.astype(bool)
            infos = self._infos(done, final)
            return (
                self._shape(self._obs),
                self._rewards.copy(),
                self._terminated.astype(bool),
                self._truncated.astype(bool),
                infos,
            )
        observations, finals = [], []
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        for k, env in enumerate(self.envs):
            obs, reward, term, trunc, info = env.step(int(actions[k]))
            rewards[k], terminated[k], truncated[k] = reward, term, trunc
            finals.append(obs)
            if term or trunc:
                winner = info.get("result", {}).get("winner")
                self._winner[k] = -1 if winner is None else SIDES.index(winner)
                obs, _ = env.reset()
            observations.append(obs)
            self._after(k, env)
        done = terminated | truncated
        final = self._stack(finals) if done.any() else None
        return self._stack(observations), rewards, terminated, truncated, self._infos(done, final)

    def action_masks(self) -> np.ndarray:
        """``(num_envs, actions)`` bool: the legal actions of every game now."""
        return self._masks.copy()

    def set_opponent(self, opponent: Any, indices: Sequence[int] | int | None = None) -> None:
        """Replace the opponent of the games ``indices`` (all when None) from each one's next
        game on, as :meth:`RivenSkirmishEnv.set_opponent` does for one game (the game now
        running keeps its opponent). SB3 reaches it through ``env_method("set_opponent", ...)``.

        Raises:
            EnvArgumentError: A game index out of range; on the native batch, an opponent the
                core does not play (a policy snapshot, another agent, a pool: the message
                names it and what is allowed), and then no game's opponent changes.
        """
        games = self._game_indices(indices)
        if self._batch is not None:
            if not native_opponent(opponent):
                raise EnvArgumentError(f"set_opponent: {opponent_refusal(opponent)}")
            oracle = None
            if opponent != "random":
                # One core Oracle per spec serves every game (a league sets one per episode).
                oracle = self._oracles.get(opponent)
                if oracle is None:
                    from riven_env.envs.native_batch import oracle_game

                    oracle = self._oracles[opponent] = oracle_game(opponent, self._template)
            with self._guard:
                self._batch.set_next_opponent(games, oracle)
        else:
            for k in games:
                self.envs[k].set_opponent(opponent)
        for k in games:
            self.opponents[k] = opponent

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
        self._batch = None

    def __getstate__(self) -> dict[str, Any]:
        if self._batch is not None:
            raise TypeError(PICKLE_REFUSAL)
        return self.__dict__.copy()

    # ------------------------------------------------------------------ internals
    def _seeds(self, seed: int | Sequence[int] | None) -> list[int]:
        if seed is None:
            rng = np.random.default_rng()
            return [int(s) for s in rng.integers(0, _SEED_BOUND, size=self.num_envs)]
        if isinstance(seed, int | np.integer):
            return [int(seed) + k for k in range(self.num_envs)]
        seeds = [int(s) for s in seed]
        if len(seeds) != self.num_envs:
            raise EnvArgumentError(f"seed: {len(seeds)} seeds for {self.num_envs} games")
        return seeds

    def _game_indices(self, indices: Sequence[int] | int | None) -> list[int]:
        """``indices`` as a list of game numbers (every game when None)."""
        if indices is None:
            return list(range(self.num_envs))
        games = (
            [int(indices)] if isinstance(indices, int | np.integer) else [int(k) for k in indices]
        )
        bad = [k for k in games if not 0 <= k < self.num_envs]
        if bad:
            raise EnvArgumentError(f"indices {bad}: expected game numbers 0..{self.num_envs - 1}")
        return games

    def _after(self, k: int, env: RivenSkirmishEnv) -> None:
        self._masks[k] = env.action_masks()
        self._sides[k] = SIDES.index(env.learner_side)

    def _stack(self, observations: list[Any]) -> Any:
        if isinstance(observations[0], dict):
            return {key: np.stack([o[key] for o in observations]) for key in observations[0]}
        return np.stack(observations)

    def _infos(self, done: np.ndarray | None, final: Any = None) -> dict[str, Any]:
        infos: dict[str, Any] = {
            "action_mask": self._masks.astype(np.int8),
            "learner_side": _SIDE_NAMES[np.asarray(self._sides, dtype=np.intp)],
        }
        if done is not None and final is not None:
            infos["final_obs"] = final
            infos["_final_obs"] = done.copy()
            # The finished games' winners ("blue", "red", None for a draw; None where not done).
            winner = np.asarray(self._winner, dtype=np.intp)
            decided = np.asarray(done, dtype=bool) & (winner >= 0)
            final_winner = np.full(winner.shape[0], None, dtype=object)
            final_winner[decided] = _SIDE_NAMES[winner[decided]]
            infos["final_winner"] = final_winner
        return infos
