"""A FAKE game for fault tests: the worker process playing it dies, as an out-of-memory kill does.

It plays :mod:`playtest_fake_game`, after reading (and removing) its own rule overrides:

* ``kill_index``: index of the game whose worker kills itself with SIGKILL (run seed
  :data:`KILL_RUN_SEED`); absent: no game does.
* ``kill_times``: how many times that game kills its worker in all (then it plays
  normally); counted with marker files in ``kill_dir``, so the count survives the deaths.
* ``kill_dir``: folder of the marker files.
* ``delay_s``: seconds every game sleeps first (time for a test to kill a worker itself).

Never play it in the test process itself (``workers=1``): the kill would end the test run.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from playtest_fake_game import play_game as play_fake_game

from riven_env.playtest.config import game_seed

# The run seed of the fault tests (``_config`` in test_playtest_faults.py).
KILL_RUN_SEED = 5
OWN_KEYS = ("kill_index", "kill_times", "kill_dir", "delay_s")


def deaths(kill_dir: str | Path) -> int:
    """How many times a game has killed its worker so far."""
    return len(list(Path(kill_dir).glob("death-*")))


def play_game(
    scenario: str,
    blue: str,
    red: str,
    seed: int,
    *,
    overrides: Mapping[str, object] | None = None,
    max_decisions: int | None = None,
) -> list[dict[str, Any]]:
    """Play the fake game; kill this process first when the overrides say so."""
    own = dict(overrides or {})
    rest = {k: v for k, v in own.items() if k not in OWN_KEYS}
    time.sleep(float(own.get("delay_s", 0.0)))
    if "kill_index" in own and seed == game_seed(KILL_RUN_SEED, int(own["kill_index"])):
        kill_dir = Path(str(own["kill_dir"]))
        done = deaths(kill_dir)
        if done < int(own["kill_times"]):
            (kill_dir / f"death-{done}-{os.getpid()}").touch()
            os.kill(os.getpid(), signal.SIGKILL)
    return play_fake_game(scenario, blue, red, seed, overrides=rest, max_decisions=max_decisions)
