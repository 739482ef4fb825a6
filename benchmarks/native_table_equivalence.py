"""Agreement of the native tabletop queries with the Python reference, at scale (not a test).

Asks at least ``--queries`` (default 100,000) random queries of each kind the core answers
(sight, cover, contact, straight flight, recoil, destination options, and the routing kinds:
route, plan_destination, charge, flight_around; see ``riven_env/native/table_check.py``) on
every bundled map and ``--generated`` (default 50) maps from the scenario generator, spread
evenly, and prints how many agreed (discrete answers identical, lengths within 1e-9), the
largest length difference seen and the first disagreements. The default suite runs the same
check at about 2,500 queries per kind, about 250 per routing kind (``tests/test_native_table.py``).
A routing query plans routes on both engines (a ``plan_destination`` query plans every option
of a menu): expect tens of milliseconds each; ``--kinds`` picks some.

Usage::

    python benchmarks/native_table_equivalence.py                  # 100,000 per kind
    python benchmarks/native_table_equivalence.py --queries 5000 --json
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

from riven_env.native.table_check import (  # noqa: E402
    KINDS,
    Agreement,
    check_map,
    equivalence_maps,
)


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
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    maps = equivalence_maps(args.generated, args.seed)
    per_map = math.ceil(args.queries / len(maps))
    totals = {kind: Agreement(kind) for kind in kinds}
    began = time.perf_counter()
    for k, (_, table) in enumerate(maps):
        for kind, tally in check_map(table, args.seed + k, per_map, kinds).items():
            totals[kind].merge(tally)
        # Progress on stderr (the figures so far), so a long run shows where it is.
        done = ", ".join(f"{kind} {t.agreed}/{t.queries}" for kind, t in totals.items())
        print(f"map {k + 1}/{len(maps)}: {done}", file=sys.stderr, flush=True)
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
        print(json.dumps({"maps": len(maps), "seconds": wall, "kinds": figures}, indent=2))
    else:
        print(
            f"{len(maps)} maps ({args.generated} generated), {per_map} queries per map and kind, {wall:.0f} s"
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
