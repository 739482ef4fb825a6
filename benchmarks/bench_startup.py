"""Benchmark of the ``riven`` command's start-up (not a timed test).

Times whole processes, as a user's shell starts them: ``riven --version`` (the cost of the
command line itself; target under 0.3 s) and a simple ``riven odds`` query (target under
0.6 s), best and median of ``--repeat`` runs. ``python -X importtime -c "import
riven_env.cli.main"`` shows where an import's time goes; tests/test_cli_startup.py checks
that no heavy module (torch, duckdb, matplotlib, ray, scipy, the native core) is imported.

Usage::

    python benchmarks/bench_startup.py            # prints a table
    python benchmarks/bench_startup.py --json     # machine-readable
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CASES = {
    "riven --version": (["--version"], 0.3),
    "riven odds activation --mettle 4 --dice 2": (
        ["odds", "activation", "--mettle", "4", "--dice", "2"],
        0.6,
    ),
}


def time_command(args: list[str], repeat: int) -> list[float]:
    """Wall-clock seconds of ``repeat`` runs of ``riven ARGS`` (each a fresh interpreter)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "riven_env.cli.main", *args],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args(argv)
    rows = []
    for name, (args, target) in CASES.items():
        times = time_command(args, max(1, options.repeat))
        rows.append(
            {
                "command": name,
                "best_s": round(min(times), 3),
                "median_s": round(statistics.median(times), 3),
                "target_s": target,
            }
        )
    if options.json:
        print(json.dumps(rows, indent=2))
    else:
        for row in rows:
            print(
                f"{row['command']:<45} best {row['best_s']:.3f} s  "
                f"median {row['median_s']:.3f} s  (target < {row['target_s']} s)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
