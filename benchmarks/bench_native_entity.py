"""Benchmark of entity observations on the native batch (not a timed test).

Steps ``RivenVectorEnv(N, scenario, "random", engine="native", backend="batched")`` with masked
random learner actions and reports learner steps per CPU second (``time.process_time``: the
whole process, the batch's native call and the Python around it) for ``obs_mode="flat"`` and
``obs_mode="entity"`` (the core's pair encoder, ``cpp/riven/encoding/entity.cpp``), and the
Python fallback of the entity observation (``backend="python"``: N ``RivenSkirmishEnv`` with
the Python engine and ``EntityEncoder``) for comparison.

Usage::

    python benchmarks/bench_native_entity.py                      # N=64, skirmish-5v5-mirror
    python benchmarks/bench_native_entity.py --games 16 --steps 100 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_env.envs.vector import RivenVectorEnv  # noqa: E402


def bench(
    games: int, steps: int, scenario: str, obs_mode: str, engine: str, backend: str, seed: int
) -> dict[str, Any]:
    """Learner steps per CPU second of ``steps`` batch steps of ``games`` games."""
    env = RivenVectorEnv(
        games, scenario, "random", engine=engine, obs_mode=obs_mode, backend=backend
    )
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    # The actions' own cost (a masked random choice per game) is timed apart and left out.
    choose = 0.0
    cpu = time.process_time()
    for _ in range(steps):
        start = time.process_time()
        masks = env.action_masks()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        choose += time.process_time() - start
        env.step(actions)
    cpu = time.process_time() - cpu - choose
    env.close()
    return {
        "obs_mode": obs_mode,
        "engine": engine,
        "backend": backend,
        "games": games,
        "steps": steps * games,
        "cpu_s": round(cpu, 3),
        "steps_per_cpu_s": round(steps * games / cpu, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--steps", type=int, default=200, help="batch steps (of all games)")
    parser.add_argument("--python-steps", type=int, default=20, help="steps of the fallback")
    parser.add_argument("--scenario", default="skirmish-5v5-mirror")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    runs = [
        bench(args.games, args.steps, args.scenario, "flat", "native", "batched", args.seed),
        bench(args.games, args.steps, args.scenario, "entity", "native", "batched", args.seed),
        bench(
            args.games, args.python_steps, args.scenario, "entity", "python", "python", args.seed
        ),
    ]
    if args.json:
        print(json.dumps(runs, indent=2))
    else:
        for run in runs:
            print(
                f"{run['obs_mode']:>6} {run['engine']:>6} {run['backend']:>7} N={run['games']}: "
                f"{run['steps_per_cpu_s']:>9.1f} steps/CPU s ({run['steps']} steps, {run['cpu_s']} s)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
