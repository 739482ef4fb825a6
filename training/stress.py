"""Train a MaskablePPO best response against one Oracle (``riven stress-oracle --timesteps``).

The stress test itself is :mod:`riven_env.analytics.stress`: its best responder is any agent
spec. This module keeps the trained option: a policy trained against the Oracle under test,
then played as ``ppo:PATH``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def train_best_response(
    scenario: str,
    oracle: str,
    timesteps: int,
    *,
    envs: int = 2,
    out: Path,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    log: Callable[[str], None] = print,
) -> Path:
    """Train a policy against ``oracle`` for ``timesteps`` steps; return its policy file."""
    from riven_training.hyperparams import load_train_config
    from riven_training.train import TrainRun, train

    log(f"training a best response against {oracle} for {timesteps} timesteps")
    return Path(
        train(
            TrainRun(
                scenario=scenario,
                opponent=oracle,
                timesteps=timesteps,
                envs=envs,
                out=out,
                seed=seed,
                config=load_train_config(),
                eval_progress=progress,
                eval_workers=workers,
            )
        )
    )
