"""State changes shared by many rules: wounds, Down/Out, removal, Strain, Conditions,
Momentum, complications and morale.

Each function takes the :class:`~riven_env.game.state_data.StateData` first, changes it and
emits the matching events. The action resolvers and the turn sequence call these, so a
rule such as "a wound adds Strain" lives in exactly one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riven_env.game.model_state import ACTIVE, DOWN, EXTRACTED, FLED, OUT
from riven_env.rules import conditions, strain
from riven_env.table import plan_flight, plan_push

if TYPE_CHECKING:
    from riven_env.game.state_data import StateData


# ----------------------------------------------------------------------------- Momentum
def change_momentum(state: StateData, side: str, delta: int, reason: str) -> int:
    """Add ``delta`` to the Momentum pool of ``side`` (clamped to 0..cap); return the change."""
    owner = state.momentum_owner[side]
    cap = state.rules.get("momentum.cap")
    old = state.momentum[owner]
    new = max(0, min(cap, old + delta))
    if new == old:
        return 0
    state.momentum[owner] = new
    state.emit("momentum", owner=owner, delta=new - old, value=new, reason=reason)
    return new - old


# ----------------------------------------------------------------------------- resources
def change_resource(state: StateData, i: int, name: str, delta: int, reason: str) -> None:
    """Add ``delta`` to model ``i``'s resource ``name`` (never below 0) and record it."""
    model = state.models[i]
    old = model.resources.get(name, 0)
    new = max(0, old + delta)
    if new == old:
        return
    model.resources[name] = new
    state.emit("resource", model=model.id, resource=name, delta=new - old, value=new, reason=reason)


def apply_aftermath(state: StateData, i: int, j: int | None, aftermath) -> None:
    """Apply a closed roll's :class:`~riven_env.rules.results.Aftermath` entries in order.

    ``who`` ``"actor"`` is model ``i`` (the roller, the attacker), ``"target"`` model ``j``,
    ``"model:N"`` model ``N`` (a helper).
    """
    for entry in aftermath:
        if state.over:
            return
        if entry.who.startswith("model:"):
            k: int | None = int(entry.who[len("model:") :])
        else:
            k = i if entry.who == "actor" else j
        if k is None or not state.models[k].on_table:
            continue
        reason = entry.reason or entry.effect
        if entry.effect == "resource":
            change_resource(state, k, entry.name, entry.amount, reason)
        elif entry.effect == "strain":
            change_strain(state, k, entry.amount, reason)
        elif entry.effect == "wound":
            wound(state, k, entry.amount, None, reason)
        elif entry.effect == "complication":
            roll_complication(state, k)
        elif entry.effect == "condition":
            gain_condition(state, k, entry.name, reason)
        elif entry.effect == "end_activation" and state.active_model == k:
            state.actions_left = 0


# ----------------------------------------------------------------------------- Strain
def change_strain(state: StateData, i: int, delta: int, reason: str) -> None:
    """Add (or remove, with a negative ``delta``) Strain; overflow rolls a Condition."""
    model = state.models[i]
    if delta == 0 or not model.on_table:
        return
    if delta > 0:
        change = strain.gain_strain(
            model.strain, delta, model.profile.strain_max(state.rules), state.rng, state.rules
        )
    else:
        change = strain.StrainChange(
            old_value=model.strain, new_value=max(0, model.strain + delta), overflow=False
        )
    if change.new_value != change.old_value:
        model.strain = change.new_value
        state.emit(
            "strain",
            model=model.id,
            delta=change.new_value - change.old_value,
            value=change.new_value,
            reason=reason,
        )
    if change.overflow:
        state.emit(
            "strain",
            model=model.id,
            delta=0,
            value=model.strain,
            reason=f"overflow (d6 {change.roll})",
        )
        if change.condition_gained:
            gain_condition(state, i, change.condition_gained, "strain overflow")


# ----------------------------------------------------------------------------- Conditions
def gain_condition(state: StateData, i: int, name: str, reason: str) -> bool:
    """Give model ``i`` a Condition (no test resists it: rules reference, Conditions).

    Returns:
        True when the model now has the Condition (False when it is off the table).
    """
    model = state.models[i]
    if not model.on_table:
        return False
    if name in model.conditions:
        model.conditions[name] = 0  # gaining it again restarts its duration
        return True
    model.conditions[name] = 0
    state.emit("condition", model=model.id, condition=name, gained=True, reason=reason)
    return True


