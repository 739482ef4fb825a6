"""Run a playtest: many games in parallel, each stored as soon as its batch finishes."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.progress import Progress

from riven_env.engines import ENGINES
from riven_env.interrupts import interrupts_deferred
from riven_env.playtest.analytics_db import store_trajectories
from riven_env.playtest.backends import BatchResults, make_batches, run_local, run_ray
from riven_env.playtest.config import DEFAULT_PLAYER, PlaytestConfig
from riven_env.playtest.db import GameRecord, ResultsDB, record_from_dict
from riven_env.playtest.errors import GameFailedError, PlaytestError, WorkerLostError
from riven_env.playtest.results import RunSummary, summarise_run
from riven_env.progress import game_progress


class PlaytestInterrupted(PlaytestError):
    """The run was stopped (Ctrl-C); finished games are stored and can be resumed.

    Attributes:
        run_id: The interrupted run.
        saved: Games of the run stored so far.
    """

    def __init__(self, run_id: str | None, saved: int, games: int):
        self.run_id = run_id
        self.saved = saved
        of_run = f" of run {run_id}" if run_id is not None and saved else ""
        super().__init__(
            f"interrupted: {saved} of {games} games{of_run} are saved; "
            "run the same command again with --resume to play the rest"
        )


@dataclass(frozen=True)
class RunResult:
    """Outcome of :func:`run_playtest`.

    Attributes:
        run_id: The run's id in the database.
        config: The configuration it ran with.
        summary: Headline results over every stored game of the run.
        played: Games played by this call.
        skipped: Games already stored before this call (``--resume``).
        elapsed_s: Wall time of this call.
    """

    run_id: str
    config: PlaytestConfig
    summary: RunSummary
    played: int
    skipped: int
    elapsed_s: float

    def to_json(self) -> dict[str, Any]:
        """The documented ``--json`` object (``docs/playtest.md``)."""
        config = self.config
        return {
            **self.summary.headline_json(),
            "config": {
                "scenario": config.scenario,
                "blue": config.blue,
                "red": config.red,
                "games": config.games,
                "seed": config.seed,
                "workers": config.worker_count,
                "backend": config.backend,
                "overrides": dict(config.overrides),
                "engine": config.engine,
                "db": str(config.db),
                "run_id": self.run_id,
            },
        }


def _progress(enabled: bool) -> Progress:
    # The shared bar (riven_env.progress): on stderr, off when not a TTY or with --quiet.
    return game_progress(enabled)


def check_inputs(config: PlaytestConfig) -> None:
    """Check scenario, agents and rule overrides here, before any worker starts.

    Bad input then raises its own RivenError (naming the scenario, agent spec or rules
    key) at once, instead of once per worker. Only the bundled game is checked; another
    ``player`` reports bad input from its workers.

    Raises:
        RivenError: The scenario, an agent spec or an override is invalid.
    """
    if config.player != DEFAULT_PLAYER:
        return
    from riven_agents.registry import make_agent

    from riven_env.engines import check_engine, new_game

    new_game(config.scenario, 0, overrides=dict(config.overrides) or None, engine="python")
    if config.engine == "native":
        check_engine(config.scenario, config.engine, dict(config.overrides))
    make_agent(config.blue, "blue", 0)
    make_agent(config.red, "red", 0)


def _iterate(config: PlaytestConfig, todo: list[int]) -> Iterator[BatchResults]:
    spec = config.game_spec()
    batches = make_batches(todo, config.effective_batch_size(len(todo)))
    workers = config.worker_count
    if config.backend == "ray":
        return run_ray(spec, batches, workers, config.ray_address)
    return run_local(spec, batches, workers)


def run_playtest(
    config: PlaytestConfig,
    *,
    progress: bool = True,
    resume: bool = False,
    run_id: str | None = None,
    db: ResultsDB | None = None,
    check: bool = True,
) -> RunResult:
    """Play ``config.games`` games and store every one in the results database.

    Game ``i`` uses seed :func:`~riven_env.playtest.config.game_seed` ``(config.seed, i)``,
    so its result is the same for any number of workers and on either backend.

    Args:
        config: What to play and how.
        progress: Show a progress bar (games/s, ETA) on stderr.
        resume: Continue the latest stored run of the same experiment (scenario, agents,
            seed, overrides), or ``run_id`` when given, playing only missing game indices.
            Without a stored run a new one starts.
        run_id: The run to resume (implies ``resume``).
        db: An open database to use (default: open ``config.db``).
        check: Check the scenario, agents and overrides first (:func:`check_inputs`);
            callers continuing a run they already checked pass ``False``.

    Returns:
        The :class:`RunResult`.

    Raises:
        PlaytestError: Bad input reported by the game (unknown scenario, agent or rules
            key), a resumed run that belongs to another experiment.
        GameFailedError: A game crashed; the games finished before are stored.
        WorkerLostError: A worker process died more often than ``workers.batch_retries``
            allows; the games finished before are stored.
        PlaytestInterrupted: Ctrl-C at any moment; the games finished before are stored
            and the error's count is what the database holds.
    """
    if db is None:
        try:
            with ResultsDB(config.db) as own:
                return run_playtest(
                    config, progress=progress, resume=resume, run_id=run_id, db=own, check=check
                )
        except KeyboardInterrupt:
            # Ctrl-C while the file was opened or closed (DuckDB checks for signals as it
            # checkpoints), outside the run's own handler: count what the file holds now.
            raise _interrupted_outside_run(config, run_id) from None

    started = time.perf_counter()
    target: str | None = None
    try:
        if check:
            check_inputs(config)
        # "auto" becomes the engine the games are played with: the run's identity names it.
        config = config.settled()
        target = run_id
        if target is not None:
            stored = db.run(target)
            if stored["identity"] != config.identity():
                _refuse_other_engine(target, stored, config)
                raise PlaytestError(
                    f"run {target} played a different experiment ({stored['identity']}); "
                    "resume it with the same scenario, agents, seed and --set values"
                )
        elif resume:
            target = db.find_resumable(config)
            if target is None:
                for other in ENGINES:
                    found = db.find_resumable(replace(config, engine=other))
                    if other != config.engine and found is not None:
                        _refuse_other_engine(found, db.run(found), config)
        # A new run's row is stored with its first games (one transaction): a run that
        # stops before any game is saved leaves nothing behind.
        new_run: PlaytestConfig | None = None
        if target is None:
            target = db.new_run_id(config)
            new_run = config
            finished: set[int] = set()
        else:
            db.set_games_requested(target, config.games)
            finished = db.finished_indices(target)
        todo = [i for i in range(config.games) if i not in finished]
        played = _play(config, db, target, todo, new_run, progress)
        summary = summarise_run(db, target)
    except KeyboardInterrupt:
        if target is None and resume:  # stopped before the run was looked up: look now
            target = db.find_resumable(config)
        raise PlaytestInterrupted(target, _saved(db, target), config.games) from None
    except WorkerLostError as exc:
        raise WorkerLostError(
            exc.detail, run_id=target, saved=_saved(db, target), games=config.games
        ) from None
    return RunResult(
        run_id=target,
        config=config,
        summary=summary,
        played=played,
        skipped=len(finished),
        elapsed_s=time.perf_counter() - started,
    )


def _engine_of(stored: dict[str, Any]) -> str:
    """The engine a stored run played (runs from before engines: python)."""
    config = stored.get("config")
    if isinstance(config, str):
        config = json.loads(config)
    return str((config or {}).get("engine") or "python")


def _refuse_other_engine(run_id: str, stored: dict[str, Any], config: PlaytestConfig) -> None:
    """Refuse to resume a run with another engine than it was played with."""
    engine = _engine_of(stored)
    if engine != config.engine:
        raise PlaytestError(
            f"run {run_id} was played with engine {engine!r}, not {config.engine!r}: "
            f"resume it with --engine {engine} (one run, one engine)"
        )


def _interrupted_outside_run(config: PlaytestConfig, run_id: str | None) -> PlaytestInterrupted:
    """The interruption of a run stopped while its database was opened or closed."""
    if not Path(config.db).exists():
        return PlaytestInterrupted(None, 0, config.games)
    with interrupts_deferred(), ResultsDB(config.db, read_only=True) as db:
        target = run_id or db.find_resumable(config.settled())
        return PlaytestInterrupted(target, _saved(db, target), config.games)


def _saved(db: ResultsDB, run_id: str | None) -> int:
    """Games of the run the database holds (committed: what --resume will find)."""
    return 0 if run_id is None else len(db.finished_indices(run_id))


def _play(
    config: PlaytestConfig,
    db: ResultsDB,
    target: str,
    todo: list[int],
    new_run: PlaytestConfig | None,
    progress: bool,
) -> int:
    """Play the games ``todo`` and store each batch as it completes; return games played."""
    played = 0
    bar = _progress(progress)
    task = bar.add_task(f"{config.blue} vs {config.red}", total=config.games)
    bar.update(task, completed=config.games - len(todo))
    results = _iterate(config, todo) if todo else iter(())
    try:
        with bar:
            for batch in results:
                records: list[GameRecord] = []
                failure: dict[str, Any] | None = None
                for item in batch:
                    if "error" in item:
                        failure = item
                    else:
                        records.append(record_from_dict(item))
                if records:
                    db.add_games(
                        target,
                        records,
                        new_run=new_run,
                        with_games=functools.partial(store_trajectories, db, target, batch),
                    )
                    new_run = None
                played += len(records)
                bar.advance(task, len(records))
                if failure is not None:
                    if failure["bad_input"]:
                        raise PlaytestError(failure["error"])
                    raise GameFailedError(failure["game_index"], failure["seed"], failure["error"])
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stop the backend's workers when we leave early
    return played
