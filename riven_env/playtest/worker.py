"""What runs inside a worker process or Ray task: play a batch of games, summarise each.

Workers return JSON-ready dicts, never event logs (a log is far larger than its summary)
and never exception objects (some RivenError subclasses do not survive pickling): a
failed game comes back as ``{"game_index", "seed", "error", "bad_input"}`` and the batch
stops there.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from riven_env.errors import RivenError
from riven_env.playtest.config import DEFAULT_PLAYER, MOVED_PLAYERS, game_seed
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.summary import summarise_game
from riven_env.playtest.trajectory import trajectory_from_events

PlayGame = Callable[..., list[dict[str, Any]]]


def load_player(path: str) -> PlayGame:
    """Import the game function named ``module:function``.

    Raises:
        PlaytestError: The path is malformed, the module is missing or has no such function.
    """
    module_name, sep, attr = MOVED_PLAYERS.get(path, path).partition(":")
    if not sep or not module_name or not attr:
        raise PlaytestError(f"player {path!r} is not allowed; allowed: 'module:function'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PlaytestError(f"player {path!r}: cannot import {module_name!r} ({exc})") from exc
    function = getattr(module, attr, None)
    if not callable(function):
        raise PlaytestError(f"player {path!r}: {module_name!r} has no function {attr!r}")
    return function


def ignore_interrupts() -> None:
    """Pool initialiser: let only the main process handle Ctrl-C (it stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: How often (seconds) a worker's watchdog checks that the process that started it lives.
PARENT_POLL_S = 0.5
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent_pid: int) -> None:
    """Make this process end when ``parent_pid`` does, even after a ``kill -9`` of it.

    On Linux the kernel sends SIGKILL at the parent's death (``PR_SET_PDEATHSIG``); on every
    platform a daemon thread also polls the parent's pid and ends the process when it has
    changed (the worker was reparented), the fallback where prctl is missing.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - an unusual libc
            pass
    if os.getppid() != parent_pid:  # the parent died before the prctl took hold
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL_S)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="riven-parent-watchdog", daemon=True).start()


def init_worker(parent_pid: int) -> None:
    """Pool initialiser: ignore Ctrl-C (the main process stops the pool) and end with the parent."""
    ignore_interrupts()
    _die_with_parent(parent_pid)


def _engine_argument(spec: Mapping[str, Any]) -> dict[str, str]:
    engine = str(spec.get("engine", "python"))
    if engine != "python" or spec.get("player", DEFAULT_PLAYER) == DEFAULT_PLAYER:
        return {"engine": engine}
    return {}


def play_one(spec: Mapping[str, Any], game_index: int, player: PlayGame) -> dict[str, Any]:
    """Play and summarise game ``game_index`` of the run described by ``spec``."""
    seed = game_seed(int(spec["seed"]), game_index)
    started = time.perf_counter()
    events = player(
        spec["scenario"],
        spec["blue"],
        spec["red"],
        seed,
        overrides=spec.get("overrides") or None,
        max_decisions=spec.get("max_decisions"),
        # The bundled player is always told its engine (the process default may be another);
        # a custom player may not take engine=, so it is named there only when not python.
        **_engine_argument(spec),
    )
    summary = summarise_game(events)
    return {
        "game_index": game_index,
        "seed": seed,
        "duration_s": time.perf_counter() - started,
        "summary": summary.to_dict(),
        # Score and model-count checkpoints for the analytics (decisiveness, lead changes).
        "trajectory": trajectory_from_events(events),
    }


def play_batch(spec: Mapping[str, Any], indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play the games ``indices`` of a run; stop at the first failure and report it.

    Args:
        spec: :meth:`PlaytestConfig.game_spec` of the run.
        indices: Game indices to play, in order.

    Returns:
        One dict per finished game (``game_index``, ``seed``, ``duration_s``,
        ``summary``), then, if a game failed, one error dict (``game_index``, ``seed``,
        ``error``, ``bad_input``: true for a RivenError, i.e. bad scenario, agent or
        rules data rather than a crash).
    """
    results: list[dict[str, Any]] = []
    try:
        player = load_player(str(spec["player"]))
    except PlaytestError as exc:
        first = indices[0] if indices else 0
        seed = game_seed(int(spec["seed"]), first)
        return [{"game_index": first, "seed": seed, "error": str(exc), "bad_input": True}]
    for index in indices:
        try:
            results.append(play_one(spec, index, player))
        except RivenError as exc:
            seed = game_seed(int(spec["seed"]), index)
            results.append(
                {"game_index": index, "seed": seed, "error": str(exc), "bad_input": True}
            )
            break
        except Exception:  # a crash in the game code: report the traceback, keep the run
            seed = game_seed(int(spec["seed"]), index)
            detail = traceback.format_exc(limit=20)
            results.append({"game_index": index, "seed": seed, "error": detail, "bad_input": False})
            break
    return results
