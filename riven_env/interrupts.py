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
  workers itself. A Ctrl-C that arrives meanwhile is delivered when the block ends.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Run the block to its end even if Ctrl-C arrives; raise KeyboardInterrupt after it.

    A handler installed before (not Python's default) is called instead, and an ignored
    SIGINT stays ignored.

    Raises:
        KeyboardInterrupt: After the block, if SIGINT arrived while it ran.
    """
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if not caught or previous == signal.SIG_IGN:
        return
    if callable(previous) and previous is not signal.default_int_handler:
        previous(caught[0], None)  # someone else's handler: let it decide
        return
    raise KeyboardInterrupt


@contextmanager
def interrupts_blocked_for_children() -> Iterator[None]:
    """Block SIGINT in this thread while the block starts child processes."""
    if not hasattr(signal, "pthread_sigmask") or not _in_main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
