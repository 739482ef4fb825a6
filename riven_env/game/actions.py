"""The action list in play: which actions are legal for a model, and what each one does.

Costs, ranges and tests come from the ``[actions.*]`` tables of the rules data; the
geometry comes from :mod:`riven_env.table`. A 2d6 test goes through the spend phase
(Momentum rerolls and boosts, Strain) when the acting side could change its result;
:func:`apply_spend_decision` then finalises it and :func:`_resolve_test` applies it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from riven_env.game import choices, effects, victory
from riven_env.game.decisions import (
    ACCEPT,
    ALLOCATE,
    PHASE_ACTION,
    PHASE_SPEND,
    Decision,
    shared_decision,
)
from riven_env.rules import RulesConfig, melee, shooting, tests_2d6
from riven_env.rules.actions import action_spec, action_specs, excluded_by
from riven_env.rules.conditions import conditions_removed_by
from riven_env.rules.profiles import unarmed_weapon
from riven_env.rules.resolution import Combatant, RollContext
from riven_env.rules.results import MeleeResult, Modifier
from riven_env.table import (
    MovePlan,
    candidate_destinations,
    charge_targets,
    contacts,
    destination_options,
    plan_charge,
    plan_destination,
    sight,
)

if TYPE_CHECKING:
    from riven_env.game.state_data import StateData

END = Decision("end")
ATTACKS = frozenset({"charge", "melee", "shoot"})
MOVES = frozenset({"move", "charge", "disengage"})
# Destination kinds a disengaging model may take: directions that do not close on the enemy.
DISENGAGE_KINDS = frozenset({"away", "cover_from_enemy", "toward_friend", "toward_objective"})


# ----------------------------------------------------------------------------- helpers
def _weapon(state: StateData, i: int, kind: str):
    profile = state.models[i].profile
    if kind == "ranged":
        return profile.ranged
    return profile.melee or unarmed_weapon(state.rules)


def move_allowance(state: StateData, i: int) -> float:
    """Move of model ``i`` after Condition penalties."""
    penalty = effects.limits(state, i).move_penalty
    return max(0.0, float(state.models[i].profile.move) - penalty)


def destinations_for(state: StateData, i: int, allowance: float) -> list:
    """Candidate destinations of the tabletop for model ``i`` (uncached; see GameState)."""
    # All objectives are passed so that a destination's ref is the objective's index in the
    # scenario; looted ones are dropped afterwards.
    found = candidate_destinations(
        state.table,
        state.bases,
        i,
        allowance,
        enemies=state.enemies_of(i),
        friends=state.friends_of(i),
        objectives=[(o.x, o.y) for o in state.objectives],
    )
    if not state.looted:
        return found
    return [d for d in found if not (d.kind == "toward_objective" and d.ref in state.looted)]


def move_options_for(state: StateData, i: int) -> list[tuple[str, int | None]]:
    """The ``(kind, ref)`` moves model ``i`` may order (uncached; see GameState).

    A move names a direction; its path is planned only when the move is made
    (:func:`plan_destination`), which keeps listing the legal decisions cheap.
    """
    options = destination_options(
        state.table,
        state.bases,
        i,
        enemies=state.enemies_of(i),
        friends=state.friends_of(i),
        objectives=[(o.x, o.y) for o in state.objectives],
    )
    if not state.looted:
        return options
    return [(k, r) for k, r in options if not (k == "toward_objective" and r in state.looted)]


def _find_destination(state: StateData, i: int, allowance: float, key: tuple) -> Any:
    kind, ref = key
    return plan_destination(
        state.table,
        state.bases,
        i,
        allowance,
        kind,
        ref,
        objectives=[(o.x, o.y) for o in state.objectives],
    )


def shot_targets(
    state: StateData, i: int, memo: dict[Any, Any] | None = None
) -> list[tuple[int, str]]:
    """Enemies model ``i`` may shoot now, each with the cover it would shoot against.

    RAW: no shooting into a melee unless the shooter is itself adjacent (in base contact)
    to a friendly model in that melee. A Down friend is in no melee (house reading,
    ``shooting.down_models_in_melee``). An engaged shooter may shoot an enemy outside any
    melee, unless ``engagement.forbids`` names ``shoot`` (the sticky-melee house variant).

    Args:
        state: The game.
        i: The shooter.
        memo: ``state.situation_memo()`` when the caller holds it already (fetched if None).
    """
    weapon = state.models[i].profile.ranged
    if weapon is None:
        return []
    if memo is None:
        memo = state.situation_memo()
    return list(_memo_shot_targets(state, i, weapon, memo))


def _memo_shot_targets(
    state: StateData, i: int, weapon: Any, memo: dict[Any, Any]
) -> tuple[tuple[int, str], ...]:
    # The agents ask for the same shooter's targets several times per decision point.
    key = ("shot_targets", i)
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(_shot_targets(state, i, weapon, memo))
    return found


def _shot_targets(
    state: StateData, i: int, weapon: Any, memo: dict[Any, Any]
) -> list[tuple[int, str]]:
    if "shoot" in engaged_forbids(state.rules) and state._engaged_enemies(i, memo):
        return []
    models, bases = state.models, state.bases
    side = models[i].side
    own_contacts: set[int] | None = None  # read only when a target stands in a melee
    # House reading (shooting.down_models_in_melee, false): a Down friend cannot fight, so it
    # is in no melee: it neither puts the target in one nor lets a shooter beside it shoot.
    down_in_melee = state.rules.get("shooting.down_models_in_melee")
    targets = []
    for j in state.enemies_of(i):
        if not shooting.in_range(weapon, state.distance(i, j)):
            continue
        engaged_with = [
            k
            for k in contacts(bases, j)
            if models[k].side == side and (down_in_melee or models[k].is_active)
        ]
        if engaged_with:
            if own_contacts is None:
                own_contacts = set(contacts(bases, i))
            if not shooting.may_shoot_into_melee(
                bool(own_contacts.intersection(engaged_with)), state.rules
            ):
                continue
        visible, cover = sight(state.table, bases, i, j)
        if visible:
            targets.append((j, effective_cover(state, i, j, cover)))
    return targets


def effective_cover(state: StateData, shooter: int, target: int, cover: str) -> str:
    """Cover after the target's Conditions (Exposed, Hunkered, Prone) and weapon traits."""
    return shooting.effective_cover(
        cover,
        list(state.models[target].conditions),
        state.models[shooter].profile.ranged,
        state.rules,
    )


