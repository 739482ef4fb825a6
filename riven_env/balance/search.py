"""``riven balance``: tune a mission's declared knobs towards its declared balance.

The search is an Optuna study (``docs/balance.md``):

* **Candidates** are settings of the knobs (``[[balance.knobs]]``). The file's own setting
  is tried first; then the sampler proposes (TPE by default, seeded; GP, random or a
  seeded grid on request).
* **Common random numbers**: every candidate plays the same seeds
  (:func:`riven_env.playtest.game_seed` of the run seed), both arms of the mirror
  (:mod:`riven_env.balance.mirror`), so candidates differ only by their knobs.
* **Sequential stopping**: a candidate is looked at after ``search.stages`` seeds; at each
  look but the last its share gets a 99% interval, and a candidate whose interval lies
  wholly outside the target band is dropped (an Optuna *pruned* trial). Only a candidate
  that passes the full sample and meets the declared balance is chosen; the search stops at
  the first one.
* **Target matrix**: a mission that declares ``[[balance.matrix]]`` cells (win rates between
  agents of different strength) has every cell measured at every look, in file order after
  the mirror, on the same seeds; the first cell clearly off drops the candidate at that look
  (later cells are not played), the optimiser minimises the sum of the cells' distances, and
  a candidate is chosen only when every cell meets its declaration.
* **Determinism**: each proposal uses a sampler seeded from ``SeedSequence([seed, k])``
  (``k`` = candidates finished before it) over the stored history, so the same seed gives
  the same candidates, the same games and the same result, also after ``--resume``.
* **Resume**: the study lives in an Optuna journal file beside the results database and
  every game in the database; ``--resume`` continues the study, replays an interrupted
  candidate from its stored games and plays only what is missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from riven_env.balance.knobs import apply_values, current_values, write_candidate
from riven_env.balance.mirror import play_mirror
from riven_env.balance.objective import (
    BalanceError,
    BalanceSettings,
    balance_settings,
    cell_reasons,
    check_agents,
    clearly_off,
    combined_distance,
)
from riven_env.errors import RivenError
from riven_env.playtest.config import DEFAULT_PLAYER
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.runner import PlaytestInterrupted
from riven_env.scenario.balance import BalanceSpec, Knob

CANDIDATES_FOLDER = "candidates"


class SearchInterrupted(PlaytestError):
    """Ctrl-C during a search: finished candidates and every stored game are kept."""

    def __init__(self, candidates: int):
        self.candidates = candidates
        super().__init__(
            f"interrupted: {candidates} finished candidate(s) and their games are saved; run "
            "the same command again with --resume to continue the search"
        )


JOURNAL_SUFFIX = ".journal"


@dataclass
class Candidate:
    """One candidate of a search and what it showed.

    Attributes:
        number: Order in the search (0 = the file's own setting when it lies in the space).
        values: Knob path -> value.
        state: ``chosen``, ``met``, ``complete`` (full sample, not met), ``pruned`` or
            ``failed`` (an invalid mission; ``error`` says why).
        looks: ``(pairs, estimate dict)`` at each look: the first declared rate's (the mirror;
            a ``matrix`` mission: its first cell).
        cells: At each look, every cell's estimate dict (``None``: not played at that look,
            because an earlier cell dropped the candidate), in ``BalanceSpec.cells`` order.
        distance: Distance to the target at the last look.
        games: Games its last look rests on.
        error: Why the candidate is not a valid mission (``failed``).
        cell_reasons: Why each cell missed its declaration at the candidate's last look
            (empty lists: met; ``not played``: an earlier cell dropped the candidate first).
    """

    number: int
    values: dict[str, Any]
    state: str
    looks: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    cells: list[list[dict[str, Any] | None]] = field(default_factory=list)
    cell_reasons: list[list[str]] = field(default_factory=list)
    distance: float = math.inf
    games: int = 0
    error: str = ""

    @property
    def last(self) -> dict[str, Any] | None:
        """The estimate of the last look (``MirrorEstimate.to_dict()``), if any."""
        return self.looks[-1][1] if self.looks else None

    @property
    def last_cells(self) -> list[dict[str, Any] | None]:
        """Each cell's latest estimate (a cell not played at the last look: its estimate of
        the look before)."""
        latest: list[dict[str, Any] | None] = []
        for look in self.cells:
            if not latest:
                latest = [None] * len(look)
            latest = [
                new if new is not None else old for new, old in zip(look, latest, strict=True)
            ]
        return latest

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "number": self.number,
            "values": dict(self.values),
            "state": self.state,
            "distance": None if math.isinf(self.distance) else self.distance,
            "games": self.games,
            "looks": [
                {"pairs": p, "estimate": e, "cells": self.cells[i] if i < len(self.cells) else []}
                for i, (p, e) in enumerate(self.looks)
            ],
            "error": self.error,
            "cell_reasons": [list(r) for r in self.cell_reasons],
        }


@dataclass
class SearchResult:
    """Outcome of :func:`run_search`.

    Attributes:
        scenario: The mission file tuned.
        spec: Its declared balance.
        sampler: The sampler used.
        seed: The run seed.
        candidates: Every candidate in order.
        chosen: The chosen candidate's number (``None``: none met the target; the file
            written then holds the closest candidate).
        games: Distinct games the search needed (a candidate proposed twice costs nothing
            new).
        grid_size: Points of the full grid over the knobs.
        grid_games: Games a grid search at the full sample would need.
        elapsed_s: Wall time of this call.
        out: The tuned mission file written (``None`` when not written).
        settings: The search settings.
    """

    scenario: str
    spec: BalanceSpec
    sampler: str
    seed: int
    candidates: list[Candidate]
    chosen: int | None
    games: int
    grid_size: int
    grid_games: int
    elapsed_s: float
    out: Path | None
    settings: BalanceSettings

    @property
    def met(self) -> bool:
        """Whether a candidate met the declared balance."""
        return self.chosen is not None

    def best(self) -> Candidate | None:
        """The chosen candidate, or the closest one that played the full sample."""
        if self.chosen is not None:
            return self.candidates[self.chosen]
        full = [c for c in self.candidates if c.state == "complete"] or [
            c for c in self.candidates if c.looks
        ]
        return min(full, key=lambda c: (c.distance, c.number)) if full else None

    def to_json(self) -> dict[str, Any]:
        """The documented ``--json`` object (``docs/balance.md``)."""
        best = self.best()
        return {
            "scenario": self.scenario,
            "balance": self.spec.to_dict(),
            "met": self.met,
            "chosen": None if best is None else best.to_dict(),
            "candidates": [c.to_dict() for c in self.candidates],
            "games": self.games,
            "cells": [c.to_dict() for c in self.spec.cells()],
            "grid": {"size": self.grid_size, "games_full_sample": self.grid_games},
            "sampler": self.sampler,
            "seed": self.seed,
            "stages": list(self.settings.stages),
            "elapsed_s": self.elapsed_s,
            "out": None if self.out is None else str(self.out),
        }


@dataclass(frozen=True)
class _Plan:
    """Everything one search needs, fixed before its first candidate."""

    study: str
    storage: Any
    sampler: str
    seed: int
    settings: BalanceSettings
    spec: BalanceSpec
    dists: dict[str, Any]
    limit: int
    text: str
    name: str
    candidates_dir: Path
    db_path: Path
    play: dict[str, Any]
    echo: Callable[[str], None] | None


def _optuna():
    from riven_env.extras import require

    return require("optuna", "balance", "riven balance")


def distributions(knobs: tuple[Knob, ...]) -> dict[str, Any]:
    """Optuna distributions of the knobs (keyed by path)."""
    optuna = _optuna()
    out: dict[str, Any] = {}
    for knob in knobs:
        if knob.values is not None:
            out[knob.path] = optuna.distributions.CategoricalDistribution(list(knob.values))
        elif knob.integer:
            out[knob.path] = optuna.distributions.IntDistribution(
                int(knob.low or 0), int(knob.high or 0), step=int(knob.step or 1)
            )
        else:
            out[knob.path] = optuna.distributions.FloatDistribution(
                float(knob.low or 0), float(knob.high or 0), step=knob.step or None
            )
    return out


def grid_size(knobs: tuple[Knob, ...]) -> int:
    """Points of the full grid (each knob's :meth:`Knob.grid`)."""
    return int(np.prod([len(k.grid()) for k in knobs])) if knobs else 1


def _in_space(knobs: tuple[Knob, ...], values: dict[str, Any]) -> bool:
    for knob in knobs:
        value = values.get(knob.path)
        if value is None:
            return False
        if knob.values is not None:
            if value not in knob.values:
                return False
        elif not (float(knob.low or 0) <= float(value) <= float(knob.high or 0)):
            return False
    return True


def _sampler(name: str, seed: int, finished: int, settings: BalanceSettings, knobs):
    optuna = _optuna()
    # One seeded sampler per proposal: the proposal depends only on the seed, the count of
    # finished candidates and the stored history, so an interrupted search resumes exactly.
    state = np.random.SeedSequence([seed, finished]).generate_state(1)[0]
    sub = int(state)
    if name == "tpe":
        return optuna.samplers.TPESampler(
            seed=sub, n_startup_trials=settings.startup_trials, multivariate=True
        )
    if name == "gp":
        return optuna.samplers.GPSampler(seed=sub, n_startup_trials=settings.startup_trials)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=sub)
    space = {k.path: k.grid() for k in knobs}
    return optuna.samplers.GridSampler(space, seed=seed)


