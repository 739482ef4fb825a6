"""``riven balance SCENARIO --check``: does a mission meet its declared balance?

Plays the Oracle mirror with seat swap (:mod:`riven_env.balance.mirror`) on ``pairs``
seeds and compares the declared side's share of decisive games with the declaration
(:func:`riven_env.balance.objective.verdict`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riven_env.balance.mirror import MirrorEstimate, play_mirror
from riven_env.balance.objective import BalanceError, balance_settings, verdict
from riven_env.playtest.config import DEFAULT_PLAYER
from riven_env.playtest.db import ResultsDB
from riven_env.scenario.balance import BalanceSpec

DERIVED = "derived"


@dataclass(frozen=True)
class CheckResult:
    """Outcome of :func:`check_balance`.

    Attributes:
        scenario: The mission checked.
        spec: Its declared balance (the tolerances actually applied).
        estimate: What the mirror measured.
        reasons: Why the balance is not met (empty: met).
        played: Games played by this call (the rest were stored already).
        elapsed_s: Wall time.
    """

    scenario: str
    spec: BalanceSpec
    estimate: MirrorEstimate
    reasons: list[str]
    played: int
    elapsed_s: float

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
    engine: str = "python",
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
        engine: The game engine, ``python`` or ``native`` (stored with the games).

    Raises:
        BalanceError: The mission declares no ``[balance]``, or the overrides are bad.
        ScenarioError: The mission is invalid.
    """
    from dataclasses import replace

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
    spec = replace(
        spec,
        tolerance=spec.tolerance if tolerance is None else tolerance,
        interval=spec.interval if interval is None else interval,
    )
    if spec.interval < spec.tolerance:
        raise BalanceError(
            f"interval bound {spec.interval:g} is below the tolerance {spec.tolerance:g}; "
            "allowed: interval >= tolerance"
        )
    with ResultsDB(db_path) as db:
        played = play_mirror(
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
            label="check",
            player=player,
            engine=engine,
        )
    return CheckResult(
        scenario=str(path),
        spec=spec,
        estimate=played.estimate,
        reasons=verdict(played.estimate, spec, settings),
        played=played.played,
        elapsed_s=time.perf_counter() - started,
    )


__all__ = ["CheckResult", "check_balance"]
