"""The HTML report of a ``riven balance`` search: every candidate, its estimate, the chosen one.

Built from the playtest report's parts (style, tables, sections, embedded PNG plots and the
self-check script of ``riven_env.playtest.report`` / ``plots``), so it looks and checks like
the other reports and opens offline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from riven_env.balance.search import Candidate, SearchResult
from riven_env.playtest.plots import _png, _pyplot
from riven_env.playtest.report import SELF_CHECK, STYLE, _e, _img, _section, _table


def _pct(rate: dict[str, Any]) -> str:
    if rate.get("rate") is None:
        return "-"
    return (
        f"{rate['rate'] * 100:.1f}% [{rate['low'] * 100:.1f}, {rate['high'] * 100:.1f}] "
        f"(n {rate['n']})"
    )


def _values(c: Candidate) -> str:
    return "<br>".join(f"{_e(k)} = {_e(repr(v))}" for k, v in c.values.items())


def _estimates_plot(result: SearchResult) -> str:
    plt = _pyplot()
    shown = [c for c in result.candidates if c.last is not None]
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.32 * len(shown) + 1.2)))
    spec = result.spec
    target = spec.win_rate * 100
    ax.axvspan(target - spec.tolerance * 100, target + spec.tolerance * 100, color="#cfe8cf")
    ax.axvline(target, color="#2a7a2a", linewidth=1)
    colours = {"chosen": "#2a7a2a", "met": "#2a7a2a", "complete": "#2f6db5", "pruned": "#999999"}
    for y, c in enumerate(shown):
        rate = c.last["win_rate"] if c.last else {}
        if rate.get("rate") is None:
            continue
        value = rate["rate"] * 100
        ax.errorbar(
            value,
            y,
            xerr=[[value - rate["low"] * 100], [rate["high"] * 100 - value]],
            fmt="o",
            capsize=4,
            color=colours.get(c.state, "#b00"),
        )
    ax.set_yticks(range(len(shown)), [f"#{c.number} ({c.state})" for c in shown])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"{spec.side} roster's share of decisive games, % (dot, 95% interval)")
    fig.tight_layout()
    return _png(fig)


def _trace_plot(result: SearchResult) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    spent, xs, ys, best = 0, [], [], float("inf")
    for c in result.candidates:
        spent += c.games
        if c.state in ("chosen", "met", "complete") and c.distance < best:
            best = c.distance
        xs.append(spent)
        ys.append(best * 100 if best != float("inf") else None)
    ax.step(xs, [y if y is not None else float("nan") for y in ys], where="post")
    ax.axhline(result.spec.tolerance * 100, color="#2a7a2a", linestyle="--", linewidth=1)
    ax.set_xlabel("games played by the search")
    ax.set_ylabel("best distance (points)")
    fig.tight_layout()
    return _png(fig)


def render_search_report(result: SearchResult) -> str:
    """The HTML text of the report."""
    spec = result.spec
    best = result.best()
    header = (
        f"<h1>Balance search: {_e(Path(result.scenario).name)}</h1>"
        f'<p class="meta">Declared balance: {_e(spec.describe())} (estimate within '
        f"+/- {spec.tolerance * 100:g} points, 95% interval inside +/- {spec.interval * 100:g}). "
        f"Sampler {_e(result.sampler)}, seed {result.seed}, looks at "
        f"{', '.join(str(s) for s in result.settings.stages)} seeds (each seed played as given "
        f"and swapped). {len(result.candidates)} candidates, {result.games} games, "
        f"{result.elapsed_s:.0f} s.</p>"
    )
    if best is None:
        verdict = "<p>No candidate was played.</p>"
    else:
        status = "meets the declared balance" if result.met else "is the closest; none met it"
        values = "; ".join(f"{k} = {v!r}" for k, v in best.values.items())
        verdict = (
            f"<p><b>Chosen: candidate {best.number}</b> ({_e(status)}): {_e(values)}. "
            f"Tuned file: <code>{_e(result.out)}</code>.</p>"
        )
    overview = _section(
        "overview",
        "Outcome",
        "The search stops at the first candidate that plays the full sample and meets the "
        "declared balance. A grid search over the same knobs would play every grid point; at "
        f"the full sample that is {result.grid_size} settings x {2 * result.settings.stages[-1]} "
        f"games = {result.grid_games} games, against the {result.games} this search needed.",
        verdict,
    )
    rows = []
    for c in result.candidates:
        last = c.last or {}
        state = f'<span class="flag">{_e(c.state)}</span>' if c.state == "chosen" else _e(c.state)
        if c.state == "failed":
            state += f"<br>{_e(c.error)}"
        rounds = last.get("rounds", {})
        rows.append(
            (
                str(c.number),
                _values(c),
                state,
                str(c.games),
                _pct(last.get("win_rate", {})),
                _pct(last.get("win_rate_given", {})),
                _pct(last.get("win_rate_swapped", {})),
                _pct(last.get("draw_rate", {})),
                "-" if not rounds.get("n") else f"{rounds['value']:.2f}",
                "-" if c.distance == float("inf") else f"{c.distance * 100:.1f}",
            )
        )
    table = _table(
        [
            "#",
            "knobs",
            "state",
            "games",
            f"{spec.side} roster share [95%]",
            "as given",
            "swapped",
            "draws",
            "rounds",
            "distance (points)",
        ],
        rows,
        text_columns=3,
    )
    candidates = _section(
        "candidates",
        "Candidates",
        "Each row is one setting of the knobs, in the order tried (#0 is the file's own "
        "setting when it lies in the search space). <i>pruned</i>: dropped at an early look "
        f"because its {result.settings.prune_confidence * 100:g}% interval lay wholly outside "
        "the target band; <i>complete</i>: played the full sample without meeting the "
        "declaration; <i>chosen</i>: the first that met it. Shares are of decisive games over "
        "both arms (a draw counts for neither side); <i>as given</i> and <i>swapped</i> are the "
        "two arms alone; the distance is what the optimiser minimises.",
        table,
    )
    plots = ""
    if any(c.last for c in result.candidates):
        plots = _section(
            "estimates",
            "Estimates against the target",
            "Green band: the target +/- tolerance. Each dot is a candidate's estimate at its "
            "last look, the whisker its 95% interval; grey ones were pruned early (wide "
            "whiskers: few games).",
            _img(_estimates_plot(result), "candidate estimates")
            + _img(_trace_plot(result), "best distance against games played"),
        )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>RIVEN balance: {_e(Path(result.scenario).name)}</title><style>{STYLE}</style>"
        f"</head><body>{header}{overview}{candidates}{plots}"
        f'<pre id="report-check" hidden></pre>{SELF_CHECK}</body></html>'
    )


def write_search_report(result: SearchResult, path: str | Path) -> Path:
    """Write the report and return its path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_search_report(result), encoding="utf-8")
    return out


__all__ = ["render_search_report", "write_search_report"]
