"""The Enemy Oracle: plays a side by its behaviour profiles and explains every decision.

* **Activate phase.** Models that their profile's ``hold_when`` keeps back are set aside; when
  only such models are left the side passes. Otherwise the side's profile orders the
  eligible models by its ``activation_order`` keys and the first one activates: first a
  Momentum bonus action when its profile's ``bonus`` policy says so and the game offers
  it, else with the number of dice chosen by the first of its ``dice`` rules whose
  conditions hold (a named policy is computed from the exact odds of
  :mod:`riven_env.rules.odds`). With every model activated the side passes.
* **Action phase.** The active model's ``priorities`` are walked in order before *every*
  action; the first rule whose conditions hold and whose action is legal fires, with its
  target picked by the rule's (or the profile's) target selector. When none fires, the
  ``fallback_d6`` table is rolled; when the rolled action is impossible the activation ends.
* **Spend phase.** The first ``spend`` rule matching the pending test's result and kind,
  and affordable within its limits, is applied; otherwise the result is accepted. Under
  another resolution system the system's own rule decides (``oracle_choice``: Invictus's
  Favourable die and Luck, New World's helpers and Luck), with its reason in words; the
  chooser may be the defender of an opposed roll.
* **Choice phase** (a resolution system's mid-action choices, such as The Riddle of Steel's
  melee declarations): the system's own Oracle rule decides, given the Oracle profile of the
  model that chooses (``oracle_session_choice``), and says why.

Which profile: ``oracle:PROFILE`` forces one profile on every model of the side; plain
``oracle`` uses each model's own Oracle profile from the scenario. Side-level choices (the
activation order) follow the side's scenario profile; model-level ones (dice, bonus,
actions, spends) follow the model's own.

Randomness: the d6 fallback table is rolled on the agent's private ``self.rng``, never on the
game's stream, so that the Oracle's presence never changes the game's dice. Everything else
is a pure function of the state, so the Oracle is deterministic given its seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from riven_agents.base import BaseAgent
from riven_agents.oracle import words
from riven_agents.oracle.compiled import CompiledProfile, Order, all_pass, compiled
from riven_agents.oracle.dice import dice_for_rule, dice_words
from riven_agents.oracle.profiles import (
    DiceRule,
    OracleData,
    OracleDataError,
    OracleProfile,
    load_profiles,
)
from riven_agents.oracle.situation import Board, Situation, first_in_order, select

from riven_env.errors import AgentSpecError, did_you_mean
from riven_env.game import Decision, GameState
from riven_env.game.actions import END, chooser_of, move_allowance
from riven_env.game.decisions import (
    ACCEPT,
    PASS,
    PHASE_ACTION,
    PHASE_ACTIVATE,
    PHASE_CHOICE,
    PHASE_SPEND,
    shared_decision,
)
from riven_env.rules.resolution import ChoiceView


class OracleAgent(BaseAgent):
    """The Enemy Oracle as an agent.

    Args:
        name: The agent spec (``"oracle"`` or ``"oracle:PROFILE"``).
        side: The side it plays.
        seed: Seed of its private stream (used only for the d6 fallback table).
        profile: Force this profile on every model of the side (``None``: each model's own).
        data: Profiles to use (default: the bundled ``data/profiles.toml``).
        profiles_path: Load the profiles from this file instead (ignored when ``data`` is given).

    Attributes:
        last_explanation: After :meth:`act`: ``{model, profile, rule, decision, explanation}``.

    Raises:
        AgentSpecError: ``profile`` is not a profile of the data.
    """

    def __init__(
        self,
        name: str,
        side: str,
        seed: int | Sequence[int] | None = None,
        profile: str | None = None,
        *,
        data: OracleData | None = None,
        profiles_path: str | Path | None = None,
    ) -> None:
        super().__init__(name, side, seed)
        self.data = data if data is not None else load_profiles(profiles_path)
        if profile is not None and profile not in self.data.profiles:
            raise AgentSpecError(
                f"agent {name!r}: unknown Oracle profile {profile!r}"
                f"{did_you_mean(profile, self.data.profiles)} "
                f"(allowed: {', '.join(self.data.profiles)})"
            )
        self.forced = profile
        self._dice_memo: dict[tuple[int, int, tuple[int, ...]], tuple] = {}

    # ------------------------------------------------------------------ profiles
    def _named(self, name: str | None, what: str) -> OracleProfile:
        if name is None:
            return self.data.profiles[self.data.default_profile]
        found = self.data.profiles.get(name)
        if found is None:
            raise OracleDataError(
                f"{self.data.source}: {what} uses Oracle profile {name!r}, which this data "
                f"file does not define; allowed: {', '.join(self.data.profiles)}"
            )
        return found

    def profile_for(self, state: GameState, i: int) -> OracleProfile:
        """The profile that drives model ``i``."""
        if self.forced is not None:
            return self.data.profiles[self.forced]
        model = state.models[i]
        found = self.data.profiles.get(model.oracle) if model.oracle is not None else None
        # The usual case first: words for an error are written only when there is one.
        return found if found is not None else self._named(model.oracle, f"model {model.id}")

    def side_profile(self, state: GameState, side: str) -> OracleProfile:
        """The profile that orders the side's activations."""
        if self.forced is not None:
            return self.data.profiles[self.forced]
        sides = getattr(state.scenario, "sides", {})
        name = sides[side].oracle if side in sides else None
        return self._named(name, f"side {side}")

    def resolved_profiles(self, state: GameState) -> dict[str, Any]:
        """The profiles this agent plays its side with, as reports show them.

        Returns:
            ``{"side": profile ordering the side's activations, "models": {model id:
            profile driving that model}}`` for this agent's side.
        """
        models = {
            model.id: self.profile_for(state, i).name
            for i, model in enumerate(state.models)
            if model.side == self.side
        }
        return {"side": self.side_profile(state, self.side).name, "models": models}

    # ------------------------------------------------------------------ the core
    #: The ``act`` methods whose procedure the native core reproduces (OracleAgent's own and
    #: NativeOracleAgent's): a subclass that decides otherwise is never replaced by the core.
    core_acts: ClassVar[set[Any]] = set()

    def _core_capable(self) -> bool:
        cls = type(self)
        return cls.act in OracleAgent.core_acts and all(
            getattr(cls, name) is getattr(OracleAgent, name)
            for name in ("_activate", "_action", "_spend", "_choice")
        )

    def core_seat(self, state: Any) -> tuple[Any, Any] | None:
        """This agent's seat in a game played wholly in the core, or None (see
        :func:`riven_agents.oracle.native.core_seat`; :func:`riven_env.native.play.play_in_core`)."""
        if not getattr(state, "in_core", False) or not self._core_capable():
            return None
        from riven_agents.oracle.native import core_seat

        return core_seat(self, state)

    def seat_done(self, stream: Any) -> None:
        """Take the private stream back from the core after it played this agent's side."""
        from riven_env.native.random import numpy_state

        self.rng.bit_generator.state = numpy_state(stream)

    # ------------------------------------------------------------------ the agent
    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        """Choose a legal decision and record why in :attr:`last_explanation`.

        On a native game (``engine="native"``) the procedure runs in the core on the core's
        own state (:func:`riven_agents.oracle.native.act_in_core`: the same choices, dice
        and words, tests/test_native_oracle_loop.py); a point it leaves to Python is decided
        here.
        """
        if getattr(state, "in_core", False) and self._core_capable():
            from riven_agents.oracle.native import act_in_core

            found = act_in_core(self, state, legal)
            if not isinstance(found, str):
                decision, self.last_explanation = found
                return decision
        if state.phase == PHASE_ACTIVATE:
            decision, model, profile, rule, text = self._activate(state, legal)
        elif state.phase == PHASE_ACTION:
            decision, model, profile, rule, text = self._action(state, legal)
        elif state.phase == PHASE_SPEND:
            decision, model, profile, rule, text = self._spend(state, legal)
        elif state.phase == PHASE_CHOICE:
            decision, model, profile, rule, text = self._choice(state, legal)
        else:  # pragma: no cover - the runner never asks once the game is over
            decision, model, profile, rule, text = legal[0], None, "", "end:no_action", "game over"
        self.last_explanation = {
            "model": model,
            "profile": profile,
            "rule": rule,
            "decision": str(decision),
            "explanation": text,
        }
        return decision

    # ------------------------------------------------------------------ activate
    def _activate(self, state: GameState, legal: Sequence[Decision]) -> tuple:
        side = state.current_side
        offers: dict[int, list[Decision]] = {}  # model -> its listed activate decisions
        for d in legal:
            if d.kind == "activate":
                listed = offers.get(d.model)
                if listed is None:
                    offers[d.model] = [d]
                else:
                    listed.append(d)
        eligible = sorted(offers)
        if not eligible:  # every model has activated; only bonus actions are left to give
            profile = self.side_profile(state, side)
            text = "Every model has activated: the side passes."
            return PASS, None, profile.name, "pass:all_activated", text
        board = Board(state)
        situations: dict[int, Situation] = {}
        plans: dict[int, CompiledProfile] = {}
        ready = []
        for i in eligible:
            sit = situations[i] = Situation(state, i, board=board)
            plan = plans[i] = compiled(self.profile_for(state, i))
            if not (plan.hold_when and all_pass(sit, plan.hold_when)):
                ready.append(i)
        if not ready:
            held = ", ".join(state.models[i].id for i in eligible)
            profile = self.side_profile(state, side)
            text = f"Every model left to activate holds its ground ({held}): the side passes."
            return PASS, None, profile.name, "hold", text

        order = self.side_profile(state, side).activation_order
        chosen = first_in_order(situations, order, ready)
        model = state.models[chosen]
        plan = plans[chosen]
        profile = plan.profile
        sit = situations[chosen]
        order_words = ", ".join(order)
        if (
            profile.bonus is not None
            and state.momentum_of(side) >= profile.bonus.min_momentum
            and all_pass(sit, plan.bonus_when)
        ):
            bonus = _listed(legal, shared_decision("bonus", chosen))
            if bonus is not None:
                text = (
                    f"Activates {model.id}, first by the activation order ({order_words}). "
                    f"{plan.bonus_text}"
                )
                return bonus, model.id, profile.name, "bonus", text

        offered = sorted(d.dice for d in offers[chosen])
        for k, dice_rule in enumerate(plan.dice, 1):
            if all_pass(sit, dice_rule.checks):
                dice, why = self._dice(state, chosen, dice_rule.rule, offered)
                decision = next(d for d in offers[chosen] if d.dice == dice)
                text = (
                    f"Activates {model.id}, first by the activation order ({order_words}). "
                    f"Dice rule {k}: {dice_rule.text} -> {dice} ({why})."
                )
                return decision, model.id, profile.name, f"dice:{k}", text
        raise OracleDataError(  # pragma: no cover - the loader requires a final "always" rule
            f"{self.data.source}: profiles.{profile.name}.dice: no rule applies"
        )

    def _dice(
        self, state: GameState, i: int, rule: DiceRule, offered: Sequence[int]
    ) -> tuple[int, str]:
        """The number of dice a dice rule asks for, among those ``offered``, and why."""
        mettle = state.models[i].profile.mettle
        rules = state.rules
        # A handful of (rule, Mettle, offer) questions all game long: remembered with the
        # rule and rules they were answered for (a new rules object replaces the entry).
        key = (id(rule), mettle, tuple(offered))
        entry = self._dice_memo.get(key)
        if entry is not None and entry[0] is rule and entry[1] is rules:
            return entry[2]
        dice = dice_for_rule(rule, mettle, offered, rules)
        found = (dice, dice_words(mettle, dice, rules))
        self._dice_memo[key] = (rule, rules, found)
        return found

    # ------------------------------------------------------------------ action
    def _action(self, state: GameState, legal: Sequence[Decision]) -> tuple:
        i = state.active_model
        model = state.models[i]
        plan = compiled(self.profile_for(state, i))
        profile = plan.profile
        sit = Situation(state, i, legal)
        for k, line in enumerate(plan.priorities, 1):
            if not all_pass(sit, line.checks):
                continue
            rule = line.rule
            decision, chosen = self._resolve(sit, line.order, legal)
            if decision is not None:
                text = f"{model.id}, rule {k} ({rule.id}): {line.text}{chosen}"
                return decision, model.id, profile.name, rule.id, text
        faces = len(profile.fallback)
        roll = int(self.rng.integers(1, faces + 1))
        decision, chosen = self._resolve(sit, plan.fallback[roll - 1], legal)
        what = plan.fallback_texts[roll - 1]
        if decision is not None:
            text = f"{model.id}: no priority applies; the d{faces} rolled {roll}: {what}.{chosen}"
            return decision, model.id, profile.name, f"d6:{roll}", text
        text = (
            f"{model.id}: no priority applies; the d{faces} rolled {roll} ({what}), "
            "which it cannot do now: it ends its activation."
        )
        return END, model.id, profile.name, "end:no_action", text

    def _resolve(
        self, sit: Situation, order: Order, legal: Sequence[Decision]
    ) -> tuple[Decision | None, str]:
        """The legal decision an order asks for (None when impossible) and words on its target."""
        action = order.action
        if action.kind == END.kind:
            return _listed(legal, END), ""
        options = [d for d in legal if d.kind == action.kind]
        if not options:
            return None, ""
        if action.destination is not None:
            return self._destination(sit, order, options)
        if order.side:
            pick = select(sit, order.selector, [d.target for d in options])
            chosen = next(d for d in options if d.target == pick)
            return chosen, f" Target: {sit.state.models[pick].id}."
        return options[0], ""

    def _destination(
        self, sit: Situation, order: Order, options: Sequence[Decision]
    ) -> tuple[Decision | None, str]:
        """The move (or disengage) decision toward the destination an action names.

        The tabletop lists one destination per kind and reference but drops one that ends
        where an earlier one does (the earlier kind wins), so "toward the objective" may be
        listed as "toward an enemy" when both paths end at the same spot. A directed action
        therefore picks its goal first (the selected model, or the objective), then takes the
        listed destination of that kind and goal, else the legal move of the same action kind
        that ends closest to the goal, provided it gets closer.
        """
        state = sit.state
        action = order.action
        kind = action.destination
        side = order.side
        target_words = ""
        if kind == "toward_objective":
            objective = self._objective_goal(sit)
            if objective is None:
                return None, ""
            ref = sit.open_objectives.index(objective)
            obj = state.objectives[objective]
            goal = (obj.x, obj.y)
        elif side:
            pool = sit.enemies if side == "enemy" else sit.friends
            ref = select(sit, order.selector, pool)
            if ref is None:
                return None, ""
            goal = state.position(ref)
            target_words = f" Target: {state.models[ref].id}."
        else:
            same = [d for d in options if d.destination is not None and d.destination[0] == kind]
            return (same[0] if same else None), ""
        exact = _listed(options, shared_decision(action.kind, sit.i, destination=(kind, ref)))
        if exact is not None:
            return exact, target_words
        points = self._destination_points(sit, action.kind)
        best, best_gap = None, _gap(state.position(sit.i), goal)
        for d in options:
            point = points.get(d.destination)
            if point is not None and _gap(point, goal) < best_gap:
                best, best_gap = d, _gap(point, goal)
        return best, target_words

    @staticmethod
    def _objective_goal(sit: Situation) -> int | None:
        """The objective to head for: the nearest its side does not hold, else the nearest."""
        if not sit.open_objectives:
            return None
        not_held = set(sit.objectives_not_held)
        return min(
            sit.open_objectives,
            key=lambda k: (0 if k in not_held else 1, sit.objective_distance(k), k),
        )

    @staticmethod
    def _destination_points(sit: Situation, kind: str) -> dict[tuple, tuple[float, float]]:
        """End points of the candidate destinations of a ``move`` or ``disengage``."""
        state = sit.state
        allowance = move_allowance(state, sit.i)
        if kind == "disengage":
            allowance *= state.rules.get("distances.disengage_move_factor")
        return {(d.kind, d.ref): d.point for d in state.destinations(sit.i, allowance)}

    # ------------------------------------------------------------------ spend
    def _choice(self, state: GameState, legal: Sequence[Decision]) -> tuple:
        """A resolution system's choice, by that system's Oracle rule for this profile."""
        session = state.pending[0]
        i = state.resolution.choice_model(session)
        profile = self.profile_for(state, i)
        options = [d.option for d in legal]
        option, rule, text = state.resolution.oracle_session_choice(session, options, profile.name)
        decision = next(d for d in legal if d.option == option)
        return decision, state.models[i].id, profile.name, rule, text

    def _spend(self, state: GameState, legal: Sequence[Decision]) -> tuple:
        roll, i, _context = state.pending
        chooser = chooser_of(state)
        model = state.models[chooser]
        profile = self.profile_for(state, chooser)
        # Another resolution system's choices (Luck, a Favourable die, helpers) follow the
        # system's own rule, which it explains; RIVEN's spends follow the profile's rules.
        choice = state.resolution.oracle_choice(
            roll,
            [d.option for d in legal if d.option is not None],
            ChoiceView(
                model=model.id,
                resources=dict(model.resources),
                momentum=state.momentum_of(model.side),
                strain=model.strain,
                strain_max=model.profile.strain_max(state.rules),
            ),
        )
        if choice is not None:
            picked = next((d for d in legal if d.option == choice.option), legal[0])
            return picked, model.id, profile.name, choice.rule, choice.text
        offered = {d.option for d in legal if d.option != ACCEPT.option}
        momentum = state.momentum_of(model.side) - roll.momentum_spent
        strain_max = model.profile.strain_max(state.rules)
        cost = state.rules.get("strain.spend_cost")
        for rule in profile.spend:
            if roll.result not in rule.on or not ("any" in rule.tests or roll.kind in rule.tests):
                continue
            option = None
            if rule.option == "reroll" and momentum >= rule.min_momentum:
                rerolls = [o for o in offered if o.startswith("reroll:")]
                if rerolls:
                    option = min(rerolls, key=lambda o: (roll.dice[int(o.split(":")[1])], o))
            elif rule.option == "boost" and momentum >= rule.min_momentum and "boost" in offered:
                option = "boost"
            elif rule.option == "strain" and "strain" in offered:
                after = model.strain + roll.strain_taken + cost
                if rule.allow_overflow or after <= strain_max - rule.strain_headroom:
                    option = "strain"
            if option is not None:
                text = (
                    f"{model.id}'s {roll.kind} test came up {roll.result.capitalize()}: "
                    f"{words.spend_rule_text(rule)}"
                )
                return Decision("spend", option=option), model.id, profile.name, rule.id, text
        text = f"{model.id}'s {roll.kind} test came up {roll.result.capitalize()}: no spend rule applies; it stands."
        return ACCEPT, model.id, profile.name, "spend:accept", text


def _listed(legal: Sequence[Decision], decision: Decision) -> Decision | None:
    """The listed decision equal to ``decision`` (the game finds its own objects fastest)."""
    # The game lists shared decision objects: most lookups end on identity, without the
    # field by field comparison of a dataclass.
    for d in legal:
        if d is decision:
            return d
    return next((d for d in legal if d == decision), None)


def _gap(a: Sequence[float], b: Sequence[float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


__all__ = ["OracleAgent"]


OracleAgent.core_acts.add(OracleAgent.act)
