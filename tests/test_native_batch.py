"""The batched native environment against N single Python environments (issue 13).

Same seeds, same actions: the batch's observations, masks, rewards, done flags and the
finished games' last observations equal those of ``RivenSkirmishEnv(engine="python")`` stepped
one by one (each restarted with ``reset()`` when done, as the batch restarts it), with routes
planned by the Python planner behind the callback seam. The native seeding (numpy's
SeedSequence into PCG64, and 64-bit ``integers``) is checked against numpy bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")


def _native():
    from riven_env.native import load

    return load()


@pytest.mark.parametrize(
    "entropy",
    [
        [0],
        [1],
        [7],
        [2**32 - 1],
        [2**32],
        [2**62 - 1],
        [123456789012345],
        [5, 1],
        [5, 2],
        [2**40 + 3, 2],
        [0, 0],
        [1, 2, 3, 4, 5, 6],
    ],
)
def test_seeding_is_numpys(entropy: list[int]) -> None:
    from riven_env.native.random import numpy_state

    seed = entropy[0] if len(entropy) == 1 else entropy
    stream = _native().seeded_pcg64(entropy)
    assert numpy_state(stream) == np.random.default_rng(seed).bit_generator.state


def test_integers64_is_numpys() -> None:
    from riven_env.native.random import native_stream

    rng = np.random.default_rng(99)
    stream = native_stream(rng)
    for high in (2**62, 2**40 + 17, 2**33, 6, 2**32):
        expected = [int(rng.integers(0, high)) for _ in range(50)]
        assert [_native().integers64(stream, 0, high) for _ in range(50)] == expected


def _single_envs(n, scenario, learner_side, settings, seed):
    from riven_env.envs.gym_env import RivenSkirmishEnv

    envs = [
        RivenSkirmishEnv(
            scenario, "random", learner_side=learner_side, obs_mode="flat", settings=settings
        )
        for _ in range(n)
    ]
    first = [env.reset(seed=seed + k) for k, env in enumerate(envs)]
    return envs, np.stack([o for o, _ in first]), np.stack([e.action_masks() for e in envs])


def _lockstep(scenario, learner_side, steps, settings=None, n=4, seed=11, illegal_every=0):
    from riven_env.envs.vector import RivenVectorEnv

    batch = RivenVectorEnv(
        n, scenario, "random", engine="native", learner_side=learner_side, settings=settings
    )
    assert batch.backend == "batched"
    obs, _ = batch.reset(seed=seed)
    envs, ref_obs, ref_masks = _single_envs(n, scenario, learner_side, settings, seed)
    assert np.array_equal(obs, ref_obs)
    assert np.array_equal(batch.action_masks(), ref_masks)
    rng = np.random.default_rng(seed)
    episodes = 0
    for t in range(steps):
        masks = batch.action_masks()
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        if illegal_every and t % illegal_every == 0:
            actions[0] = int(np.flatnonzero(~masks[0])[0])
        obs, rewards, terminated, truncated, infos = batch.step(actions)
        for k, env in enumerate(envs):
            o, r, term, trunc, _ = env.step(int(actions[k]))
            assert r == rewards[k], (t, k)
            assert (term, trunc) == (bool(terminated[k]), bool(truncated[k])), (t, k)
            if term or trunc:
                episodes += 1
                assert infos["_final_obs"][k]
                assert np.array_equal(infos["final_obs"][k], o), (t, k)
                o, _ = env.reset()
            assert np.array_equal(obs[k], o), (t, k)
            assert np.array_equal(batch.action_masks()[k], env.action_masks()), (t, k)
            assert infos["learner_side"][k] == env.learner_side
    batch.close()
    return episodes


@pytest.mark.parametrize("learner_side", ["blue", "random"])
def test_batch_equals_single_envs_duel(learner_side: str) -> None:
    assert _lockstep("duel-1v1", learner_side, 160) >= 4


def test_batch_equals_single_envs_skirmish_with_shaping() -> None:
    settings = {"shaping.points": 0.1, "shaping.wounds": 0.05, "shaping.casualties": 0.2}
    assert _lockstep("skirmish-5v5", "random", 90, settings=settings, n=3) >= 1


def test_batch_penalised_illegal_actions_match() -> None:
    settings = {"illegal.policy": "penalise", "illegal.penalty": -0.25}
    _lockstep("duel-1v1", "red", 40, settings=settings, n=2, illegal_every=3)


def test_batch_refuses_an_illegal_action_under_raise() -> None:
    from riven_env.envs.vector import RivenVectorEnv
    from riven_env.errors import IllegalActionError

    batch = RivenVectorEnv(
        2, "duel-1v1", "random", engine="native", settings={"illegal.policy": "raise"}
    )
    batch.reset(seed=3)
    actions = [int(np.flatnonzero(m)[0]) for m in batch.action_masks()]
    actions[1] = int(np.flatnonzero(~batch.action_masks()[1])[0])
    with pytest.raises(IllegalActionError, match="game 1"):
        batch.step(actions)


def test_batch_refusals_name_the_setting_and_fallback_runs() -> None:
    from riven_env.envs.gym_env import EnvArgumentError
    from riven_env.envs.vector import RivenVectorEnv

    with pytest.raises(EnvArgumentError, match="opponent='greedy'"):
        RivenVectorEnv(2, "duel-1v1", "greedy", engine="native", backend="batched")
    fallback = RivenVectorEnv(2, "duel-1v1", "greedy", engine="native")
    assert fallback.backend == "python"
    obs, _ = fallback.reset(seed=1)
    masks = fallback.action_masks()
    obs2, rewards, terminated, truncated, _ = fallback.step(
        [int(np.flatnonzero(m)[0]) for m in masks]
    )
    assert obs2.shape == obs.shape == (2, fallback.single_observation_space.shape[0])
    assert rewards.shape == terminated.shape == truncated.shape == (2,)


def test_batch_dict_observations_split_the_flat_vector() -> None:
    from riven_env.envs.vector import RivenVectorEnv

    flat = RivenVectorEnv(2, "duel-1v1", "random", engine="native")
    split = RivenVectorEnv(2, "duel-1v1", "random", engine="native", obs_mode="dict")
    a, _ = flat.reset(seed=5)
    b, _ = split.reset(seed=5)
    assert split.observation_space.contains(b)
    joined = np.concatenate(
        [b["models"].reshape(2, -1), b["objectives"].reshape(2, -1), b["global"]], axis=1
    )
    assert np.array_equal(joined, a)


def test_sb3_vec_env_interface() -> None:
    pytest.importorskip("stable_baselines3")
    from riven_training.vec_env import RivenSB3VecEnv

    venv = RivenSB3VecEnv(3, scenario="duel-1v1", opponent="random", engine="native")
    venv.seed(4)
    obs = venv.reset()
    assert obs.shape == (3, venv.observation_space.shape[0])
    done_seen = False
    rng = np.random.default_rng(0)
    for _ in range(60):
        masks = venv.action_masks()
        assert masks.shape == (3, venv.action_space.n) and masks.any(axis=1).all()
        obs, rewards, dones, infos = venv.step(
            np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        )
        for k in np.flatnonzero(dones):
            done_seen = True
            assert infos[k]["terminal_observation"].shape == obs[k].shape
            assert "episode" in infos[k]
    assert done_seen
    venv.close()


def test_native_single_env_observations_equal_python() -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    native = RivenSkirmishEnv("skirmish-5v5", "random", obs_mode="flat", engine="native")
    python = RivenSkirmishEnv("skirmish-5v5", "random", obs_mode="flat", engine="python")
    a, _ = native.reset(seed=2)
    b, _ = python.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(40):
        assert np.array_equal(a, b)
        assert np.array_equal(native.action_masks(), python.action_masks())
        action = int(rng.choice(np.flatnonzero(python.action_masks())))
        a, ra, ta, ua, _ = native.step(action)
        b, rb, tb, ub, _ = python.step(action)
        assert (ra, ta, ua) == (rb, tb, ub)
        if tb or ub:
            a, _ = native.reset()
            b, _ = python.reset()


@pytest.mark.parametrize("mission", ["hold-the-line", "scifi-hold", "duel-1v1", "skirmish-5v5"])
@pytest.mark.parametrize("learner_side", ["blue", "red"])
def test_the_batch_starts_on_the_missions_first_side(mission: str, learner_side: str) -> None:
    # A mission's fixed first side is its own (hold-the-line and scifi-hold: red first), not the
    # first template's (blue): the batch and the native single env start as the Python env does,
    # and go on in lockstep with it.
    from native_games import batch_lockstep

    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.envs.vector import RivenVectorEnv

    n, seed = 3, 5
    batch = RivenVectorEnv(n, mission, "random", engine="native", learner_side=learner_side)
    assert batch.backend == "batched"
    envs = [
        RivenSkirmishEnv(
            mission, "random", learner_side=learner_side, obs_mode="flat", engine="python"
        )
        for _ in range(n)
    ]
    single = RivenSkirmishEnv(
        mission, "random", learner_side=learner_side, obs_mode="flat", engine="native"
    )
    reference = RivenSkirmishEnv(
        mission, "random", learner_side=learner_side, obs_mode="flat", engine="python"
    )
    assert np.array_equal(single.reset(seed=seed)[0], reference.reset(seed=seed)[0])
    batch_lockstep(batch, envs, seed, 40)
    batch.close()
