"""The Python side of the native game state (``cpp/riven/game``): export, view and event writer.

:func:`to_native` exports a Python :class:`~riven_env.game.state.GameState`, at any point of a
game, into the core's flat ``GameState``: the immutable part (model ids, sides, profiles,
objectives, the vocabularies of names) goes once per game into a shared ``GameStatic``
(:func:`native_static`, remembered per scenario, rules and table), the mutable part field by
field. :func:`from_native` brings a native state back as a Python ``GameState`` (a copy of a
state of the same game with every mutable field replaced), so that Python agents and the Python
engine can continue from a position the core reached. :func:`python_view` and :func:`native_view` give both as the same plain dict, so that a
test compares every field of the two; :func:`dumps_event` is the native event writer.

What the native state does not hold is refused with :class:`NativeStateError` naming it: a
pending record of another resolution system than RIVEN's 2d6 ``TestRoll``, Invictus's
``InvictusRoll`` (whose own fields travel as ``pending_invictus``) and New World's
``NewWorldRoll`` (``pending_new_world``) (The Riddle of Steel's Combat Round in the choice phase
travels as ``pending_choice``: its session's fields, the model and its foe), a random stream
that is not
numpy's PCG64, names longer than the core's inline names (31 bytes).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from riven_env.errors import RivenError
from riven_env.game.decisions import (
    PHASE_ACTION,
    PHASE_ACTIVATE,
    PHASE_CHOICE,
    PHASE_OVER,
    PHASE_SPEND,
)
from riven_env.game.model_state import ACTIVE, DOWN, EXTRACTED, FLED, OUT
from riven_env.game.state import SIDES
from riven_env.native import load
from riven_env.native.random import native_stream, numpy_state, to_generator
from riven_env.rules import action_specs, condition_specs
from riven_env.rules.results import BANDS, Modifier, TestRoll
from riven_env.rules.systems.invictus import INVICTUS_BANDS, InvictusRoll, settings_for
from riven_env.rules.systems.new_world import NewWorldRoll
from riven_env.rules.systems.new_world import settings_for as new_world_settings
from riven_env.rules.systems.riddle_of_steel import MeleeSession
from riven_env.rules.systems.ros_data import ros_data_for
from riven_env.table.destinations import DESTINATION_KINDS

__all__ = [
    "NativeStateError",
    "dumps_event",
    "dumps_events",
    "from_native",
    "native_static",
    "native_view",
    "python_view",
    "to_native",
]

STATUSES = (ACTIVE, DOWN, OUT, FLED, EXTRACTED)
"""Status order of ``riven::game::Status``."""
PHASES = (PHASE_ACTIVATE, PHASE_ACTION, PHASE_SPEND, PHASE_CHOICE, PHASE_OVER)
"""Phase order of ``riven::game::Phase``."""
CONTEXT_KEYS = frozenset({"action", "target", "objective", "cover", "destination"})
"""Keys a pending roll's context may hold (``riven::game::PendingContext``)."""

# GameStatic per (scenario, rules, table, first side, extra names): a game's states share one.
_STATICS: dict[tuple[int, int, int, tuple], tuple[Any, Any]] = {}
_STATICS_LIMIT = 64


class NativeStateError(RivenError):
    """A Python game state holds something the native state cannot (the message says what)."""


def _encoding_kinds(rules: Any) -> list[str]:
    from riven_env.encoding.config import load_encoding_config

    return list(load_encoding_config().destination_refs)


def _resource_names(state: Any) -> tuple[str, ...]:
    names: dict[str, None] = {}
    for model in state.models:
        for name in state.resolution.starting_resources(model.profile):
            names[name] = None
        for name in model.resources:
            names[name] = None
    return tuple(names)


def _is_ros(rules: Any) -> bool:
    """Whether the game plays The Riddle of Steel (its melee is the choice phase's round)."""
    return str(rules.get("meta.resolution")) == "riddle-of-steel"


def _system_keys(state: Any) -> tuple[str, ...]:
    names: dict[str, None] = {}
    if _is_ros(state.rules):  # RoS keeps each model's Pain between melees (choices.py pain_of)
        names["pain"] = None
    for key in state.system_state:
        if not (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str)):
            raise NativeStateError(
                f"system_state key {key!r}: the native state holds (name, model index) keys only"
            )
        names[key[0]] = None
    return tuple(names)


