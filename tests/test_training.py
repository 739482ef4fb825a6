"""Training plumbing: config, evaluation statistics, self-play pool, PPO agent, resume, CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
import typer
from riven_training.evaluate import MatchResult, play_match, wilson_interval
from riven_training.hyperparams import TrainConfigError, load_train_config, parse_set
from riven_training.selfplay import SelfPlayPool
from typer.testing import CliRunner

from riven_env.envs.opponents import OpponentPool


def test_config_overrides_are_typed_and_checked(tmp_path) -> None:
    config = load_train_config(overrides=["ppo.n_steps=64", "policy.net_arch=[32, 32]"])
    assert config["ppo"]["n_steps"] == 64 and config["policy"]["net_arch"] == [32, 32]
    assert load_train_config(overrides=["ppo.learning_rate=1"])["ppo"]["learning_rate"] == 1.0
    with pytest.raises(TrainConfigError, match=r"ppo\.n_steps = 'many'"):
        load_train_config(overrides=["ppo.n_steps=many"])
    with pytest.raises(TrainConfigError, match=r"unknown key ppo\.speed"):
        load_train_config(overrides=["ppo.speed=3"])
    with pytest.raises(TrainConfigError, match="policy.activation = 'sigmoid'"):
        load_train_config(overrides=['policy.activation="sigmoid"'])
    user = tmp_path / "mine.toml"
    user.write_text("[train]\neval_games = 7\n", encoding="utf-8")
    assert load_train_config(user)["train"]["eval_games"] == 7
    with pytest.raises(TrainConfigError, match="expected SECTION.KEY=VALUE"):
        parse_set(["n_steps"])


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    result = MatchResult(10, 6, 1, 3)
    assert result.rate_and_interval("wins")[0] == 0.6
    assert (result + result).games == 20


def test_play_match_is_reproducible_and_independent_of_workers() -> None:
    one = play_match("duel-1v1", "random", "random", 6, seed=4)
    again = play_match("duel-1v1", "random", "random", 6, seed=4)
    split = play_match("duel-1v1", "random", "random", 6, seed=4, workers=2)
    assert one == again == split
    assert one.wins + one.draws + one.losses == 6


def test_selfplay_pool_keeps_recent_snapshots_and_counts_results() -> None:
    pool = SelfPlayPool("oracle", pool_size=2, include_opponent=True, opponent_weight=2.0)
    assert pool.pool().specs == ["oracle"]
    for step in (0, 100, 200):
        pool.add_snapshot(f"runs/x/snapshots/step_{step}.zip")
    current = pool.pool()
    assert current.specs == [
        "ppo:runs/x/snapshots/step_100.zip",
        "ppo:runs/x/snapshots/step_200.zip",
        "oracle",
    ]
    assert current.weights == [1.0, 1.0, 2.0]
    drawn = {current.draw(np.random.default_rng(s)) for s in range(50)}
    assert drawn == set(current.specs)
    win = {"result": {"winner": "blue"}, "learner_side": "blue", "opponent": current.specs[0]}
    loss = {"result": {"winner": "red"}, "learner_side": "blue", "opponent": "oracle"}
    for info in (win, win, loss):
        pool.record(info)
    assert pool.win_rates() == {"step_100": (1.0, 2), "oracle": (0.0, 1)}
    assert pool.win_rates() == {}
    with pytest.raises(Exception, match="at least one"):
        OpponentPool([])


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A few hundred timesteps of training on the duel (in-process envs)."""
    from riven_training.train import TrainRun, train

    out = tmp_path_factory.mktemp("run")
    config = load_train_config(
        overrides=[
            "ppo.n_steps=64",
            "ppo.batch_size=64",
            "ppo.n_epochs=1",
            "train.eval_every=128",
            "train.eval_games=2",
            "train.checkpoint_every=128",
            "train.vec_env=dummy",
            "selfplay.snapshot_every=128",
        ]
    )
    run = TrainRun("duel-1v1", "random", 256, 2, out, seed=3, config=config, self_play=True)
    return run, train(run)


