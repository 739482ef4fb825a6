"""Playtests at scale: parallel runs, a DuckDB results database, statistics, reports,
rule-variant comparisons and tournaments (``docs/playtest.md``).

duckdb, scipy and matplotlib (the ``playtest`` extra), ray (``distributed``) and
openskill (``ratings``) are imported only when a function needs them. The names below are
imported on first use (PEP 562), so that importing one submodule (``playtest.config`` for
the command line) does not pull in the game engine.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "CompareResult": "compare",
    "Variant": "compare",
    "run_compare": "compare",
    "PlaytestConfig": "config",
    "game_seed": "config",
    "parse_overrides": "config",
    "ResultsDB": "db",
    "GameFailedError": "errors",
    "PlaytestError": "errors",
    "PlaytestInterrupted": "runner",
    "RunResult": "runner",
    "run_playtest": "runner",
    "GameSummary": "summary",
    "summarise_game": "summary",
    "TournamentResult": "tournament",
    "run_tournament": "tournament",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
