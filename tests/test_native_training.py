"""``riven train`` on the native batch (issue 13): one native call steps every training
environment, and the run learns exactly what it learns on N Python environments.

With the same seed the batch (:class:`~riven_training.vec_env.RivenSB3VecEnv`, chosen by
``train.vec_env = "auto"`` on the native engine) gives MaskablePPO the observations, masks,
rewards and episode ends the Python engine's ``DummyVecEnv`` gives it, so the trained weights
are equal tensor for tensor. Runs the batch cannot train (a self-play pool of policy
snapshots, several missions, the Python engine) keep one environment per process, and
``train.vec_env = "batched"`` refuses them in one line.
"""

from __future__ import annotations

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")

pytest.importorskip("sb3_contrib")

_TINY = [
    "ppo.n_steps=64",
    "ppo.batch_size=64",
    "ppo.n_epochs=1",
    "train.eval_every=0",
    "train.checkpoint_every=0",
    "policy.net_arch=[32, 32]",
]


def _run(tmp_path, name: str, opponent: str, extra: list[str]):
    from riven_training.hyperparams import load_train_config
    from riven_training.train import TrainRun

    config = load_train_config(overrides=[*_TINY, *extra])
    return TrainRun("duel-1v1", opponent, 256, 2, tmp_path / name, seed=5, config=config)


@pytest.mark.parametrize("opponent", ["random", "oracle"])
def test_training_on_the_batch_learns_what_python_envs_learn(
    tmp_path, monkeypatch, opponent: str
) -> None:
    from riven_training.train import build_vec_env, train
    from riven_training.vec_env import RivenSB3VecEnv
    from safetensors.torch import load_file

    weights = {}
    for engine, vec_env in (("native", "auto"), ("python", "dummy")):
        monkeypatch.setenv("RIVEN_ENGINE", engine)
        run = _run(tmp_path, engine, opponent, [f'train.vec_env="{vec_env}"'])
        if engine == "native":
            built = build_vec_env(run, opponent)
            assert isinstance(built, RivenSB3VecEnv) and built.venv.backend == "batched"
            built.close()
        weights[engine] = load_file(str(train(run)))
    assert weights["native"].keys() == weights["python"].keys()
    for key, tensor in weights["python"].items():
        assert weights["native"][key].equal(tensor), key


def test_runs_the_batch_cannot_train_keep_python_envs(tmp_path, monkeypatch) -> None:
    from riven_training.train import batched_refusal, build_vec_env
    from riven_training.vec_env import RivenSB3VecEnv

    from riven_env.envs.opponents import OpponentPool
    from riven_env.errors import RivenError

    monkeypatch.setenv("RIVEN_ENGINE", "native")
    run = _run(tmp_path, "x", "random", ['train.vec_env="batched"'])
    assert batched_refusal(run, "oracle:cautious") is None
    pool = OpponentPool(["ppo:runs/a/snapshots/step_0.safetensors", "oracle"])
    assert "ppo:runs/a/snapshots/step_0.safetensors" in batched_refusal(run, pool)
    with pytest.raises(
        RivenError, match=r"train.vec_env = 'batched' cannot train with opponent pool"
    ):
        build_vec_env(run, pool)
    # A pool of opponents the core plays trains on the batch (a league without snapshots).
    assert batched_refusal(run, OpponentPool(["oracle:beast", "random"])) is None
    # Several missions: one batch each, at least one environment per mission.
    missions = ['env.missions=["duel-1v1", "skirmish-5v5", "open-field"]']
    assert "--envs 2 for env.missions" in batched_refusal(
        _run(tmp_path, "y", "random", missions), "random"
    )
    # Self-play and leagues with snapshots keep Python envs.
    snapshots = _run(tmp_path, "v", "random", [])
    snapshots.self_play = True
    assert "selfplay.pool_size = 5" in batched_refusal(snapshots, "random")
    monkeypatch.setenv("RIVEN_ENGINE", "python")
    auto = _run(tmp_path, "z", "random", ['train.vec_env="auto"'])
    assert "engine='python'" in batched_refusal(auto, "random")
    fallback = build_vec_env(_run(tmp_path, "w", "random", ['train.vec_env="dummy"']), "random")
    assert not isinstance(fallback, RivenSB3VecEnv)
    fallback.close()


def test_self_play_on_the_native_engine_plays_its_snapshot_pool(tmp_path, monkeypatch) -> None:
    # The pool (snapshots plus the Oracle) reaches every env through env_method("set_opponent");
    # on the native engine the envs stay Python ones (the batch plays no policy), each env's
    # episode drawing a pool member and playing it on the native state.
    from riven_training.hyperparams import load_train_config
    from riven_training.train import TrainRun, train

    monkeypatch.setenv("RIVEN_ENGINE", "native")
    config = load_train_config(overrides=[*_TINY, "selfplay.snapshot_every=64"])
    out = tmp_path / "selfplay"
    run = TrainRun("duel-1v1", "oracle", 192, 1, out, seed=2, config=config, self_play=True)
    assert train(run).is_file()
    assert len(list((out / "snapshots").glob("*.safetensors"))) >= 2
