"""MaskablePPO training on ``riven/Skirmish-v0`` (what ``riven train`` runs).

Output folder layout (``--out DIR``)::

    DIR/config.json            the resolved configuration of the run
    DIR/tb/                    TensorBoard logs (rollout, train, eval/win_rate_vs_*, selfplay/*)
    DIR/checkpoints/step_N.safetensors  periodic checkpoints (each with its step_N.json sidecar)
    DIR/snapshots/step_N.safetensors    self-play snapshots
    DIR/eval.csv                        timesteps, opponent, games, wins, draws, losses, win_rate
    DIR/final.safetensors               the trained policy (sidecar final.json): use it as agent
                                        ``ppo:DIR/final.safetensors`` (or ``ppo:DIR``)
    DIR/best.safetensors                with --league: the checkpoint with the best held-out
                                        score (league.holdout_*), agent ``ppo:DIR/best.safetensors``
    DIR/holdout.csv                     with --league: every held-out evaluation, per colour

Policy files hold tensors and JSON only (:mod:`riven_agents.policy_file`): loading one runs no code.
A pickle-based stable-baselines3 ``.zip`` is resumed from only with ``ppo+pickle:PATH``.
"""

from __future__ import annotations

import csv
import functools
import json
import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from riven_agents.policy_file import WEIGHTS_SUFFIX
from riven_training.evaluate import MatchResult, evaluate_agent
from riven_training.hyperparams import load_train_config
from riven_training.league import League, league_opponents
from riven_training.selfplay import SelfPlayPool
from riven_training.timing import TimeSplit, timed_vec_env

from riven_env.errors import RivenError
from riven_env.extras import require
from riven_env.files import limit
from riven_env.interrupts import interrupts_blocked_for_children, interrupts_deferred

#: The trained policy in the output folder (``ppo:OUT`` names it too).
FINAL_NAME = "final" + WEIGHTS_SUFFIX
#: The best held-out checkpoint of a league run.
BEST_NAME = "best" + WEIGHTS_SUFFIX
TIMING_NAME = "timing.json"
"""Where the run's wall time went (:class:`~riven_training.timing.TimeSplit`)."""
#: The agent-spec prefix that opts in to resuming from a pickle-based SB3 ``.zip``.
PICKLE_PREFIX = "ppo+pickle:"


@dataclass
class TrainRun:
    """What :func:`train` was asked to do.

    Attributes:
        scenario: Bundled scenario name or path.
        opponent: Agent spec of the other side (the fixed member of a self-play pool).
        timesteps: Learner steps to train for (added to a resumed model's count).
        envs: Parallel environments.
        out: Output folder.
        seed: Seed of the model, the environments and the evaluations.
        self_play: Train against a pool of earlier snapshots.
        league: Train against the league (:mod:`riven_training.league`): snapshots, every
            Oracle profile and ``league.fixed``, drawn by PFSP weight; keeps the best
            checkpoint on the held-out missions and opponents.
        resume: A checkpoint to continue from: a policy file (``.safetensors``), or
            ``ppo+pickle:PATH`` for a pickle-based SB3 ``.zip`` (runs its code; warns).
        config: The resolved configuration (``load_train_config``).
        progress_bar: Show a progress bar (training steps, and the evaluation games).
        log: Called with a line of text for each evaluation (None: silent).
        eval_workers: Worker processes for the periodic evaluation games (the results do
            not depend on it).
        eval_progress: Show the evaluation games' progress bar (stderr) even without
            ``progress_bar`` (stable-baselines3's training bar, which draws on stdout).
    """

    scenario: str
    opponent: str
    timesteps: int
    envs: int
    out: Path
    seed: int = 0
    self_play: bool = False
    league: bool = False
    resume: Path | str | None = None
    config: dict[str, dict[str, Any]] = field(default_factory=load_train_config)
    progress_bar: bool = False
    log: Callable[[str], None] | None = None
    eval_workers: int = 1
    eval_progress: bool = False


