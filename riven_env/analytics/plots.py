"""Plots of the analytics sections (base64 PNG, like :mod:`riven_env.playtest.plots`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from riven_env.playtest.plots import _png, _pyplot
from riven_env.playtest.stats import Interval


def forest(
    rows: Sequence[tuple[str, Interval]], xlabel: str, reference: float | None = None
) -> str:
    """One row per estimate: a dot and its 95% interval (a dashed line at ``reference``)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.42 * len(rows) + 1.0))
    for y, (_, i) in enumerate(rows):
        if i.n == 0 or math.isnan(i.value):
            continue
        low = i.value if math.isnan(i.low) else i.low
        high = i.value if math.isnan(i.high) else i.high
        ax.plot([low, high], [y, y], color="#2f6db5", lw=2)
        ax.plot([i.value], [y], "o", color="#2f6db5")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for label, _ in rows], fontsize=9)
    if reference is not None:
        ax.axvline(reference, color="#888", ls="--", lw=1)
    ax.set_xlabel(xlabel)
    ax.invert_yaxis()
    return _png(fig)


def matrix(
    labels: Sequence[str],
    values: Sequence[Sequence[float]],
    title: str,
    cell_text: Sequence[Sequence[str]] | None = None,
) -> str:
    """Heat map of a row-vs-column matrix in [0, 1] (win rate of the row)."""
    plt = _pyplot()
    size = 1.0 + 0.9 * len(labels)
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    image = ax.imshow(
        [[math.nan if v is None else v for v in row] for row in values],
        vmin=0.0,
        vmax=1.0,
        cmap="RdBu",
    )
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    for r, row in enumerate(values):
        for c, v in enumerate(row):
            if v is None or (isinstance(v, float) and math.isnan(v)):
                continue
            text = cell_text[r][c] if cell_text is not None else f"{v:.2f}"
            # White on the dark ends of the colour map, black in the pale middle.
            colour = "white" if abs(v - 0.5) > 0.3 else "black"
            ax.text(c, r, text, ha="center", va="center", fontsize=7, color=colour)
    ax.set_xlabel("opponent")
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return _png(fig)


def bars(values: Mapping[str, float], xlabel: str) -> str:
    """Horizontal bars of named shares (Nash mixture, alpha-rank mass)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.4 * len(values) + 1.0))
    ax.barh(list(values), list(values.values()), color="#16a085")
    ax.set_xlim(0, 1)
    ax.set_xlabel(xlabel)
    ax.invert_yaxis()
    return _png(fig)
