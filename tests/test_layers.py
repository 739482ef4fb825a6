"""The packages keep their floors: no import from a lower layer to a higher one, and no import
circle between the modules of one package (issue 40).

The contracts are ``[tool.importlinter]`` of ``pyproject.toml`` (import-linter, the ``dev``
extra); they are run here the supported way, by its ``lint-imports`` command, and a broken one
fails with import-linter's own text: which import, along which chain. ``docs/architecture.md``
lists the same layers in the same order.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from importlinter.api import read_configuration

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
CONTRACT_IDS = {"riven-env-layers", "no-circles", "roots"}

LINT = (
    "import sys\n"
    "from importlinter.cli import lint_imports\n"
    "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))\n"
)


def _lint(config: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LINT, str(config)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _contracts() -> dict[str, dict]:
    options = read_configuration(str(PYPROJECT))["contracts_options"]
    return {c["id"]: c for c in options}


def test_every_contract_is_kept() -> None:
    assert set(_contracts()) >= CONTRACT_IDS, "a contract of tests/test_layers.py is missing"
    done = _lint(PYPROJECT, ROOT)
    report = done.stdout + done.stderr
    broken = report.split("Broken contracts", 1)[-1] if "Broken contracts" in report else report
    assert done.returncode == 0, f"import contracts broken (pyproject.toml):\n{broken}"
    assert "0 broken" in report, report


def test_the_architecture_document_lists_the_contract_layers() -> None:
    layers = [str(layer) for layer in _contracts()["riven-env-layers"]["layers"]]
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    at = 0
    for layer in layers:
        found = text.find(f"  {layer}\n", at)
        assert found >= 0, f"docs/architecture.md lists no layer {layer!r} after the one before"
        at = found + len(layer)


def test_the_check_itself_finds_an_upward_import(tmp_path: Path) -> None:
    package = tmp_path / "floors"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "high.py").write_text("X = 1\n")
    (package / "low.py").write_text("def f():\n    from floors.high import X\n    return X\n")
    config = tmp_path / "pyproject.toml"
    config.write_text(
        textwrap.dedent(
            """
            [tool.importlinter]
            root_packages = ["floors"]

            [[tool.importlinter.contracts]]
            name = "floors"
            type = "layers"
            containers = ["floors"]
            layers = ["high", "low"]
            """
        )
    )
    done = _lint(config, tmp_path)
    assert done.returncode != 0
    assert "floors.low is not allowed to import floors.high" in done.stdout
