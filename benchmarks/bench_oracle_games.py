"""Oracle-vs-oracle games per CPU second on every bundled mission, python vs native (not a test).

Each mission's seeds ``0 .. games-1`` are played with ``play_game(..., "oracle", "oracle")`` on
the Python engine (the Python Oracle) and on the native engine (the whole game in the core,
``play_seats``: riven_env/native/play.py); each engine plays every seed once first (warm-up:
the per-map caches and the forward model built), then the timed pass. The event logs of the
two engines are compared seed for seed (``identical`` counts the games whose JSON lines are
equal). Rates are of this process's CPU time (one process is one core).

Usage::

    python benchmarks/bench_oracle_games.py                 # a table, 4 games per mission
    python benchmarks/bench_oracle_games.py --games 10 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_env.engines import play_game  # noqa: E402
from riven_env.game.events import dumps_event  # noqa: E402
from riven_env.scenario import list_bundled  # noqa: E402


def _logs(mission: str, games: int, engine: str) -> tuple[float, list[list[str]]]:
    """CPU seconds of ``play_game`` alone (the logs are written to JSON lines untimed)."""
    logs, cpu = [], 0.0
    for seed in range(games):
        start = time.process_time()
        events = play_game(mission, "oracle", "oracle", seed, engine=engine)
        cpu += time.process_time() - start
        logs.append([dumps_event(e) for e in events])
    return cpu, logs


def measure(mission: str, games: int) -> dict[str, Any]:
    """Both engines on ``mission``: games per CPU second, the ratio and the identical logs."""
    out: dict[str, Any] = {"games": games}
    logs = {}
    for engine in ("python", "native"):
        _logs(mission, games, engine)  # warm-up
        cpu, logs[engine] = _logs(mission, games, engine)
        out[f"{engine}_games_per_cpu_s"] = games / cpu
    out["speedup"] = out["native_games_per_cpu_s"] / out["python_games_per_cpu_s"]
    out["identical"] = sum(a == b for a, b in zip(logs["python"], logs["native"], strict=True))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="seeds per mission")
    parser.add_argument("--mission", action="append", help="only these missions")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    missions = args.mission or [info.name for info in list_bundled()]
    results = {m: measure(m, args.games) for m in missions}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{'mission':24} {'python g/cpu-s':>15} {'native g/cpu-s':>15} {'speedup':>8} identical")
    for m, r in results.items():
        print(
            f"{m:24} {r['python_games_per_cpu_s']:15.1f} {r['native_games_per_cpu_s']:15.1f} "
            f"{r['speedup']:8.1f} {r['identical']}/{r['games']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
