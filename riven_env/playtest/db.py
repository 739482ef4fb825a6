"""The playtest results database (DuckDB, one file, schema in ``docs/playtest.md``).

Only the main process writes: workers return summaries and the runner stores each batch
in one transaction as soon as it completes, so an interrupted run keeps every finished
game and ``--resume`` knows exactly which game indices remain.

Every call into DuckDB runs with Ctrl-C held (:func:`~riven_env.interrupts.interrupts_deferred`)
and the KeyboardInterrupt is raised when the call has returned. A signal handled inside
DuckDB aborts the statement ("Query interrupted", a failed rollback in a commit), and one
raised inside its C++ code leaves Python marking the interrupt as unhandled, so that the
process killed itself with SIGINT at exit (status -2) after saying it stopped cleanly.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime, timezone
from hashlib import sha1
from pathlib import Path
from types import TracebackType
from typing import Any

from riven_env.extras import require
from riven_env.interrupts import interrupts_deferred
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.summary import GameSummary, side_rosters

SCHEMA_VERSION = 1

# Table name -> column definitions. The order of columns is the order rows are written.
# Every count and score is BIGINT: points come from scenario files, and a value any
# validated scenario allows must store (32-bit columns refused points above 2**31 after
# the whole run had been played). Only the game_index key stays INTEGER.
TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "runs": (
        ("run_id", "VARCHAR PRIMARY KEY"),
        ("created", "TIMESTAMP"),
        ("kind", "VARCHAR"),
        ("label", "VARCHAR"),
        ("group_id", "VARCHAR"),
        ("scenario", "VARCHAR"),
        ("blue", "VARCHAR"),
        ("red", "VARCHAR"),
        ("games_requested", "BIGINT"),
        ("seed", "BIGINT"),
        ("overrides", "JSON"),
        ("config", "JSON"),
        ("identity", "VARCHAR"),
        ("code_version", "VARCHAR"),
        # Who played each side: agent, resolved Oracle profile, roster (side_rosters of the
        # run's first stored game; NULL until one is stored).
        ("sides", "JSON"),
    ),
    "games": (
        ("run_id", "VARCHAR"),
        ("game_index", "INTEGER"),
        ("seed", "BIGINT"),
        ("winner", "VARCHAR"),
        ("draw", "BOOLEAN"),
        ("reason", "VARCHAR"),
        ("rounds", "BIGINT"),
        ("first_side", "VARCHAR"),
        ("blue_points", "BIGINT"),
        ("red_points", "BIGINT"),
        ("decisions", "BIGINT"),
        ("duration_s", "DOUBLE"),
        ("summary", "JSON"),
    ),
    "game_sides": (
        ("run_id", "VARCHAR"),
        ("game_index", "INTEGER"),
        ("side", "VARCHAR"),
        ("agent", "VARCHAR"),
        ("won", "BOOLEAN"),
        ("points", "BIGINT"),
        ("models", "BIGINT"),
        ("down", "BIGINT"),
        ("out", "BIGINT"),
        ("fled", "BIGINT"),
        ("survivors", "BIGINT"),
        ("wounds_dealt", "BIGINT"),
        ("wounds_taken", "BIGINT"),
        ("morale_tests", "BIGINT"),
        ("morale_failures", "BIGINT"),
        ("morale_flights", "BIGINT"),
        ("momentum_gained", "BIGINT"),
        ("momentum_spent", "BIGINT"),
        ("strain_gained", "BIGINT"),
        ("strain_spent", "BIGINT"),
        ("activations", "BIGINT"),
        ("actions", "BIGINT"),
        ("turns_passed", "BIGINT"),
        ("shots", "BIGINT"),
        ("shots_miss", "BIGINT"),
        ("shots_partial", "BIGINT"),
        ("shots_hit", "BIGINT"),
        ("shots_critical", "BIGINT"),
        ("melees", "BIGINT"),
        ("melees_initiated", "BIGINT"),
        ("melees_won", "BIGINT"),
        ("melees_lost", "BIGINT"),
        ("melee_parry", "BIGINT"),
        ("melee_recoil", "BIGINT"),
        ("melee_wound", "BIGINT"),
        ("melee_critical", "BIGINT"),
    ),
    "resources": (
        ("run_id", "VARCHAR"),
        ("game_index", "INTEGER"),
        ("side", "VARCHAR"),
        ("resource", "VARCHAR"),
        ("direction", "VARCHAR"),
        ("reason", "VARCHAR"),
        ("amount", "BIGINT"),
    ),
    "game_models": (
        ("run_id", "VARCHAR"),
        ("game_index", "INTEGER"),
        ("model", "VARCHAR"),
        ("side", "VARCHAR"),
        ("profile", "VARCHAR"),
        ("name", "VARCHAR"),
        ("oracle", "VARCHAR"),
        ("mettle", "BIGINT"),
        ("wounds", "BIGINT"),
        ("status", "VARCHAR"),
        ("wounds_taken", "BIGINT"),
        ("wounds_dealt", "BIGINT"),
        ("activations", "BIGINT"),
        ("actions", "BIGINT"),
        ("shots", "BIGINT"),
        ("shot_wounds", "BIGINT"),
        ("melees", "BIGINT"),
        ("melee_wins", "BIGINT"),
        ("morale_tests", "BIGINT"),
        ("morale_failures", "BIGINT"),
        ("strain_gained", "BIGINT"),
        ("strain_spent", "BIGINT"),
    ),
    "oracle_rules": (
        ("run_id", "VARCHAR"),
        ("game_index", "INTEGER"),
        ("side", "VARCHAR"),
        ("profile", "VARCHAR"),
        ("rule", "VARCHAR"),
        ("count", "BIGINT"),
    ),
    "activations": (
        ("run_id", "VARCHAR"),
        ("game_index", "INTEGER"),
        ("side", "VARCHAR"),
        ("mettle", "BIGINT"),
        ("dice", "BIGINT"),
        ("count", "BIGINT"),
        ("actions", "BIGINT"),
        ("passed", "BIGINT"),
        ("bonus", "BIGINT"),
    ),
}
EXPORT_FORMATS = ("parquet", "csv")
# Columns added to a table after schema version 1 first shipped: (table, column, type).
ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (("runs", "sides", "JSON"),)
# The range of a BIGINT column.
BIGINT_RANGE = (-(2**63), 2**63 - 1)


@dataclass(frozen=True)
class GameRecord:
    """One finished game as a worker returns it.

    Attributes:
        game_index: Index within the run.
        seed: The game's seed.
        duration_s: Wall time the game took in the worker.
        summary: The game's summary.
    """

    game_index: int
    seed: int
    duration_s: float
    summary: GameSummary


def code_version() -> str:
    """The package version, plus the git commit when run from a checkout."""
    from riven_env import __version__

    root = Path(__file__).resolve().parents[2]
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short=10", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return __version__
    return f"{__version__}+g{sha}" if sha else __version__


def _rows(summary: GameSummary, run_id: str, index: int) -> dict[str, list[tuple]]:
    """Split a summary into rows of every per-game table."""
    rows: dict[str, list[tuple]] = {name: [] for name in TABLES if name not in ("runs", "games")}
    for side in summary.sides.values():
        shots, melees = side.shots, side.melees
        rows["game_sides"].append(
            (
                run_id, index, side.side, side.agent, summary.winner == side.side, side.points,
                side.models, side.down, side.out, side.fled, side.survivors,
                side.wounds_dealt, side.wounds_taken, side.morale_tests, side.morale_failures,
                side.morale_flights, side.momentum_gained, side.momentum_spent,
                side.strain_gained, side.strain_spent, side.activation_count,
                side.actions_gained, side.turns_passed, shots.get("total", 0),
                shots.get("miss", 0), shots.get("partial", 0), shots.get("hit", 0),
                shots.get("critical", 0), melees.get("fought", 0), melees.get("initiated", 0),
                melees.get("won", 0), melees.get("lost", 0), melees.get("parry", 0),
                melees.get("recoil", 0), melees.get("wound", 0), melees.get("critical", 0),
            )
        )  # fmt: skip
        for resource, direction, by_reason in (
            ("momentum", "gained", side.momentum_gained_by_reason),
            ("momentum", "spent", side.momentum_spent_by_reason),
            ("strain", "gained", side.strain_gained_by_reason),
            ("strain", "spent", side.strain_spent_by_reason),
        ):
            for reason, amount in sorted(by_reason.items()):
                rows["resources"].append(
                    (run_id, index, side.side, resource, direction, reason, amount)
                )
        for tally in side.activations:
            rows["activations"].append(
                (run_id, index, side.side, tally.mettle, tally.dice, tally.count,
                 tally.actions, tally.passed, tally.bonus)
            )  # fmt: skip
    for model in summary.models:
        rows["game_models"].append(
            (
                run_id, index, model.model, model.side, model.profile, model.name, model.oracle,
                model.mettle, model.wounds, model.status, model.wounds_taken, model.wounds_dealt,
                model.activations, model.actions, model.shots, model.shot_wounds, model.melees,
                model.melee_wins, model.morale_tests, model.morale_failures, model.strain_gained,
                model.strain_spent,
            )
        )  # fmt: skip
    for rule in summary.oracle_rules:
        rows["oracle_rules"].append((run_id, index, rule.side, rule.profile, rule.rule, rule.count))
    return rows


class ResultsDB:
    """A connection to a results database file, created with its schema when new.

    Use as a context manager, or call :meth:`close`.

    Args:
        path: Database file (parent folders are created); ``":memory:"`` for tests.
        read_only: Open an existing file without writing (reports).

    Raises:
        PlaytestError: ``read_only`` and the file does not exist.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False):
        duckdb = require("duckdb", "playtest", "the playtest results database")
        self.path = Path(path) if str(path) != ":memory:" else None
        # Creation times of runs whose ids are handed out but whose rows are not stored yet.
        self._created: dict[str, datetime] = {}
        if self.path is not None:
            if read_only and not self.path.exists():
                raise PlaytestError(f"results database {self.path} does not exist")
            if not read_only:
                self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with interrupts_deferred():
                self._con = duckdb.connect(str(path), read_only=read_only)
        except duckdb.Error as exc:  # locked by another process, not a DuckDB file, ...
            first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise PlaytestError(f"cannot open results database {path}: {first_line}") from exc
        if not read_only:
            self._create_schema()

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> ResultsDB:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection."""
        with interrupts_deferred():
            self._con.close()

    def _create_schema(self) -> None:
        with self._transaction("create the schema in"):
            for name, columns in TABLES.items():
                body = ", ".join(f"{col} {kind}" for col, kind in columns)
                if name == "games":
                    body += ", PRIMARY KEY (run_id, game_index)"
                self._con.execute(f"CREATE TABLE IF NOT EXISTS {name} ({body})")
            # Files written before a column existed get it (NULL in their old rows).
            for name, column, kind in ADDED_COLUMNS:
                self._con.execute(f"ALTER TABLE {name} ADD COLUMN IF NOT EXISTS {column} {kind}")
            self._widen_columns()

    def _widen_columns(self) -> None:
        # Files written before the counts became BIGINT keep their 32-bit columns: widen
        # them in place (same schema version: every stored value fits the wider type).
        stored = self._con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'main'"
        ).fetchall()
        types = {(table, column): kind for table, column, kind in stored}
        for name, columns in TABLES.items():
            for column, kind in columns:
                if kind == "BIGINT" and types.get((name, column)) == "INTEGER":
                    self._con.execute(f"ALTER TABLE {name} ALTER {column} TYPE BIGINT")

    @contextmanager
    def _transaction(self, what: str) -> Iterator[None]:
        """One transaction that Ctrl-C cannot cut (it is held until the commit).

        A DuckDB error rolls back and becomes a one-line PlaytestError saying ``what``
        could not be done in which file.
        """
        duckdb = require("duckdb", "playtest", "the playtest results database")
        with interrupts_deferred():
            self._con.execute("BEGIN TRANSACTION")
            try:
                yield
                self._con.execute("COMMIT")
            except BaseException as exc:
                with suppress(duckdb.Error):  # DuckDB may have ended the failed transaction
                    self._con.execute("ROLLBACK")
                if isinstance(exc, duckdb.Error):
                    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                    raise PlaytestError(f"cannot {what} {self._where()}: {first}") from exc
                raise

    def _where(self) -> str:
        return f"results database {self.path if self.path is not None else ':memory:'}"

    # ------------------------------------------------------------------ writing
    def new_run_id(self, config: PlaytestConfig) -> str:
        """A fresh run id (``YYYYmmdd-HHMMSS-<hash>``); the run is stored with its first games.

        Pass ``config`` as ``new_run`` to the first :meth:`add_games` of the run: the
        ``runs`` row and the first games then commit together, so that no run is ever
        stored without games (a run stopped before its first batch leaves nothing).
        """
        created = datetime.now(timezone.utc).replace(tzinfo=None)
        digest = sha1(f"{config.identity()}|{created.isoformat()}".encode()).hexdigest()[:8]
        run_id = f"{created:%Y%m%d-%H%M%S}-{digest}"
        # Two runs in the same second with the same config (one not stored yet, in compare).
        while self.run_exists(run_id) or run_id in self._created:
            digest = sha1(digest.encode()).hexdigest()[:8]
            run_id = f"{created:%Y%m%d-%H%M%S}-{digest}"
        self._created[run_id] = created
        return run_id

    def create_run(self, config: PlaytestConfig) -> str:
        """Record a new run now, without games, and return its id (see :meth:`new_run_id`)."""
        run_id = self.new_run_id(config)
        with self._transaction(f"record run {run_id} in"):
            self._insert_run(run_id, config)
        return run_id

    def _insert_run(self, run_id: str, config: PlaytestConfig) -> None:
        created = self._created.pop(run_id, None) or datetime.now(timezone.utc).replace(tzinfo=None)
        columns = [column for column, _ in TABLES["runs"] if column != "sides"]
        self._con.execute(
            f"INSERT INTO runs ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [
                run_id, created, config.kind, config.label, config.group_id, config.scenario,
                config.blue, config.red, config.games, config.seed,
                json.dumps(dict(config.overrides), sort_keys=True, default=str),
                json.dumps(config.to_dict(), sort_keys=True, default=str),
                config.identity(), code_version(),
            ],
        )  # fmt: skip

    def delete_run(self, run_id: str) -> None:
        """Remove a run and all of its rows."""
        with self._transaction(f"delete run {run_id} from"):
            for name in reversed(list(TABLES)):
                self._con.execute(f"DELETE FROM {name} WHERE run_id = ?", [run_id])

    def set_games_requested(self, run_id: str, games: int) -> None:
        """Raise a resumed run's target number of games."""
        with self._transaction(f"update run {run_id} in"):
            self._con.execute(
                "UPDATE runs SET games_requested = greatest(games_requested, ?) WHERE run_id = ?",
                [games, run_id],
            )

    def add_games(
        self,
        run_id: str,
        records: Sequence[GameRecord],
        *,
        new_run: PlaytestConfig | None = None,
        with_games: Callable[[], None] | None = None,
    ) -> None:
        """Store a batch of finished games in one transaction (all or nothing).

        Ctrl-C during the write is held until the commit (then raised), so a batch is
        either wholly stored or not at all.

        Args:
            run_id: The run.
            records: The finished games.
            new_run: The run's configuration when its ``runs`` row is not stored yet
                (:meth:`new_run_id`): the row commits with these games.
            with_games: Writes of other layers that belong to these games (the analytics
                layer's trajectories), run inside the same transaction so that a
                resumed run never finds games without them, or them without games.

        Raises:
            PlaytestError: The database refused the rows (for example a value outside
                its column's range); the message names the column and the games.
            KeyboardInterrupt: Ctrl-C arrived during the write (after it committed).
        """
        if not records:
            return
        tables: dict[str, list[tuple]] = {name: [] for name in TABLES if name != "runs"}
        for record in records:
            s = record.summary
            tables["games"].append(
                (
                    run_id, record.game_index, record.seed, s.winner, s.draw, s.reason,
                    s.rounds, s.first_side, s.points.get("blue"), s.points.get("red"),
                    s.decisions, record.duration_s, json.dumps(s.to_dict(), sort_keys=True),
                )
            )  # fmt: skip
            for name, rows in _rows(s, run_id, record.game_index).items():
                tables[name].extend(rows)
        sides = json.dumps(side_rosters(records[0].summary), sort_keys=True)
        games = sorted(r.game_index for r in records)
        what = f"store games {games[0]}-{games[-1]} of run {run_id} in"
        try:
            with self._transaction(what):
                if new_run is not None:
                    self._insert_run(run_id, new_run)
                for name, rows in tables.items():
                    if rows:
                        self._insert_columns(name, rows)
                self._con.execute(
                    "UPDATE runs SET sides = ? WHERE run_id = ? AND sides IS NULL", [sides, run_id]
                )
                if with_games is not None:
                    with_games()
        except PlaytestError as exc:
            wide = _out_of_range(tables)
            if wide is None:
                raise
            raise PlaytestError(f"cannot {what} {self._where()}: {wide}") from exc.__cause__

    def _insert_columns(self, table: str, rows: Sequence[tuple]) -> None:
        # One statement per table with one list parameter per column: DuckDB unnests the
        # lists in a vectorised insert, ~20x faster than executemany's row-by-row inserts.
        columns = TABLES[table]
        selects = ", ".join(
            f"unnest(${i + 1}::{kind.split()[0]}[])" for i, (_, kind) in enumerate(columns)
        )
        values = [list(column) for column in zip(*rows, strict=True)]
        self._con.execute(f"INSERT INTO {table} SELECT {selects}", values)

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> None:
        """Run one SQL statement that returns no rows (tables of other layers: analytics).

        Ctrl-C is held until the statement has run (DuckDB would abort it half way with
        "Query interrupted"), then raised as KeyboardInterrupt.

        Raises:
            KeyboardInterrupt: Ctrl-C arrived while the statement ran (raised after it).
            PlaytestError: DuckDB refused the statement, naming the file.
        """
        duckdb = require("duckdb", "playtest", "the playtest results database")
        try:
            with interrupts_deferred():
                self._con.execute(sql, list(params or []))
        except duckdb.Error as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise PlaytestError(f"cannot write {self._where()}: {first}") from exc

    # ------------------------------------------------------------------ reading
    def query(self, sql: str, params: Sequence[Any] | None = None) -> list[dict[str, Any]]:
        """Run SQL and return rows as dicts keyed by column name.

        Ctrl-C is held until the query has returned (see the module docstring).

        Raises:
            KeyboardInterrupt: Ctrl-C arrived while the query ran (raised after it).
            PlaytestError: DuckDB cannot read the file (damaged or truncated: the blocks a
                query needs are missing), naming the file.
        """
        duckdb = require("duckdb", "playtest", "the playtest results database")
        try:
            with interrupts_deferred():
                cursor = self._con.execute(sql, list(params or []))
                names = [column[0] for column in cursor.description]
                rows = cursor.fetchall()
        except duckdb.Error as exc:
            first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise PlaytestError(
                f"cannot read results database {self.path or ':memory:'} (damaged or "
                f"truncated?): {first_line}"
            ) from exc
        return [dict(zip(names, row, strict=True)) for row in rows]

    def run_exists(self, run_id: str) -> bool:
        """Whether a run with this id is stored."""
        return bool(self.query("SELECT 1 FROM runs WHERE run_id = ?", [run_id]))

    def run(self, run_id: str | None = None) -> dict[str, Any]:
        """The ``runs`` row of ``run_id``, or of the latest run when ``None``.

        Raises:
            PlaytestError: No such run (the message lists the stored ones).
        """
        if run_id is None:
            rows = self.query("SELECT * FROM runs ORDER BY created DESC, run_id DESC LIMIT 1")
            if not rows:
                raise PlaytestError(f"results database {self.path} holds no runs")
            return rows[0]
        rows = self.query("SELECT * FROM runs WHERE run_id = ?", [run_id])
        if not rows:
            known = [r["run_id"] for r in self.query("SELECT run_id FROM runs ORDER BY created")]
            shown = ", ".join(known[-10:]) or "none"
            raise PlaytestError(f"run {run_id!r} is not in {self.path}; stored runs: {shown}")
        return rows[0]

    def runs(self, group_id: str | None = None) -> list[dict[str, Any]]:
        """Every stored run (of one compare/tournament group when given), oldest first."""
        if group_id is None:
            return self.query("SELECT * FROM runs ORDER BY created, run_id")
        return self.query(
            "SELECT * FROM runs WHERE group_id = ? ORDER BY created, run_id", [group_id]
        )

    def find_resumable(self, config: PlaytestConfig) -> str | None:
        """The latest run that played the same experiment as ``config``, if any."""
        rows = self.query(
            "SELECT run_id FROM runs WHERE identity = ? AND kind = ? "
            "ORDER BY created DESC, run_id DESC LIMIT 1",
            [config.identity(), config.kind],
        )
        return rows[0]["run_id"] if rows else None

    def finished_indices(self, run_id: str) -> set[int]:
        """Game indices of a run that are already stored."""
        rows = self.query("SELECT game_index FROM games WHERE run_id = ?", [run_id])
        return {row["game_index"] for row in rows}

    def games(self, run_id: str) -> list[dict[str, Any]]:
        """The ``games`` rows of a run (without the summary JSON), by game index."""
        columns = ", ".join(col for col, _ in TABLES["games"] if col != "summary")
        return self.query(
            f"SELECT {columns} FROM games WHERE run_id = ? ORDER BY game_index", [run_id]
        )

    def summaries(self, run_id: str) -> list[GameSummary]:
        """The stored game summaries of a run, by game index."""
        rows = self.query(
            "SELECT summary FROM games WHERE run_id = ? ORDER BY game_index", [run_id]
        )
        return [GameSummary.from_dict(json.loads(row["summary"])) for row in rows]

    # ------------------------------------------------------------------ export
    def export_table(
        self,
        table: str,
        path: str | Path,
        run_ids: Iterable[str] | None = None,
        exclude: Sequence[str] = (),
    ) -> Path:
        """Write one table (optionally only some runs) to Parquet or CSV, by file suffix.

        ``exclude`` names columns to leave out (for example the bulky ``summary`` JSON
        when the file is meant for a spreadsheet).

        Raises:
            PlaytestError: Unknown table or a suffix other than ``.parquet``/``.csv``.
        """
        if table not in TABLES:
            raise PlaytestError(f"unknown table {table!r}; allowed: {', '.join(TABLES)}")
        out = Path(path)
        fmt = out.suffix.lstrip(".").lower()
        if fmt not in EXPORT_FORMATS:
            raise PlaytestError(
                f"export file {out} has suffix {out.suffix!r}; allowed: .parquet, .csv"
            )
        out.parent.mkdir(parents=True, exist_ok=True)
        where, params = "", []
        ids = list(run_ids) if run_ids is not None else None
        if ids is not None:
            where = f" WHERE run_id IN ({', '.join('?' * len(ids))})" if ids else " WHERE false"
            params = ids
        # COPY takes no prepared parameters for the file name: quote it safely instead.
        target = str(out).replace("'", "''")
        options = "FORMAT PARQUET" if fmt == "parquet" else "FORMAT CSV, HEADER"
        known = [column for column, _ in TABLES[table]]
        unknown = sorted(set(exclude) - set(known))
        if unknown:
            raise PlaytestError(
                f"table {table} has no column(s) {', '.join(unknown)}; allowed: {', '.join(known)}"
            )
        chosen = ", ".join(column for column in known if column not in set(exclude))
        with interrupts_deferred():
            self._con.execute(
                f"COPY (SELECT {chosen} FROM {table}{where}) TO '{target}' ({options})", params
            )
        return out

    def export_all(
        self, folder: str | Path, run_ids: Iterable[str] | None = None, fmt: str = "parquet"
    ) -> list[Path]:
        """Write every table to ``folder/<table>.<fmt>`` and return the paths."""
        if fmt not in EXPORT_FORMATS:
            raise PlaytestError(f"export format {fmt!r}; allowed: {', '.join(EXPORT_FORMATS)}")
        ids = list(run_ids) if run_ids is not None else None
        return [self.export_table(t, Path(folder) / f"{t}.{fmt}", ids) for t in TABLES]


def _out_of_range(tables: Mapping[str, Sequence[tuple]]) -> str | None:
    """``table.column = value (game i)`` for the first integer outside BIGINT, if any."""
    low, high = BIGINT_RANGE
    for name, rows in tables.items():
        columns = [column for column, _ in TABLES[name]]
        for row in rows:
            for column, value in zip(columns, row, strict=True):
                if isinstance(value, int) and not low <= value <= high:
                    return (
                        f"{name}.{column} = {value} (game {row[1]}) is outside the range the "
                        f"database stores ({low} to {high}); the scenario's points or "
                        "counts are too large"
                    )
    return None


def record_from_dict(data: Mapping[str, Any]) -> GameRecord:
    """Rebuild a :class:`GameRecord` from a worker's JSON-ready dict."""
    return GameRecord(
        game_index=int(data["game_index"]),
        seed=int(data["seed"]),
        duration_s=float(data["duration_s"]),
        summary=GameSummary.from_dict(data["summary"]),
    )