def native_static(state: Any) -> Any:
    """The core ``GameStatic`` of ``state``'s game (built once, shared by its states).

    Raises:
        NativeStateError: The scenario passes a limit of the core (names, Conditions).
    """
    resources = _resource_names(state)
    system_keys = _system_keys(state)
    key = (
        id(state.scenario),
        id(state.rules),
        id(state.table),
        (state.first_side, resources, system_keys),
    )
    found = _STATICS.get(key)
    if found is not None and found[0]() is state.scenario:
        return found[1]
    native = load()
    st = native.GameStatic()
    profiles: dict[int, int] = {}
    profile_list = []
    oracles: dict[str, int] = {}
    model_profile = []
    model_oracle = []
    for model in state.models:
        p = model.profile
        if id(p) not in profiles:
            profiles[id(p)] = len(profile_list)
            profile_list.append(_profile(native, p))
        model_profile.append(profiles[id(p)])
        if model.oracle is None:
            model_oracle.append(-1)
        else:
            model_oracle.append(oracles.setdefault(model.oracle, len(oracles)))
    st.model_ids = [m.id for m in state.models]
    st.model_sides = [SIDES.index(m.side) for m in state.models]
    st.model_profile = model_profile
    st.model_oracle = model_oracle
    st.profiles = profile_list
    st.oracle_names = list(oracles)
    objectives = []
    for o in state.objectives:
        obj = native.GameObjective()
        obj.name, obj.x, obj.y, obj.radius = o.name, float(o.x), float(o.y), float(o.radius)
        obj.kind, obj.points = o.kind, int(o.points)
        objectives.append(obj)
    st.objectives = objectives
    st.table_width = float(state.table.width)
    st.table_height = float(state.table.height)
    st.round_limit = int(state.round_limit)
    st.first_side = SIDES.index(state.first_side)
    owners = list(dict.fromkeys(state.momentum_owner[s] for s in SIDES))
    st.owners = owners
    st.side_owner = [owners.index(state.momentum_owner[s]) for s in SIDES]
    st.actions = list(action_specs(state.rules))
    st.conditions = list(condition_specs(state.rules))
    st.resources = list(resources)
    options = [option for _, option in state.resolution.choice_vocabulary()]
    if _is_ros(state.rules):  # the Combat Round's `choose` options
        from riven_env.native.riddle_of_steel import option_vocabulary

        options += option_vocabulary(ros_data_for(state.rules))
    st.options = list(dict.fromkeys([*options, "accept"]))
    st.destination_kinds = list(
        dict.fromkeys([*DESTINATION_KINDS, *_encoding_kinds(state.rules), "objective"])
    )
    st.system_keys = list(system_keys)
    st.setting = str(state.setting)
    try:
        st.validate()
    except ValueError as error:
        raise NativeStateError(f"scenario {state.scenario.name!r}: {error}") from None
    if len(_STATICS) >= _STATICS_LIMIT:
        _STATICS.clear()
    _STATICS[key] = (weakref.ref(state.scenario), st)
    return st


def _profile(native: Any, p: Any) -> Any:
    out = native.GameProfile()
    out.name = p.name
    out.might, out.agility, out.wit, out.resolve = p.might, p.agility, p.wit, p.resolve
    out.mettle, out.wounds = p.mettle, p.wounds
    out.move, out.base_diameter = float(p.move), float(p.base_diameter)
    out.has_melee = p.melee is not None
    out.melee_modifier = p.melee.modifier if p.melee is not None else 0
    out.has_ranged = p.ranged is not None
    out.ranged_range = float(p.ranged.range) if p.ranged is not None else 0.0
    out.ranged_modifier = p.ranged.modifier if p.ranged is not None else 0
    out.keywords = sorted(p.keywords)
    return out


def _index(names: list[str], name: str, what: str) -> int:
    try:
        return names.index(name)
    except ValueError:
        raise NativeStateError(f"{what} {name!r} is not in the game's vocabulary {names}") from None


