"""Configuration of a playtest run, rule overrides from ``--set`` and per-game seeds."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from riven_env.files import limit, parse_toml
from riven_env.playtest.errors import PlaytestError

DEFAULT_DB = Path("runs") / "playtests.duckdb"
# The function that plays one game and returns its event log. The name is part of every
# run's identity (``--resume``), so it stays the path the function had when runs were first
# stored; the function itself is riven_env.engines:play_game (MOVED_PLAYERS).
DEFAULT_PLAYER = "riven_env.game.runner:play_game"
#: Players whose function moved: the name runs store -> where the function is now.
MOVED_PLAYERS = {DEFAULT_PLAYER: "riven_env.engines:play_game"}
BACKENDS = ("local", "ray")
# Batching of games into tasks (see PlaytestConfig.effective_batch_size).
BATCHES_PER_WORKER = 16
MAX_BATCH_GAMES = 10
SIDES = ("blue", "red")
SETTINGS_FILE = "playtest.toml"
# Key of playtest.toml -> smallest allowed value (every key is a whole number).
_SETTINGS_MINIMUM: dict[str, dict[str, int]] = {
    "workers": {"batch_retries": 0, "in_flight_per_worker": 1},
}


@dataclass(frozen=True)
class ExecutionSettings:
    """How a playtest spreads its games over workers (``riven_env/playtest/data/playtest.toml``).

    Attributes:
        batch_retries: Times a batch lost with its worker process is played again on a
            fresh worker before the run stops.
        in_flight_per_worker: Batches handed out ahead of time per worker.
    """

    batch_retries: int
    in_flight_per_worker: int


def check_settings(raw: Mapping[str, Any], where: str = SETTINGS_FILE) -> ExecutionSettings:
    """Validate the contents of a ``playtest.toml``.

    Raises:
        PlaytestError: An unknown section or key, a missing key, or a value that is not a
            whole number at or above its minimum; the message names the key.
    """
    unknown = sorted(set(raw) - set(_SETTINGS_MINIMUM))
    if unknown:
        raise PlaytestError(
            f"{where}: unknown section(s) {unknown}; allowed: {sorted(_SETTINGS_MINIMUM)}"
        )
    values: dict[str, int] = {}
    for section, minimums in _SETTINGS_MINIMUM.items():
        table = raw.get(section, {})
        extra = sorted(set(table) - set(minimums))
        if extra:
            raise PlaytestError(
                f"{where}: [{section}] unknown key(s) {extra}; allowed: {sorted(minimums)}"
            )
        for key, minimum in minimums.items():
            if key not in table:
                raise PlaytestError(f"{where}: {section}.{key} is missing")
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise PlaytestError(
                    f"{where}: {section}.{key} = {value!r} is not allowed; "
                    f"allowed: a whole number >= {minimum}"
                )
            values[key] = value
    return ExecutionSettings(**values)


@lru_cache(maxsize=1)
def execution_settings() -> ExecutionSettings:
    """The bundled execution settings, read and checked once per process."""
    text = resources.files("riven_env.playtest.data").joinpath(SETTINGS_FILE).read_text("utf-8")
    return check_settings(
        parse_toml(text, SETTINGS_FILE, what="playtest settings", error=PlaytestError)
    )


def game_seed(run_seed: int, game_index: int) -> int:
    """Seed of game ``game_index`` of a run seeded ``run_seed``.

    Derived with ``numpy.random.SeedSequence([run_seed, game_index])`` so that it depends
    only on the pair, never on which worker or backend plays the game. The result fits a
    signed 64-bit database column.

    Args:
        run_seed: The run's seed (``--seed``), >= 0.
        game_index: The game's 0-based index within the run.

    Returns:
        A non-negative integer below 2**63.
    """
    state = np.random.SeedSequence([run_seed, game_index]).generate_state(1, dtype=np.uint64)
    return int(state[0] >> np.uint64(1))


def parse_override(text: str) -> tuple[str, object]:
    """Parse one ``--set KEY=VALUE`` into ``(key, value)``.

    The value is read as a TOML value when it is one (``3``, ``0.5``, ``true``,
    ``[1, 2]``, ``"x"``) and otherwise kept as a bare string (``turnover=sbh``).

    Raises:
        PlaytestError: There is no ``=`` or the key is empty.
    """
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise PlaytestError(f"--set {text!r} is not allowed; allowed: KEY=VALUE, e.g. turnover=sbh")
    return key, parse_value(raw)


def parse_value(raw: str) -> object:
    """A ``--set`` value: a TOML value when it is one (``3``, ``true``, ``"x"``), else the
    stripped text (``sbh``)."""
    raw = raw.strip()
    try:
        return parse_toml(f"v = {raw}", "--set", error=PlaytestError)["v"]
    except PlaytestError:
        return raw


def parse_overrides(items: Iterable[str]) -> dict[str, object]:
    """Parse several ``KEY=VALUE`` strings; a later key replaces an earlier one."""
    overrides: dict[str, object] = {}
    for item in items:
        key, value = parse_override(item)
        overrides[key] = value
    return overrides


@dataclass(frozen=True)
class PlaytestConfig:
    """Everything that defines a playtest run.

    Attributes:
        scenario: Scenario name or file.
        blue: Agent spec for blue (``random``, ``oracle:aggressive``, ``mcts:200`` ...).
        red: Agent spec for red.
        games: Games to play (the target; with resume, the run's total).
        seed: Run seed; game ``i`` plays seed :func:`game_seed` ``(seed, i)``.
        workers: Parallel workers (default: ``os.cpu_count()``).
        backend: ``local`` (processes) or ``ray``.
        ray_address: Ray cluster address (``None``: start a local Ray).
        db: Results database file.
        overrides: Rule data overrides (``--set``), stored with the run.
        max_decisions: Decision cap per game passed to the game loop (``None``: none).
        batch_size: Games per task (``None``: chosen from games and workers).
        label: Free label stored with the run (``baseline``, ``turnover=sbh`` ...).
        group_id: Id shared by the runs of one compare or tournament.
        kind: ``playtest``, ``compare`` or ``tournament``.
        player: Import path ``module:function`` of the function that plays one game with
            ``play_game``'s signature (another game that writes the same event log, or a
            test double).
        engine: Game engine, ``auto``, ``python`` or ``native`` (``--engine``). ``auto`` is
            settled before the first game (:meth:`settled`: native where the core can play
            the scenario); the concrete engine is stored with the run, part of its identity
            (``--resume`` continues only a run of the same engine).
    """

    scenario: str
    blue: str
    red: str
    games: int
    seed: int = 0
    workers: int | None = None
    backend: str = "local"
    ray_address: str | None = None
    db: Path = DEFAULT_DB
    overrides: Mapping[str, object] = field(default_factory=dict)
    max_decisions: int | None = None
    batch_size: int | None = None
    label: str | None = None
    group_id: str | None = None
    kind: str = "playtest"
    player: str = DEFAULT_PLAYER
    engine: str = "auto"

    def __post_init__(self) -> None:
        from riven_env.engines import ENGINE_CHOICES

        if self.engine not in ENGINE_CHOICES:
            raise PlaytestError(
                f"engine={self.engine!r} is not allowed; allowed: {', '.join(ENGINE_CHOICES)}"
            )
        if self.games < 1:
            raise PlaytestError(f"games={self.games} is not allowed; allowed: 1 or more")
        if self.seed < 0:
            raise PlaytestError(f"seed={self.seed} is not allowed; allowed: 0 or more")
        most = int(limit("processes.max_workers"))
        if self.workers is not None and not 1 <= self.workers <= most:
            raise PlaytestError(
                f"workers={self.workers} is not allowed; allowed: 1 to {most} "
                "(processes.max_workers in riven_env/data/limits.toml)"
            )
        if self.backend not in BACKENDS:
            raise PlaytestError(
                f"backend={self.backend!r} is not allowed; allowed: {', '.join(BACKENDS)}"
            )
        if self.batch_size is not None and self.batch_size < 1:
            raise PlaytestError(f"batch_size={self.batch_size} is not allowed; allowed: 1 or more")
        if self.max_decisions is not None and self.max_decisions < 1:
            raise PlaytestError(
                f"max_decisions={self.max_decisions} is not allowed; allowed: 1 or more"
            )
        object.__setattr__(self, "db", Path(self.db))
        object.__setattr__(self, "overrides", dict(self.overrides))
        for key in ("scenario", "blue", "red"):
            if not str(getattr(self, key)).strip():
                raise PlaytestError(f"{key} is empty; give a name")

    def settled(self) -> PlaytestConfig:
        """This config with a concrete engine: ``auto`` becomes ``native`` where the core can
        play the scenario with these overrides, else ``python`` (always ``python`` for another
        ``player``, which is called without ``engine=``).

        Raises:
            RivenError: The scenario or an override is invalid (from the probe game).
        """
        if self.engine != "auto":
            return self
        if self.player != DEFAULT_PLAYER:
            return replace(self, engine="python")
        from riven_env.engines import pick_engine

        engine = pick_engine("auto", [self.scenario], overrides=dict(self.overrides) or None)
        return replace(self, engine=engine)

    @property
    def worker_count(self) -> int:
        """Workers to use: ``workers`` or the machine's CPU count."""
        return self.workers or os.cpu_count() or 1

    def effective_batch_size(self, remaining: int) -> int:
        """Games per task: small batches, many per worker.

        About sixteen batches per worker balance the load (games differ in length) and
        keep the progress bar moving; the cap of ``MAX_BATCH_GAMES`` bounds the work an
        interrupted or crashed batch throws away. Per-batch overhead is one small pickle.
        """
        if self.batch_size is not None:
            return self.batch_size
        per_worker = max(1, remaining // (self.worker_count * BATCHES_PER_WORKER))
        return min(per_worker, MAX_BATCH_GAMES)

    def game_spec(self) -> dict[str, Any]:
        """What a worker needs to play a game: JSON-ready and picklable."""
        return {
            "scenario": self.scenario,
            "blue": self.blue,
            "red": self.red,
            "seed": self.seed,
            "overrides": dict(self.overrides),
            "max_decisions": self.max_decisions,
            "player": self.player,
            # Only a non-default engine is named: runs stored before engines existed keep
            # their identity (they were played by the Python engine).
            **({"engine": self.engine} if self.engine != "python" else {}),
        }

    def identity(self) -> str:
        """JSON key of what makes two runs the same experiment (for ``--resume``)."""
        return json.dumps(self.game_spec(), sort_keys=True, default=str)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored in the ``runs.config`` column)."""
        return {
            "scenario": self.scenario,
            "blue": self.blue,
            "red": self.red,
            "games": self.games,
            "seed": self.seed,
            "workers": self.worker_count,
            "backend": self.backend,
            "ray_address": self.ray_address,
            "db": str(self.db),
            "overrides": dict(self.overrides),
            "max_decisions": self.max_decisions,
            "batch_size": self.batch_size,
            "label": self.label,
            "group_id": self.group_id,
            "kind": self.kind,
            "player": self.player,
            "engine": self.engine,
        }

    def with_(self, **changes: Any) -> PlaytestConfig:
        """Return a copy with some fields changed."""
        return replace(self, **changes)
