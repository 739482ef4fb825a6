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

The state itself (its fields, copying, its pure queries and its events) is
:class:`~riven_env.game.state_data.StateData`, the data the rule modules act on, on the floor
below them; :class:`GameState` adds the turn sequence that calls the rules, and the hooks the
rules call back (``move_options``, ``apply_move``, ``on_casualty``, ``check_victory``).
"""

from __future__ import annotations

import functools
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
from riven_env.game.model_state import ACTIVE
from riven_env.game.state_data import SIDES, StateData, copy_generator

__all__ = ["SIDES", "GameState", "StateData", "copy_generator"]


@functools.lru_cache(maxsize=1024)
def _activation_choices(i: int, max_dice: int, can_bonus: bool) -> tuple[Decision, ...]:
    """Model ``i``'s decisions: 1..``max_dice`` dice (none when 0), then a bonus action."""
    choices = [shared_decision("activate", i, dice=dice) for dice in range(1, max_dice + 1)]
    if can_bonus:
        choices.append(shared_decision("bonus", i))
    return tuple(choices)


class GameState(StateData):
    """A game of RIVEN in progress. Build one with :func:`riven_env.engines.new_game`.

    Its data (the attributes, :meth:`copy`, the queries, the events) is
    :class:`~riven_env.game.state_data.StateData`; this class runs the turn sequence.
    """

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
            self.models[i].reset_turn_flags()
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

    def __repr__(self) -> str:
        return (
            f"GameState(round={self.round}, side={self.side}, phase={self.phase}, "
            f"active={self.active_model}, over={self.over}, winner={self.winner})"
        )