def test_training_writes_checkpoints_snapshots_evaluations_and_a_usable_agent(tiny_run) -> None:
    from riven_agents.registry import make_agent

    from riven_env.engines import new_game
    from riven_env.game.runner import play

    run, final = tiny_run
    out = run.out
    assert final == out / "final.safetensors" and (out / "final.json").exists()
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == [
        "step_128.json",
        "step_128.safetensors",
        "step_256.json",
        "step_256.safetensors",
    ]
    assert (out / "snapshots" / "step_0.safetensors").exists()
    rows = (out / "eval.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("timesteps,opponent") and len(rows) == 4  # steps 0, 128, 256
    assert any((out / "tb").rglob("events.out.tfevents*"))
    meta = json.loads((out / "final.json").read_text(encoding="utf-8"))["encoding"]
    assert meta["scenario"] == "duel-1v1" and meta["obs_mode"] == "flat"
    agents = {
        side: make_agent(f"ppo:{final}", side, [1, k]) for k, side in enumerate(("blue", "red"))
    }
    state = new_game("duel-1v1", 1)
    play(state, agents)
    assert state.is_terminal


def test_training_writes_where_its_time_went(tiny_run) -> None:
    # Issue 13: the split between the environments and the update, measured by the run.
    run, _ = tiny_run
    split = json.loads((run.out / "timing.json").read_text(encoding="utf-8"))
    assert split["timesteps"] == 256 and split["timesteps_per_s"] > 0
    seconds = split["seconds"]
    assert set(seconds) == {"env", "policy", "update", "housekeeping"}
    assert all(v >= 0 for v in seconds.values())
    # Steps and updates both happened, evaluations ran as housekeeping, and the parts add
    # up to the wall time (the rest is SB3's own setup between the callback's hooks).
    assert seconds["env"] > 0 and seconds["update"] > 0 and seconds["housekeeping"] > 0
    # timing.json rounds each figure to the millisecond: four parts may add up to 2 ms more.
    rounding = 0.0005 * (len(seconds) + 1)
    assert sum(seconds.values()) <= split["wall_s"] * 1.001 + rounding
    assert sum(seconds.values()) >= split["wall_s"] * 0.9 - rounding


def test_time_split_counts_each_part_once() -> None:
    from riven_training.timing import TimeSplit

    split = TimeSplit()
    split.training_start(100)
    split.rollout_start()
    split.env_s += 0.0  # a wrapped VecEnv adds here
    with split.housekeeping():
        pass
    split.rollout_end()
    split.training_end(164)
    data = split.to_dict()
    assert data["timesteps"] == 64
    assert "time split: 64 timesteps" in split.line() and "update" in split.line()


def test_resume_continues_the_timestep_count(tiny_run) -> None:
    from riven_agents.policy_file import read_sidecar
    from riven_training.train import TrainRun, train
    from safetensors.torch import load_file

    run, final = tiny_run
    config = dict(run.config)
    config["train"] = {**config["train"], "eval_every": 0}
    resumed = TrainRun(
        "duel-1v1", "random", 64, 1, run.out / "resumed", seed=3, config=config, resume=final
    )
    path = train(resumed)
    assert read_sidecar(path)["num_timesteps"] >= 256 + 64
    # The optimizer's moments travel with the weights, so a resumed run continues Adam.
    assert any(k.startswith("optimizer.state.") for k in load_file(str(path)))


def test_ppo_agent_refuses_a_scenario_it_was_not_trained_for(tiny_run) -> None:
    from riven_agents.registry import make_agent

    from riven_env.engines import new_game
    from riven_env.errors import AgentSpecError

    _, final = tiny_run
    agent = make_agent(f"ppo:{final}", "blue", 0)
    state = new_game("skirmish-5v5", 0)
    with pytest.raises(AgentSpecError, match="cannot encode scenario 'skirmish-5v5'"):
        agent.act(state, state.legal_decisions())
    # Padded to the bigger scenario's sizes, the encoding fits but the model's input does not.
    padded = make_agent(f"ppo:{final}", "blue", 0)
    largest = max(len(state.scenario.sides[side].models) for side in ("blue", "red"))
    padded.metadata.update(models_per_side=largest, objectives=1)
    with pytest.raises(AgentSpecError, match="was trained for observations"):
        padded.act(state, state.legal_decisions())
    with pytest.raises(AgentSpecError, match="does not exist"):
        make_agent("ppo:no/such/model.safetensors", "blue", 0)


def test_cli_eval_prints_rates_with_intervals() -> None:
    from riven_env.cli.train import register

    app = typer.Typer()
    register(app)
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["eval", "--scenario", "duel-1v1", "--blue", "random", "--red", "random", "--games", "4"],
    )
    assert result.exit_code == 0, result.output
    assert "blue wins" in result.output and "95% CI" in result.output
    as_json = runner.invoke(
        app,
        [
            "eval",
            "--scenario",
            "duel-1v1",
            "--blue",
            "random",
            "--red",
            "random",
            "--games",
            "4",
            "--json",
        ],
    )
    data = json.loads(as_json.output)
    assert data["games"] == 4 and len(data["wins"]["ci95"]) == 2
    bad = runner.invoke(
        app, ["train", "--scenario", "duel-1v1", "--set", "ppo.n_steps=lots", "--out", "/tmp/never"]
    )
    assert bad.exit_code == 2 and "ppo.n_steps" in bad.output


def test_evaluation_of_a_live_policy_is_the_same_on_workers_and_shows_progress(
    tiny_run, capsys, monkeypatch
) -> None:
    import functools

    from riven_agents.policy_file import load_policy
    from riven_training.evaluate import evaluate_agent
    from riven_training.train import live_subject

    _, final = tiny_run
    policy, doc = load_policy(final)
    subject = functools.partial(live_subject, policy, doc["encoding"])
    here = evaluate_agent("duel-1v1", subject, "random", 4, seed=9)
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    spread = evaluate_agent("duel-1v1", subject, "random", 4, seed=9, workers=2, progress=True)
    assert here == spread and here.games == 4
    err = capsys.readouterr().err
    assert "vs random" in err and "4/4" in err
