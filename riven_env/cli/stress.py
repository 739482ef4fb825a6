"""``riven stress-oracle``: how exploitable is each Oracle profile, and how to beat it.

The work is :mod:`riven_env.analytics.stress`; ``docs/stress-oracle.md`` explains the
output. This module parses the options, checks every input before a game is played, and
prints the table (or ``--json``).
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
    make_console,
    parse_overrides,
)


def register(app: typer.Typer) -> None:
    app.command("stress-oracle")(stress_oracle)


def _oracle_specs(given: list[str] | None) -> list[str]:
    """``--oracle`` values, with ``all`` standing for every profile of the Oracle data."""
    from riven_agents.oracle.profiles import profile_names

    specs: list[str] = []
    for spec in given or ["oracle"]:
        if spec == "all":
            specs += [f"oracle:{name}" for name in profile_names()]
        elif spec == "oracle" or spec.startswith("oracle:"):
            specs.append(spec)
        else:
            raise typer.BadParameter(
                f"{spec!r}: expected oracle, oracle:PROFILE or all", param_hint="--oracle"
            )
    return list(dict.fromkeys(specs))


@friendly_errors
def stress_oracle(
    scenario: str = typer.Option("skirmish-5v5", "--scenario", help="Bundled scenario or file."),
    oracle: list[str] | None = typer.Option(
        None,
        "--oracle",
        help="Oracle under test: oracle, oracle:PROFILE or all (every profile); repeatable.",
    ),
    responder: str | None = typer.Option(
        None,
        "--responder",
        help="Best responder: any agent spec (default: [responder] default of the "
        "stress data file).",
    ),
    baseline: str = typer.Option(
        "random", "--baseline", help="Reference agent (random, greedy...)."
    ),
    games: int = typer.Option(
        40, "--games", min=2, help="Seeds per Oracle; colours alternate (half per colour)."
    ),
    timesteps: int | None = typer.Option(
        None,
        "--timesteps",
        min=1,
        help="Train a MaskablePPO best response for this many steps first and use it as "
        "the responder.",
    ),
    envs: int = typer.Option(2, "--envs", min=1, help="Parallel training environments."),
    replays: int = typer.Option(
        3, "--replays", min=0, help="Recipe games per colour written as HTML replays."
    ),
    check: bool = typer.Option(
        True, "--check/--no-check", help="Play each recipe's scripted agent on the same seeds."
    ),
    min_lost_games: int | None = typer.Option(
        None,
        "--min-lost-games",
        min=1,
        help="Lost games needed before rules are compared (default: from the data file).",
    ),
    fail_on_exploit: bool = typer.Option(
        False,
        "--fail-on-exploit",
        help="Exit 1 when some colour is exploitable (the responder beats the mirror).",
    ),
    seed: int = typer.Option(0, "--seed", help="Game g uses seed SEED + g."),
    set_: list[str] | None = typer.Option(
        None, "--set", help="Rules override KEY=VALUE (repeatable)."
    ),
    out: Path = typer.Option(Path("runs/stress"), "--out", help="Output folder."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON object."),
    workers: WorkersOption = None,
    quiet: QuietOption = False,
    engine: EngineOption = None,
) -> None:
    """Measure each Oracle's exploitability per colour; find and check exploit recipes."""
    from riven_env.analytics.stress import (
        StressConfig,
        default_responder,
        render_markdown,
        run,
        table_rows,
        write_outputs,
        write_replays,
    )
    from riven_env.engines import play_game

    check_output(out, "--out", kind="folder", default=Path("runs/stress"))
    specs = _oracle_specs(oracle)
    overrides = parse_overrides(set_)
    apply_engine(engine, scenario, overrides)
    if timesteps is not None and responder is not None:
        raise typer.BadParameter(
            "give --responder or --timesteps (train one), not both", param_hint="--timesteps"
        )
    chosen = responder or default_responder()
    # Bad input (scenario, agents, --set) fails here, in one line, before any game.
    for spec in specs:
        for agent in ([] if timesteps is not None else [chosen]) + [baseline, spec]:
            play_game(scenario, agent, spec, seed, overrides=overrides or None, max_decisions=0)
    log = (lambda _msg: None) if as_json or quiet else (lambda m: typer.echo(m, err=True))
    if timesteps is not None:
        from riven_training.stress import train_best_response

        if len(specs) != 1:
            raise typer.BadParameter(
                "--timesteps trains against one Oracle: give one --oracle", param_hint="--oracle"
            )
        model = train_best_response(
            scenario, specs[0], timesteps, envs=envs, out=out / "best_response", seed=seed,
            workers=default_workers(workers), progress=not quiet, log=log,
        )  # fmt: skip
        chosen = f"ppo:{model}"
    report = run(
        StressConfig(
            scenario=scenario, oracles=specs, responder=chosen, baseline=baseline,
            games=games, seed=seed, overrides=overrides,
            workers=min(default_workers(workers), games), progress=not quiet, check=check,
            min_lost_games=min_lost_games,
        ),
        log=log,
    )  # fmt: skip
    report["replay_files"] = write_replays(report, out / "replays", replays)
    written = write_outputs(report, out)
    exploited = [
        f"{entry['oracle']} ({side})"
        for entry in report["oracles"]
        for side, colour in entry["colours"].items()
        if colour["exploitable"]
    ]
    if as_json:
        echo_json(report)
    else:
        from rich.table import Table

        from riven_env.analytics.stress import TABLE_HEADER

        table = Table(title=f"Oracle stress test on {scenario}: {chosen} vs the Oracle")
        for name in TABLE_HEADER:
            table.add_column(name)
        for row in table_rows(report):
            table.add_row(*row)
        console = make_console()
        console.print(table)
        body = render_markdown(report).split("\n## ", 1)
        if len(body) == 2:
            typer.echo("\n## " + body[1])
        typer.echo(f"written: {', '.join(str(p) for p in written)}")
    if fail_on_exploit and exploited:
        # A checker's negative verdict: exit 1 (docs/cli.md), the verdict on stderr.
        typer.echo(f"exploitable: {', '.join(exploited)}", err=True)
        raise typer.Exit(1)
