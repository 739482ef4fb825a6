"""Plots of the campaign report, as base64 PNG for embedding in one HTML file.

matplotlib (the ``playtest`` extra) with the Agg backend, drawn as the mission report's
plots are (:mod:`riven_env.playtest.plots`: the same size, resolution and colours). Each
``*_figure`` function returns the figure (for tests that read it); the plain one the PNG.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from riven_env.campaign.analysis import LOST_RESULTS, CampaignAnalysis, SurvivalPoint
from riven_env.extras import require
from riven_env.playtest.plots import _legend_beside, _png

WARBAND = "#2f6db5"
THREAT = "#c0392b"
RESULT_COLOURS = {"completed": "#27ae60", "victory": "#16a085", "wiped_out": "#c0392b",
                  "hero_dead": "#c0392b", "hero_retired": "#d35400"}  # fmt: skip
FATE_COLOURS = {"dead": "#2c3e50", "retired": "#8e44ad", "injured": "#c0392b",
                "convalescing": "#f39c12"}  # fmt: skip
ATTRIBUTE_COLOURS = {"might": "#c0392b", "agility": "#27ae60", "wit": "#8e44ad",
                     "resolve": "#2f6db5"}  # fmt: skip


def _pyplot() -> Any:
    matplotlib = require("matplotlib", "playtest", "campaign reports")
    matplotlib.use("Agg", force=True)
    return require("matplotlib.pyplot", "playtest", "campaign reports")


def png(fig: Any) -> str:
    """The figure as base64 PNG (no software stamp: the same data give the same bytes), as
    the mission report writes its plots."""
    return _png(fig)


def mission_label(step: int) -> str:
    """Steps are 0-based in the tables, missions 1-based in what a person reads."""
    return str(step + 1)


def _stacked_bars(ax: Any, labels: Sequence[str], bottom: list[Any],
                  layers: Iterable[tuple[str, Sequence[Any], str]]) -> list[Any]:  # fmt: skip
    """Stack one bar series per ``(label, values, colour)`` of ``layers`` on ``bottom``;
    return the stacks' tops."""
    for label, values, colour in layers:
        ax.bar(labels, values, bottom=bottom, label=label, color=colour)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    return bottom


def _survival_axes(ax: Any, points: Sequence[SurvivalPoint], colour: str, label: str) -> None:
    times = [p.time for p in points]
    ax.step(times, [p.survival * 100 for p in points], where="post", color=colour, lw=2,
            label=label)  # fmt: skip
    ax.fill_between(times, [p.low * 100 for p in points], [p.high * 100 for p in points],
                    step="post", color=colour, alpha=0.18, label="95% interval")  # fmt: skip
    ax.set_ylim(0, 102)
    ax.set_xticks(times)
    ax.set_ylabel("% still going")
    ax.grid(axis="y", alpha=0.3)


def survival_figure(a: CampaignAnalysis) -> Any:
    """The warband's Kaplan-Meier survival by mission step, and each model's by missions."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
    _survival_axes(left, a.survival, WARBAND, "warband")
    left.set_xlabel("missions played")
    left.set_title("Warband still in the campaign", fontsize=10)
    if a.model_survival:
        _survival_axes(right, a.model_survival, "#2c3e50", "model")
        right.set_xlabel("missions fought")
        right.set_ylabel("% of models alive")
    right.set_title("A model still alive", fontsize=10)
    left.legend(frameon=False, loc="lower left", fontsize=8)
    return fig


def survival(a: CampaignAnalysis) -> str:
    return png(survival_figure(a))


def win_rates_figure(a: CampaignAnalysis) -> Any:
    """Mission win rate per step with its Wilson interval (and how many were played)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 3.0))
    labels = [mission_label(step) for step, _, _ in a.win_rates]
    values = [0.0 if i.n == 0 else i.value * 100 for _, i, _ in a.win_rates]
    lower = [v - i.low * 100 for v, (_, i, _) in zip(values, a.win_rates, strict=True)]
    upper = [i.high * 100 - v for v, (_, i, _) in zip(values, a.win_rates, strict=True)]
    ax.bar(labels, values, yerr=[lower, upper], capsize=6, color=WARBAND)
    for x, value in enumerate(values):
        ax.text(x, 3, f"{value:.0f}%", ha="center", color="white", fontsize=9, weight="bold")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels([f"{label}\n{i.n} played" for label, (_, i, _) in
                        zip(labels, a.win_rates, strict=True)], fontsize=8)  # fmt: skip
    ax.set_ylim(0, 105)
    ax.set_xlabel("mission")
    ax.set_ylabel("% of its missions won")
    ax.grid(axis="y", alpha=0.3)
    return fig


def win_rates(a: CampaignAnalysis) -> str:
    return png(win_rates_figure(a))


