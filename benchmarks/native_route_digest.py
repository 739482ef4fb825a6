"""A digest of the native core's routing answers, to compare two builds bit for bit (not a test).

The equivalence suite compares the core with the Python engine within 1e-9; a change of the
core's routing that must not change any answer (a faster search, a cache) is checked more
strictly by this script: it asks the same seeded random routing queries as
``tests/native_table_cases.py`` (routes to a point and into contact, plan_move,
plan_destination of every option, plan_charge and charge_targets, flight around bases,
candidate_destinations) on the bundled maps and ``--generated`` generated ones, on the core
only, and prints the SHA-256 of every answer written with its floats in hex (and, with
``--out``, the answers themselves, one line each, to diff). Run it with the old module, then with
the new one: the digests must be equal.

Usage::

    python benchmarks/native_route_digest.py                     # 200 queries per kind and map
    python benchmarks/native_route_digest.py --queries 50 --generated 4 --out /tmp/new.txt
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# The query cases live with the tests (tests/native_table_cases.py): test code, not product.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from native_table_cases import (  # noqa: E402
    _allowance,
    _crowd,
    _crowded_lane,
    _layout,
    _legal_bases,
    _menu_sides,
    _mover_in_crowd,
    _Points,
    equivalence_maps,
)

from riven_env.native import table as native  # noqa: E402
from riven_env.table import Table  # noqa: E402


def _hex(value: Any) -> str:
    """``value`` written exactly: floats in hex, containers element by element."""
    if isinstance(value, float | np.floating):
        return float(value).hex()
    if isinstance(value, bool | np.bool_ | int | np.integer | str) or value is None:
        return repr(value.item() if isinstance(value, np.generic) else value)
    if isinstance(value, np.ndarray):
        return _hex(value.tolist())
    if isinstance(value, list | tuple):
        return "(" + ",".join(_hex(v) for v in value) + ")"
    if hasattr(value, "__dataclass_fields__"):
        return _hex([getattr(value, name) for name in value.__dataclass_fields__])
    if hasattr(value, "_asdict"):
        return _hex(list(value._asdict().values()))
    return _hex(list(vars(value).values()))


def _queries(table: Table, seed: int, count: int) -> list[str]:
    """``count`` queries of each routing kind on ``table``, answered by the core."""
    nat = native.native_table(table)
    rng = np.random.default_rng(seed)
    pts = _Points(table, rng)
    lines: list[str] = []
    for _ in range(count):
        # Routes to a point (the raw aim: the core's route takes any goal) and into contact.
        bases = _legal_bases(table, _crowd(table, rng))
        live = [int(j) for j in np.flatnonzero(bases.on_table)]
        if live:
            i = live[int(rng.integers(len(live)))]
            allowance = _allowance(rng)
            others = [j for j in live if j != i]
            if others and rng.random() < 0.5:
                j = others[int(rng.integers(len(others)))]
                lines.append("route " + _hex(nat.route(bases, i, allowance, target=j)))
            else:
                goal = pts.point()
                lines.append("route " + _hex(nat.route(bases, i, allowance, goal=goal)))
                lines.append("move " + _hex(nat.plan_move(bases, i, goal, allowance)))
        drawn = _mover_in_crowd(table, rng)
        if drawn is not None:
            bases, i, sides = drawn
            enemies, friends, objectives = _menu_sides(sides, i, pts)
            allowance = _allowance(rng) or 6.0
            gap = None if rng.random() < 0.6 else float(rng.choice([0.0, 0.5, 1.0]))
            options = nat.destination_options(
                bases, i, enemies=enemies, friends=friends, objectives=objectives
            )
            for kind, ref in options:
                found = nat.plan_destination(
                    bases, i, allowance, kind, ref, objectives=objectives, enemy_gap=gap
                )
                lines.append("destination " + _hex(found))
            menu = nat.candidate_destinations(
                bases,
                i,
                allowance,
                enemies=enemies,
                friends=friends,
                objectives=objectives,
                enemy_gap=gap,
            )
            lines.append("candidates " + _hex(list(menu)))
            reach = float(rng.uniform(1.0, 14.0))
            for j in enemies:
                if bases.on_table[j] and j != i:
                    lines.append("charge " + _hex(nat.plan_charge(bases, i, j, reach)))
            lines.append("targets " + _hex(nat.charge_targets(bases, i, reach, enemies)))
        bases = _legal_bases(
            table, _crowd(table, rng) if rng.random() < 0.5 else _layout(table, rng)
        )
        live = [int(j) for j in np.flatnonzero(bases.on_table)]
        if live:
            i = live[int(rng.integers(len(live)))]
            _crowded_lane(bases, rng, i, table)
            distance = float(rng.uniform(1.0, 12.0))
            lines.append("flight " + _hex(nat.plan_flight(bases, i, distance, around=True)))
    return lines


def main(argv: list[str] | None = None) -> str:
    """Print (and return) the digest of the answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200, help="queries of each kind per map")
    parser.add_argument("--generated", type=int, default=8, help="generated maps besides bundled")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write the answers here, one per line")
    args = parser.parse_args(argv)
    lines: list[str] = []
    for k, (name, table) in enumerate(equivalence_maps(args.generated, args.seed)):
        lines.extend(f"{name} {line}" for line in _queries(table, args.seed + k, args.queries))
    text = "\n".join(lines) + "\n"
    if args.out is not None:
        args.out.write_text(text)
    digest = hashlib.sha256(text.encode()).hexdigest()
    print(f"{len(lines)} answers, sha256 {digest}")
    return digest


if __name__ == "__main__":
    main()