def _context_tuple(context: Mapping[str, Any], st: Any) -> tuple:
    unknown = sorted(set(context) - CONTEXT_KEYS)
    if unknown:
        raise NativeStateError(
            f"pending context keys {unknown}: the native state holds {sorted(CONTEXT_KEYS)}"
        )
    action = context.get("action")
    destination = context.get("destination")
    return (
        -1 if action is None else _index(st.actions, action, "pending action"),
        int(context.get("target", -1)),
        int(context.get("objective", -1)),
        str(context.get("cover", "")),
        destination is not None,
        -1
        if destination is None
        else _index(st.destination_kinds, destination[0], "destination kind"),
        -1 if destination is None or destination[1] is None else int(destination[1]),
    )


def _invictus_tuple(roll: InvictusRoll) -> tuple:
    """The core's ``pending_invictus`` of an Invictus roll (its fields beyond a TestRoll's)."""
    if roll.pool != len(roll.dice) or len(roll.rolled_dice) != len(roll.dice):
        raise NativeStateError(
            f"Invictus roll: a pool of {roll.pool} with {len(roll.dice)} dice "
            "(the native state keeps the pool as its dice)"
        )
    from riven_env.native.invictus import invictus_roll_fields

    return (
        *invictus_roll_fields(roll),
        INVICTUS_BANDS.index(roll.rolled_band),
        None if roll.melee is None else [(m.source, int(m.value)) for m in roll.melee],
    )


def _new_world_tuple(roll: NewWorldRoll) -> tuple:
    """The core's ``pending_new_world`` of a New World roll (its fields beyond a TestRoll's)."""
    if len(roll.dice) != (2 if roll.rolled else 0):
        raise NativeStateError(
            f"New World roll: dice {tuple(roll.dice)} (the native state holds 2d6 once rolled)"
        )
    melee = None
    if roll.melee is not None:
        dice, bonus, mods = roll.melee
        melee = ([int(d) for d in dice], int(bonus), [(m.source, int(m.value)) for m in mods])
    return (
        int(roll.bonus),
        int(roll.difficulty),
        bool(roll.rolled),
        roll.chooser == "target",
        int(roll.helpers_available),
        int(roll.helpers),
        [int(k) for k in roll.helper_models],
        int(roll.luck_held),
        int(roll.luck_spent),
        melee,
        int(roll.defender_luck_held),
        int(roll.defender_luck_spent),
        int(roll.rolled_total),
        int(roll.margin),
    )


def _rolled_result(roll: Any) -> str:
    """A pending roll's band as rolled: a New World roll's without the Luck spent on it."""
    if type(roll) is NewWorldRoll:
        return replace(roll, luck_spent=0).result
    return roll.rolled_result


def _choice_tuple(state: Any) -> tuple:
    """The core's ``pending_choice`` of a Combat Round in the choice phase (its events written)."""
    from riven_env.native.riddle_of_steel import session_values

    session, i, context = state.pending
    if session.new_events or set(context) != {"action", "target"} or context["action"] != "melee":
        raise NativeStateError(
            "the choice phase's session: the native state holds a melee's drained session only"
        )
    zones = ros_data_for(state.rules).zones
    return (session_values(session, zones), int(i), int(context["target"]))