def study_name(
    text: str, sampler: str, seed: int, settings: BalanceSettings, engine: str = "python"
) -> str:
    """The study's name: the mission text, the sampler, the seed, the search settings and the
    engine (named only when not ``python``: studies stored before engines keep their name)."""
    parts: list[Any] = [text, sampler, seed, list(settings.stages), settings.prune_confidence]
    if engine != "python":
        parts.append(engine)
    key = json.dumps(parts, sort_keys=True)
    return f"balance-{hashlib.sha1(key.encode()).hexdigest()[:16]}"


def _share_text(est: dict[str, Any] | None) -> str:
    rate = (est or {}).get("win_rate", {})
    if rate.get("rate") is None:
        return "not played" if est is None else "no decisive game"
    return (
        f"{100 * rate['rate']:.1f}% [{100 * rate['low']:.1f}, {100 * rate['high']:.1f}] "
        f"n={rate['n']}"
    )


def _echo_candidate(echo: Callable[[str], None] | None, c: Candidate, spec: BalanceSpec) -> None:
    if echo is None:
        return
    values = ", ".join(f"{k}={v}" for k, v in c.values.items())
    if c.state == "failed":
        echo(f"candidate {c.number}: {values}: not a valid mission ({c.error})")
        return
    cells = spec.cells()
    if len(cells) == 1 and cells[0].is_mirror:
        est = c.last or {}
        draws = est.get("draw_rate", {}).get("rate") or 0.0
        shown = f"{spec.side} roster {_share_text(c.last)}, draws {100 * draws:.1f}%"
    else:
        shown = "; ".join(
            f"{cell.label} {_share_text(est)} (target {cell.win_rate * 100:g}%)"
            for cell, est in zip(cells, c.last_cells or [None] * len(cells), strict=True)
        )
    echo(f"candidate {c.number}: {values} -> {shown}, {c.games} games: {c.state}")


