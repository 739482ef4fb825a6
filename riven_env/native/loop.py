"""The native game loop (``cpp/riven/game``: legal decisions, apply, the turn sequence).

:func:`forward_model` builds the core's ``ForwardModel`` of a Python game (once per scenario,
rules and table): the native rules data (:func:`~riven_env.native.rules.native_rules`), the
native table with every base radius of the game registered
(:func:`~riven_env.native.table.native_table`), the action catalogue, the profiles' weapons, the
victory conditions, and the routing seam (``cpp/riven/game/planner.hpp``). By default routes are
planned by the core (``planner="native"``: ``cpp/riven/game/native_planner.hpp``, on
``cpp/riven/table/routing.hpp`` with the static visibility graph of every base radius of the
game handed over by :meth:`~riven_env.native.table.NativeTable.ensure_nav`), so a game steps
with no Python call. ``planner="python"`` keeps the Python engine's planner behind the seam, for
diagnosis: :class:`PythonPlanner` answers it by calling ``plan_destination``, ``plan_charge``,
``charge_targets``, ``plan_push`` and ``plan_flight`` on the Python table.

:class:`NativeGameState` is a game played by the core behind the ``GameState`` protocol that
agents use (``legal_decisions``, ``apply``, ``copy``, ``view``, ``is_terminal``,
``current_side``, ``result``, ``drain_events``); anything else an agent reads (the Oracle's
situation, the greedy agent's evaluation) comes from :meth:`NativeGameState.python_state`, the
Python ``GameState`` of the same position (:func:`~riven_env.native.game.from_native`).

Every bundled resolution system is ported (Invictus's pending roll, its raises in the spend
phase, its melee and aftermath: ``tests/test_native_invictus_loop.py``; New World's helpers,
Luck, the defender's Luck and the shared risk: ``tests/test_native_new_world_loop.py``; The
Riddle of Steel's d10 tests and its Combat Round in the choice phase, Pain and the round's
effects: ``tests/test_native_riddle_of_steel_loop.py``): a game under a system registered in
Python only is refused with :class:`~riven_env.native.NativeUnavailableError` naming the system.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from riven_env.errors import IllegalActionError, RivenError
from riven_env.game.decisions import Decision, is_listed, shared_decision
from riven_env.game.state import SIDES
from riven_env.native import NativeUnavailableError, load
from riven_env.native.game import PHASES, from_native, native_static, to_native
from riven_env.native.guard import NativeGuard
from riven_env.native.play import play_in_core
from riven_env.native.random import native_stream, numpy_state
from riven_env.native.rules import NATIVE_SYSTEMS, native_rules, native_weapon
from riven_env.native.table import native_table
from riven_env.rules import action_specs
from riven_env.rules.profiles import unarmed_weapon
from riven_env.table import (
    Bases,
    charge_targets,
    plan_charge,
    plan_destination,
    plan_flight,
    plan_push,
)
from riven_env.table.config import geometry_config
from riven_env.table.measure import CONTACT_TOL

__all__ = [
    "PLANNERS",
    "GameMismatchError",
    "NativeGameState",
    "PythonPlanner",
    "belongs_to",
    "forward_model",
    "game_fingerprint",
    "python_decision",
]

PLANNERS: tuple[str, ...] = ("native", "python")
"""The routing seam's answerers :func:`forward_model` builds by name."""

_MODELS: dict[tuple[int, int, int, str, int], tuple[Any, Any, Any]] = {}
# An int seed below this is one 64-bit word of entropy, which seeded_pcg64 splits as numpy does.
_SEED_WORDS = 1 << 64
_MODELS_LIMIT = 64


def _point(p: Sequence[float]) -> tuple[float, float]:
    return (float(p[0]), float(p[1]))


def _plan_tuple(plan: Any) -> tuple:
    return (
        _point(plan.start),
        _point(plan.end),
        [_point(p) for p in plan.path],
        float(plan.cost),
        bool(plan.reached),
    )


