"""Soak of morale flight over every bundled mission: counts and invariants from the logs alone.

Plays ``--seeds`` games of every bundled mission for each agent pairing (oracle, random and
greedy, both colours), reads each event log with :func:`riven_env.game.flightlog.audit_flights`
and reports flights per game, Fled per game and every broken flight invariant::

    python3 benchmarks/flight_soak.py --seeds 24 --workers 2 --json        # 7 pairings x 24
    python3 benchmarks/flight_soak.py --workers 2 --pairings \
        oracle-oracle:40,random-random:40,oracle-random:40,random-oracle:40,greedy-oracle:3,oracle-greedy:3,greedy-random:3

Greedy games cost about five times the others; the second form plays 2,028 games for the
price of about 900 of the first. ``--json`` lists every game (mission, agents, seed, flights,
Fled) so that two runs can be compared game for game.

The engine is imported from the current directory (run it from a checkout's root to measure
that checkout); the log checker is loaded from this file's own checkout, so the same checker
reads the logs of an older engine too. Exit status 1 when any invariant is broken.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

PAIRINGS = (
    ("oracle", "oracle"),
    ("random", "random"),
    ("oracle", "random"),
    ("random", "oracle"),
    ("greedy", "oracle"),
    ("oracle", "greedy"),
    ("greedy", "random"),
)


def _pairings(spec: str | None, seeds: int) -> list[tuple[str, str, int]]:
    """``(blue, red, seeds)`` from ``"oracle-oracle:40,greedy-oracle:3"`` (or all, ``seeds`` each)."""
    if not spec:
        return [(blue, red, seeds) for blue, red in PAIRINGS]
    found = []
    for item in spec.split(","):
        pair, _, count = item.partition(":")
        blue, _, red = pair.partition("-")
        if not blue or not red:
            raise SystemExit(f"error: --pairings {item!r}: expected BLUE-RED[:SEEDS]")
        found.append((blue, red, int(count) if count else seeds))
    return found


def _checker() -> Any:
    if "_flightlog" in sys.modules:
        return sys.modules["_flightlog"]
    path = Path(__file__).resolve().parents[1] / "riven_env" / "game" / "flightlog.py"
    spec = importlib.util.spec_from_file_location("_flightlog", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["_flightlog"] = module  # dataclasses look their module up while being built
    assert spec.loader is not None  # a file path always has a loader
    spec.loader.exec_module(module)
    return module


def _play(case: tuple[str, str, str, int]) -> tuple[str, str, str, int, int, int, list[str]]:
    sys.path.insert(0, ".")
    from riven_env.engines import play_game

    scenario, blue, red, seed = case
    audit = _checker().audit_flights(play_game(scenario, blue, red, seed))
    return scenario, blue, red, seed, audit.flights, audit.fled, audit.violations


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=24, help="games per mission and pairing")
    parser.add_argument(
        "--pairings", default=None, help='e.g. "oracle-oracle:40,greedy-oracle:3" (default: all)'
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sys.path.insert(0, ".")
    from riven_env.scenario import list_bundled

    cases = [
        (info.name, blue, red, seed)
        for info in list_bundled()
        for blue, red, seeds in _pairings(args.pairings, args.seeds)
        for seed in range(seeds)
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(_play, cases, chunksize=8))
    per_mission: dict[str, dict[str, Any]] = {}
    violations: list[str] = []
    for scenario, blue, red, seed, flights, fled, broken in results:
        row = per_mission.setdefault(scenario, {"games": 0, "flights": 0, "fled": 0})
        row["games"] += 1
        row["flights"] += flights
        row["fled"] += fled
        violations += [f"{scenario} {blue}-{red} seed {seed}: {v}" for v in broken]
    for row in per_mission.values():
        row["flights_per_game"] = round(row["flights"] / row["games"], 3)
        row["fled_per_game"] = round(row["fled"] / row["games"], 3)
    games = len(results)
    total = {
        "games": games,
        "flights_per_game": round(sum(r[4] for r in results) / max(1, games), 3),
        "fled_per_game": round(sum(r[5] for r in results) / max(1, games), 3),
        "violations": len(violations),
        "seconds": round(time.perf_counter() - started, 1),
    }
    rows = [list(r[:6]) for r in results]  # scenario, blue, red, seed, flights, fled
    report = {"total": total, "missions": per_mission, "violations": violations, "games": rows}
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for name, row in per_mission.items():
            print(
                f"{name:20s} games {row['games']:5d}  flights/game {row['flights_per_game']:.3f}"
                f"  fled/game {row['fled_per_game']:.3f}"
            )
        print(total)
        for line in violations[:50]:
            print(line)
    return 1 if violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
