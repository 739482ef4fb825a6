"""The entity policy (riven_agents.entity_policy), PFSP league weights and league training."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from riven_agents.entity_policy import EntityPolicy, entity_policy_kwargs  # noqa: E402
from riven_training.league import League, league_opponents, pfsp_weight  # noqa: E402

from riven_env.envs.gym_env import RivenSkirmishEnv  # noqa: E402
from riven_env.errors import RivenError  # noqa: E402

SETTINGS = {"d_model": 16, "attention_heads": 2, "attention_layers": 1}


def _policy(env: RivenSkirmishEnv) -> EntityPolicy:
    torch.manual_seed(0)
    return EntityPolicy(
        env.observation_space,
        env.action_space,
        lambda _progress: 1e-3,
        **entity_policy_kwargs(env, SETTINGS),
    )


def _batch(env: RivenSkirmishEnv, count: int, seed: int) -> list[dict]:
    """``count`` observations along a random game (and the next ones)."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        out.append(obs)
        mask = obs["action_mask"].astype(bool)
        obs, _, done, cut, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if done or cut:
            obs, _ = env.reset()
    return out


def _stack(observations: list[dict]) -> dict[str, torch.Tensor]:
    return {k: torch.as_tensor(np.stack([o[k] for o in observations])) for k in observations[0]}


def test_forward_scales_with_unit_count_and_respects_the_mask() -> None:
    """One set of weights runs on a duel (1 model a side) and a 6-slot padding of a 5v5,
    in batches whose rows hold different numbers of models; illegal actions get 0."""
    duel = RivenSkirmishEnv("duel-1v1", "random", obs_mode="entity", learner_side="random")
    wide = RivenSkirmishEnv(
        ["skirmish-5v5", "duel-1v1"],
        "random",
        obs_mode="entity",
        models_per_side=6,
        learner_side="random",
    )
    small, large = _policy(duel), _policy(wide)
    # No weight depends on the padding: the duel policy's weights load into the 6-slot one.
    large.load_state_dict(small.state_dict(), strict=True)
    for env, policy in ((duel, small), (wide, large)):
        observations = _batch(env, 12, seed=3)
        present = {int(o["models"][:, 0].sum()) for o in observations}
        if env is wide:
            assert len(present) > 1  # a 5v5 and a duel row in one batch
        obs = _stack(observations)
        masks = obs["action_mask"].numpy().astype(bool)
        with torch.no_grad():
            dist = policy.get_distribution(policy.obs_to_tensor(
                {k: v.numpy() for k, v in obs.items()}
            )[0], action_masks=masks)  # fmt: skip
            values = policy.predict_values(policy.obs_to_tensor(
                {k: v.numpy() for k, v in obs.items()}
            )[0])  # fmt: skip
        probs = dist.distribution.probs.numpy()
        assert probs.shape == (12, env.action_space.n)
        assert np.allclose(probs.sum(1), 1.0, atol=1e-5)
        assert probs[~masks].max(initial=0.0) < 1e-6
        assert values.shape == (12, 1) and torch.isfinite(values).all()


def test_untrained_policy_gives_each_legal_kind_a_fair_share() -> None:
    """The kind-then-target factorisation: a charge is not drowned by a dozen moves."""
    env = RivenSkirmishEnv("skirmish-5v5", "oracle", obs_mode="entity")
    policy = _policy(env)
    labels = env.catalogue.labels
    found = False
    for o in _batch(env, 300, seed=1):
        mask = o["action_mask"].astype(bool)
        kinds = {labels[i].split()[0] for i in np.flatnonzero(mask)}
        if "charge" not in kinds or "move" not in kinds:
            continue
        with torch.no_grad():
            probs = policy.get_distribution(
                policy.obs_to_tensor(o)[0], action_masks=mask[None]
            ).distribution.probs[0]
        charge = sum(
            float(probs[i]) for i in np.flatnonzero(mask) if labels[i].startswith("charge")
        )
        # Near 1 / (legal kinds) rather than (charge entries) / (legal entries).
        assert charge > 0.5 / len(kinds)
        found = True
        break
    assert found
    # Giving up stays one entry among many: pass (ends the turn) and end (ends the
    # activation) are not groups of their own, which would cost half the turns.
    passes = []
    for o in _batch(env, 60, seed=2):
        mask = o["action_mask"].astype(bool)
        legal = [labels[i] for i in np.flatnonzero(mask)]
        if "pass" in legal and len(legal) > 4:
            with torch.no_grad():
                probs = policy.get_distribution(
                    policy.obs_to_tensor(o)[0], action_masks=mask[None]
                ).distribution.probs[0]
            passes.append(float(probs[labels.index("pass")]) * len(legal))
    assert passes and max(passes) < 2.0  # about a uniform entry's share


