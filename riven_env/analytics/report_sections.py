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


def _matrix_body(matrix) -> str:
    data = matrix.to_json()
    labels = data["labels"]
    values = [[None if c is None else c["value"] for c in row] for row in data["matrix"]]
    cells = [["" if c is None else f"{c['value']:.2f}" for c in row] for row in data["matrix"]]
    rows = [
        (_e(label), *("-" if c is None else fmt(matrix.interval(r, k)) for k, c in enumerate(row)))
        for r, (label, row) in enumerate(zip(labels, data["matrix"], strict=True))
    ]
    return _img(plots.matrix(labels, values, "score of row vs column", cells), "matrix") + _table(
        ["row vs column", *labels], rows
    )


def skill_section(trace) -> str:
    """The "Skill trace" section: the ladder's score matrix, strengths and Kendall tau."""
    strength = [(label, i) for label, i in trace.strength.items()]
    steps = "".join(f"<li>{_e(u)} vs {_e(lo)}: {fmt(i)}</li>" for u, lo, i in trace.steps)
    body = (
        _matrix_body(trace.matrix)
        + _img(plots.forest(strength, "mean score against the rest (95%)", 0.5), "strength")
        + f"<p>Kendall tau between ladder level and strength: <b>{fmt(trace.tau)}</b>; "
        f"monotone (every rung beats the one below, interval above 1/2): "
        f"<b>{'yes' if trace.monotone else 'no'}</b>.</p><ul>{steps}</ul>"
    )
    return _section(
        "skill-trace",
        "Skill trace: do stronger agents win more?",
        "Agents in order of expected strength (weakest first) played each other on both "
        "colours. Each cell is the row agent's score against the column (a win 1, a draw 1/2) "
        "with a 95% Wilson interval. A tau near 1 means skill pays on this mission; near 0 "
        "means the result barely depends on how well one plays, which is itself a finding.",
        body,
    )


def meta_section(game) -> str:
    """The "Roster meta-game" section: payoffs, Nash mixture, alpha-rank, flags."""
    flags = (
        f"<p>Dominant rosters: <b>{_e(', '.join(game.dominant) or 'none')}</b>. "
        f"Rock-paper-scissors cycles (every beat significant): "
        f"<b>{_e('; '.join(' > '.join(c) for c in game.cycles) or 'none')}</b>; on point "
        f"estimates only: {_e('; '.join(' > '.join(c) for c in game.tentative_cycles) or 'none')}."
        "</p>"
    )
    table = _table(
        ["Roster", "Nash mixture", "alpha-rank"],
        [(_e(k), f"{game.nash[k]:.3f}", f"{game.alpha_rank[k]:.3f}") for k in game.nash],
    )
    body = (
        _matrix_body(game.matrix)
        + _img(plots.bars(game.nash, "Nash mixture weight"), "nash")
        + _img(plots.bars(game.alpha_rank, "alpha-rank stationary mass"), "alpha-rank")
        + table
        + flags
    )
    return _section(
        "meta-game",
        "Roster meta-game: which warbands matter",
        f"Every roster played every other on both colours, all played by {_e(game.agent)}. "
        "The Nash mixture is the mix of rosters a player should field so that no roster "
        "beats it; alpha-rank is where an evolving population of players would settle. A "
        "healthy meta-game spreads weight over several rosters; one roster with all the "
        "weight is dominant, and a cycle means each roster has a counter.",
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
    if run.get("kind") in ("skill-trace", "meta") and run.get("group_id"):
        from riven_env.analytics import meta, skill
        from riven_env.analytics.matrix import matrix_from_group

        matrix = matrix_from_group(db, run["group_id"])
        if run["kind"] == "skill-trace":
            sections.append(skill_section(skill.analyse(matrix, run["group_id"], run["scenario"])))
        else:
            agent = run["blue"]
            sections.append(
                meta_section(meta.analyse(matrix, run["group_id"], run["scenario"], agent))
            )
    return sections
