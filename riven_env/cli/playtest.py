"""``riven playtest``, ``riven report``, ``riven compare`` and ``riven tournament``.

Playtests play many games in parallel and store them in a DuckDB file (schema and ``--json``
keys: ``docs/playtest.md``). Bad input (unknown scenario, agent spec or ``--set`` key)
exits with status 2 and one line on stderr; Ctrl-C exits with status 130 after saying how
to resume.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from riven_env.cli.common import (
    EXIT_INTERRUPTED,
    AsJson,
    Backend,
    Db,
    EngineOption,
    Games,
    MaxDecisions,
    QuietOption,
    RayAddress,
    Scenario,
    Seed,
    Sets,
    WorkersOption,
    check_output,
    echo_json,
    friendly_errors,
    make_console,
    rate_text,
    results_field,
    results_line,
)
from riven_env.interrupts import interrupts_deferred
from riven_env.playtest.config import DEFAULT_DB

if TYPE_CHECKING:
    from riven_env.playtest.config import PlaytestConfig
    from riven_env.playtest.runner import RunResult

Workers = WorkersOption


def _side_line(side: str, agent: str, info: dict) -> str:
    """``blue: oracle, Oracle profile tactical; Wardens of the Ford: captain, ...; 2.10 points``."""
    from riven_env.playtest.summary import roster_text

    text = f"{side}: {info.get('agent') or agent}"
    if info.get("oracle_profile"):
        text += f", Oracle profile {info['oracle_profile']}"
    if info.get("roster"):
        name = f"{info['name']}: " if info.get("name") else ""
        text += f"; {name}{roster_text(info)}"
    if info.get("mean_points") is not None:
        text += f"; {info['mean_points']:.2f} points per game"
    return text


def _interrupted(exc: Exception) -> typer.Exit:
    typer.echo(str(exc), err=True)
    return typer.Exit(EXIT_INTERRUPTED)


def _base_config(**values: object):
    from riven_env.cli.common import apply_engine
    from riven_env.playtest.config import PlaytestConfig, parse_overrides

    sets = values.pop("sets") or []
    values["engine"] = apply_engine(values.get("engine"))  # type: ignore[arg-type]
    return PlaytestConfig(overrides=parse_overrides(sets), **values)  # type: ignore[arg-type]


@friendly_errors
def playtest(
    scenario: Scenario,
    blue: Annotated[
        str, typer.Option("--blue", help="Agent for blue (random, oracle:PROFILE ...).")
    ],
    red: Annotated[str, typer.Option("--red", help="Agent for red.")],
    games: Games,
    seed: Seed = 0,
    workers: Workers = None,
    backend: Backend = "local",
    ray_address: RayAddress = None,
    db: Db = DEFAULT_DB,
    report: Annotated[
        Path | None, typer.Option("--report", help="Also write an HTML report.")
    ] = None,
    as_json: AsJson = False,
    sets: Sets = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the latest run of this experiment.")
    ] = False,
    export: Annotated[
        Path | None,
        typer.Option("--export", help="Also export the run's games to FILE.parquet or FILE.csv."),
    ] = None,
    max_decisions: MaxDecisions = None,
    quiet: QuietOption = False,
    swap_seats: Annotated[
        bool,
        typer.Option(
            "--swap-seats",
            help="Play every seed twice, rosters and agents exchanged between the colours; "
            "report roster and seat effects (docs/metrics.md).",
        ),
    ] = False,
    engine: EngineOption = None,
) -> None:
    """Play many games in parallel and store the results."""
    from riven_env.analytics.metrics import attach_metrics
    from riven_env.analytics.report import write_report
    from riven_env.playtest.db import EXPORT_FORMATS, ResultsDB
    from riven_env.playtest.runner import PlaytestInterrupted, run_playtest

    check_output(db, "--db", default=DEFAULT_DB)
    check_output(report, "--report")
    check_output(export, "--export", suffixes=[f".{fmt}" for fmt in EXPORT_FORMATS])

    config = _base_config(
        engine=engine,
        scenario=scenario, blue=blue, red=red, games=games, seed=seed, workers=workers,
        backend=backend, ray_address=ray_address, db=db, sets=sets, max_decisions=max_decisions,
    )  # fmt: skip
    if swap_seats:
        from riven_env.cli.analytics import swap_command

        try:
            swap_command(
                config, as_json=as_json, resume=resume, report=report, export=export, quiet=quiet
            )
        except PlaytestInterrupted as exc:
            raise _interrupted(exc) from None
        return
    try:
        result = run_playtest(config, progress=not quiet, resume=resume)
    except PlaytestInterrupted as exc:
        raise _interrupted(exc) from None
    try:
        data = result.to_json()
        data["metrics"] = attach_metrics(config.db, result.run_id)
        if export is not None:
            with ResultsDB(config.db) as handle:
                handle.export_table("games", export, [result.run_id], exclude=("summary",))
        if report is not None:
            write_report(config.db, result.run_id, report)
    except KeyboardInterrupt:  # every game is stored by now: say so, as at any other moment
        stopped = PlaytestInterrupted(result.run_id, result.summary.games, config.games)
        raise _interrupted(stopped) from None
    # Every game is stored and measured: a Ctrl-C now waits for the result to be printed
    # whole, and the command ends as a finished run (status 0).
    try:
        with interrupts_deferred():
            _print_result(data, config, result, report, export, as_json)
    except KeyboardInterrupt:
        pass


def _print_result(
    data: dict[str, Any],
    config: PlaytestConfig,
    result: RunResult,
    report: Path | None,
    export: Path | None,
    as_json: bool,
) -> None:
    """Print a finished playtest: its JSON object, or the table, the sides and the metrics."""
    from riven_env.cli.analytics import metrics_table

    scenario, blue, red = config.scenario, config.blue, config.red
    if as_json:
        echo_json({**data, "results": results_field(config.db, data["games"])})
        return
    table = Table(title=f"{scenario}: {blue} (blue) vs {red} (red)")
    table.add_column("Result")
    table.add_column("Games", justify="right")
    table.add_column("Rate  [95% interval]", justify="right")
    for side in ("blue", "red"):
        table.add_row(f"{side} wins", str(data["wins"][side]), rate_text(data["win_rate"][side]))
    table.add_row("draws", str(data["draws"]), rate_text(data["draw_rate"]))
    console = make_console()
    console.print(table)
    for side, agent in (("blue", blue), ("red", red)):
        console.print(_side_line(side, agent, data["sides"].get(side, {})), highlight=False)
    console.print(metrics_table(data["metrics"]))
    mean_rounds = data["mean_rounds"]
    console.print(
        f"games: {data['games']} (played now: {result.played}, resumed: {result.skipped}); "
        f"mean rounds: {'-' if mean_rounds is None else f'{mean_rounds:.2f}'}; "
        f"run {result.run_id} in {config.db}"
        + (f"; report: {report}" if report else "")
        + (f"; export: {export}" if export else "")
    )
    results_line(config.db, data["games"])


@friendly_errors
def report(
    db: Annotated[Path, typer.Argument(help="Results database (DuckDB file).")],
    run: Annotated[
        str | None, typer.Option("--run", help="Run id (default: the latest run).")
    ] = None,
    output: Annotated[Path, typer.Option("-o", "--output", help="HTML file.")] = Path(
        "report.html"
    ),
    export: Annotated[
        Path | None, typer.Option("--export", help="Also export every table to this folder.")
    ] = None,
    export_format: Annotated[
        str, typer.Option("--format", help="Export format: parquet|csv.")
    ] = "parquet",
) -> None:
    """Write the HTML report of a playtest run (and optionally export its tables)."""
    from riven_env.analytics.report import write_report
    from riven_env.analytics.store import export_analytics
    from riven_env.playtest.db import ResultsDB

    check_output(output, "--output")
    check_output(export, "--export", kind="folder")

    written = write_report(db, run, output)
    typer.echo(f"wrote {written}", err=True)
    if export is not None:
        with ResultsDB(db, read_only=True) as handle:
            run_ids = [handle.run(run)["run_id"]] if run else None
            paths = handle.export_all(export, run_ids, export_format)
            paths += export_analytics(handle, export, export_format)
        typer.echo(f"exported {len(paths)} tables to {export}", err=True)


@friendly_errors
def compare(
    scenario: Scenario,
    games: Games,
    variants: Annotated[
        list[str],
        typer.Option(
            "--variant", metavar="KEY=VALUE", help="A rule variant to compare; repeatable."
        ),
    ],
    blue: Annotated[str, typer.Option("--blue", help="Agent for blue.")] = "oracle",
    red: Annotated[str, typer.Option("--red", help="Agent for red.")] = "oracle",
    until_significant: Annotated[
        bool, typer.Option("--until-significant", help="Stop early once a sequential test decides.")
    ] = False,
    alpha: Annotated[float, typer.Option("--alpha", help="Error rate over all variants.")] = 0.05,
    seed: Seed = 0,
    workers: Workers = None,
    backend: Backend = "local",
    ray_address: RayAddress = None,
    db: Db = DEFAULT_DB,
    sets: Sets = None,
    as_json: AsJson = False,
    max_decisions: MaxDecisions = None,
    quiet: QuietOption = False,
    engine: EngineOption = None,
) -> None:
    """Compare rule variants with the baseline on the same seeds."""
    check_output(db, "--db", default=DEFAULT_DB)
    from riven_env.playtest.compare import Variant, run_compare
    from riven_env.playtest.config import parse_override
    from riven_env.playtest.runner import PlaytestInterrupted

    config = _base_config(
        engine=engine,
        scenario=scenario, blue=blue, red=red, games=games, seed=seed, workers=workers,
        backend=backend, ray_address=ray_address, db=db, sets=sets, max_decisions=max_decisions,
    )  # fmt: skip
    parsed = []
    for text in variants:
        key, value = parse_override(text)
        parsed.append(Variant(label=text.strip(), overrides={key: value}))
    try:
        result = run_compare(
            config, parsed, until_significant=until_significant, alpha=alpha, progress=not quiet
        )
    except PlaytestInterrupted as exc:
        raise _interrupted(exc) from None
    data = result.to_json()
    played = sum(arm["games"] for arm in [data["baseline"], *data["variants"]])
    if as_json:
        echo_json({**data, "results": results_field(config.db, played)})
        return
    table = Table(title=f"{scenario}: {blue} vs {red}, same seeds for every arm")
    for column in ("Arm", "Games", "Blue win rate", "Red win rate", "Mean rounds",
                   "Casualties/game", "Flights/game", "Decisive"):  # fmt: skip
        table.add_column(column, justify="left" if column == "Arm" else "right")
    arms = [("baseline", data["baseline"]), *[(v["label"], v) for v in data["variants"]]]
    for label, arm in arms:
        table.add_row(
            label, str(arm["games"]), rate_text(arm["blue_win_rate"]), rate_text(arm["red_win_rate"]),
            _mean(arm["rounds"]), _mean(arm["casualties"]), _mean(arm["flights"]),
            rate_text(arm["decisive_rate"]),
        )  # fmt: skip
    make_console().print(table)
    diffs = Table(title="Paired differences, variant - baseline [95%]")
    for column in ("Variant", "Blue win", "Red win", "Rounds", "Casualties", "Flights",
                   "Decisive", "Sequential"):  # fmt: skip
        diffs.add_column(column, justify="left" if column == "Variant" else "right")
    for v in data["variants"]:
        seq = v["sequential"]
        seq_text = "" if seq is None else (
            f"{'decided' if seq['significant'] else 'undecided'} "
            f"[{seq['low'] * 100:+.1f}, {seq['high'] * 100:+.1f}] pts"
        )  # fmt: skip
        diffs.add_row(
            v["label"], _points(v["blue_win_diff"]), _points(v["red_win_diff"]),
            _diff(v["rounds_diff"]), _diff(v["casualties_diff"]), _diff(v["flights_diff"]),
            _points(v["decisive_diff"]), seq_text,
        )  # fmt: skip
    make_console().print(diffs)
    results_line(config.db, played)


def _mean(interval: dict | None) -> str:
    if not interval or interval.get("value") is None:
        return "-"
    text = f"{interval['value']:.2f}"
    low, high = interval.get("low"), interval.get("high")
    if low is not None and high is not None and low == low:  # NaN bounds: too few games
        text += f" [{low:.2f}, {high:.2f}]"
    return text


def _points(d: dict) -> str:
    return f"{d['value'] * 100:+.1f} pts [{d['low'] * 100:+.1f}, {d['high'] * 100:+.1f}]"


def _diff(d: dict) -> str:
    return f"{d['value']:+.2f} [{d['low']:+.2f}, {d['high']:+.2f}]"


@friendly_errors
def tournament(
    scenario: Scenario,
    agents: Annotated[str, typer.Option("--agents", help="Comma-separated agents, e.g. a,b,c.")],
    games: Games,
    seed: Seed = 0,
    workers: Workers = None,
    backend: Backend = "local",
    ray_address: RayAddress = None,
    db: Db = DEFAULT_DB,
    sets: Sets = None,
    as_json: AsJson = False,
    max_decisions: MaxDecisions = None,
    quiet: QuietOption = False,
    engine: EngineOption = None,
) -> None:
    """Round robin between agents (both sides of every pair) with OpenSkill ratings."""
    check_output(db, "--db", default=DEFAULT_DB)
    from riven_env.playtest.runner import PlaytestInterrupted
    from riven_env.playtest.tournament import parse_agents, run_tournament

    names = parse_agents(agents)
    config = _base_config(
        engine=engine,
        scenario=scenario, blue=names[0], red=names[1], games=games, seed=seed, workers=workers,
        backend=backend, ray_address=ray_address, db=db, sets=sets, max_decisions=max_decisions,
    )  # fmt: skip
    try:
        result = run_tournament(config, names, progress=not quiet)
    except PlaytestInterrupted as exc:
        raise _interrupted(exc) from None
    data = result.to_json()
    played = sum(s["wins"] + s["draws"] + s["losses"] for s in data["standings"]) // 2
    if as_json:
        echo_json({**data, "results": results_field(config.db, played)})
        return
    table = Table(title=f"{scenario}: round robin, {games} games per pairing and side")
    for column in ("#", "Agent", "Rating", "mu", "sigma", "W", "D", "L", "Win rate [95%]",
                   "as blue [95%]", "as red [95%]"):  # fmt: skip
        table.add_column(column, justify="left" if column == "Agent" else "right")
    for rank, s in enumerate(data["standings"], start=1):
        rating = s["rating"]
        table.add_row(
            str(rank), s["agent"], f"{rating['ordinal']:.2f}", f"{rating['mu']:.2f}",
            f"{rating['sigma']:.2f}", str(s["wins"]), str(s["draws"]), str(s["losses"]),
            rate_text(s["win_rate"]), rate_text(s["win_rate_by_colour"]["blue"]),
            rate_text(s["win_rate_by_colour"]["red"]),
        )  # fmt: skip
    make_console().print(table)
    typer.echo(f"runs stored in {config.db} (group {result.group_id})", err=True)
    results_line(config.db, played)


def register(app: typer.Typer) -> None:
    """Add the playtest commands to the ``riven`` app."""
    app.command("playtest")(playtest)
    app.command("report")(report)
    app.command("compare")(compare)
    app.command("tournament")(tournament)