# ----------------------------------------------------------------------------- legality
@dataclass(frozen=True)
class _ActionData:
    """The rules data that listing legal actions reads, looked up once per rules."""

    aim_applies: str
    take_cover_applies: str
    rally_removes: frozenset[str]
    charge_reach_factor: float
    disengage_move_factor: float
    stabilise_range: float
    rally_range: float
    rest_excludes: frozenset[str]


@functools.lru_cache(maxsize=32)
def engaged_forbids(rules: RulesConfig) -> frozenset[str]:
    """Actions a model in base contact with an active enemy cannot take (``engagement.forbids``).

    RAW forbids none (only shooting *into* a melee, :func:`shot_targets`); the sticky-melee
    house variant forbids ``move``, ``charge``, ``shoot`` and ``aim``.
    """
    return frozenset(rules.get("engagement.forbids"))


@functools.lru_cache(maxsize=32)
def _action_data(rules: RulesConfig) -> _ActionData:
    return _ActionData(
        aim_applies=action_spec("aim", rules).applies,
        take_cover_applies=action_spec("take_cover", rules).applies,
        rally_removes=frozenset(action_spec("rally", rules).removes),
        charge_reach_factor=rules.get("distances.charge_reach_factor"),
        disengage_move_factor=rules.get("distances.disengage_move_factor"),
        stabilise_range=rules.get("distances.stabilise_range"),
        rally_range=rules.get("distances.rally_range"),
        rest_excludes=action_spec("rest", rules).excludes,
    )