def test_deterministic_action_is_the_likeliest_kind_then_its_likeliest_entry() -> None:
    env = RivenSkirmishEnv("skirmish-5v5", "oracle", obs_mode="entity")
    policy = _policy(env)
    groups = policy.mlp_extractor.groups.numpy()
    for o in _batch(env, 40, seed=6):
        mask = o["action_mask"].astype(bool)
        obs = policy.obs_to_tensor(o)[0]
        with torch.no_grad():
            probs = policy.get_distribution(obs, action_masks=mask[None]).distribution.probs
            action = int(policy._predict(obs, deterministic=True, action_masks=mask[None])[0])
        probs = probs[0].numpy()
        mass = np.bincount(groups, weights=probs, minlength=groups.max() + 1)
        assert mask[action] and groups[action] == int(mass.argmax())
        inside = np.where(groups == groups[action], probs, -1.0)
        assert action == int(inside.argmax())


def test_pfsp_weights_favour_the_opponents_it_loses_to() -> None:
    settings = {
        "pfsp": "hard",
        "pfsp_power": 2.0,
        "min_weight": 0.05,
        "window": 4,
        "min_games": 2,
        "prior_win_rate": 0.5,
    }
    assert pfsp_weight(0.0, "hard", 2.0, 0.0) == 1.0
    assert pfsp_weight(0.5, "hard", 2.0, 0.0) == 0.25
    assert pfsp_weight(1.0, "hard", 2.0, 0.05) == 0.05  # the floor
    assert pfsp_weight(0.5, "variance", 1.0, 0.0) == 0.25
    assert pfsp_weight(0.9, "uniform", 1.0, 0.0) == 1.0
    with pytest.raises(RivenError, match="league.pfsp"):
        pfsp_weight(0.5, "softmax", 1.0, 0.0)
    league = League(["oracle:beast", "random"], settings, pool_size=2)
    assert league.weights() == {"oracle:beast": 0.25, "random": 0.25}  # the prior
    for winner in ("red", "red", "red"):  # the learner (blue) loses to the beast
        league.record({"result": {"winner": winner}, "opponent": "oracle:beast", "learner_side": "blue"})  # fmt: skip
    for winner in ("blue", "blue", None):  # and beats random twice, draws once
        league.record({"result": {"winner": winner}, "opponent": "random", "learner_side": "blue"})
    assert league.win_rate("oracle:beast") == (0.0, 3)
    assert league.win_rate("random") == pytest.approx((2 / 3, 3))
    weights = league.weights()
    assert weights["oracle:beast"] == 1.0 and weights["random"] == pytest.approx(1 / 9)
    # The window keeps the latest games only.
    for _ in range(4):
        league.record({"result": {"winner": "blue"}, "opponent": "oracle:beast", "learner_side": "blue"})  # fmt: skip
    assert league.win_rate("oracle:beast") == (1.0, 4)
    # Snapshots join the draw; the pool carries the weights.
    league.add_snapshot("runs/x/snapshots/step_100.safetensors")
    pool = league.pool()
    assert pool.specs[-1] == "ppo:runs/x/snapshots/step_100.safetensors"
    assert pool.weights[-1] == 0.25
    # Every bundled Oracle profile is in the league, then the fixed agents.
    opponents = league_opponents(["random"])
    assert opponents[-1] == "random" and len(opponents) == 8
    assert all(o.startswith("oracle:") for o in opponents[:-1])


