"""The leaf evaluation in the core (cpp/riven/agents/evaluation.cpp) equals agents/evaluation.py.

``weighted_total``, ``evaluate`` and ``threat`` on a ``NativeGameState`` are computed by the
core on its own state; on the Python state of the same position they are computed by the
Python features. The two must agree bit for bit (the core repeats the float operations and sums
in the dict order of the Python features) on positions that real play reaches on every bundled
mission the core plays, for both sides, with every feature weighted (holding and threat too).
"""

from __future__ import annotations

import pytest
from riven_agents.evaluation import (
    DEFAULT_WEIGHTS,
    EvaluationWeights,
    evaluate,
    threat,
    weighted_total,
)

from riven_env.game.state import SIDES
from riven_env.native import NativeUnavailableError, available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_games import cases, game, missions  # noqa: E402

# Every feature on, none of the weights round numbers (a term left out or summed out of order
# would show in the last bits).
ALL_ON = EvaluationWeights(
    wounds=1.1,
    models=0.9,
    on_table=0.37,
    points=0.23,
    objectives=0.21,
    holding=0.13,
    proximity=0.11,
    momentum=0.031,
    tempo=0.019,
    threat=0.61,
    scale=0.7,
)
WEIGHTS = (DEFAULT_WEIGHTS, ALL_ON)
# Every k-th state of each game (the positions differ little from one decision to the next).
STRIDE = 3


def _native(state):
    from riven_env.native.loop import NativeGameState

    return NativeGameState.from_python(state.copy())


def _check(mission: str) -> int:
    compared = 0
    for case in cases(mission):
        states = game(mission, *case)[0]
        for state in [*states[::STRIDE], states[-1]]:
            try:
                native = _native(state)
            except NativeUnavailableError:
                return -1  # a resolution system the core does not play
            for side in SIDES:
                for weights in WEIGHTS:
                    python = weighted_total(state, side, weights)
                    core = weighted_total(native, side, weights)
                    assert core == python, (mission, case, state.seq, side, weights, core, python)
                    assert evaluate(native, side, weights) == evaluate(state, side, weights)
                assert threat(native, side) == threat(state, side)
                compared += 1
    return compared


@pytest.mark.parametrize("mission", ["skirmish-5v5", "ranged-vs-melee", "hold-the-line"])
def test_the_core_evaluation_equals_the_python_one(mission: str) -> None:
    compared = _check(mission)
    assert compared > 0, f"{mission}: no state compared"


@pytest.mark.slow
def test_the_core_evaluation_equals_the_python_one_on_every_mission() -> None:
    played = 0
    for mission in missions():
        if _check(mission) > 0:
            played += 1
    assert played >= 8, f"only {played} missions were compared"


def test_a_finished_native_game_is_valued_exactly() -> None:
    from riven_env.native.loop import NativeGameState

    states = game("duel-1v1", "oracle", "oracle", 0)[0]
    last = states[-1]
    assert last.is_terminal
    native = NativeGameState.from_python(last.copy())
    for side in SIDES:
        expected = 0.0 if last.winner is None else (1.0 if last.winner == side else -1.0)
        assert evaluate(native, side) == evaluate(last, side) == expected
