"""`pip install .` (not only editable) must ship the bundled data files."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIRED = [
    "riven_env/rules/data/riven-v0.1.toml",
    "riven_env/table/data/terrain_types.toml",
    "riven_env/table/data/geometry.toml",
    "scenarios/profiles.toml",
    "scenarios/skirmish-5v5.toml",
    "agents/oracle/data/profiles.toml",
    "riven_env/replay/assets/replay.js",
    "riven_env/playtest/data/playtest.toml",
]


@pytest.mark.slow
def test_wheel_ships_every_bundled_data_file(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("riven_lab-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [path for path in REQUIRED if path not in names]
    assert not missing, f"wheel lacks {missing}"
    bundled = {p.name for p in (ROOT / "scenarios").glob("*.toml")}
    shipped = {Path(n).name for n in names if n.startswith("scenarios/") and n.endswith(".toml")}
    assert bundled <= shipped
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "riven = riven_env.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
