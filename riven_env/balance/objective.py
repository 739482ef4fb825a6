"""What "balanced" means in numbers: the settings, the distance to the target, the verdicts.

* :func:`meets`: the declared balance is met when the side's share of decisive games lies
  within ``win_rate`` +/- ``tolerance`` and its 95% Wilson interval inside ``win_rate``
  +/- ``interval`` (and a declared draw rate within +/- ``tolerance``, a declared length
  within ``objective.rounds_tolerance`` rounds).
* :func:`clearly_off`: the sequential stop of a search. At each look the candidate's share
  gets a ``search.prune_confidence`` (99%) interval; a candidate whose interval lies wholly
  outside ``win_rate`` +/- ``tolerance`` is dropped, since no number of further games would
  bring it in at that confidence.
* :func:`distance`: what the optimiser minimises for one declared rate;
  :func:`combined_distance`: the sum over the cells of a target matrix (the Oracle mirror is
  a cell, ``BalanceSpec.cells``), and :func:`cell_reasons`: every cell's verdict.

Each function takes a ``spec`` with ``win_rate``, ``tolerance``, ``interval``, ``draw_rate``
and ``rounds``: a mission's ``BalanceSpec`` or one ``MatrixCell`` of it.

Settings: ``riven_env/balance/data/balance.toml`` (documented in ``docs/balance.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from riven_env.files import parse_toml
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.stats import wilson_interval

from .mirror import MirrorEstimate

SAMPLERS = ("tpe", "gp", "random", "grid")
SETTINGS_FILE = "balance.toml"


class BalanceError(PlaytestError):
    """Bad input to ``riven balance``: a mission without ``[balance]``, bad settings."""


@dataclass(frozen=True)
class BalanceSettings:
    """``riven_env/balance/data/balance.toml``, checked.

    Attributes:
        sampler: Optuna sampler name (:data:`SAMPLERS`).
        trials: Most candidates of a search.
        startup_trials: Random candidates before the model-based sampler takes over.
        stages: Seeds at each look at a candidate, increasing; the last is the full sample.
        prune_confidence: Confidence of the interval the sequential stop uses.
        draw_weight: Weight of the draw-rate error in the distance.
        rounds_weight: Weight per round of the length error in the distance.
        rounds_tolerance: Rounds a declared mean length may be off by.
        check_pairs: Seeds of ``--check``.
    """

    sampler: str
    trials: int
    startup_trials: int
    stages: tuple[int, ...]
    prune_confidence: float
    draw_weight: float
    rounds_weight: float
    rounds_tolerance: float
    check_pairs: int


def _whole(value: Any, where: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise BalanceError(
            f"{where} = {value!r} is not allowed; allowed: a whole number >= {minimum}"
        )
    return value


def _number(value: Any, where: str, low: float, high: float) -> float:
    ok = not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)
    if not ok or not low <= value <= high:
        raise BalanceError(
            f"{where} = {value!r} is not allowed; allowed: a number in [{low}, {high}]"
        )
    return float(value)


def check_settings(raw: dict[str, Any], where: str = SETTINGS_FILE) -> BalanceSettings:
    """Validate a ``balance.toml`` document.

    Raises:
        BalanceError: A missing or unknown key or a bad value; the message names the key.
    """
    keys = {
        "search": {"sampler", "trials", "startup_trials", "stages", "prune_confidence"},
        "objective": {"draw_weight", "rounds_weight", "rounds_tolerance"},
        "check": {"pairs"},
    }
    for section, allowed in keys.items():
        table = raw.get(section)
        if not isinstance(table, dict):
            raise BalanceError(f"{where}: [{section}] is missing")
        if set(table) != allowed:
            extra = sorted(set(table) - allowed)
            missing = sorted(allowed - set(table))
            raise BalanceError(
                f"{where}: [{section}] unknown key(s) {extra}, missing {missing}; "
                f"allowed: {sorted(allowed)}"
            )
    search, objective = raw["search"], raw["objective"]
    if search["sampler"] not in SAMPLERS:
        raise BalanceError(
            f"{where}: search.sampler = {search['sampler']!r} is not allowed; "
            f"allowed: {', '.join(SAMPLERS)}"
        )
    stages = search["stages"]
    if (
        not isinstance(stages, list)
        or not stages
        or any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in stages)
        or any(b <= a for a, b in zip(stages, stages[1:], strict=False))
    ):
        raise BalanceError(
            f"{where}: search.stages = {stages!r} is not allowed; allowed: increasing whole "
            "numbers >= 1"
        )
    return BalanceSettings(
        sampler=search["sampler"],
        trials=_whole(search["trials"], "search.trials"),
        startup_trials=_whole(search["startup_trials"], "search.startup_trials", 0),
        stages=tuple(stages),
        prune_confidence=_number(
            search["prune_confidence"], "search.prune_confidence", 0.5, 0.9999
        ),
        draw_weight=_number(objective["draw_weight"], "objective.draw_weight", 0.0, 100.0),
        rounds_weight=_number(objective["rounds_weight"], "objective.rounds_weight", 0.0, 100.0),
        rounds_tolerance=_number(
            objective["rounds_tolerance"], "objective.rounds_tolerance", 0.0, 100.0
        ),
        check_pairs=_whole(raw["check"]["pairs"], "check.pairs"),
    )


@lru_cache(maxsize=1)
def balance_settings() -> BalanceSettings:
    """The bundled settings, read and checked once per process."""
    text = resources.files("riven_env.balance.data").joinpath(SETTINGS_FILE).read_text("utf-8")
    return check_settings(
        parse_toml(text, SETTINGS_FILE, what="balance settings", error=BalanceError)
    )


def distance(est: MirrorEstimate, spec: Any, settings: BalanceSettings) -> float:
    """What the optimiser minimises (module docstring); ``inf`` with no decisive game."""
    if est.role.n == 0:
        return math.inf
    value = abs(est.role.value - spec.win_rate)
    if spec.draw_rate is not None:
        value += settings.draw_weight * abs(est.draws.value - spec.draw_rate)
    if spec.rounds is not None and est.rounds.n:
        value += settings.rounds_weight * abs(est.rounds.value - spec.rounds)
    return value


def verdict(est: MirrorEstimate, spec: Any, settings: BalanceSettings) -> list[str]:
    """Why the declared balance is not met (empty: it is met)."""
    reasons: list[str] = []
    target, tol, width = spec.win_rate, spec.tolerance, spec.interval
    if est.role.n == 0:
        return ["no decisive game"]
    role = est.role
    if abs(role.value - target) > tol + 1e-12:
        reasons.append(
            f"{est.side} roster's share {role.value * 100:.1f}% is outside "
            f"{target * 100:.0f} +/- {tol * 100:g}"
        )
    if role.low < target - width - 1e-12 or role.high > target + width + 1e-12:
        reasons.append(
            f"its 95% interval [{role.low * 100:.1f}, {role.high * 100:.1f}] is not inside "
            f"{target * 100:.0f} +/- {width * 100:g}"
        )
    if spec.draw_rate is not None and abs(est.draws.value - spec.draw_rate) > tol + 1e-12:
        reasons.append(
            f"draw rate {est.draws.value * 100:.1f}% is outside {spec.draw_rate * 100:.0f} "
            f"+/- {tol * 100:g}"
        )
    if (
        spec.rounds is not None
        and est.rounds.n
        and (abs(est.rounds.value - spec.rounds) > settings.rounds_tolerance + 1e-12)
    ):
        reasons.append(
            f"mean length {est.rounds.value:.2f} rounds is outside {spec.rounds:g} "
            f"+/- {settings.rounds_tolerance:g}"
        )
    return reasons


def labelled(cells: Any) -> bool:
    """Whether reasons name their cell: anything but a lone Oracle mirror."""
    return len(cells) > 1 or not cells[0].is_mirror


def cell_reasons(
    estimates: list[MirrorEstimate | None], cells: Any, settings: BalanceSettings
) -> list[list[str]]:
    """Each cell's :func:`verdict` (``not played`` for a cell without an estimate), with
    the cell's label in front when :func:`labelled`."""
    named = labelled(cells)
    out = []
    for est, cell in zip(estimates, cells, strict=True):
        reasons = ["not played"] if est is None else verdict(est, cell, settings)
        out.append([f"{cell.label}: {r}" for r in reasons] if named else reasons)
    return out


