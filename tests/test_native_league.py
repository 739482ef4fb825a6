"""A league on the native batch (issue 17): PFSP opponent pools and several missions per batch.

:class:`~riven_training.vec_env.RivenSB3VecEnv` deals its games to the missions (one native
batch each, padded alike) and draws each game's opponent per episode from an
:class:`~riven_env.envs.opponents.OpponentPool` of the specs the core plays, so a league of
every Oracle profile and random (``selfplay.pool_size = 0``) trains without leaving the batch.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")

pytest.importorskip("stable_baselines3")

_MISSIONS = ["duel-1v1", "skirmish-5v5-mirror"]
_POOL = ["random", "oracle:tactical", "oracle:beast"]


def _venv(games: int = 4, missions=None, weights=None, seed: int = 11):
    from riven_training.vec_env import RivenSB3VecEnv

    from riven_env.envs.opponents import OpponentPool

    venv = RivenSB3VecEnv(
        games,
        scenario=missions or _MISSIONS,
        opponent=OpponentPool(list(_POOL), weights or [1.0, 1.0, 1.0]),
        engine="native",
        learner_side="random",
        obs_mode="flat",
        backend="batched",
    )
    venv.seed(seed)
    return venv


def _play(venv, steps: int, check=None) -> tuple[list[tuple], list[np.ndarray]]:
    rng = np.random.default_rng(0)
    finished, observations = [], [venv.reset()]
    for _ in range(steps):
        masks = venv.action_masks()
        venv.step_async(np.array([rng.choice(np.flatnonzero(row)) for row in masks]))
        obs, _, dones, infos = venv.step_wait()
        observations.append(obs)
        for k in np.flatnonzero(dones):
            info = infos[k]
            finished.append(
                (int(k), info["opponent"], info["learner_side"], info["result"]["winner"])
            )
        if check is not None:
            check(venv)
    return finished, observations


def _running_opponents_agree(venv) -> None:
    # The spec the adapter reports for each running game is the one the core plays it with.
    k = 0
    for block in venv.blocks:
        for j in range(block.num_envs):
            assert block._batch.oracle_opponent(j) == (venv._current[k] != "random"), k
            k += 1


def test_pool_opponents_are_the_ones_that_play_and_every_member_is_drawn() -> None:
    venv = _venv()
    finished, _ = _play(venv, 1500, check=_running_opponents_agree)
    assert len(finished) > 60
    drawn = Counter(opponent for _, opponent, _, _ in finished)
    assert set(drawn) == set(_POOL)
    assert {side for _, _, side, _ in finished} == {"blue", "red"}
    assert {winner for *_, winner in finished} <= {"blue", "red", None}
    # Games 0-1 play duel-1v1, games 2-3 the mirror mission: two native batches.
    assert [block.num_envs for block in venv.blocks] == [2, 2]
    venv.close()


def test_the_same_seed_gives_the_same_draws_and_games() -> None:
    first, obs_a = _play(_venv(seed=5), 400)
    second, obs_b = _play(_venv(seed=5), 400)
    assert first == second
    assert all(np.array_equal(a, b) for a, b in zip(obs_a, obs_b, strict=True))
    other, _ = _play(_venv(seed=6), 400)
    assert other != first


def test_new_weights_reach_the_next_games() -> None:
    from riven_env.envs.opponents import OpponentPool

    venv = _venv(weights=[1.0, 0.0, 0.0])  # random only
    finished, _ = _play(venv, 300)
    assert {opponent for _, opponent, _, _ in finished} == {"random"}
    venv.env_method("set_opponent", OpponentPool(list(_POOL), [0.0, 0.0, 1.0]))
    rng = np.random.default_rng(1)
    later = []
    for _ in range(1500):
        venv.step_async(np.array([rng.choice(np.flatnonzero(r)) for r in venv.action_masks()]))
        _, _, dones, infos = venv.step_wait()
        later += [infos[k]["opponent"] for k in np.flatnonzero(dones)]
    # Each game's next game was already drawn: at most one more random game per game.
    assert Counter(later)["random"] <= venv.num_envs
    assert Counter(later)["oracle:beast"] > 20
    venv.close()


def test_missions_share_one_padded_observation_space() -> None:
    from riven_env.envs.gym_env import RivenSkirmishEnv

    venv = _venv(games=3, missions=["duel-1v1", "skirmish-5v5-mirror", "generated:ruins:3"])
    single = RivenSkirmishEnv(
        ["duel-1v1", "skirmish-5v5-mirror", "generated:ruins:3"], obs_mode="flat"
    )
    assert venv.observation_space == single.observation_space
    assert venv.action_space == single.action_space
    assert venv.reset().shape == (3, *single.observation_space.shape)
    venv.close()


def test_refusals_name_what_the_batch_plays() -> None:
    from riven_training.vec_env import RivenSB3VecEnv

    from riven_env.envs.gym_env import EnvArgumentError
    from riven_env.envs.opponents import OpponentPool

    snapshot = "ppo:runs/a/snapshots/step_0.safetensors"
    with pytest.raises(EnvArgumentError, match="opponent pool members .*step_0"):
        RivenSB3VecEnv(
            2, scenario="duel-1v1", opponent=OpponentPool([snapshot, "random"]),
            engine="native", backend="batched",
        )  # fmt: skip
    with pytest.raises(EnvArgumentError, match="num_envs=1 for 2 missions"):
        RivenSB3VecEnv(1, scenario=_MISSIONS, engine="native", backend="batched")
    venv = _venv()
    with pytest.raises(EnvArgumentError, match="set_opponent: opponent pool members"):
        venv.env_method("set_opponent", OpponentPool([snapshot]))
    venv.close()


def test_a_league_without_snapshots_trains_on_the_batch(tmp_path, monkeypatch) -> None:
    from riven_training import train as train_module
    from riven_training.hyperparams import load_train_config
    from riven_training.league import League
    from riven_training.train import TrainRun, train
    from riven_training.vec_env import RivenSB3VecEnv

    monkeypatch.setenv("RIVEN_ENGINE", "native")
    built, recorded = [], []
    build = train_module.build_vec_env
    monkeypatch.setattr(
        train_module,
        "build_vec_env",
        lambda run, opponent: built.append(build(run, opponent)) or built[-1],
    )
    record = League.record
    monkeypatch.setattr(
        League, "record", lambda self, info: recorded.append(info) or record(self, info)
    )
    config = load_train_config(
        None,
        [
            'env.missions=["duel-1v1", "skirmish-5v5-mirror"]',
            'env.learner_side="random"',
            "ppo.n_steps=64",
            "ppo.batch_size=64",
            "ppo.n_epochs=1",
            "policy.net_arch=[16, 16]",
            "train.eval_every=0",
            "train.checkpoint_every=0",
            'train.vec_env="batched"',
            "selfplay.pool_size=0",
            "league.holdout_games=0",
        ],
    )
    out = tmp_path / "league"
    run = TrainRun("duel-1v1", "random", 512, 4, out, seed=3, league=True, config=config)
    assert train(run).is_file()
    assert isinstance(built[0], RivenSB3VecEnv) and len(built[0].blocks) == 2
    assert not (out / "snapshots").exists()
    assert recorded and all(info["opponent"] != "?" for info in recorded)
    assert {info["opponent"].split(":")[0] for info in recorded} <= {"oracle", "random"}


def test_a_league_pads_its_encoding_for_the_held_out_missions() -> None:
    # The held-out missions are played by the trained policy: its encoding must fit them
    # (generated:ruins:9002 has 3 objectives, the training missions 1).
    from riven_training.hyperparams import load_train_config
    from riven_training.train import TrainRun, run_padding

    config = load_train_config(
        None,
        [
            'env.missions=["duel-1v1", "skirmish-5v5-mirror"]',
            'league.holdout_missions=["generated:ruins:9002"]',
        ],
    )
    run = TrainRun("duel-1v1", "random", 64, 2, None, league=True, config=config)
    assert run_padding(run) == {"models_per_side": 5, "objectives": 3}
    run.league = False
    assert run_padding(run) == {}
