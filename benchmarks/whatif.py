"""What would a faster stage buy? Time games and env steps as if chosen stages cost nothing.

Before rewriting a stage (in compiled code, say), measure the most it can give. This script
plays a fixed workload once recording what each stage returned, then replays it with some
stages answered from the recording at (almost) no cost, and reports the time per game or
per step of each combination: an upper bound on the gain of making those stages faster
(Amdahl's law, measured rather than estimated).

Stages:

- ``planning``: planning a move's path (``riven_env.game.actions._find_destination``);
- ``legal``: the list of legal decisions (``GameState._compute_legal``);
- ``oracle``: the Enemy Oracle's choice (``OracleAgent.act``, with its explanation);
- ``observation``: the Gymnasium observation (``ObservationEncoder.encode_flat``).

Workloads: oracle-vs-oracle games (the issue's games/s target), and the Gymnasium env
stepped with random legal actions against a random and against an Oracle opponent (the
``kaz_ratio`` workload of ``riven bench``).

Each pass starts from the same cache state: the map's shared geometry is dropped, then
warm-up games or steps on other seeds run untimed, then the timed workload. A replayed pass
must reproduce the recorded event log or trajectory byte for byte; the report says so
(``same``), or the row is not a valid measurement.

Usage::

    python benchmarks/whatif.py                         # all workloads, skirmish-5v5
    python benchmarks/whatif.py --workload games --games 60 --json
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib
import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

STAGES: dict[str, tuple[str, str | None, str]] = {
    "planning": ("riven_env.game.actions", None, "_find_destination"),
    "legal": ("riven_env.game.state", "GameState", "_compute_legal"),
    "oracle": ("riven_agents.oracle.engine", "OracleAgent", "act"),
    "observation": ("riven_env.encoding.observation", "ObservationEncoder", "encode_flat"),
}
COMBINATIONS: tuple[tuple[str, ...], ...] = (
    (),
    ("planning",),
    ("legal",),
    ("oracle",),
    ("observation",),
    ("planning", "legal"),
    ("planning", "legal", "oracle"),
    ("planning", "legal", "oracle", "observation"),
)
WORKLOADS = ("games", "env-random", "env-oracle")
_WARM_SEED = 10_000  # warm-up games and steps use seeds the timed workload never does


class _Tapes:
    """Records each stage's answers in call order, and plays them back for the stages asked."""

    def __init__(self) -> None:
        self.mode = "pass"  # "pass": call through; "record"; "replay"
        self.free: frozenset[str] = frozenset()
        self.answers: dict[str, list[tuple[Any, Any]]] = {name: [] for name in STAGES}
        self.position: dict[str, int] = dict.fromkeys(STAGES, 0)
        self._originals: list[tuple[Any, str, Any]] = []

    def install(self) -> None:
        """Wrap every stage (undone by :meth:`uninstall`)."""
        for name, (module_name, owner_name, attribute) in STAGES.items():
            module = importlib.import_module(module_name)
            owner = getattr(module, owner_name) if owner_name else module
            stage = getattr(owner, attribute)
            self._originals.append((owner, attribute, stage))
            setattr(owner, attribute, self._wrap(name, stage))

    def uninstall(self) -> None:
        """Put every stage back as it was."""
        while self._originals:
            owner, attribute, stage = self._originals.pop()
            setattr(owner, attribute, stage)

    def _wrap(self, name: str, stage: Callable[..., Any]) -> Callable[..., Any]:
        explains = name == "oracle"  # the runner logs the Oracle's explanation too

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if self.mode == "replay" and name in self.free:
                answer, explanation = self.answers[name][self.position[name]]
                self.position[name] += 1
                if explains:
                    args[0].last_explanation = explanation
                return answer
            answer = stage(*args, **kwargs)
            if self.mode == "record":
                explanation = args[0].last_explanation if explains else None
                self.answers[name].append((answer, explanation))
            return answer

        return wrapped

    def start(self, mode: str, free: Iterable[str] = ()) -> None:
        """Begin a pass: ``mode`` as in ``__init__``; ``free``: the stages replayed."""
        self.mode, self.free = mode, frozenset(free)
        self.position = dict.fromkeys(STAGES, 0)
        if mode == "record":
            self.answers = {name: [] for name in STAGES}


def _forget_shared_geometry() -> None:
    """Drop every map's derived geometry and caches, so each pass starts alike."""
    from riven_env.table import table

    table._SHARED.clear()


def _play_games(scenario_name: str, first_seed: int, games: int) -> list[Any]:
    """Oracle-vs-oracle games; their event logs."""
    from riven_agents.registry import make_agent

    from riven_env.engines import new_game
    from riven_env.game.runner import agent_seeds, play
    from riven_env.scenario import load_scenario

    scenario = load_scenario(scenario_name)
    logs = []
    for seed in range(first_seed, first_seed + games):
        state = new_game(scenario, seed)
        seeds = agent_seeds(seed)
        agents = {side: make_agent("oracle", side, seeds[side]) for side in ("blue", "red")}
        logs.append(play(state, agents))
    return logs


