"""``riven playtest`` as a real process, attacked: workers SIGKILLed, SIGINT (Ctrl-C) at
several moments. What the command says must match what the database holds."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import HAS_PROC, alive, spawned_workers, wait_for

from riven_env.playtest.db import ResultsDB

ROOT = Path(__file__).resolve().parents[1]
GAMES = 60
pytestmark = [
    pytest.mark.skipif(not HAS_PROC, reason="needs /proc to find worker processes"),
    pytest.mark.slow,
]
SAVED = re.compile(r"(\d+) of (\d+) games")


def _start(
    db: Path, *extra: str, games: int = GAMES, new_session: bool = False
) -> subprocess.Popen:
    command = [sys.executable, "-m", "riven_env.cli.main", "playtest", "--scenario", "duel-1v1",
               "--blue", "oracle", "--red", "oracle", "--games", str(games), "--workers", "2",
               "--db", str(db), "--json", *extra]  # fmt: skip
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=new_session,
    )  # fmt: skip


def _stored(db: Path) -> list[int]:
    if not db.exists():
        return []
    with ResultsDB(db, read_only=True) as handle:
        rows = handle.query("SELECT game_index FROM games ORDER BY game_index")
    return [row["game_index"] for row in rows]


def _workers_of(process: subprocess.Popen) -> list[int]:
    """The run's worker processes, once started ([] if the run ended without any)."""
    found = wait_for(
        lambda: spawned_workers(process.pid) or process.poll() is not None, timeout_s=120
    )
    return found if isinstance(found, list) else []


@pytest.mark.timeout(300)
def test_a_killed_worker_is_replaced_and_every_game_is_stored(tmp_path):
    db = tmp_path / "p.duckdb"
    process = _start(db)
    workers = _workers_of(process)
    assert workers, "the playtest started no worker processes"
    time.sleep(1.0)  # into the games
    os.kill(workers[0], signal.SIGKILL)
    out, err = process.communicate(timeout=240)
    assert process.returncode == 0, err
    assert '"games": 60' in out and "Traceback" not in err
    assert _stored(db) == list(range(GAMES))


# Games enough that no pool can finish the run between its start and its loss: on the native
# core a duel game takes about 4 ms, and 60 of them could end before a worker was killed.
DYING_GAMES = 1000


@pytest.mark.timeout(400)
def test_workers_that_keep_dying_stop_the_run_with_one_line_and_the_resume_hint(tmp_path):
    db = tmp_path / "p.duckdb"
    process = _start(db, games=DYING_GAMES)
    seen: set[int] = set()
    killed = 0
    while process.poll() is None:  # kill every worker of every pool the run starts, at once
        for pid in spawned_workers(process.pid):
            if pid not in seen:
                seen.add(pid)
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:  # the pool already ended it after another loss
                    pass
        time.sleep(0.05)
    err = process.stderr.read()
    assert process.returncode == 2 and "Traceback" not in err, err
    (line,) = err.strip().splitlines()
    assert line.startswith("error: worker process") and "SIGKILL" in line and "--resume" in line
    saved = int(SAVED.search(line).group(1))
    assert saved == len(_stored(db)) and killed >= 3


# Moments after the two workers exist: while they start (importing), then ever later, so
# that some signals land while batches are being played and stored. Each run resumes the
# last, so the saved count grows run by run.
MOMENTS_S = (0.0, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0)
CTRL_C_GAMES = 1000


@pytest.mark.timeout(900)
@pytest.mark.parametrize("group", [False, True], ids=["to-main", "to-process-group"])
def test_ctrl_c_at_any_moment_exits_130_and_counts_what_the_database_holds(tmp_path, group):
    db = tmp_path / "p.duckdb"
    seen = []
    for moment in MOMENTS_S:
        process = _start(db, "--resume", games=CTRL_C_GAMES, new_session=group)
        workers = _workers_of(process)
        assert workers or process.poll() is not None
        time.sleep(moment)
        if process.poll() is None:
            if group:  # a terminal's Ctrl-C reaches every process of the foreground group
                os.killpg(process.pid, signal.SIGINT)
            else:
                os.kill(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
        stored = _stored(db)
        print(f"SIGINT {moment} s after the workers started: exit {process.returncode}, "
              f"{len(stored)} games stored")  # fmt: skip
        if process.returncode == 0 or f'"games": {CTRL_C_GAMES}' in out:
            # The run finished before the signal (one landing in the interpreter's own
            # shutdown, after the result is printed, kills it by SIGINT: status -2).
            assert len(stored) == CTRL_C_GAMES and process.returncode in (0, -signal.SIGINT)
            break
        assert process.returncode == 130 and "Traceback" not in err, err
        (line,) = err.strip().splitlines()
        assert "--resume" in line
        saved, total = map(int, SAVED.search(line).groups())
        assert (saved, total) == (len(stored), CTRL_C_GAMES)
        seen.append(saved)
        assert not any(alive(pid) for pid in workers)  # the command ended its workers
    # Some signals came mid-run, with games already stored (else this tested nothing).
    assert any(0 < saved < CTRL_C_GAMES for saved in seen), seen
    # What was saved is kept and never duplicated: a last --resume completes the run.
    final = _start(db, "--resume", games=CTRL_C_GAMES)
    out, err = final.communicate(timeout=400)
    assert final.returncode == 0, err
    assert _stored(db) == list(range(CTRL_C_GAMES)) and f'"games": {CTRL_C_GAMES}' in out
    assert seen == sorted(seen)


@pytest.mark.timeout(200)
def test_workers_and_the_resource_tracker_end_when_the_main_process_is_killed(tmp_path):
    db = tmp_path / "p.duckdb"
    process = _start(db, games=DYING_GAMES)
    workers = _workers_of(process)
    assert workers, "the playtest started no worker processes"
    # Every child: the workers and multiprocessing's resource tracker.
    from processes import children

    helpers = children(process.pid)
    assert set(workers) <= set(helpers)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    # PR_SET_PDEATHSIG ends a worker at once, the watchdog within PARENT_POLL_S; the tracker
    # leaves when the last holder of its pipe has gone.
    left = wait_for(lambda: not any(alive(pid) for pid in helpers), timeout_s=10)
    assert left, (
        f"still alive after the main process was killed: {[p for p in helpers if alive(p)]}"
    )