def _pending_tuple(pending: tuple, st: Any) -> tuple:
    roll, i, context = pending
    if type(roll) not in (TestRoll, InvictusRoll, NewWorldRoll):
        raise NativeStateError(
            f"pending record {type(roll).__name__}: the native state holds RIVEN's TestRoll, "
            "Invictus's InvictusRoll and New World's NewWorldRoll only"
        )
    # What every pending roll has: what is tested, its modifiers and TN.
    head = (
        roll.kind,
        roll.attribute,
        int(roll.attribute_value),
        [(m.source, int(m.value)) for m in roll.modifiers],
        int(roll.tn),
    )
    tail = (int(i), _context_tuple(context, st))
    if type(roll) is InvictusRoll:
        # The TestRoll part: RIVEN's bands, no 2d6 and no spends; the rest is
        # pending_invictus (_invictus_tuple).
        bands = (BANDS.index(roll.rolled_result), BANDS.index(roll.result))
        return (*head, (0, 0), *bands, [], 0, 0, 0, *tail)
    if type(roll) is NewWorldRoll:
        # The TestRoll part: the roller's 2d6 (zeros before the roll), the bands as rolled and
        # as they stand, the spends; the rest is pending_new_world (_new_world_tuple).
        dice = (int(roll.dice[0]), int(roll.dice[1])) if roll.rolled else (0, 0)
        bands = (BANDS.index(_rolled_result(roll)), BANDS.index(roll.result))
        return (*head, dice, *bands, list(roll.spends), 0, 0, 0, *tail)
    return (
        *head,
        (int(roll.dice[0]), int(roll.dice[1])),
        BANDS.index(roll.rolled_result),
        BANDS.index(roll.result),
        list(roll.spends),
        int(roll.momentum_spent),
        int(roll.strain_taken),
        int(roll.critical_momentum),
        *tail,
    )


def to_native(state: Any) -> Any:
    """The core ``GameState`` equal to ``state`` in every field (``state`` is left untouched).

    Raises:
        NativeStateError: ``state`` holds what the native state cannot (see the module doc).
    """
    native = load()
    st = native_static(state)
    out = native.GameState(st, 0)
    conditions = st.conditions
    resources = st.resources
    centers = state.bases.centers.tolist()
    radii = state.bases.radii.tolist()
    on_table = state.bases.on_table.tolist()
    try:
        for i, m in enumerate(state.models):
            last = state.last_position.get(i)
            out.set_model(
                i,
                (
                    centers[i][0],
                    centers[i][1],
                    radii[i],
                    m.wounds,
                    STATUSES.index(m.status),
                    on_table[i],
                    m.strain,
                    m.stable,
                    m.aim_bonus,
                    m.activated,
                    m.hunkered,
                    m.moved_or_attacked,
                    m.rested,
                    m.focused,
                    m.charged,
                    m.wounds_max,
                    [(_index(conditions, c, "Condition"), n) for c, n in m.conditions.items()],
                    [(_index(resources, r, "resource"), v) for r, v in m.resources.items()],
                    None if last is None else (float(last[0]), float(last[1])),
                ),
            )
        out.momentum = [state.momentum[owner] for owner in st.owners]
        out.points = [state.points[s] for s in SIDES]
        out.round = state.round
        out.side = SIDES.index(state.side)
        out.turn_index = state.turn_index
        out.in_turn = state.in_turn
        out.phase = PHASES.index(state.phase)
        out.active_model = -1 if state.active_model is None else state.active_model
        out.last_activated = -1 if state.last_activated is None else state.last_activated
        out.actions_left = state.actions_left
        out.turn_passes_after = state.turn_passes_after
        out.taken_actions = [_index(st.actions, a, "taken action") for a in state.taken_actions]
        choice = state.pending is not None and type(state.pending[0]) is MeleeSession
        out.pending = None if state.pending is None or choice else _pending_tuple(state.pending, st)
        out.pending_choice = _choice_tuple(state) if choice else None
        if state.pending is not None and type(state.pending[0]) is InvictusRoll:
            out.pending_invictus = _invictus_tuple(state.pending[0])
        if state.pending is not None and type(state.pending[0]) is NewWorldRoll:
            out.pending_new_world = _new_world_tuple(state.pending[0])
        out.decider = -1 if state.decider is None else SIDES.index(state.decider)
        out.system_state = [
            (st.system_keys.index(k[0]), int(k[1]), int(v)) for k, v in state.system_state.items()
        ]
        out.looted = sum(1 << k for k in state.looted)
        out.half_strength_tested = sum(1 << SIDES.index(s) for s in state.half_strength_tested)
        out.over = state.over
        out.winner = -1 if state.winner is None else SIDES.index(state.winner)
        out.end_reason = state.end_reason
        out.seq = state.seq
        out.rng = native_stream(state.rng)
        out.validate()
    except ValueError as error:  # the core's std::invalid_argument
        raise NativeStateError(f"cannot export the game state: {error}") from None
    except RivenError as error:
        if isinstance(error, NativeStateError):
            raise
        raise NativeStateError(f"cannot export the game state: {error}") from None
    return out