def _step_env(scenario_name: str, opponent: str, seed: int, steps: int) -> list[Any]:
    """Gymnasium env steps with random legal actions; the trajectory."""
    from riven_env.envs.gym_env import RivenSkirmishEnv

    env = RivenSkirmishEnv(scenario_name, opponent, learner_side="random", obs_mode="flat")
    rng = np.random.default_rng(seed)
    trajectory: list[Any] = []
    observation, info = env.reset(seed=seed)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        trajectory.append((observation.tobytes(), action, reward, terminated, truncated))
        if terminated or truncated:
            observation, info = env.reset()
    env.close()
    return trajectory


def _digest(record: list[Any]) -> str:
    """SHA-256 of a workload's event logs or trajectory (computed outside the timing)."""
    return hashlib.sha256(repr(record).encode()).hexdigest()


def measure(
    workload: str, scenario: str, games: int, steps: int, tapes: _Tapes, repeat: int = 3
) -> dict[str, Any]:
    """Time ``workload`` with each combination of free stages; see the module docstring."""
    if workload == "games":
        units, unit = games, "game"

        def run(seed: int, count: int) -> list[Any]:
            return _play_games(scenario, seed, count)

        warm_count = max(2, games // 10)
    else:
        opponent = workload.split("-", 1)[1]
        units, unit = steps, "step"

        def run(seed: int, count: int) -> list[Any]:
            return _step_env(scenario, opponent, seed, count)

        warm_count = max(100, steps // 10)

    def one_pass(mode: str, free: tuple[str, ...] = ()) -> tuple[float, str]:
        _forget_shared_geometry()
        tapes.start("pass")
        run(_WARM_SEED, warm_count)
        gc.collect()
        tapes.start(mode, free)
        began = time.process_time()
        record = run(0, units)
        seconds = time.process_time() - began
        tapes.start("pass")
        return seconds, _digest(record)

    _, recorded = one_pass("record")
    rows = []
    for free in COMBINATIONS:
        # The fastest of a few passes: the others were slowed by the machine, not the code.
        passes = [one_pass("replay", free) for _ in range(repeat)]
        seconds = min(s for s, _ in passes)
        digest = recorded if all(d == recorded for _, d in passes) else "differs"
        rows.append(
            {
                "free": list(free),
                f"us_per_{unit}": 1e6 * seconds / units,
                f"{unit}s_per_s": units / seconds if seconds > 0 else float("inf"),
                "same": digest == recorded,
            }
        )
    full = rows[0][f"us_per_{unit}"]
    for row in rows:
        row["speedup"] = full / row[f"us_per_{unit}"] if row[f"us_per_{unit}"] else float("inf")
    calls = {name: len(answers) / units for name, answers in tapes.answers.items()}
    return {
        "workload": workload,
        "unit": unit,
        "units": units,
        "calls_per_unit": calls,
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the what-if measurement; print a table (or JSON) and return the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="skirmish-5v5", help="bundled name or path")
    parser.add_argument("--workload", action="append", choices=WORKLOADS, help="default: all")
    parser.add_argument("--games", type=int, default=40, help="timed oracle games per pass")
    parser.add_argument("--steps", type=int, default=1500, help="timed env steps per pass")
    parser.add_argument("--repeat", type=int, default=3, help="passes per row (the fastest counts)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    tapes = _Tapes()
    tapes.install()
    try:
        results = [
            measure(workload, args.scenario, args.games, args.steps, tapes, args.repeat)
            for workload in args.workload or WORKLOADS
        ]
    finally:
        tapes.uninstall()
    report = {"scenario": args.scenario, "results": results}
    if args.json:
        print(json.dumps(report, indent=2))
        return report
    for result in results:
        unit = result["unit"]
        calls = ", ".join(f"{k} {v:.2f}" for k, v in result["calls_per_unit"].items() if v)
        print(f"\n{result['workload']} ({result['units']} {unit}s; calls per {unit}: {calls})")
        print(f"  {'free stages':36s} {'us/' + unit:>10s} {unit + 's/s':>10s} {'speedup':>8s} same")
        for row in result["rows"]:
            print(
                f"  {'+'.join(row['free']) or '(none: full cost)':36s} "
                f"{row[f'us_per_{unit}']:10.0f} {row[f'{unit}s_per_s']:10.0f} "
                f"{row['speedup']:7.2f}x {'yes' if row['same'] else 'NO'}"
            )
    print(
        f"\n(CPU time on one core, fastest of {args.repeat} passes, each from the same cache state)"
    )
    return report


if __name__ == "__main__":
    main()
