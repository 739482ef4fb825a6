"""The C++ tests (cpp/tests) build and pass under AddressSanitizer and UBSan.

The build uses its own CMake tree (no Python module), so it checks the core library alone; the
binding module is checked by the tests/test_native_*.py suites against the Python engine.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("cmake") is None or shutil.which("ninja") is None,
        reason="cmake and ninja are needed to build the native tests",
    ),
]


def test_native_tests_pass_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    build = tmp_path / "native-tests"
    configure = [
        "cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
        "-DRIVEN_PYTHON_MODULE=OFF", "-DRIVEN_NATIVE_TESTS=ON", "-DRIVEN_SANITIZE=ON",
        "-DCMAKE_BUILD_TYPE=Debug",
    ]  # fmt: skip
    for command in (configure, ["cmake", "--build", str(build)]):
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    tests = subprocess.run(
        ["ctest", "--test-dir", str(build), "--output-on-failure"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-4000:]
    assert "tests passed" in tests.stdout