def python_view(state: Any) -> dict[str, Any]:
    """Every field of a Python ``GameState`` that the native state holds, as plain values."""
    centers = state.bases.centers.tolist()
    radii = state.bases.radii.tolist()
    on_table = state.bases.on_table.tolist()
    models = []
    for i, m in enumerate(state.models):
        last = state.last_position.get(i)
        models.append(
            {
                "id": m.id,
                "side": m.side,
                "profile": m.profile.name,
                "oracle": m.oracle,
                "x": centers[i][0],
                "y": centers[i][1],
                "radius": radii[i],
                "on_table": on_table[i],
                "wounds": m.wounds,
                "status": m.status,
                "stable": m.stable,
                "strain": m.strain,
                "conditions": list(m.conditions.items()),
                "activated": m.activated,
                "aim_bonus": m.aim_bonus,
                "hunkered": m.hunkered,
                "moved_or_attacked": m.moved_or_attacked,
                "rested": m.rested,
                "focused": m.focused,
                "charged": m.charged,
                "resources": dict(m.resources),
                "wounds_max": m.wounds_max,
                "last_position": None if last is None else (float(last[0]), float(last[1])),
            }
        )
    pending = None
    if state.pending is not None and type(state.pending[0]) is MeleeSession:
        session, i, context = state.pending
        pending = {"session": session, "model": i, "context": dict(context)}
    elif state.pending is not None:
        roll, i, context = state.pending
        pending = {
            "roll": {
                "kind": roll.kind,
                "attribute": roll.attribute,
                "attribute_value": roll.attribute_value,
                "modifiers": [(m.source, m.value) for m in roll.modifiers],
                "tn": roll.tn,
                "dice": tuple(roll.dice),
                "rolled_result": _rolled_result(roll),
                "result": roll.result,
                "spends": list(roll.spends),
                "momentum_spent": roll.momentum_spent,
                "strain_taken": roll.strain_taken,
                "critical_momentum": getattr(roll, "critical_momentum", 0),
                "margin": roll.margin,
            },
            "model": i,
            "context": {k: (tuple(v) if k == "destination" else v) for k, v in context.items()},
        }
        if type(roll) is InvictusRoll:
            pending["roll"]["invictus"] = _invictus_view(_invictus_tuple(roll))
        if type(roll) is NewWorldRoll:
            pending["roll"]["dice"] = tuple(roll.dice)
            pending["roll"]["new_world"] = _new_world_view(_new_world_tuple(roll))
    return {
        "models": models,
        "momentum": dict(state.momentum),
        "points": dict(state.points),
        "round": state.round,
        "round_limit": state.round_limit,
        "first_side": state.first_side,
        "side": state.side,
        "turn_index": state.turn_index,
        "in_turn": state.in_turn,
        "phase": state.phase,
        "active_model": state.active_model,
        "last_activated": state.last_activated,
        "actions_left": state.actions_left,
        "turn_passes_after": state.turn_passes_after,
        "taken_actions": list(state.taken_actions),
        "pending": pending,
        "decider": state.decider,
        "current_side": state.current_side,
        "system_state": dict(state.system_state),
        "looted": sorted(state.looted),
        "half_strength_tested": sorted(state.half_strength_tested),
        "over": state.over,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "seq": state.seq,
        "rng": state.rng.bit_generator.state,
    }


_INVICTUS_KEYS = (
    "dice",
    "rolled_dice",
    "danger",
    "factors",
    "fray",
    "favourable",
    "unfavourable",
    "score",
    "critical_health",
    "luck_held",
    "luck_spent",
    "spends",
    "rolled_band",
    "melee",
)


def _invictus_view(values: tuple) -> dict[str, Any]:
    """An Invictus roll's own fields (``pending_invictus``) as plain values."""
    out = dict(zip(_INVICTUS_KEYS, values, strict=True))
    for key in ("dice", "rolled_dice", "danger"):
        out[key] = tuple(out[key])
    out["factors"] = list(out["factors"])
    out["spends"] = list(out["spends"])
    out["rolled_band"] = INVICTUS_BANDS[out["rolled_band"]]
    if out["melee"] is not None:
        out["melee"] = [tuple(m) for m in out["melee"]]
    return out