@functools.lru_cache(maxsize=1024)
def _allowed_actions(
    rules: RulesConfig,
    forbids: frozenset[str],
    taken: tuple[str, ...],
    actions_left: int,
    rested: bool = False,
    moved_or_attacked: bool = False,
) -> frozenset[str]:
    """Actions the active model may still take, before any check on the table.

    Depends only on its Conditions' bans, the actions it took this activation, the actions
    it has left and Rest's bans of the side-turn (``rested``: it Rested this turn, so none of
    ``actions.rest.excludes``; ``moved_or_attacked``: it took one of them, so no Rest; RAW
    "no movement, no attack that activation", a bonus action of the same turn included): a
    handful of combinations per game, so remembered.
    """
    blocked = forbids | excluded_by(taken, rules)
    if rested:
        blocked |= _action_data(rules).rest_excludes
    if moved_or_attacked:
        blocked |= {"rest"}
    return frozenset(
        name
        for name, spec in action_specs(rules).items()
        if name not in blocked
        and spec.cost <= actions_left
        and not (spec.once_per_activation and name in taken)
    )


def action_decisions(state: StateData, i: int) -> list[Decision]:
    """Every legal action of the active model ``i`` (``end`` is always legal)."""
    model = state.models[i]
    rules = state.rules
    lim = effects.limits(state, i)
    allowed = _allowed_actions(
        rules,
        lim.forbids,
        tuple(state.taken_actions),
        state.actions_left,
        model.rested,
        model.moved_or_attacked,
    )
    data = _action_data(rules)
    memo = state.situation_memo()  # fetched once: every table query below is memoised in it
    engaged_with = state._engaged_enemies(i, memo)
    engaged = bool(engaged_with)
    if engaged:  # engagement.forbids: nothing under RAW, more under the sticky-melee variant
        allowed = allowed - engaged_forbids(rules)
    allowance = max(0.0, float(model.profile.move) - lim.move_penalty)
    out: list[Decision] = []

    if "move" in allowed and allowance > 0:
        out += _move_decisions("move", i, tuple(state.move_options(i)))
    if "charge" in allowed:
        reach = allowance * data.charge_reach_factor
        if reach > 0:
            # A charge moves into contact: an enemy already in contact is fought, not charged.
            out += [
                shared_decision("charge", i, target=j)
                for j in _charge_targets(state, i, reach, memo)
                if j not in engaged_with
            ]
    if "melee" in allowed and engaged:
        out += [shared_decision("melee", i, target=j) for j in engaged_with]
    if "shoot" in allowed and model.profile.ranged is not None:
        targets = _memo_shot_targets(state, i, model.profile.ranged, memo)
        out += [shared_decision("shoot", i, target=j) for j, _ in targets]
    if (
        "aim" in allowed
        and model.profile.ranged is not None
        and data.aim_applies not in model.conditions
    ):
        out.append(shared_decision("aim", i))
    if "disengage" in allowed and engaged and allowance * data.disengage_move_factor > 0:
        out += _move_decisions("disengage", i, tuple(state.move_options(i)))
    if "focus" in allowed:
        out.append(shared_decision("focus", i))
    if "rest" in allowed and (model.strain > 0 or _rest_cures(state, i)):
        out.append(shared_decision("rest", i))
    if "stabilise" in allowed:
        out += [
            shared_decision("stabilise", i, target=j)
            for j in state.side_models(model.side)
            if state.models[j].is_down  # a Down model stands on the table: a friend of i
            and j != i
            and not state.models[j].stable
            and state.distance(i, j) <= data.stabilise_range
        ]
    if "rally" in allowed:
        out += [shared_decision("rally", i, target=j) for j in _rally_targets(state, i, data)]
    if "interact" in allowed:
        for k, obj in enumerate(state.objectives):
            if (
                obj.kind in ("loot", "extract")
                and k not in state.looted
                and state.distance_to_point(i, (obj.x, obj.y)) <= obj.radius
            ):
                out.append(shared_decision("interact", i, destination=("objective", k)))
    if "take_cover" in allowed and data.take_cover_applies not in model.conditions:
        out.append(shared_decision("take_cover", i))
    out.append(END)
    return out


