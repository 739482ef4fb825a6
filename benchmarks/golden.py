"""Golden fingerprints of seeded games and env rollouts: proof that a speed-up changed nothing.

A speed-up must leave every game byte for byte as it was. ``record`` plays a fixed set of
seeded games (every bundled mission; oracle, random, greedy and MCTS agents; a rules
variant) and seeded Gymnasium and PettingZoo rollouts, and writes the SHA-256 of each event
log or trajectory to a JSON file. ``check`` plays them again and lists every one that
differs. Run ``record`` on the commit before the change and ``check`` after it::

    python benchmarks/golden.py record /tmp/golden.json     # before
    python benchmarks/golden.py check /tmp/golden.json      # after: exit 1 on any difference
    python benchmarks/golden.py check /tmp/golden.json --quick   # a third of the games

This is a development tool, not a test: the fingerprints change, rightly, whenever a rule,
an agent or the scenario data change on purpose.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from riven_env.engines import play_game  # noqa: E402
from riven_env.game.events import dumps_event  # noqa: E402
from riven_env.scenario import list_bundled  # noqa: E402

_PAIRINGS = (  # (blue, red, seeds per mission)
    ("oracle", "oracle", 6),
    ("random", "random", 3),
    ("oracle", "random", 2),
    ("random", "oracle", 2),
)
_SLOW_PAIRINGS = (  # search agents copy the state: a few games on the small missions
    ("greedy", "oracle", 1, ("skirmish-5v5", "duel-1v1")),
    ("mcts:16", "random", 1, ("duel-1v1",)),
)
_VARIANTS = ({"turnover": "sbh"}, {"activation.max_dice": 2})
_ENV_CASES = (  # (scenario, opponent, obs_mode, steps)
    ("skirmish-5v5", "oracle", "flat", 400),
    ("skirmish-5v5", "random", "dict", 400),
    ("ruins", "oracle", "dict", 300),
    ("dungeon-crawl", "random", "flat", 300),
)


def _game_cases(quick: bool) -> Iterator[tuple[str, dict[str, Any]]]:
    step = 3 if quick else 1
    for info in list_bundled():
        for blue, red, seeds in _PAIRINGS:
            for seed in range(0, seeds, step):
                yield (
                    f"game {info.name} {blue}-{red} {seed}",
                    {"scenario": info.name, "blue": blue, "red": red, "seed": seed},
                )
    for blue, red, seeds, names in _SLOW_PAIRINGS:
        for name in names:
            for seed in range(seeds):
                yield (
                    f"game {name} {blue}-{red} {seed}",
                    {"scenario": name, "blue": blue, "red": red, "seed": seed},
                )
    for overrides in _VARIANTS:
        for seed in range(0, 4, step):
            label = ",".join(f"{k}={v}" for k, v in overrides.items())
            yield (
                f"game skirmish-5v5 oracle-oracle {seed} {label}",
                {
                    "scenario": "skirmish-5v5",
                    "blue": "oracle",
                    "red": "oracle",
                    "seed": seed,
                    "overrides": overrides,
                },
            )


def _game_digest(case: dict[str, Any]) -> str:
    events = play_game(
        case["scenario"], case["blue"], case["red"], case["seed"], overrides=case.get("overrides")
    )
    digest = hashlib.sha256()
    for event in events:
        digest.update(dumps_event(event).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def _update_with(digest: Any, value: Any) -> None:
    if isinstance(value, dict):
        for key in sorted(value):
            digest.update(str(key).encode())
            _update_with(digest, value[key])
    elif isinstance(value, np.ndarray):
        digest.update(str(value.dtype).encode() + str(value.shape).encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    else:
        digest.update(repr(value).encode())


def _env_digest(scenario: str, opponent: str, obs_mode: str, steps: int) -> str:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    env = RivenSkirmishEnv(scenario, opponent, learner_side="random", obs_mode=obs_mode)
    rng = np.random.default_rng(7)
    digest = hashlib.sha256()
    obs, info = env.reset(seed=11)
    _update_with(digest, obs)
    _update_with(digest, info["action_mask"])
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        for value in (obs, info["action_mask"], float(reward), terminated, truncated):
            _update_with(digest, value)
        if terminated or truncated:
            obs, info = env.reset()
            _update_with(digest, obs)
    env.close()
    return digest.hexdigest()


def _pz_digest(scenario: str, steps: int) -> str:
    from riven_env.envs.pz_env import env as make_pz_env

    pz = make_pz_env(scenario=scenario)
    pz.reset(seed=5)
    rng = np.random.default_rng(3)
    digest = hashlib.sha256()
    for _ in range(steps):
        agent = pz.agent_selection
        obs, reward, terminated, truncated, _ = pz.last()
        for value in (agent, obs, float(reward), terminated, truncated):
            _update_with(digest, value)
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        pz.step(action)
        if not pz.agents:
            pz.reset()
    pz.close()
    return digest.hexdigest()


def fingerprints(quick: bool = False, only: str | None = None) -> dict[str, str]:
    """Play every case and return ``{case label: SHA-256}`` (``only``: labels containing it)."""
    cases: list[tuple[str, Any]] = list(_game_cases(quick))
    cases += [
        (f"env {s} {o} {m} {n}", ("env", s, o, m, n))
        for s, o, m, n in _ENV_CASES[: 2 if quick else None]
    ]
    cases.append(("pettingzoo skirmish-5v5 600", ("pz", "skirmish-5v5", 600)))
    out: dict[str, str] = {}
    for label, case in cases:
        if only and only not in label:
            continue
        if isinstance(case, dict):
            out[label] = _game_digest(case)
        elif case[0] == "env":
            out[label] = _env_digest(*case[1:])
        else:
            out[label] = _pz_digest(*case[1:])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["record", "check"])
    parser.add_argument("path", type=Path)
    parser.add_argument("--quick", action="store_true", help="about a third of the cases")
    parser.add_argument("--only", help="only the cases whose label contains this text")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    found = fingerprints(args.quick, args.only)
    seconds = time.perf_counter() - start
    if args.mode == "record":
        args.path.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(found)} fingerprints to {args.path} in {seconds:.1f} s")
        return 0
    expected = json.loads(args.path.read_text())
    missing = [label for label in found if label not in expected]
    differ = [label for label in found if label in expected and expected[label] != found[label]]
    for label in differ:
        print(f"DIFFERS  {label}")
    for label in missing:
        print(f"MISSING  {label} (not in {args.path})")
    same = len(found) - len(differ) - len(missing)
    print(f"{same}/{len(found)} identical, {len(differ)} differ ({seconds:.1f} s)")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