def run_search(
    scenario: str | Path,
    *,
    seed: int = 0,
    sampler: str | None = None,
    trials: int | None = None,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    db_path: Path = Path("runs") / "balance.duckdb",
    out: Path | None = None,
    resume: bool = False,
    progress: bool = True,
    echo: Callable[[str], None] | None = None,
    settings: BalanceSettings | None = None,
    player: str = DEFAULT_PLAYER,
    engine: str | None = None,
) -> SearchResult:
    """Search the mission's knobs for a setting that meets its declared balance.

    Args:
        scenario: Bundled mission name or file; it must declare ``[balance]`` with knobs.
        seed: Run seed (game seeds and sampler seeds derive from it).
        sampler: ``tpe``, ``gp``, ``random`` or ``grid`` (default: the settings').
        trials: Most candidates (default: the settings'; a grid: its size).
        workers: Local worker processes per look (default: all CPUs).
        backend: ``local`` or ``ray``.
        ray_address: Ray cluster address.
        db_path: Results database; the study journal and candidate files live beside it.
        out: Where to write the tuned mission (``None``: do not write).
        resume: Continue the stored study of the same mission, sampler, seed and settings.
        progress: Show the playtest progress bars.
        echo: Called with one line per finished candidate.
        settings: Search settings (default: ``balance.toml``).
        player: The game function of the playtests (a test double in tests).
        engine: The game engine, ``auto``, ``python`` or ``native`` (None: the process
            default); the concrete engine (``auto`` settled on the mission) is part of the
            study's identity (``--resume`` continues only a search of the same engine) and of
            its games'.

    Returns:
        The :class:`SearchResult`.

    Raises:
        BalanceError: The mission declares no ``[balance]`` or no knobs.
        ScenarioError: The mission is invalid.
    """
    from riven_env.scenario.loader import load_scenario, read_scenario_text, resolve_scenario

    optuna = _optuna()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    started = time.perf_counter()
    settings = settings or balance_settings()
    path = resolve_scenario(scenario)
    text = read_scenario_text(path)
    mission = load_scenario(path)
    spec = mission.balance
    if spec is None:
        raise BalanceError(
            f"{path}: no [balance] table; declare the intended balance (docs/balance.md)"
        )
    if not spec.knobs:
        raise BalanceError(
            f"{path}: [balance] declares no knobs; add [[balance.knobs]] entries "
            "(path and range or values) for riven balance to turn"
        )
    name = sampler or settings.sampler
    if name not in ("tpe", "gp", "random", "grid"):
        raise BalanceError(f"sampler {name!r} is not allowed; allowed: tpe, gp, random, grid")
    check_agents(path, spec)
    knobs = spec.knobs
    size = grid_size(knobs)
    limit = min(trials or settings.trials, size) if name == "grid" else trials or settings.trials
    dists = distributions(knobs)
    folder = Path(db_path).resolve().parent
    candidates_dir = folder / CANDIDATES_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(
            str(folder / f"{Path(db_path).stem}{JOURNAL_SUFFIX}")
        )
    )
    from riven_env.engines import pick_engine

    engine = pick_engine(engine, [mission])
    sname = study_name(text, name, seed, settings, engine)
    if not resume:
        with contextlib.suppress(KeyError):
            optuna.delete_study(study_name=sname, storage=storage)
    study = optuna.create_study(
        study_name=sname, storage=storage, direction="minimize", load_if_exists=True
    )
    states = optuna.trial.TrialState
    # An interrupted candidate: fail it and ask for its setting again (its games are stored).
    for trial in study.get_trials(deepcopy=False, states=(states.RUNNING, states.WAITING)):
        if trial.state == states.RUNNING:
            study.enqueue_trial(trial.params, skip_if_exists=False)
            storage.set_trial_state_values(trial._trial_id, states.FAIL)
    base_values = current_values(mission.raw, knobs)
    if name != "grid" and not study.trials and _in_space(knobs, base_values):
        study.enqueue_trial(base_values)
    plan = _Plan(
        study=sname, storage=storage, sampler=name, seed=seed, settings=settings, spec=spec,
        dists=dists, limit=limit, text=text, name=str(mission.name),
        candidates_dir=candidates_dir, db_path=Path(db_path), echo=echo,
        play={"workers": workers, "backend": backend, "ray_address": ray_address,
              "progress": progress, "player": player, "engine": engine},
    )  # fmt: skip
    try:
        all_trials = _search_loop(plan)
    except (KeyboardInterrupt, PlaytestInterrupted):
        done = optuna.load_study(study_name=sname, storage=storage).get_trials(
            deepcopy=False, states=(states.COMPLETE, states.PRUNED)
        )
        raise SearchInterrupted(len(done)) from None
    return _finish(plan, all_trials, path, size, started, out)


