"""Where a training run's time goes: the environments, the policy, the update, the rest.

RL on RIVEN is bound by the environment (issue 13), so ``riven train`` measures the split
instead of leaving it to a profiler: :func:`timed_vec_env` wraps the training ``VecEnv`` and
times every ``reset``/``step`` (with subprocess environments: the learner's wait for its
workers), and :class:`TimeSplit` takes the rollout and update boundaries from the training
callback. The figures are wall-clock seconds of this process; the split always adds up to
the run's wall time.

* ``env``: stepping and resetting the training environments (the opponent's play, the
  observation encoding and the mask included).
* ``policy``: the rest of the rollouts (the policy's forward passes, the rollout buffer).
* ``update``: the PPO update between rollouts.
* ``housekeeping``: checkpoints, evaluations, self-play snapshots and league bookkeeping.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

PARTS = ("env", "policy", "update", "housekeeping")
"""The parts of the split, in the order they are printed."""


@dataclass
class TimeSplit:
    """Seconds per part of a training run (see the module docstring).

    Attributes:
        env_s: Accumulated by the wrapped ``VecEnv`` (:func:`timed_vec_env`).
        housekeeping_s: Accumulated by :meth:`housekeeping` blocks.
    """

    env_s: float = 0.0
    housekeeping_s: float = 0.0
    _rollout_s: float = 0.0
    _update_s: float = 0.0
    _started: float | None = None
    _ended: float | None = None
    _rollout_from: tuple[float, float, float] | None = None
    _update_from: tuple[float, float] | None = None
    _steps: list[int] = field(default_factory=lambda: [0, 0])
    _env_before: float = 0.0

    def training_start(self, timesteps: int) -> None:
        """The run starts (``num_timesteps`` is not 0 when a run resumes)."""
        self._started = time.perf_counter()
        self._steps = [timesteps, timesteps]
        # SB3 resets the environments before the callback starts: outside the timed window.
        self._env_before = self.env_s

    def rollout_start(self) -> None:
        """A rollout starts: what ran since the last rollout's end was the update."""
        now = time.perf_counter()
        self._close_update(now)
        self._rollout_from = (now, self.env_s, self.housekeeping_s)

    def rollout_end(self) -> None:
        """A rollout's steps are collected."""
        now = time.perf_counter()
        if self._rollout_from is not None:
            began, env, kept = self._rollout_from
            # What the environments and the housekeeping took is theirs, not the policy's.
            self._rollout_s += (now - began) - (self.env_s - env) - (self.housekeeping_s - kept)
            self._rollout_from = None
        self._update_from = (now, self.housekeeping_s)

    def training_end(self, timesteps: int) -> None:
        """The run ends (after its last update)."""
        now = time.perf_counter()
        self._close_update(now)
        self._ended = now
        self._steps[1] = timesteps

    def _close_update(self, now: float) -> None:
        if self._update_from is not None:
            began, kept = self._update_from
            self._update_s += (now - began) - (self.housekeeping_s - kept)
            self._update_from = None

    @contextmanager
    def housekeeping(self) -> Iterator[None]:
        """Count the block as housekeeping (checkpoints, evaluations, snapshots)."""
        began = time.perf_counter()
        try:
            yield
        finally:
            self.housekeeping_s += time.perf_counter() - began

    def seconds(self) -> dict[str, float]:
        """``{part: seconds}`` for :data:`PARTS`."""
        return {
            "env": self.env_s - self._env_before,
            "policy": max(self._rollout_s, 0.0),
            "update": self._update_s,
            "housekeeping": self.housekeeping_s,
        }

    def to_dict(self) -> dict[str, Any]:
        """The split as JSON data: wall time, timesteps, timesteps/s, seconds and shares."""
        wall = 0.0
        if self._started is not None:
            wall = (self._ended or time.perf_counter()) - self._started
        steps = self._steps[1] - self._steps[0]
        parts = self.seconds()
        return {
            "wall_s": round(wall, 3),
            "timesteps": steps,
            "timesteps_per_s": round(steps / wall, 1) if wall > 0 else None,
            "seconds": {k: round(v, 3) for k, v in parts.items()},
            "share": {k: round(v / wall, 4) if wall > 0 else None for k, v in parts.items()},
        }

    def line(self) -> str:
        """One line for the terminal: rate, then each part's seconds and share."""
        data = self.to_dict()
        rate = data["timesteps_per_s"]
        parts = ", ".join(
            f"{name} {data['seconds'][name]:.1f} s ({(data['share'][name] or 0):.0%})"
            for name in PARTS
        )
        rate_text = "n/a" if rate is None else f"{rate:,.0f}"
        return (
            f"time split: {data['timesteps']:,} timesteps in {data['wall_s']:.1f} s "
            f"({rate_text} timesteps/s): {parts}"
        )


def timed_vec_env(vec_env: Any, split: TimeSplit) -> Any:
    """``vec_env`` wrapped so that its ``reset`` and ``step`` time adds to ``split.env_s``."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class TimedVecEnv(VecEnvWrapper):
        """Times the wrapped environments' resets and steps (everything else passes through)."""

        def reset(self) -> Any:
            began = time.perf_counter()
            try:
                return self.venv.reset()
            finally:
                split.env_s += time.perf_counter() - began

        def step_async(self, actions: Any) -> None:
            began = time.perf_counter()
            try:
                self.venv.step_async(actions)
            finally:
                split.env_s += time.perf_counter() - began

        def step_wait(self) -> Any:
            began = time.perf_counter()
            try:
                return self.venv.step_wait()
            finally:
                split.env_s += time.perf_counter() - began

    return TimedVecEnv(vec_env)
