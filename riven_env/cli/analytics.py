"""Designer analytics on the command line: ``riven skill-trace``, ``riven meta`` and
``riven oracle audit`` (the ``oracle`` group belongs to :mod:`riven_env.cli.oracle`), plus
the metrics table shown after ``riven playtest``. Definitions: ``docs/metrics.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from riven_env.cli.common import (
    AsJson,
    Db,
    MaxDecisions,
    QuietOption,
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
from riven_env.playtest.config import DEFAULT_DB


def _num(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def interval_text(item: Mapping[str, Any], digits: int = 2) -> str:
    """``value [low, high]`` of a JSON interval (dashes for missing values)."""
    if item.get("value") is None:
        return "-"
    if item.get("low") is None or item.get("high") is None:
        return _num(item["value"], digits)
    return f"{item['value']:.{digits}f} [{item['low']:.{digits}f}, {item['high']:.{digits}f}]"


def metrics_table(metrics: Mapping[str, Mapping[str, Any]]) -> Table:
    """The ``metrics`` of ``riven playtest --json`` as a table."""
    table = Table(title="Game metrics (95% intervals; docs/metrics.md)")
    for column in ("Metric", "Value [95%]", "n", "Parts"):
        table.add_column(column, justify="left" if column in ("Metric", "Parts") else "right")
    for name, metric in metrics.items():
        parts = "; ".join(f"{p} {interval_text(i)}" for p, i in metric["parts"].items())
        table.add_row(name, interval_text(metric), str(metric["n"]), parts)
    return table


def swap_command(
    config: Any, *, as_json: bool, resume: bool, report: Any, export: Any, quiet: bool = False
) -> None:
    """``riven playtest --swap-seats``: both runs, per-colour results, roster and seat effects."""
    from riven_env.analytics.metrics import attach_metrics
    from riven_env.analytics.report import write_report
    from riven_env.analytics.seats import run_swap
    from riven_env.playtest.db import ResultsDB

    swap, results = run_swap(config, progress=not quiet, resume=resume)
    runs = {}
    try:
        for arm, result in results.items():
            data = result.to_json()
            data["metrics"] = attach_metrics(config.db, result.run_id)
            runs[arm] = data
        if export is not None:
            with ResultsDB(config.db) as handle:
                ids = [r.run_id for r in results.values()]
                handle.export_table("games", export, ids, exclude=("summary",))
        if report is not None:
            write_report(config.db, results["given"].run_id, report)
    except KeyboardInterrupt:  # every game of both runs is stored by now: say so
        from riven_env.playtest.runner import PlaytestInterrupted

        last = results["swapped"]
        raise PlaytestInterrupted(last.run_id, last.summary.games, config.games) from None
    out = {"swap": swap.to_json(), "runs": runs}
    games = sum(data["games"] for data in runs.values())
    if as_json:
        echo_json({**out, "results": results_field(config.db, games)})
        return
    console = make_console()
    table = Table(title=f"{config.scenario}: seat swap, {swap.pairs} seeds played both ways")
    for column in ("Run", "Blue agent", "Red agent", "Blue wins [95%]", "Red wins [95%]",
                   "Draws [95%]"):  # fmt: skip
        table.add_column(
            column, justify="left" if "agent" in column or column == "Run" else "right"
        )
    for arm, data in runs.items():
        table.add_row(
            arm, data["config"]["blue"], data["config"]["red"],
            rate_text(data["win_rate"]["blue"]), rate_text(data["win_rate"]["red"]),
            rate_text(data["draw_rate"]),
        )  # fmt: skip
    console.print(table)
    effects = Table(title="Roster and seat effects (per-seed advantage, -1..+1, paired t 95%)")
    effects.add_column("Effect")
    effects.add_column("Value [95%]", justify="right")
    effects.add_row(
        f"roster: A ({swap.packages['A']}) over B", interval_text(swap.roster_effect.to_dict())
    )
    effects.add_row("seat: blue over red", interval_text(swap.seat_effect.to_dict()))
    for name, rate in swap.to_json()["rates"].items():
        effects.add_row(f"win rate {name.replace('_', ' ')}", rate_text(rate))
    console.print(effects)
    typer_echo = make_console(stderr=True)
    typer_echo.print(
        f"runs {swap.runs['given']} and {swap.runs['swapped']} in {config.db}"
        + (f"; report: {report}" if report else "")
    )
    results_line(config.db, games)


def _matrix_table(title: str, data: Mapping[str, Any]) -> Table:
    table = Table(title=title)
    table.add_column("row vs column")
    for label in data["labels"]:
        table.add_column(label, justify="right")
    for label, row in zip(data["labels"], data["matrix"], strict=True):
        table.add_row(label, *("-" if c is None else interval_text(c) for c in row))
    return table


def _config(scenario: str, games: int, seed: int, workers: int | None, db: Path,
            sets: list[str] | None, max_decisions: int | None) -> Any:  # fmt: skip
    from riven_env.playtest.config import PlaytestConfig, parse_overrides

    check_output(db, "--db", default=DEFAULT_DB)
    return PlaytestConfig(
        scenario=scenario, blue="random", red="random", games=games, seed=seed,
        workers=workers, db=db, overrides=parse_overrides(sets or []),
        max_decisions=max_decisions,
    )  # fmt: skip


@friendly_errors
def skill_trace(
    scenario: Annotated[str, typer.Argument(help="Bundled scenario name or scenario file.")],
    agents: Annotated[
        str | None,
        typer.Option(
            "--agents",
            help="Comma-separated ladder, weakest first (default: "
            "random, greedy, --profiles, mcts at doubling budgets).",
        ),
    ] = None,
    profiles: Annotated[
        str,
        typer.Option(
            "--profiles", help="Oracle rungs of the default ladder, e.g. oracle,oracle:beast."
        ),
    ] = "oracle",
    mcts_start: Annotated[int, typer.Option("--mcts-start", min=1, help="First MCTS budget.")] = 8,
    mcts_rungs: Annotated[
        int, typer.Option("--mcts-rungs", min=0, help="MCTS rungs (budget doubles each).")
    ] = 2,
    games: Annotated[int, typer.Option("--games", min=1, help="Games per ordered pairing.")] = 10,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Run seed.")] = 0,
    workers: WorkersOption = None,
    db: Db = DEFAULT_DB,
    sets: Sets = None,
    max_decisions: MaxDecisions = None,
    as_json: AsJson = False,
    quiet: QuietOption = False,
) -> None:
    """Play a ladder of agents of rising strength; does skill pay on this mission?"""
    from riven_env.analytics.skill import default_ladder, run_skill_trace
    from riven_env.playtest.tournament import parse_agents

    ladder = (
        parse_agents(agents)
        if agents
        else default_ladder(parse_agents(profiles) if "," in profiles else [profiles.strip()],
                            mcts_start, mcts_rungs)
    )  # fmt: skip
    config = _config(scenario, games, seed, workers, db, sets, max_decisions)
    trace = run_skill_trace(config, ladder, progress=not quiet)
    data = trace.to_json()
    if as_json:
        echo_json({**data, "results": results_field(db)})
        return
    console = make_console()
    console.print(_matrix_table(f"{scenario}: score of row vs column (both colours, 95%)", data))
    steps = Table(title="Ladder steps and strength")
    for column in ("Agent", "Strength [95%]", "vs the rung below [95%]"):
        steps.add_column(column, justify="left" if column == "Agent" else "right")
    below = {s["upper"]: s["score"] for s in data["steps"]}
    for label in data["ladder"]:
        steps.add_row(label, interval_text(data["strength"][label]),
                      interval_text(below[label]) if label in below else "")  # fmt: skip
    console.print(steps)
    tau = data["kendall_tau"]
    console.print(
        f"Kendall tau (ladder level vs strength): {interval_text(tau)}; monotone: "
        f"{'yes' if data['monotone'] else 'no'}; group {data['group_id']} in {db}"
    )
    results_line(db)


@friendly_errors
def meta(
    scenario: Annotated[str, typer.Option("--scenario", help="Bundled scenario or file.")],
    rosters: Annotated[
        list[str], typer.Option("--rosters", help="Roster files (repeat, or list after it).")
    ],
    extra: Annotated[list[str] | None, typer.Argument(help="More roster files.")] = None,
    agent: Annotated[str, typer.Option("--agent", help="Agent for every roster.")] = "oracle",
    games: Annotated[int, typer.Option("--games", min=1, help="Games per ordered pairing.")] = 10,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Run seed.")] = 0,
    workers: WorkersOption = None,
    db: Db = DEFAULT_DB,
    sets: Sets = None,
    max_decisions: MaxDecisions = None,
    as_json: AsJson = False,
    quiet: QuietOption = False,
) -> None:
    """Every roster against every other: payoffs, Nash mixture, alpha-rank, cycles."""
    from riven_env.analytics.meta import run_meta

    files = [*rosters, *(extra or [])]
    config = _config(scenario, games, seed, workers, db, sets, max_decisions)
    game = run_meta(config, files, agent=agent, progress=not quiet)
    data = game.to_json()
    if as_json:
        echo_json({**data, "results": results_field(db)})
        return
    console = make_console()
    console.print(_matrix_table(f"{scenario}: roster score of row vs column ({agent}, 95%)", data))
    table = Table(title="Meta-game")
    for column in ("Roster", "Nash mixture", "alpha-rank", "Flags"):
        table.add_column(column, justify="left" if column in ("Roster", "Flags") else "right")
    for label in data["labels"]:
        flags = []
        if label in data["dominant"]:
            flags.append("dominant")
        if any(label in c for c in data["cycles"]):
            flags.append("in a cycle")
        table.add_row(label, f"{data['nash'][label]:.3f}", f"{data['alpha_rank'][label]:.3f}",
                      ", ".join(flags))  # fmt: skip
    console.print(table)
    cycles = "; ".join(" > ".join(c) for c in data["cycles"]) or "none"
    tentative = "; ".join(" > ".join(c) for c in data["tentative_cycles"]) or "none"
    console.print(f"cycles (significant): {cycles}; on point estimates: {tentative}; "
                  f"group {data['group_id']} in {db}")  # fmt: skip
    results_line(db)


def register(app: typer.Typer) -> None:
    """Add ``skill-trace`` and ``meta`` to the ``riven`` app."""
    app.command("skill-trace")(skill_trace)
    app.command("meta")(meta)


def register_audit(group: typer.Typer) -> None:
    """Add ``audit`` to the ``riven oracle`` group."""

    @group.command("audit")
    @friendly_errors
    def audit(
        profile: Annotated[str, typer.Argument(help="Oracle profile (aggressive, beast ...).")],
        scenario: Annotated[str, typer.Option("--scenario", help="Bundled scenario or file.")],
        games: Annotated[int, typer.Option("--games", min=2, help="Games per measurement.")] = 20,
        reference: Annotated[
            str, typer.Option("--reference", help="Reference player (and opponent).")
        ] = "greedy",
        rate_share: Annotated[
            float, typer.Option("--rate-share", help="Share of decisions rated by greedy.")
        ] = 0.25,
        compensate: Annotated[
            bool, typer.Option("--compensate/--no-compensate", help="Search the handicap.")
        ] = True,
        seed: Annotated[int, typer.Option("--seed", min=0, help="Run seed.")] = 0,
        workers: Annotated[int, typer.Option("--workers", min=1, help="Processes.")] = 1,
        db: Db = DEFAULT_DB,
        sets: Sets = None,
        max_decisions: MaxDecisions = None,
        as_json: AsJson = False,
    ) -> None:
        """How the Oracle feels at the table: predictability, variety, upkeep, bad moves."""
        from riven_env.analytics.oracle_audit import run_audit
        from riven_env.playtest.config import parse_overrides

        check_output(db, "--db", default=DEFAULT_DB)
        result = run_audit(
            profile, scenario, games=games, reference=reference, seed=seed, workers=workers,
            rate_share=rate_share, compensate=compensate,
            overrides=parse_overrides(sets or []), max_decisions=max_decisions, db=db,
        )  # fmt: skip
        data = result.to_json()
        if as_json:
            echo_json({**data, "results": results_field(db)})
            return
        table = Table(title=f"Oracle audit: {profile} on {scenario} vs {reference}, {games} games")
        table.add_column("Measure")
        table.add_column("Value [95%]", justify="right")
        table.add_column("n", justify="right")
        for name, est in data["measures"].items():
            table.add_row(name, interval_text(est), str(est["n"]))
        console = make_console()
        console.print(table)
        comp = data["compensation"]
        if comp is not None:
            found = comp["extra_models"]
            console.print(
                f"compensation: the {comp['weaker']} side needs "
                + (f"more than {comp['max_extra']}" if found is None else str(found))
                + f" extra model(s) for a 50% game (plausible: {comp['plausible']}); group "
                f"{data['group_id']} in {db}"
            )
        results_line(db)