def length_figure(a: CampaignAnalysis) -> Any:
    """Campaigns by missions played, stacked by how they ended."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 2.8))
    lengths = range(1, max(1, a.steps) + 1)
    results = sorted({r for _, r in a.lengths}, key=lambda r: (r in LOST_RESULTS, r))
    bottom = _stacked_bars(ax, [str(n) for n in lengths], [0] * len(lengths), (
        (result.replace("_", " "), [a.lengths.get((n, result), 0) for n in lengths],
         RESULT_COLOURS.get(result, "#7f8c8d")) for result in results))  # fmt: skip
    for x, total in enumerate(bottom):
        if total:
            ax.text(x, total, str(total), ha="center", va="bottom", fontsize=9)
    ax.set_ylim(0, max(bottom + [1]) * 1.15)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("missions played before the campaign ended")
    ax.set_ylabel("campaigns")
    _legend_beside(ax, fontsize=8)
    return fig


def length(a: CampaignAnalysis) -> str:
    return png(length_figure(a))


def casualties_figure(a: CampaignAnalysis) -> Any:
    """Deaths, retirements, lasting injuries and convalescence per campaign at each step."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 3.0))
    labels = [mission_label(c.step) for c in a.casualties]
    _stacked_bars(ax, labels, [0.0] * len(labels), (
        (name, [getattr(c, name) / max(1, c.campaigns) for c in a.casualties], FATE_COLOURS[name])
        for name in ("dead", "retired", "injured", "convalescing")))  # fmt: skip
    ax.set_xlabel("mission")
    ax.set_ylabel("models per campaign")
    _legend_beside(ax, fontsize=8)
    return fig


def casualties(a: CampaignAnalysis) -> str:
    return png(casualties_figure(a))


def growth_figure(a: CampaignAnalysis) -> Any:
    """Mean attributes and Mettle of the living models, from the start to the last step."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.0))
    labels = ["start" if g["step"] < 0 else mission_label(int(g["step"])) for g in a.growth]
    for name, colour in ATTRIBUTE_COLOURS.items():
        left.plot(labels, [g[name] for g in a.growth], "o-", color=colour, label=name, ms=4)
    left.set_ylim(1, 5)
    left.set_xlabel("after mission")
    left.set_ylabel("mean attribute")
    left.legend(frameon=False, fontsize=8, ncol=2, loc="upper left")
    left.grid(axis="y", alpha=0.3)
    right.plot(labels, [g["mettle"] for g in a.growth], "o-", color="#2c3e50", ms=4)
    right.set_ylim(6.2, 1.8)  # lower is better: better Mettle reads as up
    right.set_xlabel("after mission")
    right.set_ylabel("mean Mettle threshold (N+)")
    right.set_title("Mettle (up = better)", fontsize=10)
    right.grid(axis="y", alpha=0.3)
    return fig


def growth(a: CampaignAnalysis) -> str:
    return png(growth_figure(a))


def advances_figure(a: CampaignAnalysis) -> Any:
    """Advances bought, and the next mission's win rate after one against without."""
    plt = _pyplot()
    uses = a.advances
    height = 0.32 * len(uses) + 1.2
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, height), sharey=True)
    labels = [u.advance for u in uses]
    left.barh(labels, [u.chosen / max(1, a.campaigns) for u in uses], color="#16a085")
    left.set_xlabel("bought per campaign")
    left.invert_yaxis()
    for y, u in enumerate(uses):
        d = u.difference
        if math.isnan(d.value):
            continue
        right.errorbar(d.value * 100, y, xerr=[[(d.value - d.low) * 100], [(d.high - d.value) * 100]],
                       fmt="o", color=WARBAND, capsize=4)  # fmt: skip
    right.axvline(0, color="#7f8c8d", lw=1)
    reach = max([abs(v) for u in uses for v in (u.difference.low, u.difference.high)
                 if not math.isnan(v)] + [0.1]) * 100  # fmt: skip
    right.set_xlim(-min(100, reach * 1.15), min(100, reach * 1.15))
    right.set_xlabel("next mission won: after it - without it (pts, 95%)")
    right.grid(axis="x", alpha=0.3)
    right.tick_params(axis="y", labelsize=8)
    left.tick_params(axis="y", labelsize=8)
    return fig


def advances(a: CampaignAnalysis) -> str:
    return png(advances_figure(a))


def snowball_figure(a: CampaignAnalysis) -> Any:
    """P(win k+1 | won k) and P(win k+1 | not won k) per step, and pooled."""
    plt = _pyplot()
    s = a.snowball
    rows = [(f"{k + 1}→{k + 2}", w, o) for k, w, o, _ in s.per_step]
    rows.append(("pooled", s.after_win, s.after_other))
    fig, ax = plt.subplots(figsize=(9, 3.0))
    width = 0.38
    for offset, pick, colour, label in ((-width / 2, 1, WARBAND, "after a win"),
                                        (width / 2, 2, THREAT, "after a loss or draw")):  # fmt: skip
        xs = [x + offset for x in range(len(rows))]
        intervals = [r[pick] for r in rows]
        values = [0.0 if i.n == 0 else i.value * 100 for i in intervals]
        errs = [[max(0.0, v - i.low * 100) if i.n else 0.0 for v, i in zip(values, intervals, strict=True)],
                [max(0.0, i.high * 100 - v) if i.n else 0.0 for v, i in zip(values, intervals, strict=True)]]  # fmt: skip
        ax.bar(xs, values, width, yerr=errs, capsize=4, color=colour, label=label)
        for x, i in zip(xs, intervals, strict=True):
            ax.text(x, 2, f"n={i.n}", ha="center", va="bottom", color="white", fontsize=7)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r[0] for r in rows])
    ax.set_ylim(0, 105)
    ax.set_xlabel("missions k → k+1")
    ax.set_ylabel("% of missions k+1 won")
    _legend_beside(ax, fontsize=8)
    return fig


def snowball(a: CampaignAnalysis) -> str:
    return png(snowball_figure(a))


__all__ = [
    "advances",
    "advances_figure",
    "casualties",
    "casualties_figure",
    "growth",
    "growth_figure",
    "length",
    "length_figure",
    "mission_label",
    "png",
    "snowball",
    "snowball_figure",
    "survival",
    "survival_figure",
    "win_rates",
    "win_rates_figure",
]
