"""Plots of the playtest report, returned as base64 PNG for embedding in one HTML file.

matplotlib is imported lazily with the Agg backend (no display needed); it belongs to the
``playtest`` extra.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping, Sequence
from typing import Any

from riven_env.extras import require
from riven_env.playtest.analysis import DiceChoice, RunAnalysis
from riven_env.playtest.stats import Interval

SIDE_COLOURS = {"blue": "#2f6db5", "red": "#c0392b", "draw": "#7f8c8d"}
OTHER_COLOUR = "#8e44ad"
FIGURE_DPI = 96


def _pyplot() -> Any:
    matplotlib = require("matplotlib", "playtest", "playtest reports")
    matplotlib.use("Agg", force=True)
    return require("matplotlib.pyplot", "playtest", "playtest reports")


def _png(fig: Any) -> str:
    plt = _pyplot()
    buffer = io.BytesIO()
    fig.tight_layout()
    # No software stamp: the same data gives the same bytes on any matplotlib version.
    fig.savefig(buffer, format="png", dpi=FIGURE_DPI, metadata={"Software": None})
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _colour(side: str) -> str:
    return SIDE_COLOURS.get(side, OTHER_COLOUR)


def percent_label(value: float) -> str:
    """A bar's label, rounded as the report's tables round rates (one decimal: 12.5%)."""
    return f"{value:.1f}%"


def _interval_bars(
    ax: Any, labels: Sequence[str], intervals: Sequence[Interval], colours: Sequence[str] = ()
) -> None:
    values = [0.0 if i.n == 0 else i.value * 100 for i in intervals]
    lower = [v - i.low * 100 for v, i in zip(values, intervals, strict=True)]
    upper = [i.high * 100 - v for v, i in zip(values, intervals, strict=True)]
    ax.barh(labels, values, xerr=[lower, upper], capsize=6,
            color=list(colours) or [_colour(label.split()[0].lower()) for label in labels])  # fmt: skip
    for y, value in enumerate(values):
        ax.text(value + 1, y + 0.3, percent_label(value), va="center", fontsize=9)
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games (bar = estimate, whisker = 95% interval)")
    ax.invert_yaxis()


def _legend_beside(ax: Any, **options: Any) -> None:
    """The legend to the right of the plot area, where it cannot cover a bar."""
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              **options)  # fmt: skip


def win_rates(analysis: RunAnalysis) -> str:
    """Blue wins, red wins and draws with their 95% intervals."""
    return _png(win_rates_figure(analysis))


def win_rates_figure(analysis: RunAnalysis) -> Any:
    """The figure of :func:`win_rates` (for tests that read its labels)."""
    plt = _pyplot()
    s = analysis.summary
    labels = [f"{side.capitalize()} wins" for side in s.win_rate] + ["Draw"]
    intervals = [*s.win_rate.values(), s.draw_rate]
    fig, ax = plt.subplots(figsize=(7, 2.4))
    _interval_bars(ax, labels, intervals)
    return fig


def first_player(analysis: RunAnalysis) -> str:
    """Win rate of the side that moved first versus the side that moved second."""
    plt = _pyplot()
    fp = analysis.first_player
    fig, ax = plt.subplots(figsize=(7, 1.9))
    _interval_bars(ax, ["Moved first", "Moved second"], [fp["first"], fp["second"]],
                   colours=["#16a085", "#d35400"])  # fmt: skip
    ax.set_xlabel("% of games won (whisker = 95% interval)")
    return _png(fig)


def game_length(analysis: RunAnalysis) -> str:
    """Histogram of rounds played."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 2.6))
    rounds = list(analysis.rounds)
    ax.bar([str(r) for r in rounds], list(analysis.rounds.values()), color="#34495e")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("games")
    return _png(fig)


def grouped_per_side(
    per_side: Mapping[str, Mapping[str, float]], measures: Sequence[tuple[str, str]], ylabel: str
) -> str:
    """Grouped bars: one group per measure, one bar per side (mean per game)."""
    return _png(grouped_per_side_figure(per_side, measures, ylabel))


