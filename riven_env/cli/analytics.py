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
