"""HTML sections of the analytics, added to the playtest report (``riven report``)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from riven_env.analytics import plots
from riven_env.analytics.metrics import Metric
from riven_env.playtest.report import _e, _img, _section, _table
from riven_env.playtest.stats import Interval

# Metrics drawn on the shared 0-1 axis of the forest plot (the others have units).
UNIT_METRICS = (
    "first_player_advantage",
    "balance",
    "decisiveness",
    "drawishness",
    "drama",
    "flight_share",
)


def fmt(i: Interval, digits: int = 2) -> str:
    """``value [low, high]`` (a dash for no data)."""
    if i.n == 0 or i.value is None or math.isnan(i.value):
        return "-"
    if math.isnan(i.low) or math.isnan(i.high):
        return f"{i.value:.{digits}f}"
    return f"{i.value:.{digits}f} [{i.low:.{digits}f}, {i.high:.{digits}f}]"


def metrics_section(metrics: Mapping[str, Metric]) -> str:
    """The "Game metrics" section: forest plot, table, one plain sentence per metric."""
    rows = []
    for name, metric in metrics.items():
        parts = "; ".join(f"{_e(p)} {fmt(i)}" for p, i in metric.parts.items())
        rows.append((_e(name), fmt(metric.estimate), metric.estimate.n, _e(metric.method), parts))
    table = _table(["Metric", "Value [95%]", "n", "Interval", "Parts"], rows, text_columns=1)
    meanings = "".join(
        f"<li><b>{_e(name)}</b>: {_e(metric.meaning)}</li>" for name, metric in metrics.items()
    )
    unit = [(name, metrics[name].estimate) for name in UNIT_METRICS if name in metrics]
    body = _img(plots.forest(unit, "value (dot) and 95% interval (line)"), "game metrics") + table
    return _section(
        "game-metrics",
        "Game metrics: balance, decisiveness, drama, lethality",
        "What designers measure beyond who wins (after Browne's Ludii metrics and TAG), each "
        "with a 95% interval; 'n' is the number of games it rests on (decided games only for "
        f"decisiveness and drama). Definitions: docs/metrics.md.<ul>{meanings}</ul>",
        body,
    )


def analytics_sections(db, run: Mapping) -> list[str]:
    """Every analytics section that has data for this run (metrics always; the others when
    the run belongs to a seat swap, skill trace, meta-game or audit group)."""
    from riven_env.analytics.metrics import run_metrics

    sections = [metrics_section(run_metrics(db, run["run_id"]))]
    for builder in EXTRA_BUILDERS:
        html = builder(db, run)
        if html:
            sections.append(html)
    return sections


# Builders ``(db, run) -> html or ""`` of the group sections, filled by the modules below.
EXTRA_BUILDERS: list = []
