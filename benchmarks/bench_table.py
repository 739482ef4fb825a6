"""Benchmark of the tabletop queries (not a timed test).

Setup: a seeded 36" x 36" table with 12 terrain pieces and 10 models (1" bases; five a
side). Reports the mean cost per query of line of sight + cover, path planning (a typical
6" move and an unlimited cross-table path, both to random legal points), a charge check,
and the full candidate-destination menu for one model; plus the one-off build costs.
Queries repeat the same few model positions and goals, as a game does, so the route-end
cache (``[cache] route_cache_entries``) mostly hits; the "cold caches" rows empty it
before every query (the cost of a query from a spot never seen before). Answers remembered
per base layout (``Bases.layout()``: charge reach, planned paths) and per map (sight lines)
are forgotten before every query unless the row says "remembered": those rows time the
repeat of a question already answered, as the game, the agents and the encoder ask it.

Usage::

    python benchmarks/bench_table.py            # prints a table
    python benchmarks/bench_table.py --json     # machine-readable
    python benchmarks/bench_table.py --seed 3 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_env.table import (  # noqa: E402
    Table,
    candidate_destinations,
    charge_targets,
    line_of_sight,
    plan_move,
    sight,
    static_nav,
)
from riven_env.table.sampling import random_bases, random_terrain_spec  # noqa: E402

TARGETS_US = {
    "sight (LOS + cover)": 30.0,
    'path, 6" move': 500.0,
    "path, unlimited": 500.0,
    'path, 6" move, cold caches': 500.0,
}


def _time_per_call(run: Callable[[], object], calls: int, repeat: int) -> tuple[float, float]:
    """Best-of-``repeat`` mean (wall, CPU) seconds per call (the best run is the least disturbed).

    CPU time is reported too: on a loaded machine wall time also counts waiting for a core.
    """
    walls, cpus = [], []
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            run()
        walls.append((time.perf_counter() - began) / calls)
        cpus.append((time.process_time() - began_cpu) / calls)
    return min(walls), min(cpus)


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Run the benchmark; print a table (or JSON) and return microseconds per query."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--queries", type=int, default=200, help="distinct queries per kind")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)

    spec = random_terrain_spec(rng, pieces=12)
    began = time.perf_counter()
    table = Table.from_spec(spec)
    build_table = time.perf_counter() - began
    began = time.perf_counter()
    nav = static_nav(table, 0.5)
    build_nav = time.perf_counter() - began
    bases = random_bases(table, rng, 10, 1.0)
    blue, red = list(range(5)), list(range(5, 10))
    sight(table, bases, 0, 5)  # first use builds the per-radius cover grid

    pairs = [(int(a), int(b)) for a, b in rng.integers(0, 10, size=(args.queries, 2)) if a != b]
    goals = []
    while len(goals) < args.queries:
        point = rng.uniform(0.5, 35.5, size=2)
        if nav.legal(point[None, :])[0]:
            goals.append((float(point[0]), float(point[1])))
    movers = rng.integers(0, 10, size=args.queries)
    objectives = [(18.0, 18.0), (9.0, 27.0)]

    def cycle(items: list) -> Callable[[], object]:
        state = {"k": 0}

        def next_item() -> object:
            state["k"] = (state["k"] + 1) % len(items)
            return items[state["k"]]

        return next_item

    next_pair, next_goal, next_mover = cycle(pairs), cycle(goals), cycle(list(movers))

    def forget_layout() -> None:
        bases._layout = None  # the next query builds a fresh Layout: nothing remembered

    def one_sight(cold: bool = True) -> object:
        if cold:
            table._sight_lines.clear()
        a, b = next_pair()
        return sight(table, bases, a, b)

    def one_los() -> object:
        a, b = next_pair()
        return line_of_sight(table, bases.centers[a], bases.centers[b])

    def path(allowance: float, cold: bool = False) -> Callable[[], object]:
        def run() -> object:
            if cold:  # forget every cached route end: the first query from a new spot
                nav.ends.clear()
            forget_layout()
            return plan_move(table, bases, int(next_mover()), next_goal(), allowance)

        return run

    def one_charge(remembered: bool = False) -> object:
        if not remembered:
            forget_layout()
        i = int(next_mover())
        return charge_targets(table, bases, i, 8.0, red if i < 5 else blue)

    def one_menu(cold: bool = False) -> object:
        if cold:
            nav.ends.clear()
        i = int(next_mover())
        enemies, friends = (red, blue) if i < 5 else (blue, red)
        return candidate_destinations(
            table, bases, i, 6.0, enemies=enemies, friends=friends, objectives=objectives
        )

    n = args.queries
    results = {
        "sight (LOS + cover)": _time_per_call(one_sight, n, args.repeat),
        "sight, remembered": _time_per_call(lambda: one_sight(cold=False), n, args.repeat),
        "line of sight only": _time_per_call(one_los, n, args.repeat),
        'path, 6" move': _time_per_call(path(6.0), n, args.repeat),
        "path, unlimited": _time_per_call(path(100.0), n, args.repeat),
        'path, 6" move, cold caches': _time_per_call(path(6.0, cold=True), n, args.repeat),
        'charge targets (8")': _time_per_call(one_charge, n // 4, args.repeat),
        'charge targets (8"), remembered': _time_per_call(
            lambda: one_charge(remembered=True), n // 4, args.repeat
        ),
        "candidate destinations": _time_per_call(one_menu, n // 4, args.repeat),
        "candidate destinations, cold caches": _time_per_call(
            lambda: one_menu(cold=True), n // 4, args.repeat
        ),
    }
    micro = {name: wall * 1e6 for name, (wall, _cpu) in results.items()}
    cpu = {name: used * 1e6 for name, (_wall, used) in results.items()}
    micro["build: table (once per map)"] = build_table * 1e6
    micro["build: nav graph (once per map and radius)"] = build_nav * 1e6
    extra = {"waypoints": len(nav.nodes), "graph edges": len(nav.edges)}
    if args.json:
        report = {"us_per_query": micro, "cpu_us_per_query": cpu, "targets_us": TARGETS_US}
        print(json.dumps({**report, **extra}, indent=2))
    else:
        print(f'36" table, 12 pieces, 10 models, seed {args.seed}; {extra}')
        print(f"{'query':45s} {'wall us':>10s} {'CPU us':>10s} {'target':>8s}")
        for name, value in micro.items():
            target = TARGETS_US.get(name)
            shown = f"{target:8.0f}" if target else f"{'':8s}"
            used = f"{cpu[name]:10.1f}" if name in cpu else f"{'':10s}"
            print(f"{name:45s} {value:10.1f} {used} {shown}")
    return micro


if __name__ == "__main__":
    main()
