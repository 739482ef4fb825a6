"""Which engine plays a game: the Python reference or the native core (``--engine``).

:func:`~riven_env.game.setup.new_game` takes ``engine=``; when a caller gives none, the engine
is :func:`default_engine`: the ``RIVEN_ENGINE`` environment variable, else ``"auto"``.

``auto`` (the default since the equivalence suite passed on every bundled mission, see
``docs/performance.md``) plays a game on the native core where the core is built and can play
it (its resolution system is ported, :data:`~riven_env.native.rules.NATIVE_SYSTEMS`, and its
rules data has only actions the core knows), and on the Python reference otherwise, so a
designer's Invictus mission or an install without the compiled core still plays, only slower.
``python`` and ``native`` pin the engine; ``native`` refuses, in one line, a game the core
cannot play. :func:`pick_engine` says which concrete engine ``auto`` gives a set of missions
(the envs, the playtest's run identity and the balance study need it before the first game).

The CLI's ``--engine`` sets the variable for the command and every worker process the command
starts (spawned processes inherit it), so each game a command plays, through any layer
(playtest workers, training environments, evaluation, the stress test), runs on the engine
asked for. :func:`check_engine` turns a scenario the engine cannot play into one line naming
the engine, the scenario and what is allowed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from riven_env.errors import RivenError

ENGINES = ("python", "native")
"""The game engines: the Python reference and the native core."""

AUTO_ENGINE = "auto"
"""The engine choice that picks native where the core can play the game, else python."""

ENGINE_CHOICES = (AUTO_ENGINE, *ENGINES)
"""What ``engine=`` and ``--engine`` accept."""

ENGINE_VARIABLE = "RIVEN_ENGINE"
"""Environment variable naming the engine of games started without ``engine=``."""

DEFAULT_ENGINE = AUTO_ENGINE
"""The engine choice of games started without ``engine=`` and no ``RIVEN_ENGINE``."""


class EngineError(RivenError, ValueError):
    """An engine name that is not one of :data:`ENGINES`, or an engine that cannot play a
    scenario; the message names the engine, the scenario and what is allowed."""


def resolve_engine(engine: str | None) -> str:
    """``engine``, or :func:`default_engine` when None: one of :data:`ENGINE_CHOICES`.

    Raises:
        EngineError: Not one of :data:`ENGINE_CHOICES` (the variable's value included).
    """
    if engine is None:
        engine = default_engine()
    if engine not in ENGINE_CHOICES:
        source = "" if engine != default_engine() else f" (from {ENGINE_VARIABLE})"
        raise EngineError(f"engine {engine!r}{source}: expected one of {', '.join(ENGINE_CHOICES)}")
    return engine


def pick_engine(
    engine: str | None,
    scenarios: Iterable[Any],
    *,
    rules: Any = None,
    overrides: Mapping[str, object] | None = None,
) -> str:
    """The concrete engine (``python`` or ``native``) of games of ``scenarios`` on ``engine``.

    ``auto`` gives ``native`` when the core can play every one of the scenarios (each
    ``(scenario, rules)`` pair or scenario is probed by starting one game), else ``python``:
    one engine for all the missions an environment or a run plays.

    Args:
        engine: An engine choice; None: :func:`default_engine`.
        scenarios: Loaded scenarios, or ``(scenario, rules)`` pairs.
        rules: The rules of scenarios given without their own.
        overrides: Rules overrides of every game.

    Raises:
        EngineError: ``engine`` is not one of :data:`ENGINE_CHOICES`.
    """
    choice = resolve_engine(engine)
    if choice != AUTO_ENGINE:
        return choice
    from riven_env.game.setup import new_game
    from riven_env.native.loop import NativeGameState

    for item in scenarios:
        scenario, own_rules = item if isinstance(item, tuple) else (item, rules)
        state = new_game(scenario, 0, rules=own_rules, overrides=overrides, engine=AUTO_ENGINE)
        if not isinstance(state, NativeGameState):
            return "python"
    return "native"


def default_engine() -> str:
    """The engine choice of games started without ``engine=`` (``RIVEN_ENGINE`` or ``auto``)."""
    value = os.environ.get(ENGINE_VARIABLE, "").strip().lower()
    return value or DEFAULT_ENGINE


def use_engine(engine: str | None) -> str:
    """Make ``engine`` (None: the current default) the default of this process and of the
    processes it starts."""
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
