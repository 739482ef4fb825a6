"""``set_opponent`` on the batched native environment (issue 13): SB3's
``env_method("set_opponent", agent, indices=...)`` reaches the core's batch.

After ``set_opponent`` the batch equals N single Python environments given the same opponent at
the same moment (same seeds, same actions): each game keeps its running game's opponent and
plays the new one from its next game on, as :meth:`RivenSkirmishEnv.set_opponent` does. An
opponent the core does not play (a policy snapshot, another agent, a pool) is refused with one
line naming it and what is allowed, and changes nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")


def _python_envs(n: int, scenario: str, opponent: str, learner_side: str) -> list:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    return [
        RivenSkirmishEnv(scenario, opponent, learner_side=learner_side, obs_mode="flat",
                         engine="python")
        for _ in range(n)
    ]  # fmt: skip


def _lockstep(batch, envs, rng, steps: int, t0: int = 0) -> tuple[int, list[str]]:
    """Step the batch and the Python envs with the same actions; return (episodes ended,
    the opponents of the games that ended)."""
    episodes, ended = 0, []
    for t in range(t0, t0 + steps):
        masks = batch.action_masks()
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        obs, rewards, terminated, truncated, infos = batch.step(actions)
        for k, env in enumerate(envs):
            o, r, term, trunc, info = env.step(int(actions[k]))
            assert r == rewards[k], (t, k)
            assert (term, trunc) == (bool(terminated[k]), bool(truncated[k])), (t, k)
            if term or trunc:
                episodes += 1
                ended.append(info["opponent"])
                assert np.array_equal(infos["final_obs"][k], o), (t, k)
                o, _ = env.reset()
            assert np.array_equal(obs[k], o), (t, k)
            assert np.array_equal(batch.action_masks()[k], env.action_masks()), (t, k)
    return episodes, ended


@pytest.mark.parametrize(
    ("scenario", "learner_side", "first", "second"),
    [
        ("duel-1v1", "random", "random", "oracle:aggressive"),
        ("duel-1v1", "blue", "oracle", "random"),
    ],
)
def test_set_opponent_mid_run_equals_python_envs(
    scenario: str, learner_side: str, first: str, second: str
) -> None:
    from riven_env.envs.vector import RivenVectorEnv

    n, seed = 3, 31
    batch = RivenVectorEnv(n, scenario, first, engine="native", learner_side=learner_side)
    assert batch.backend == "batched"
    envs = _python_envs(n, scenario, first, learner_side)
    obs, _ = batch.reset(seed=seed)
    assert np.array_equal(
        obs, np.stack([env.reset(seed=seed + k)[0] for k, env in enumerate(envs)])
    )
    rng = np.random.default_rng(seed)
    _lockstep(batch, envs, rng, 7)
    # Mid-game: games 0 and 2 take the new opponent from their next game on.
    batch.set_opponent(second, indices=[0, 2])
    for k in (0, 2):
        envs[k].set_opponent(second)
    assert batch.opponents == [second, first, second]
    episodes, ended = _lockstep(batch, envs, rng, 150, t0=7)
    assert episodes >= 4 and second in ended
    # And back for every game, then a seeded reset: every game on the new opponent at once.
    batch.set_opponent(first)
    for env in envs:
        env.set_opponent(first)
    obs, _ = batch.reset(seed=seed + 100)
    assert np.array_equal(
        obs, np.stack([env.reset(seed=seed + 100 + k)[0] for k, env in enumerate(envs)])
    )
    _lockstep(batch, envs, rng, 40)
    batch.close()


def test_set_opponent_refusals_name_the_opponent_and_change_nothing() -> None:
    from riven_env.envs.gym_env import EnvArgumentError
    from riven_env.envs.opponents import OpponentPool
    from riven_env.envs.vector import RivenVectorEnv
    from riven_env.errors import RivenError

    batch = RivenVectorEnv(2, "duel-1v1", "random", engine="native")
    for opponent, named in (
        ("ppo:runs/x/snapshots/step_20000.safetensors", "ppo:runs/x"),
        ("greedy", "'greedy'"),
        (OpponentPool(["oracle", "random"]), "pool[2]"),
    ):
        with pytest.raises(EnvArgumentError, match="set_opponent") as caught:
            batch.set_opponent(opponent)
        message = str(caught.value)
        assert isinstance(caught.value, RivenError) and "\n" not in message
        assert named in message and "'random' and 'oracle[:PROFILE]'" in message
    with pytest.raises(EnvArgumentError, match="indices"):
        batch.set_opponent("oracle", indices=[2])
    assert batch.opponents == ["random", "random"]
    # The Python fallback takes any opponent, per game.
    fallback = RivenVectorEnv(2, "duel-1v1", "random", engine="native", backend="python")
    fallback.set_opponent("greedy", indices=1)
    assert [env.opponent for env in fallback.envs] == ["random", "greedy"]


def test_sb3_env_method_set_opponent_reaches_the_batch() -> None:
    pytest.importorskip("stable_baselines3")
    from riven_training.vec_env import RivenSB3VecEnv

    from riven_env.envs.gym_env import EnvArgumentError

    seed, n = 8, 2
    venv = RivenSB3VecEnv(n, scenario="duel-1v1", opponent="random", engine="native")
    reference = RivenSB3VecEnv(n, scenario="duel-1v1", opponent="oracle:cautious", engine="native")
    assert venv.env_method("set_opponent", "oracle:cautious", indices=[0, 1]) == [None, None]
    assert venv.venv.opponents == ["oracle:cautious"] * n
    for env in (venv, reference):
        env.seed(seed)
    assert np.array_equal(venv.reset(), reference.reset())
    rng = np.random.default_rng(seed)
    for _ in range(40):
        masks = venv.action_masks()
        assert np.array_equal(masks, reference.action_masks())
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        venv.step_async(actions)
        reference.step_async(actions)
        got, want = venv.step_wait(), reference.step_wait()
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        assert np.array_equal(got[2], want[2])
    with pytest.raises(EnvArgumentError, match="ppo:"):
        venv.env_method("set_opponent", "ppo:snap.safetensors", indices=0)
    venv.close()
    reference.close()


def test_single_native_env_follows_set_opponent_between_core_opponents() -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    native = RivenSkirmishEnv("duel-1v1", "random", obs_mode="flat", engine="native")
    python = RivenSkirmishEnv("duel-1v1", "random", obs_mode="flat", engine="python")
    rng = np.random.default_rng(5)
    for spec, seed in (("oracle", 5), ("random", 6), ("oracle:beast", 7)):
        for env in (native, python):
            env.set_opponent(spec)
        a, _ = native.reset(seed=seed)
        b, _ = python.reset(seed=seed)
        assert np.array_equal(a, b)
        assert native._native_live
        for _ in range(25):
            action = int(rng.choice(np.flatnonzero(python.action_masks())))
            got, want = native.step(action), python.step(action)
            assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4]
            assert got[4]["opponent"] == want[4]["opponent"] == spec
            if want[2] or want[3]:
                a, _ = native.reset()
                b, _ = python.reset()
                assert np.array_equal(a, b)
