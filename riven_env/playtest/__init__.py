"""Playtests at scale: parallel runs, a DuckDB results database, statistics, reports,
rule-variant comparisons and tournaments (``docs/playtest.md``).

duckdb, scipy and matplotlib (the ``playtest`` extra), ray (``distributed``) and
openskill (``ratings``) are imported only when a function needs them.
"""

from __future__ import annotations

from riven_env.playtest.compare import CompareResult, Variant, run_compare
from riven_env.playtest.config import PlaytestConfig, game_seed, parse_overrides
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import GameFailedError, PlaytestError
from riven_env.playtest.report import write_report
from riven_env.playtest.runner import PlaytestInterrupted, RunResult, run_playtest
from riven_env.playtest.summary import GameSummary, summarise_game
from riven_env.playtest.tournament import TournamentResult, run_tournament

__all__ = [
    "CompareResult",
    "GameFailedError",
    "GameSummary",
    "PlaytestConfig",
    "PlaytestError",
    "PlaytestInterrupted",
    "ResultsDB",
    "RunResult",
    "TournamentResult",
    "Variant",
    "game_seed",
    "parse_overrides",
    "run_compare",
    "run_playtest",
    "run_tournament",
    "summarise_game",
    "write_report",
]