def _rally_targets(state: StateData, i: int, data: _ActionData) -> list[int]:
    """Active models (``i``, then friends in rally range) holding a Condition rally removes."""
    models = state.models
    found = []
    for j in (i, *[k for k in state.side_models(models[i].side) if k != i]):
        other = models[j]
        if (
            other.conditions  # most models hold none: the cheap test first
            and other.is_active
            and data.rally_removes.intersection(other.conditions)
            and (j == i or state.distance(i, j) <= data.rally_range)
        ):
            found.append(j)
    return found


@functools.lru_cache(maxsize=4096)
def _move_decisions(
    kind: str, i: int, options: tuple[tuple[str, int | None], ...]
) -> tuple[Decision, ...]:
    """The ``move`` (every option) or ``disengage`` (non-closing options) decisions of ``i``."""
    return tuple(
        shared_decision(kind, i, destination=option)
        for option in options
        if kind != "disengage" or option[0] in DISENGAGE_KINDS
    )


def _charge_targets(
    state: StateData, i: int, reach: float, memo: dict[Any, Any]
) -> tuple[int, ...]:
    """Enemies model ``i`` could reach with a charge of ``reach`` (memoised per situation)."""
    key = ("charge_targets", i, reach)
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(
            charge_targets(state.table, state.bases, i, reach, state.enemies_of(i))
        )
    return found


def _rest_cures(state: StateData, i: int) -> bool:
    return bool(conditions_removed_by("rest", list(state.models[i].conditions), state.rules))


# ----------------------------------------------------------------------------- performing
def perform(state: StateData, decision: Decision) -> None:
    """Carry out an action decision of the active model."""
    i = decision.model if decision.model is not None else state.active_model
    if decision.kind == "end":
        state.actions_left = 0
        return
    spec = action_spec(decision.kind, state.rules)
    state.actions_left -= spec.cost
    state.taken_actions.append(decision.kind)
    model = state.models[i]
    state.emit(
        "action",
        model=model.id,
        action=decision.kind,
        target=None if decision.target is None else state.models[decision.target].id,
        destination=None if decision.destination is None else _label(decision.destination),
        actions_left=state.actions_left,
    )
    if decision.kind in _action_data(state.rules).rest_excludes:
        model.moved_or_attacked = True  # no Rest for the rest of the side-turn
    handler = _HANDLERS[decision.kind]
    handler(state, i, decision)
    if model.on_table and not state.over and model.conditions:  # nothing follows game_end
        for name in conditions_removed_by(decision.kind, list(model.conditions), state.rules):
            effects.lose_condition(state, i, name, decision.kind)


def _label(destination: tuple) -> str:
    kind, ref = destination
    return kind if ref is None else f"{kind}:{ref}"


def _plan_for(state: StateData, i: int, dest: Any) -> MovePlan:
    """The move a candidate destination stands for (its path is already legal and truncated)."""
    return MovePlan(
        start=state.position(i),
        end=dest.point,
        path=dest.path or (state.position(i), dest.point),
        cost=dest.cost,
        reached=dest.reached,
    )


def _do_move(state: StateData, i: int, decision: Decision) -> None:
    dest = _find_destination(state, i, move_allowance(state, i), decision.destination)
    if dest is not None:  # None: no way to make that move (e.g. no cover in reach)
        state.apply_move(i, _plan_for(state, i, dest), "move")