def _search_loop(plan: _Plan) -> list[Any]:
    """Propose and play candidates until one meets the target or ``plan.limit`` are done.

    Returns:
        Every stored trial of the study.
    """
    from riven_env.scenario.loader import load_scenario

    settings, spec, knobs = plan.settings, plan.spec, plan.spec.knobs
    optuna = _optuna()
    states = optuna.trial.TrialState
    study = optuna.load_study(study_name=plan.study, storage=plan.storage)
    with ResultsDB(plan.db_path) as db:
        while True:
            finished = [
                t
                for t in study.get_trials(deepcopy=False)
                if t.state in (states.COMPLETE, states.PRUNED)
                or (t.state == states.FAIL and t.user_attrs.get("invalid"))
            ]
            if any(t.user_attrs.get("meets") for t in finished) or len(finished) >= plan.limit:
                break
            study = optuna.load_study(
                study_name=plan.study,
                storage=plan.storage,
                sampler=_sampler(plan.sampler, plan.seed, len(finished), settings, knobs),
            )
            trial = study.ask(fixed_distributions=plan.dists)
            values = {k.path: trial.params[k.path] for k in knobs}
            candidate_text = apply_values(plan.text, knobs, values)
            file = write_candidate(candidate_text, plan.name, plan.candidates_dir)
            try:
                load_scenario(file)
            except RivenError as exc:  # an invalid mission: a failed candidate, no games
                first = str(exc).splitlines()[0]
                trial.set_user_attr("invalid", first)
                study.tell(trial, state=states.FAIL)
                continue
            trial.set_user_attr("file", str(file))
            state, value, latest = _play_looks(plan, trial, file, db)
            reasons = cell_reasons(latest, spec.cells(), settings)
            trial.set_user_attr("cell_reasons", reasons)
            if state == "complete":
                trial.set_user_attr("meets", not any(reasons))
                study.tell(trial, value if math.isfinite(value) else 1.0)
            else:
                study.tell(trial, state=states.PRUNED)
            if plan.echo is not None:
                stored = _candidate(study.trials[trial.number], len(settings.stages))
                _echo_candidate(plan.echo, stored, spec)
        return study.get_trials(deepcopy=False)