class PythonPlanner:
    """The core's routing seam answered by the Python engine's planner on ``table``.

    Each method mirrors the Python function of the same name; the bases come as flat lists
    (centres ``x0, y0, x1, ...``, radii, on-table flags) and answers go back as tuples.
    """

    def __init__(self, table: Any) -> None:
        self.table = table
        self._last: tuple[tuple[list, list, list], Bases] | None = None

    def _bases(self, centers: list[float], radii: list[float], on_table: list[bool]) -> Bases:
        # The same layout as the previous call (listing charges, then planning one): hand out
        # the same Bases, so that the answers its Layout remembers are found again. Lists of
        # Python floats compare as the doubles they hold (-0.0 == 0.0 aside, which the
        # layout's bytes would tell apart: such a layout is rebuilt).
        last = self._last
        if last is not None and last[0] == (centers, radii, on_table):
            found = last[1]
            if found.centers.tobytes() == np.asarray(centers, dtype=np.float64).tobytes():
                return found
        # The core's arrays are valid bases already (finite centres, positive radii): skip
        # the constructor's checks, as Bases.copy does.
        bases = Bases.__new__(Bases)
        bases.centers = np.asarray(centers, dtype=np.float64).reshape(-1, 2)
        bases.radii = np.asarray(radii, dtype=np.float64)
        bases.on_table = np.asarray(on_table, dtype=bool)
        bases._layout = None
        self._last = ((centers, radii, on_table), bases)
        return bases

    def plan_destination(
        self,
        centers: list[float],
        radii: list[float],
        on_table: list[bool],
        i: int,
        allowance: float,
        kind: str,
        ref: int | None,
        objectives: list[tuple[float, float]],
        enemy_gap: float | None,
    ) -> tuple | None:
        """:func:`riven_env.table.plan_destination`: (kind, ref, point, cost, label, path, reached)."""
        found = plan_destination(
            self.table,
            self._bases(centers, radii, on_table),
            i,
            allowance,
            kind,
            ref,
            objectives=objectives,
            enemy_gap=enemy_gap,
        )
        if found is None:
            return None
        return (
            found.kind,
            found.ref,
            _point(found.point),
            float(found.cost),
            found.label,
            [_point(p) for p in found.path],
            bool(found.reached),
        )

    def plan_charge(
        self,
        centers: list[float],
        radii: list[float],
        on_table: list[bool],
        i: int,
        target: int,
        reach: float,
    ) -> tuple | None:
        """:func:`riven_env.table.plan_charge`: (start, end, path, cost, reached) or None."""
        plan = plan_charge(self.table, self._bases(centers, radii, on_table), i, target, reach)
        return None if plan is None else _plan_tuple(plan)

    def charge_targets(
        self,
        centers: list[float],
        radii: list[float],
        on_table: list[bool],
        i: int,
        reach: float,
        enemies: list[int],
    ) -> list[int]:
        """:func:`riven_env.table.charge_targets`."""
        bases = self._bases(centers, radii, on_table)
        return [int(j) for j in charge_targets(self.table, bases, i, reach, enemies)]

    def plan_push(
        self,
        centers: list[float],
        radii: list[float],
        on_table: list[bool],
        i: int,
        away_from: tuple[float, float],
        distance: float,
    ) -> tuple:
        """:func:`riven_env.table.plan_push`: (start, end, path, cost, reached)."""
        bases = self._bases(centers, radii, on_table)
        return _plan_tuple(plan_push(self.table, bases, i, away_from, distance))

    def plan_flight(
        self,
        centers: list[float],
        radii: list[float],
        on_table: list[bool],
        i: int,
        distance: float,
        around: bool,
    ) -> tuple:
        """:func:`riven_env.table.plan_flight`: ((start, end, path, cost, reached), left)."""
        bases = self._bases(centers, radii, on_table)
        plan, left = plan_flight(self.table, bases, i, distance, around=around)
        return _plan_tuple(plan), bool(left)


def _action_tuples(rules: Any) -> list[tuple]:
    return [
        (
            spec.name,
            spec.cost,
            spec.attribute,
            spec.difficulty,
            spec.once_per_activation,
            sorted(spec.excludes),
            spec.applies,
            sorted(spec.removes),
        )
        for spec in action_specs(rules).values()
    ]


def _victory_tuples(scenario: Any) -> list[tuple]:
    return [
        (
            c.type,
            -1 if c.side is None else SIDES.index(c.side),
            list(c.models),
            None if not c.zone else tuple(float(v) for v in c.zone),
            int(c.points or 0),
            bool(c.win),
            int(c.from_round or 1),
            int(c.min_models or 1),
        )
        for c in scenario.victory.conditions
    ]


