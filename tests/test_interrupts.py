"""Ctrl-C around the moments that must not be cut in half (riven_env.interrupts).

The case that broke a CI run: SIGINT sent to the whole process group while the playtest
was spawning its second worker. The main thread had SIGINT blocked, but the signal landed
in another thread, whose C handler made the main thread raise KeyboardInterrupt half-way
through writing the worker's start-up data; the worker died on EOFError with a traceback.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

import pytest

from riven_env.interrupts import interrupts_blocked_for_children, interrupts_deferred

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signal masks"
)


def _bytecodes(rounds: int = 5) -> int:
    # Work in the eval loop, where a tripped SIGINT handler would raise, with pauses that
    # let another thread's handler finish tripping it.
    total = 0
    for _ in range(rounds):
        time.sleep(0.01)
        for value in range(100_000):
            total += value
    return total


class _SigintSender:
    """A thread started before the block (as a progress bar's or DuckDB's are), so it does
    not inherit the block's mask: the kernel hands it the SIGINT the main thread blocks."""

    def __init__(self) -> None:
        self._go = threading.Event()
        self._sent = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self._go.wait()
        os.kill(os.getpid(), signal.SIGINT)
        self._sent.set()

    def send(self) -> None:
        self._go.set()
        self._sent.wait(timeout=10)
        self._thread.join(timeout=10)


def test_a_sigint_landing_in_another_thread_is_held_until_the_block_ends():
    finished = []
    sender = _SigintSender()
    with pytest.raises(KeyboardInterrupt), interrupts_blocked_for_children():
        sender.send()
        _bytecodes()
        finished.append(True)
    assert finished == [True]


def test_a_sigint_pending_in_the_main_threads_mask_is_raised_once_after_the_block():
    finished = []
    with pytest.raises(KeyboardInterrupt), interrupts_blocked_for_children():
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        _bytecodes()
        finished.append(True)
    assert finished == [True]
    _bytecodes()  # nothing else is left pending


def test_without_a_signal_the_block_restores_the_handler_and_the_mask():
    handler = signal.getsignal(signal.SIGINT)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    with interrupts_blocked_for_children():
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        assert signal.getsignal(signal.SIGINT) is not handler
    assert signal.getsignal(signal.SIGINT) is handler
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == mask


def _blocked_signals(queue: multiprocessing.Queue) -> None:
    queue.put(signal.pthread_sigmask(signal.SIG_BLOCK, set()))


def test_a_process_spawned_in_the_block_starts_with_sigint_blocked():
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    with interrupts_blocked_for_children():
        child = context.Process(target=_blocked_signals, args=(queue,))
        child.start()
    blocked = queue.get(timeout=60)
    child.join(timeout=60)
    assert signal.SIGINT in blocked and child.exitcode == 0


def test_deferred_runs_the_block_to_its_end_and_a_stop_signal_wins_over_its_error():
    finished = []
    with pytest.raises(KeyboardInterrupt) as raised, interrupts_deferred():
        signal.raise_signal(signal.SIGINT)
        finished.append(True)
        raise ValueError("the block failed after the signal")
    assert finished == [True]
    assert isinstance(raised.value.__cause__, ValueError)