def run_padding(run: TrainRun) -> dict[str, int]:
    """Model and objective slots of a league run's encoding: enough for the training missions
    and the held-out ones, so that the policy can play the held-out missions (empty: the
    environments' own padding)."""
    held_out = list(run.config["league"]["holdout_missions"]) if run.league else []
    if not held_out:
        return {}
    from riven_env.envs.config import mission_padding, resolve_mission
    from riven_env.game.setup import resolve_rules

    rules = resolve_rules(None, None)
    training = list(run.config["env"].get("missions") or []) or [run.scenario]
    models, objectives, _ = mission_padding(
        [resolve_mission(m, rules) for m in [*training, *held_out]]
    )
    return {"models_per_side": models, "objectives": objectives}


def make_env_fn(
    scenario: str,
    opponent: Any,
    env_config: Mapping[str, Any],
    padding: Mapping[str, int] | None = None,
) -> Callable[[], Any]:
    """A picklable factory of one monitored training environment (``padding``: the
    ``models_per_side`` and ``objectives`` of :func:`run_padding`)."""

    def _make() -> Any:
        from stable_baselines3.common.monitor import Monitor

        from riven_env.envs.gym_env import RivenSkirmishEnv

        missions = list(env_config.get("missions") or [])
        env = RivenSkirmishEnv(
            missions or scenario,
            opponent,
            learner_side=env_config["learner_side"],
            obs_mode=env_config["obs_mode"],
            settings=env_config["settings"],
            **dict(padding or {}),
        )
        # The vectorised env seeds every copy (seed + rank) when the model sets its seed.
        return Monitor(env)

    return _make


def encoding_metadata(env: Any, scenario: str) -> dict[str, Any]:
    """The sidecar data of a model trained on ``env``."""
    layout = env.catalogue.layout
    metadata = {
        "scenario": scenario,
        "models_per_side": layout.models_per_side,
        "objectives": layout.objectives,
        "obs_mode": env.obs_mode,
        "actions": env.catalogue.size,
    }
    if env.obs_mode == "entity":
        metadata["terrain_slots"] = env.entity_encoder.terrain_slots
    return metadata


def save_model(model: Any, path: Path, metadata: Mapping[str, Any]) -> Path:
    """Save ``model``'s policy to ``path`` (``.safetensors`` plus its JSON sidecar)."""
    from riven_agents.policy_file import save_policy

    return save_policy(model, path, metadata)


