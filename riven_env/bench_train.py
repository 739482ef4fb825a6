"""``riven bench``'s training figure: ``riven train`` timesteps per second on both engines.

Issue 13 asks that ``riven train`` run at least 4x today's timesteps per second, with the
split between the environment and the update printed. Today's run is the Python engine with
one process per environment (``train.vec_env = "auto"`` on ``--engine python``:
``SubprocVecEnv``); the native run is ``--engine native`` with the same ``auto`` (the native
batch: every environment stepped in one call in the learner's process). Both train the same
MaskablePPO configuration (the flat MLP, ``--envs`` environments against the Oracle, no
evaluations or checkpoints) for the same timesteps, and each reports its
:class:`~riven_training.timing.TimeSplit` (``OUT/timing.json``: env, policy, update and
housekeeping seconds). The ratio is of wall-clock rates: the Python run's environments work
in other processes (on other cores), so its CPU time in this process is not the whole cost.

This module imports the training layer (torch, stable-baselines3) only when called.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any


def train_figures(
    scenario: str, timesteps: int, envs: int = 4, opponent: str = "oracle", seed: int = 0
) -> dict[str, Any]:
    """Train on each engine and return both time splits and the native/python speedup.

    Returns:
        ``{"python": split, "native": split, "speedup": float, "vec_env": {...}}``, each split
        ``timing.json``'s content (``timesteps_per_s``, ``seconds``, ``share``); or
        ``{"skipped": reason}`` without the ``rl`` extra or the native core.
    """
    from riven_env.engines import ENGINE_VARIABLE
    from riven_env.extras import MissingExtraError, require
    from riven_env.native import available

    try:
        require("sb3_contrib", "rl", "riven bench (training figure)")
    except MissingExtraError as error:
        return {"skipped": str(error)}
    if not available():
        return {"skipped": "the native core is not built"}
    import os

    from riven_training.hyperparams import load_train_config
    from riven_training.train import TIMING_NAME, TrainRun, train

    overrides = [
        "train.eval_every=0",
        "train.checkpoint_every=0",
        f"ppo.n_steps={max(16, timesteps // (4 * envs))}",
        f"ppo.batch_size={max(16, timesteps // (4 * envs))}",
        "ppo.n_epochs=2",
    ]
    figures: dict[str, Any] = {"scenario": scenario, "timesteps": timesteps, "envs": envs}
    kinds: dict[str, str] = {}
    before = os.environ.get(ENGINE_VARIABLE)
    try:
        for engine in ("python", "native"):
            os.environ[ENGINE_VARIABLE] = engine
            with tempfile.TemporaryDirectory(prefix=f"riven-bench-train-{engine}-") as tmp:
                out = Path(tmp)
                run = TrainRun(
                    scenario, opponent, timesteps, envs, out, seed=seed,
                    config=load_train_config(overrides=overrides),
                )  # fmt: skip
                train(run)
                figures[engine] = json.loads((out / TIMING_NAME).read_text(encoding="utf-8"))
                kinds[engine] = figures[engine].get("vec_env", "?")
    finally:
        if before is None:
            os.environ.pop(ENGINE_VARIABLE, None)
        else:
            os.environ[ENGINE_VARIABLE] = before
    figures["vec_env"] = kinds
    figures["speedup"] = figures["native"]["timesteps_per_s"] / figures["python"]["timesteps_per_s"]
    return figures
