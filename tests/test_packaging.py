"""`pip install .` (not only editable) must ship the bundled data files, under import names
that cannot clash with a user's own ``agents``/``training``/``scenarios`` packages."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
# Repository folder -> installed import name (pyproject.toml [tool.setuptools.package-dir]).
INSTALLED_AS = {
    "riven_env": "riven_env",
    "agents": "riven_agents",
    "scenarios": "riven_scenarios",
    "training": "riven_training",
}
REQUIRED = [
    "riven_env/rules/data/riven-v0.1.toml",
    "riven_env/table/data/terrain_types.toml",
    "riven_env/table/data/geometry.toml",
    "riven_scenarios/profiles.toml",
    "riven_scenarios/skirmish-5v5.toml",
    "riven_scenarios/rosters/wardens.toml",
    "riven_agents/oracle/data/profiles.toml",
    "riven_agents/data/expert.toml",
    "riven_training/config/default.toml",
    "riven_env/data/limits.toml",
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
    # The compiled core ships inside riven_env (riven_env/_native.<abi>.so).
    assert any(re.fullmatch(r"riven_env/_native\.[^/]+\.(so|pyd)", name) for name in names), names
    bundled = {p.name for p in (ROOT / "scenarios").glob("*.toml")}
    shipped = {
        Path(n).name for n in names if n.startswith("riven_scenarios/") and n.endswith(".toml")
    }
    assert bundled <= shipped
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "riven = riven_env.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_every_package_folder_is_listed_under_its_installed_name() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    assert setuptools["package-dir"] == {name: folder for folder, name in INSTALLED_AS.items()}
    expected = set()
    for folder, name in INSTALLED_AS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            expected.add(".".join((name, *parts)))
    assert set(setuptools["packages"]) == expected


def test_no_code_imports_the_generic_folder_names() -> None:
    pattern = re.compile(r"^\s*(from|import) (agents|training|scenarios)\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(ROOT))
        for folder in (*INSTALLED_AS, "tests", "benchmarks")
        for path in (ROOT / folder).rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, f"import the installed names (riven_agents, ...) in {offenders}"


@pytest.mark.slow
def test_a_users_own_agents_package_does_not_break_the_env(tmp_path: Path) -> None:
    # A folder with the user's own ``agents``, ``training`` and ``scenarios`` packages (as a
    # popular agents SDK installs ``agents``) must not shadow RIVEN's.
    for name in ("agents", "training", "scenarios"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(
            f"raise ImportError('the user\\'s own {name} package was imported')\n",
            encoding="utf-8",
        )
    code = (
        "import gymnasium as gym, riven_env\n"
        "env = gym.make('riven/Skirmish-v0', scenario='duel-1v1', opponent='oracle')\n"
        "obs, info = env.reset(seed=1)\n"
        "from riven_agents.registry import make_agent\n"
        "from riven_env.engines import new_game\n"
        "state = new_game('duel-1v1', 1)\n"
        "agent = make_agent('oracle', 'blue', 1)\n"
        "print(type(agent).__name__, len(state.legal_decisions()) > 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "OracleAgent True"
