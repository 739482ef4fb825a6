"""The Enemy Oracle on the native core: the same profiles, choices and explanations, in C++.

:class:`NativeOracleAgent` (agent spec ``native-oracle`` or ``native-oracle:PROFILE``) is an
:class:`~riven_agents.oracle.OracleAgent` whose decision procedure runs in the core
(``cpp/riven/oracle``). The profiles are loaded and validated in Python from the same TOML
(:mod:`riven_agents.oracle.profiles`) and converted field by field, once per game, into the
core's ``OracleGame`` (:func:`native_oracle_game`), every name resolved against that game's
vocabularies. The core returns the decision and the ids of its explanation (which branch fired,
the rule's position, the fallback roll, the target); :func:`explain` words them with the very
texts the Python Oracle uses (:mod:`riven_agents.oracle.compiled`, :mod:`riven_agents.oracle.words`),
so the ``oracle_decision`` event is identical.

What the core does not decide yet falls back to the Python Oracle, with the same result:

* the charge targets of a model that is not the active one and the end points of planned
  destinations need routing, which is not ported: the core asks the Python table through two
  callbacks (``charge_targets``, ``destinations``);
* a resolution system's choice phase (The Riddle of Steel keeps its Python records, which the
  native state refuses): the Python Oracle. Invictus's spends and New World's helpers and Luck
  (the defender's too) on a game the core plays are decided in the core by the system's own
  rule (``riven::rules::invictus::oracle_choice``, ``riven::rules::new_world::oracle_choice``,
  the ``system`` branch, worded by the system); on a Python state they are the Python Oracle's.

Randomness: the fallback table is rolled on the agent's own stream, carried into the core as
numpy's PCG64 state and brought back after the roll, so the native and Python Oracles draw the
same faces from the same seed.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riven_agents.oracle import vocabulary as vocab
from riven_agents.oracle import words
from riven_agents.oracle.compiled import CompiledProfile, Order, compiled
from riven_agents.oracle.dice import dice_for_rule, dice_words
from riven_agents.oracle.engine import OracleAgent
from riven_agents.oracle.profiles import Condition, OracleData, OracleDataError, OracleProfile

from riven_env.errors import AgentSpecError
from riven_env.game import Decision, GameState
from riven_env.game.actions import END
from riven_env.game.decisions import ACCEPT, PASS, PHASE_ACTION, PHASE_CHOICE, PHASE_SPEND
from riven_env.game.state import SIDES
from riven_env.rules import BANDS, action_specs
from riven_env.rules.odds import mettle_range
from riven_env.table import CONTACT_TOL, charge_targets

__all__ = [
    "BRANCHES",
    "NativeOracleAgent",
    "NativeOracleGame",
    "act_in_core",
    "core_game",
    "core_seat",
    "destination_points",
    "explain",
    "native_oracle_game",
]

#: The core's decision branches, by the number ``oracle_decide`` returns.
BRANCHES = (
    "pass_all_activated",
    "hold",
    "bonus",
    "dice",
    "priority",
    "fallback",
    "fallback_end",
    "spend",
    "accept",
    "unsupported",
    "system",
)
_UNSUPPORTED = BRANCHES.index("unsupported")
_DECISION_POINT_KINDS = 6  # riven::game::kDecisionPointKinds: an action's kind is 6 + its index
_LEADER = "leader"  # riven_agents.oracle.situation.LEADER_KEYWORD
_GAMES_LIMIT = 64


@dataclass(frozen=True)
class NativeOracleGame:
    """One game's Oracle in the core, and what words its explanations.

    Attributes:
        core: The core's ``OracleGame``.
        profiles: The Python profiles, by the core's profile index.
        plans: Their compiled forms (the card lines of every rule), by the same index.
    """

    core: Any
    profiles: tuple[OracleProfile, ...]
    plans: tuple[CompiledProfile, ...]


def _core() -> Any:
    from riven_env.native import load

    return load()


def _checks(native: Any, conditions: Sequence[Condition], static: Any) -> list[Any]:
    out = []
    for c in conditions:
        term = vocab.CONDITIONS[c.name]
        number, ident = 0.0, -1
        if term.arg == vocab.ARG_NUMBER:
            number = float(c.arg)  # type: ignore[arg-type]
        elif term.arg == vocab.ARG_CONDITION:
            ident = _index(static.conditions, str(c.arg), "Condition")
        elif term.arg == vocab.ARG_ACTION:
            ident = _index(static.actions, str(c.arg), "action")
        out.append(native.OracleCheck(c.name, number, ident, c.negated))
    return out


def _index(names: Sequence[str], name: str, what: str) -> int:
    try:
        return list(names).index(name)
    except ValueError:
        raise OracleDataError(
            f"Oracle profiles: {what} {name!r} is not in this game's rules data "
            f"(allowed: {', '.join(names)})"
        ) from None


def _order(native: Any, order: Order, static: Any) -> Any:
    action = order.action
    kind = _DECISION_POINT_KINDS + _index(static.actions, action.kind, "action")
    destination = -1
    if action.destination is not None:
        destination = _index(static.destination_kinds, action.destination, "destination kind")
    return native.OracleOrder(
        kind,
        action.kind == END.kind,
        destination,
        action.destination == "toward_objective",
        order.side,
        order.selector or "",
    )


def _profile(native: Any, plan: CompiledProfile, state: GameState, tables: dict) -> Any:
    profile = plan.profile
    out = native.OracleProfile()
    out.activation_order = list(profile.activation_order)
    out.hold_when = _checks(native, profile.hold_when, tables["static"])
    out.has_bonus = profile.bonus is not None
    if profile.bonus is not None:
        out.bonus_min_momentum = profile.bonus.min_momentum
        out.bonus_when = _checks(native, profile.bonus.when, tables["static"])
    dice = []
    for rule in profile.dice:
        entry = native.OracleDiceRule()
        entry.checks = _checks(native, rule.when, tables["static"])
        if rule.dice is not None:
            entry.dice = rule.dice
        else:
            entry.dice = -1
            entry.choices = _policy_table(rule, tables, state)
        dice.append(entry)
    out.dice = dice
    priorities = []
    for line in plan.priorities:
        entry = native.OracleRule()
        entry.checks = _checks(native, line.rule.when, tables["static"])
        entry.order = _order(native, line.order, tables["static"])
        priorities.append(entry)
    out.priorities = priorities
    out.fallback = [_order(native, order, tables["static"]) for order in plan.fallback]
    spends = []
    for rule in profile.spend:
        entry = native.OracleSpendRule()
        entry.option = rule.option
        entry.on = sum(1 << BANDS.index(band) for band in rule.on)
        entry.any_test = "any" in rule.tests
        entry.tests = [t for t in rule.tests if t != "any"]
        entry.min_momentum = rule.min_momentum
        entry.strain_headroom = rule.strain_headroom
        entry.allow_overflow = rule.allow_overflow
        spends.append(entry)
    out.spend = spends
    return out


def _words(native: Any, plan: CompiledProfile) -> Any:
    """The card lines the core words its explanations with (:func:`explain`'s, by rule position)."""
    profile = plan.profile
    out = native.OracleProfileWords()
    out.name = profile.name
    out.order = ", ".join(profile.activation_order)
    out.bonus = plan.bonus_text
    out.dice = [d.text for d in plan.dice]
    out.priority_ids = [line.rule.id for line in plan.priorities]
    out.priorities = [line.text for line in plan.priorities]
    out.fallback = list(plan.fallback_texts)
    out.spend_ids = [rule.id for rule in profile.spend]
    out.spends = [words.spend_rule_text(rule) for rule in profile.spend]
    return out


def _policy_table(rule: Any, tables: dict, state: GameState) -> list[int]:
    """A dice policy's choice for every Mettle and every set of offered dice (dice.py's odds)."""
    max_dice, low, count = tables["max_dice"], tables["mettle_low"], tables["mettle_count"]
    out = []
    for mettle in range(low, low + count):
        for mask in range(1 << max_dice):
            offered = [n for n in range(1, max_dice + 1) if mask & (1 << (n - 1))]
            out.append(dice_for_rule(rule, mettle, offered, state.rules) if offered else -1)
    return out


def _profile_index(agent: OracleAgent, state: GameState, i: int | None, side: str | None) -> Any:
    """The profile of model ``i`` (or the side's), or None when its name is not in the data."""
    try:
        if i is not None:
            return agent.profile_for(state, i)
        return agent.side_profile(state, side)  # type: ignore[arg-type]
    except OracleDataError:
        return None  # the core declines; the Python Oracle raises the error when it is asked


def native_oracle_game(agent: OracleAgent, state: GameState) -> NativeOracleGame:
    """The core's Oracle for ``agent`` playing ``state``'s game (profiles resolved for that game).

    Raises:
        NativeUnavailableError: The core is not built.
        OracleDataError: A profile names an action, Condition or destination the game lacks.
    """
    from riven_env.native.game import native_static
    from riven_env.native.rules import native_weapon

    native = _core()
    static = native_static(state)
    rules = state.rules
    mettles = [m.profile.mettle for m in state.models]
    allowed = list(mettle_range(rules))
    low = min([*mettles, *allowed])
    high = max([*mettles, *allowed])
    tables = {
        "static": static,
        "max_dice": int(rules.get("activation.max_dice")),
        "mettle_low": low,
        "mettle_count": high - low + 1,
    }
    profiles: list[OracleProfile] = []
    index: dict[int, int] = {}

    def add(profile: OracleProfile | None) -> int:
        if profile is None:
            return -1
        found = index.get(id(profile))
        if found is None:
            found = index[id(profile)] = len(profiles)
            profiles.append(profile)
        return found

    model_profile = [add(_profile_index(agent, state, i, None)) for i in range(len(state.models))]
    side_profile = [add(_profile_index(agent, state, None, side)) for side in SIDES]
    plans = tuple(compiled(p) for p in profiles)
    out = native.OracleGame()
    out.profiles = [_profile(native, plan, state, tables) for plan in plans]
    out.model_profile = model_profile
    out.side_profile = side_profile
    out.ranged = [native_weapon(m.profile.ranged) for m in state.models]
    out.leader = [1 if _LEADER in m.profile.keywords else 0 for m in state.models]
    out.strain_max = [m.profile.strain_max(rules) for m in state.models]
    specs = action_specs(rules)
    removes = specs["rally"].removes if "rally" in specs else frozenset()
    out.rally_removes = [1 if name in removes else 0 for name in static.conditions]
    out.mettle_low = low
    out.mettle_count = high - low + 1
    out.max_dice = tables["max_dice"]
    out.contact_tolerance = float(CONTACT_TOL)
    out.charge_reach_factor = float(rules.get("distances.charge_reach_factor"))
    out.disengage_move_factor = float(rules.get("distances.disengage_move_factor"))
    out.stabilise_range = float(rules.get("distances.stabilise_range"))
    out.rally_range = float(rules.get("distances.rally_range"))
    out.spend_cost = int(rules.get("strain.spend_cost"))
    actions = list(static.actions)
    for name in ("charge", "shoot", "stabilise", "rally", "interact", "end", "disengage"):
        kind = _DECISION_POINT_KINDS + actions.index(name) if name in actions else -1
        setattr(out, f"kind_{name}", kind)
    out.words = [_words(native, plan) for plan in plans]
    out.dice_words = [
        dice_words(mettle, dice, rules) if dice > 0 else ""
        for mettle in range(low, high + 1)
        for dice in range(tables["max_dice"] + 1)
    ]
    try:
        out.validate(static)
    except ValueError as error:
        raise OracleDataError(
            f"native Oracle for scenario {state.scenario.name!r}: {error}"
        ) from None
    return NativeOracleGame(out, tuple(profiles), plans)


def explain(
    game: NativeOracleGame, state: GameState, legal: Sequence[Decision], found: tuple
) -> tuple[Decision, dict[str, Any]]:
    """The decision and the ``oracle_decision`` explanation of the core's answer ``found``.

    The same words as :meth:`OracleAgent.act` (``agents/oracle/engine.py``), from the compiled
    card lines of the profile that decided.
    """
    branch, index, native_decision, model_index, p, rule, roll, target, dice, _reason = found
    name = BRANCHES[branch]
    if index >= 0:
        decision = legal[index]
    elif name in ("pass_all_activated", "hold"):
        decision = PASS
    elif name == "fallback_end":
        decision = END
    elif name == "accept":
        decision = ACCEPT
    else:  # a spend the profile chose
        decision = Decision("spend", option=state_options(state)[native_decision.option])
    profile = game.profiles[p]
    plan = game.plans[p]
    model = state.models[model_index].id if model_index >= 0 else None
    chosen = f" Target: {state.models[target].id}." if target >= 0 else ""
    if name == "pass_all_activated":
        rule_id, text = "pass:all_activated", "Every model has activated: the side passes."
    elif name == "hold":
        eligible = sorted({d.model for d in legal if d.kind == "activate"})
        held = ", ".join(state.models[i].id for i in eligible)
        rule_id = "hold"
        text = f"Every model left to activate holds its ground ({held}): the side passes."
    elif name in ("bonus", "dice"):
        side_game = _side_order(game, state)
        order_words = ", ".join(side_game)
        head = f"Activates {model}, first by the activation order ({order_words}). "
        if name == "bonus":
            rule_id, text = "bonus", head + plan.bonus_text
        else:
            mettle = state.models[model_index].profile.mettle
            why = dice_words(mettle, dice, state.rules)
            rule_id = f"dice:{rule + 1}"
            text = f"{head}Dice rule {rule + 1}: {plan.dice[rule].text} -> {dice} ({why})."
    elif name == "priority":
        line = plan.priorities[rule]
        rule_id = line.rule.id
        text = f"{model}, rule {rule + 1} ({rule_id}): {line.text}{chosen}"
    elif name in ("fallback", "fallback_end"):
        faces = len(profile.fallback)
        what = plan.fallback_texts[roll - 1]
        if name == "fallback":
            rule_id = f"d6:{roll}"
            text = f"{model}: no priority applies; the d{faces} rolled {roll}: {what}.{chosen}"
        else:
            rule_id = "end:no_action"
            text = (
                f"{model}: no priority applies; the d{faces} rolled {roll} ({what}), "
                "which it cannot do now: it ends its activation."
            )
    else:  # spend or accept
        test = state.pending[0]
        head = f"{model}'s {test.kind} test came up {test.result.capitalize()}: "
        if name == "spend":
            spend_rule = profile.spend[rule]
            rule_id, text = spend_rule.id, head + words.spend_rule_text(spend_rule)
        else:
            rule_id, text = "spend:accept", head + "no spend rule applies; it stands."
    return decision, {
        "model": model,
        "profile": profile.name,
        "rule": rule_id,
        "decision": str(decision),
        "explanation": text,
    }


def state_options(state: GameState) -> list[str]:
    """The decision options of ``state``'s game as the core numbers them."""
    from riven_env.native.game import native_static

    return list(native_static(state).options)


def _side_order(game: NativeOracleGame, state: GameState) -> tuple[str, ...]:
    """The activation order keys of the profile ordering the deciding side."""
    core = game.core
    p = core.side_profile[SIDES.index(state.current_side)]
    return game.profiles[p].activation_order


class NativeOracleAgent(OracleAgent):
    """The Enemy Oracle with its decision procedure in the native core.

    The same arguments, choices and explanations as :class:`OracleAgent`; points the core does
    not decide (a resolution system's choice phase, another system's spends) are decided by the
    Python Oracle (see the module docstring).

    Raises:
        AgentSpecError: The native core is not built in this installation, or ``profile`` is
            not a profile of the data.
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
        from riven_env.native import NativeUnavailableError

        try:
            self.native = _core()
        except NativeUnavailableError as error:
            raise AgentSpecError(f"agent {name!r} needs the native core: {error}") from None
        super().__init__(name, side, seed, profile, data=data, profiles_path=profiles_path)
        self._decisions: tuple[Any, dict[Decision, Any]] = (None, {})
        #: Decisions the Python Oracle made since construction, by reason (see the docstring).
        self.python_fallbacks: dict[str, int] = {}

    def native_game(self, state: GameState) -> NativeOracleGame:
        """The core's Oracle for ``state``'s game (built on first use, then remembered)."""
        return _remembered(self, state)

    def _native_decisions(self, static: Any, legal: Sequence[Decision], convert: Any) -> list[Any]:
        """The core's decisions for ``legal`` (remembered per game: a game lists few distinct ones)."""
        if self._decisions[0] is not static:
            self._decisions = (static, {})
        memo = self._decisions[1]
        out = []
        for d in legal:
            found = memo.get(d)
            if found is None:
                found = memo[d] = convert(d, static)
            out.append(found)
        return out

    def _python(self, state: GameState, legal: Sequence[Decision], reason: str) -> Decision:
        self.python_fallbacks[reason] = self.python_fallbacks.get(reason, 0) + 1
        return super().act(state, legal)

    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        """Choose as :meth:`OracleAgent.act` does, in the core; record why in ``last_explanation``."""
        from riven_env.native.encoding import native_decision
        from riven_env.native.game import NativeStateError, native_static, to_native
        from riven_env.native.random import native_stream, numpy_state
        from riven_env.native.rules import native_rules
        from riven_env.native.table import native_table

        if getattr(state, "in_core", False):  # a NativeGameState: decide on the core's own state
            found = act_in_core(self, state, legal)
            if isinstance(found, str):
                return self._python(state, legal, found)
            decision, self.last_explanation = found
            return decision
        if state.phase == PHASE_CHOICE:
            return self._python(state, legal, "choice phase")
        if state.phase == PHASE_SPEND and state.rules.get("meta.resolution") != "riven":
            return self._python(state, legal, "another resolution system's spends")
        try:
            native_state = to_native(state)
        except NativeStateError:
            return self._python(state, legal, "state the core cannot hold")
        game = self.native_game(state)
        static = native_static(state)
        table = native_table(state.table)
        for radius in state.bases.radii.tolist():
            table.ensure_radius(radius)
        stream = native_stream(self.rng) if state.phase == PHASE_ACTION else _IDLE_STREAM.get()
        found = self.native.oracle_decide(
            game.core,
            native_state,
            table.core,
            native_rules(state.rules),
            self._native_decisions(static, legal, native_decision),
            stream,
            lambda i, reach, near: charge_targets(state.table, state.bases, i, reach, near),
            lambda i, allowance: destination_points(state, static, i, allowance),
        )
        if found[0] == _UNSUPPORTED:
            return self._python(state, legal, found[-1])
        if found[6] > 0:  # a fallback face was rolled: the agent's stream moved on
            self.rng.bit_generator.state = numpy_state(stream)
        decision, self.last_explanation = explain(game, state, legal, found)
        return decision


#: The core's Oracles by (profiles data, forced profile, scenario, rules, table): one game's
#: OracleGame depends on nothing else, and the core only reads it, so the agents of every game
#: of a mission (a playtest builds two per game) share it instead of converting the profiles
#: (and tabling the dice policies) again.
_SHARED: dict[tuple[int, str | None, int, int, int], tuple[Any, Any, NativeOracleGame]] = {}


def _remembered(agent: OracleAgent, state: Any) -> NativeOracleGame:
    """``agent``'s Oracle in the core for ``state``'s game (a Python state), remembered per game."""
    key = (id(agent.data), agent.forced, id(state.scenario), id(state.rules), id(state.table))
    found = _SHARED.get(key)
    if found is not None and found[0]() is state.scenario and found[1]() is agent.data:
        return found[2]
    game = native_oracle_game(agent, state)
    if len(_SHARED) >= _GAMES_LIMIT:
        _SHARED.clear()
    _SHARED[key] = (weakref.ref(state.scenario), weakref.ref(agent.data), game)
    return game


def core_game(agent: OracleAgent, state: Any) -> NativeOracleGame:
    """``agent``'s Oracle in the core for the game of ``state``, a NativeGameState.

    Built from the Python state the native game started from (its models' profiles and Oracle
    names never change), so no position is exported.
    """
    return _remembered(agent, state.start_state)


def act_in_core(
    agent: OracleAgent, state: Any, legal: Sequence[Decision]
) -> tuple[Decision, dict[str, Any]] | str:
    """:meth:`OracleAgent.act` decided in the core on a NativeGameState, explanation included.

    Returns:
        The decision and its ``last_explanation``, or why the core left this point to the
        Python Oracle (a reason in words).
    """
    from riven_env.native.game import PHASES
    from riven_env.native.random import native_stream, numpy_state

    native_legal = state.core_legal(legal)
    if native_legal is None:
        return "legal decisions that are not the position's own list"
    if not state.model.native_planner:
        return "a game routed by the Python planner"
    game = core_game(agent, state)
    in_action = PHASES[state.native.phase] == PHASE_ACTION
    stream = native_stream(agent.rng) if in_action else _IDLE_STREAM.get()
    branch, index, native_decision, model, profile, rule, label, text, reason = (
        _core().oracle_decide_loop(state.model, state.native, game.core, native_legal, stream)
    )
    name = BRANCHES[branch]
    if name == "unsupported":
        return reason
    if name in ("fallback", "fallback_end"):  # a face was rolled: the agent's stream moved on
        agent.rng.bit_generator.state = numpy_state(stream)
    decision = _decision_of(name, index, native_decision, legal, state.native.statics)
    return decision, {
        "model": model,
        "profile": profile,
        "rule": rule,
        "decision": label,
        "explanation": text,
    }


def _decision_of(
    name: str, index: int, native_decision: Any, legal: Sequence[Decision], static: Any
) -> Decision:
    """The Python decision of the core's choice (as :func:`explain` picks it)."""
    if index >= 0:
        return legal[index]
    if name in ("pass_all_activated", "hold"):
        return PASS
    if name == "fallback_end":
        return END
    if name == "accept":
        return ACCEPT
    return Decision("spend", option=list(static.options)[native_decision.option])


def core_seat(agent: OracleAgent, state: Any) -> tuple[Any, Any] | None:
    """The seat of ``agent`` in a game played wholly in the core (``play_seats``), or None.

    None when the game cannot be decided there (not a NativeGameState, routes planned by the
    Python planner, a profile name the data lacks: the Python Oracle raises its error). The
    seat is the core's ``OracleGame`` and the agent's own stream as the core's PCG64; hand the
    stream back with :func:`seat_done`.
    """
    from riven_env.native.random import native_stream

    if not getattr(state, "in_core", False) or not state.model.native_planner:
        return None
    game = core_game(agent, state)
    core = game.core
    if min(core.model_profile, default=0) < 0 or min(core.side_profile) < 0:
        return None
    return core, native_stream(agent.rng)


OracleAgent.core_acts.add(NativeOracleAgent.act)


def destination_points(
    state: GameState, static: Any, i: int, allowance: float
) -> list[tuple[int, int, float, float]]:
    """``state.destinations(i, allowance)`` as ``(kind id, ref or -1, x, y)`` for the core."""
    kinds = list(static.destination_kinds)
    return [
        (
            kinds.index(d.kind),
            -1 if d.ref is None else int(d.ref),
            float(d.point[0]),
            float(d.point[1]),
        )
        for d in state.destinations(i, allowance)
    ]


class _IdleStream:
    """A stream for decision points that never roll (activation and spends), made once."""

    def __init__(self) -> None:
        self._stream: Any = None

    def get(self) -> Any:
        if self._stream is None:
            import numpy as np

            from riven_env.native.random import native_stream

            self._stream = native_stream(np.random.default_rng(0))
        return self._stream


_IDLE_STREAM = _IdleStream()
