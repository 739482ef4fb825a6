"""Benchmark of the native game state and observation encoder against the Python ones (not a test).

Setup: the states after every decision of one seeded oracle-vs-oracle game of a bundled
mission (default skirmish-5v5), each encoded for both sides. Reports, per observation, the
Python encoder (``ObservationEncoder.encode_flat``, its caches warm as in an environment), the
native encoder on native states (one call per state, and one batched ``encode_into`` call for
all of them with the GIL released), and the seam cost of encoding a Python state natively
(export + sight queries + encode); the action mask both ways (the native one with the conversion of Python decisions, and
on native decisions alone, as the native game loop will hand them); per state copy, Python's
``GameState.copy`` against the native copy (called from Python, and in a C++ loop); and the
memory a copy costs (Python: traced allocations per ``copy()``; native: the bytes the state owns,
its static part shared by every copy).

Usage::

    python benchmarks/bench_native_encoding.py            # prints a table
    python benchmarks/bench_native_encoding.py --json     # machine-readable
    python benchmarks/bench_native_encoding.py --mission duel-1v1 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_env.encoding import ActionCatalogue, ObservationEncoder  # noqa: E402
from riven_env.engines import new_game  # noqa: E402
from riven_env.game.runner import agent_seeds, play  # noqa: E402
from riven_env.native.encoding import NativeCatalogue, NativeEncoder, native_decision  # noqa: E402
from riven_env.native.game import to_native  # noqa: E402

SIDES = ("blue", "red")


def _best(run: Callable[[], object], repeat: int) -> float:
    """Best-of-``repeat`` CPU seconds of ``run()``.

    CPU time of this process, not wall time: on a loaded shared machine wall time also counts
    waiting for a core, and everything timed here runs on one thread.
    """
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def _states(mission: str, seed: int) -> list:
    from riven_agents.registry import make_agent

    state = new_game(mission, seed)
    seeds = agent_seeds(seed)
    agents = {side: make_agent("oracle", side, seeds[side]) for side in SIDES}
    states = [state.copy()]
    play(state, agents, on_decision=lambda s: states.append(s.copy()))
    return states


def measure(mission: str, seed: int, repeat: int) -> dict[str, float]:
    """Every figure of the benchmark (microseconds, bytes, ratios)."""
    states = _states(mission, seed)
    live = [s for s in states if not s.is_terminal]
    python = ObservationEncoder(states[0])
    native = NativeEncoder(python)
    natives = [to_native(s) for s in states]
    sight = np.stack([native.sight_codes(s, n) for s, n in zip(states, natives, strict=True)])
    core = native.native(states[0])
    observations = 2 * len(states)
    out = np.empty((len(states), python.flat_size), dtype=np.float32)
    side_ids = [k % 2 for k in range(len(states))]

    def python_encode() -> None:
        for s in states:
            for side in SIDES:
                python.encode_flat(s, side)

    def native_encode() -> None:
        for n, codes in zip(natives, sight, strict=True):
            core.encode(n, 0, codes)
            core.encode(n, 1, codes)

    def native_batch() -> None:
        core.encode_into(natives, side_ids, sight, out)
        core.encode_into(natives, [1 - k for k in side_ids], sight, out)

    def seam_encode() -> None:
        for s in states:
            for side in SIDES:
                native.encode_flat(s, side)

    catalogue = ActionCatalogue(states[0])
    native_catalogue = NativeCatalogue(catalogue, states[0])

    def python_mask() -> None:
        for s in live:
            catalogue.mask(s)

    def native_mask() -> None:
        for s in live:
            native_catalogue.mask(s)

    # The native game loop will hand native decisions over: the mask alone, on converted lists.
    converted = [
        ([native_decision(d, native_catalogue.static) for d in s.legal_decisions()],
         SIDES.index(s.current_side))
        for s in live
    ]  # fmt: skip
    core_catalogue = native_catalogue.native

    def native_mask_only() -> None:
        for legal, side in converted:
            core_catalogue.mask(legal, side)

    copies = 20

    def python_copy() -> None:
        for s in states:
            for _ in range(copies):
                s.copy()

    def native_copy() -> None:
        for n in natives:
            for _ in range(copies):
                n.copy()

    def native_copy_loop() -> None:
        for n in natives:
            n.copy_many(copies)

    per_obs = 1e6 / observations
    per_copy = 1e6 / (copies * len(states))
    figures = {
        "states": float(len(states)),
        "python_encode_us": _best(python_encode, repeat) * per_obs,
        "native_encode_us": _best(native_encode, repeat) * per_obs,
        "native_batched_encode_us": _best(native_batch, repeat) * per_obs,
        "seam_encode_python_state_us": _best(seam_encode, repeat) * per_obs,
        "python_mask_us": _best(python_mask, repeat) * 1e6 / len(live),
        "native_mask_with_conversion_us": _best(native_mask, repeat) * 1e6 / len(live),
        "native_mask_on_native_decisions_us": _best(native_mask_only, repeat) * 1e6 / len(live),
        "python_copy_us": _best(python_copy, repeat) * per_copy,
        "native_copy_from_python_us": _best(native_copy, repeat) * per_copy,
        "native_copy_in_cpp_us": _best(native_copy_loop, repeat) * per_copy,
    }
    figures["speedup_encode"] = figures["python_encode_us"] / figures["native_encode_us"]
    figures["speedup_batched_encode"] = (
        figures["python_encode_us"] / figures["native_batched_encode_us"]
    )
    figures["speedup_copy_in_cpp"] = figures["python_copy_us"] / figures["native_copy_in_cpp_us"]

    middle = states[len(states) // 2]
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [middle.copy() for _ in range(200)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    figures["python_bytes_per_copy"] = grown / len(kept)
    figures["native_bytes_per_copy"] = float(to_native(middle).owned_bytes())
    figures["memory_ratio"] = figures["python_bytes_per_copy"] / figures["native_bytes_per_copy"]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mission", default="skirmish-5v5")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.mission, args.seed, args.repeat)
    if args.json:
        print(json.dumps({"mission": args.mission, "seed": args.seed, **figures}, indent=2))
        return 0
    print(f"{args.mission}, seed {args.seed}: {int(figures['states'])} states, both sides")
    for key, value in figures.items():
        if key != "states":
            print(f"  {key:34s} {value:12.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
