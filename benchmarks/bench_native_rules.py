"""Benchmark of the rules engine, Python against the native core, per call (not a timed test).

Four calls the game makes all the time, each on the bundled rules with a seeded stream:

- ``activation``: ``roll_activation(4, 3)``;
- ``2d6 test``: ``roll_test`` of a Rally (Resolve 2 vs TN 8, one modifier), then ``finalise``;
- ``melee exchange``: ``resolve_melee`` (Might 3 vs 2, a charge bonus, a Condition);
- ``shot``: ``effective_cover`` (a hunkered target, a piercing weapon), ``shot_modifiers``,
  ``shot_tn``, ``roll_test``, ``finalise`` and ``shot_result``.

Three columns per call: the Python engine on a numpy Generator; the native functions of
``riven_env.native.rules`` on a core ``Pcg64`` (the drop-in path: same arguments, the same
Python records back, so it pays for building them); and the core alone (the same work in a C++
loop, as the native game loop will call it, no Python record per call). The ratios are Python
over each native column.

Usage::

    python benchmarks/bench_native_rules.py            # prints a table
    python benchmarks/bench_native_rules.py --json     # machine-readable
    python benchmarks/bench_native_rules.py --calls 20000 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import riven_env.native.rules as N  # noqa: E402
import riven_env.rules as P  # noqa: E402
from riven_env.native import load  # noqa: E402
from riven_env.native.random import native_stream  # noqa: E402
from riven_env.rules import Modifier, load_rules  # noqa: E402
from riven_env.rules.profiles import Weapon  # noqa: E402


def _best_per_call(run: Callable[[], object], calls: int, repeat: int) -> float:
    """Best-of-``repeat`` mean CPU seconds per call (CPU time: the machine may be shared)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, (time.process_time() - start) / calls)
    return best


def _cases(rules: Any, seed: int) -> dict[str, dict[str, Callable[[int], object]]]:
    """Per case: the three ways of making ``n`` calls."""
    native, config = load(), N.native_rules(rules)
    gen = np.random.default_rng(seed)
    stream = native_stream(np.random.default_rng(seed))
    core = native_stream(np.random.default_rng(seed))
    mods = [Modifier("helper", 1)]
    charge = [Modifier("charge", 2)]
    dazed = P.melee_modifiers(
        weapon=None,
        charge_strike=False,
        enemies_in_contact=1,
        conditions=("dazed",),
        defending=True,
        rules=rules,
    )
    rifle = Weapon("rifle", "ranged", 24.0, 0, frozenset({"piercing"}))
    target, shooter = ("hunkered",), ("aiming",)

    def python_shot(rng: Any) -> object:
        cover = P.effective_cover("soft", target, rifle, rules)
        shot_mods = P.shot_modifiers(weapon=rifle, shooter_conditions=shooter, rules=rules)
        roll = P.roll_test("shot", "agility", 3, P.shot_tn(cover, rules), shot_mods, rng, rules)
        return P.shot_result(P.finalise(roll), cover, rules)

    def native_shot(rng: Any) -> object:
        cover = N.effective_cover("soft", target, rifle, rules)
        shot_mods = N.shot_modifiers(weapon=rifle, shooter_conditions=shooter, rules=rules)
        roll = N.roll_test("shot", "agility", 3, N.shot_tn(cover, rules), shot_mods, rng, rules)
        return N.shot_result(N.finalise(roll), cover, rules)

    pairs = [(m.source, m.value) for m in mods]
    native_rifle = N.native_weapon(rifle)
    return {
        "activation": {
            "python": lambda n: [P.roll_activation(4, 3, gen, rules) for _ in range(n)],
            "native": lambda n: [N.roll_activation(4, 3, stream, rules) for _ in range(n)],
            "core": lambda n: native.bench_activation(4, 3, core, config, n),
        },
        "2d6 test": {
            "python": lambda n: [
                P.finalise(P.roll_test("rally", "resolve", 2, 8, mods, gen, rules))
                for _ in range(n)
            ],
            "native": lambda n: [
                N.finalise(N.roll_test("rally", "resolve", 2, 8, mods, stream, rules))
                for _ in range(n)
            ],
            "core": lambda n: native.bench_test(2, 8, pairs, core, config, n),
        },
        "melee exchange": {
            "python": lambda n: [
                P.resolve_melee(3, 2, charge, dazed, gen, rules) for _ in range(n)
            ],
            "native": lambda n: [
                N.resolve_melee(3, 2, charge, dazed, stream, rules) for _ in range(n)
            ],
            "core": lambda n: native.bench_melee(
                3,
                2,
                [(m.source, m.value) for m in charge],
                [(m.source, m.value) for m in dazed],
                core,
                config,
                n,
            ),
        },
        "shot": {
            "python": lambda n: [python_shot(gen) for _ in range(n)],
            "native": lambda n: [native_shot(stream) for _ in range(n)],
            "core": lambda n: native.bench_shot(
                3, "soft", list(target), list(shooter), native_rifle, core, config, n
            ),
        },
    }


def run(calls: int, repeat: int, seed: int) -> dict[str, Any]:
    """Microseconds per call for each case and column, and the ratios python / native."""
    rules = load_rules()
    results: dict[str, Any] = {}
    for name, ways in _cases(rules, seed).items():
        row: dict[str, float] = {}
        for column, make in ways.items():
            make(100)  # warm caches (the rules lookups, the native struct)
            row[f"{column}_us"] = _best_per_call(lambda m=make: m(calls), calls, repeat) * 1e6
        row["speedup_native"] = row["python_us"] / row["native_us"]
        row["speedup_core"] = row["python_us"] / row["core_us"]
        results[name] = row
    return {"calls": calls, "repeat": repeat, "seed": seed, "cases": results}


def main(argv: list[str] | None = None) -> int:
    """Print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000, help="calls per timed run")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (the best counts)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    report = run(args.calls, args.repeat, args.seed)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"{'call':<16}{'python us':>11}{'native us':>11}{'core us':>10}{'x native':>10}{'x core':>9}"
    )
    for name, row in report["cases"].items():
        print(
            f"{name:<16}{row['python_us']:>11.2f}{row['native_us']:>11.2f}{row['core_us']:>10.3f}"
            f"{row['speedup_native']:>10.1f}{row['speedup_core']:>9.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
