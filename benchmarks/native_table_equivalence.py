"""Agreement of the native tabletop queries with the Python reference, at scale (not a test).

Asks at least ``--queries`` (default 100,000) random queries of each kind the core answers
(sight, cover, contact, straight flight, recoil, destination options, and the routing kinds:
route, plan_destination, charge, flight_around; see ``tests/native_table_cases.py``) on
every bundled map and ``--generated`` (default 50) maps from the scenario generator, spread
evenly, and prints how many agreed (discrete answers identical, lengths within 1e-9), the
largest length difference seen and the first disagreements. The default suite runs the same
check at about 2,500 queries per kind, about 250 per routing kind (``tests/test_native_table.py``).
A routing query plans routes on both engines (a ``plan_destination`` query plans every option
of a menu): expect tens of milliseconds each; ``--kinds`` picks some. ``--rounds R`` asks each
map's queries in R rounds over every map (round r on map k seeded ``seed + k + r * ROUND_SEED``;
round 0 is the one-round run's stream), and ``--seconds S`` starts no round after S seconds (the
first always runs), so a run cut short still covers every map evenly and says exactly how many
it asked.

Usage::

    python benchmarks/native_table_equivalence.py                  # 100,000 per kind
    python benchmarks/native_table_equivalence.py --queries 5000 --json
    python benchmarks/native_table_equivalence.py --kinds route --rounds 20 --seconds 3000
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# The query cases live with the tests (tests/native_table_cases.py): test code, not product.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from native_table_cases import (  # noqa: E402
    KINDS,
    Agreement,
    check_map,
    equivalence_maps,
)

ROUND_SEED = 10_007
"""Seed step between rounds on the same map (larger than any map count, so no two (map, round)
pairs share a query seed)."""


def main(argv: list[str] | None = None) -> dict[str, dict[str, object]]:
    """Run the check; print a table (or JSON) and return the figures per kind."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--queries", type=int, default=100_000, help="queries of each kind, at least"
    )
    parser.add_argument(
        "--generated", type=int, default=50, help="generated maps besides the bundled"
    )
    parser.add_argument("--seed", type=int, default=0, help="first generator seed and query seed")
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help=f"comma-separated, of {list(KINDS)}"
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="ask each map's queries in this many rounds"
    )
    parser.add_argument(
        "--seconds", type=float, default=math.inf, help="start no round after this many seconds"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds {args.rounds}: expected a whole number >= 1")
    kinds = [k for k in args.kinds.split(",") if k]
    maps = equivalence_maps(args.generated, args.seed)
    per_map = math.ceil(args.queries / len(maps))
    per_round = math.ceil(per_map / args.rounds)
    totals = {kind: Agreement(kind) for kind in kinds}
    began = time.perf_counter()
    rounds = 0
    for r in range(args.rounds):
        if r and time.perf_counter() - began > args.seconds:  # the first round always runs
            break
        rounds += 1
        for k, (_, table) in enumerate(maps):
            seed = args.seed + k + r * ROUND_SEED
            for kind, tally in check_map(table, seed, per_round, kinds).items():
                totals[kind].merge(tally)
            # Progress on stderr (the figures so far), so a long run shows where it is.
            done = ", ".join(f"{kind} {t.agreed}/{t.queries}" for kind, t in totals.items())
            print(
                f"round {r + 1}/{args.rounds}, map {k + 1}/{len(maps)}: {done}",
                file=sys.stderr,
                flush=True,
            )
    figures = {
        kind: {
            "queries": t.queries,
            "agreed": t.agreed,
            "agreement": t.agreed / t.queries if t.queries else math.nan,
            "max_length_error": t.max_length_error,
            "examples": t.examples,
        }
        for kind, t in totals.items()
    }
    wall = time.perf_counter() - began
    if args.json:
        print(
            json.dumps(
                {"maps": len(maps), "rounds": rounds, "seconds": wall, "kinds": figures}, indent=2
            )
        )
    else:
        print(
            f"{len(maps)} maps ({args.generated} generated), {rounds} round(s) of {per_round} "
            f"queries per map and kind, {wall:.0f} s"
        )
        print(
            f"{'kind':16s} {'queries':>9s} {'agreed':>9s} {'agreement':>10s} {'max length error':>17s}"
        )
        for kind, f in figures.items():
            print(
                f"{kind:16s} {f['queries']:9d} {f['agreed']:9d} {f['agreement']:10.6f} "
                f"{f['max_length_error']:17.3g}"
            )
            for example in f["examples"]:
                print(f"    {example}")
    return figures


if __name__ == "__main__":
    main()
