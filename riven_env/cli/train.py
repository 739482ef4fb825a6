"""``riven train`` (MaskablePPO) and ``riven eval`` (win/draw/loss with 95% intervals).

Both load their heavy dependencies (stable-baselines3, torch) only when they run. Trained
policies are safetensors weights plus a JSON sidecar (``agents/policy_file.py``): loading one
runs no code. A pickle-based SB3 ``.zip`` loads only as ``ppo+pickle:PATH``, with a warning.
"""

from __future__ import annotations

from pathlib import Path

import typer

from riven_env.cli.common import (
    EngineOption,
    QuietOption,
    WorkersOption,
    apply_engine,
    check_output,
    default_workers,
    echo_json,
    friendly_errors,
    parse_overrides,
)

# Options whose defaults are mutable types live here (module-level singletons), as typer needs.
OUT_OPTION = typer.Option(
    Path("runs/ppo"),
    "--out",
    help="Output folder (checkpoints, TensorBoard logs, final.safetensors).",
)
RESUME_OPTION = typer.Option(
    None,
    "--resume",
    help="Continue from this checkpoint (.safetensors); ppo+pickle:PATH for an old SB3 .zip "
    "(runs its code: trusted files only).",
)
CONFIG_OPTION = typer.Option(
    None, "--config", help="Hyperparameter file (TOML) over training/config/default.toml."
)
TRAIN_SET_OPTION = typer.Option(
    None, "--set", help="Override one config key, SECTION.KEY=VALUE (repeatable)."
)
RULES_SET_OPTION = typer.Option(None, "--set", help="Rules override KEY=VALUE (repeatable).")


def register(app: typer.Typer) -> None:
    """Add ``train`` and ``eval`` to the ``riven`` app."""
    app.command("train")(train_command)
    app.command("eval")(eval_command)
    app.command("eval-colours")(eval_colours_command)


@friendly_errors
def train_command(
    scenario: str = typer.Option(
        "skirmish-5v5", "--scenario", help="Bundled scenario name or a scenario file."
    ),
    opponent: str = typer.Option(
        "oracle",
        "--opponent",
        help="Agent on the other side: oracle, oracle:PROFILE, random, greedy, mcts[:N], ppo:PATH.",
    ),
    timesteps: int = typer.Option(100_000, "--timesteps", help="Learner steps to train for."),
    envs: int = typer.Option(
        2,
        "--envs",
        help="Parallel environments (one process each; with --engine native and an opponent "
        "the core plays, one native batch stepping them all in one call).",
    ),
    out: Path = OUT_OPTION,
    seed: int = typer.Option(
        0, "--seed", help="Seed of the model, the environments and the evaluations."
    ),
    self_play: bool = typer.Option(
        False,
        "--self-play",
        help="Train against a pool of earlier snapshots of the learner (plus --opponent).",
    ),
    league: bool = typer.Option(
        False,
        "--league",
        help="League training: snapshots, every Oracle profile and random, drawn towards the "
        "opponents it loses to (PFSP); keeps OUT/best.safetensors on held-out missions.",
    ),
    policy: str | None = typer.Option(
        None,
        "--policy",
        help="mlp (flat MLP) or entity (entity attention with pointer targets on "
        "riven/Skirmish-v1 observations); sets policy.kind and env.obs_mode.",
    ),
    resume: str | None = RESUME_OPTION,
    config: Path | None = CONFIG_OPTION,
    set_: list[str] | None = TRAIN_SET_OPTION,
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    workers: int = typer.Option(
        1, "--workers", min=1, help="Worker processes for the periodic evaluation games."
    ),
    quiet: QuietOption = False,
    engine: EngineOption = None,
) -> None:
    """Train a MaskablePPO policy; the result is agent ppo:OUT/final.safetensors."""
    check_output(out, "--out", kind="folder", default=OUT_OPTION.default)
    apply_engine(engine, scenario)
    from riven_training.hyperparams import load_train_config
    from riven_training.train import TrainingStopped, TrainRun, train

    items = list(set_ or ())
    if policy is not None:
        if policy not in ("mlp", "entity"):
            raise typer.BadParameter(f"{policy!r}: expected mlp or entity", param_hint="--policy")
        obs_mode = "entity" if policy == "entity" else "flat"
        # Before the user's --set items, so that an explicit env.obs_mode=dict still wins.
        items = [f'policy.kind="{policy}"', f'env.obs_mode="{obs_mode}"', *items]
    if self_play and league:
        raise typer.BadParameter("--league already plays snapshots: drop --self-play")
    run = TrainRun(
        scenario=scenario,
        opponent=opponent,
        timesteps=timesteps,
        envs=envs,
        out=out,
        seed=seed,
        self_play=self_play,
        league=league,
        resume=resume,
        config=load_train_config(config, items),
        progress_bar=progress and not quiet,
        log=lambda line: typer.echo(line, err=True),
        eval_workers=workers,
    )
    try:
        final = train(run)
    except (KeyboardInterrupt, TrainingStopped) as exc:
        raise _stopped(exc, out) from None
    typer.echo(f"trained policy: {final} (use it as agent ppo:{final})")


