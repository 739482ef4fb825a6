"""Entity observations on the native batch against the Python ``EntityEncoder``.

Same seeds, same random legal actions: ``RivenVectorEnv(..., engine="native",
obs_mode="entity", backend="batched")`` (the core's pair encoder, ``cpp/riven/encoding/entity.cpp``)
gives every key of the observation (``models``, ``objectives``, ``global``, ``pairs``,
``terrain``, ``action_mask``) and of the finished games' last observations exactly equal to
``RivenSkirmishEnv(engine="python", obs_mode="entity")`` stepped one by one (bit for bit,
the 0/1 columns and the dx/dy/gap offsets alike); so does the single environment on the native
engine, in one native call per step and on its Python-opponent path.
"""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")

KEYS = ("models", "objectives", "global", "pairs", "terrain", "action_mask")

# Every bundled mission of five models a side or fewer, ruins (5 against 8) and a generated one.
MISSIONS = [
    ("skirmish-5v5", "random", 70),
    ("skirmish-5v5-mirror", "random", 70),
    ("open-field", "red", 50),
    ("ruins", "random", 50),
    ("duel-1v1", "random", 60),
    ("escort-extract", "random", 40),
    ("generated:ruins:3", "random", 40),
]


def _assert_same(batch_obs, singles, where):
    """Every key of game k of ``batch_obs`` equals ``singles[k]`` exactly (values, shape, dtype)."""
    for k, single in enumerate(singles):
        assert tuple(single) == KEYS
        for key in KEYS:
            got, want = batch_obs[key][k], single[key]
            assert got.dtype == want.dtype and got.shape == want.shape, (where, k, key)
            if not np.array_equal(got, want):
                at = tuple(np.argwhere(got != want)[0])
                raise AssertionError(f"{where}: game {k} {key}{at}: {got[at]} != {want[at]}")


