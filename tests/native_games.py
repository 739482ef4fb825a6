"""States and event logs of real seeded games, shared by the native equivalence tests.

Every bundled mission is played by oracle, random and greedy pairings with fixed seeds; the
state after every decision is kept (a copy), so a test compares the two engines on positions
that real play reaches: spends pending, models Down and Out, Conditions held, games over.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import numpy as np

from riven_env.engines import new_game
from riven_env.game.runner import agent_seeds, play
from riven_env.scenario import list_bundled

# (blue, red, seed) per mission; greedy copies the state, so it plays the small missions only.
PAIRINGS = (("oracle", "oracle", 0), ("random", "random", 1), ("oracle", "random", 2))
GREEDY_MISSIONS = ("duel-1v1", "skirmish-5v5")


def missions() -> list[str]:
    """Every bundled mission's name."""
    return [info.name for info in list_bundled()]


def agents(blue: str, red: str, seed: int) -> dict[str, Any]:
    """The two agents of a seeded game, each on its own stream (runner.agent_seeds)."""
    from riven_agents.registry import make_agent

    seeds = agent_seeds(seed)
    return {
        side: make_agent(spec, side, seeds[side]) for side, spec in (("blue", blue), ("red", red))
    }


def system_lockstep(
    system: str, mission: str, blue: str, red: str, seed: int
) -> tuple[int, list[str], int]:
    """One game under resolution ``system`` on both engines at once, the Python agents choosing
    from the Python list: the legal decisions, the side, the events and the state (field by
    field) agree after every decision.

    Returns:
        ``(decisions, native event lines, spend points)``.
    """
    from riven_env.game.events import dumps_event
    from riven_env.native.game import native_view, python_view
    from riven_env.native.loop import NativeGameState

    python = new_game(mission, seed, overrides={"resolution": system}, engine="python")
    assert python.resolution.name == system
    native = NativeGameState.from_python(python)
    lines = [dumps_event(e) for e in native.drain_events()]
    players = agents(blue, red, seed)
    steps = spend_points = 0
    while not python.is_terminal:
        legal = python.legal_decisions()
        assert native.legal_decisions() == legal, (mission, seed, steps, python.phase)
        assert native.current_side == python.current_side
        spend_points += python.phase == "spend"
        decision = players[python.current_side].act(python, legal)
        expected = [dumps_event(e) for e in python.apply(decision)]
        got = [dumps_event(e) for e in native.apply(decision)]
        assert got == expected, (mission, seed, steps, str(decision))
        assert native_view(native.native) == python_view(python), (mission, seed, steps)
        lines += got
        steps += 1
    assert native.is_terminal and native.result == python.result
    return steps, lines, spend_points


def system_log(system: str, mission: str, blue: str, red: str, seed: int, engine: str) -> list[str]:
    """The JSON lines of one whole game under resolution ``system`` on ``engine`` (``play``)."""
    state = new_game(mission, seed, overrides={"resolution": system}, engine=engine)
    assert type(state).__name__ == ("NativeGameState" if engine == "native" else "GameState")
    return [json.dumps(e, sort_keys=False) for e in play(state, agents(blue, red, seed))]


def seam_log(
    system: str, core_resolution: Any, mission: str, blue: str, red: str, seed: int
) -> list[str]:
    """The JSON lines of one game on the Python loop under resolution ``system``, with the
    core's dice engine behind the seam when ``core_resolution`` (its class) is given."""
    state = new_game(mission, seed, engine="python", overrides={"resolution": system})
    python_resolution = type(state.resolution)
    if core_resolution is not None:
        state.resolution = core_resolution(state.rules)
    events = play(state, agents(blue, red, seed))
    assert type(state.resolution) is (core_resolution or python_resolution)
    return [json.dumps(e, sort_keys=False) for e in events]


@functools.lru_cache(maxsize=64)
def game(mission: str, blue: str, red: str, seed: int) -> tuple[list[Any], list[dict]]:
    """``(states, events)`` of one seeded game: the start and the state after every decision."""
    from riven_agents.registry import make_agent

    state = new_game(mission, seed)
    seeds = agent_seeds(seed)
    agents = {
        side: make_agent(spec, side, seeds[side]) for side, spec in (("blue", blue), ("red", red))
    }
    states = [state.copy()]
    events = play(state, agents, on_decision=lambda s: states.append(s.copy()))
    return states, events


def cases(mission: str) -> list[tuple[str, str, int]]:
    """The pairings played on ``mission``."""
    found = list(PAIRINGS)
    if mission in GREEDY_MISSIONS:
        found.append(("greedy", "oracle", 3))
    return found


def mission_states(mission: str) -> list[Any]:
    """Every sampled state of every game of ``mission``."""
    return [s for case in cases(mission) for s in game(mission, *case)[0]]


def batch_lockstep(batch: Any, envs: list[Any], seed: int, steps: int) -> int:
    """Step a batched env and its single Python envs with the same random legal actions.

    The batch is reset with ``seed`` and env ``k`` with ``seed + k``; at the start and after
    every step the observations, masks, rewards, done flags, finished games' last observations
    and learner sides must be equal. Returns the episodes that ended.
    """
    obs, _ = batch.reset(seed=seed)
    first = [env.reset(seed=seed + k) for k, env in enumerate(envs)]
    assert np.array_equal(obs, np.stack([o for o, _ in first]))
    assert np.array_equal(batch.action_masks(), np.stack([e.action_masks() for e in envs]))
    rng = np.random.default_rng(seed)
    episodes = 0
    for t in range(steps):
        masks = batch.action_masks()
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        obs, rewards, terminated, truncated, infos = batch.step(actions)
        for k, env in enumerate(envs):
            o, r, term, trunc, _ = env.step(int(actions[k]))
            assert r == rewards[k], (t, k)
            assert (term, trunc) == (bool(terminated[k]), bool(truncated[k])), (t, k)
            if term or trunc:
                episodes += 1
                assert np.array_equal(infos["final_obs"][k], o), (t, k)
                o, _ = env.reset()
            assert np.array_equal(obs[k], o), (t, k)
            assert np.array_equal(batch.action_masks()[k], env.action_masks()), (t, k)
            assert infos["learner_side"][k] == env.learner_side
    return episodes