def _do_charge(state: StateData, i: int, decision: Decision) -> None:
    j = decision.target
    reach = move_allowance(state, i) * state.rules.get("distances.charge_reach_factor")
    plan = plan_charge(state.table, state.bases, i, j, reach)
    if plan is not None:
        state.apply_move(i, plan, "charge")
    state.models[i].charged = True
    terror = state.rules.get("morale.triggers.terror_charge.keyword")
    if (
        effects.trigger_enabled(state, "terror_charge")
        and terror in state.models[i].profile.keywords
    ):
        effects.morale_test(state, j, "terror_charge")
    if state.models[j].is_active and state.models[i].is_active and j in state.engaged_enemies(i):
        fight(state, i, j)
    # The +2 belongs to this charge's strike alone: a charge that ends without one (the
    # target fled a terror test, the path failed) leaves no bonus for a later melee.
    state.models[i].charged = False


def _do_melee(state: StateData, i: int, decision: Decision) -> None:
    fight(state, i, decision.target)


def _melee_modifiers(state: StateData, i: int, attacking: bool) -> list[Modifier]:
    model = state.models[i]
    return melee.melee_modifiers(
        weapon=_weapon(state, i, "melee"),
        charge_strike=attacking and model.charged,
        enemies_in_contact=len(state.engaged_enemies(i)),
        conditions=list(model.conditions),
        defending=not attacking,
        rules=state.rules,
    )


def roll_context(
    state: StateData, i: int, other: int | None = None, *, cover: str | None = None
) -> RollContext:
    """What the game knows about a roll of model ``i`` (against ``other``), for the system."""
    model = state.models[i]
    helpers: list[int] = []
    if state.resolution.name != "riven":  # only other systems read it: RIVEN's games skip the walk
        reach = state.rules.get("distances.rally_range")
        near = [
            (state.distance(i, j), j)
            for j in state.side_models(model.side)
            if j != i and state.models[j].is_active and not state.is_engaged(j)
        ]
        helpers = [j for d, j in sorted(near) if d <= reach]
    return RollContext(
        engaged=state.is_engaged(i),
        charging=model.charged,
        opponent=None if other is None else state.models[other].profile,
        cover=cover,
        conditions=tuple(model.conditions),
        wounds_left=model.wounds,
        wounds_max=model.wounds_max or model.profile.wounds,
        helpers=len(helpers),
        helper_models=tuple(helpers),
        final_round=state.round >= state.round_limit,
        opponent_wounds_left=0 if other is None else state.models[other].wounds,
        profile=model.profile,
        resources=dict(model.resources),
    )


def fight(state: StateData, i: int, j: int) -> None:
    """Melee between the acting model ``i`` and enemy ``j`` (RIVEN: opposed, reading 3).

    The resolution system resolves it at once (RIVEN) or returns a pending record whose
    choices (a Combat Pool split, Luck) go through the spend phase before it closes; a
    system whose melee is a round of declarations (``has_choices``: The Riddle of Steel)
    opens the choice phase instead (:mod:`riven_env.game.choices`).
    """
    attacker, defender = state.models[i], state.models[j]
    a_mods = _melee_modifiers(state, i, attacking=True)
    d_mods = _melee_modifiers(state, j, attacking=False)
    a_context = roll_context(state, i, j)
    attacker.charged = False  # the charge bonus applies to the first strike only
    if choices.uses_choices(state):  # a system whose melee is a round of choices (RoS)
        choices.open_melee(state, i, j, a_mods, d_mods)
        return
    started = state.resolution.start_melee(
        Combatant(attacker.profile, tuple(a_mods), a_context, dict(attacker.resources)),
        Combatant(
            defender.profile, tuple(d_mods), roll_context(state, j, i), dict(defender.resources)
        ),
        state.rng,
    )
    if isinstance(started, MeleeResult):
        _apply_melee(state, i, j, started)
        return
    state.pending = (started, i, {"action": "melee", "target": j})
    _open_choices(state)