def test_the_holdout_score_ranks_by_the_worst_pair_averaged_over_colours() -> None:
    """A held-out mission whose red side always loses to one opponent does not pin the score
    at 0: checkpoints still rank by the pair's colour average, then by the mean cell."""
    from riven_training.colours import ColourRow, holdout_score

    def rows(cells: dict[tuple[str, str, str], int]) -> list[ColourRow]:
        return [
            ColourRow(mission, opponent, colour, 4, wins, 0, 4 - wins, 0.0, 1.0)
            for (mission, opponent, colour), wins in cells.items()
        ]

    def checkpoint(tactical_blue: int, random_red: int) -> list[ColourRow]:
        return rows({
            ("field", "oracle:tactical", "blue"): tactical_blue,
            ("field", "oracle:tactical", "red"): 0,  # the mission's red side: lost every time
            ("field", "random", "blue"): 4,
            ("field", "random", "red"): random_red,
        })  # fmt: skip

    weak, strong = holdout_score(checkpoint(1, 4)), holdout_score(checkpoint(3, 4))
    assert weak == (0.125, 0.5625) and strong == (0.375, 0.6875) and strong > weak
    # The worst pair decides before the mean does; the mean breaks a tie.
    assert holdout_score(checkpoint(3, 2)) == (0.375, 0.5625) < strong
    assert holdout_score([]) == (0.0, 0.0)


def test_config_refuses_an_entity_policy_without_entity_observations() -> None:
    from riven_training.hyperparams import TrainConfigError, load_train_config

    with pytest.raises(TrainConfigError, match="obs_mode"):
        load_train_config(overrides=['policy.kind="entity"'])
    with pytest.raises(TrainConfigError, match="league.pfsp"):
        load_train_config(overrides=['league.pfsp="softest"'])
    with pytest.raises(TrainConfigError, match="d_model"):
        load_train_config(
            overrides=['policy.kind="entity"', 'env.obs_mode="entity"', "policy.d_model=30"]
        )


@pytest.mark.slow
def test_league_training_smoke_saves_policies_that_play(tmp_path) -> None:
    """A tiny league run: snapshots, held-out evaluation per colour, best and final policy
    files that load as agents (ppo:PATH) and play a game; the policy file is data only."""
    from riven_training.hyperparams import load_train_config
    from riven_training.train import TrainRun, train

    from riven_env.engines import play_game

    config = load_train_config(
        None,
        [
            'policy.kind="entity"',
            'env.obs_mode="entity"',
            "policy.d_model=16",
            "policy.attention_heads=2",
            'env.missions=["duel-1v1"]',
            'env.settings={"outcome.draw" = -0.5, "shaping.wounds" = 0.1}',
            "ppo.n_steps=64",
            "ppo.batch_size=32",
            "ppo.n_epochs=1",
            "train.eval_every=128",
            "train.eval_games=2",
            "train.checkpoint_every=0",
            'train.vec_env="dummy"',
            "selfplay.snapshot_every=64",
            'league.fixed=["random"]',
            'league.holdout_missions=["duel-1v1"]',
            'league.holdout_opponents=["random", "oracle:beast"]',
            "league.holdout_games=1",
        ],
    )
    out = tmp_path / "league"
    run = TrainRun(
        scenario="duel-1v1", opponent="random", timesteps=128, envs=1, out=out, league=True,
        config=config,
    )  # fmt: skip
    final = train(run)
    assert final.is_file() and (out / "best.safetensors").is_file()
    rows = (out / "holdout.csv").read_text().strip().splitlines()
    assert rows[0].startswith("timesteps,mission,opponent,colour")
    assert {line.split(",")[3] for line in rows[1:]} == {"blue", "red"}
    assert len(list((out / "snapshots").glob("*.safetensors"))) >= 2
    sidecar = json.loads((out / "final.json").read_text())
    assert sidecar["policy_class"] == "EntityPolicy"
    assert sidecar["encoding"]["obs_mode"] == "entity"
    assert sidecar["tensor_aliases"]  # the shared extractor saved once
    result = play_game("duel-1v1", f"ppo:{out / 'best.safetensors'}", "random", 3)
    assert result[-1]["type"] == "game_end"