def _stopped(exc: BaseException, out: Path) -> typer.Exit:
    """Say what a stopped training left behind; exit 128 + the signal, as shells report."""
    import signal

    signum = getattr(exc, "signum", signal.SIGINT)
    steps = sorted(
        (out / "checkpoints").glob("step_*.safetensors"),
        key=lambda p: int(p.stem.split("_")[-1]) if p.stem.split("_")[-1].isdigit() else -1,
    )
    hint = f"; continue with --resume {steps[-1]}" if steps else "; no checkpoint was written yet"
    typer.echo(
        f"interrupted: training stopped by {signal.Signals(signum).name}, its environment "
        f"workers are ended{hint}",
        err=True,
    )
    return typer.Exit(128 + int(signum))


@friendly_errors
def eval_command(
    scenario: str = typer.Option(
        "skirmish-5v5", "--scenario", help="Bundled scenario name or a scenario file."
    ),
    blue: str = typer.Option(
        "oracle", "--blue", help="Agent for blue (ppo:PATH for a trained policy)."
    ),
    red: str = typer.Option("random", "--red", help="Agent for red."),
    games: int = typer.Option(100, "--games", help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Game g uses game seed SEED + g."),
    workers: WorkersOption = None,
    jobs: int | None = typer.Option(
        None, "--jobs", min=1, hidden=True, help="Deprecated: use --workers."
    ),
    set_: list[str] | None = RULES_SET_OPTION,
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    quiet: QuietOption = False,
    engine: EngineOption = None,
) -> None:
    """Play GAMES games and print blue's win/draw/loss rates with 95% confidence intervals."""
    from riven_training.evaluate import play_match

    from riven_env.engines import play_game

    if games < 1:
        raise typer.BadParameter(f"{games}: must be >= 1", param_hint="--games")
    if jobs is not None:
        typer.echo("warning: --jobs is deprecated; use --workers", err=True)
        workers = workers or jobs
    overrides = parse_overrides(set_) or None
    # Bad input (scenario, agents, --set, engine) fails here, in one line, before any worker.
    apply_engine(engine, scenario, overrides)
    play_game(scenario, blue, red, seed, overrides=overrides, max_decisions=0)
    result = play_match(
        scenario,
        blue,
        red,
        games,
        seed=seed,
        overrides=overrides,
        workers=min(default_workers(workers), games),
        progress=not quiet,
    )
    if as_json:
        echo_json(
            {"scenario": scenario, "blue": blue, "red": red, "seed": seed, **result.to_dict()}
        )
        return
    typer.echo(f"{scenario}: blue {blue} vs red {red}, {result.games} games (seed {seed})")
    for outcome, label in (("wins", "blue wins"), ("draws", "draws"), ("losses", "red wins")):
        rate, low, high = result.rate_and_interval(outcome)
        typer.echo(
            f"  {label:<10} {getattr(result, outcome):>5}  {rate:6.1%}  "
            f"(95% CI {low:6.1%} - {high:6.1%})"
        )


@friendly_errors
def eval_colours_command(
    agent: str = typer.Option(..., "--agent", help="The agent under test (ppo:PATH, expert...)."),
    mission: list[str] | None = typer.Option(
        None,
        "--mission",
        help="Mission: bundled name, file or generated:KIND:SEED (repeatable; default "
        "skirmish-5v5).",
    ),
    opponent: list[str] | None = typer.Option(
        None,
        "--opponent",
        help="Opponent spec (repeatable; default every Oracle profile and random).",
    ),
    games: int = typer.Option(20, "--games", min=1, help="Games per mission, opponent, colour."),
    seed: int = typer.Option(0, "--seed", help="Game g of every cell uses seed SEED + g."),
    workers: WorkersOption = None,
    as_json: bool = typer.Option(False, "--json", help="Print the rows as one JSON object."),
    quiet: QuietOption = False,
    engine: EngineOption = None,
) -> None:
    """An agent's win rate per colour against every Oracle profile and random, with 95% CIs."""
    import functools

    from riven_agents.registry import make_agent
    from riven_training.colours import action_shares, colour_table, format_table
    from riven_training.league import league_opponents

    missions = list(mission or ["skirmish-5v5"])
    opponents = list(opponent or league_opponents(["random"]))
    apply_engine(engine)
    make_agent(agent, "blue", 0)  # a bad spec fails here, in one line
    rows = colour_table(
        missions,
        functools.partial(_spec_subject, agent),
        opponents,
        games,
        seed=seed,
        workers=default_workers(workers),
        progress=not quiet,
    )
    if as_json:
        echo_json(
            {
                "agent": agent,
                "seed": seed,
                "rows": [row.to_dict() for row in rows],
                "action_shares": action_shares(rows),
            }
        )
        return
    typer.echo(f"{agent}: {games} games per mission, opponent and colour (seed {seed})")
    for line in format_table(rows):
        typer.echo("  " + line)
    shares = action_shares(rows)
    typer.echo("  actions: " + ", ".join(f"{k} {v:.0%}" for k, v in shares.items()))


def _spec_subject(spec: str, side: str) -> object:
    """The agent ``spec`` for ``side`` (module level: picklable for worker processes).

    Trained policies come from the per-process cache of the environments' opponents (a
    deterministic policy need not be loaded again for every game).
    """
    from riven_env.envs.opponents import build_opponent

    return build_opponent(spec, side, 0)
