"""Which engine plays a game: the Python reference or the native core (``--engine``), and the
games started on it: :func:`new_game` and :func:`play_game`.

This module stands above both engines (the Python reference, :mod:`riven_env.game`, and the
native core, :mod:`riven_env.native`, which starts from the reference's set-up,
:mod:`riven_env.game.setup`), so neither imports the other's chooser: everything that starts
a game on an engine choice imports it from here.

:func:`new_game` takes ``engine=``; when a caller gives none, the engine
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
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from riven_env.errors import RivenError
from riven_env.game.events import Event
from riven_env.game.runner import agent_seeds, play
from riven_env.game.setup import prepare_game
from riven_env.game.state import GameState
from riven_env.rules import RulesConfig

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


def new_game(
    scenario: Any,
    seed: int | np.random.SeedSequence | None = None,
    *,
    rules: RulesConfig | None = None,
    overrides: Mapping[str, object] | None = None,
    engine: str | None = None,
) -> Any:
    """Start a game of ``scenario`` (a bundled name, a file path or a loaded Scenario).

    Args:
        scenario: What to play.
        seed: Seed of the game's single random stream.
        rules: Rules data (default: the bundled RIVEN v0.1 data).
        overrides: Rules data overrides (``{"turnover": "sbh"}``).
        engine: ``"python"`` (the reference engine, a :class:`GameState`), ``"native"``
            (the compiled core, a :class:`~riven_env.native.loop.NativeGameState` with the same
            protocol; the set-up and first events are the Python engine's, the game is the
            core's) or ``"auto"``: native where the core is built and can play the game (its
            resolution system and actions are ported), python otherwise. None: the process's
            default (:func:`default_engine`: ``RIVEN_ENGINE``, set by
            ``--engine``, else ``auto``).

    Returns:
        The state at the first decision point. Its pending events (``drain_events()``)
        begin with ``game_start``.

    Raises:
        EngineError: ``engine`` is not one of :data:`ENGINE_CHOICES` (a ValueError).
        NativeUnavailableError: ``engine="native"`` and the core is not built, or the rules
            name a resolution system the core has not ported.
    """
    engine = resolve_engine(engine)
    if engine != "python":
        from riven_env.native import available

        if engine == "native" or available():
            # The mission's start is built once and copied (riven_env/native/start.py).
            from riven_env.native.start import native_new_game

            game = native_new_game(scenario, seed, rules=rules, overrides=overrides, engine=engine)
            if game is not None:
                return game
    state = prepare_game(scenario, seed, rules=rules, overrides=overrides)
    state.start()
    if engine == "python":
        return state
    from riven_env.native import NativeUnavailableError, available
    from riven_env.native.loop import NativeGameState
    from riven_env.native.rules import NATIVE_SYSTEMS

    if engine == "native":
        return NativeGameState.from_python(state)
    # auto: the core where it can play this game; the reference where it cannot (the state
    # is untouched by a refusal: the core is built from it before its events move).
    if not available() or state.resolution.name not in NATIVE_SYSTEMS:
        return state
    try:
        return NativeGameState.from_python(state)
    except NativeUnavailableError:
        return state


def play_game(
    scenario: Any,
    blue: str,
    red: str,
    seed: int,
    *,
    overrides: Mapping[str, object] | None = None,
    max_decisions: int | None = None,
    on_decision: Callable[[GameState], None] | None = None,
    costs: dict[str, dict[str, Any]] | None = None,
    engine: str | None = None,
) -> list[Event]:
    """Play one game of ``scenario`` between the agents named ``blue`` and ``red``.

    Args:
        scenario: A bundled scenario name, a file path or a loaded Scenario.
        blue: Agent spec for blue (``"oracle"``, ``"random"``, ``"mcts:100"``...).
        red: Agent spec for red.
        seed: The game seed: dice and both agents' private streams derive from it.
        overrides: Rules data overrides for this game.
        max_decisions: Stop early after this many decisions (the game is then unfinished).
        on_decision: Called with the state after every decision.
        costs: Filled with each side's decisions and seconds spent deciding (see
            :func:`~riven_env.game.runner.play`).
        engine: ``"auto"``, ``"python"`` or ``"native"`` (None: the process default,
            ``--engine``, else ``auto``: native where the core can play the game).

    Returns:
        The event log (JSON-ready dicts; ``docs/event-log.md``).
    """
    from riven_agents.registry import make_agent

    state = new_game(
        scenario,
        int(np.uint64(seed)) if seed is not None else None,
        overrides=overrides,
        engine=engine,
    )
    seeds = agent_seeds(seed)
    agents = {
        "blue": make_agent(blue, "blue", seeds["blue"]),
        "red": make_agent(red, "red", seeds["red"]),
    }
    events = state.drain_events()
    events[0]["agents"] = {"blue": blue, "red": red}
    # The Oracle profiles each side really plays with, resolved by the agent itself (an
    # ``oracle:PROFILE`` spec overrides the scenario's): reports name them per side.
    # (A native game answers from the state it started from: the models' profiles and Oracle
    # names never change, and its position need not be exported.)
    start = getattr(state, "start_state", state)
    events[0]["oracle_profiles"] = {
        side: agent.resolved_profiles(start)
        for side, agent in agents.items()
        if callable(getattr(agent, "resolved_profiles", None))
    }
    events.extend(
        play(state, agents, max_decisions=max_decisions, on_decision=on_decision, costs=costs)
    )
    return events
