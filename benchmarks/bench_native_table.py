"""Micro-benchmark: the tabletop queries on the Python engine and on the native core.

On the ``skirmish-5v5`` table with 10 models on 1" bases (the deployment, then random legal
layouts), each query kind is timed on the Python reference (``riven_env.table``, with its
per-layout and per-map memories emptied before every call, so it computes the answer as a
fresh position needs) and on the core through ``riven_env.native.table`` (the Python wrapper
included), plus the bare binding call where the wrapper adds work. Reports microseconds per
query and the ratio python / native. Not a timed test.

The routing kinds (a move to a point, a charge path, ``charge_targets``, ``plan_destination``
of an option of the menu, the ``around`` flight) empty the Python engine's routing memories
too (the layout's navigator, the map's cached links, terrain routes, wraps and cuts), as a
fresh position needs; ``--warm-routes`` keeps the per-map ones (links of points seen before,
terrain routes by content), as a long game or playtest enjoys them.

Usage::

    python benchmarks/bench_native_table.py            # prints a table
    python benchmarks/bench_native_table.py --json
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
# The query cases live with the tests (tests/native_table_cases.py): test code, not product.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from native_table_cases import _layout  # noqa: E402

from riven_env.engines import new_game  # noqa: E402
from riven_env.native import table as native  # noqa: E402
from riven_env.table import (  # noqa: E402
    Bases,
    charge_targets,
    contacts,
    cover_for_shot,
    destination_options,
    engagements,
    line_of_sight,
    plan_charge,
    plan_flight,
    plan_move,
    plan_push,
    sight,
    sight_between,
)
from riven_env.table.destinations import plan_destination  # noqa: E402
from riven_env.table.navigation import static_nav  # noqa: E402


def _per_call(run: Callable[[int], object], calls: int, repeat: int) -> float:
    """Best-of-``repeat`` mean CPU microseconds per call (CPU time: the machine is shared)."""
    best = float("inf")
    for _ in range(repeat):
        began = time.process_time()
        for k in range(calls):
            run(k)
        best = min(best, (time.process_time() - began) / calls)
    return best * 1e6


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    """Run the benchmark; print a table (or JSON) and return the figures per query kind."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="skirmish-5v5")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--queries", type=int, default=2000, help="calls per timing run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--warm-routes",
        action="store_true",
        help="keep the Python engine's per-map routing memories between calls",
    )
    parser.add_argument(
        "--only", default="", help="comma-separated query names to time (default: all)"
    )
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    game = new_game(args.scenario, args.seed)
    table = game.table
    layouts: list[Bases] = [game.bases.copy()]
    while len(layouts) < 50:
        found = _layout(table, rng, len(game.bases))
        if len(found) == len(game.bases):
            found.radii[:] = game.bases.radii  # the scenario's own base sizes
            layouts.append(found)
    n = len(game.bases)
    nat = native.native_table(table)
    for radius in set(game.bases.radii.tolist()):
        nat.ensure_radius(radius)
    core = nat.core
    queries = []
    for _ in range(args.queries):
        bases = layouts[int(rng.integers(len(layouts)))]
        s, t = (int(k) for k in rng.choice(n, 2, replace=False))
        queries.append((bases, s, t, float(rng.uniform(1.0, 12.0)), float(rng.uniform(0.5, 4.0))))

    def shot(k: int) -> tuple[float, float, float, float, float, float]:
        bases, s, t, _, _ = queries[k]
        (sx, sy), (tx, ty) = bases.centers[s].tolist(), bases.centers[t].tolist()
        return sx, sy, float(bases.radii[s]), tx, ty, float(bases.radii[t])

    shots = [shot(k) for k in range(args.queries)]

    def py_sight(k: int) -> object:
        table._sight_lines.clear()  # a fresh pair of positions, as after a move
        return sight_between(table, *shots[k])

    def py_matrix(k: int) -> object:
        bases = queries[k][0]
        table._sight_lines.clear()
        return [sight(table, bases, s, t) for s in range(n) for t in range(n)]

    def py_contacts(k: int) -> object:
        bases, s, _, _, _ = queries[k]
        bases._layout = None  # a fresh layout: nothing remembered
        return contacts(bases, s)

    def py_engagements(k: int) -> object:
        bases = queries[k][0]
        bases._layout = None
        return engagements(bases)

    def los(engine: Callable[..., object], k: int) -> object:
        sx, sy, sr, tx, ty, tr = shots[k]
        return engine((sx, sy), (tx, ty), a_radius=sr, b_radius=tr)

    def cover(engine: Callable[..., object], k: int) -> object:
        sx, sy, sr, tx, ty, tr = shots[k]
        return engine((sx, sy), sr, (tx, ty), tr)

    def flight(k: int, python: bool) -> object:
        bases, s, _, distance, _ = queries[k]
        return (
            plan_flight(table, bases, s, distance)
            if python
            else nat.plan_flight(bases, s, distance)
        )

    def recoil(k: int, python: bool) -> object:
        bases, s, t, _, distance = queries[k]
        away = bases.center(t)
        return (
            plan_push(table, bases, s, away, distance)
            if python
            else nat.plan_push(bases, s, away, distance)
        )

    objectives = [(18.0, 18.0), (9.0, 27.0)]

    halves = (np.arange(n // 2, dtype=np.int64), np.arange(n // 2, n, dtype=np.int64))
    goals = np.array(objectives, dtype=np.float64)
    menu_arrays = {True: (halves[1], halves[0], goals), False: (halves[0], halves[1], goals)}

    def menu(k: int, python: bool) -> object:
        bases, s, _, _, _ = queries[k]
        enemies, friends = (
            (range(n // 2, n), range(n // 2)) if s < n // 2 else (range(n // 2), range(n // 2, n))
        )
        if python:
            return destination_options(
                table, bases, s, enemies=enemies, friends=friends, objectives=objectives
            )
        return nat.destination_options(
            bases, s, enemies=enemies, friends=friends, objectives=objectives
        )

    def arrays(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        bases = queries[k][0]
        return bases.centers, bases.radii, bases.on_table

    lib = native.load()
    tol = 0.02
    kinds: dict[
        str, tuple[Callable[[int], object], Callable[[int], object], Callable[[int], object] | None]
    ] = {
        "sight (LOS + cover)": (
            py_sight,
            lambda k: nat.sight_between(*shots[k]),
            lambda k: core.sight_between(*shots[k]),
        ),
        "line of sight": (
            lambda k: los(lambda a, b, **r: line_of_sight(table, a, b, **r), k),
            lambda k: los(nat.line_of_sight, k),
            lambda k: core.line_of_sight(*shots[k]),
        ),
        "cover for shot": (
            lambda k: cover(lambda *a: cover_for_shot(table, *a), k),
            lambda k: cover(nat.cover_for_shot, k),
            lambda k: core.cover_for_shot(*shots[k]),
        ),
        "contacts": (
            py_contacts,
            lambda k: native.contacts(queries[k][0], queries[k][1]),
            lambda k: lib.contacts(*arrays(k), queries[k][1], tol),
        ),
        "engagements": (
            py_engagements,
            lambda k: native.engagements(queries[k][0]),
            lambda k: lib.engagements(*arrays(k), tol),
        ),
        "sight, all pairs (N x N)": (
            py_matrix,
            lambda k: nat.sight_matrix(queries[k][0]),
            None,
        ),
        "destination options": (
            lambda k: menu(k, True),
            lambda k: menu(k, False),
            lambda k: core.destination_options(
                *arrays(k), queries[k][1], *menu_arrays[queries[k][1] < n // 2]
            ),
        ),
        "flight end (straight)": (lambda k: flight(k, True), lambda k: flight(k, False), None),
        "recoil end": (lambda k: recoil(k, True), lambda k: recoil(k, False), None),
    }
    navs = [static_nav(table, r) for r in set(game.bases.radii.tolist())]
    for radius in set(game.bases.radii.tolist()):
        nat.ensure_nav(radius)

    def fresh(bases: Bases) -> Bases:
        """Forget what the Python engine remembers of this layout (and of the map's routes)."""
        bases._layout = None
        for nav in navs:
            nav.navigators.clear()
            if not args.warm_routes:
                for memory in (nav.ends, nav.routes, nav.wraps, nav.cuts):
                    memory.clear()
        return bases

    move_goals = [
        (float(rng.uniform(0, table.width)), float(rng.uniform(0, table.height))) for _ in queries
    ]

    def move(k: int, python: bool) -> object:
        bases, s, _, allowance, _ = queries[k]
        if python:
            return plan_move(table, fresh(bases), s, move_goals[k], allowance)
        return nat.plan_move(bases, s, move_goals[k], allowance)

    def charge(k: int, python: bool) -> object:
        bases, s, t, reach, _ = queries[k]
        if python:
            return plan_charge(table, fresh(bases), s, t, reach)
        return nat.plan_charge(bases, s, t, reach)

    def targets(k: int, python: bool) -> object:
        bases, s, _, reach, _ = queries[k]
        enemies = range(n // 2, n) if s < n // 2 else range(n // 2)
        if python:
            return charge_targets(table, fresh(bases), s, reach, enemies)
        return nat.charge_targets(bases, s, reach, list(enemies))

    options = []
    for bases, s, _, _, _ in queries:
        enemies, friends = (
            (range(n // 2, n), range(n // 2)) if s < n // 2 else (range(n // 2), range(n // 2, n))
        )
        found = destination_options(
            table, bases, s, enemies=enemies, friends=friends, objectives=objectives
        )
        options.append(found[int(rng.integers(len(found)))] if found else ("away", 0))

    def destination(k: int, python: bool) -> object:
        bases, s, _, allowance, _ = queries[k]
        kind, ref = options[k]
        if python:
            return plan_destination(
                table, fresh(bases), s, allowance, kind, ref, objectives=objectives
            )
        return nat.plan_destination(bases, s, allowance, kind, ref, objectives=objectives)

    def around(k: int, python: bool) -> object:
        bases, s, _, distance, _ = queries[k]
        if python:
            return plan_flight(table, fresh(bases), s, distance, around=True)
        return nat.plan_flight(bases, s, distance, around=True)

    for name, query in (
        ("move to a point", move),
        ("charge path", charge),
        ("charge targets", targets),
        ("plan_destination", destination),
        ("flight end (around)", around),
    ):
        kinds[name] = (
            lambda k, q=query: q(k, True),
            lambda k, q=query: q(k, False),
            None,
        )
    only = [name for name in args.only.split(",") if name]
    figures: dict[str, dict[str, float]] = {}
    for name, (python, wrapped, bare) in kinds.items():
        if only and name not in only:
            continue
        py_us = _per_call(python, args.queries, args.repeat)
        nat_us = _per_call(wrapped, args.queries, args.repeat)
        row = {"python_us": py_us, "native_us": nat_us, "ratio": py_us / nat_us}
        if bare is not None:
            row["binding_us"] = _per_call(bare, args.queries, args.repeat)
        figures[name] = row
    if args.json:
        print(json.dumps({"scenario": args.scenario, "models": n, "kinds": figures}, indent=2))
    else:
        print(
            f"{args.scenario}: {n} models, {len(layouts)} layouts, {args.queries} queries per run, CPU us/query"
        )
        print(f"{'query':24s} {'python':>9s} {'native':>9s} {'binding':>9s} {'ratio':>7s}")
        for name, row in figures.items():
            bare_us = f"{row['binding_us']:9.2f}" if "binding_us" in row else f"{'':9s}"
            print(
                f"{name:24s} {row['python_us']:9.2f} {row['native_us']:9.2f} {bare_us} {row['ratio']:7.1f}"
            )
    return figures


if __name__ == "__main__":
    main()
