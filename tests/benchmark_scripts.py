"""Load a script of ``benchmarks/`` as a module, for the tests of its options and output
(the scripts are not a package: each runs on its own as ``python benchmarks/NAME.py``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` imported afresh as the module ``riven_<name>``."""
    spec = importlib.util.spec_from_file_location(f"riven_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
