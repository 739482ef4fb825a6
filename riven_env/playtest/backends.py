"""Execution backends: local processes and Ray tasks.

Both take the same batches of game indices and yield each batch's results as it
completes (in completion order, which the database does not care about: a game's result
depends only on its seed). A backend cleans up its workers when the consumer stops early
(Ctrl-C or an error): the generator's ``finally`` runs on ``close()``.

A worker process that dies (killed, out of memory) loses the batches it held. Both
backends play a lost batch again on a fresh worker, at most ``workers.batch_retries`` more
times (``riven_env/playtest/data/playtest.toml``), then raise :class:`WorkerLostError`.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from riven_env.extras import require
from riven_env.interrupts import interrupts_blocked_for_children
from riven_env.playtest.config import execution_settings
from riven_env.playtest.errors import WorkerLostError
from riven_env.playtest.worker import init_worker, play_batch

BatchResults = list[dict[str, Any]]


def make_batches(indices: Sequence[int], batch_size: int) -> list[list[int]]:
    """Split game indices into consecutive batches of at most ``batch_size``."""
    ordered = sorted(indices)
    return [ordered[i : i + batch_size] for i in range(0, len(ordered), batch_size)]


def describe_games(batches: Sequence[Sequence[int]]) -> str:
    """``games 4-7, 12`` for the game indices of some batches (consecutive runs joined)."""
    indices = sorted({i for batch in batches for i in batch})
    parts: list[str] = []
    start = prev = indices[0] if indices else 0
    for index in indices[1:] + [None]:  # type: ignore[list-item]
        if index is not None and index == prev + 1:
            prev = index
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if index is not None:
            start = prev = index
    return f"game{'s' if len(indices) != 1 else ''} {', '.join(parts)}"


def _exit_text(exitcode: int) -> str:
    if exitcode >= 0:
        return f"exited with status {exitcode}"
    try:
        name = signal.Signals(-exitcode).name
    except ValueError:
        name = f"signal {-exitcode}"
    hint = " (an out-of-memory kill looks like this)" if name == "SIGKILL" else ""
    return f"was killed by {name}{hint}"


def _worker_processes(executor: ProcessPoolExecutor) -> list[Any]:
    # The pool's processes are private; read only to name the dead worker in the message
    # and to stop the workers at once on Ctrl-C (Python 3.14 adds terminate_workers(),
    # which 3.11 lacks).
    return list((getattr(executor, "_processes", None) or {}).values())


def _dead_workers(executor: ProcessPoolExecutor) -> str:
    """Which worker died and how, read after a BrokenProcessPool (for the message)."""
    processes = _worker_processes(executor)  # shutdown() forgets them
    executor.shutdown(wait=True)  # the pool has stopped its other workers: wait for them
    dead = [
        f"worker process {p.pid} {_exit_text(p.exitcode)}"
        for p in processes
        # The pool ends the survivors with SIGTERM after the loss: they are not the cause.
        if p.exitcode is not None and p.exitcode not in (0, -signal.SIGTERM)
    ]
    return "; ".join(dead) or "a worker process ended abruptly"


def _stop(executor: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel queued batches and end the running ones."""
    processes = _worker_processes(executor)  # shutdown() forgets them
    for process in processes:
        if process.is_alive():
            process.terminate()
    # The pool sees its workers end, fails what was in flight and stops; wait for that.
    executor.shutdown(wait=True, cancel_futures=True)
    for process in processes:
        process.join()


def _new_pool(workers: int) -> ProcessPoolExecutor:
    # spawn on every platform: it never inherits the main process's threads (the progress
    # bar, DuckDB), which fork can deadlock on, and behaves the same everywhere.
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=init_worker,  # ignores Ctrl-C; ends with this process, even a kill -9
        initargs=(os.getpid(),),
    )


