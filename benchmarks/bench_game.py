"""Benchmark of whole games: games per second and decisions per second (not a timed test).

Plays seeded games between two agents on bundled scenarios and reports, per scenario and
pairing, the mean cost of a game and of a decision (wall and CPU time), games per second
and decisions per second on one core. Each scenario is loaded once, outside the timing (as
a playtest batch does), and one untimed warm-up game builds the map's shared geometry;
the load and warm-up costs are reported separately.

Usage::

    python benchmarks/bench_game.py                       # random and oracle, two maps
    python benchmarks/bench_game.py --games 50 --json     # machine-readable
    python benchmarks/bench_game.py --scenario skirmish-5v5 --pairing random-random --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_agents.registry import make_agent  # noqa: E402

from riven_env.engines import new_game  # noqa: E402
from riven_env.game.runner import agent_seeds, play  # noqa: E402
from riven_env.scenario import load_scenario  # noqa: E402

DEFAULT_SCENARIOS = ("skirmish-5v5", "dungeon-crawl")
DEFAULT_PAIRINGS = ("random-random", "oracle-oracle")
TARGET_GAMES_PER_SECOND = 100.0  # issue "Playtests at scale": oracle vs oracle, skirmish-5v5


class _CountingAgent:
    """Wraps an agent and counts its decisions (everything else passes through)."""

    def __init__(self, agent: Any) -> None:
        self._agent = agent
        self.decisions = 0

    def act(self, state: Any, legal: Sequence[Any]) -> Any:
        self.decisions += 1
        return self._agent.act(state, legal)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._agent, name)


def play_one(scenario: Any, blue: str, red: str, seed: int) -> int:
    """Play one game to the end; return the number of decisions taken."""
    state = new_game(scenario, seed)
    seeds = agent_seeds(seed)
    agents = {
        "blue": _CountingAgent(make_agent(blue, "blue", seeds["blue"])),
        "red": _CountingAgent(make_agent(red, "red", seeds["red"])),
    }
    play(state, agents)
    return sum(agent.decisions for agent in agents.values())


def run_batch(scenario: Any, blue: str, red: str, games: int, seed: int) -> dict[str, float]:
    """Time ``games`` seeded games; return totals and rates."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    decisions = sum(play_one(scenario, blue, red, seed + k) for k in range(games))
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    return {
        "games": games,
        "decisions": decisions,
        "wall_s": wall,
        "cpu_s": cpu,
        "ms_per_game": 1e3 * cpu / games,
        "us_per_decision": 1e6 * cpu / max(decisions, 1),
        "games_per_s": games / cpu if cpu > 0 else float("inf"),
        "decisions_per_s": decisions / cpu if cpu > 0 else float("inf"),
    }


def profile_batch(scenario: Any, blue: str, red: str, games: int, seed: int, top: int) -> str:
    """A cProfile breakdown (cumulative time, ``top`` lines) of a batch of games."""
    profiler = cProfile.Profile()
    profiler.enable()
    for k in range(games):
        play_one(scenario, blue, red, seed + k)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark; print a table (or JSON) and return the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per scenario and pairing")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument(
        "--scenario", action="append", help=f"bundled name or path (default {DEFAULT_SCENARIOS})"
    )
    parser.add_argument(
        "--pairing", action="append", help=f"BLUE-RED agent specs (default {DEFAULT_PAIRINGS})"
    )
    parser.add_argument("--profile", action="store_true", help="add a cProfile breakdown")
    parser.add_argument("--top", type=int, default=15, help="lines of the profile breakdown")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    results: list[dict[str, Any]] = []
    for name in args.scenario or DEFAULT_SCENARIOS:
        began = time.process_time()
        scenario = load_scenario(name)
        load_ms = 1e3 * (time.process_time() - began)
        for pairing in args.pairing or DEFAULT_PAIRINGS:
            blue, red = pairing.split("-", 1)
            began = time.process_time()
            play_one(scenario, blue, red, args.seed + 10_000)  # builds the map's shared caches
            warm_ms = 1e3 * (time.process_time() - began)
            row: dict[str, Any] = {"scenario": name, "blue": blue, "red": red}
            row.update(run_batch(scenario, blue, red, args.games, args.seed))
            row.update(load_ms=load_ms, first_game_ms=warm_ms)
            if args.profile:
                row["profile"] = profile_batch(scenario, blue, red, args.games, args.seed, args.top)
            results.append(row)

    report = {"target_games_per_s": TARGET_GAMES_PER_SECOND, "results": results}
    if args.json:
        print(json.dumps(report, indent=2))
        return report
    print(
        f"{'scenario':16s} {'blue-red':16s} {'games':>5s} {'ms/game':>9s} {'games/s':>8s} "
        f"{'dec/game':>8s} {'us/dec':>8s} {'dec/s':>8s} {'load ms':>8s} {'1st ms':>8s}"
    )
    for row in results:
        print(
            f"{row['scenario']:16s} {row['blue'] + '-' + row['red']:16s} {row['games']:5d} "
            f"{row['ms_per_game']:9.1f} {row['games_per_s']:8.1f} "
            f"{row['decisions'] / row['games']:8.1f} {row['us_per_decision']:8.0f} "
            f"{row['decisions_per_s']:8.0f} {row['load_ms']:8.1f} {row['first_game_ms']:8.1f}"
        )
    print("(CPU time on one core; load and first game untimed in the rates)")
    for row in results:
        if "profile" in row:
            print(f"\n--- {row['scenario']} {row['blue']}-{row['red']}: cProfile, cumulative")
            print(row["profile"])
    return report


if __name__ == "__main__":
    main()
