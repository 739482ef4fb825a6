"""Whole games on both engines, log for log: every resolution system, every bundled mission.

The equivalence suite (``tests/test_native_*``) plays a fixed set of games in lockstep; this
tool plays as many more as asked, each once on the Python engine and once on the core
(``play_game(..., engine=...)``: the same seed, the same agents), and compares the two event
logs as JSON Lines, byte for byte::

    python benchmarks/native_log_check.py                         # 5 seeds, 3 pairings, 4 systems
    python benchmarks/native_log_check.py --seeds 40-59 --systems riddle-of-steel

It prints one line per system (games, events, mismatches, the first mismatching games with the
index of their first differing event) and exits 1 on any mismatch. A development tool, not a
test: its cost grows with the seeds asked.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_env.engines import play_game  # noqa: E402
from riven_env.game.events import dumps_event  # noqa: E402
from riven_env.native.rules import NATIVE_SYSTEMS  # noqa: E402
from riven_env.scenario import list_bundled  # noqa: E402

PAIRINGS = (("oracle", "oracle"), ("random", "oracle"), ("random", "random"))


def seed_range(text: str) -> range:
    """``"40-44"`` (both ends included) or ``"7"``."""
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def log_lines(mission: str, blue: str, red: str, seed: int, system: str, engine: str) -> list[str]:
    """The game's event log as JSON Lines on ``engine``."""
    overrides = None if system == "riven" else {"resolution": system}
    events = play_game(mission, blue, red, seed, overrides=overrides, engine=engine)
    return [dumps_event(event) for event in events]


def check_system(system: str, missions: list[str], seeds: range) -> tuple[int, int, list[str]]:
    """Games, events and the mismatches (``mission blue/red seed at event K``) of ``system``."""
    games = events = 0
    mismatches: list[str] = []
    for mission in missions:
        for seed in seeds:
            for blue, red in PAIRINGS:
                python = log_lines(mission, blue, red, seed, system, "python")
                native = log_lines(mission, blue, red, seed, system, "native")
                games += 1
                events += len(python)
                if python != native:
                    at = next(
                        (k for k, (a, b) in enumerate(zip(python, native, strict=False)) if a != b),
                        min(len(python), len(native)),
                    )
                    mismatches.append(f"{mission} {blue}/{red} seed {seed} at event {at}")
    return games, events, mismatches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", nargs="+", default=list(NATIVE_SYSTEMS))
    parser.add_argument("--seeds", type=seed_range, default=seed_range("40-44"))
    parser.add_argument("--missions", nargs="+", default=[info.name for info in list_bundled()])
    args = parser.parse_args(argv)
    failed = False
    for system in args.systems:
        started = time.perf_counter()
        games, events, mismatches = check_system(system, args.missions, args.seeds)
        failed = failed or bool(mismatches)
        print(
            f"{system}: {games} games, {events} events, {len(mismatches)} mismatches "
            f"({time.perf_counter() - started:.0f} s)"
        )
        for line in mismatches[:10]:
            print(f"  {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
