"""DuckDB tables of the analytics layer, created beside the playtest tables: defined in
:mod:`riven_env.playtest.analytics_db` (a playtest run stores each game's trajectory as it
plays) and re-exported here for the analytics. Columns are documented in ``docs/metrics.md``.
"""

from riven_env.playtest.analytics_db import (
    ANALYTICS_TABLES,
    ensure_tables,
    export_analytics,
    has_table,
    insert_rows,
    replace_rows,
    store_trajectories,
    trajectories,
)

__all__ = [
    "ANALYTICS_TABLES",
    "ensure_tables",
    "export_analytics",
    "has_table",
    "insert_rows",
    "replace_rows",
    "store_trajectories",
    "trajectories",
]