def combined_distance(
    estimates: list[MirrorEstimate | None], cells: Any, settings: BalanceSettings
) -> float:
    """The target matrix's error: the sum of each cell's :func:`distance` (``inf`` when a
    cell has no estimate or no decisive game). A lone mirror: its distance."""
    total = 0.0
    for est, cell in zip(estimates, cells, strict=True):
        if est is None:
            return math.inf
        total += distance(est, cell, settings)
    return total


def check_agents(path: Any, spec: Any) -> None:
    """Refuse a ``[[balance.matrix]]`` cell whose agent spec names no agent the registry
    can build (the scenario reader checks only the form; it does not load agents).

    Raises:
        BalanceError: Names the file, the cell's field (``balance.matrix[1].row``), the
            value and the agent specs allowed.
    """
    from riven_agents.registry import ALLOWED_TEXT, make_agent

    from riven_env.errors import RivenError

    for index, cell in enumerate(spec.matrix):
        for key in ("row", "column"):
            agent = getattr(cell, key)
            try:
                make_agent(agent, cell.side, 0)
            except RivenError as exc:
                reason = str(exc).splitlines()[0]
                allowed = "" if "allowed" in reason else f"; allowed: {ALLOWED_TEXT}"
                raise BalanceError(
                    f"{path}: balance.matrix[{index}].{key} = {agent!r} is not allowed: "
                    f"{reason}{allowed}"
                ) from None


def meets(est: MirrorEstimate, spec: Any, settings: BalanceSettings) -> bool:
    """Whether the declared balance is met (:func:`verdict` is empty)."""
    return not verdict(est, spec, settings)


def clearly_off(est: MirrorEstimate, spec: Any, settings: BalanceSettings) -> bool:
    """The sequential stop: the side's share is surely outside target +/- tolerance."""
    wins, n = est.wins["role"], est.wins["role"] + est.wins["other"]
    if n == 0:
        return False
    wide = wilson_interval(wins, n, confidence=settings.prune_confidence)
    return wide.high < spec.win_rate - spec.tolerance or wide.low > spec.win_rate + spec.tolerance


__all__ = [
    "SAMPLERS",
    "BalanceError",
    "BalanceSettings",
    "balance_settings",
    "check_settings",
    "cell_reasons",
    "check_agents",
    "clearly_off",
    "combined_distance",
    "distance",
    "labelled",
    "meets",
    "verdict",
]