def grouped_per_side_figure(
    per_side: Mapping[str, Mapping[str, float]], measures: Sequence[tuple[str, str]], ylabel: str
) -> Any:
    """The figure of :func:`grouped_per_side` (for tests that inspect its layout)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 2.8))
    sides = list(per_side)
    width = 0.8 / max(1, len(sides))
    for k, side in enumerate(sides):
        xs = [m + k * width for m in range(len(measures))]
        ax.bar(xs, [per_side[side].get(key, 0.0) for key, _ in measures], width,
               label=side.capitalize(), color=_colour(side))  # fmt: skip
    ax.set_xticks([m + width * (len(sides) - 1) / 2 for m in range(len(measures))])
    ax.set_xticklabels([label for _, label in measures])
    ax.set_ylabel(ylabel)
    _legend_beside(ax)
    return fig


def dice_choices(choices: Sequence[DiceChoice]) -> str:
    """Actions gained and turn-pass rate by dice rolled, one panel per Mettle (sides pooled)."""
    plt = _pyplot()
    pooled: dict[int, dict[int, list[float]]] = {}
    for c in choices:
        slot = pooled.setdefault(c.mettle, {}).setdefault(c.dice, [0.0, 0.0, 0.0])
        slot[0] += c.count
        slot[1] += c.mean_actions * c.count
        slot[2] += c.pass_rate * c.count
    mettles = sorted(pooled)
    fig, axes = plt.subplots(1, max(1, len(mettles)), figsize=(2.4 * max(1, len(mettles)) + 1, 2.8),
                             squeeze=False)  # fmt: skip
    for ax, mettle in zip(axes[0], mettles, strict=False):
        dice = sorted(pooled[mettle])
        counts = [pooled[mettle][d][0] for d in dice]
        actions = [pooled[mettle][d][1] / n for d, n in zip(dice, counts, strict=True)]
        passes = [pooled[mettle][d][2] / n * 100 for d, n in zip(dice, counts, strict=True)]
        ax.bar([str(d) for d in dice], actions, color="#27ae60", label="actions / activation")
        ax.set_title(f"Mettle {mettle}+", fontsize=10)
        ax.set_xlabel("dice rolled")
        ax.set_ylim(0, 3.2)
        twin = ax.twinx()
        twin.plot([str(d) for d in dice], passes, "o-", color="#c0392b", label="% turn passed")
        twin.set_ylim(0, 100)
        if ax is axes[0][0]:
            ax.set_ylabel("actions per activation", color="#27ae60")
        if mettle == mettles[-1]:
            twin.set_ylabel("% turn passed", color="#c0392b")
    return _png(fig)


def oracle_rules(fired: Mapping[tuple[str, str], int]) -> str:
    """How often each Oracle rule fired (profile: rule)."""
    plt = _pyplot()
    items = sorted(fired.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1]))
    fig, ax = plt.subplots(figsize=(7, 0.28 * len(items) + 1.0))
    ax.barh([f"{p}: {r}" for (p, r), _ in items], [n for _, n in items], color="#8e44ad")
    ax.invert_yaxis()
    ax.set_xlabel("times the rule decided an action")
    ax.tick_params(axis="y", labelsize=8)
    return _png(fig)


def resources(rows: Sequence[tuple[str, str, str, str, int]], resource: str, games: int) -> str:
    """Gained and spent per game by reason for one resource (momentum or strain), per side."""
    return _png(resources_figure(rows, resource, games))


def resources_figure(
    rows: Sequence[tuple[str, str, str, str, int]], resource: str, games: int
) -> Any:
    """The figure of :func:`resources` (for tests that inspect its layout)."""
    plt = _pyplot()
    picked = [r for r in rows if r[1] == resource]
    labels = sorted({f"{side} {direction}" for side, _, direction, _, _ in picked})
    reasons = sorted({reason for *_, reason, _ in picked})
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(labels) + 1.4))
    left = [0.0] * len(labels)
    cmap = plt.get_cmap("tab20")
    for k, reason in enumerate(reasons):
        widths = [0.0] * len(labels)
        for side, _, direction, why, total in picked:
            if why == reason:
                widths[labels.index(f"{side} {direction}")] += total / max(1, games)
        ax.barh(labels, widths, left=left, label=reason, color=cmap(k % 20))
        left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel(f"{resource} per game")
    _legend_beside(ax, fontsize=8)
    return fig
