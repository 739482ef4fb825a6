"""Policy files: safetensors + JSON sidecar load without unpickling; pickle zips need opt-in."""

from __future__ import annotations

import base64
import json
import pathlib
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("safetensors")

ROOT = Path(__file__).resolve().parents[1]


class _WritesAFile:
    """Unpickling this writes a file: what a hostile model zip can do."""

    def __init__(self, target: Path) -> None:
        self.target = target

    def __reduce__(self):
        return (pathlib.Path.write_text, (pathlib.Path(self.target), "pwned"))


def crafted_zip(path: Path, target: Path) -> Path:
    """A stable-baselines3-style zip whose ``data`` holds a payload pickle."""
    payload = base64.b64encode(pickle.dumps(_WritesAFile(target))).decode()
    data = {"observation_space": {":type:": "<class 'x'>", ":serialized:": payload}}
    with zipfile.ZipFile(path, "w") as handle:
        handle.writestr("data", json.dumps(data))
        handle.writestr("_stable_baselines3_version", "2.3.0")
    return path


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A MaskablePPO model after one small update, for each observation mode."""
    import torch
    from sb3_contrib import MaskablePPO

    from riven_env.envs.gym_env import RivenSkirmishEnv

    made = {}
    for mode, policy in (("flat", "MlpPolicy"), ("dict", "MultiInputPolicy")):
        env = RivenSkirmishEnv("duel-1v1", "random", obs_mode=mode)
        model = MaskablePPO(
            policy, env, n_steps=64, batch_size=64, n_epochs=1, device="cpu", seed=1,
            policy_kwargs={"net_arch": {"pi": [32], "vf": [32]}, "activation_fn": torch.nn.ReLU},
        )  # fmt: skip
        model.learn(64)
        made[mode] = (model, env)
    return made


@pytest.mark.parametrize("mode", ["flat", "dict"])
def test_round_trip_gives_identical_actions(trained, tmp_path: Path, mode: str) -> None:
    from riven_agents.policy_file import load_policy, read_sidecar
    from riven_agents.ppo import PPOAgent
    from riven_agents.registry import make_agent
    from riven_training.train import encoding_metadata, save_model

    from riven_env.engines import new_game
    from riven_env.game.runner import play

    model, env = trained[mode]
    path = save_model(model, tmp_path / "final", encoding_metadata(env, "duel-1v1"))
    assert path.name == "final.safetensors" and (tmp_path / "final.json").exists()
    doc = read_sidecar(path)
    assert doc["policy_settings"]["activation_fn"] == "ReLU" and doc["num_timesteps"] == 64
    policy, _ = load_policy(path)
    obs, _ = env.reset(seed=5)
    for _ in range(60):
        mask = env.action_masks()
        live, _ = model.predict(obs, deterministic=True, action_masks=mask)
        loaded, _ = policy.predict(obs, deterministic=True, action_masks=mask)
        assert int(live) == int(loaded)
        obs, _, done, cut, _ = env.step(int(live))
        if done or cut:
            obs, _ = env.reset()
    # Whole games: the file agent and the live model decide alike, decision by decision.
    for seed in (1, 2):
        logs = []
        for make in (
            lambda side: make_agent(f"ppo:{tmp_path}", side, 0),  # a folder means its final
            lambda side: PPOAgent.from_model(model, side, encoding_metadata(env, "duel-1v1")),
        ):
            state = new_game("duel-1v1", seed)
            logs.append(play(state, {"blue": make("blue"), "red": make_agent("random", "red", 3)}))
        assert logs[0] == logs[1]


def test_loading_reads_no_pickle(trained, tmp_path: Path, monkeypatch) -> None:
    from riven_agents.policy_file import load_policy
    from riven_training.train import encoding_metadata, save_model

    model, env = trained["flat"]
    path = save_model(model, tmp_path / "p", encoding_metadata(env, "duel-1v1"))

    def refuse(*args, **kwargs):
        raise AssertionError("a pickle was read")

    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    import torch

    monkeypatch.setattr(torch, "load", refuse)
    policy, _ = load_policy(path)
    assert policy.action_space.n == env.action_space.n


def test_a_sidecar_cannot_name_a_class_outside_the_allow_list(trained, tmp_path: Path) -> None:
    from riven_agents.policy_file import load_policy
    from riven_training.train import encoding_metadata, save_model

    from riven_env.errors import AgentSpecError

    model, env = trained["flat"]
    path = save_model(model, tmp_path / "p", encoding_metadata(env, "duel-1v1"))
    sidecar = tmp_path / "p.json"
    doc = json.loads(sidecar.read_text(encoding="utf-8"))
    doc["policy_settings"]["activation_fn"] = "os.system"
    sidecar.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(AgentSpecError, match="activation_fn = 'os.system' is not allowed"):
        load_policy(path)
    doc["policy_settings"]["activation_fn"] = "ReLU"
    doc["policy_class"] = "builtins.eval"
    sidecar.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(AgentSpecError, match="policy_class 'builtins.eval' is not allowed"):
        load_policy(path)
    sidecar.unlink()
    with pytest.raises(AgentSpecError, match="sidecar p.json is missing"):
        load_policy(path)


def test_a_crafted_pickle_zip_is_refused_and_runs_nothing(tmp_path: Path) -> None:
    from riven_agents.registry import make_agent

    from riven_env.errors import AgentSpecError

    target = tmp_path / "written-by-the-model"
    model = crafted_zip(tmp_path / "evil.zip", target)
    for spec in (f"ppo:{model}", f"ppo:{tmp_path / 'evil'}"):
        with pytest.raises(AgentSpecError, match=r"pickle-based .* ppo\+pickle:"):
            make_agent(spec, "blue", 0)
    cli = subprocess.run(
        [sys.executable, "-m", "riven_env.cli.main", "play", "--scenario", "duel-1v1",
         "--blue", f"ppo:{model}", "--red", "random"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert cli.returncode == 2 and cli.stderr.startswith("error: ") and "ppo+pickle:" in cli.stderr
    # Nor does training resume from it, or play against it, without the opt-in.
    from riven_training.train import TrainRun, check_inputs

    from riven_env.errors import RivenError

    for run in (
        TrainRun("duel-1v1", "random", 64, 1, tmp_path / "out", resume=model),
        TrainRun("duel-1v1", f"ppo:{model}", 64, 1, tmp_path / "out"),
    ):
        with pytest.raises(RivenError, match=r"pickle-based .* ppo\+pickle:"):
            check_inputs(run)
    assert not target.exists()


def test_the_pickle_opt_in_warns_at_the_moment_it_loads(tmp_path: Path, capfd) -> None:
    from riven_agents.registry import make_agent

    from riven_env.errors import AgentSpecError

    target = tmp_path / "written-by-the-model"
    model = crafted_zip(tmp_path / "evil.zip", target)
    # The agent spec loads the model at once, so a damaged file is refused where it is named.
    with pytest.raises(AgentSpecError, match="cannot load the model zip"):
        make_agent(f"ppo+pickle:{model}", "blue", 0)
    err = capfd.readouterr().err
    assert err.startswith("warning: loading pickle-based model") and "arbitrary code" in err
    assert target.exists()  # the opt-in is real: this is exactly what it warns about


def test_policy_file_errors_name_the_file(tmp_path: Path) -> None:
    from riven_agents.registry import make_agent

    from riven_env.errors import AgentSpecError

    with pytest.raises(AgentSpecError, match="does not exist"):
        make_agent(f"ppo:{tmp_path / 'none'}", "blue", 0)
    with pytest.raises(AgentSpecError, match="is a directory without final.safetensors"):
        make_agent(f"ppo:{tmp_path}", "blue", 0)
    (tmp_path / "broken.safetensors").write_bytes(b"\x00" * 10)
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(AgentSpecError, match="broken.json: not a readable JSON sidecar"):
        make_agent(f"ppo:{tmp_path / 'broken'}", "blue", 0)


def test_spaces_round_trip_through_json() -> None:
    from gymnasium import spaces
    from riven_agents.policy_file import space_from_json, space_to_json

    space = spaces.Dict(
        {
            "a": spaces.Box(-np.inf, np.inf, (3,), np.float32),
            "b": spaces.Box(np.array([0.0, -1.0]), np.array([1.0, 2.0]), dtype=np.float64),
            "c": spaces.Discrete(7, start=1),
            "d": spaces.MultiDiscrete([2, 3]),
            "e": spaces.MultiBinary(4),
        }
    )
    data = json.loads(json.dumps(space_to_json(space), allow_nan=False))
    assert space_from_json(data) == space