def _random_actions(masks, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


@pytest.mark.parametrize(("scenario", "learner_side", "steps"), MISSIONS)
def test_batch_entity_equals_python(scenario, learner_side, steps):
    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.envs.vector import RivenVectorEnv

    n, seed = 2, 21
    batch = RivenVectorEnv(
        n,
        scenario,
        "random",
        engine="native",
        learner_side=learner_side,
        obs_mode="entity",
        backend="batched",
    )
    assert batch.backend == "batched"
    envs = [
        RivenSkirmishEnv(
            scenario, "random", learner_side=learner_side, obs_mode="entity", engine="python"
        )
        for _ in range(n)
    ]
    assert batch.single_observation_space == envs[0].observation_space
    obs, _ = batch.reset(seed=seed)
    _assert_same(obs, [env.reset(seed=seed + k)[0] for k, env in enumerate(envs)], "reset")
    rng = np.random.default_rng(3)
    finished = switched = 0
    seen = np.zeros(len(envs[0].entity_encoder.pair_features), dtype=bool)
    for t in range(steps):
        actions = _random_actions(batch.action_masks(), rng)
        obs, rewards, terminated, truncated, infos = batch.step(actions)
        singles = []
        for k, env in enumerate(envs):
            single, reward, term, trunc, _ = env.step(int(actions[k]))
            assert (reward, term, trunc) == (rewards[k], terminated[k], truncated[k])
            if term or trunc:
                final = {key: value[k : k + 1] for key, value in infos["final_obs"].items()}
                _assert_same(final, [single], f"step {t} final_obs")
                finished += 1
                side = env.learner_side
                single, _ = env.reset()
                switched += side != env.learner_side
            singles.append(single)
        _assert_same(obs, singles, f"step {t}")
        seen |= (obs["pairs"] != 0).any(axis=(0, 1, 2))
    # The comparison covered the situation columns, not only the padding.
    names = envs[0].entity_encoder.pair_features
    columns = ("present", "enemy", "dx", "dy", "gap", "line_of_sight", "cover_none")
    # The duel's two models carry no ranged weapon; the 5-a-side games meet, charge and shoot.
    columns += (
        ("charge_reach",) if scenario == "duel-1v1" else ("contact", "in_range", "shot_legal")
    )
    for column in columns:
        assert seen[names.index(column)], column
    if scenario == "duel-1v1":
        # The final observations were compared too, some of a game whose next one drew the
        # other learner side (its terrain rows are the finished game's side's).
        assert finished > 0 and switched > 0


def test_single_native_env_entity_equals_python():
    """RivenSkirmishEnv(engine="native", obs_mode="entity"): the one-call step's observations."""
    from riven_env.envs.gym_env import RivenSkirmishEnv

    native = RivenSkirmishEnv("skirmish-5v5", "random", obs_mode="entity", engine="native")
    python = RivenSkirmishEnv("skirmish-5v5", "random", obs_mode="entity", engine="python")
    assert native.observation_space == python.observation_space
    rng = np.random.default_rng(8)
    for episode in range(2):
        got, _ = native.reset(seed=40 + episode)
        want, _ = python.reset(seed=40 + episode)
        assert native._native_live  # the whole step in one native call
        for t in range(40):
            _assert_same({k: v[None] for k, v in got.items()}, [want], f"{episode}/{t}")
            action = int(rng.choice(np.flatnonzero(native.action_masks())))
            got, _, term, trunc, _ = native.step(action)
            want, _, term2, trunc2, _ = python.step(action)
            assert (term, trunc) == (term2, trunc2)
            if term or trunc:
                break


@pytest.mark.parametrize("charge_paths", [True, False])
def test_native_entity_encoder_equals_python_encoder(charge_paths):
    """The core's pair block of a native state (the single env's Python-opponent path), with
    the charge planner's reach and with the straight-line gap (``entity.charge_paths``)."""
    import dataclasses

    from riven_env.encoding.config import load_encoding_config
    from riven_env.encoding.entity import EntityEncoder
    from riven_env.engines import new_game
    from riven_env.envs.native_obs import NativeEntityEncoder
    from riven_env.native.loop import NativeGameState

    config = dataclasses.replace(load_encoding_config(), charge_paths=charge_paths)
    encoder = EntityEncoder("skirmish-5v5", config=config)
    native_encoder = NativeEntityEncoder(encoder)
    checked = 0
    reach = 0.0
    for seed in (5, 18):  # game 18 closes to charge reach late
        python_state = new_game("skirmish-5v5", seed)
        rng = np.random.default_rng(seed)
        for t in range(200):
            if python_state.is_terminal:
                break
            legal = python_state.legal_decisions()
            python_state.apply(legal[int(rng.integers(0, len(legal)))])
            if t % 3:
                continue
            native_state = NativeGameState.from_python(python_state)
            for side in ("blue", "red"):
                want = encoder.encode(python_state, side)
                got = native_encoder.encode(native_state, side)
                _assert_same({k: v[None] for k, v in got.items()}, [want], f"{seed}/{t} {side}")
                reach += float(got["pairs"][..., encoder.pair_features.index("charge_reach")].sum())
                checked += 1
    assert checked >= 40 and reach > 0


def test_sb3_vec_env_entity_smoke():
    from riven_training.vec_env import RivenSB3VecEnv

    env = RivenSB3VecEnv(
        4,
        scenario="skirmish-5v5-mirror",
        engine="native",
        obs_mode="entity",
        opponent="oracle:tactical",
        backend="batched",
    )
    assert env.venv.backend == "batched"
    env.seed(5)
    obs = env.reset()
    assert set(obs) == set(KEYS)
    rng = np.random.default_rng(1)
    terminal = 0
    for _ in range(200):
        env.step_async(_random_actions(env.action_masks(), rng))
        obs, _, dones, infos = env.step_wait()
        for k in np.flatnonzero(dones):
            last = infos[k]["terminal_observation"]
            assert set(last) == set(KEYS)
            for key in KEYS:
                assert last[key].shape == env.observation_space[key].shape
            terminal += 1
        assert obs["pairs"].shape == (4, *env.observation_space["pairs"].shape)
    assert terminal > 0
    env.close()


@pytest.mark.parametrize("obs_mode", ["entity", "flat"])
def test_a_ppo_agent_plays_native_games_through_the_core_encoders(obs_mode):
    """``ppo:PATH`` on a native game reads the native state with the core's twin of its
    encoder (no Python view per decision), and decides as it does on the Python engine."""
    pytest.importorskip("sb3_contrib")
    import torch
    from riven_agents.ppo import PPOAgent
    from riven_agents.registry import make_agent
    from riven_training.train import encoding_metadata
    from sb3_contrib import MaskablePPO

    from riven_env.engines import new_game
    from riven_env.envs.gym_env import RivenSkirmishEnv
    from riven_env.envs.native_obs import NativeEntityEncoder, NativeFlatEncoder
    from riven_env.game.runner import play

    mission = "skirmish-5v5-mirror"
    env = RivenSkirmishEnv(mission, "random", obs_mode=obs_mode)
    policy = "MultiInputPolicy" if obs_mode == "entity" else "MlpPolicy"
    model = MaskablePPO(
        policy, env, n_steps=64, batch_size=64, n_epochs=1, device="cpu", seed=3,
        policy_kwargs={"net_arch": {"pi": [32], "vf": [32]}, "activation_fn": torch.nn.ReLU},
    )  # fmt: skip
    model.learn(64)
    metadata = encoding_metadata(env, mission)
    twin = NativeEntityEncoder if obs_mode == "entity" else NativeFlatEncoder
    for seed in (4, 11):
        logs = []
        for engine in ("python", "native"):
            agent = PPOAgent.from_model(model, "blue", metadata)
            state = new_game(mission, seed, engine=engine)
            logs.append(play(state, {"blue": agent, "red": make_agent("random", "red", seed)}))
            twins = list(agent._twins.values())
            assert all(isinstance(t, twin) for t in twins) and len(twins) == (engine == "native")
        assert logs[0] == logs[1] and len(logs[0]) > 20