def _callback_class() -> type:
    """The training callback (built lazily: stable-baselines3 loads only when training)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class RivenCallback(BaseCallback):
        """Checkpoints, evaluations, self-play snapshots and pool win rates."""

        def __init__(
            self,
            run: TrainRun,
            metadata: dict[str, Any],
            pool: SelfPlayPool | None,
            split: TimeSplit | None = None,
        ):
            super().__init__()
            self.split = split or TimeSplit()
            self.run = run
            self.metadata = metadata
            self.pool = pool
            train = run.config["train"]
            self.checkpoint_every = train["checkpoint_every"]
            self.eval_every = train["eval_every"]
            self.snapshot_every = run.config["selfplay"]["snapshot_every"]
            self._next = {}
            self.best: tuple[float, float] | None = None

        def _on_training_start(self) -> None:
            self.split.training_start(self.num_timesteps)
            with self.split.housekeeping():
                self._start_schedule()

        def _on_training_end(self) -> None:
            self.split.training_end(self.num_timesteps)
            for name, seconds in self.split.seconds().items():
                self.logger.record(f"time/{name}_s", seconds)

        def _on_rollout_start(self) -> None:
            self.split.rollout_start()

        def _start_schedule(self) -> None:
            now = self.num_timesteps
            for name, every in (
                ("checkpoint", self.checkpoint_every),
                ("eval", self.eval_every),
                ("snapshot", self.snapshot_every if self._snapshots_kept() else 0),
            ):
                self._next[name] = (now // every + 1) * every if every else None
            if self._snapshots_kept() and not self.pool.snapshots:
                self._snapshot()
            if self.eval_every and now == 0:  # the untrained baseline of the learning curve
                evaluate_during_training(self.model, self.run, self.metadata, 0, self.logger)
                if self.run.league:
                    self._holdout()

        def _snapshots_kept(self) -> bool:
            # selfplay.pool_size = 0: a league of the fixed opponents alone (no snapshots).
            return self.pool is not None and self.pool.pool_size > 0

        def _due(self, name: str, every: int) -> bool:
            due = self._next.get(name)
            if due is None or self.num_timesteps < due:
                return False
            self._next[name] = (self.num_timesteps // every + 1) * every
            return True

        def _on_step(self) -> bool:
            with self.split.housekeeping():
                self._housekeeping()
            return True

        def _housekeeping(self) -> None:
            if self.pool is not None:
                for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
                    if done:
                        self.pool.record(info)
            if self._due("checkpoint", self.checkpoint_every):
                save_model(
                    self.model,
                    self.run.out / "checkpoints" / f"step_{self.num_timesteps}{WEIGHTS_SUFFIX}",
                    self.metadata,
                )
            if self._due("eval", self.eval_every):
                evaluate_during_training(
                    self.model, self.run, self.metadata, self.num_timesteps, self.logger
                )
                if self.run.league:
                    self._holdout()
            if self._snapshots_kept() and self._due("snapshot", self.snapshot_every):
                self._snapshot()

        def _on_rollout_end(self) -> None:
            self.split.rollout_end()
            with self.split.housekeeping():
                self._pool_update()

        def _pool_update(self) -> None:
            if self.pool is None:
                return
            if isinstance(self.pool, League):
                # PFSP: the new weights from the latest results, for the next episodes.
                for spec, weight in self.pool.weights().items():
                    name = self.pool.short_name(spec)
                    self.logger.record(f"league/weight/{name}", weight)
                    self.logger.record(f"league/win_rate/{name}", self.pool.win_rate(spec)[0])
                self.training_env.env_method("set_opponent", self.pool.pool())
            for name, (rate, games) in self.pool.win_rates().items():
                self.logger.record(f"selfplay/win_rate/{name}", rate)
                self.logger.record(f"selfplay/games/{name}", games)

        def _holdout(self) -> None:
            """Evaluate on the held-out missions and opponents; keep the best checkpoint."""
            score = holdout_evaluation(self.model, self.run, self.metadata, self.num_timesteps)
            if score is None:
                return
            self.logger.record("league/holdout_worst", score[0])
            self.logger.record("league/holdout_mean", score[1])
            if self.best is None or score > self.best:
                self.best = score
                save_model(self.model, self.run.out / BEST_NAME, self.metadata)

        def _snapshot(self) -> None:
            path = save_model(
                self.model,
                self.run.out / "snapshots" / f"step_{self.num_timesteps}{WEIGHTS_SUFFIX}",
                self.metadata,
            )
            self.pool.add_snapshot(path)
            self.training_env.env_method("set_opponent", self.pool.pool())

    return RivenCallback


def live_subject(policy: Any, metadata: Mapping[str, Any], side: str) -> Any:
    """The agent of a policy in memory (picklable as a partial, for evaluation workers)."""
    from riven_agents.ppo import PPOAgent

    return PPOAgent.from_model(policy, side, dict(metadata))


def evaluate_during_training(
    model: Any, run: TrainRun, metadata: Mapping[str, Any], timesteps: int, logger: Any = None
) -> dict[str, MatchResult]:
    """Play the live policy against each evaluation opponent; log and append to eval.csv."""
    train = run.config["train"]
    opponents = list(dict.fromkeys([run.opponent, *train["eval_opponents"]]))
    results: dict[str, MatchResult] = {}
    csv_path = run.out / "eval.csv"
    new_file = not csv_path.exists()
    with csv_path.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        if new_file:
            writer.writerow(
                ["timesteps", "opponent", "games", "wins", "draws", "losses", "win_rate"]
            )
        for opponent in opponents:
            # The policy network alone (not the model with its envs) can go to workers.
            subject = functools.partial(live_subject, model.policy, dict(metadata))
            result = evaluate_agent(
                run.scenario,
                subject,
                opponent,
                train["eval_games"],
                seed=run.seed + 1_000_000,
                workers=run.eval_workers,
                progress=run.progress_bar or run.eval_progress,
            )
            results[opponent] = result
            writer.writerow(
                [
                    timesteps,
                    opponent,
                    result.games,
                    result.wins,
                    result.draws,
                    result.losses,
                    f"{result.win_rate:.4f}",
                ]
            )
            if logger is not None:
                logger.record(f"eval/win_rate_vs_{opponent}", result.win_rate)
            if run.log is not None:
                run.log(
                    f"step {timesteps}: vs {opponent}: win {result.win_rate:.2f} "
                    f"({result.wins}/{result.draws}/{result.losses} W/D/L of {result.games})"
                )
    return results


def holdout_evaluation(
    model: Any, run: TrainRun, metadata: Mapping[str, Any], timesteps: int
) -> tuple[float, float] | None:
    """Play the live policy per colour on the held-out missions against the held-out
    opponents (``league.holdout_*``); append to ``holdout.csv``; return its score
    (:func:`riven_training.colours.holdout_score`), or None when nothing is configured."""
    from riven_training.colours import action_shares, colour_table, holdout_score

    league = run.config["league"]
    if not league["holdout_missions"] or not league["holdout_opponents"]:
        return None
    if not league["holdout_games"]:
        return None
    subject = functools.partial(live_subject, model.policy, dict(metadata))
    rows = colour_table(
        league["holdout_missions"],
        subject,
        league["holdout_opponents"],
        league["holdout_games"],
        seed=run.seed + 2_000_000,
        workers=run.eval_workers,
        progress=run.progress_bar or run.eval_progress,
    )
    csv_path = run.out / "holdout.csv"
    new_file = not csv_path.exists()
    with csv_path.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        if new_file:
            writer.writerow(
                ["timesteps", "mission", "opponent", "colour", "games", "wins", "draws",
                 "losses", "win_rate", "low", "high"]
            )  # fmt: skip
        for row in rows:
            writer.writerow(
                [timesteps, row.mission, row.opponent, row.colour, row.games, row.wins,
                 row.draws, row.losses, f"{row.win_rate:.4f}", f"{row.low:.4f}",
                 f"{row.high:.4f}"]
            )  # fmt: skip
    score = holdout_score(rows)
    if run.log is not None:
        shares = action_shares(rows)
        mix = ", ".join(f"{k} {v:.0%}" for k, v in shares.items() if v >= 0.02)
        run.log(
            f"step {timesteps}: held-out worst pair {score[0]:.2f}, mean {score[1]:.2f} "
            f"({len(rows)} cells x {league['holdout_games']} games); actions: {mix}"
        )
    return score


def _policy_kwargs(config: Mapping[str, Any]) -> dict[str, Any]:
    import torch

    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[config["activation"]]
    arch = list(config["net_arch"])
    return {"net_arch": {"pi": arch, "vf": arch}, "activation_fn": activation}


# Signals that stop a training run cleanly (the workers ended, a one-line message).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class TrainingStopped(Exception):  # noqa: N818 - a stop request, not a fault
    """A stop signal (SIGTERM) arrived during training; SIGINT arrives as KeyboardInterrupt.

    Attributes:
        signum: The signal's number.
    """

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")


@contextmanager
def stop_signals_raise() -> Iterator[None]:
    """Turn SIGTERM into :class:`TrainingStopped` while the block runs (main thread only).

    Python's default SIGTERM ends the process at once: no ``finally`` runs, and the
    environment workers play on until their current step ends (an MCTS opponent's step
    can take minutes). Raised as an exception, the stop runs the cleanup that ends them.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: Any) -> None:
        raise TrainingStopped(signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def stop_vec_env(vec_env: Any) -> None:
    """End the environment worker processes now, without waiting for a step in flight.

    A worker holds nothing to save (checkpoints are written by this process), so it is
    killed rather than asked: a graceful ``close()`` first waits for the step it plays.
    Environments without processes (``DummyVecEnv``) are closed as usual.
    """
    processes = list(getattr(vec_env, "processes", None) or [])
    if not processes:
        vec_env.close()
        return
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join()
    for remote in getattr(vec_env, "remotes", ()):
        remote.close()
    vec_env.closed = True


def batched_refusal(run: TrainRun, opponent: Any) -> str | None:
    """Why the run cannot train on the native batch (None when it can).

    The batch (:class:`~riven_training.vec_env.RivenSB3VecEnv`) steps every environment in
    one native call per mission: it needs the native engine (``--engine native``), flat,
    dict or entity observations, at least one environment per mission (``env.missions``),
    and opponents the core plays (``random``, ``oracle[:PROFILE]``), alone or as a pool (a
    league without snapshots, ``selfplay.pool_size = 0``). Self-play and league pools that
    hold policy snapshots (``ppo:PATH``), which only Python agents play, keep one
    environment per process.
    """
    from riven_training.vec_env import pool_refusal

    from riven_env.engines import pick_engine
    from riven_env.envs.opponents import OpponentPool
    from riven_env.envs.vector import batched_refusal as vector_refusal

    env = run.config["env"]
    snapshots = int(run.config["selfplay"]["pool_size"])
    if (run.league or run.self_play) and snapshots > 0:
        return (
            f"selfplay.pool_size = {snapshots} policy snapshots (only Python agents play them; "
            "selfplay.pool_size = 0 trains a league of the fixed opponents on the batch)"
        )
    missions = list(env.get("missions") or [])
    if missions and run.envs < len(missions):
        return f"--envs {run.envs} for env.missions = {missions} (one environment per mission at least)"
    why = pool_refusal(opponent)
    if why is not None:
        return why
    spec = opponent.specs[0] if isinstance(opponent, OpponentPool) else opponent
    # The process default (--engine, else auto: native where the core plays every mission).
    engine = pick_engine(None, missions or [run.scenario])
    return vector_refusal(
        missions[0] if missions else run.scenario, spec, engine, env["obs_mode"], False
    )


def build_vec_env(run: TrainRun, opponent: Any) -> Any:
    """The vectorised training environments (``train.vec_env``).

    ``auto``: the native batch when :func:`batched_refusal` allows it, else one process per
    environment; ``batched``: the batch or a one-line refusal; ``subproc``; ``dummy``.

    Raises:
        RivenError: ``train.vec_env = "batched"`` for a run the batch cannot train (the
            message names the setting and what is allowed).
    """
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    choice = run.config["train"]["vec_env"]
    if choice in ("auto", "batched"):
        why = batched_refusal(run, opponent)
        if why is None:
            from riven_training.vec_env import RivenSB3VecEnv

            env = run.config["env"]
            return RivenSB3VecEnv(
                run.envs,
                scenario=list(env.get("missions") or []) or run.scenario,
                opponent=opponent,
                engine="native",
                learner_side=env["learner_side"],
                obs_mode=env["obs_mode"],
                settings=env["settings"],
                backend="batched",
                **run_padding(run),
            )
        if choice == "batched":
            raise RivenError(
                f"train.vec_env = 'batched' cannot train with {why}; "
                "allowed: train.vec_env = 'auto', 'subproc' or 'dummy'"
            )
    padding = run_padding(run)
    fns = [make_env_fn(run.scenario, opponent, run.config["env"], padding) for _ in range(run.envs)]
    if run.envs > 1 and choice in ("auto", "subproc"):
        return SubprocVecEnv(fns, start_method="spawn")
    return DummyVecEnv(fns)


def check_inputs(run: TrainRun) -> None:
    """Refuse a bad scenario, opponent or checkpoint here, before any env process starts.

    Raises:
        RivenError: The scenario, the opponent spec or ``--resume`` is invalid (one line
            that names it, instead of a traceback from every environment worker).
    """
    from riven_agents.ppo import resolve_policy_file
    from riven_agents.registry import make_agent

    from riven_env.engines import new_game

    new_game(run.scenario, 0)
    make_agent(run.opponent, "red", 0)
    if run.resume is not None:
        text = str(run.resume)
        trusted = text.startswith(PICKLE_PREFIX)
        try:
            resolve_policy_file(
                text[len(PICKLE_PREFIX) :] if trusted else text, trust_pickle=trusted
            )
        except RivenError as exc:
            raise RivenError(f"--resume {text}: {exc}") from None


def train(run: TrainRun) -> Path:
    """Train (or resume) a MaskablePPO policy; return the path of ``final.safetensors``.

    SIGTERM or Ctrl-C at any moment ends the environment worker processes before the
    exception leaves this function (:func:`stop_vec_env`).

    Raises:
        TrainingStopped: SIGTERM arrived.
        KeyboardInterrupt: Ctrl-C (SIGINT) arrived.
        MissingExtraError: The ``rl`` extra is not installed.
        RivenError: ``envs`` or ``timesteps`` below 1, or a missing checkpoint.
    """
    sb3_contrib = require("sb3_contrib", "rl", "riven train")
    import torch

    if run.envs < 1 or run.timesteps < 1:
        raise RivenError(f"--envs ({run.envs}) and --timesteps ({run.timesteps}) must be >= 1")
    most = int(limit("processes.max_workers"))
    if run.envs > most:
        raise RivenError(
            f"--envs ({run.envs}) must be at most {most} "
            "(processes.max_workers in riven_env/data/limits.toml)"
        )
    check_inputs(run)
    torch.set_num_threads(int(run.config["train"]["torch_threads"]))
    run.out.mkdir(parents=True, exist_ok=True)
    (run.out / "config.json").write_text(
        json.dumps(
            {
                "scenario": run.scenario,
                "opponent": run.opponent,
                "timesteps": run.timesteps,
                "envs": run.envs,
                "seed": run.seed,
                "self_play": run.self_play,
                "league": run.league,
                "resume": str(run.resume) if run.resume else None,
                "config": run.config,
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    selfplay = run.config["selfplay"]
    pool: SelfPlayPool | None = None
    if run.league:
        pool = League(
            league_opponents(run.config["league"]["fixed"]),
            run.config["league"],
            selfplay["pool_size"],
        )
    elif run.self_play:
        pool = SelfPlayPool(
            run.opponent,
            selfplay["pool_size"],
            selfplay["include_opponent"],
            selfplay["opponent_weight"],
        )
    with stop_signals_raise():
        vec_env = None
        try:
            # Workers start with SIGINT blocked: a terminal's Ctrl-C reaches only this
            # process, which ends them. A stop signal during the start is held until the
            # environments exist (else the half-built workers outlive us and print a
            # broken pipe), then raised here with the workers in hand.
            with interrupts_blocked_for_children(), interrupts_deferred(STOP_SIGNALS):
                vec_env = build_vec_env(run, pool.pool() if pool else run.opponent)
            final = _learn(run, vec_env, pool, sb3_contrib)
        except BaseException:
            # A stop signal, Ctrl-C or an error: end the workers at once.
            if vec_env is not None:
                stop_vec_env(vec_env)
            raise
        vec_env.close()
    return final


def _learn(run: TrainRun, vec_env: Any, pool: SelfPlayPool | None, sb3_contrib: Any) -> Path:
    """Build or load the model, train it on ``vec_env`` and save ``final.safetensors``.

    Also writes ``timing.json`` (:class:`~riven_training.timing.TimeSplit`): the wall time
    split between the environments, the policy, the update and the housekeeping.
    """
    split = TimeSplit()
    vec_env_kind = type(vec_env).__name__  # RivenSB3VecEnv (the native batch), SubprocVecEnv...
    vec_env = timed_vec_env(vec_env, split)
    probe = make_env_fn(run.scenario, "random", run.config["env"], run_padding(run))().unwrapped
    metadata = encoding_metadata(probe, run.scenario)
    policy, policy_kwargs = policy_choice(run.config, probe)
    if run.resume is not None:
        model = _resumed_model(run, vec_env, policy)
        reset = False
    else:
        model = sb3_contrib.MaskablePPO(
            policy,
            vec_env,
            seed=run.seed,
            device="cpu",
            verbose=0,
            tensorboard_log=str(run.out / "tb"),
            policy_kwargs=policy_kwargs,
            **run.config["ppo"],
        )
        reset = True
    callback = _callback_class()(run, metadata, pool, split)
    model.learn(
        total_timesteps=run.timesteps,
        callback=callback,
        progress_bar=run.progress_bar,
        reset_num_timesteps=reset,
        tb_log_name="ppo",
    )
    # Where the time went (issue 13: RL here is bound by the environment), for the run
    # folder and the terminal.
    (run.out / TIMING_NAME).write_text(
        json.dumps({**split.to_dict(), "vec_env": vec_env_kind}, indent=2) + "\n", encoding="utf-8"
    )
    if run.log is not None:
        run.log(split.line())
    return save_model(model, run.out / FINAL_NAME, metadata)


def policy_choice(config: Mapping[str, Any], probe: Any) -> tuple[Any, dict[str, Any]]:
    """The policy (an SB3 alias or the EntityPolicy class) and its kwargs for ``config``.

    ``probe`` is an environment of the run (the entity policy reads its catalogue).
    """
    if config["policy"]["kind"] == "entity":
        from riven_agents.entity_policy import EntityPolicy, entity_policy_kwargs

        return EntityPolicy, entity_policy_kwargs(probe, config["policy"])
    policy = "MultiInputPolicy" if config["env"]["obs_mode"] == "dict" else "MlpPolicy"
    return policy, _policy_kwargs(config["policy"])


def _policy_name(policy: Any) -> str:
    return policy if isinstance(policy, str) else policy.__name__


def _resumed_model(run: TrainRun, vec_env: Any, policy: Any) -> Any:
    """The model to continue training: weights, optimizer state and timestep count restored.

    A policy file is rebuilt from its sidecar (no unpickling); the hyperparameters are the
    run's configuration. A pickle-based ``.zip`` is loaded only with ``ppo+pickle:PATH``.
    """
    import sys

    from riven_agents.policy_file import (
        load_optimizer_state,
        load_policy_state,
        policy_kwargs_from_sidecar,
        read_sidecar,
        with_aliases,
    )
    from riven_agents.ppo import pickle_warning, resolve_policy_file

    sb3_contrib = require("sb3_contrib", "rl", "riven train --resume")
    text = str(run.resume)
    if text.startswith(PICKLE_PREFIX):
        path = resolve_policy_file(text[len(PICKLE_PREFIX) :], trust_pickle=True)
        print(pickle_warning(path), file=sys.stderr, flush=True)
        model = sb3_contrib.MaskablePPO.load(str(path), env=vec_env, device="cpu")
        model.tensorboard_log = str(run.out / "tb")
        return model
    try:
        path = resolve_policy_file(text)
    except RivenError as exc:
        raise RivenError(f"--resume {text}: {exc}") from None
    from safetensors.torch import load_file

    doc = read_sidecar(path)
    if doc.get("policy_class") != _policy_name(policy):
        raise RivenError(
            f"--resume {path}: a {doc.get('policy_class')} checkpoint, but env.obs_mode = "
            f"{run.config['env']['obs_mode']!r} trains a {_policy_name(policy)}"
        )
    model = sb3_contrib.MaskablePPO(
        policy,
        vec_env,
        seed=run.seed,
        device="cpu",
        verbose=0,
        tensorboard_log=str(run.out / "tb"),
        # The network as the checkpoint built it: the sidecar's settings, not the config's.
        policy_kwargs=policy_kwargs_from_sidecar(doc),
        **run.config["ppo"],
    )
    tensors = with_aliases(load_file(str(path), device="cpu"), doc)
    load_policy_state(model.policy, tensors, str(path))
    load_optimizer_state(model.policy, tensors, doc, str(path))
    model.num_timesteps = int(doc.get("num_timesteps", 0))
    return model
