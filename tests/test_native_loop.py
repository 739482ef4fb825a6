"""The native game loop (cpp/riven/game loop.cpp, queries.cpp) plays the Python engine's game.

Seeded games on every bundled mission are played in lockstep by both engines, the Python agents
choosing from the Python list: at every decision point the native legal decisions equal the
Python ones (same order), after every apply the native state equals the Python state field by
field (``native_view == python_view``, floats bit for bit) and the events are byte-identical
(``dumps_event``). Rules variants (turnover, bonus mode, flight route, sticky melee) and the
``new_game(engine=...)`` seam are covered too; the resolution systems the core lacks are refused
by name (Invictus is played: tests/test_native_invictus_loop.py).
Routes are planned by the core (the default ``planner="native"``); the Python planner behind
the same seam (``planner="python"``) plays the same game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from riven_env.engines import new_game
from riven_env.errors import IllegalActionError
from riven_env.game.events import dumps_event
from riven_env.game.runner import agent_seeds, play
from riven_env.native import NativeUnavailableError, available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

if available():
    from riven_env.native.game import native_view, python_view
    from riven_env.native.loop import NativeGameState

from native_games import mission_states, missions  # noqa: E402


def _agents(blue: str, red: str, seed: int) -> dict[str, Any]:
    from riven_agents.registry import make_agent

    seeds = agent_seeds(seed)
    return {
        side: make_agent(spec, side, seeds[side]) for side, spec in (("blue", blue), ("red", red))
    }


def lockstep(
    mission: str, blue: str, red: str, seed: int, overrides: dict | None = None
) -> tuple[int, list[str]]:
    """Play one game on both engines at once; return (decisions, the native event lines)."""
    python = new_game(mission, seed, overrides=overrides)
    native = NativeGameState.from_python(python)  # takes over the set-up's events
    assert python.drain_events() == []
    lines = [dumps_event(e) for e in native.drain_events()]
    assert lines and '"type":"game_start"' in lines[0]
    agents = _agents(blue, red, seed)
    steps = 0
    while not python.is_terminal:
        legal = python.legal_decisions()
        assert native.legal_decisions() == legal, (mission, seed, steps, python.phase)
        assert native.current_side == python.current_side
        decision = agents[python.current_side].act(python, legal)
        expected = [dumps_event(e) for e in python.apply(decision)]
        got = [dumps_event(e) for e in native.apply(decision)]
        assert got == expected, (mission, seed, steps, str(decision))
        assert native_view(native.native) == python_view(python), (mission, seed, steps)
        lines += got
        steps += 1
    assert native.is_terminal and native.legal_decisions() == []
    assert native.result == python.result
    return steps, lines


@pytest.mark.parametrize("mission", missions())
def test_legal_decisions_on_every_sampled_state_are_the_python_ones(mission: str) -> None:
    # The states of tests/test_native_game.py (oracle, random and greedy games), exported.
    for state in mission_states(mission):
        native = NativeGameState.from_python(state.copy())
        assert native.legal_decisions() == state.legal_decisions(), (mission, state)
        assert native.current_side == state.current_side


@pytest.mark.parametrize("mission", missions())
def test_random_games_match_the_python_engine_step_by_step(mission: str) -> None:
    for seed in (1, 2):
        steps, _ = lockstep(mission, "random", "random", seed)
        assert steps > 0


@pytest.mark.slow
@pytest.mark.parametrize("mission", missions())
def test_oracle_games_match_the_python_engine_step_by_step(mission: str) -> None:
    steps, _ = lockstep(mission, "oracle", "oracle", 0)
    assert steps > 0


@pytest.mark.parametrize(
    "overrides",
    [
        {"activation.turnover": "sbh"},
        {"momentum.bonus_mode": "replace", "momentum.start": 3},
        {"morale.flight_route": "around"},
        {"engagement.forbids": ["move", "charge", "shoot", "aim"]},
    ],
    ids=["sbh-turnover", "replace-bonus", "around-flight", "sticky-melee"],
)
def test_rules_variants_match_the_python_engine(overrides: dict) -> None:
    for mission, seed in (("skirmish-5v5", 3), ("ranged-vs-melee", 4)):
        lockstep(mission, "random", "oracle", seed, overrides)


def test_the_same_seed_gives_the_same_game_byte_for_byte() -> None:
    first = lockstep("skirmish-5v5", "random", "random", 5)[1]
    second = lockstep("skirmish-5v5", "random", "random", 5)[1]
    assert first == second
    assert first != lockstep("skirmish-5v5", "random", "random", 6)[1]


def test_play_on_the_native_engine_writes_the_python_log() -> None:
    # The runner and the Python agents (the Oracle reads the Python view) on either engine.
    for blue, red in (("oracle", "random"), ("greedy", "oracle")):
        logs = []
        for engine in ("python", "native"):
            state = new_game("duel-1v1", 7, engine=engine)
            events = play(state, _agents(blue, red, 7))
            logs.append([dumps_event(e) for e in events])
            assert state.is_terminal
        assert logs[0] == logs[1]


def test_copies_are_independent_and_replay_the_same_game() -> None:
    state = new_game("skirmish-5v5", 8, engine="native")
    state.drain_events()
    copy = state.copy()
    agents = _agents("random", "random", 8)
    first = []
    while not state.is_terminal:
        first += [
            dumps_event(e)
            for e in state.apply(agents[state.current_side].act(state, state.legal_decisions()))
        ]
    assert not copy.is_terminal
    agents = _agents("random", "random", 8)
    second = []
    while not copy.is_terminal:
        second += [
            dumps_event(e)
            for e in copy.apply(agents[copy.current_side].act(copy, copy.legal_decisions()))
        ]
    assert first == second


def test_the_core_plans_routes_and_the_python_planner_stays_for_diagnosis() -> None:
    # The default model plans with the core (no Python per step); planner="python" puts the
    # Python engine's planner behind the same seam and plays the same game event for event.
    from riven_env.native import load
    from riven_env.native.random import native_stream

    logs = []
    for planner in ("native", "python"):
        state = NativeGameState.from_python(new_game("skirmish-5v5", 9), planner=planner)
        assert state.model.native_planner is (planner == "native")
        chooser = native_stream(np.random.default_rng(9))
        steps, events = load().play_random(state.model, state.native, chooser, 100_000)
        assert state.is_terminal and steps > 0 and events > steps
        logs.append((steps, events, native_view(state.native)))
    assert logs[0] == logs[1]
    with pytest.raises(ValueError, match="planner 'fast': expected one of"):
        NativeGameState.from_python(new_game("duel-1v1", 1), planner="fast")


def test_an_illegal_decision_is_refused_with_the_legal_ones() -> None:
    state = new_game("duel-1v1", 1, engine="native")
    from riven_env.game.decisions import Decision

    with pytest.raises(IllegalActionError, match=r"illegal decision shoot m0 ->m1 .*pass"):
        state.apply(Decision("shoot", 0, target=1))


def test_the_engine_is_named_and_other_systems_are_refused(
    python_only_system: dict[str, str],
) -> None:
    with pytest.raises(ValueError, match="engine .fast.: expected one of auto, python, native"):
        new_game("duel-1v1", 1, engine="fast")
    with pytest.raises(NativeUnavailableError, match="'house-dice'"):
        new_game("duel-1v1", 1, overrides=python_only_system, engine="native")
    # Every bundled system is ported (tests/test_native_invictus_loop.py,
    # tests/test_native_new_world_loop.py and tests/test_native_riddle_of_steel_loop.py play them).
    for system in ("invictus", "new-world", "riddle-of-steel"):
        assert isinstance(
            new_game("duel-1v1", 1, overrides={"resolution": system}, engine="native"),
            NativeGameState,
        )


def test_one_forward_model_per_first_side() -> None:
    # skirmish-5v5 rolls its first side: its games alternate between two core GameStatics, and
    # each keeps its own ForwardModel (none is rebuilt when the next game starts on the other side).
    states = [new_game("skirmish-5v5", seed, engine="native") for seed in range(12)]
    models: dict[str, set[int]] = {}
    for state in states:
        models.setdefault(state.start_state.first_side, set()).add(id(state.model))
    assert sorted(models) == ["blue", "red"]
    assert all(len(ids) == 1 for ids in models.values())
    again = new_game("skirmish-5v5", 0, engine="native")
    assert again.model is states[0].model