def forward_model(state: Any, planner: Any = "native") -> Any:
    """The core ``ForwardModel`` of ``state``'s game (built once per scenario, rules, table and planner).

    Args:
        state: A Python ``GameState`` of the game.
        planner: ``"native"`` (the core's router, no Python per step), ``"python"`` (a
            :class:`PythonPlanner` of the game's table, for diagnosis), or an object with
            :class:`PythonPlanner`'s methods; a model with a planner object of the caller's is
            built afresh (not remembered).

    Raises:
        ValueError: ``planner`` is a name other than those of :data:`PLANNERS`.
        NativeUnavailableError: The core is not built, or the game's resolution system is not
            ported (the message names it).
    """
    named = isinstance(planner, str)
    if named and planner not in PLANNERS:
        raise ValueError(
            f"planner {planner!r}: expected one of {list(PLANNERS)} or a planner object"
        )
    system = state.resolution.name
    if system not in NATIVE_SYSTEMS:
        raise NativeUnavailableError(
            f"meta.resolution = {system!r}: the native game loop has {list(NATIVE_SYSTEMS)} only; "
            "play this system with engine='python'"
        )
    statics = native_static(state)
    # The statics are in the key: a mission whose first side is rolled has one per side, and
    # its games alternate between them (one model each, not one rebuilt at every change).
    key = (
        id(state.scenario),
        id(state.rules),
        id(state.table),
        planner if named else "",
        id(statics),
    )
    found = _MODELS.get(key)
    if named and found is not None and found[0]() is state.scenario and found[2] is statics:
        return found[1]
    native = load()
    table = native_table(state.table)
    radii = sorted(set(state.bases.radii.tolist()))
    for radius in radii:
        table.ensure_radius(radius)
    if planner == "native":
        # Every radius a mover of this game has gets its static graph now: the core's
        # geometry is shared read-only by the model and its planner once built.
        for radius in radii:
            table.ensure_nav(radius)
        seam = native.NativePlanner(table.core, float(geometry_config().enemy_gap))
    elif planner == "python":
        seam = PythonPlanner(state.table)
    else:
        seam = planner
    profiles = statics.profiles
    by_name = {}
    for model in state.models:
        by_name.setdefault(model.profile.name, model.profile)
    melee = [native_weapon(by_name[p.name].melee) for p in profiles]
    ranged = [native_weapon(by_name[p.name].ranged) for p in profiles]
    try:
        model = native.ForwardModel(
            native_rules(state.rules),
            table.core,
            seam,
            statics,
            _action_tuples(state.rules),
            melee,
            ranged,
            native_weapon(unarmed_weapon(state.rules)),
            _victory_tuples(state.scenario),
            state.scenario.victory.at_round_limit,
            float(CONTACT_TOL),
        )
    except ValueError as error:
        raise NativeUnavailableError(
            f"the native game loop cannot play this game: {error}"
        ) from None
    _remember_game(model, statics)
    if not named:
        return model
    if len(_MODELS) >= _MODELS_LIMIT:
        _MODELS.clear()
    _MODELS[key] = (weakref.ref(state.scenario), model, statics)
    return model


# The game each forward model was built for (id(model) -> (model, fingerprint)): a state of
# another game is refused before the core reads it (belongs_to).
_GAMES: dict[int, tuple[Any, tuple]] = {}
_GAMES_LIMIT = 256


def game_fingerprint(statics: Any) -> tuple:
    """What a forward model reads of a game's ``GameStatic`` (its models, profiles, objectives,
    table and vocabularies; not the first side, which a rolled mission's states differ by)."""
    return (
        tuple(statics.model_ids),
        tuple(statics.model_sides),
        tuple(statics.model_profile),
        tuple(statics.model_oracle),
        tuple(p.name for p in statics.profiles),
        tuple(statics.oracle_names),
        tuple((o.name, o.kind, o.x, o.y, o.radius) for o in statics.objectives),
        (statics.table_width, statics.table_height, statics.round_limit),
        tuple(statics.actions),
        tuple(statics.conditions),
        tuple(statics.resources),
        tuple(statics.options),
        tuple(statics.destination_kinds),
        tuple(statics.system_keys),
        statics.setting,
    )


def _remember_game(model: Any, statics: Any) -> None:
    if len(_GAMES) >= _GAMES_LIMIT:
        _GAMES.clear()
    _GAMES[id(model)] = (model, game_fingerprint(statics))


