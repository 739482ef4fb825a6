"""Execution backends: local processes and Ray tasks.

Both take the same batches of game indices and yield each batch's results as it
completes (in completion order, which the database does not care about: a game's result
depends only on its seed). A backend cleans up its workers when the consumer stops early
(Ctrl-C or an error): the generator's ``finally`` runs on ``close()``.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from riven_env.extras import require
from riven_env.playtest.worker import ignore_interrupts, play_batch, play_batch_args

BatchResults = list[dict[str, Any]]
# Ray: batches kept in flight per worker. Two keeps every CPU busy while one result is
# being stored, without queueing the whole run in the object store (backpressure).
RAY_IN_FLIGHT_PER_WORKER = 2


def make_batches(indices: Sequence[int], batch_size: int) -> list[list[int]]:
    """Split game indices into consecutive batches of at most ``batch_size``."""
    ordered = sorted(indices)
    return [ordered[i : i + batch_size] for i in range(0, len(ordered), batch_size)]


def run_local(
    spec: Mapping[str, Any], batches: Sequence[Sequence[int]], workers: int
) -> Iterator[BatchResults]:
    """Play batches in a pool of ``workers`` processes (in-process when ``workers`` is 1).

    Processes are started with ``spawn`` on every platform: it never inherits the main
    process's threads (the progress bar, DuckDB), which ``fork`` can deadlock on, and it
    behaves the same on Linux, macOS and Windows.
    """
    if workers <= 1 or len(batches) <= 1:
        for batch in batches:
            yield play_batch(spec, batch)
        return
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(processes=min(workers, len(batches)), initializer=ignore_interrupts)
    try:
        yield from pool.imap_unordered(play_batch_args, [(dict(spec), b) for b in batches])
        pool.close()
    finally:
        pool.terminate()  # no-op after close(); stops running games on Ctrl-C or error
        pool.join()


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
) -> Iterator[BatchResults]:
    """Play batches as Ray tasks with a bounded number in flight.

    Starts a local Ray (``workers`` CPUs) unless Ray is already initialised or an
    ``address`` of a running cluster is given (the cluster's nodes need riven-lab
    installed). A Ray started here is shut down at the end.
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
    remote_batch = ray.remote(num_cpus=1, max_retries=0)(play_batch)
    spec_ref = ray.put(dict(spec))
    pending = [list(b) for b in reversed(batches)]  # pop() from the end: index order
    in_flight: list[Any] = []
    limit = max(1, workers * RAY_IN_FLIGHT_PER_WORKER)
    try:
        while pending or in_flight:
            while pending and len(in_flight) < limit:
                in_flight.append(remote_batch.remote(spec_ref, pending.pop()))
            done, in_flight = ray.wait(in_flight, num_returns=1)
            yield ray.get(done[0])
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()
