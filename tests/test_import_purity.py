"""The rules, tabletop, game and encoding layers never import RL or plotting libraries."""

from __future__ import annotations

import subprocess
import sys

PURE_MODULES = [
    "riven_env",
    "riven_env.rules",
    "riven_env.table",
    "riven_env.game",
    "riven_env.scenario",
    "riven_env.encoding",
]
FORBIDDEN = ["gymnasium", "pettingzoo", "torch", "matplotlib", "stable_baselines3", "sb3_contrib"]


def test_pure_layers_import_no_rl_or_plotting_library() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {PURE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "import pkgutil, riven_env.rules, riven_env.table, riven_env.game\n"
        "for pkg in (riven_env.rules, riven_env.table, riven_env.game):\n"
        "    for info in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + '.'):\n"
        "        if not info.name.endswith('.render'):\n"
        "            importlib.import_module(info.name)\n"
        f"loaded = sorted(m for m in {FORBIDDEN!r} if m in sys.modules)\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"pure layers imported: {out}"


def test_the_check_itself_detects_an_import() -> None:
    code = "import riven_env.rules, gymnasium, sys; print('gymnasium' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
