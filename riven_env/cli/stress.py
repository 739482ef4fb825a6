"""``riven stress-oracle``: train a best response against the Oracle and report its holes."""

from __future__ import annotations

from pathlib import Path

import typer

from riven_env.cli.common import (
    QuietOption,
    WorkersOption,
    check_output,
    default_workers,
    echo_json,
    friendly_errors,
)


def register(app: typer.Typer) -> None:
    app.command("stress-oracle")(stress_oracle)


@friendly_errors
def stress_oracle(
    scenario: str = typer.Option("skirmish-5v5", "--scenario", help="Bundled scenario or file."),
    timesteps: int = typer.Option(
        20000, "--timesteps", min=1, help="Best-response training steps."
    ),
    envs: int = typer.Option(2, "--envs", min=1, help="Parallel training environments."),
    oracle: str = typer.Option(
        "oracle", "--oracle", help="Oracle under test: oracle or oracle:PROFILE."
    ),
    baseline: str = typer.Option(
        "random", "--baseline", help="Reference agent (random, greedy...)."
    ),
    games: int = typer.Option(40, "--games", min=2, help="Evaluation games for each player."),
    replays: int = typer.Option(3, "--replays", min=0, help="Example games written as replays."),
    seed: int = typer.Option(0, "--seed", help="Seed of training and evaluation."),
    out: Path = typer.Option(Path("runs/stress"), "--out", help="Output folder."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON object."),
    workers: WorkersOption = None,
    quiet: QuietOption = False,
) -> None:
    """Train a best response against the Oracle; report exploitability, tactics and replays."""
    check_output(out, "--out", kind="folder")
    if not oracle.startswith("oracle"):
        raise typer.BadParameter(
            f"{oracle!r}: expected oracle or oracle:PROFILE", param_hint="--oracle"
        )
    from riven_training.stress import StressConfig, render_markdown
    from riven_training.stress import stress_oracle as run

    log = (lambda _msg: None) if as_json else typer.echo
    report = run(
        StressConfig(
            scenario=scenario,
            timesteps=timesteps,
            out=out,
            envs=envs,
            oracle=oracle,
            baseline=baseline,
            games=games,
            replays=replays,
            seed=seed,
            workers=min(default_workers(workers), games),
            progress=not quiet,
        ),
        log=log,
    )
    if as_json:
        echo_json(report)
        return
    typer.echo(render_markdown(report))
    typer.echo(f"written: {out / 'stress.json'}, {out / 'stress.md'}")
