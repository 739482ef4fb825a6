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


def seats_section(swap) -> str:
    """The "Seat swap" section: roster effect and seat effect, and every per-colour rate."""
    effects = [("roster effect (A over B)", swap.roster_effect),
               ("seat effect (blue over red)", swap.seat_effect)]  # fmt: skip
    rates = [(name.replace("_", " "), i) for name, i in swap.rates.items()]
    table = _table(
        ["Measure", "Value [95%]", "n"],
        [(_e(label), fmt(i), i.n) for label, i in effects + rates],
    )
    body = (
        f"<p>A = {_e(swap.packages['A'])}; B = {_e(swap.packages['B'])}. "
        f"{swap.pairs} seeds played both ways (runs <code>{_e(swap.runs['given'])}</code> and "
        f"<code>{_e(swap.runs['swapped'])}</code>).</p>"
        + _img(plots.forest(effects, "per-seed advantage (-1 .. +1), 95% interval", 0.0), "seat")
        + _img(plots.forest(rates, "win rate, 95% interval", 0.5), "seat rates")
        + table
    )
    return _section(
        "seat-swap",
        "Seat swap: roster effect and seat effect",
        "Every seed was played twice, the second time with the rosters and their agents "
        "exchanged between the colours. The <b>roster effect</b> is how much more often "
        "roster A wins than roster B once both have played both seats; the <b>seat "
        "effect</b> is what the colour itself (deployment zone, turn order rules) is worth "
        "once both rosters have sat on it. An interval that excludes 0 is a real effect. A "
        "pooled win rate hides which of the two is at work: here they are apart.",
        body,
    )


def analytics_sections(db, run: Mapping) -> list[str]:
    """Every analytics section that has data for this run (metrics always; the others when
    the run belongs to a seat swap, skill trace, meta-game or audit group)."""
    from riven_env.analytics.metrics import run_metrics
    from riven_env.analytics.seats import swap_of_run

    sections = [metrics_section(run_metrics(db, run["run_id"]))]
    swap = swap_of_run(db, run)
    if swap is not None:
        sections.append(seats_section(swap))
    return sections
