"""Benchmark of the game loop, Python engine against the native core (not a timed test).

Full random-vs-random games on the same seeds, four ways:

- ``python``: the Python engine (``new_game(..., engine="python")``) played by the runner with
  the Python random agents;
- ``native``: the native loop (``engine="native"``, a ``NativeGameState`` whose routes the
  core plans: ``planner="native"``) played by the same runner and agents: the same games,
  decision for decision (the equivalence suite proves it);
- ``core``: the native loop alone (``riven_env._native.play_random``, the GIL released):
  random legal decisions drawn in C++ from their own stream, no Python per step (other games
  than the two above, as the chooser's stream differs; the same number of games on the same
  starting positions);
- ``core_python_planner``: the ``core`` games again with the Python engine's planner behind the
  seam (``planner="python"``, the diagnosis option), with the share of its time spent in those
  route callbacks.

Each column starts with the map's remembered routes forgotten (the Python router keeps them by
layout, and the native column replays the Python column's games). Set-up (``new_game``) is not
timed. CPU time (the machine may be shared), best of ``--repeat``.

Usage::

    python benchmarks/bench_native_loop.py                 # prints a table
    python benchmarks/bench_native_loop.py --json          # machine-readable
    python benchmarks/bench_native_loop.py --games 20 --repeat 3 --missions duel-1v1
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

from riven_agents.registry import make_agent  # noqa: E402

from riven_env.engines import new_game  # noqa: E402
from riven_env.game.runner import agent_seeds, play  # noqa: E402
from riven_env.native import load  # noqa: E402
from riven_env.native import loop as native_loop  # noqa: E402
from riven_env.native.random import native_stream  # noqa: E402
from riven_env.table.navigation import static_nav  # noqa: E402

DEFAULT_MISSIONS = ("duel-1v1", "skirmish-5v5")
MAX_STEPS = 100_000  # a guard for the core's own loop; real games end far earlier


class _TimedPlanner:
    """The Python planner, with the CPU time its callbacks take."""

    def __init__(self, table: Any) -> None:
        self.inner = native_loop.PythonPlanner(table)
        self.seconds = 0.0

    def _timed(self, name: str, *args: Any) -> Any:
        start = time.process_time()
        try:
            return getattr(self.inner, name)(*args)
        finally:
            self.seconds += time.process_time() - start

    def plan_destination(self, *args: Any) -> Any:
        return self._timed("plan_destination", *args)

    def plan_charge(self, *args: Any) -> Any:
        return self._timed("plan_charge", *args)

    def charge_targets(self, *args: Any) -> Any:
        return self._timed("charge_targets", *args)

    def plan_push(self, *args: Any) -> Any:
        return self._timed("plan_push", *args)

    def plan_flight(self, *args: Any) -> Any:
        return self._timed("plan_flight", *args)


def _cold_routes(mission: str) -> None:
    """Forget the routes remembered for ``mission``'s map (its navigators, per base size).

    The Python router keeps navigators by layout content, so a column replaying the games of
    the previous one would find every route planned already; each column starts cold.
    """
    state = new_game(mission, 0)
    for radius in set(state.bases.radii.tolist()):
        static_nav(state.table, radius).navigators.clear()


def _runner(mission: str, seeds: range, engine: str) -> tuple[float, int]:
    """CPU seconds and decisions of random-vs-random games played by the runner."""
    spent, steps = 0.0, 0
    for seed in seeds:
        state = new_game(mission, seed, engine=engine)
        agent_seed = agent_seeds(seed)
        agents = {s: make_agent("random", s, agent_seed[s]) for s in ("blue", "red")}
        counted = [0]

        def count(_: Any, counted: list[int] = counted) -> None:
            counted[0] += 1

        start = time.process_time()
        play(state, agents, on_decision=count)
        spent += time.process_time() - start
        steps += counted[0]
    return spent, steps


def _core(mission: str, seeds: range, planner: str) -> tuple[float, int, float]:
    """CPU seconds, decisions and Python route-callback seconds of the core's own random games."""
    native = load()
    spent, steps, model, timed = 0.0, 0, None, None
    for seed in seeds:
        state = new_game(mission, seed, engine="native")
        if model is None:  # set-up, not timed
            like = state.python_state()
            if planner == "python":
                timed = _TimedPlanner(like.table)
                model = native_loop.forward_model(like, timed)
            else:
                model = native_loop.forward_model(like, planner)
        chooser = native_stream(np.random.default_rng([seed, 0xC0DE]))
        start = time.process_time()
        done, _ = native.play_random(model, state.native, chooser, MAX_STEPS)
        spent += time.process_time() - start
        steps += done
    return spent, steps, 0.0 if timed is None else timed.seconds


def run(missions: tuple[str, ...], games: int, repeat: int) -> dict[str, Any]:
    """Best-of-``repeat`` figures per mission."""
    out: dict[str, Any] = {"games": games, "repeat": repeat, "missions": {}}
    seeds = range(games)
    for mission in missions:
        best: dict[str, tuple[float, int]] = {}
        planner_share = 0.0
        for _ in range(repeat):
            for engine in ("python", "native"):
                _cold_routes(mission)
                found = _runner(mission, seeds, engine)
                if engine not in best or found[0] < best[engine][0]:
                    best[engine] = found
            for column, planner in (("core", "native"), ("core_python_planner", "python")):
                _cold_routes(mission)
                seconds, steps, callbacks = _core(mission, seeds, planner)
                if column not in best or seconds < best[column][0]:
                    best[column] = (seconds, steps)
                    if planner == "python":
                        planner_share = callbacks / seconds if seconds else 0.0
        row: dict[str, Any] = {}
        for name, (seconds, steps) in best.items():
            row[name] = {
                "cpu_seconds": seconds,
                "steps": steps,
                "games_per_s": games / seconds if seconds else float("inf"),
                "steps_per_s": steps / seconds if seconds else float("inf"),
            }
        row["speedup_native_games"] = row["native"]["games_per_s"] / row["python"]["games_per_s"]
        row["speedup_core_games"] = row["core"]["games_per_s"] / row["python"]["games_per_s"]
        row["speedup_core_steps"] = row["core"]["steps_per_s"] / row["python"]["steps_per_s"]
        row["speedup_native_planner"] = (
            row["core"]["steps_per_s"] / row["core_python_planner"]["steps_per_s"]
        )
        row["python_planner_share"] = planner_share
        out["missions"][mission] = row
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per mission and engine")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--missions", nargs="+", default=list(DEFAULT_MISSIONS))
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    result = run(tuple(args.missions), args.games, args.repeat)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"random vs random, {args.games} games per mission, CPU time, best of {args.repeat}")
    print(f"{'mission':<16}{'engine':<22}{'games/s':>10}{'steps/s':>12}{'steps':>8}")
    for mission, row in result["missions"].items():
        for engine in ("python", "native", "core", "core_python_planner"):
            r = row[engine]
            print(
                f"{mission:<16}{engine:<22}{r['games_per_s']:>10.1f}{r['steps_per_s']:>12.0f}"
                f"{r['steps']:>8}"
            )
        print(
            f"{'':<16}native/python games {row['speedup_native_games']:.2f}x, "
            f"core/python games {row['speedup_core_games']:.1f}x, "
            f"steps {row['speedup_core_steps']:.1f}x; native planner over the Python one "
            f"{row['speedup_native_planner']:.1f}x (Python route callbacks "
            f"{100 * row['python_planner_share']:.0f}% of that column)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
