"""``riven balance``: tune a mission to its declared balance, or check that it meets it.

``riven balance SCENARIO`` searches the knobs of the mission's ``[balance]`` table with an
Optuna sampler and writes the tuned mission and an HTML report of the search;
``riven balance SCENARIO --check`` plays the Oracle mirror with seat swap and exits 1 when
the declared balance is not met. ``docs/balance.md`` has the details.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from riven_env.cli.common import (
    AsJson,
    Backend,
    EngineOption,
    QuietOption,
    RayAddress,
    Seed,
    WorkersOption,
    check_output,
    echo_json,
    friendly_errors,
    make_console,
    rate_text,
)
from riven_env.cli.playtest import _interrupted

DEFAULT_DB = Path("runs") / "balance" / "balance.duckdb"


def _rate(data: dict) -> str:
    return rate_text(data) + f"  n={data['n']}"


def _estimate_table(title: str, est: dict) -> Table:
    table = Table(title=title)
    table.add_column("Measure")
    table.add_column("Rate  [95% interval]", justify="right")
    side = est["side"]
    other = "red" if side == "blue" else "blue"
    table.add_row(f"{side} roster, share of decisive games", _rate(est["win_rate"]))
    table.add_row(f"  as given (on {side})", _rate(est["win_rate_given"]))
    table.add_row(f"  swapped (on {other})", _rate(est["win_rate_swapped"]))
    for colour in ("blue", "red"):
        table.add_row(f"{colour} colour, both arms", _rate(est["colours"][colour]))
    table.add_row("draws (of all games)", _rate(est["draw_rate"]))
    rounds = est["rounds"]
    table.add_row(
        "mean rounds", f"{rounds['value']:.2f}  [{rounds['low']:.2f}, {rounds['high']:.2f}]"
    )
    return table


def _cells_table(title: str, cells: list[dict]) -> Table:
    """The target matrix: one row per declared rate with its figures per colour."""
    table = Table(title=title)
    for name, justify in (
        ("Cell (row agent vs column agent)", "left"),
        ("Target", "right"),
        ("Row agent's share [95%]", "right"),
        ("on blue", "right"),
        ("on red", "right"),
        ("Draws", "right"),
        ("Met", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for cell in cells:
        est = cell["estimate"]
        # The row agent plays its side's roster on that colour as given, the other swapped.
        on = {est["side"]: est["win_rate_given"]}
        on["red" if est["side"] == "blue" else "blue"] = est["win_rate_swapped"]
        table.add_row(
            f"{cell['name']} ({cell['side']} roster)",
            f"{cell['win_rate'] * 100:g} +/- {cell['tolerance'] * 100:g}",
            _rate(est["win_rate"]),
            _rate(on["blue"]),
            _rate(on["red"]),
            rate_text(est["draw_rate"]),
            "yes" if cell.get("met", not cell.get("reasons")) else "NO",
        )
    return table


def _settings(stages: str | None):
    """The bundled search settings, with ``--stages`` when given."""
    from dataclasses import asdict

    from riven_env.balance.objective import BalanceError, balance_settings, check_settings

    settings = balance_settings()
    if stages is None:
        return settings
    try:
        looks = [int(part) for part in stages.split(",")]
    except ValueError:
        raise BalanceError(
            f"--stages {stages!r} is not allowed; allowed: increasing whole numbers, e.g. 30,90,250"
        ) from None
    raw = asdict(settings)
    return check_settings(
        {
            "search": {
                "sampler": raw["sampler"],
                "trials": raw["trials"],
                "startup_trials": raw["startup_trials"],
                "stages": looks,
                "prune_confidence": raw["prune_confidence"],
            },
            "objective": {k: raw[k] for k in ("draw_weight", "rounds_weight", "rounds_tolerance")},
            "check": {"pairs": raw["check_pairs"]},
        },
        where="--stages",
    )


@friendly_errors
def balance(
    scenario: Annotated[str, typer.Argument(help="Bundled mission name or mission file.")],
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Only check the declared balance (exit 1 when it is not met)."
        ),
    ] = False,
    pairs: Annotated[
        int | None,
        typer.Option("--pairs", min=1, help="--check: seeds, each played as given and swapped."),
    ] = None,
    tolerance: Annotated[
        float | None,
        typer.Option("--tolerance", help="--check: override the file's tolerance (0.05)."),
    ] = None,
    interval: Annotated[
        float | None,
        typer.Option("--interval", help="--check: override the file's interval bound (0.07)."),
    ] = None,
    sampler: Annotated[
        str | None, typer.Option("--sampler", help="tpe (default), gp, random or grid.")
    ] = None,
    trials: Annotated[
        int | None, typer.Option("--trials", min=1, help="Most candidates to try.")
    ] = None,
    stages: Annotated[
        str | None,
        typer.Option(
            "--stages",
            metavar="N,N,...",
            help="Seeds at each look at a candidate, increasing (default: balance.toml's).",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help="Tuned mission file (default: beside the database)."),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="HTML report of the search (default: beside the database)."),
    ] = None,
    seed: Seed = 0,
    workers: WorkersOption = None,
    backend: Backend = "local",
    ray_address: RayAddress = None,
    db: Annotated[Path, typer.Option("--db", help="Results database (DuckDB file).")] = DEFAULT_DB,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the stored search of this mission and seed.")
    ] = False,
    engine: EngineOption = None,
    as_json: AsJson = False,
    quiet: QuietOption = False,
) -> None:
    """Tune a mission's knobs to the balance its file declares, or --check it."""
    from riven_env.cli.common import apply_engine
    from riven_env.playtest.runner import PlaytestInterrupted

    check_output(db, "--db", default=DEFAULT_DB)
    check_output(out, "--out", suffixes=[".toml"])
    check_output(report, "--report", suffixes=[".html"])
    console = make_console(stderr=as_json)
    engine = apply_engine(engine, scenario)
    if check:
        from riven_env.balance.check import check_balance
        from riven_env.balance.objective import BalanceError

        try:
            result = check_balance(
                scenario, pairs=pairs, seed=seed, workers=workers, backend=backend,
                ray_address=ray_address, db_path=db, tolerance=tolerance, interval=interval,
                progress=not quiet, engine=engine,
            )  # fmt: skip
        except (PlaytestInterrupted, KeyboardInterrupt):
            # The check always reuses what its database holds: the same command continues.
            stopped = BalanceError(
                "interrupted: the games played so far are saved; the same command continues "
                "from them"
            )
            raise _interrupted(stopped) from None
        data = result.to_json()
        if as_json:
            echo_json(data)
        else:
            spec = result.spec
            cells = data["cells"]
            mirror_only = len(cells) == 1 and result.cells[0].cell.is_mirror
            title = (
                f"{scenario}: declared {spec.describe()} (+/- {spec.tolerance * 100:g}, "
                f"interval inside +/- {spec.interval * 100:g}); {result.estimate.games} games, "
                f"{result.estimate.swap} swapped"
                if mirror_only
                # Each cell has its own tolerances: the table's Target column shows them.
                else f"{scenario}: declared {spec.describe()}; {result.estimate.games} games "
                f"per cell, {result.estimate.swap} swapped"
            )
            if mirror_only:
                console.print(_estimate_table(title, data["estimate"]))
            else:
                console.print(_cells_table(title, cells))
            if result.met:
                console.print("balance met", highlight=False)
            else:
                console.print("balance NOT met: " + "; ".join(result.reasons), highlight=False)
        raise typer.Exit(0 if result.met else 1)

    from riven_env.balance.report import write_search_report
    from riven_env.balance.search import SearchInterrupted, run_search
    from riven_env.scenario.loader import resolve_scenario

    settings = _settings(stages)
    path = resolve_scenario(scenario)
    folder = db.resolve().parent
    out = out or folder / f"{path.stem}.tuned.toml"
    report = report or folder / f"{path.stem}.balance.html"
    log = make_console(stderr=True)
    try:
        result = run_search(
            path, seed=seed, sampler=sampler, trials=trials, workers=workers, backend=backend,
            ray_address=ray_address, db_path=db, out=out, resume=resume, progress=not quiet,
            # One line per candidate (in the --json object instead when that is asked for).
            echo=None if quiet or as_json else (lambda line: log.print(line, highlight=False)),
            settings=settings, engine=engine,
        )  # fmt: skip
    except (PlaytestInterrupted, SearchInterrupted) as exc:
        raise _interrupted(exc) from None
    write_search_report(result, report)
    data = result.to_json() | {"report": str(report)}
    if as_json:
        echo_json(data)
    else:
        best = result.best()
        if best is not None and best.last is not None:
            verdict = "meets the target" if result.met else "closest; target NOT met"
            values = ", ".join(f"{k} = {v!r}" for k, v in best.values.items())
            title = f"candidate {best.number} ({verdict}): {values}"
            cells = result.spec.cells()
            if len(cells) == 1 and cells[0].is_mirror:
                console.print(_estimate_table(title, best.last))
            else:
                shown = [
                    c.to_dict() | {"estimate": e, "reasons": r}
                    for c, e, r in zip(cells, best.last_cells, best.cell_reasons, strict=True)
                    if e is not None
                ]
                console.print(_cells_table(title, shown))
        console.print(
            f"{len(result.candidates)} candidates, {result.games} games "
            f"(a grid of {result.grid_size} settings at the full sample: {result.grid_games}); "
            f"{result.elapsed_s:.0f} s; tuned file: {result.out}; report: {report}",
            highlight=False,
        )
    raise typer.Exit(0 if result.met else 1)


def register(app: typer.Typer) -> None:
    """Add ``riven balance`` to the app."""
    app.command("balance")(balance)


__all__ = ["balance", "register"]
