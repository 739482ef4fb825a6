"""The expert agent: closed-loop search over whole activations with Oracle rollouts.

Spec ``expert`` (the default budget of ``data/expert.toml``) or ``expert:BUDGET``
(simulations per searched decision). It works only through the game protocol
(``legal_decisions``, ``apply``, ``copy``/``view``), so it runs on any engine that offers it.

* **Trivial decisions take no search.** A single legal decision is returned at once. Spends
  (rerolls, boosts, Strain) and another resolution system's choices follow the spend rules
  of an Oracle profile (``rules.spend_profile``). The number of activation dice follows the
  exact odds (:func:`riven_agents.oracle.dice.dice_for_rule`, policy ``value`` with
  ``rules.turnover_cost``; for the side's last model to activate, a turnover costs nothing
  more, so the most expected actions win). So an activate decision is searched as "which
  model" (or a bonus action, or pass), never as "how many dice".
* **Search over the activation (macro step).** The tree holds the searching side's own
  decisions from the root to the end of the activation it starts: which model, then its
  moves, shots, charges and other actions, one decision node per information set. RIVEN
  v0.1 hides nothing but the future dice, so an information set is the public state; each
  simulation plays on a fresh view of the game (``state.view(side, seed)``: the future dice
  re-sampled), and after a decision the simulation goes to the child node of the state the
  dice produced (a chance node with one child per outcome seen): the tree is closed loop.
  Spends inside the tree are made by the rule above.
* **Progressive widening.** A node's candidates are ordered by a prior (the rollout
  Oracle's own choice first, then by kind as ``prior.order`` lists them) and opened one by
  one: a node visited ``n`` times may hold ``ceil(base + scale * n ^ exponent)`` children.
  Moves (a dozen destinations per model) are mostly never opened unless the search needs them.
* **Selection:** UCB1 on the mean value (``search.exploration``).
* **Leaves:** past the activation (or ``search.max_tree_depth`` decisions) both sides play
  on with the Enemy Oracle (``rollout.self_profile`` / ``rollout.enemy_profile``) for
  ``rollout.decisions`` decisions, then :func:`riven_agents.evaluation.evaluate` values the
  state (material, Down/Out, points, objectives; exact at the game's end) with the weights
  of ``[evaluation]``.
* **Choice:** the most visited root child (ties: the higher mean, then the prior order).

On a native game (``engine="native"``) the same search runs with no Python view of a position:
the rollouts are played in the core (:func:`riven_env.native.play.rollout_in_core`), the leaves
valued there (:func:`~riven_agents.evaluation.weighted_total` dispatches to the core) and the
information sets keyed there (``NativeGameState.signature``); the decisions, the streams and
the game are the Python engine's (tests/test_expert.py).

Deterministic for a seed: every random draw (view seeds, the rollout Oracles' d6 tables)
comes from the agent's own stream. :attr:`ExpertAgent.stats` counts decisions, searched
decisions, simulations and seconds, for the cost per decision that ``riven play`` prints
and ``riven bench`` measures.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from riven_agents.base import BaseAgent, step_quietly
from riven_agents.evaluation import evaluate, weighted_total
from riven_agents.expert_settings import (
    MIXTURE_PROFILE,
    SCENARIO_PROFILE,
    ExpertSettings,
    load_settings,
)
from riven_agents.oracle import OracleAgent
from riven_agents.oracle.dice import dice_for_rule
from riven_agents.oracle.profiles import DiceRule

from riven_env.errors import AgentSpecError
from riven_env.files import limit
from riven_env.game import Decision, GameState
from riven_env.game.decisions import PHASE_ACTION, PHASE_ACTIVATE

SEED_BOUND = 2**63


@dataclass
class _Edge:
    """A decision of a node: its statistics and its children by chance outcome."""

    visits: int = 0
    value: float = 0.0
    children: dict[Any, _Node] = field(default_factory=dict)

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


@dataclass
class _Node:
    """An information set of the searching side: its candidates (in prior order) and edges."""

    candidates: list[Decision]
    visits: int = 0
    edges: dict[Decision, _Edge] = field(default_factory=dict)


@dataclass
class SearchStats:
    """What the agent spent: decisions asked, decisions searched, simulations, seconds."""

    decisions: int = 0
    searched: int = 0
    simulations: int = 0
    reused: int = 0
    seconds: float = 0.0

    def per_decision_ms(self) -> float:
        return 1000.0 * self.seconds / self.decisions if self.decisions else 0.0

    def summary(self) -> str:
        """One line: decisions, searched share, simulations and time per decision."""
        rate = self.decisions / self.seconds if self.seconds > 0 else float("inf")
        sims = self.simulations / self.searched if self.searched else 0.0
        return (
            f"{self.decisions} decisions ({self.searched} searched, {sims:.1f} simulations "
            f"each, {self.reused} kept from earlier searches), {self.per_decision_ms():.1f} ms "
            f"per decision, {rate:.1f} decisions/s"
        )


def parse_budget(value: str | int | None, default: int) -> int:
    """The simulation budget from an agent spec argument (``"expert:32"`` -> 32).

    Raises:
        AgentSpecError: Not a whole number >= 1 (or above ``agents.max_mcts_simulations``).
    """
    if value is None:
        return default
    text = str(value).strip()
    most = int(limit("agents.max_mcts_simulations"))
    number = int(text) if text.isdigit() else 0
    if number < 1 or number > most:
        raise AgentSpecError(
            f"expert budget must be a whole number >= 1 and <= {most} simulations per "
            f"decision (as in expert:24), got {value!r} "
            f"(agents.max_mcts_simulations in riven_env/data/limits.toml)"
        )
    return number


def signature(state: GameState) -> Any:
    """A hashable key of the public state: the information set of the side to move.

    An engine may provide its own ``state.signature()``; otherwise it is read from the
    Python engine's fields (positions, model states, Momentum, points, phase).
    """
    own = getattr(state, "signature", None)
    if callable(own):
        return own()
    return (
        state.phase,
        state.side,
        state.active_model,
        state.actions_left,
        state.turn_passes_after,
        tuple(state.taken_actions),
        state.bases.centers.tobytes(),
        state.bases.on_table.tobytes(),
        tuple(
            (
                m.status,
                m.wounds,
                m.strain,
                m.stable,
                m.activated,
                m.rested,  # Rest's bans of the side-turn change the legal actions
                m.moved_or_attacked,
                tuple(m.conditions),
            )
            for m in state.models
        ),
        tuple(sorted(state.momentum.items())),
        tuple(sorted(state.points.items())),
    )


class ExpertAgent(BaseAgent):
    """Closed-loop activation search with progressive widening and Oracle rollouts.

    Args:
        name: The agent spec (``"expert"`` or ``"expert:BUDGET"``).
        side: The side it plays.
        seed: Seed of its private stream.
        budget: Simulations per searched decision (a number or the text after ``expert:``;
            default ``search.simulations`` of the settings).
        settings: Settings to use (default: loaded from ``settings_path``).
        settings_path: A settings TOML file (default: the bundled ``data/expert.toml``).

    Raises:
        AgentSpecError: ``budget`` is not a whole number >= 1.
        ExpertDataError: The settings file holds a bad value.
    """

    def __init__(
        self,
        name: str,
        side: str,
        seed: int | Sequence[int] | None = None,
        budget: str | int | None = None,
        *,
        settings: ExpertSettings | None = None,
        settings_path: str | Path | None = None,
    ) -> None:
        super().__init__(name, side, seed)
        self.settings = settings if settings is not None else load_settings(settings_path)
        self.budget = parse_budget(budget, self.settings.simulations)
        self.stats = SearchStats()
        seeds = self.rng.integers(0, SEED_BOUND, size=3)
        s = self.settings
        # The spend rules, and the rollout policies of both sides, are Oracle agents on
        # streams of their own drawn from this agent's seed.
        self._rule = OracleAgent("oracle", side, int(seeds[0]), profile=s.spend_profile)
        enemy = "red" if side == "blue" else "blue"
        self._mixture = s.enemy_mixture if s.enemy_profile == MIXTURE_PROFILE else ()
        enemy_profile = self._mixture[0] if self._mixture else s.enemy_profile
        self._rollout = {
            who: OracleAgent("oracle", who, int(seeds[1 + k]), profile=_forced(profile))
            for k, (who, profile) in enumerate(((side, s.self_profile), (enemy, enemy_profile)))
        }
        self._enemy = enemy
        self._rank = {kind: k for k, kind in enumerate(s.prior_order)}
        # The subtree kept for the next decision of the same activation (search.reuse_tree):
        # the chosen root edge's children, by the signature of the state the dice produced.
        self._kept: dict[Any, _Node] = {}
        # Per search: the root's weighted total (value.baseline) and the lowest and highest
        # value backed up so far (value.normalise).
        self._baseline = 0.0
        self._bounds = [math.inf, -math.inf]
        # The root of the last search (its edges' visits and values), for diagnostics.
        self.last_root: _Node | None = None

    # ------------------------------------------------------------------ the agent
    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        """Return a legal decision: by rule when trivial, else by search (never mutates ``state``)."""
        start = time.perf_counter()
        self.stats.decisions += 1
        try:
            if len(legal) == 1:
                return legal[0]
            if state.phase not in (PHASE_ACTIVATE, PHASE_ACTION):
                return self._rule.act(state, legal)
            candidates = self._candidates(state, legal)
            if len(candidates) == 1:
                return candidates[0]
            self.stats.searched += 1
            return self._search(state, candidates)
        finally:
            self.stats.seconds += time.perf_counter() - start

    # ------------------------------------------------------------------ candidates
    def _candidates(self, state: GameState, legal: Sequence[Decision]) -> list[Decision]:
        """The decisions worth searching, in prior order (dice counts fixed by rule)."""
        if state.phase == PHASE_ACTIVATE:
            legal = self._activation_choices(state, legal)
        suggested = self._policy(state.current_side).act(state, list(legal))
        if state.phase == PHASE_ACTIVATE and suggested.kind == "activate":
            # The Oracle picks the model; the dice are this agent's rule's.
            suggested = next(
                (d for d in legal if d.kind == "activate" and d.model == suggested.model),
                suggested,
            )
        if suggested not in legal:
            suggested = legal[0]
        rest = sorted(
            (d for d in legal if d != suggested),
            key=lambda d: self._rank.get(_kind_key(d), len(self._rank)),
        )
        return [suggested, *rest]

    def _activation_choices(self, state: GameState, legal: Sequence[Decision]) -> list[Decision]:
        """One activate decision per model (its dice by the odds rule), bonuses and pass."""
        # The models' profiles and the rules never change in a game: a native game reads them
        # from the Python state it started from (no view of the position is built).
        static = state.start_state if getattr(state, "in_core", False) else state
        offers: dict[int, list[int]] = {}
        for d in legal:
            if d.kind == "activate":
                offers.setdefault(d.model, []).append(d.dice)
        last = len(offers) <= 1
        rule = DiceRule(
            when=(),
            dice=None,
            policy="max_expected_actions" if last else "value",
            turnover_cost=self.settings.turnover_cost,
        )
        chosen: list[Decision] = []
        for d in legal:
            if d.kind != "activate":
                chosen.append(d)
                continue
            mettle = static.models[d.model].profile.mettle
            if d.dice == dice_for_rule(rule, mettle, sorted(offers[d.model]), static.rules):
                chosen.append(d)
        return chosen

    def _policy(self, side: str | None) -> OracleAgent:
        """The rollout Oracle of ``side``."""
        return self._rollout[self.side if side == self.side else self._enemy]

    # ------------------------------------------------------------------ search
    def _search(self, state: GameState, candidates: list[Decision]) -> Decision:
        root_side = state.current_side
        root = self._kept.get(signature(state)) if state.phase == PHASE_ACTION else None
        if root is None or set(root.candidates) != set(candidates):
            root = _Node(candidates)
        else:
            self.stats.reused += root.visits
        scope = state.active_model if state.phase == PHASE_ACTION else None
        # Common random numbers: the k-th simulation of every root decision plays on the same
        # dice seed (and, with a mixture, the same enemy profile), so that root decisions are
        # compared on the same luck.
        seeds = [int(x) for x in self.rng.integers(0, SEED_BOUND, size=self.budget)]
        enemies = (
            [self._mixture[int(k)] for k in self.rng.integers(0, len(self._mixture), self.budget)]
            if self._mixture
            else []
        )
        # value.baseline = "root": leaves are valued by what they change from the root's
        # standing, so that a side far behind (or ahead) still tells its options apart.
        self._baseline = (
            weighted_total(state, root_side, self.settings.evaluation)
            if self.settings.value_baseline == "root"
            else 0.0
        )
        self._bounds = [math.inf, -math.inf]
        for _ in range(self.budget):
            self._simulate(state, root, root_side, scope, seeds, enemies)
            self.stats.simulations += 1
        best = self._best(root)
        self.last_root = root
        self._kept = root.edges[best].children if self.settings.reuse_tree else {}
        return best

    def _simulate(
        self,
        state: GameState,
        root: _Node,
        side: str,
        scope: int | None,
        seeds: list[int],
        enemies: list[str],
    ) -> None:
        sample: GameState | None = None
        node: _Node | None = root
        path: list[tuple[_Node, _Edge]] = []
        depth = 0
        while node is not None:
            decision = self._select(node)
            edge = node.edges.get(decision)
            if edge is None:
                edge = node.edges[decision] = _Edge()
            if sample is None:  # the root: its decision's next seed (a fresh view of the dice)
                k = edge.visits % len(seeds)
                sample = state.view(side, seeds[k])
                if enemies:
                    self._rollout[self._enemy].forced = enemies[k]
            path.append((node, edge))
            step_quietly(sample, decision)
            depth += 1
            if decision.kind == "activate" or decision.kind == "bonus":
                scope = decision.model
            self._play_rules(sample, side)
            node = None
            if (
                depth < self.settings.max_tree_depth
                and not sample.is_terminal
                and sample.current_side == side
                and sample.phase == PHASE_ACTION
                and sample.active_model == scope
            ):
                legal = sample.legal_decisions()
                key = signature(sample)
                node = edge.children.get(key)
                if node is None:
                    node = edge.children[key] = _Node(self._candidates(sample, legal))
        value = self._rollout_value(sample, side)
        self._bounds[0] = min(self._bounds[0], value)
        self._bounds[1] = max(self._bounds[1], value)
        for visited, taken in path:
            visited.visits += 1
            taken.visits += 1
            taken.value += value

    def _select(self, node: _Node) -> Decision:
        s = self.settings
        width = math.ceil(s.widening_base + s.widening_scale * node.visits**s.widening_exponent)
        opened = node.candidates[: max(1, width)]
        for decision in opened:  # an unvisited opened child first, in prior order
            if decision not in node.edges:
                return decision
        log_visits = math.log(max(1, node.visits))
        low, high = self._bounds
        # value.normalise: the means are rescaled to [0, 1] over the values this search has
        # seen (as MuZero does), so that the exploration constant keeps its meaning however
        # narrow the spread of the values is; without it they are used as they are, in [-1, 1].
        spread = high - low if s.normalise_values and high > low else 0.0
        best, best_score = opened[0], -math.inf
        for decision in opened:
            edge = node.edges[decision]
            mean = (edge.mean() - low) / spread if spread else edge.mean()
            score = mean + s.exploration * math.sqrt(log_visits / max(1, edge.visits))
            if score > best_score:
                best, best_score = decision, score
        return best

    def _play_rules(self, sample: GameState, side: str) -> None:
        """Make the spends and choices of ``side`` in ``sample`` by the rule, until a real decision."""
        while not sample.is_terminal and sample.current_side == side:
            if sample.phase in (PHASE_ACTIVATE, PHASE_ACTION):
                return
            legal = sample.legal_decisions()
            step_quietly(sample, legal[0] if len(legal) == 1 else self._rule.act(sample, legal))

    def _rollout_value(self, sample: GameState, side: str) -> float:
        left = self.settings.rollout_decisions
        if getattr(sample, "in_core", False) and left > 0:
            # A native game: the rollout Oracles take their seats in the core and play it in one
            # call (riven_env/native/play.py rollout_in_core), the same decisions and streams as
            # the loop below; a point the core leaves to Python is played on by the loop.
            from riven_env.native.play import rollout_in_core

            found = rollout_in_core(sample, self._rollout, left)
            if found is not None:
                left -= found[0]
        for _ in range(left):
            if sample.is_terminal:
                break
            legal = sample.legal_decisions()
            mover = sample.current_side
            choice = legal[0] if len(legal) == 1 else self._policy(mover).act(sample, legal)
            step_quietly(sample, choice)
        weights = self.settings.evaluation
        if sample.is_terminal or self.settings.value_baseline == "none":
            return evaluate(sample, side, weights)
        total = weighted_total(sample, side, weights) - self._baseline
        # Strictly inside the exact results of finished games, as evaluate() keeps it.
        return max(-0.999, min(0.999, math.tanh(weights.scale * total)))

    def _best(self, root: _Node) -> Decision:
        ranked = [
            (edge.visits, edge.mean(), -k, d)
            for k, d in enumerate(root.candidates)
            if (edge := root.edges.get(d)) is not None
        ]
        return max(ranked, key=lambda r: r[:3])[3]


def _forced(profile: str) -> str | None:
    """The ``OracleAgent`` profile argument for a rollout profile setting."""
    return None if profile == SCENARIO_PROFILE else profile


def _kind_key(decision: Decision) -> str:
    """The name of ``decision`` in ``prior.order`` (``move:KIND`` for a move)."""
    if decision.kind == "move" and decision.destination is not None:
        return f"move:{decision.destination[0]}"
    return decision.kind


__all__ = ["ExpertAgent", "SearchStats", "parse_budget", "signature"]
