"""The native core is built wherever the tests run (issue 13).

Every native equivalence suite skips itself when ``riven_native.available()`` is False, so a
test run that imports a checkout without the compiled extension would pass while testing
nothing native. The README's test command installs in place (``pip install -e``), which puts
``riven_env/_native*.so`` beside the sources ``python3 -m pytest`` imports; this test makes a
missing build a failure instead of a silent skip.
"""

from __future__ import annotations

import re
from pathlib import Path

import riven_env
from riven_env import native

ROOT = Path(__file__).resolve().parent.parent


def test_the_native_core_is_importable_from_the_package_the_tests_import() -> None:
    package = Path(riven_env.__file__).resolve().parent
    assert native.available(), (
        f"riven_env._native is not built in {package}; install in place: "
        "python3 -m pip install -e '.[all,dev]' (rebuild after a C++ edit with "
        "python3 -m pip install --no-deps --no-build-isolation -e .)"
    )
    assert native.load().ABI_VERSION >= 1


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    block = re.search(r"\*\*Run the tests\*\*.*?```bash\n(.+?)\n```", readme, re.S)
    assert block is not None, "README.md lost its 'Run the tests' block"
    command = block.group(1).strip()
    assert " -e " in command, "the test command must install in place (see test docstring)"
    assert command in ci, f".ci/run does not run the README's test command: {command}"


def test_ci_runs_the_slow_tests_second_and_never_skips_the_browser_tests() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    slow = "python3 -m pytest -q -n auto -m slow"
    assert slow in ci and slow in readme
    assert ci.index('-m "not slow"') < ci.index(slow)
    assert "export RIVEN_REQUIRE_CHROMIUM=1" in ci
