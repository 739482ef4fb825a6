"""Designer analytics on the command line: ``riven skill-trace``, ``riven meta`` and
``riven oracle audit`` (the ``oracle`` group belongs to :mod:`riven_env.cli.oracle`), plus
the metrics table shown after ``riven playtest``. Definitions: ``docs/metrics.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.table import Table


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


def _rate_text(rate: Mapping[str, Any]) -> str:
    if rate.get("rate") is None:
        return "-"
    return f"{rate['rate'] * 100:.1f}%  [{rate['low'] * 100:.1f}, {rate['high'] * 100:.1f}]"


def swap_command(config: Any, *, as_json: bool, resume: bool, report: Any, export: Any) -> None:
    """``riven playtest --swap-seats``: both runs, per-colour results, roster and seat effects."""
    from rich.console import Console

    from riven_env.analytics.metrics import attach_metrics
    from riven_env.analytics.seats import run_swap
    from riven_env.cli.common import echo_json
    from riven_env.playtest.db import ResultsDB
    from riven_env.playtest.report import write_report

    swap, results = run_swap(config, progress=not as_json, resume=resume)
    runs = {}
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
    out = {"swap": swap.to_json(), "runs": runs}
    if as_json:
        echo_json(out)
        return
    console = Console()
    table = Table(title=f"{config.scenario}: seat swap, {swap.pairs} seeds played both ways")
    for column in ("Run", "Blue agent", "Red agent", "Blue wins [95%]", "Red wins [95%]",
                   "Draws [95%]"):  # fmt: skip
        table.add_column(
            column, justify="left" if "agent" in column or column == "Run" else "right"
        )
    for arm, data in runs.items():
        table.add_row(
            arm, data["config"]["blue"], data["config"]["red"],
            _rate_text(data["win_rate"]["blue"]), _rate_text(data["win_rate"]["red"]),
            _rate_text(data["draw_rate"]),
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
        effects.add_row(f"win rate {name.replace('_', ' ')}", _rate_text(rate))
    console.print(effects)
    typer_echo = Console(stderr=True)
    typer_echo.print(
        f"runs {swap.runs['given']} and {swap.runs['swapped']} in {config.db}"
        + (f"; report: {report}" if report else "")
    )
