"""Benchmark of the native Enemy Oracle against the Python one on the same states (not a test).

Setup: the decision points of seeded oracle-vs-oracle games on a bundled mission (default
skirmish-5v5), each with its legal decisions. Reports Oracle decisions per second (CPU time,
best of ``--repeat``) for:

* ``python``: ``OracleAgent.act`` on fresh copies of the states (per-state caches cold, as
  in a game; the per-map sight and route caches warm after a first pass, as in a long run
  that meets the same positions again);
* ``python_cold_sight``: the same with the per-map sight memo emptied before each pass (as a
  game meeting new positions finds it);
* ``native_core``: the core's ``oracle_decide`` on states and decisions already native (as the
  native game loop will hand them), with the explanation worded in Python;
* ``native_agent``: ``NativeOracleAgent.act`` on Python states: the seam included (``to_native``,
  the legal decisions converted), as ``native-oracle`` runs inside the Python engine today.

The ratios are each native figure over the Python one. Routing (the charge targets of a model
that is not the active one, planned destination points) still goes through Python callbacks in
both native figures.

Usage::

    python benchmarks/bench_native_oracle.py            # prints a table
    python benchmarks/bench_native_oracle.py --json     # machine-readable
    python benchmarks/bench_native_oracle.py --mission duel-1v1 --games 4 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_agents.oracle import OracleAgent  # noqa: E402
from riven_agents.oracle.native import NativeOracleAgent, destination_points, explain  # noqa: E402

from riven_env.engines import new_game  # noqa: E402
from riven_env.game.runner import agent_seeds, play  # noqa: E402
from riven_env.native.encoding import native_decision  # noqa: E402
from riven_env.native.game import native_static, to_native  # noqa: E402
from riven_env.native.random import native_stream  # noqa: E402
from riven_env.native.rules import native_rules  # noqa: E402
from riven_env.native.table import native_table  # noqa: E402
from riven_env.table import charge_targets  # noqa: E402


def _best(run: Callable[[], object], repeat: int) -> float:
    """Best-of-``repeat`` CPU seconds of ``run()`` (this process's CPU time, one thread)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def _points(mission: str, games: int) -> list[tuple[Any, list, str]]:
    """``(state, legal, side)`` at every decision point of ``games`` seeded oracle games."""
    from riven_agents.registry import make_agent

    points: list[tuple[Any, list, str]] = []
    for seed in range(games):
        state = new_game(mission, seed)
        seeds = agent_seeds(seed)
        agents = {s: make_agent("oracle", s, seeds[s]) for s in ("blue", "red")}

        def record(s: Any) -> None:
            if not s.over:
                points.append((s.copy(), list(s.legal_decisions()), s.current_side))

        record(state)
        play(state, agents, on_decision=record)
    return points


def run(mission: str, games: int, repeat: int) -> dict[str, Any]:
    """The benchmark's figures (decisions per second and ratios)."""
    points = _points(mission, games)
    n = len(points)
    sides = ("blue", "red")
    python_agents = {s: OracleAgent("oracle", s, 0) for s in sides}
    native_agents = {s: NativeOracleAgent("native-oracle", s, 0) for s in sides}

    def python_pass() -> None:
        for state, legal, side in fresh:
            python_agents[side].act(state, legal)

    def agent_pass() -> None:
        for state, legal, side in fresh:
            native_agents[side].act(state, legal)

    # Native inputs prepared once: the states and decisions as the native loop will hold them.
    first = points[0][0]
    static = native_static(first)
    table = native_table(first.table)
    for radius in first.bases.radii.tolist():
        table.ensure_radius(radius)
    rules = native_rules(first.rules)
    games_by_side = {s: native_agents[s].native_game(first) for s in sides}
    prepared = [
        (s, legal, side, to_native(s), [native_decision(d, static) for d in legal])
        for s, legal, side in points
    ]
    stream = native_stream(native_agents["blue"].rng)
    core = native_agents["blue"].native

    def core_pass() -> None:
        for state, legal, side, ns, nlegal in prepared:
            game = games_by_side[side]
            found = core.oracle_decide(
                game.core,
                ns,
                table.core,
                rules,
                nlegal,
                stream,
                lambda i, reach, near, state=state: charge_targets(
                    state.table, state.bases, i, reach, near
                ),
                lambda i, allowance, state=state: destination_points(state, static, i, allowance),
            )
            if found[0] != 9:  # not "unsupported"
                explain(game, state, legal, found)

    timings = {}
    fresh = [(s.copy(), legal, side) for s, legal, side in points]
    python_pass()  # warm the per-map caches once, as a long run has them
    best = float("inf")
    for _ in range(repeat):
        fresh = [(s.copy(), legal, side) for s, legal, side in points]
        best = min(best, _best(python_pass, 1))
    timings["python"] = best
    best = float("inf")
    for _ in range(repeat):
        fresh = [(s.copy(), legal, side) for s, legal, side in points]
        first.table._sight_lines.clear()  # the per-map sight memo, as a new position finds it
        best = min(best, _best(python_pass, 1))
    timings["python_cold_sight"] = best
    best = float("inf")
    for _ in range(repeat):
        fresh = [(s.copy(), legal, side) for s, legal, side in points]
        best = min(best, _best(agent_pass, 1))
    timings["native_agent"] = best
    timings["native_core"] = _best(core_pass, repeat)
    rates = {k: n / v for k, v in timings.items()}
    return {
        "mission": mission,
        "games": games,
        "decisions": n,
        "decisions_per_s": rates,
        "ratio": {
            "native_core_vs_python": rates["native_core"] / rates["python"],
            "native_core_vs_python_cold_sight": rates["native_core"] / rates["python_cold_sight"],
            "native_agent_vs_python": rates["native_agent"] / rates["python"],
        },
    }


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a table (or ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mission", default="skirmish-5v5")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.mission, args.games, args.repeat)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{result['mission']}: {result['decisions']} Oracle decisions ({result['games']} games)")
    for name, rate in result["decisions_per_s"].items():
        print(f"  {name:<17} {rate:>10,.0f} decisions/s")
    for name, ratio in result["ratio"].items():
        print(f"  {name:<34} {ratio:.1f}x")


if __name__ == "__main__":
    main()