def _apply_melee(state: StateData, i: int, j: int, result: MeleeResult) -> None:
    """Record a closed melee and apply its outcome and aftermath."""
    attacker, defender = state.models[i], state.models[j]
    ids = {"attacker": attacker.id, "defender": defender.id}
    state.emit(
        "melee",
        attacker=attacker.id,
        defender=defender.id,
        attacker_dice=list(result.attacker_dice),
        defender_dice=list(result.defender_dice),
        attacker_total=result.attacker_total,
        defender_total=result.defender_total,
        attacker_modifiers=[m.to_dict() for m in result.attacker_modifiers],
        defender_modifiers=[m.to_dict() for m in result.defender_modifiers],
        outcome=result.outcome,
        winner=ids.get(result.winner) if result.winner else None,
        loser=ids.get(result.loser) if result.loser else None,
        **({"detail": result.detail} if result.detail else {}),
    )
    _outcome(state, i, j, result)
    if result.aftermath and not state.over:
        effects.apply_aftermath(state, i, j, result.aftermath)


def _outcome(state: StateData, i: int, j: int, result: MeleeResult) -> None:
    if result.winner is None:
        return
    winner, loser = (i, j) if result.winner == "attacker" else (j, i)
    if result.outcome == "critical":  # a Critical of a 2d6 roll: Momentum to the winner
        effects.change_momentum(
            state,
            state.models[winner].side,
            state.rules.get("momentum.gain.melee_critical"),
            "melee critical",
        )
    if result.outcome == "recoil":
        effects.push(state, loser, state.position(winner), result.recoil_distance, "recoil")
        effects.change_strain(state, loser, state.rules.get("strain.gain.recoiled"), "recoiled")
        if effects.trigger_enabled(state, "recoiled"):
            effects.morale_test(state, loser, "recoiled")
        return
    effects.wound(state, loser, result.wounds, winner, f"melee {result.outcome}")
    if result.condition and state.models[loser].is_active:
        effects.gain_condition(state, loser, result.condition, "melee critical")


def _do_shoot(state: StateData, i: int, decision: Decision) -> None:
    j = decision.target
    cover = dict(shot_targets(state, i)).get(j, "none")
    mods = shooting.shot_modifiers(
        weapon=state.models[i].profile.ranged,
        shooter_conditions=list(state.models[i].conditions),
        rules=state.rules,
    )
    start_test(
        state,
        i,
        "shot",
        state.rules.get("shooting.attribute"),
        state.resolution.shot_tn(cover),
        mods,
        {"action": "shoot", "target": j, "cover": cover},
        roll_context(state, i, j, cover=cover),
    )


def _do_aim(state: StateData, i: int, decision: Decision) -> None:
    effects.gain_condition(state, i, action_spec("aim", state.rules).applies, "aim")


def _do_take_cover(state: StateData, i: int, decision: Decision) -> None:
    name = action_spec("take_cover", state.rules).applies
    effects.gain_condition(state, i, name, "take cover")


def _do_disengage(state: StateData, i: int, decision: Decision) -> None:
    _start_action_test(state, i, "disengage", {"destination": decision.destination})


def _do_focus(state: StateData, i: int, decision: Decision) -> None:
    effects.change_momentum(
        state, state.models[i].side, state.rules.get("momentum.gain.focus"), "focus"
    )


def _do_rest(state: StateData, i: int, decision: Decision) -> None:
    state.models[i].rested = True
    effects.change_strain(state, i, -state.rules.get("strain.rest_removes"), "rest")


def _do_stabilise(state: StateData, i: int, decision: Decision) -> None:
    j = decision.target
    state.models[j].stable = True
    state.emit("stabilise", model=state.models[j].id, by=state.models[i].id)


def _do_rally(state: StateData, i: int, decision: Decision) -> None:
    _start_action_test(state, i, "rally", {"target": decision.target})