_NEW_WORLD_KEYS = (
    "bonus",
    "difficulty",
    "rolled",
    "target_chooses",
    "helpers_available",
    "helpers",
    "helper_models",
    "luck_held",
    "luck_spent",
    "melee",
    "defender_luck_held",
    "defender_luck_spent",
    "rolled_total",
    "margin",
)


def _new_world_view(values: tuple) -> dict[str, Any]:
    """A New World roll's own fields (``pending_new_world``) as plain values."""
    out = dict(zip(_NEW_WORLD_KEYS, values, strict=True))
    out["helper_models"] = tuple(out["helper_models"])
    if out["melee"] is not None:
        dice, bonus, mods = out["melee"]
        out["melee"] = (tuple(dice), bonus, [tuple(m) for m in mods])
    return out


def native_view(native_state: Any) -> dict[str, Any]:
    """:func:`python_view` of a core ``GameState`` (the same keys and value types)."""
    st = native_state.statics
    profiles = st.profiles
    oracles = st.oracle_names
    conditions = st.conditions
    resources = st.resources
    models = []
    for i, (model_id, side, profile, oracle) in enumerate(
        zip(st.model_ids, st.model_sides, st.model_profile, st.model_oracle, strict=True)
    ):
        f = native_state.model(i)
        models.append(
            {
                "id": model_id,
                "side": SIDES[side],
                "profile": profiles[profile].name,
                "oracle": None if oracle < 0 else oracles[oracle],
                "x": f[0],
                "y": f[1],
                "radius": f[2],
                "on_table": f[5],
                "wounds": f[3],
                "status": STATUSES[f[4]],
                "stable": f[7],
                "strain": f[6],
                "conditions": [(conditions[c], n) for c, n in f[16]],
                "activated": f[9],
                "aim_bonus": f[8],
                "hunkered": f[10],
                "moved_or_attacked": f[11],
                "rested": f[12],
                "focused": f[13],
                "charged": f[14],
                "resources": {resources[r]: v for r, v in f[17]},
                "wounds_max": f[15],
                "last_position": f[18],
            }
        )
    pending = None
    raw = native_state.pending
    choice = native_state.pending_choice
    if choice is not None:
        from riven_env.native.riddle_of_steel import session_of

        values, model, target = choice
        pending = {
            "session": session_of(values),
            "model": model,
            "context": {"action": "melee", "target": target},
        }
    if raw is not None:
        (kind, attribute, value, mods, tn, dice, rolled, result, spends) = raw[:9]
        momentum_spent, strain_taken, critical, model, ctx = raw[9:]
        action, target, objective, cover, has_dest, dest_kind, dest_ref = ctx
        context: dict[str, Any] = {}
        if action >= 0:
            context["action"] = st.actions[action]
        if has_dest:
            context["destination"] = (
                st.destination_kinds[dest_kind],
                None if dest_ref < 0 else dest_ref,
            )
        if target >= 0:
            context["target"] = target
        if objective >= 0:
            context["objective"] = objective
        if cover:
            context["cover"] = cover
        total = sum(dice) + value + sum(v for _, v in mods)
        invictus = native_state.pending_invictus
        pending = {
            "roll": {
                "kind": kind,
                "attribute": attribute,
                "attribute_value": value,
                "modifiers": [tuple(m) for m in mods],
                "tn": tn,
                "dice": tuple(dice),
                "rolled_result": BANDS[rolled],
                "result": BANDS[result],
                "spends": list(spends),
                "momentum_spent": momentum_spent,
                "strain_taken": strain_taken,
                "critical_momentum": critical,
                "margin": total - tn,
            },
            "model": model,
            "context": context,
        }
        new_world = native_state.pending_new_world
        if new_world is not None:
            # A New World roll: no dice before the roll; its margin is its own.
            view = _new_world_view(new_world)
            pending["roll"].update(
                dice=tuple(dice) if view["rolled"] else (),
                margin=view["margin"],
                new_world=view,
            )
        if invictus is not None:
            # An Invictus roll: its pool and raises; its margin is its band's tier.
            view = _invictus_view(invictus)
            pending["roll"].update(
                dice=view["dice"],
                spends=list(view["spends"]),
                margin=BANDS.index(pending["roll"]["result"]),
                invictus=view,
            )
    current = native_state.current_side()
    half = native_state.half_strength_tested
    return {
        "models": models,
        "momentum": dict(zip(st.owners, native_state.momentum, strict=True)),
        "points": dict(zip(SIDES, native_state.points, strict=True)),
        "round": native_state.round,
        "round_limit": st.round_limit,
        "first_side": SIDES[st.first_side],
        "side": SIDES[native_state.side],
        "turn_index": native_state.turn_index,
        "in_turn": native_state.in_turn,
        "phase": PHASES[native_state.phase],
        "active_model": None if native_state.active_model < 0 else native_state.active_model,
        "last_activated": None if native_state.last_activated < 0 else native_state.last_activated,
        "actions_left": native_state.actions_left,
        "turn_passes_after": native_state.turn_passes_after,
        "taken_actions": [st.actions[a] for a in native_state.taken_actions],
        "pending": pending,
        "decider": None if native_state.decider < 0 else SIDES[native_state.decider],
        "current_side": None if current < 0 else SIDES[current],
        "system_state": {(st.system_keys[k], m): v for k, m, v in native_state.system_state},
        "looted": [k for k in range(64) if (native_state.looted >> k) & 1],
        "half_strength_tested": [s for k, s in enumerate(SIDES) if (half >> k) & 1],
        "over": native_state.over,
        "winner": None if native_state.winner < 0 else SIDES[native_state.winner],
        "end_reason": native_state.end_reason,
        "seq": native_state.seq,
        "rng": numpy_state(native_state.rng),
    }


