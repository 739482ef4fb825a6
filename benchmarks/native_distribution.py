"""Game-level agreement of the native core with the Python engine, per mission (not a test).

Plays the same seeds of every bundled mission (or ``--scenario``) on both engines, as
``riven playtest --engine python|native`` plays them (``game_seed(seed, i)``, the playtest
worker, the same agents), and reports for each mission:

* **identical games**: games whose outcome signature (winner, end reason, rounds, points,
  decisions, per side: Down, Out, fled, wounds dealt, shots and melees) is the same on both
  engines, and the first seeds that differ;
* **distributions** on each engine with 95% intervals: blue / red / draw shares (Wilson),
  mean rounds, casualties (Out plus fled) and flights per side (Student t), and the
  difference native minus python with its interval (Newcombe for the shares, Welch for the
  means). A mission *agrees* when every difference interval contains 0.

The issue asks 10,000 games per mission (the default). The Python engine is the slow half:
``--python-games M`` plays only the first M seeds on it (the native engine still plays all
of ``--games``), which keeps the game-by-game check on those M seeds and compares the
distributions of M Python games against the full native sample.

Usage::

    python benchmarks/native_distribution.py --workers 2                 # every mission, 10,000
    python benchmarks/native_distribution.py --scenario duel-1v1 --games 2000 --json
    python benchmarks/native_distribution.py --blue oracle --red oracle --python-games 1000
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_env.engines import EngineError, check_engine  # noqa: E402
from riven_env.native import available as native_available  # noqa: E402
from riven_env.playtest.backends import make_batches, run_local  # noqa: E402
from riven_env.playtest.config import DEFAULT_PLAYER  # noqa: E402
from riven_env.playtest.stats import (  # noqa: E402
    Interval,
    mean_interval,
    proportion_difference,
    wilson_interval,
)
from riven_env.scenario.loader import list_bundled  # noqa: E402

ENGINES = ("python", "native")
SIDES = ("blue", "red")
OUTCOMES = ("blue", "red", "draw")
MEASURES = ("rounds", "casualties_blue", "casualties_red", "flights_blue", "flights_red")
SIGNATURE_SIDE_FIELDS = ("down", "out", "fled", "wounds_dealt", "shots", "melees")
BATCH_GAMES = 50  # games per worker task: long enough to amortise the hand-off


def signature(summary: Mapping[str, Any]) -> tuple:
    """What two engines must agree on for one game (from its playtest summary)."""
    sides = summary["sides"]
    per_side = tuple(
        json.dumps({f: sides[s][f] for f in SIGNATURE_SIDE_FIELDS}, sort_keys=True) for s in SIDES
    )
    return (
        summary["winner"],
        summary["draw"],
        summary["reason"],
        summary["rounds"],
        json.dumps(summary["points"], sort_keys=True),
        summary["decisions"],
        *per_side,
    )


def measures(summary: Mapping[str, Any]) -> dict[str, float]:
    """The per-game quantities whose distributions are compared."""
    sides = summary["sides"]
    values: dict[str, float] = {"rounds": float(summary["rounds"])}
    for side in SIDES:
        values[f"casualties_{side}"] = float(sides[side]["out"] + sides[side]["fled"])
        values[f"flights_{side}"] = float(sides[side]["fled"])
    return values


def outcome(summary: Mapping[str, Any]) -> str:
    """``blue``, ``red`` or ``draw`` (an unfinished game counts as a draw: no winner)."""
    return summary["winner"] if summary["winner"] in SIDES else "draw"


def play(
    scenario: str, engine: str, games: int, *, blue: str, red: str, seed: int, workers: int
) -> dict[int, dict[str, Any]]:
    """Play games ``0 .. games-1`` of ``scenario`` on ``engine``; summaries by game index.

    Raises:
        RuntimeError: A game failed (the worker's message, with its seed).
    """
    spec = {
        "scenario": scenario,
        "blue": blue,
        "red": red,
        "seed": seed,
        "overrides": {},
        "max_decisions": None,
        "player": DEFAULT_PLAYER,
        **({"engine": engine} if engine != "python" else {}),
    }
    summaries: dict[int, dict[str, Any]] = {}
    batches = make_batches(list(range(games)), BATCH_GAMES)
    for batch in run_local(spec, batches, workers):
        for result in batch:
            if "error" in result:
                raise RuntimeError(
                    f"{scenario} on {engine}: game {result['game_index']} (seed "
                    f"{result['seed']}) failed: {result['error']}"
                )
            summaries[int(result["game_index"])] = result["summary"]
    return summaries


def welch_difference(a: Sequence[float], b: Sequence[float]) -> Interval:
    """``mean(a) - mean(b)`` with a Welch 95% interval (normal quantile: n is large)."""
    ma, mb = mean_interval(a), mean_interval(b)
    if ma.n < 2 or mb.n < 2:
        return Interval(math.nan, math.nan, math.nan, ma.n + mb.n)
    # Half-widths of the t intervals back to standard errors, then combined.
    za = (ma.high - ma.value) / 1.96
    zb = (mb.high - mb.value) / 1.96
    half = 1.96 * math.sqrt(za * za + zb * zb)
    d = ma.value - mb.value
    return Interval(d, d - half, d + half, ma.n + mb.n)


def compare(
    python: Mapping[int, Mapping[str, Any]], native: Mapping[int, Mapping[str, Any]]
) -> dict[str, Any]:
    """Game-by-game and distribution agreement of two engines' summaries."""
    common = sorted(set(python) & set(native))
    differing = [i for i in common if signature(python[i]) != signature(native[i])]
    report: dict[str, Any] = {
        "games": {"python": len(python), "native": len(native), "compared": len(common)},
        "identical": len(common) - len(differing),
        "differing_games": differing[:10],
        "shares": {},
        "means": {},
    }
    agree = True
    for name in OUTCOMES:
        counts = {
            engine: sum(1 for s in games.values() if outcome(s) == name)
            for engine, games in (("python", python), ("native", native))
        }
        diff = proportion_difference(counts["native"], len(native), counts["python"], len(python))
        report["shares"][name] = {
            "python": wilson_interval(counts["python"], len(python)).to_dict(),
            "native": wilson_interval(counts["native"], len(native)).to_dict(),
            "difference": diff.to_dict(),
        }
        agree = agree and not diff.excludes(0.0)
    for name in MEASURES:
        values = {
            engine: [measures(s)[name] for s in games.values()]
            for engine, games in (("python", python), ("native", native))
        }
        diff = welch_difference(values["native"], values["python"])
        report["means"][name] = {
            "python": mean_interval(values["python"]).to_dict(),
            "native": mean_interval(values["native"]).to_dict(),
            "difference": diff.to_dict(),
        }
        # Identical samples give a zero-width interval at 0: that agrees.
        agree = agree and (math.isnan(diff.value) or not diff.excludes(0.0))
    report["distributions_agree"] = agree
    return report


def _row(name: str, report: Mapping[str, Any]) -> str:
    games = report["games"]
    shares = report["shares"]
    blue = shares["blue"]
    rounds = report["means"]["rounds"]
    return (
        f"{name:20s} {games['python']:>6} {games['native']:>6} "
        f"{report['identical']:>6}/{games['compared']:<6} "
        f"blue {100 * blue['python']['value']:5.1f}/{100 * blue['native']['value']:5.1f}% "
        f"draw {100 * shares['draw']['python']['value']:4.1f}/"
        f"{100 * shares['draw']['native']['value']:4.1f}% "
        f"rounds {rounds['python']['value']:.2f}/{rounds['native']['value']:.2f} "
        f"{'agree' if report['distributions_agree'] else 'DIFFER'}"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the check; print a table (or JSON) and return the figures per mission."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", action="append", help="mission (repeatable; default all)")
    parser.add_argument("--games", type=int, default=10_000, help="games per mission")
    parser.add_argument(
        "--python-games", type=int, default=None, help="games on the Python engine (<= --games)"
    )
    parser.add_argument("--blue", default="random", help="agent spec for blue")
    parser.add_argument("--red", default="random", help="agent spec for red")
    parser.add_argument("--seed", type=int, default=0, help="run seed (game_seed(seed, i))")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games {args.games}: allowed: 1 or more")
    python_games = args.games if args.python_games is None else args.python_games
    if not 1 <= python_games <= args.games:
        parser.error(f"--python-games {python_games}: allowed: 1 .. --games ({args.games})")
    if not native_available():
        parser.error("the native core is not built (pip install -e . builds it)")
    names = args.scenario or [info.name for info in list_bundled()]
    results: dict[str, Any] = {}
    if not args.json:
        print(f"{'mission':20s} {'py':>6} {'nat':>6} {'same':>13}  python/native")
    for name in names:
        try:
            check_engine(name, "native")
        except EngineError as error:  # another resolution system: the Python engine only
            results[name] = {"skipped": str(error)}
            if not args.json:
                print(f"{name:20s} skipped: {error}")
            continue
        started = time.perf_counter()
        native = play(
            name, "native", args.games, blue=args.blue, red=args.red,
            seed=args.seed, workers=args.workers,
        )  # fmt: skip
        native_s = time.perf_counter() - started
        python = play(
            name, "python", python_games, blue=args.blue, red=args.red,
            seed=args.seed, workers=args.workers,
        )  # fmt: skip
        report = compare(python, native)
        report["wall_s"] = {"native": native_s, "python": time.perf_counter() - started - native_s}
        results[name] = report
        if not args.json:
            print(_row(name, report), flush=True)
    summary = {
        "agents": {"blue": args.blue, "red": args.red},
        "seed": args.seed,
        "missions": results,
    }
    if args.json:
        print(json.dumps(summary, indent=1))
    return summary


if __name__ == "__main__":
    main()
