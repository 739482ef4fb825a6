"""Integers too large for the core: an out-of-range action is penalised like any illegal one,
on both engines, and a rules value outside what the core holds is refused in one line."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from riven_env.envs.gym_env import RivenSkirmishEnv
from riven_env.errors import IllegalActionError, RulesDataError
from riven_env.rules.config import load_rules
from riven_env.rules.datacheck import INT_MAX, INT_MIN

HUGE = [2**63, -(2**63) - 1, 10**30, 2**31, -(2**31) - 1, np.uint64(2**64 - 1), np.int64(-(2**62))]


@pytest.mark.parametrize("engine", ["python", "native"])
def test_an_out_of_range_action_is_penalised_like_an_illegal_one(engine: str) -> None:
    env = RivenSkirmishEnv("duel-1v1", opponent="random", engine=engine)
    env.reset(seed=3)
    for action in HUGE:
        _obs, reward, _terminated, _truncated, info = env.step(action)
        assert reward == pytest.approx(-0.1) and info["illegal_action"] is True


@pytest.mark.parametrize("engine", ["python", "native"])
def test_an_out_of_range_action_raises_the_illegal_action_error(engine: str) -> None:
    env = RivenSkirmishEnv("duel-1v1", opponent="random", engine=engine, illegal_action="raise")
    env.reset(seed=3)
    for action in HUGE:
        with pytest.raises(IllegalActionError):
            env.step(action)


@pytest.mark.parametrize("value", [INT_MAX + 1, INT_MIN - 1, -(10**12), 2**63])
def test_a_rules_override_past_the_core_range_is_refused(value: int) -> None:
    with pytest.raises(
        RulesDataError, match=r"test\.partial_strain = .*\[-2147483648, 2147483647\]"
    ):
        load_rules(overrides={"test.partial_strain": value})


@pytest.mark.parametrize("engine", ["python", "native"])
def test_play_with_a_huge_set_value_says_one_line_and_exits_2(engine: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "riven_env.cli.main", "play", "--engine", engine,
         "--set", "partial_strain=-1000000000000"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "partial_strain" in lines[0] and "2147483647" in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("engine", ["python", "native"])
@pytest.mark.parametrize("seed", [2**64, 2**70, -1])
def test_a_seed_past_64_bits_is_refused_in_one_line(engine: str, seed: int) -> None:
    from riven_env.envs.gym_env import EnvArgumentError

    env = RivenSkirmishEnv("duel-1v1", opponent="random", engine=engine)
    with pytest.raises(EnvArgumentError, match=r"seed=.*\[0, 18446744073709551615\]"):
        env.reset(seed=seed)
    env.reset(seed=2**64 - 1)  # the largest seed plays