def _play_looks(plan: _Plan, trial: Any, file: Path, db: ResultsDB) -> tuple[str, float, list]:
    """Play one candidate look by look, every declared cell at each look.

    The first cell clearly off at a look but the last drops the candidate (``pruned``); the
    cells after it are not played at that look.

    Returns:
        ``(state, combined distance, latest estimate of each cell)``; state ``complete`` or
        ``pruned``.
    """
    settings, spec = plan.settings, plan.spec
    cells = spec.cells()
    latest: list[Any] = [None] * len(cells)
    value = math.inf
    for look, pairs in enumerate(settings.stages):
        last = look == len(settings.stages) - 1
        played_now: list[dict[str, Any] | None] = [None] * len(cells)
        off = False
        for index, cell in enumerate(cells):
            run = play_mirror(
                file,
                spec,
                pairs,
                db=db,
                folder=plan.candidates_dir,
                seed=plan.seed,
                label=f"candidate {trial.number}"
                + ("" if cell.is_mirror else f", cell {index}: {cell.label}"),
                group_id=plan.study,
                cell=cell,
                **plan.play,
            )
            latest[index] = run.estimate
            played_now[index] = run.estimate.to_dict()
            if not last and clearly_off(run.estimate, cell, settings):
                off = True
                break
        value = combined_distance(latest, cells, settings)
        trial.report(value if math.isfinite(value) else float(len(cells)), step=pairs)
        trial.set_user_attr(f"look_{look}", played_now[0])
        trial.set_user_attr(f"look_{look}_cells", played_now)
        if off:
            return "pruned", value, latest
    return "complete", value, latest


