"""The native core: the compiled twin of the Python engine (``riven_env._native``, C++20).

The C++ sources live in ``cpp/riven`` and mirror the Python packages (rules, table, game, oracle,
encoding); ``cpp/bindings`` is the one thin nanobind module. This package is the Python side of
that seam: it loads the extension, converts the engine's data to what the core takes, and says
clearly when the core is missing (a source checkout that was not installed with ``pip install``).
The Python engine stays the reference implementation the core is tested against
(``tests/test_native_*.py``).
"""

from __future__ import annotations

import functools
from types import ModuleType

from riven_env.errors import RivenError

__all__ = ["NativeUnavailableError", "available", "load"]


class NativeUnavailableError(RivenError):
    """The compiled core is not importable in this installation."""


@functools.cache  # a search asks for it at every step: found once (a failure is not kept)
def load() -> ModuleType:
    """The compiled extension module.

    Raises:
        NativeUnavailableError: The extension was not built (install with ``pip install .``,
            which compiles it with the C++20 compiler CMake finds).
    """
    try:
        from riven_env import _native
    except ImportError as error:
        raise NativeUnavailableError(
            "the native core riven_env._native is not built in this installation "
            f"({error}); reinstall with `pip install .` (needs a C++20 compiler: g++ >= 11 or clang >= 14)"
        ) from error
    return _native


def available() -> bool:
    """Whether the compiled core can be loaded."""
    try:
        load()
    except NativeUnavailableError:
        return False
    return True
