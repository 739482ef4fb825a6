"""Which engine plays a game: the Python reference or the native core (``--engine``).

:func:`~riven_env.game.setup.new_game` takes ``engine=``; when a caller gives none, the engine
is :func:`default_engine`: the ``RIVEN_ENGINE`` environment variable, else ``"python"`` (the
default until the equivalence suite passes everywhere). The CLI's ``--engine`` sets it for the
command and every worker process the command starts (spawned processes inherit it), so each
game a command plays, through any layer (playtest workers, training environments, evaluation,
the stress test), runs on the engine asked for. :func:`check_engine` turns a scenario the
engine cannot play into one line naming the engine, the scenario and what is allowed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from riven_env.errors import RivenError

ENGINES = ("python", "native")
"""The game engines: the Python reference and the native core."""

ENGINE_VARIABLE = "RIVEN_ENGINE"
"""Environment variable naming the engine of games started without ``engine=``."""

DEFAULT_ENGINE = "python"


class EngineError(RivenError, ValueError):
    """An engine name that is not one of :data:`ENGINES`, or an engine that cannot play a
    scenario; the message names the engine, the scenario and what is allowed."""


def resolve_engine(engine: str | None) -> str:
    """``engine``, or :func:`default_engine` when None.

    Raises:
        EngineError: Not one of :data:`ENGINES` (the variable's value included).
    """
    if engine is None:
        engine = default_engine()
    if engine not in ENGINES:
        raise EngineError(f"engine {engine!r}: expected one of {', '.join(ENGINES)}")
    return engine


def default_engine() -> str:
    """The engine of games started without ``engine=`` (``RIVEN_ENGINE`` or ``python``)."""
    value = os.environ.get(ENGINE_VARIABLE, "").strip().lower()
    return value or DEFAULT_ENGINE


def use_engine(engine: str) -> str:
    """Make ``engine`` the default of this process and of the processes it starts."""
    engine = resolve_engine(engine)
    os.environ[ENGINE_VARIABLE] = engine
    return engine


def check_engine(
    scenario: Any, engine: str | None = None, overrides: Mapping[str, object] | None = None
) -> None:
    """Start one game of ``scenario`` on ``engine``, to refuse an unplayable pair up front.

    Raises:
        EngineError: The engine cannot play the scenario (another resolution system, the core
            not built): ``engine 'native' cannot play scenario 'X': ...; allowed: --engine python``.
    """
    from riven_env.game.setup import new_game
    from riven_env.native import NativeUnavailableError

    engine = resolve_engine(engine)
    try:
        new_game(scenario, 0, overrides=overrides or None, engine=engine)
    except NativeUnavailableError as error:
        name = getattr(scenario, "name", scenario)
        allowed = [e for e in ENGINES if e != engine]
        raise EngineError(
            f"engine {engine!r} cannot play scenario {str(name)!r}: {error}; "
            f"allowed: --engine {' or '.join(allowed)}"
        ) from None
