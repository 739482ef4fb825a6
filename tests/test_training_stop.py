"""Stopping ``riven train`` (SIGTERM, Ctrl-C) ends its environment worker processes.

A real ``riven train`` process with two SubprocVecEnv workers and an MCTS opponent whose
steps take seconds: before the fix the workers played on after the main process had gone.
The workers are found in /proc before the signal and must be gone when the command exits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import HAS_PROC, alive, spawned_workers, wait_for

ROOT = Path(__file__).resolve().parents[1]
# An opponent whose every step is slow, so that a worker is inside a step at the signal.
SLOW_OPPONENT = "mcts:50000"

pytestmark = [
    pytest.mark.skipif(not HAS_PROC, reason="needs /proc to find worker processes"),
    pytest.mark.slow,
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("signum", "code", "group"),
    [(signal.SIGTERM, 143, False), (signal.SIGINT, 130, False), (signal.SIGINT, 130, True)],
    ids=["SIGTERM", "SIGINT", "SIGINT-to-process-group"],
)
def test_a_stopped_training_ends_its_environment_workers(tmp_path, signum, code, group):
    command = [sys.executable, "-m", "riven_env.cli.main", "train", "--timesteps", "100000",
               "--envs", "2", "--opponent", SLOW_OPPONENT, "--out", str(tmp_path / "run"),
               "--no-progress"]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=group,
    )  # fmt: skip
    try:
        workers = wait_for(lambda: len(spawned_workers(process.pid)) >= 2 and
                           spawned_workers(process.pid), timeout_s=120)  # fmt: skip
        assert workers, "riven train started no environment workers"
        time.sleep(4.0)  # the workers are built and stepping (slow opponent)
        assert all(alive(pid) for pid in workers)
        if group:  # a terminal's Ctrl-C reaches every process of the foreground group
            os.killpg(process.pid, signum)
        else:
            os.kill(process.pid, signum)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    still = [pid for pid in workers if alive(pid)]
    for pid in still:  # leave nothing behind, whatever the assertion says
        os.kill(pid, signal.SIGKILL)
    assert still == []
    assert process.returncode == code, err
    lines = err.strip().splitlines()
    assert any(line.startswith("interrupted: training stopped by") for line in lines), err
    if not group:
        assert len(lines) == 1 and "Traceback" not in err, err
    # With the whole group signalled, a worker still starting (importing torch, whose
    # threads do not keep the blocked SIGINT mask) may print its own KeyboardInterrupt.