def from_native(native_state: Any, like: Any) -> Any:
    """A Python ``GameState`` equal to ``native_state``: a copy of ``like`` (any state of the same
    game: the scenario, rules and table are shared) with every mutable field taken from the core.

    Raises:
        NativeStateError: ``native_state`` is not of ``like``'s game (another static part).
    """
    st = native_state.statics
    if list(st.model_ids) != [m.id for m in like.models]:
        raise NativeStateError(
            "from_native: the native state's models "
            f"{list(st.model_ids)} are not those of the Python game {[m.id for m in like.models]}"
        )
    view = native_view(native_state)
    state = like.copy()
    for i, (model, fields) in enumerate(zip(state.models, view["models"], strict=True)):
        state.bases.centers[i, 0] = fields["x"]
        state.bases.centers[i, 1] = fields["y"]
        state.bases.radii[i] = fields["radius"]
        state.bases.on_table[i] = fields["on_table"]
        for name in (
            "wounds", "status", "stable", "strain", "activated", "aim_bonus", "hunkered",
            "moved_or_attacked", "rested", "focused", "charged", "wounds_max",
        ):  # fmt: skip
            setattr(model, name, fields[name])
        model.conditions = dict(fields["conditions"])
        model.resources = dict(fields["resources"])
    state.last_position = {
        i: fields["last_position"]
        for i, fields in enumerate(view["models"])
        if fields["last_position"] is not None
    }
    state.momentum = dict(view["momentum"])
    state.points = dict(view["points"])
    for name in (
        "round", "side", "turn_index", "in_turn", "phase", "active_model", "last_activated",
        "actions_left", "turn_passes_after", "decider", "over", "winner", "end_reason", "seq",
    ):  # fmt: skip
        setattr(state, name, view[name])
    state.taken_actions = list(view["taken_actions"])
    state.system_state = dict(view["system_state"])
    state.looted = set(view["looted"])
    state.half_strength_tested = set(view["half_strength_tested"])
    pending = view["pending"]
    if pending is None:
        state.pending = None
    elif "session" in pending:
        state.pending = (pending["session"], pending["model"], dict(pending["context"]))
    elif "new_world" in pending["roll"]:
        state.pending = (
            _new_world_roll(pending["roll"], like),
            pending["model"],
            dict(pending["context"]),
        )
    elif "invictus" in pending["roll"]:
        state.pending = (
            _invictus_roll(pending["roll"], like),
            pending["model"],
            dict(pending["context"]),
        )
    else:
        roll = pending["roll"]
        state.pending = (
            TestRoll(
                kind=roll["kind"],
                attribute=roll["attribute"],
                attribute_value=roll["attribute_value"],
                modifiers=tuple(Modifier(source, value) for source, value in roll["modifiers"]),
                tn=roll["tn"],
                dice=tuple(roll["dice"]),
                rolled_result=roll["rolled_result"],
                result=roll["result"],
                spends=tuple(roll["spends"]),
                momentum_spent=roll["momentum_spent"],
                strain_taken=roll["strain_taken"],
                critical_momentum=roll["critical_momentum"],
            ),
            pending["model"],
            dict(pending["context"]),
        )
    state.rng = to_generator(native_state.rng)
    # Derived caches of the copy describe ``like``'s position, not this one.
    state._legal = None
    state.positions_changed()
    state._memo_key = None
    state._memo = {}
    return state


