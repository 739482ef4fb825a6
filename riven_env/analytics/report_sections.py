"""HTML sections of the analytics, added to the playtest report (``riven report``)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from riven_env.analytics import plots
from riven_env.analytics.metrics import Metric
from riven_env.playtest.html import escape as _e
from riven_env.playtest.html import image as _img
from riven_env.playtest.html import section as _section
from riven_env.playtest.html import table as _table
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


AUDIT_UNIT_MEASURES = ("predictability", "rule_coverage", "bad_move_rate", "oracle_score")


def audit_section(rows: list[dict]) -> str:
    """The "Oracle audit" section from ``oracle_audit`` rows (latest audit per profile)."""
    by_profile: dict[str, dict[str, Interval]] = {}
    beyond: dict[tuple[str, str], str] = {}
    for r in rows:
        if r["value"] is None:  # a compensation search that found no count up to its limit
            beyond[(r["profile"], r["measure"])] = f"more than {int(r['low']) - 1}"
            by_profile.setdefault(r["profile"], {})
            continue
        by_profile.setdefault(r["profile"], {})[r["measure"]] = Interval(
            r["value"], r["low"], r["high"], int(r["n"])
        )
    profiles = sorted(by_profile)
    names = sorted({m for p in by_profile.values() for m in p} | {m for _, m in beyond})

    def cell(p: str, m: str) -> str:
        if (p, m) in beyond:
            return beyond[(p, m)]
        return fmt(by_profile[p][m]) if m in by_profile[p] else "-"

    table = _table(
        ["Measure", *profiles], [(_e(m), *(cell(p, m) for p in profiles)) for m in names]
    )
    forest_rows = [
        (f"{p}: {m}", by_profile[p][m])
        for m in AUDIT_UNIT_MEASURES
        for p in profiles
        if m in by_profile[p]
    ]
    return _section(
        "oracle-audit",
        "The Oracle's feel at the table",
        "For each audited profile: <b>predictability</b> (how often its move is the one it "
        "usually makes in a situation that looks the same), <b>conditional entropy</b> and "
        "<b>variety</b> (bits of surprise given the situation, and over all its moves), "
        "<b>rule coverage</b> (share of its card's rules that fire in a game), upkeep for "
        "the human running it (<b>rules read</b> and <b>dice rolled</b> per activation), "
        "<b>bad-move rate</b> (moves a one-step lookahead rates clearly worse than the best), "
        "its score against the reference player per colour, and the extra models a side "
        "needs for a 50% game (<b>compensation</b>). Definitions: docs/metrics.md.",
        _img(plots.forest(forest_rows, "share (95% interval)", 0.5), "oracle audit") + table,
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
    sections += mission_sections(db, run, skip_kind=run.get("kind"))
    return sections


def mission_sections(db, run: Mapping, skip_kind: str | None = None) -> list[str]:
    """The latest skill trace, meta-game and Oracle audits stored for the run's mission,
    so that one report shows every analysis of the mission."""
    from riven_env.analytics import meta, skill
    from riven_env.analytics.matrix import matrix_from_group
    from riven_env.analytics.store import has_table

    scenario = str(run["scenario"])
    out = []
    if skip_kind != "skill-trace":
        found = db.query(
            "SELECT group_id FROM runs WHERE kind = 'skill-trace' AND scenario = ? "
            "ORDER BY created DESC LIMIT 1",
            [scenario],
        )
        if found:
            matrix = matrix_from_group(db, found[0]["group_id"])
            out.append(skill_section(skill.analyse(matrix, found[0]["group_id"], scenario)))
    if skip_kind != "meta" and has_table(db, "meta_strategies"):
        found = db.query(
            "SELECT m.group_id, max(r.created) AS created, any_value(r.blue) AS agent "
            "FROM meta_strategies m JOIN runs r ON r.group_id = m.group_id "
            "WHERE m.scenario = ? GROUP BY m.group_id ORDER BY created DESC LIMIT 1",
            [scenario],
        )
        if found:
            group = found[0]["group_id"]
            game = meta.analyse(matrix_from_group(db, group), group, scenario, found[0]["agent"])
            out.append(meta_section(game))
    if has_table(db, "oracle_audit"):
        rows = db.query(
            "SELECT * FROM oracle_audit WHERE scenario = ? AND group_id IN ("
            "  SELECT arg_max(group_id, rowid) FROM oracle_audit WHERE scenario = ? "
            "  GROUP BY profile)",
            [scenario, scenario],
        )
        if rows:
            out.append(audit_section(rows))
    return out
