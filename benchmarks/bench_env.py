"""Raw speed of ``riven/Skirmish-v0`` (``--obs-mode entity``: ``-v1``): learner steps per second.

Each step includes the opponent's play up to the learner's next decision, the observation
encoding and the mask. Run::

    python benchmarks/bench_env.py [--steps 3000] [--scenario skirmish-5v5 ...]
"""

from __future__ import annotations

import argparse


def bench(scenario: str, opponent: str, steps: int, obs_mode: str, seed: int = 0) -> dict:
    """Step one environment ``steps`` times; return steps/s and the episodes finished."""
    from riven_env.bench import env_steps_per_s

    result = env_steps_per_s(scenario, opponent, steps, seed, obs_mode=obs_mode)
    return {"scenario": scenario, "opponent": opponent, "obs_mode": obs_mode, **result}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--scenario", nargs="+", default=["duel-1v1", "skirmish-5v5"])
    parser.add_argument("--opponent", nargs="+", default=["random", "oracle"])
    parser.add_argument("--obs-mode", default="flat", choices=["flat", "dict", "entity"])
    args = parser.parse_args()
    print(f"{'scenario':<16} {'opponent':<10} {'steps/s':>9} {'episodes':>9} {'seconds':>8}")
    for scenario in args.scenario:
        for opponent in args.opponent:
            r = bench(scenario, opponent, args.steps, args.obs_mode)
            print(
                f"{r['scenario']:<16} {r['opponent']:<10} {r['steps_per_s']:>9.0f} "
                f"{r['episodes']:>9} {r['seconds']:>8.1f}"
            )


if __name__ == "__main__":
    main()