def belongs_to(native_state: Any, model: Any) -> None:
    """Refuse a core state of another game than the one ``model`` (a forward model) plays.

    Raises:
        GameMismatchError: The state's game (models, profiles, objectives, table, vocabularies)
            is not the model's; a model not built by :func:`forward_model` is not checked.
    """
    found = _GAMES.get(id(model))
    if found is None or found[0] is not model:
        return
    if game_fingerprint(native_state.statics) != found[1]:
        raise GameMismatchError(
            "this game state belongs to another game than the forward model it is applied to "
            "(models, profiles, objectives, table or vocabularies differ): build the state and "
            "the model from the same game (NativeGameState.from_python, new_game(engine='native'))"
        )


class GameMismatchError(RivenError, ValueError):
    """A native game state applied to the forward model of another game."""


_DECISIONS: dict[int, tuple[Any, list[str], list[str], list[str]]] = {}


def python_decision(decision: Any, statics: Any) -> Decision:
    """The Python :class:`Decision` of a core one (the shared object, as the Python engine lists)."""
    found = _DECISIONS.get(id(statics))
    if found is None or found[0] is not statics:
        if len(_DECISIONS) >= _MODELS_LIMIT:
            _DECISIONS.clear()
        kinds = list(load().DECISION_POINT_KINDS) + list(statics.actions)
        found = _DECISIONS[id(statics)] = (
            statics,
            kinds,
            list(statics.destination_kinds),
            list(statics.options),
        )
    _, kinds, destinations, options = found
    key = (
        decision.kind,
        decision.model,
        decision.dice,
        decision.target,
        decision.destination_kind,
        decision.destination_ref,
        decision.option,
    )
    return _python_decision(key, kinds, destinations, options)


def _python_decision(
    key: tuple[int, ...], kinds: list[str], destinations: list[str], options: list[str]
) -> Decision:
    kind, model, dice, target, destination_kind, ref, option = key
    destination = None
    if destination_kind >= 0:
        destination = (destinations[destination_kind], None if ref < 0 else ref)
    return shared_decision(
        kinds[kind],
        None if model < 0 else model,
        None if dice < 0 else dice,
        None if target < 0 else target,
        destination,
        None if option < 0 else options[option],
    )


