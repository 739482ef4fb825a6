"""CPU seconds of the native engine's step-bound workloads, to compare two builds (not a test).

Three workloads on one mission (default skirmish-5v5), each timed in CPU seconds
(``time.process_time``: the machine may be shared), best of ``--repeat``:

* ``batched``: ``--batched-calls`` calls of the batched native env (N = 64 games, random
  opponent, random legal learner actions; ``riven_env.bench.batched_steps_per_s``);
* ``single``: ``--single-steps`` steps of the single Gymnasium env on the native engine against
  random (``riven_env.bench.env_steps_per_s``);
* ``oracle_games``: ``--games`` oracle-vs-oracle games on the native engine
  (``riven_env.bench.games_per_s``).

The same seeds every run, so two builds of the core play the same games: run it with one
module, then the other (alternating a few times on a shared machine), and compare.

Usage::

    python benchmarks/bench_native_steps.py
    python benchmarks/bench_native_steps.py --repeat 3 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_env.bench import BATCHED_GAMES, batched_steps_per_s, env_steps_per_s, games_per_s  # noqa: E402


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Run the workloads; print (and return) the best CPU seconds of each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mission", default="skirmish-5v5")
    parser.add_argument("--batched-calls", type=int, default=300, help="calls of N = 64 games")
    parser.add_argument("--single-steps", type=int, default=6000)
    parser.add_argument("--games", type=int, default=100, help="oracle-vs-oracle games")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    runs = {
        "batched": lambda: batched_steps_per_s(args.mission, BATCHED_GAMES * args.batched_calls)[
            "cpu_seconds"
        ],
        "single": lambda: env_steps_per_s(
            args.mission, "random", args.single_steps, engine="native"
        )["cpu_seconds"],
        "oracle_games": lambda: games_per_s(
            args.mission, "oracle", "oracle", args.games, engine="native"
        )["cpu_seconds"],
    }
    best = {name: min(run() for _ in range(args.repeat)) for name, run in runs.items()}
    if args.json:
        print(json.dumps(best))
    else:
        for name, seconds in best.items():
            print(f"{name:>14}: {seconds:.3f} CPU s")
    return best


if __name__ == "__main__":
    main()
