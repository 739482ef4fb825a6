"""Ctrl-C around the moments that must not be cut in half.

Two helpers, both no-ops outside the main thread (only it receives Python signal handlers)
and where the platform lacks the call:

* :func:`interrupts_deferred` holds a Ctrl-C (SIGINT) while a database transaction runs
  and raises :class:`KeyboardInterrupt` once it has committed. DuckDB checks for pending
  signals while a statement runs and aborts it ("Query interrupted"); a commit cut there
  left a traceback, a failed rollback and a batch counted as saved that was not.
* :func:`interrupts_blocked_for_children` blocks SIGINT in the calling thread while worker
  processes are started: a spawned process inherits the signal mask, so a Ctrl-C sent to
  the terminal's whole process group reaches only the main process, which stops the
  workers itself. The mask covers one thread only: a SIGINT sent to the process can land
  in any other thread (a progress bar, DuckDB's, the pool's manager), whose C handler
  still makes the main thread raise KeyboardInterrupt at its next bytecode, half-way
  through handing a new worker its start-up data (the worker then dies on EOFError with
  a traceback). So the block also holds the signal at Python level, as
  :func:`interrupts_deferred` does, and a Ctrl-C that arrives meanwhile is raised when
  the block ends.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def interrupts_deferred(signals: tuple[int, ...] = (signal.SIGINT,)) -> Iterator[None]:
    """Run the block to its end even if Ctrl-C arrives; raise KeyboardInterrupt after it.

    The handlers installed before get the held signal once the block has ended: Python's
    default raises KeyboardInterrupt for SIGINT, a handler of the caller's runs as it would
    have, an ignored signal stays ignored.

    Args:
        signals: The signals to hold (default: SIGINT only).

    Raises:
        KeyboardInterrupt: After the block, if SIGINT arrived while it ran.
    """
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)

    previous = {signum: signal.signal(signum, hold) for signum in signals}
    try:
        yield
    except BaseException as exc:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if caught:  # the block failed after the signal (often because of it): signal wins
            _deliver(caught[0], previous[caught[0]], exc)
        raise
    for signum, handler in previous.items():
        signal.signal(signum, handler)
    if caught:
        _deliver(caught[0], previous[caught[0]], None)


def _deliver(signum: int, handler: Any, cause: BaseException | None) -> None:
    """Act on a held signal as ``handler`` (the one installed before) would have."""
    if handler == signal.SIG_IGN:
        return
    try:
        if callable(handler):
            handler(signum, None)  # default_int_handler raises KeyboardInterrupt
        elif signum == signal.SIGINT:
            raise KeyboardInterrupt
        else:
            signal.raise_signal(signum)  # the default action, now that the block is done
    except BaseException as exc:
        raise exc from cause


@contextmanager
def interrupts_blocked_for_children() -> Iterator[None]:
    """Start child processes in the block with SIGINT blocked for them and held for us.

    The children inherit the blocked mask; a SIGINT the main process receives meanwhile,
    in any of its threads, is raised as KeyboardInterrupt once the block has ended.

    Raises:
        KeyboardInterrupt: After the block, if SIGINT arrived while it ran.
    """
    if not hasattr(signal, "pthread_sigmask") or not _in_main_thread():
        yield
        return
    # Held outside the mask: a SIGINT pending in this thread's mask reaches the holding
    # handler when the mask is lifted, not Python's default.
    with interrupts_deferred():
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
