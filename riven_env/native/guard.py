"""One thread at a time on a native object: a shared env or game fails as a Python error.

The core's objects (a ``BatchEnv``, a game's ``GameState``) are not thread-safe, and several
calls let the GIL go while they run (a batch's step, a random playout, a game played in the
core), so two Python threads stepping one native env or game would race inside the core (a
crash, or memory read after the core freed it). Every native call of an env or game object
goes through its :class:`NativeGuard`: a second thread that arrives while one is inside gets
:class:`RuntimeError` (:data:`THREAD_MESSAGE`) instead of entering. The same thread may enter
again (a method that calls another of its object's methods).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["ENV_THREAD_MESSAGE", "THREAD_MESSAGE", "NativeGuard", "one_thread"]

THREAD_MESSAGE = "a native RIVEN game is not thread-safe: step it from one thread at a time"
ENV_THREAD_MESSAGE = "a RIVEN environment is not thread-safe: step it from one thread at a time"


class NativeGuard:
    """A non-blocking, re-entrant guard of one native object (``with guard: ...``).

    Args:
        message: What a second thread's ``RuntimeError`` says (default :data:`THREAD_MESSAGE`).

    Raises:
        RuntimeError: On entry, when another thread is inside.
    """

    __slots__ = ("_lock", "message")

    def __init__(self, message: str = THREAD_MESSAGE) -> None:
        self._lock = threading.RLock()
        self.message = message

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            raise RuntimeError(self.message)

    def __exit__(self, *exc: Any) -> None:
        self._lock.release()

    # A guard belongs to its object and its thread: a copy or an unpickled object gets its own.
    def __reduce__(self) -> tuple[type, tuple]:
        return (NativeGuard, (self.message,))

    def __deepcopy__(self, memo: dict) -> NativeGuard:
        return NativeGuard(self.message)


F = TypeVar("F", bound=Callable[..., Any])


def one_thread(method: F) -> F:
    """A method of an object with a ``_guard`` (a :class:`NativeGuard`), run inside it.

    An environment's ``reset`` and ``step`` on either engine: the Python engine's geometry
    (shapely, GEOS) is not thread-safe either, so a second thread gets ``RuntimeError``.
    """

    @functools.wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self._guard:
            return method(self, *args, **kwargs)

    return guarded  # type: ignore[return-value]
