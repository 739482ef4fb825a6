"""The HTML report of a ``riven balance`` search: every candidate, its estimate, the chosen one.

Built from the playtest report's parts (style, tables, sections, embedded PNG plots and the
self-check script of ``riven_env.playtest.html`` / ``plots``), so it looks and checks like
the other reports and opens offline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from riven_env.balance.search import Candidate, SearchResult
from riven_env.playtest.html import SELF_CHECK, STYLE
from riven_env.playtest.html import escape as _e
from riven_env.playtest.html import image as _img
from riven_env.playtest.html import section as _section
from riven_env.playtest.html import table as _table
from riven_env.playtest.plots import _png, _pyplot


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
    first = spec.cells()[0]  # the mirror, or a matrix mission's first cell
    target = first.win_rate * 100
    ax.axvspan(target - first.tolerance * 100, target + first.tolerance * 100, color="#cfe8cf")
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
    ax.set_xlabel(
        f"{spec.side} roster's share of decisive games, % (dot, 95% interval)"
        if first.is_mirror
        else f"{first.label}: row agent's share of decisive games, % (dot, 95% interval)"
    )
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


def _is_matrix(result: SearchResult) -> bool:
    cells = result.spec.cells()
    return len(cells) > 1 or not cells[0].is_mirror


def _cells_text(c: Candidate, result: SearchResult) -> str:
    parts = []
    for cell, est in zip(result.spec.cells(), c.last_cells or [], strict=False):
        shown = "not played" if est is None else _pct(est.get("win_rate", {}))
        parts.append(f"{_e(cell.label)}: {shown}")
    return "<br>".join(parts)


def _matrix_section(result: SearchResult) -> str:
    """The target matrix of the chosen (or closest) candidate: each cell's target, the row
    agent's share with its 95% interval, and the share on each colour with its n."""
    best = result.best()
    cells = result.spec.cells()
    estimates = best.last_cells if best is not None else []
    reasons = best.cell_reasons if best is not None else []
    rows = []
    for index, cell in enumerate(cells):
        est = estimates[index] if index < len(estimates) else None
        if est is None:
            rows.append((_e(cell.label), cell.side, f"{cell.win_rate * 100:g}%", "-", "-", "-",
                         "-", "not played"))  # fmt: skip
            continue
        on = {est["side"]: est["win_rate_given"]}
        on["red" if est["side"] == "blue" else "blue"] = est["win_rate_swapped"]
        why = reasons[index] if index < len(reasons) else []
        rows.append(
            (
                _e(cell.label),
                cell.side,
                f"{cell.win_rate * 100:g}% +/- {cell.tolerance * 100:g}",
                _pct(est["win_rate"]),
                _pct(on["blue"]),
                _pct(on["red"]),
                _pct(est["draw_rate"]),
                "met" if not why else _e("; ".join(why)),
            )
        )
    table = _table(
        ["cell (row vs column)", "row's roster", "target", "row agent's share [95%]",
         "on blue", "on red", "draws", "verdict"],
        rows,
        text_columns=3,
    )  # fmt: skip
    which = "the chosen candidate" if result.met else "the closest candidate"
    return _section(
        "matrix",
        "Target matrix",
        f"Every declared win rate of {which}: the row agent plays the roster the file puts on "
        "<i>row's roster</i> against the column agent on the other, each seed as given and "
        "swapped (so once on each colour); its share is of the decisive games of both arms, "
        "<i>on blue</i> and <i>on red</i> the two arms alone. A candidate is chosen only when "
        "every cell meets its target; the optimiser minimised the sum of the cells' distances.",
        table + _img(_matrix_plot(result), "target matrix against the targets"),
    )


def _matrix_plot(result: SearchResult) -> str:
    plt = _pyplot()
    cells = result.spec.cells()
    best = result.best()
    estimates = best.last_cells if best is not None else []
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.45 * len(cells) + 1.2)))
    for y, cell in enumerate(cells):
        target = cell.win_rate * 100
        ax.fill_betweenx(
            [y - 0.4, y + 0.4], target - cell.tolerance * 100, target + cell.tolerance * 100,
            color="#cfe8cf",
        )  # fmt: skip
        ax.plot([target, target], [y - 0.4, y + 0.4], color="#2a7a2a", linewidth=1)
        est = estimates[y] if y < len(estimates) else None
        rate = (est or {}).get("win_rate", {})
        if rate.get("rate") is None:
            continue
        value = rate["rate"] * 100
        ax.errorbar(value, y, xerr=[[value - rate["low"] * 100], [rate["high"] * 100 - value]],
                    fmt="o", capsize=4, color="#2f6db5")  # fmt: skip
    ax.set_yticks(range(len(cells)), [c.label for c in cells])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("row agent's share of decisive games, % (green: target +/- tolerance)")
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
    matrix = _is_matrix(result)
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
            + ((_cells_text(c, result),) if matrix else ())
        )
    first = spec.cells()[0]
    table = _table(
        [
            "#",
            "knobs",
            "state",
            "games",
            f"{spec.side} roster share [95%]"
            if first.is_mirror
            else f"{first.label}: row share [95%]",
            "as given",
            "swapped",
            "draws",
            "rounds",
            "distance (points)",
        ]
        + (["every cell: row agent's share [95%]"] if matrix else []),
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
    matrix_html = _matrix_section(result) if matrix and result.best() is not None else ""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>RIVEN balance: {_e(Path(result.scenario).name)}</title><style>{STYLE}</style>"
        f"</head><body>{header}{overview}{matrix_html}{candidates}{plots}"
        f'<pre id="report-check" hidden></pre>{SELF_CHECK}</body></html>'
    )


def write_search_report(result: SearchResult, path: str | Path) -> Path:
    """Write the report and return its path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_search_report(result), encoding="utf-8")
    return out


__all__ = ["render_search_report", "write_search_report"]
