"""``import riven_env`` alone registers ``riven/Skirmish-v0``, without importing gymnasium."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MAKE = (
    "env = gymnasium.make('riven/Skirmish-v0', scenario='duel-1v1', opponent='random')\n"
    "obs, info = env.reset(seed=0)\n"
    "print('made', sorted(info)[:1] is not None)\n"
)


def _run(code: str, tmp_path: Path) -> str:
    # From a folder outside the checkout, with the checkout on the path as a user's
    # PYTHONPATH would put it: the registration must not depend on an installed package.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    "imports",
    [
        "import riven_env\nassert 'gymnasium' not in sys.modules\nimport gymnasium\n",
        "import gymnasium\nimport riven_env\n",
        "import riven_env\nimport gymnasium.spaces\nimport gymnasium\n",
    ],
    ids=["riven-first", "gymnasium-first", "submodule-first"],
)
def test_import_riven_env_registers_the_environment(imports: str, tmp_path: Path) -> None:
    out = _run("import sys\n" + imports + MAKE, tmp_path)
    assert "made True" in out


def test_registration_is_idempotent_and_matches_the_envs_package(tmp_path: Path) -> None:
    out = _run(
        "import riven_env, gymnasium, riven_env.envs, importlib\n"
        "importlib.reload(riven_env)\n"
        "spec = gymnasium.spec('riven/Skirmish-v0')\n"
        "print(spec.entry_point, riven_env.envs.ENV_ID)\n",
        tmp_path,
    )
    assert out.split() == ["riven_env.envs.gym_env:RivenSkirmishEnv", "riven/Skirmish-v0"]
