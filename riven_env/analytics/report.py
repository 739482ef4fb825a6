"""The designer's report of a playtest run: the playtest's own sections
(:func:`riven_env.playtest.report.render_report`) and every analytics section that has data for
the run (:func:`riven_env.analytics.report_sections.analytics_sections`), in one HTML file.
"""

from __future__ import annotations

from pathlib import Path

from riven_env.analytics.report_sections import analytics_sections
from riven_env.playtest.analysis import analyse_run
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.report import render_report


def write_report(db_path: str | Path, run_id: str | None, out_html: str | Path) -> Path:
    """Write the HTML report of a run.

    Args:
        db_path: Results database file.
        run_id: The run to report (``None``: the latest run in the database).
        out_html: Output file (parent folders are created).

    Returns:
        The written path.

    Raises:
        PlaytestError: The database or the run does not exist.
    """
    with ResultsDB(db_path, read_only=True) as db:
        analysis = analyse_run(db, run_id)
        extra = analytics_sections(db, analysis.run) if analysis.summary.games else []
    out = Path(out_html)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_report(analysis, extra), encoding="utf-8")
    return out