def _do_interact(state: StateData, i: int, decision: Decision) -> None:
    _start_action_test(state, i, "interact", {"objective": decision.destination[1]})


def _start_action_test(state: StateData, i: int, action: str, context: dict) -> None:
    spec = action_spec(action, state.rules)
    tn = tests_2d6.difficulty_tn(spec.difficulty, state.rules)
    mods = effects.condition_test_modifiers(state, i, "test")
    start_test(state, i, action, spec.attribute, tn, mods, {"action": action, **context})


# ----------------------------------------------------------------------------- tests and spends
def start_test(
    state: StateData,
    i: int,
    kind: str,
    attribute: str,
    tn: int,
    modifiers: list[Modifier],
    context: dict,
    roll_facts: RollContext | None = None,
) -> None:
    """Roll a test for model ``i``; open the spend phase when the roller has a choice."""
    value = getattr(state.models[i].profile, attribute)
    facts = roll_facts
    if facts is None and state.resolution.name != "riven":  # RIVEN reads no context
        facts = roll_context(state, i)
    roll = state.resolution.roll_test(
        kind, attribute, value, tn, tuple(modifiers), state.rng, context=facts
    )
    state.pending = (roll, i, context)
    _open_choices(state)


def chooser_of(state: StateData) -> int:
    """The model whose side chooses on the pending roll: the roller, or the target."""
    roll, i, context = state.pending
    if getattr(roll, "chooser", "actor") == "target":
        return context["target"]
    return i


def _open_choices(state: StateData) -> None:
    """Enter the spend phase when the pending roll offers its chooser options, else close it."""
    if _spend_options(state):
        state.phase = PHASE_SPEND
    else:
        _finish_test(state)


def _spend_options(state: StateData) -> list[str]:
    roll = state.pending[0]
    model = state.models[chooser_of(state)]
    return state.resolution.spend_options(
        roll,
        momentum=state.momentum_of(model.side),
        strain=model.strain,
        strain_max=model.profile.strain_max(state.rules),
        resources=model.resources,
    )


def spend_decisions(state: StateData) -> list[Decision]:
    """The options on the pending roll: ``spend`` ones plus ``accept`` once the dice are rolled,
    ``allocate`` ones (no ``accept``) before."""
    options = _spend_options(state)
    if not getattr(state.pending[0], "rolled", True):
        return [shared_decision(ALLOCATE, option=o) for o in options]
    return [shared_decision("spend", option=o) for o in options] + [ACCEPT]


def apply_spend_decision(state: StateData, decision: Decision) -> None:
    """Apply a spend or allocation (then offer what is still possible) or accept the result."""
    roll, i, context = state.pending
    if decision.option != "accept":
        roll = state.resolution.apply_spend(roll, decision.option, state.rng)
        state.pending = (roll, i, context)
        if _spend_options(state):
            return
    else:
        handed = state.resolution.accept(roll)
        if handed is not None:  # the choice passes on (e.g. to the defender)
            state.pending = (handed, i, context)
            if _spend_options(state):
                return
    _finish_test(state)


def _finish_test(state: StateData) -> None:
    roll, i, context = state.pending
    state.pending = None
    state.phase = PHASE_ACTION
    model = state.models[i]
    result = state.resolution.finalise(roll)
    if context["action"] == "melee":
        _apply_melee(state, i, context["target"], result)
        return
    if result.momentum_spent:
        effects.change_momentum(state, model.side, -result.momentum_spent, "spend")
    if result.strain_taken:
        effects.change_strain(state, i, result.strain_taken, "spend")
    if context["action"] == "shoot":
        target = state.models[context["target"]]
        state.emit_test(
            model.id,
            result,
            event_type="shot",
            shooter=model.id,
            target=target.id,
            cover=context["cover"],
        )
    else:
        state.emit_test(model.id, result)
    if result.momentum_gained:
        effects.change_momentum(state, model.side, result.momentum_gained, "critical")
    _RESOLVERS[context["action"]](state, i, result, context)
    if result.aftermath and not state.over:
        effects.apply_aftermath(state, i, context.get("target"), result.aftermath)


