"""``riven balance SCENARIO --check``: does a mission meet its declared balance?

Plays the Oracle mirror with seat swap (:mod:`riven_env.balance.mirror`) on ``pairs``
seeds and compares the declared side's share of decisive games with the declaration
(:func:`riven_env.balance.objective.verdict`); a mission with a target matrix plays every
cell the same way (the mirror is its first cell unless ``mode = "matrix"``) and is met
only when every cell is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from riven_env.balance.mirror import MirrorEstimate, play_mirror
from riven_env.balance.objective import (
    BalanceError,
    balance_settings,
    cell_reasons,
    check_agents,
)
from riven_env.playtest.config import DEFAULT_PLAYER
from riven_env.playtest.db import ResultsDB
from riven_env.scenario.balance import BalanceSpec, MatrixCell

DERIVED = "derived"


@dataclass(frozen=True)
class CellCheck:
    """One declared rate of the check (the mirror or a target-matrix cell).

    Attributes:
        cell: The declaration (tolerances as applied).
        estimate: What its games measured (the row agent's share, per arm and colour).
        reasons: Why it is not met (empty: met).
    """

    cell: MatrixCell
    estimate: MirrorEstimate
    reasons: list[str]

    def to_json(self) -> dict[str, Any]:
        """``{name, row, column, side, win_rate, tolerance, interval, ..., met, reasons,
        estimate}``."""
        return self.cell.to_dict() | {
            "met": not self.reasons,
            "reasons": list(self.reasons),
            "estimate": self.estimate.to_dict(),
        }


@dataclass(frozen=True)
class CheckResult:
    """Outcome of :func:`check_balance`.

    Attributes:
        scenario: The mission checked.
        spec: Its declared balance (the tolerances actually applied).
        estimate: What the first declared rate measured (the mirror; a ``matrix``
            mission: its first cell).
        reasons: Why the balance is not met, every cell's (empty: met).
        played: Games played by this call (the rest were stored already).
        elapsed_s: Wall time.
    """

    scenario: str
    spec: BalanceSpec
    estimate: MirrorEstimate
    reasons: list[str]
    played: int
    elapsed_s: float
    cells: list[CellCheck] = field(default_factory=list)

    @property
    def met(self) -> bool:
        """Whether the declared balance is met."""
        return not self.reasons

    def to_json(self) -> dict[str, Any]:
        """The documented ``--check --json`` object (``docs/balance.md``)."""
        return {
            "scenario": self.scenario,
            "balance": self.spec.to_dict(),
            "met": self.met,
            "reasons": list(self.reasons),
            "estimate": self.estimate.to_dict(),
            "cells": [c.to_json() for c in self.cells],
            "played": self.played,
            "elapsed_s": self.elapsed_s,
        }


def check_balance(
    scenario: str | Path,
    *,
    pairs: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    db_path: Path = Path("runs") / "balance.duckdb",
    tolerance: float | None = None,
    interval: float | None = None,
    progress: bool = True,
    player: str = DEFAULT_PLAYER,
    engine: str | None = None,
) -> CheckResult:
    """Play the mirror and judge the declared balance.

    Args:
        scenario: Bundled mission name or file with a ``[balance]`` table.
        pairs: Seeds, each played as given and swapped (default: ``check.pairs``).
        seed: Run seed.
        workers: Local worker processes.
        backend: ``local`` or ``ray``.
        ray_address: Ray cluster address.
        db_path: Results database (games stored there are reused).
        tolerance: Override of the file's tolerance (a small-sample check may widen it).
        interval: Override of the file's interval bound.
        progress: Show progress bars.
        player: The game function of the playtests (a test double in tests).
        engine: The game engine, ``auto``, ``python`` or ``native`` (None: the process
            default); the concrete engine is stored with the games.

    Raises:
        BalanceError: The mission declares no ``[balance]``, or the overrides are bad.
        ScenarioError: The mission is invalid.
    """
    from riven_env.scenario.loader import load_scenario, resolve_scenario

    started = time.perf_counter()
    settings = balance_settings()
    path = resolve_scenario(scenario)
    spec = load_scenario(path).balance
    if spec is None:
        raise BalanceError(
            f"{path}: no [balance] table; declare the intended balance (docs/balance.md)"
        )
    for name, value in (("tolerance", tolerance), ("interval", interval)):
        if value is not None and not 0 < value < 1:
            raise BalanceError(f"--{name} {value!r} is not allowed; allowed: between 0 and 1")
    spec = _with_tolerances(spec, tolerance, interval)
    check_agents(path, spec)
    cells = spec.cells()
    estimates: list[MirrorEstimate] = []
    played = 0
    with ResultsDB(db_path) as db:
        for index, cell in enumerate(cells):
            run = play_mirror(
                path,
                spec,
                pairs or settings.check_pairs,
                db=db,
                folder=Path(db_path).resolve().parent / DERIVED,
                seed=seed,
                workers=workers,
                backend=backend,
                ray_address=ray_address,
                progress=progress,
                label="check" if cell.is_mirror else f"check, cell {index}: {cell.label}",
                player=player,
                cell=cell,
                engine=engine,
            )
            estimates.append(run.estimate)
            played += run.played
    reasons = cell_reasons(list(estimates), cells, settings)
    return CheckResult(
        scenario=str(path),
        spec=spec,
        estimate=estimates[0],
        reasons=[r for rs in reasons for r in rs],
        played=played,
        elapsed_s=time.perf_counter() - started,
        cells=[CellCheck(c, e, r) for c, e, r in zip(cells, estimates, reasons, strict=True)],
    )


def _with_tolerances(
    spec: BalanceSpec, tolerance: float | None, interval: float | None
) -> BalanceSpec:
    """The spec with ``--tolerance`` / ``--interval`` applied to the mirror and every cell.

    Raises:
        BalanceError: The interval bound below the tolerance.
    """
    if tolerance is None and interval is None:
        return spec

    def both(item):
        return replace(
            item,
            tolerance=item.tolerance if tolerance is None else tolerance,
            interval=item.interval if interval is None else interval,
        )

    new = replace(both(spec), matrix=tuple(both(c) for c in spec.matrix))
    for item in (new, *new.matrix):
        if item.interval < item.tolerance:
            raise BalanceError(
                f"interval bound {item.interval:g} is below the tolerance {item.tolerance:g}; "
                "allowed: interval >= tolerance"
            )
    return new


__all__ = ["CellCheck", "CheckResult", "check_balance"]