def run_local(
    spec: Mapping[str, Any],
    batches: Sequence[Sequence[int]],
    workers: int,
    *,
    batch_retries: int | None = None,
) -> Iterator[BatchResults]:
    """Play batches in a pool of ``workers`` processes (in-process when ``workers`` is 1).

    At most ``in_flight_per_worker`` batches per worker are handed out at a time, so the
    batches a dead worker takes down with the pool are exactly those in flight. They are
    played again in a fresh pool; one lost more than ``batch_retries`` times (default:
    ``playtest.toml``) stops the run.

    Raises:
        WorkerLostError: A batch was lost with its worker more often than allowed.
    """
    if workers <= 1 or len(batches) <= 1:
        for batch in batches:
            yield play_batch(spec, batch)
        return
    settings = execution_settings()
    retries = settings.batch_retries if batch_retries is None else batch_retries
    size = min(workers, len(batches))
    limit = size * settings.in_flight_per_worker
    pending: deque[list[int]] = deque(list(b) for b in batches)
    losses: dict[tuple[int, ...], int] = {}
    running: dict[Future, list[int]] = {}
    pool: ProcessPoolExecutor | None = None
    try:
        while pending or running:
            if pool is None:
                pool = _new_pool(size)
            broken = False
            # The pool starts its processes inside submit(): block SIGINT for them.
            with interrupts_blocked_for_children():
                while pending and len(running) < limit:
                    batch = pending.popleft()
                    try:
                        future = pool.submit(play_batch, dict(spec), batch)
                    except BrokenProcessPool:  # a worker died since the last wait
                        pending.appendleft(batch)
                        broken = True
                        break
                    running[future] = batch
            if not broken:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                broken = any(isinstance(f.exception(), BrokenProcessPool) for f in done)
                if not broken:
                    for future in done:
                        yield future.result()
                        del running[future]
                    continue
            # A worker died: the pool fails every batch in flight. Keep the ones that
            # finished before, play the others again on a fresh pool.
            wait(running)
            lost: list[list[int]] = []
            for future, batch in list(running.items()):
                del running[future]
                if isinstance(future.exception(), BrokenProcessPool):
                    lost.append(batch)
                else:
                    yield future.result()
            cause = _dead_workers(pool)
            pool = None
            # A pool lost with no batch in it counts too, so that nothing loops forever.
            for key in [tuple(b) for b in lost] or [()]:
                losses[key] = losses.get(key, 0) + 1
            failed = [list(k) for k in losses if losses[k] > retries]
            if failed:
                what = describe_games(lost) if lost else "no games"
                which = describe_games([b for b in failed if b]) if any(failed) else "the pool"
                raise WorkerLostError(
                    f"{cause} while playing {what}; {which} lost {retries + 1} time(s), the "
                    f"limit (workers.batch_retries = {retries} in playtest.toml)"
                )
            pending.extendleft(reversed(lost))
    finally:
        if pool is not None:
            _stop(pool)


def _ray_runtime_env() -> dict[str, Any]:
    # A local Ray starts fresh worker processes: give them the driver's import path so
    # that an uninstalled checkout (and test doubles) import the same code.
    paths = [p for p in sys.path if p and os.path.isdir(p)]
    existing = os.environ.get("PYTHONPATH")
    if existing:
        paths.append(existing)
    return {"env_vars": {"PYTHONPATH": os.pathsep.join(dict.fromkeys(paths))}}


def run_ray(
    spec: Mapping[str, Any],
    batches: Sequence[Sequence[int]],
    workers: int,
    address: str | None = None,
    *,
    batch_retries: int | None = None,
) -> Iterator[BatchResults]:
    """Play batches as Ray tasks with a bounded number in flight.

    Starts a local Ray (``workers`` CPUs) unless Ray is already initialised or an
    ``address`` of a running cluster is given (the cluster's nodes need riven-lab
    installed). A Ray started here is shut down at the end. A task whose worker dies is
    retried by Ray itself, ``batch_retries`` times (default: ``playtest.toml``).

    Raises:
        WorkerLostError: A batch's worker died on every try.
    """
    ray = require("ray", "distributed", "--backend ray")
    started_here = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env=_ray_runtime_env(),
            )
        started_here = True
    settings = execution_settings()
    retries = settings.batch_retries if batch_retries is None else batch_retries
    # Ray plays a task again on a fresh worker when its worker process dies (max_retries);
    # it never retries a task that returned, so a game's result is never duplicated.
    remote_batch = ray.remote(num_cpus=1, max_retries=retries)(play_batch)
    lost_worker = tuple(
        getattr(ray.exceptions, name)
        for name in ("WorkerCrashedError", "OutOfMemoryError", "NodeDiedError")
        if hasattr(ray.exceptions, name)
    )
    spec_ref = ray.put(dict(spec))
    pending = [list(b) for b in reversed(batches)]  # pop() from the end: index order
    in_flight: dict[Any, list[int]] = {}
    limit = max(1, workers * settings.in_flight_per_worker)
    try:
        while pending or in_flight:
            while pending and len(in_flight) < limit:
                batch = pending.pop()
                in_flight[remote_batch.remote(spec_ref, batch)] = batch
            done, _ = ray.wait(list(in_flight), num_returns=1)
            batch = in_flight.pop(done[0])
            try:
                result = ray.get(done[0])
            except lost_worker as exc:
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                raise WorkerLostError(
                    f"the Ray worker playing {describe_games([batch])} died "
                    f"{retries + 1} time(s), the limit (workers.batch_retries = {retries} "
                    f"in playtest.toml): {type(exc).__name__}: {first}"
                ) from None
            yield result
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()