def lose_condition(state: StateData, i: int, name: str, reason: str) -> None:
    model = state.models[i]
    if model.conditions.pop(name, None) is not None:
        state.emit("condition", model=model.id, condition=name, gained=False, reason=reason)


def expire_conditions(state: StateData, i: int, when: str) -> None:
    """Remove the Conditions of model ``i`` that expire at ``when``.

    ``end_of_next_activation`` Conditions expire only once an activation has begun since
    they were gained (the counter in ``ModelState.conditions``).
    """
    model = state.models[i]
    if not model.conditions:  # most models hold none: nothing to read in the data
        return
    names = conditions.conditions_expiring(when, list(model.conditions), state.rules)
    for name in names:
        if when == "end_of_next_activation" and model.conditions.get(name, 0) < 1:
            continue
        lose_condition(state, i, name, when.replace("_", " "))


def condition_test_modifiers(state: StateData, i: int, kind: str):
    """Modifiers from the Conditions of model ``i`` to a roll of ``kind`` (test/melee/shot)."""
    return conditions.condition_modifiers(list(state.models[i].conditions), kind, state.rules)


def limits(state: StateData, i: int) -> conditions.ConditionLimits:
    """The combined limits of model ``i``'s Conditions (runs tens of thousands of times a second)."""
    held = state.models[i].conditions
    if not held:  # the common case: no Conditions, no limits
        rules, found = state.no_limits
        return found if rules is state.rules else conditions.no_limits(state.rules)
    # The Conditions dict iterates its names: no list needed.
    return conditions.condition_limits(held, state.rules)


# ----------------------------------------------------------------------------- complications
def roll_complication(state: StateData, i: int) -> None:
    """Roll on the Complication Oracle for model ``i`` and apply the entry's effect."""
    model = state.models[i]
    entry = state.resolution.roll_complication(state.rng)
    state.emit(
        "complication",
        model=model.id,
        roll=entry.roll,
        name=entry.name,
        effect=entry.effect,
        text=entry.flavour.get(state.setting, entry.text) if entry.flavour else entry.text,
    )
    if entry.effect == "strain":
        change_strain(state, i, entry.amount, f"complication: {entry.name}")
    elif entry.effect == "end_activation":
        if state.active_model == i:
            state.actions_left = 0
    elif entry.effect == "enemy_momentum":
        change_momentum(
            state, state.enemy_side(model.side), entry.amount, f"complication: {entry.name}"
        )
    elif entry.effect == "lose_momentum":
        change_momentum(state, model.side, -entry.amount, f"complication: {entry.name}")
    elif entry.effect == "condition":
        gain_condition(state, i, entry.condition, f"complication: {entry.name}")
    elif entry.effect == "exposed":
        gain_condition(
            state,
            i,
            state.rules.get("shooting.exposed_condition"),
            f"complication: {entry.name}",
        )


# ----------------------------------------------------------------------------- wounds, Down, Out
def wound(state: StateData, i: int, amount: int, source: int | None, cause: str) -> None:
    """Deal ``amount`` wounds to model ``i``; at 0 wounds it goes Down."""
    model = state.models[i]
    if amount <= 0 or not model.is_active:
        return
    model.wounds = max(0, model.wounds - amount)
    state.emit(
        "wound",
        model=model.id,
        amount=amount,
        wounds_left=model.wounds,
        source=None if source is None else state.models[source].id,
        cause=cause,
    )
    if model.wounds == 0:
        model.status = DOWN
        model.stable = False
        state.emit("down", model=model.id)
        state.positions_changed()
        if state.active_model == i:
            state.actions_left = 0
        state.check_victory()
        return
    change_strain(state, i, state.rules.get("strain.gain.wound"), "wound")


def out_check(state: StateData, i: int) -> None:
    """End-of-turn roll of an unstabilised Down model: failure takes it Out."""
    model = state.models[i]
    result = state.resolution.roll_out_check(model.profile.mettle, state.rng)
    state.emit("out_check", model=model.id, mettle=result.mettle, die=result.die, out=result.out)
    if result.out:
        remove(state, i, OUT)