def _invictus_roll(roll: Mapping[str, Any], like: Any) -> InvictusRoll:
    """The Python InvictusRoll of a native pending roll's view."""
    inv = roll["invictus"]
    return InvictusRoll(
        kind=roll["kind"],
        attribute=roll["attribute"],
        attribute_value=roll["attribute_value"],
        modifiers=tuple(Modifier(source, value) for source, value in roll["modifiers"]),
        tn=roll["tn"],
        pool=len(inv["dice"]),
        dice=tuple(inv["dice"]),
        rolled_dice=tuple(inv["rolled_dice"]),
        danger=tuple(inv["danger"]),
        factors=tuple(inv["factors"]),
        fray=inv["fray"],
        favourable=inv["favourable"],
        unfavourable=inv["unfavourable"],
        score=inv["score"],
        critical_health=inv["critical_health"],
        luck_held=inv["luck_held"],
        luck_spent=inv["luck_spent"],
        spends=tuple(inv["spends"]),
        rolled_band=inv["rolled_band"],
        melee=None if inv["melee"] is None else tuple(Modifier(s, v) for s, v in inv["melee"]),
        settings=settings_for(like.rules),
    )


def _new_world_roll(roll: Mapping[str, Any], like: Any) -> NewWorldRoll:
    """The Python NewWorldRoll of a native pending roll's view."""
    nw = roll["new_world"]
    melee = nw["melee"]
    return NewWorldRoll(
        kind=roll["kind"],
        attribute=roll["attribute"],
        attribute_value=roll["attribute_value"],
        modifiers=tuple(Modifier(source, value) for source, value in roll["modifiers"]),
        tn=roll["tn"],
        bonus=nw["bonus"],
        difficulty=nw["difficulty"],
        dice=tuple(roll["dice"]),
        helpers_available=nw["helpers_available"],
        helpers=nw["helpers"],
        helper_models=tuple(nw["helper_models"]),
        luck_held=nw["luck_held"],
        luck_spent=nw["luck_spent"],
        spends=tuple(roll["spends"]),
        rolled=nw["rolled"],
        chooser="target" if nw["target_chooses"] else "actor",
        melee=None
        if melee is None
        else (tuple(melee[0]), melee[1], tuple(Modifier(s, v) for s, v in melee[2])),
        defender_luck_held=nw["defender_luck_held"],
        defender_luck_spent=nw["defender_luck_spent"],
        rolled_total=nw["rolled_total"],
        settings=new_world_settings(like.rules),
    )


def dumps_event(event: Mapping[str, Any]) -> str:
    """:func:`riven_env.game.events.dumps_event` by the native writer (the same bytes).

    Raises:
        NativeStateError: A value has no JSON form (the message names its type).
    """
    try:
        return load().dumps_event(event)
    except ValueError as error:
        raise NativeStateError(f"event {event.get('type')!r}: {error}") from None


def dumps_events(events: list[Mapping[str, Any]]) -> str:
    """The JSON Lines text of ``events`` (as ``write_jsonl`` writes them) by the native writer."""
    try:
        return load().dumps_events(events)
    except ValueError as error:
        raise NativeStateError(f"events: {error}") from None
