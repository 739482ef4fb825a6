"""A native env or game shared between threads fails as a Python error, never a crash (issue 39.1).

The core's objects are not thread-safe and a batch's step lets the GIL go: four threads stepping
one ``riven/Skirmish-v0`` env once died with SIGSEGV inside ``_native_step``. Every native call
of an env or game now holds the object's guard (riven_env/native/guard.py): a second thread gets
``RuntimeError``. The environment's ``reset`` and ``step`` hold a guard of their own on both engines (the
Python engine's geometry, shapely's GEOS, crashed under four threads too). The stress runs in a
subprocess, so that a crash fails the test instead of killing pytest, on both engines.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable

import numpy as np
import pytest

from riven_env.native import available
from riven_env.native.guard import THREAD_MESSAGE

needs_core = pytest.mark.skipif(not available(), reason="the native core is not built")

_STRESS = textwrap.dedent(
    """
    import sys, threading
    from collections import Counter
    import numpy as np
    import gymnasium as gym
    import riven_env  # noqa: F401 (registers riven/Skirmish-v0)
    from gymnasium.error import ResetNeeded
    from riven_env.errors import IllegalActionError

    env = gym.make("riven/Skirmish-v0").unwrapped
    env.reset(seed=1)
    errors = Counter()
    unexpected = []

    def work(k):
        rng = np.random.default_rng(k)
        for _ in range(150):
            try:
                legal = np.flatnonzero(env.action_masks())
                _, _, terminated, truncated, _ = env.step(int(rng.choice(legal)) if len(legal) else 0)
                if terminated or truncated:
                    env.reset()
            except RuntimeError as error:
                if "not thread-safe" not in str(error):
                    unexpected.append(repr(error))
                errors["RuntimeError"] += 1
            except (ResetNeeded, IllegalActionError):
                errors["misuse"] += 1  # the threads' moves interleave: a Python error, no crash
            except Exception as error:  # anything else is a sign of a race
                unexpected.append(repr(error))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("engine", env.engine, dict(errors), "unexpected", unexpected[:3])
    sys.exit(1 if unexpected else 0)
    """
)


@pytest.mark.parametrize(
    "engine", ["python", pytest.param("native", marks=needs_core)], ids=["python", "native"]
)
def test_four_threads_on_one_env_do_not_crash(engine: str) -> None:
    env = {**os.environ, "RIVEN_ENGINE": engine, "PYTHONWARNINGS": "ignore"}
    done = subprocess.run(
        [sys.executable, "-c", _STRESS], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-4000:])
    assert f"engine {engine}" in done.stdout


def _held(guard: object) -> tuple[threading.Event, threading.Thread]:
    """Another thread inside ``guard`` until the returned event is set."""
    inside, leave = threading.Event(), threading.Event()

    def hold() -> None:
        with guard:  # type: ignore[attr-defined]
            inside.set()
            leave.wait(30)

    thread = threading.Thread(target=hold)
    thread.start()
    assert inside.wait(30)
    return leave, thread


def _refused_while_held(
    guard: object, calls: list[Callable[[], object]], match: str = "not thread-safe"
) -> None:
    """Each of ``calls`` raises RuntimeError while another thread is inside ``guard``."""
    leave, thread = _held(guard)
    try:
        for call in calls:
            with pytest.raises(RuntimeError, match=match):
                call()
    finally:
        leave.set()
        thread.join()


@needs_core
def test_a_second_thread_in_a_native_game_of_an_env_gets_runtime_error() -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    env = RivenSkirmishEnv(engine="native")
    env.reset(seed=3)
    action = int(np.flatnonzero(env.action_masks())[0])
    _refused_while_held(
        env._native_game.guard,
        [lambda: env.step(action), lambda: env.reset(seed=4), lambda: env.state],
    )
    env.step(action)  # the guard let go: the env steps again from this thread


@pytest.mark.parametrize(
    "engine", ["python", pytest.param("native", marks=needs_core)], ids=["python", "native"]
)
def test_a_second_thread_in_an_env_gets_runtime_error(engine: str) -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.native.guard import ENV_THREAD_MESSAGE

    env = RivenSkirmishEnv(engine=engine)
    env.reset(seed=3)
    action = int(np.flatnonzero(env.action_masks())[0])
    _refused_while_held(
        env._guard,
        [lambda: env.step(action), lambda: env.reset(seed=4)],
        match="environment is not thread-safe",
    )
    env.step(action)
    assert "one thread at a time" in ENV_THREAD_MESSAGE


@needs_core
def test_a_second_thread_in_a_native_game_gets_runtime_error() -> None:
    from riven_env.engines import new_game

    game = new_game("ruins", seed=4, engine="native")
    legal = game.legal_decisions()
    _refused_while_held(
        game.guard,
        [
            lambda: game.apply(legal[0]),
            lambda: game.apply_quiet(legal[0]),
            game.copy,
            lambda: game.play_random(np.random.default_rng(0), 5),
            game.signature,
        ],
    )
    game.apply(legal[0])
    assert THREAD_MESSAGE.startswith("a native RIVEN game is not thread-safe")


@needs_core
def test_a_second_thread_in_a_native_vector_env_gets_runtime_error() -> None:
    from riven_env.envs.vector import RivenVectorEnv

    vec = RivenVectorEnv(2, engine="native")
    vec.reset(seed=5)
    actions = np.array([int(np.flatnonzero(m)[0]) for m in vec._masks])
    _refused_while_held(vec._guard, [lambda: vec.step(actions), lambda: vec.reset(seed=6)])
    vec.step(actions)
    vec.close()


@needs_core
def test_a_state_outlives_its_env() -> None:
    """A game state read from an env owns its memory: it steps after the env is gone."""
    from riven_env.envs.gym_env import RivenSkirmishEnv

    env = RivenSkirmishEnv(engine="native")
    env.reset(seed=8)
    state = env.state
    env.close()
    del env
    gc.collect()
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        legal = state.legal_decisions()
        state.apply(legal[int(rng.integers(len(legal)))])
    assert state.result["reason"]


@pytest.mark.parametrize(
    "engine", ["python", pytest.param("native", marks=needs_core)], ids=["python", "native"]
)
def test_a_second_thread_in_a_pettingzoo_env_gets_runtime_error(engine: str) -> None:
    from riven_env.envs.pz_env import RivenAECEnv

    env = RivenAECEnv(engine=engine)
    env.reset(seed=3)
    agent = env.agent_selection
    action = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
    _refused_while_held(
        env._guard,
        [lambda: env.step(action), lambda: env.reset(seed=4), lambda: env.observe(agent)],
        match="environment is not thread-safe",
    )
    env.step(action)  # the guard let go: the env steps again from this thread