def _finish(
    plan: _Plan, all_trials: list[Any], path: Path, size: int, started: float, out: Path | None
) -> SearchResult:
    """The :class:`SearchResult` of the stored trials; write the tuned file."""
    settings, knobs = plan.settings, plan.spec.knobs
    chosen = None
    candidates = [_candidate(t, len(settings.stages)) for t in all_trials]
    candidates = [c for c in candidates if c is not None]
    for index, c in enumerate(candidates):
        c.number = index
    for c in candidates:
        if c.state == "met":
            chosen = c.number
            c.state = "chosen"
            break
    games = _games_needed(candidates)
    result = SearchResult(
        scenario=str(path),
        spec=plan.spec,
        sampler=plan.sampler,
        seed=plan.seed,
        candidates=candidates,
        chosen=chosen,
        games=games,
        grid_size=size,
        grid_games=size * 2 * settings.stages[-1] * len(plan.spec.cells()),
        elapsed_s=time.perf_counter() - started,
        out=None,
        settings=settings,
    )
    best = result.best()
    if out is not None and best is not None:
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(apply_values(plan.text, knobs, best.values), encoding="utf-8")
        result.out = out
    return result


def _games_needed(candidates: list[Candidate]) -> int:
    # A setting proposed twice replays its stored games: count each setting once, at the
    # most games any look at it used.
    most: dict[str, int] = {}
    for c in candidates:
        key = json.dumps(c.values, sort_keys=True, default=str)
        most[key] = max(most.get(key, 0), c.games)
    return sum(most.values())


def _candidate(trial: Any, stages: int) -> Candidate | None:
    import optuna

    states = optuna.trial.TrialState
    attrs = trial.user_attrs
    if trial.state == states.FAIL and not attrs.get("invalid"):
        return None  # an interrupted attempt, asked again as a later trial
    if trial.state in (states.RUNNING, states.WAITING):
        return None
    looks = [
        (int(attrs[f"look_{i}"]["pairs"]), attrs[f"look_{i}"])
        for i in range(stages)
        if f"look_{i}" in attrs
    ]
    # Each cell at each look (studies stored before the target matrix hold the mirror only).
    cells = [
        list(attrs.get(f"look_{i}_cells") or [attrs[f"look_{i}"]])
        for i in range(stages)
        if f"look_{i}" in attrs
    ]
    if trial.state == states.FAIL:
        state, error = "failed", str(attrs.get("invalid"))
    elif trial.state == states.PRUNED:
        state, error = "pruned", ""
    else:
        state, error = ("met" if attrs.get("meets") else "complete"), ""
    # Games its looks rest on: each cell at the most seeds it played.
    most: dict[int, int] = {}
    for look in cells:
        for index, est in enumerate(look):
            if est is not None:
                most[index] = max(most.get(index, 0), int(est["games"]))
    return Candidate(
        number=trial.number,
        values=dict(trial.params),
        state=state,
        looks=looks,
        cells=cells,
        cell_reasons=[list(r) for r in attrs.get("cell_reasons", [])],
        distance=float(trial.value)
        if trial.value is not None
        else (
            float(trial.intermediate_values[max(trial.intermediate_values)])
            if trial.intermediate_values
            else math.inf
        ),
        games=sum(most.values()),
        error=error,
    )


__all__ = ["Candidate", "SearchResult", "distributions", "grid_size", "run_search", "study_name"]
