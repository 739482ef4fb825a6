"""The single environment on the native engine steps in one native call (issue 13).

``RivenSkirmishEnv(engine="native")`` against the random opponent runs each step in the core
(``riven_env/envs/native_batch.py`` NativeSingleGame: a ``BatchEnv`` of one game without
auto-reset). Same seeds, same actions: everything a caller sees (observations, rewards, flags,
every info key, the mask, the game seed, the environment's ``np_random`` after each reset)
equals the Python engine's environment, across resets with and without seeds, in the middle of
a game and after one, with shaping, a learner-step cap, penalised illegal actions and a drawn
learner side.
"""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.errors import IllegalActionError
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")


def _pair(scenario: str, opponent: str = "random", **kwargs):
    from riven_env.envs.gym_env import RivenSkirmishEnv

    native = RivenSkirmishEnv(scenario, opponent, engine="native", **kwargs)
    python = RivenSkirmishEnv(scenario, opponent, engine="python", **kwargs)
    return native, python


def _same_obs(a, b) -> None:
    if isinstance(b, dict):
        assert a.keys() == b.keys()
        for key in b:
            assert a[key].dtype == b[key].dtype and np.array_equal(a[key], b[key]), key
    else:
        assert a.dtype == b.dtype and np.array_equal(a, b)


def _same_info(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in b:
        if isinstance(b[key], np.ndarray):
            assert a[key].dtype == b[key].dtype and np.array_equal(a[key], b[key]), key
        else:
            assert a[key] == b[key], key


def _same_after_reset(native, python, got, want) -> None:
    _same_obs(got[0], want[0])
    _same_info(got[1], want[1])
    assert native._native_live and not python._native_live
    assert native.game_seed == python.game_seed
    assert native.learner_side == python.learner_side
    assert native.np_random.bit_generator.state == python.np_random.bit_generator.state


@pytest.mark.parametrize(
    ("scenario", "kwargs", "illegal_every"),
    [
        ("duel-1v1", {"obs_mode": "flat"}, 0),
        ("skirmish-5v5", {"obs_mode": "flat", "learner_side": "random"}, 0),
        # The Oracle opponent decides in the core too (its mission profiles, or one forced).
        ("skirmish-5v5", {"opponent": "oracle", "learner_side": "random"}, 0),
        ("duel-1v1", {"opponent": "oracle:aggressive", "learner_side": "red"}, 0),
        (
            "skirmish-5v5",
            {
                "obs_mode": "dict",
                "learner_side": "red",
                "settings": {"shaping.points": 0.05, "shaping.wounds": 0.01},
            },
            0,
        ),
        (
            "duel-1v1",
            {
                "obs_mode": "flat",
                "learner_side": "random",
                "illegal_action": "penalise",
                "settings": {"episode.max_learner_steps": 6, "illegal.penalty": -0.25},
            },
            4,
        ),
    ],
)
def test_single_native_step_equals_python(scenario: str, kwargs: dict, illegal_every: int) -> None:
    native, python = _pair(scenario, **kwargs)
    _same_after_reset(native, python, native.reset(seed=11), python.reset(seed=11))
    rng = np.random.default_rng(5)
    episodes, steps = 0, 0
    while episodes < 5:
        steps += 1
        assert np.array_equal(native.action_masks(), python.action_masks())
        legal = np.flatnonzero(python.action_masks())
        if illegal_every and steps % illegal_every == 0:
            illegal = np.flatnonzero(~python.action_masks())
            action = int(rng.choice(illegal)) if steps % (2 * illegal_every) else -3
        else:
            action = int(rng.choice(legal))
        got, want = native.step(action), python.step(action)
        _same_obs(got[0], want[0])
        assert got[1:4] == want[1:4]
        _same_info(got[4], want[4])
        if steps == 7:  # a reset in the middle of a game, without a seed
            _same_after_reset(native, python, native.reset(), python.reset())
        elif steps == 13:  # and with one
            _same_after_reset(native, python, native.reset(seed=99), python.reset(seed=99))
        elif want[2] or want[3]:
            episodes += 1
            if want[2] and episodes == 2:  # stepping a finished game is refused on both
                for env in (native, python):
                    with pytest.raises(Exception, match="reset"):
                        env.step(0)
            _same_after_reset(native, python, native.reset(), python.reset())


def test_single_native_step_state_and_illegal_raise() -> None:
    native, python = _pair("duel-1v1", obs_mode="flat", illegal_action="raise")
    native.reset(seed=4)
    python.reset(seed=4)
    # The state read from the one-call step is the Python engine's position.
    assert native.state.current_side == python.state.current_side
    assert native.state.result == python.state.result
    illegal = int(np.flatnonzero(~python.action_masks())[0])
    for env in (native, python):
        with pytest.raises(IllegalActionError):
            env.step(illegal)
    # Other opponents play through Python agents on the native state.
    native.set_opponent("greedy")
    native.reset(seed=4)
    assert not native._native_live
    native.step(int(np.flatnonzero(native.action_masks())[0]))


@pytest.mark.parametrize("scenario", ["duel-1v1", "skirmish-5v5"])
def test_every_legal_label_is_the_python_decisions(scenario: str) -> None:
    # info["decision"] is written by the core (BatchEnv::decision_label): for every legal index
    # of every position met, the str() of the Python Decision of the core's decision there.
    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.native.loop import python_decision

    env = RivenSkirmishEnv(scenario, "random", engine="native", learner_side="random")
    _, info = env.reset(seed=4)
    game = env._native_game
    statics = game.state().native.statics
    rng = np.random.default_rng(4)
    labelled = 0
    for _ in range(60):
        legal = np.flatnonzero(info["action_mask"])
        for index in legal:
            core = game.batch.legal_decision(0, int(index))
            assert game.decision_label(int(index)) == str(python_decision(core, statics))
            labelled += 1
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(0, len(legal))]))
        if terminated or truncated:
            _, info = env.reset()
    assert labelled > 100
