"""The state of a game as data: :class:`StateData`, its fields and its pure queries.

The rule modules (:mod:`~riven_env.game.actions`, :mod:`~riven_env.game.choices`,
:mod:`~riven_env.game.effects`, :mod:`~riven_env.game.victory`) are functions on this data:
they read it, change it and record events on it. The turn sequence that calls them is
:class:`riven_env.game.state.GameState`, a :class:`StateData` on the floor above the rules
(state as data below, rules as functions on it, the forward model above both). Where a rule
needs the forward model back (a move may extract a model, a removal may end the game) it calls
one of the hooks declared at the end of :class:`StateData`, which ``GameState`` implements:
so this module imports no rule and the rules import no turn sequence.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Mapping
from typing import Any, TypeVar

import numpy as np

from riven_env.game.decisions import PHASE_ACTIVATE, PHASE_OVER, Decision
from riven_env.game.events import Event
from riven_env.game.model_state import ACTIVE, ModelState
from riven_env.rules import RulesConfig, get_resolution
from riven_env.rules.conditions import no_limits
from riven_env.table import Bases, Table, contacts, edge_distance

SIDES = ("blue", "red")


def copy_generator(rng: np.random.Generator) -> np.random.Generator:
    """An independent copy of ``rng`` at the same point of its stream.

    Equivalent to ``copy.deepcopy(rng)`` (same bit generator type, state and seed
    sequence) at a third of the cost: search agents copy games thousands of times. The
    seed sequence is a copy of its own; the entropy and pool it shares with the original
    are never changed after it is built. Anything else standing in for a Generator
    (scripted dice in tests) is deep-copied.
    """
    if type(rng) is not np.random.Generator:
        return _copy.deepcopy(rng)
    bits = rng.bit_generator
    try:
        clone = type(bits)(_copy.copy(bits.seed_seq))
    except (TypeError, ValueError):  # a bit generator that cannot be rebuilt from its seed
        return _copy.deepcopy(rng)
    clone.state = bits.state
    return np.random.Generator(clone)


_S = TypeVar("_S", bound="StateData")


class StateData:
    """A game of RIVEN in progress, as data: what the rules read and change.

    Attributes:
        scenario: The loaded scenario (immutable, shared by copies).
        rules: The rules data (immutable, shared).
        table: The static table (immutable, shared).
        bases: Model positions (copied).
        models: Per-model state, indexed like ``bases``.
        momentum: Momentum pools by owner (a side, or the hero's id in solo-hero mode).
        round: The current round, from 1.
        side: The side whose turn it is.
        phase: ``activate``, ``action``, ``spend`` or ``over``.
        points: Victory points by side.
        winner: The winning side, or None (draw or not over).
        rng: The game's random stream.
        no_limits: ``(rules, limits)``: the Condition limits of a model holding none.
    """

    def __init__(
        self,
        *,
        scenario: Any,
        rules: RulesConfig,
        table: Table,
        bases: Bases,
        models: list[ModelState],
        momentum_owner: Mapping[str, str],
        rng: np.random.Generator,
        first_side: str,
    ) -> None:
        self.scenario = scenario
        self.rules = rules
        # Every roll goes through the resolution seam, so another dice engine can be plugged in.
        self.resolution = get_resolution(rules.get("meta.resolution"), rules)
        # The limits of a model without Conditions, asked hundreds of times per game (with
        # the rules they were read from: effects.limits checks that they still apply).
        self.no_limits = (rules, no_limits(rules))
        self.table = table
        self.setting: str = scenario.setting
        self.round_limit: int = scenario.rounds
        self.objectives = scenario.objectives
        self.first_side = first_side
        self.momentum_owner: Mapping[str, str] = dict(momentum_owner)
        self._side_models: dict[str, tuple[int, ...]] = {
            s: tuple(m.index for m in models if m.side == s) for s in SIDES
        }
        # Mutable state (copied by copy()).
        self.bases = bases
        self.models = models
        self.rng = rng
        self.momentum: dict[str, int] = {
            owner: rules.get("momentum.start") for owner in self.momentum_owner.values()
        }
        self.points: dict[str, int] = dict.fromkeys(SIDES, 0)
        self.round = 1
        self.side = first_side
        self.turn_index = 0  # 0: first turn of the round, 1: second
        # False between turn_end and the next turn_start: events there carry side = null.
        self.in_turn = False
        self.phase = PHASE_ACTIVATE
        self.active_model: int | None = None
        # The model that activated last in this side-turn (a bonus action goes to another).
        self.last_activated: int | None = None
        self.actions_left = 0
        self.turn_passes_after = False
        self.taken_actions: list[str] = []
        self.pending: tuple | None = None  # (TestRoll or choice session, model index, context)
        # The side that must choose in the choice phase (None: the side in its turn).
        self.decider: str | None = None
        # Per-model state a resolution system keeps between rolls (immutable values).
        self.system_state: dict[Any, Any] = {}
        self.looted: set[int] = set()
        self.half_strength_tested: set[str] = set()
        self.last_position: dict[int, tuple[float, float]] = {}
        self.over = False
        self.winner: str | None = None
        self.end_reason: str | None = None
        self.seq = 0
        self._new_events: list[Event] = []
        self._legal: list[Decision] | None = None
        self._destinations: dict[tuple[int, float], list] = {}
        self._move_options: dict[int, list[tuple[str, int | None]]] = {}
        # Results that depend only on the situation (see situation_memo), with its key.
        self._memo_key: tuple[Any, ...] | None = None
        self._memo: dict[Any, Any] = {}

    # ------------------------------------------------------------------ copying
    def copy(self: _S) -> _S:
        """A deep-enough copy: shared immutable parts, copied mutable parts and RNG."""
        cls = type(self)
        new = cls.__new__(cls)  # what copy.copy does, without its protocol lookups
        new.__dict__.update(self.__dict__)
        new.bases = self.bases.copy()
        new.models = [m.copy() for m in self.models]
        new.rng = copy_generator(self.rng)
        new.momentum = dict(self.momentum)
        new.points = dict(self.points)
        new.taken_actions = list(self.taken_actions)
        new.pending = None if self.pending is None else (*self.pending[:2], dict(self.pending[2]))
        new.looted = set(self.looted)
        new.half_strength_tested = set(self.half_strength_tested)
        new.last_position = dict(self.last_position)
        new.system_state = dict(self.system_state)
        new._new_events = []
        new._legal = None if self._legal is None else list(self._legal)
        new._destinations = dict(self._destinations)
        new._move_options = dict(self._move_options)
        new._memo = dict(self._memo)
        return new

    def reseed(self, seed: int | np.random.SeedSequence) -> None:
        """Replace the random stream (search agents determinise dice on their copies)."""
        self.rng = np.random.default_rng(seed)

    def view(self: _S, side: str, seed: int | np.random.SeedSequence | None = None) -> _S:
        """What ``side`` may know: a copy with everything hidden from it removed.

        RIVEN v0.1 has no hidden information on the table, so only the future dice are
        hidden: the copy's random stream is replaced by a fresh one (``seed``), so that a
        search agent stepping the view cannot foresee the real game's rolls. This is the
        seam for scenarios with hidden information (blips, fog of war, secret objectives):
        they would mask those parts here.
        """
        if side not in SIDES:
            raise ValueError(f"side {side!r}: expected one of {SIDES}")
        seen = self.copy()
        if seed is None:
            # Deterministic for a given game position, yet not the game's own stream.
            seed = np.random.SeedSequence([self.seq, SIDES.index(side), 0x5EE])
        seen.reseed(seed)
        return seen

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def result(self) -> dict[str, Any]:
        """The game result: winner (or None), draw, reason, rounds and points."""
        return {
            "winner": self.winner,
            "draw": self.over and self.winner is None,
            "reason": self.end_reason,
            "rounds": self.round,
            "points": dict(self.points),
        }

    def enemy_side(self, side: str) -> str:
        return "red" if side == "blue" else "blue"

    def side_models(self, side: str) -> tuple[int, ...]:
        """Indices of every model of ``side`` (in play or not)."""
        return self._side_models[side]

    def active_models(self, side: str) -> list[int]:
        models = self.models  # status read directly: this runs hundreds of times per game
        return [i for i in self._side_models[side] if models[i].status == ACTIVE]

    def enemies_of(self, i: int) -> list[int]:
        """Active enemy models of model ``i``."""
        return self.active_models(self.enemy_side(self.models[i].side))

    def friends_of(self, i: int) -> list[int]:
        """Friendly models of ``i`` still on the table (active or Down), not ``i`` itself."""
        side = self.models[i].side
        return [j for j in self._side_models[side] if j != i and self.models[j].on_table]

    def engaged_enemies(self, i: int) -> list[int]:
        """Active enemies in base contact with model ``i``."""
        return list(self._engaged_enemies(i))

    def is_engaged(self, i: int) -> bool:
        return bool(self._engaged_enemies(i))

    def _engaged_enemies(self, i: int, memo: dict[Any, Any] | None = None) -> tuple[int, ...]:
        # Asked many times per decision point (legality, agents): memoised per situation.
        # A caller that already holds this situation's memo passes it (saves rebuilding its key).
        if memo is None:
            memo = self.situation_memo()
        key = ("engaged_enemies", i)
        found = memo.get(key)
        if found is None:
            models = self.models
            side = models[i].side
            found = memo[key] = tuple(
                [
                    j
                    for j in contacts(self.bases, i)
                    if models[j].side != side and models[j].is_active
                ]
            )
        return found

    def position(self, i: int) -> tuple[float, float]:
        return self.bases.center(i)

    def distance(self, i: int, j: int) -> float:
        """Edge-to-edge distance between two models' bases."""
        return edge_distance(self.bases, i, j)  # a Python float already

    def distance_to_point(self, i: int, point: tuple[float, float]) -> float:
        """Distance from the edge of model ``i``'s base to a point."""
        centre = self.bases.centers[i]
        d = float(np.hypot(centre[0] - point[0], centre[1] - point[1]))
        return max(0.0, d - float(self.bases.radii[i]))

    def distances_to_point(self, point: tuple[float, float]) -> list[float]:
        """:meth:`distance_to_point` for every model at once (index as ``models``).

        One numpy call over all the bases; the same values, bit for bit, as asking model by
        model (the same hypot on the same differences).
        """
        centers = self.bases.centers
        reach = np.hypot(centers[:, 0] - point[0], centers[:, 1] - point[1]).tolist()
        return [max(0.0, d - r) for d, r in zip(reach, self.bases.radii.tolist(), strict=True)]

    def momentum_of(self, side: str) -> int:
        return self.momentum[self.momentum_owner[side]]

    def situation_memo(self) -> dict[Any, Any]:
        """A scratch memo for results that depend only on the current situation.

        The situation is every base's position and presence and every model's status and
        Conditions; the table, rules and profiles never change in a game. The memo is keyed
        by the situation's content, not invalidated by hand, so it stays right whatever
        changes the state (a rule, a test setting a position, a search agent's copy), and
        it holds one situation at a time (bounded). A copy of the game gets a shallow copy
        of the memo: store immutable values, or containers that only ever gain entries that
        depend on the situation alone (a copy in the same situation may read them too).
        """
        bases = self.bases
        key = (
            bases.centers.tobytes(),
            bases.on_table.tobytes(),
            # One entry per model: its status, with its Conditions when it holds any.
            [(m.status, *m.conditions) if m.conditions else m.status for m in self.models],
        )
        if key != self._memo_key:
            self._memo_key = key
            self._memo = {}
        return self._memo

    def positions_changed(self) -> None:
        """Invalidate caches that depend on where the bases stand."""
        self._destinations = {}
        self._move_options = {}

    # ------------------------------------------------------------------ events
    def emit(self, type_: str, **fields: Any) -> Event:
        """Record an event (returned so that a caller can complete it)."""
        side = self.side if self.in_turn else None
        # Fields named like the header ones (side, round) replace them in place.
        event: Event = {"type": type_, "seq": self.seq, "round": self.round, "side": side, **fields}
        self.seq += 1
        self._new_events.append(event)
        return event

    def emit_test(
        self, model_id: str, result: Any, *, event_type: str = "test", **extra: Any
    ) -> Event:
        """Record a finalised 2d6 test (or a shot, with ``event_type='shot'``)."""
        fields: dict[str, Any] = {}
        if event_type == "test":
            fields.update(
                model=model_id,
                kind=result.kind,
                attribute=result.attribute,
                attribute_value=result.attribute_value,
            )
        fields.update(extra)
        fields.update(
            modifiers=[m.to_dict() for m in result.modifiers],
            tn=result.tn,
            dice=list(result.dice),
            total=result.total,
            result=result.result,
        )
        if result.spends:
            fields.update(rolled_result=result.rolled_result, spends=list(result.spends))
        if result.detail:  # another resolution system's own reading of the roll
            fields["detail"] = result.detail
        system_fields = getattr(result, "event_fields", None)  # a system's top-level extras
        if system_fields is not None:
            fields.update(system_fields())
        return self.emit(event_type, **fields)

    def drain_events(self) -> list[Event]:
        """Return and forget the events recorded since the last call."""
        events, self._new_events = self._new_events, []
        return events

    # ------------------------------------------------------------------ the end
    def end_game(self, winner: str | None, reason: str) -> None:
        """End the game now (idempotent)."""
        if self.over:
            return
        self.over = True
        self.winner = winner
        self.end_reason = reason
        self.phase = PHASE_OVER
        self.active_model = None
        self.pending = None
        self.decider = None
        self.emit(
            "game_end",
            winner=winner,
            draw=winner is None,
            reason=reason,
            rounds=self.round,
            points=dict(self.points),
        )

    # ------------------------------------------------------------------ hooks of the forward model
    # The rules call these back; GameState (riven_env.game.state), which runs the turn sequence
    # on the floor above the rules, implements them.
    def move_options(self, i: int) -> list[tuple[str, int | None]]:
        """The ``(kind, ref)`` moves model ``i`` may order now (cached; no path planning)."""
        raise NotImplementedError

    def apply_move(self, i: int, plan: Any, kind: str) -> None:
        """Move model ``i`` along a planned path and record it (then check extraction)."""
        raise NotImplementedError

    def on_casualty(self, i: int) -> None:
        """A model was taken Out or Fled: score casualty points."""
        raise NotImplementedError

    def check_victory(self) -> None:
        """Check the conditions that end the game at once."""
        raise NotImplementedError
