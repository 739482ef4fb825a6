"""Start-up of the ``riven`` command: importing it pulls in no heavy module.

Timings are a benchmark (benchmarks/bench_startup.py), not a test; this checks what makes them.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "torch",
    "duckdb",
    "matplotlib",
    "ray",
    "scipy",
    "riven_env._native",
    "shapely",
    "networkx",
)


def _imported(code: str) -> list[str]:
    script = (
        f"{code}\nimport json, sys\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_importing_the_command_line_imports_no_heavy_module() -> None:
    assert _imported("import riven_env.cli.main") == []


def test_the_playtest_package_imports_its_modules_on_first_use() -> None:
    assert _imported("import riven_env.playtest.config") == []
    assert _imported("from riven_env.playtest import ResultsDB; ResultsDB") == []
