"""The forward model: :class:`GameState`, its turn sequence and its decision points.

A game is a sequence of decision points. At each one, :meth:`GameState.legal_decisions`
lists what the side to play (:attr:`GameState.current_side`) may do, and
:meth:`GameState.apply` carries a decision out, advances the game to the next decision
point and returns the events that happened. :meth:`GameState.copy` is cheap (the table,
rules and profiles are shared; positions are numpy arrays) so that search agents can
step copies forward.

Turn sequence (rules reference, "Activation" and "Turns"): a round is one side-turn for
each side, the first side first. In its turn a side activates models one at a time
(``activate`` with 1-3 dice, or a Momentum ``bonus`` activation) or passes. The
activation roll may pass the turn (turnover). At the end of a side's turn its
unstabilised Down models roll to go Out and its bleeding models roll for a wound.
After both turns the round ends: objectives score, and at the round limit the game ends.
"""

from __future__ import annotations

import copy as _copy
import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from riven_env.errors import IllegalActionError
from riven_env.game import actions as action_rules
from riven_env.game import choices, effects, victory
from riven_env.game.decisions import (
    PASS,
    PHASE_ACTION,
    PHASE_ACTIVATE,
    PHASE_CHOICE,
    PHASE_OVER,
    PHASE_SPEND,
    Decision,
    is_listed,
    shared_decision,
)
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


@functools.lru_cache(maxsize=1024)
def _activation_choices(i: int, max_dice: int, can_bonus: bool) -> tuple[Decision, ...]:
    """Model ``i``'s decisions: 1..``max_dice`` dice (none when 0), then a bonus action."""
    choices = [shared_decision("activate", i, dice=dice) for dice in range(1, max_dice + 1)]
    if can_bonus:
        choices.append(shared_decision("bonus", i))
    return tuple(choices)


