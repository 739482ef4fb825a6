"""New native games from a start template per mission (issue 13: set-up off the hot path).

A game's start depends on its seed in two places only: the ``seed`` field of ``game_start`` and,
when the mission rolls for the first side, that roll (the stream's first draw, which also
leaves the stream one draw on). Everything else (the models placed, the pools, the
``game_start`` table, deployment and models, ``round_start`` and ``turn_start``, the core's
static data and forward model) is the same for every game of a ``(scenario, rules, first
side)``. :func:`native_new_game` builds that start once, the Python engine's own way
(``prepare_game`` then ``GameState.start``), and then starts each game from it: the stream
seeded, the first side rolled, the core state copied, the start events unpacked afresh
(``marshal``: every game gets its own dicts), the seed written in. Same events, same state,
same stream as :func:`~riven_env.engines.new_game` building every game from scratch
(``tests/test_native_start.py``); about a tenth of its cost, which an oracle game on the core
would otherwise spend a third of its time on.

A start that draws from the stream (none does in RIVEN v0.1's turn sequence: the first turn
opens at the activation choice) cannot be shared; such a mission is built from scratch every
time, as is any game whose seed is not an int or None.
"""

from __future__ import annotations

import marshal
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["native_new_game", "clear_starts"]

#: Starts kept per process (missions x rules x first sides); the oldest goes first.
_STARTS_KEPT = 64


class _Start:
    """One mission's start on the core: what every game of it copies."""

    __slots__ = ("like", "native", "model", "events")

    def __init__(self, like: Any, native: Any, model: Any, events: bytes) -> None:
        self.like = like
        self.native = native
        self.model = model
        self.events = events


#: (id(scenario), rules, first side) -> (the scenario, held so that its id stays its own; the
#: start, or None where ``auto`` cannot play the game on the core or the start draws from the
#: stream).
_STARTS: OrderedDict[tuple[int, Any, str], tuple[Any, _Start | None]] = OrderedDict()


def clear_starts() -> None:
    """Forget every start template (tests; a process never needs to)."""
    _STARTS.clear()


def _build(scenario: Any, rules: Any, first: str, engine: str) -> _Start | None:
    """The start of ``scenario``'s games whose first side is ``first`` (None: not shareable,
    or ``auto`` and the core cannot play it)."""
    from riven_env.game.setup import prepared_game
    from riven_env.native import NativeUnavailableError
    from riven_env.native.loop import NativeGameState
    from riven_env.native.rules import NATIVE_SYSTEMS

    rng = np.random.default_rng(0)
    state = prepared_game(scenario, rules, rng, first, None)
    # (new_game asks for a template on auto only where the core is built.)
    if engine != "native" and state.resolution.name not in NATIVE_SYSTEMS:
        return None
    drawn = rng.bit_generator.state
    state.start()
    if rng.bit_generator.state != drawn:
        return None
    try:
        game = NativeGameState.from_python(state)
    except NativeUnavailableError:
        if engine == "native":
            raise
        return None
    events = game.drain_events()
    return _Start(state, game.native, game.model, marshal.dumps(events))


def native_new_game(
    scenario: Any,
    seed: Any,
    *,
    rules: Any = None,
    overrides: Mapping[str, object] | None = None,
    engine: str = "native",
) -> Any:
    """:func:`~riven_env.engines.new_game` on the core for ``engine`` ``"native"`` or
    ``"auto"``, from the mission's start template; None where the caller must build the game
    itself (``auto`` and the core cannot play it, a seed that is not an int or None, a start
    that draws from the stream).

    Raises:
        NativeUnavailableError: ``engine="native"`` and the core cannot play the game.
    """
    from riven_env.game.setup import resolve_rules, resolve_scenario, roll_first_side
    from riven_env.native.loop import NativeGameState
    from riven_env.native.random import native_stream

    if seed is not None and not isinstance(seed, int):
        return None
    rules = resolve_rules(rules, overrides)
    scenario = resolve_scenario(scenario, rules)
    rng = np.random.default_rng(seed)
    first = roll_first_side(scenario, rng)
    key = (id(scenario), rules, first)
    found = _STARTS.get(key)
    if found is None or found[0] is not scenario:
        found = _STARTS[key] = (scenario, _build(scenario, rules, first, engine))
        if len(_STARTS) > _STARTS_KEPT:
            _STARTS.popitem(last=False)
    start = found[1]
    if start is None:
        return None
    native = start.native.copy()
    native.rng = native_stream(rng)
    events = marshal.loads(start.events)
    events[0]["seed"] = seed  # an int or None, as game_start_fields writes it
    return NativeGameState(native, start.model, start.like, events)
