"""DuckDB tables of the analytics layer (:mod:`riven_env.analytics`), created beside the
playtest tables.

The playtest tables (``riven_env.playtest.db.TABLES``) hold games; these hold what the
analytics compute from them, keyed by the run (``run_id``) or by the group of runs of one
seat swap, skill trace, meta-game or audit (``group_id``), so that a designer can query
them next to the games. Columns are documented in ``docs/metrics.md``.

They live in the playtest layer because a playtest run stores each game's trajectory
(:func:`store_trajectories`, :mod:`riven_env.playtest.trajectory`) as it plays; the analytics
read them and store their own estimates here (``riven_env.analytics.store`` re-exports them).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from riven_env.playtest.db import EXPORT_FORMATS, ResultsDB
from riven_env.playtest.errors import PlaytestError

# Columns shared by every table of estimates: the estimate and its 95% interval.
_ESTIMATE = (
    ("value", "DOUBLE"),
    ("low", "DOUBLE"),
    ("high", "DOUBLE"),
    ("n", "BIGINT"),
    ("method", "VARCHAR"),
)

ANALYTICS_TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "game_trajectory": (
        ("run_id", "VARCHAR"),
        ("game_index", "BIGINT"),
        ("step", "BIGINT"),
        ("round", "BIGINT"),
        ("blue_points", "BIGINT"),
        ("red_points", "BIGINT"),
        ("blue_active", "BIGINT"),
        ("red_active", "BIGINT"),
    ),
    "run_metrics": (
        ("run_id", "VARCHAR"),
        ("metric", "VARCHAR"),
        ("part", "VARCHAR"),
        *_ESTIMATE,
    ),
    "seat_effects": (
        ("group_id", "VARCHAR"),
        ("run_id", "VARCHAR"),
        ("effect", "VARCHAR"),
        ("label", "VARCHAR"),
        *_ESTIMATE,
    ),
    "skill_trace": (
        ("group_id", "VARCHAR"),
        ("row_agent", "VARCHAR"),
        ("col_agent", "VARCHAR"),
        ("row_level", "BIGINT"),
        ("col_level", "BIGINT"),
        ("colour", "VARCHAR"),
        *_ESTIMATE,
    ),
    "meta_payoffs": (
        ("group_id", "VARCHAR"),
        ("row_roster", "VARCHAR"),
        ("col_roster", "VARCHAR"),
        ("colour", "VARCHAR"),
        *_ESTIMATE,
    ),
    "meta_strategies": (
        ("group_id", "VARCHAR"),
        ("scenario", "VARCHAR"),
        ("roster", "VARCHAR"),
        ("nash", "DOUBLE"),
        ("alpha_rank", "DOUBLE"),
        ("flags", "JSON"),
    ),
    "oracle_audit": (
        ("group_id", "VARCHAR"),
        ("profile", "VARCHAR"),
        ("scenario", "VARCHAR"),
        ("measure", "VARCHAR"),
        *_ESTIMATE,
    ),
}


def ensure_tables(db: ResultsDB) -> None:
    """Create the analytics tables that do not exist yet, and add columns a table written
    by an earlier version lacks (rows are always inserted by column name)."""
    for name, columns in ANALYTICS_TABLES.items():
        body = ", ".join(f"{col} {kind}" for col, kind in columns)
        db.execute(f"CREATE TABLE IF NOT EXISTS {name} ({body})")
        present = {
            row["column_name"]
            for row in db.query(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [name]
            )
        }
        for col, kind in columns:
            if col not in present:
                db.execute(f"ALTER TABLE {name} ADD COLUMN {col} {kind}")


def has_table(db: ResultsDB, name: str) -> bool:
    """Whether ``name`` exists (a database written before the analytics layer lacks it)."""
    rows = db.query("SELECT 1 FROM information_schema.tables WHERE table_name = ?", [name])
    return bool(rows)


def insert_rows(db: ResultsDB, table: str, rows: Sequence[Sequence[Any]]) -> None:
    """Append rows (tuples in the table's column order) to an analytics table."""
    if not rows:
        return
    columns = ANALYTICS_TABLES[table]
    marks = ", ".join("?" for _ in columns)
    ensure_tables(db)
    for row in rows:
        if len(row) != len(columns):
            raise PlaytestError(
                f"row for {table} has {len(row)} values; the table has {len(columns)} columns"
            )
        values = [json.dumps(v, sort_keys=True) if isinstance(v, dict | list) else v for v in row]
        names = ", ".join(col for col, _ in columns)
        db.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", values)


def replace_rows(
    db: ResultsDB, table: str, key: str, value: str, rows: Sequence[Sequence[Any]]
) -> None:
    """Replace the rows of ``table`` whose ``key`` column equals ``value`` (re-computation)."""
    ensure_tables(db)
    db.execute(f"DELETE FROM {table} WHERE {key} = ?", [value])
    insert_rows(db, table, rows)


def store_trajectories(db: ResultsDB, run_id: str, items: Iterable[Mapping[str, Any]]) -> None:
    """Store the ``trajectory`` of every finished game in a worker batch.

    Args:
        db: The open results database.
        run_id: The run the games belong to.
        items: Worker results (``game_index`` and, from this layer, ``trajectory``); error
            items and items without a trajectory are skipped.
    """
    rows = []
    for item in items:
        for point in item.get("trajectory") or ():
            rows.append(
                (
                    run_id, int(item["game_index"]), point["step"], point["round"],
                    point["blue_points"], point["red_points"], point["blue_active"],
                    point["red_active"],
                )
            )  # fmt: skip
    if not rows:
        return
    ensure_tables(db)
    # One vectorised insert per batch (as the playtest tables do): unnest one list per column.
    columns = ANALYTICS_TABLES["game_trajectory"]
    selects = ", ".join(f"unnest(${i + 1}::{kind}[])" for i, (_, kind) in enumerate(columns))
    values = [list(column) for column in zip(*rows, strict=True)]
    names = ", ".join(col for col, _ in columns)
    db.execute(f"INSERT INTO game_trajectory ({names}) SELECT {selects}", values)


def trajectories(db: ResultsDB, run_id: str) -> dict[int, list[dict[str, Any]]]:
    """``{game_index: checkpoint rows}`` of a run (empty when none were stored)."""
    if not has_table(db, "game_trajectory"):
        return {}
    rows = db.query(
        "SELECT * FROM game_trajectory WHERE run_id = ? ORDER BY game_index, step", [run_id]
    )
    out: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(int(row["game_index"]), []).append(row)
    return out


def export_analytics(db: ResultsDB, folder: str | Path, fmt: str = "parquet") -> list[Path]:
    """Write every analytics table that exists to ``folder/<table>.<fmt>`` (duckdb COPY).

    Raises:
        PlaytestError: ``fmt`` is not ``parquet`` or ``csv``.
    """
    if fmt not in EXPORT_FORMATS:
        raise PlaytestError(f"export format {fmt!r}; allowed: {', '.join(EXPORT_FORMATS)}")
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ANALYTICS_TABLES:
        if not has_table(db, name):
            continue
        target = out_dir / f"{name}.{fmt}"
        quoted = str(target).replace("'", "''")
        options = "FORMAT PARQUET" if fmt == "parquet" else "FORMAT CSV, HEADER"
        db.execute(f"COPY (SELECT * FROM {name}) TO '{quoted}' ({options})")
        written.append(target)
    return written