def _partial_cost(state: StateData, i: int, result: Any) -> None:
    """A Partial on a non-shot test succeeds at a cost (house: Strain)."""
    if result.result == "partial":
        effects.change_strain(state, i, state.rules.get("test.partial_strain"), "partial")


def _resolve_shot(state: StateData, i: int, result: Any, context: dict) -> None:
    j = context["target"]
    effect = state.resolution.shot_effect(result.result)
    effects.wound(state, j, effect.wounds, i, f"shot {result.result}")
    if state.over:  # the wound ended the game: game_end is the last event
        return
    if effect.push_distance and state.models[j].on_table:
        effects.push(state, j, state.position(i), effect.push_distance, "push")
    if effect.shooter_exposed:
        effects.gain_condition(
            state, i, state.rules.get("shooting.exposed_condition"), "partial shot"
        )
    if effect.complication:
        effects.roll_complication(state, i)


def _resolve_disengage(state: StateData, i: int, result: Any, context: dict) -> None:
    if result.result == "miss":
        effects.roll_complication(state, i)
        return
    allowance = move_allowance(state, i) * state.rules.get("distances.disengage_move_factor")
    dest = _find_destination(state, i, allowance, context["destination"])
    if dest is not None:
        state.apply_move(i, _plan_for(state, i, dest), "disengage")
    _partial_cost(state, i, result)


def _resolve_rally(state: StateData, i: int, result: Any, context: dict) -> None:
    if result.result == "miss":
        effects.roll_complication(state, i)
        return
    j = context["target"]
    for name in sorted(action_spec("rally", state.rules).removes):
        effects.lose_condition(state, j, name, "rally")
    _partial_cost(state, i, result)


def _resolve_interact(state: StateData, i: int, result: Any, context: dict) -> None:
    if result.result == "miss":
        effects.roll_complication(state, i)
        return
    k = context["objective"]
    obj = state.objectives[k]
    side = state.models[i].side
    _partial_cost(state, i, result)
    if obj.kind == "loot":
        state.looted.add(k)
        state.positions_changed()
        victory.score(state, side, obj.points, f"loot {obj.name}")
        victory.objective_gained(state, side, k, "looted")
    elif obj.kind == "extract" and state.models[i].is_active:
        victory.objective_gained(state, side, k, "extracted")
        victory.extract(state, i)


def bleeding_check(state: StateData, i: int) -> None:
    """End-of-turn die vs Mettle for a model whose Conditions call for it: failure, 1 wound."""
    from riven_env.rules.casualties import roll_wound_check

    model = state.models[i]
    die, wounded = roll_wound_check(model.profile.mettle, state.rng, state.rules)
    state.emit("bleeding", model=model.id, mettle=model.profile.mettle, die=die, wounded=wounded)
    if wounded:
        effects.wound(state, i, 1, None, "bleeding")


_HANDLERS = {
    "move": _do_move,
    "charge": _do_charge,
    "melee": _do_melee,
    "shoot": _do_shoot,
    "aim": _do_aim,
    "disengage": _do_disengage,
    "focus": _do_focus,
    "rest": _do_rest,
    "stabilise": _do_stabilise,
    "rally": _do_rally,
    "interact": _do_interact,
    "take_cover": _do_take_cover,
}

_RESOLVERS = {
    "shoot": _resolve_shot,
    "disengage": _resolve_disengage,
    "rally": _resolve_rally,
    "interact": _resolve_interact,
}

__all__ = [
    "action_decisions",
    "chooser_of",
    "roll_context",
    "apply_spend_decision",
    "bleeding_check",
    "destinations_for",
    "engaged_forbids",
    "fight",
    "move_allowance",
    "perform",
    "shot_targets",
    "spend_decisions",
    "start_test",
]