class GameState:
    """A game of RIVEN in progress. Build one with :func:`riven_env.game.setup.new_game`.

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
    def copy(self) -> GameState:
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

    def view(self, side: str, seed: int | np.random.SeedSequence | None = None) -> GameState:
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
    def current_side(self) -> str | None:
        """The side that must decide now (None when the game is over).

        In a resolution system's choice phase it is ``decider`` (the defender may declare
        during the attacker's turn); on a pending roll it is the side of the roll's chooser:
        another resolution system may hand a choice to the defender
        (``docs/resolution-systems.md``).
        """
        if self.over:
            return None
        if self.decider is not None:
            return self.decider
        if self.pending is not None and self.phase == PHASE_SPEND:
            return self.models[action_rules.chooser_of(self)].side
        return self.side

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

    def destinations(self, i: int, allowance: float) -> list:
        """Candidate destinations of model ``i`` for a move of ``allowance`` (cached)."""
        key = (i, round(allowance, 4))
        found = self._destinations.get(key)
        if found is None:
            found = action_rules.destinations_for(self, i, allowance)
            self._destinations[key] = found
        return found

    def move_options(self, i: int) -> list[tuple[str, int | None]]:
        """The ``(kind, ref)`` moves model ``i`` may order now (cached; no path planning)."""
        found = self._move_options.get(i)
        if found is None:
            found = action_rules.move_options_for(self, i)
            self._move_options[i] = found
        return found

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

    # ------------------------------------------------------------------ decisions
    def legal_decisions(self) -> list[Decision]:
        """Every legal decision for :attr:`current_side` (never empty before the end)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Decision]:
        if self.over:
            return []
        if self.phase == PHASE_SPEND:
            return action_rules.spend_decisions(self)
        if self.phase == PHASE_CHOICE:
            return choices.choice_decisions(self)
        if self.phase == PHASE_ACTION:
            return action_rules.action_decisions(self, self.active_model)
        decisions: list[Decision] = []
        bonus_to = self.bonus_recipients()
        models = self.models
        for i in self._side_models[self.side]:
            if models[i].status != ACTIVE:
                continue
            dice = 0 if models[i].activated else self.max_dice(i)
            if dice or i in bonus_to:
                decisions += _activation_choices(i, dice, i in bonus_to)
        decisions.append(PASS)
        return decisions

    def bonus_recipients(self) -> tuple[int, ...]:
        """Models of the side to play that may receive a Momentum bonus action now.

        ``momentum.bonus_mode`` ``extra`` (RAW, "give another model a bonus action this
        round"): every active model but the one that activated last this side-turn, whether
        or not it has activated. ``replace`` (House variant): the models that may still
        activate. None while the side cannot pay ``momentum.cost.bonus_action``.
        """
        if self.momentum_of(self.side) < self.rules.get("momentum.cost.bonus_action"):
            return ()
        models = self.models
        if self.rules.get("momentum.bonus_mode") == "replace":
            return tuple(self.eligible_models())
        return tuple(
            i
            for i in self._side_models[self.side]
            if models[i].status == ACTIVE and i != self.last_activated
        )

    def eligible_models(self) -> list[int]:
        """Models of the side to play that may still activate this turn."""
        models = self.models
        return [
            i
            for i in self._side_models[self.side]
            if models[i].status == ACTIVE and not models[i].activated
        ]

    def _any_eligible(self) -> bool:
        # eligible_models() without building the list: asked after every decision. With
        # every model activated the side still decides while it can give a bonus action.
        models = self.models
        for i in self._side_models[self.side]:
            if models[i].status == ACTIVE and not models[i].activated:
                return True
        return bool(self.bonus_recipients())

    def max_dice(self, i: int) -> int:
        cap = effects.limits(self, i).max_dice
        most = self.rules.get("activation.max_dice")
        return most if cap is None else max(1, min(most, cap))

    def apply(self, decision: Decision) -> list[Event]:
        """Carry out ``decision`` and advance to the next decision point.

        Raises:
            IllegalActionError: ``decision`` is not among :meth:`legal_decisions`.

        Returns:
            The events that happened, in order.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if not is_listed(decision, legal):
            raise IllegalActionError(
                decision, list(legal), f"phase {self.phase}, side {self.current_side}"
            )
        self._legal = None
        self.emit("decision", side=self.current_side, decision=str(decision), kind=decision.kind)
        if self.phase == PHASE_ACTIVATE:
            if decision.kind == "pass":
                self._end_turn("pass")
            elif decision.kind == "bonus":
                effects.change_momentum(
                    self, self.side, -self.rules.get("momentum.cost.bonus_action"), "bonus action"
                )
                self._begin_activation(decision.model, None)
            else:
                self._begin_activation(decision.model, decision.dice)
        elif self.phase == PHASE_SPEND:
            action_rules.apply_spend_decision(self, decision)
        elif self.phase == PHASE_CHOICE:
            choices.apply_choice(self, decision)
        else:
            action_rules.perform(self, decision)
        self._advance()
        return self.drain_events()

    # ------------------------------------------------------------------ turn sequence
    def start(self) -> None:
        """Open round 1 (called once by ``new_game``)."""
        self.emit("round_start", round=self.round)
        self._start_turn()
        self._advance()

    def _start_turn(self) -> None:
        for i in self._side_models[self.side]:
            self.models[i].activated = False
        self.last_activated = None
        self.phase = PHASE_ACTIVATE
        self.in_turn = True
        self.emit("turn_start", side=self.side, round=self.round)

    def _begin_activation(self, i: int, dice: int | None) -> None:
        model = self.models[i]
        # A bonus action under the RAW reading is extra: the model keeps its own activation.
        if dice is not None or self.rules.get("momentum.bonus_mode") == "replace":
            model.activated = True
        self.last_activated = i
        model.reset_activation_flags()
        self.taken_actions = []
        effects.expire_conditions(self, i, "start_of_next_activation")
        for name in model.conditions:
            model.conditions[name] += 1
        if dice is None:  # Momentum bonus action: one action, no roll, no turnover
            actions, passes = 1, False
            self.emit(
                "activation",
                side=model.side,
                model=model.id,
                mettle=model.profile.mettle,
                dice=[],
                successes=0,
                actions=1,
                turn_passes=False,
                bonus=True,
            )
        else:
            roll = self.resolution.roll_activation(model.profile.mettle, dice, self.rng)
            actions, passes = roll.actions, roll.turn_passes
            self.emit(
                "activation",
                side=model.side,
                model=model.id,
                mettle=roll.mettle,
                dice=list(roll.dice),
                successes=roll.successes,
                actions=roll.actions,
                turn_passes=roll.turn_passes,
                bonus=False,
            )
            if dice == self.rules.get("activation.max_dice"):
                effects.change_strain(
                    self, i, self.rules.get("strain.gain.max_dice_activation"), "max dice"
                )
        cap = effects.limits(self, i).max_actions
        if cap is not None:
            actions = min(actions, cap)
        self.active_model = i
        self.actions_left = actions
        self.turn_passes_after = passes
        self.phase = PHASE_ACTION

    def _end_activation(self) -> None:
        i = self.active_model
        if i is not None:
            effects.expire_conditions(self, i, "end_of_activation")
            effects.expire_conditions(self, i, "end_of_next_activation")
            self.models[i].reset_activation_flags()
        self.active_model = None
        self.actions_left = 0
        self.taken_actions = []
        self.phase = PHASE_ACTIVATE
        if self.turn_passes_after:
            self.turn_passes_after = False
            self._end_turn("turnover")

    def _end_turn(self, reason: str) -> None:
        side = self.side
        for i in self._side_models[side]:
            model = self.models[i]
            if self.over:
                break
            if model.is_down and not model.stable:
                effects.out_check(self, i)
            elif model.is_active and effects.limits(self, i).end_of_turn_wound_check:
                action_rules.bleeding_check(self, i)
            if model.on_table:
                effects.expire_conditions(self, i, "end_of_side_turn")
        if self.over:  # an Out check or bleeding ended the game: game_end is the last event
            return
        self.emit("turn_end", side=side, round=self.round, reason=reason)
        self.in_turn = False
        if self.turn_index == 0:
            self.turn_index = 1
            self.side = self.enemy_side(self.first_side)
            self._start_turn()
            return
        victory.end_of_round(self)
        self.emit("round_end", round=self.round)
        if self.over:
            return
        if self.round >= self.round_limit:
            victory.end_at_round_limit(self)
            return
        self.round += 1
        self.turn_index = 0
        self.side = self.first_side
        self.emit("round_start", round=self.round)
        self._start_turn()

    def _advance(self) -> None:
        """Run the automatic steps until a decision is needed or the game is over."""
        while not self.over:
            if self.phase in (PHASE_SPEND, PHASE_CHOICE):
                return
            if self.phase == PHASE_ACTION:
                i = self.active_model
                if i is not None and self.actions_left > 0 and self.models[i].is_active:
                    return
                self._end_activation()
                continue
            if self._any_eligible():
                return
            self._end_turn("all_activated")
        self.phase = PHASE_OVER
        self.active_model = None
        self._legal = []

    # ------------------------------------------------------------------ hooks used by rules
    def apply_move(self, i: int, plan: Any, kind: str) -> None:
        """Move model ``i`` along a planned path and record it."""
        start = self.position(i)
        end = (float(plan.end[0]), float(plan.end[1]))
        if np.hypot(end[0] - start[0], end[1] - start[1]) < 1e-9:
            return
        self.bases.move_to(i, end)
        self.positions_changed()
        self.emit(
            "move",
            model=self.models[i].id,
            **{"from": list(start), "to": list(end)},
            path=[list(p) for p in plan.path],
            path_length=float(plan.cost),
            kind=kind,
        )
        if kind != "flee":  # a panicking model completes nothing: flight never extracts
            victory.after_move(self, i)

    def on_casualty(self, i: int) -> None:
        """A model was taken Out or Fled: score casualty points."""
        victory.on_casualty(self, i)

    def check_victory(self) -> None:
        victory.check_immediate(self)

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

    def __repr__(self) -> str:
        return (
            f"GameState(round={self.round}, side={self.side}, phase={self.phase}, "
            f"active={self.active_model}, over={self.over}, winner={self.winner})"
        )