def remove(state: StateData, i: int, reason: str) -> None:
    """Take model ``i`` off the table (``out``, ``fled`` or ``extracted``)."""
    model = state.models[i]
    if not model.on_table:
        return
    was_active = model.is_active
    state.last_position[i] = state.position(i)
    model.status = reason
    state.bases.remove(i)
    state.positions_changed()
    if reason in (OUT, FLED):
        state.emit("removed", model=model.id, reason=reason)
        state.on_casualty(i)
    else:
        state.emit("removed", model=model.id, reason=EXTRACTED)
    if state.active_model == i:
        state.actions_left = 0
    if reason in (OUT, FLED):
        morale_after_loss(state, i, was_active)
    state.check_victory()


# ----------------------------------------------------------------------------- movement effects
def push(
    state: StateData, i: int, away_from: tuple[float, float], distance: float, kind: str
) -> None:
    """Push model ``i`` directly away from a point (recoil, critical shot)."""
    if distance <= 0 or not state.models[i].on_table:
        return
    plan = plan_push(state.table, state.bases, i, away_from, distance)
    state.apply_move(i, plan, kind)


def flee(state: StateData, i: int, distance: float) -> bool:
    """Move model ``i`` toward the nearest table edge; return True when it left the table.

    The route is ``morale.flight_route`` (RAW ``straight``); a base that touches the edge
    on the way has left the table and is removed (Fled).
    """
    around = state.rules.get("morale.flight_route") == "around"
    plan, left = plan_flight(state.table, state.bases, i, distance, around=around)
    state.apply_move(i, plan, "flee")
    if left:
        remove(state, i, FLED)
    return left


# ----------------------------------------------------------------------------- morale
def morale_test(state: StateData, i: int, trigger: str) -> None:
    """Test morale for model ``i``: one die vs Mettle; failure flees d6+3" to the nearest edge."""
    model = state.models[i]
    if not model.is_active or state.over:
        return
    result = state.resolution.roll_morale(model.profile.mettle, state.rng)
    fled_off = False
    event = state.emit(
        "morale",
        model=model.id,
        trigger=trigger,
        mettle=result.mettle,
        die=result.die,
        passed=result.passed,
        flee_distance=0.0 if result.passed else result.flee_distance,
        fled_off_table=False,
    )
    if not result.passed:
        fled_off = flee(state, i, result.flee_distance)
        event["fled_off_table"] = fled_off


def trigger_enabled(state: StateData, name: str) -> bool:
    key = f"morale.triggers.{name}.enabled"
    return bool(state.rules.has(key) and state.rules.get(key))


def morale_after_loss(state: StateData, i: int, was_active: bool) -> None:
    """Apply the morale triggers that a model taken Out or Fled sets off."""
    lost = state.models[i]
    side = lost.side
    testers: list[tuple[int, str]] = []
    if (
        trigger_enabled(state, "leader_out")
        and state.rules.get("morale.triggers.leader_out.keyword") in lost.profile.keywords
    ):
        testers += [(j, "leader_out") for j in state.side_models(side) if state.models[j].is_active]
    elif trigger_enabled(state, "friend_lost"):
        radius = state.rules.get("morale.triggers.friend_lost.radius")
        # Edge to edge, as every distance between models: the lost base where it last stood.
        lost_reach = radius + float(state.bases.radii[i])
        centre = state.last_position[i]
        for j in state.side_models(side):
            other = state.models[j]
            if other.is_active and state.distance_to_point(j, centre) <= lost_reach:
                testers.append((j, "friend_lost"))
    if trigger_enabled(state, "half_strength") and side not in state.half_strength_tested:
        fraction = state.rules.get("morale.triggers.half_strength.fraction")
        left = sum(1 for j in state.side_models(side) if state.models[j].on_table)
        if left <= fraction * len(state.side_models(side)):
            state.half_strength_tested.add(side)
            seen = {j for j, _ in testers}
            testers += [
                (j, "half_strength")
                for j in state.side_models(side)
                if state.models[j].is_active and j not in seen
            ]
    for j, trigger in testers:
        morale_test(state, j, trigger)


__all__ = [
    "ACTIVE",
    "apply_aftermath",
    "change_resource",
    "change_momentum",
    "change_strain",
    "condition_test_modifiers",
    "expire_conditions",
    "flee",
    "gain_condition",
    "limits",
    "lose_condition",
    "morale_after_loss",
    "morale_test",
    "out_check",
    "push",
    "remove",
    "roll_complication",
    "trigger_enabled",
    "wound",
]