class NativeGameState:
    """A game played by the native core, behind the ``GameState`` protocol agents use.

    Build one with ``new_game(..., engine="native")`` or :meth:`from_python`. Reads that the
    protocol does not cover fall through to :meth:`python_state` (a Python ``GameState`` of the
    same position, rebuilt only after the position changed), so the Python agents (random,
    greedy, the Enemy Oracle) play on it unchanged.

    The core state must be of the forward model's game (:func:`belongs_to`, else
    :class:`GameMismatchError`). Every call into the core that changes or copies the state
    holds :attr:`guard` (one thread at a time: a second thread gets ``RuntimeError``,
    riven_env/native/guard.py). It pickles and deep-copies: the position travels as its
    Python ``GameState`` (:meth:`python_state`, exported back with ``to_native``), so the copy
    goes on exactly as the original (the same dice, the same events).
    """

    #: Agents read it to decide on the core's own state (the Enemy Oracle, the random agent:
    #: ``core_seat``, riven_env/native/play.py), never falling through to the Python view.
    in_core = True

    def __init__(
        self, native: Any, model: Any, like: Any, events: list | None = None, *, check: bool = True
    ) -> None:
        if check:
            belongs_to(native, model)
        self.guard = NativeGuard()
        self.native = native
        self.model = model
        self._like = like
        self._events: list[dict[str, Any]] = list(events or [])
        self._legal: list[Decision] | None = None
        self._native_legal: list[Any] | None = None
        self._python: Any = None

    @classmethod
    def from_python(cls, state: Any, planner: Any = "native") -> NativeGameState:
        """The native twin of a Python game at its current position (its pending events move).

        Args:
            state: The Python ``GameState``.
            planner: Who plans routes (:func:`forward_model`): ``"native"`` (the default, no
                Python per step) or ``"python"`` (the Python engine's planner, for diagnosis).
        """
        model = forward_model(state, planner)
        native = to_native(state)
        return cls(native, model, state, state.drain_events())

    # ------------------------------------------------------------------ protocol
    def legal_decisions(self) -> list[Decision]:
        """Every legal decision for :attr:`current_side`, in the Python engine's order."""
        if self._legal is None:
            with self.guard:
                self._native_legal = load().legal_decisions(self.model, self.native)
                statics = self.native.statics
                self._legal = [python_decision(d, statics) for d in self._native_legal]
        return list(self._legal)

    def play_in_core(
        self,
        agents: Any,
        *,
        max_decisions: int | None = None,
        costs: dict[str, dict[str, Any]] | None = None,
    ) -> tuple[list[dict[str, Any]], int] | None:
        """This game played in the core with ``agents`` (:func:`riven_env.native.play.play_in_core`:
        the new events and the decisions made; None when the agents cannot all sit there).
        :func:`riven_env.game.runner.play` asks a state that is :attr:`in_core` for it."""
        return play_in_core(self, agents, max_decisions=max_decisions, costs=costs)

    @property
    def start_state(self) -> Any:
        """The Python ``GameState`` the game was built from: its scenario, rules, table and
        models' static facts (ids, sides, profiles, Oracle names) are this game's, but not its
        position (read :meth:`python_state` for that)."""
        return self._like

    def core_legal(self, legal: Sequence[Decision]) -> list[Any] | None:
        """The core's decisions of ``legal`` when it is this position's own list (in order), else None."""
        mine = self.legal_decisions() if self._legal is None else self._legal
        if len(legal) != len(mine):
            return None
        for a, b in zip(legal, mine, strict=True):
            if a is not b and a != b:
                return None
        return self._native_legal

    def apply(self, decision: Decision) -> list[dict[str, Any]]:
        """Carry out ``decision`` (IllegalActionError when it is not listed); return the events."""
        native_decision = self._listed(decision)
        with self.guard:
            found = load().apply_decision(self.model, self.native, native_decision)
            self._changed()
            events, self._events = self._events + found, []
        return events

    def apply_quiet(self, decision: Decision) -> None:
        """:meth:`apply` with the events dropped (a search's step: the same position, no dicts)."""
        native_decision = self._listed(decision)
        with self.guard:
            load().apply_decision_quiet(self.model, self.native, native_decision)
            self._changed()
            self._events = []

    def play_random(self, rng: np.random.Generator, max_steps: int) -> int:
        """Play up to ``max_steps`` uniformly random legal decisions in the core, events dropped.

        The same game and the same draws as the Python loop
        ``moves = legal_decisions(); apply(moves[rng.integers(0, len(moves))])`` repeated while
        the game runs (a search's rollout): the core draws from ``rng``'s own stream
        (``Generator.integers`` bit for bit) and ``rng`` is left where that loop would leave it.

        Returns:
            The decisions played.
        """
        stream = native_stream(rng)
        with self.guard:
            steps, _ = load().play_random(
                self.model, self.native, stream, int(max_steps), quiet=True
            )
            self._changed()
            self._events = []
        rng.bit_generator.state = numpy_state(stream)
        return int(steps)

    def _listed(self, decision: Decision) -> Any:
        """The core's decision of ``decision`` (IllegalActionError when it is not listed)."""
        legal = self.legal_decisions()
        if not is_listed(decision, legal):
            phase = PHASES[self.native.phase]
            raise IllegalActionError(decision, legal, f"phase {phase}, side {self.current_side}")
        index = next((k for k, d in enumerate(legal) if d is decision), None)
        if index is None:
            index = legal.index(decision)
        native_legal = self._native_legal or []
        return native_legal[index]

    def _changed(self) -> None:
        self._legal = None
        self._native_legal = None
        self._python = None

    def copy(self) -> NativeGameState:
        """An independent copy (the native state is copied; the forward model is shared)."""
        with self.guard:
            native = self.native.copy()
        new = NativeGameState(native, self.model, self._like, check=False)
        new._legal = self._legal
        new._native_legal = self._native_legal
        return new

    def __reduce__(self) -> tuple[Any, tuple]:
        # The core's objects do not pickle: the position travels as its Python GameState (its
        # dice stream included) with the start state, the pending events and the planner's name.
        planner = "native" if self.model.native_planner else "python"
        with self.guard:
            python = from_native(self.native, self._like)
        return (_restore, (python, self._like, list(self._events), planner))

    def __deepcopy__(self, memo: dict) -> NativeGameState:
        import copy

        python_state, like, events, planner = self.__reduce__()[1]
        return _restore(
            copy.deepcopy(python_state, memo),
            copy.deepcopy(like, memo),
            copy.deepcopy(events, memo),
            planner,
        )

    def reseed(self, seed: int | np.random.SeedSequence) -> None:
        """Replace the random stream (search agents determinise dice on their copies)."""
        if isinstance(seed, int) and 0 <= seed < _SEED_WORDS:
            # default_rng(seed) seeded in the core (rules/seeding.hpp seeded_pcg64, numpy's
            # SeedSequence bit for bit): a search reseeds every simulation's view.
            rng = load().seeded_pcg64([seed])
        else:
            rng = native_stream(np.random.default_rng(seed))
        with self.guard:
            self.native.rng = rng
        self._python = None

    def view(self, side: str, seed: int | np.random.SeedSequence | None = None) -> NativeGameState:
        """:meth:`GameState.view`: a copy whose future dice are hidden (a fresh stream)."""
        if side not in SIDES:
            raise ValueError(f"side {side!r}: expected one of {SIDES}")
        seen = self.copy()
        if seed is None:
            seed = np.random.SeedSequence([self.native.seq, SIDES.index(side), 0x5EE])
        seen.reseed(seed)
        return seen

    @property
    def current_side(self) -> str | None:
        side = self.native.current_side()
        return None if side < 0 else SIDES[side]

    @property
    def is_terminal(self) -> bool:
        return bool(self.native.over)

    # Read by search agents at every step of a simulation: from the core's state, not the
    # Python view (whose conversion costs a millisecond), with from_native's values.
    @property
    def phase(self) -> str:
        """The phase (``GameState.phase``)."""
        return PHASES[self.native.phase]

    @property
    def active_model(self) -> int | None:
        """The activating model's index, or None (``GameState.active_model``)."""
        found = self.native.active_model
        return None if found < 0 else int(found)

    def signature(self) -> bytes:
        """The search agents' information-set key (agents/expert.py ``signature``), from the core.

        The bytes of exactly the fields the Python key reads (``cpp/riven/agents/signature.hpp``):
        two positions share it exactly when their Python views share the Python key.
        """
        with self.guard:
            return load().search_signature(self.native)

    @property
    def actions_left(self) -> int:
        """Actions left to the active model (``GameState.actions_left``)."""
        return int(self.native.actions_left)

    @property
    def over(self) -> bool:
        return bool(self.native.over)

    @property
    def result(self) -> dict[str, Any]:
        """The game result: winner (or None), draw, reason, rounds and points."""
        n = self.native
        return {
            "winner": None if n.winner < 0 else SIDES[n.winner],
            "draw": bool(n.over) and n.winner < 0,
            "reason": n.end_reason,
            "rounds": n.round,
            "points": dict(zip(SIDES, n.points, strict=True)),
        }

    def emit(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Record an event (the runner's ``oracle_decision``) with GameState.emit's header."""
        n = self.native
        side = SIDES[n.side] if n.in_turn else None
        event = {"type": type_, "seq": n.seq, "round": n.round, "side": side, **fields}
        n.seq = n.seq + 1
        self._events.append(event)
        self._python = None
        return event

    def drain_events(self) -> list[dict[str, Any]]:
        """Return and forget the events recorded since the last call."""
        events, self._events = self._events, []
        return events

    # ------------------------------------------------------------------ the Python view
    def python_state(self) -> Any:
        """The Python ``GameState`` of this position (rebuilt after each change; do not mutate)."""
        if self._python is None:
            with self.guard:
                self._python = from_native(self.native, self._like)
        return self._python

    def __getattr__(self, name: str) -> Any:
        # Only reached for names this class lacks: the agents' reads of the Python state.
        if name.startswith("__") or name in (
            "native",
            "model",
            "guard",
            "_like",
            "_python",
            "_legal",
            "_events",
        ):
            raise AttributeError(name)
        return getattr(self.python_state(), name)

    def __repr__(self) -> str:
        n = self.native
        return (
            f"NativeGameState(round={n.round}, side={SIDES[n.side]}, phase={PHASES[n.phase]}, "
            f"over={bool(n.over)})"
        )


def _restore(python_state: Any, like: Any, events: list, planner: str) -> NativeGameState:
    """A pickled :class:`NativeGameState` again: ``python_state`` exported to the core."""
    state = NativeGameState(to_native(python_state), forward_model(like, planner), like, events)
    return state
