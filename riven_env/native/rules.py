"""The native rules engine (cpp/riven/rules) behind the Python engine's own function signatures.

Every function here has the name, arguments and results of its twin in :mod:`riven_env.rules`
and gives the same answer, draw for draw: the records returned are the very dataclasses of
:mod:`riven_env.rules.results`. ``tests/test_native_rules*.py`` prove it.

Rules stay data: the core does not read TOML. :func:`native_rules` converts a validated
:class:`~riven_env.rules.config.RulesConfig` into the core's ``RulesConfig`` struct once per
config (cached by its fingerprint), with every key and variant the Python engine reads.

The stream argument ``rng`` may be

- a core ``Pcg64`` (:func:`riven_env.native.random.native_stream`): the fast path, nothing is
  converted;
- a ``numpy.random.Generator`` on PCG64: its state goes into the core and the state after the
  draws is written back into it, so the Generator ends exactly where the Python engine leaves
  it (slower: two state conversions per call);
- a scripted stand-in with a ``faces`` list (the rule tests' ``ScriptedRng``): the faces drawn
  are removed from the list, as the stand-in itself does.

Every bundled resolution system's dice engine is in the core
(:class:`riven_env.native.invictus.NativeInvictusResolution`,
:class:`riven_env.native.new_world.NativeNewWorldResolution`,
:class:`riven_env.native.riddle_of_steel.NativeRiddleOfSteelResolution`) and the native game
loop plays them, so they are in :data:`NATIVE_SYSTEMS`; :func:`native_resolution` names a
system registered in Python only that the core does not have.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from riven_env.errors import IllegalActionError, ProfileError, RulesDataError
from riven_env.native import NativeUnavailableError, load
from riven_env.native.random import native_stream, numpy_state
from riven_env.rules.complications import complication_table
from riven_env.rules.conditions import ConditionLimits, condition_specs
from riven_env.rules.config import RulesConfig
from riven_env.rules.morale import MoraleTrigger, morale_triggers
from riven_env.rules.profiles import Weapon, weapon_traits
from riven_env.rules.results import (
    ActivationResult,
    Complication,
    MeleeResult,
    Modifier,
    MoraleResult,
    OutCheckResult,
    ShotEffect,
    ShotResult,
    StrainChange,
    TestResult,
    TestRoll,
)

__all__ = [
    "NATIVE_SYSTEMS",
    "NativeRivenResolution",
    "add_momentum",
    "apply_spend",
    "band_for_margin",
    "can_afford",
    "can_take_strain",
    "classify_activation",
    "classify_melee",
    "condition_limits",
    "condition_modifiers",
    "conditions_expiring",
    "conditions_removed_by",
    "difficulty_tn",
    "effective_cover",
    "enabled_morale_triggers",
    "finalise",
    "flee_distance",
    "gain_strain",
    "in_range",
    "make_test_roll",
    "may_shoot_into_melee",
    "melee_from_dice",
    "melee_modifiers",
    "momentum_cost",
    "momentum_gain",
    "momentum_pool_owner",
    "native_resolution",
    "native_rules",
    "native_weapon",
    "overflow_condition",
    "resolve_melee",
    "rest_strain",
    "roll_activation",
    "roll_complication",
    "roll_morale",
    "roll_out_check",
    "roll_test",
    "roll_wound_check",
    "shot_effect",
    "shot_modifiers",
    "shot_result",
    "shot_tn",
    "spend_options",
    "stabilise_range",
    "starting_momentum",
    "strain_gain_amount",
    "strain_max",
]

NATIVE_SYSTEMS: tuple[str, ...] = ("riven", "invictus", "new-world", "riddle-of-steel")
"""Resolution systems (``meta.resolution``) whose dice engine the core has (the core's own
``ported_systems()``, cpp/riven/rules/resolution.hpp; a test keeps the two equal)."""

_T = TypeVar("_T")


# ---------------------------------------------------------------- the rules data


@functools.lru_cache(maxsize=32)
def native_rules(rules: RulesConfig) -> Any:
    """The core's ``RulesConfig`` for validated Python rules (built once per config).

    Every key the Python engine reads is carried: dice, activation (``turnover`` and the SBH
    keys), tests (bands, difficulties), melee, shooting (cover order and TNs, effects),
    casualties, morale (``flight_route``, every trigger), engagement (``forbids``), Momentum
    (``pool``, ``bonus_mode``, every ``gain.*`` and ``cost.*``), Strain (``gain.*``, the
    overflow table), every Condition, the Complication Oracle, weapon traits and distances.

    Raises:
        NativeUnavailableError: The core is not built.
        RulesDataError: The data holds a value the core cannot take (the message names it).
    """
    native = load()
    config = native.RulesConfig()
    config.source = rules.source
    config.fingerprint = rules.fingerprint
    try:
        config.system = str(rules.get("meta.resolution"))
    except ValueError as error:
        raise RulesDataError(f"{rules.source}: {error}") from None
    config.dice_faces = int(rules.get("dice.faces"))

    activation = config.activation
    activation.max_dice = int(rules.get("activation.max_dice"))
    activation.turnover = str(rules.get("activation.turnover"))
    activation.sbh_failures_to_pass = int(rules.get("activation.sbh_failures_to_pass"))
    activation.sbh_no_success_passes = bool(rules.get("activation.sbh_no_success_passes"))

    test = config.test
    test.dice = int(rules.get("test.dice"))
    test.default_difficulty = str(rules.get("test.default_difficulty"))
    test.partial_strain = int(rules.get("test.partial_strain"))
    test.miss_max = int(rules.get("test.bands.miss_max"))
    test.partial_max = int(rules.get("test.bands.partial_max"))
    test.hit_max = int(rules.get("test.bands.hit_max"))
    test.difficulty = _named_ints(rules.section("test.difficulty"))

    melee = config.melee
    for key in (
        "charge_bonus",
        "outnumbered_penalty",
        "wound_margin",
        "critical_ratio",
        "wound_wounds",
        "critical_wounds",
        "critical_loser_floor",
    ):
        setattr(melee, key, int(rules.get(f"melee.{key}")))
    melee.recoil_distance = float(rules.get("melee.recoil_distance"))
    melee.critical_condition = str(rules.get("melee.critical_condition"))

    shooting = config.shooting
    shooting.attribute = str(rules.get("shooting.attribute"))
    shooting.cover_order = [str(c) for c in rules.get("shooting.cover_order")]
    shooting.cover_tn = _named_ints(rules.section("shooting.cover_tn"))
    shooting.into_melee_needs_adjacent_friend = bool(
        rules.get("shooting.into_melee_needs_adjacent_friend")
    )
    shooting.down_models_in_melee = bool(rules.get("shooting.down_models_in_melee"))
    shooting.exposed_condition = str(rules.get("shooting.exposed_condition"))
    for band, table in rules.section("shooting.effects").items():
        shooting.set_effect(
            str(band),
            int(table["wounds"]),
            float(table["push_distance"]),
            bool(table["shooter_exposed"]),
            bool(table["complication"]),
        )

    config.casualties.out_check_dice = int(rules.get("casualties.out_check_dice"))
    config.casualties.stabilise_cost = int(rules.get("casualties.stabilise_cost"))

    morale = config.morale
    morale.test_dice = int(rules.get("morale.test_dice"))
    morale.flee_dice = int(rules.get("morale.flee_dice"))
    morale.flee_base = float(rules.get("morale.flee_base"))
    morale.flight_route = str(rules.get("morale.flight_route"))
    morale.triggers = [_native_trigger(native, t) for t in morale_triggers(rules).values()]

    config.engagement.forbids = [str(a) for a in rules.get("engagement.forbids")]

    momentum = config.momentum
    momentum.pool = str(rules.get("momentum.pool"))
    momentum.solo_hero_pool = str(rules.get("momentum.solo_hero_pool"))
    for key in ("start", "cap", "max_rerolls_per_test", "max_boosts_per_test"):
        setattr(momentum, key, int(rules.get(f"momentum.{key}")))
    momentum.boost_ceiling = str(rules.get("momentum.boost_ceiling"))
    momentum.bonus_mode = str(rules.get("momentum.bonus_mode"))
    momentum.gain = _named_ints(rules.section("momentum.gain"))
    momentum.cost = _named_ints(rules.section("momentum.cost"))

    strain = config.strain
    for key in ("track_per_wit", "spend_cost", "rest_removes"):
        setattr(strain, key, int(rules.get(f"strain.{key}")))
    strain.spend_may_overflow = bool(rules.get("strain.spend_may_overflow"))
    strain.gain = _named_ints(rules.section("strain.gain"))
    overflow = rules.section("strain.overflow_table")
    strain.overflow_table = [str(overflow[str(face)]) for face in range(1, config.dice_faces + 1)]

    config.conditions = [
        _native_condition(native, spec)
        for _, spec in sorted(condition_specs(rules).items(), key=lambda item: item[0])
    ]
    config.complications = [
        _native_complication(native, entry)
        for _, entry in sorted(complication_table(rules).items(), key=lambda item: item[0])
    ]
    config.weapon_traits = [
        _native_trait(native, trait)
        for _, trait in sorted(weapon_traits(rules).items(), key=lambda item: item[0])
    ]
    config.distances = [
        (str(key), float(value))
        for key, value in rules.section("distances").items()
        if not isinstance(value, Mapping)
    ]
    if rules.has("invictus"):
        _native_invictus(config.invictus, rules)
        config.has_invictus = True
    if rules.has("new_world"):
        _native_new_world(config.new_world, rules)
        config.has_new_world = True
    if rules.has("riddle_of_steel"):
        _native_riddle_of_steel(native, config.riddle_of_steel, rules)
        config.has_riddle_of_steel = True
    try:
        config.prepare()
    except ValueError as error:
        raise RulesDataError(f"{rules.source}: {error}") from None
    return config


def _native_invictus(native: Any, rules: RulesConfig) -> None:
    """Fill the core's ``InvictusRules`` from the parsed ``[invictus]`` table (every key)."""
    from riven_env.rules.systems.invictus import INVICTUS_BANDS, settings_for

    s = settings_for(rules)
    for key in (
        "attribute_offset",
        "min_dice",
        "max_dice",
        "standard_tn",
        "tn_step",
        "steps_per_die",
        "miss_max",
        "swing_max",
        "crit_sixes",
        "danger_max",
        "soft_max",
        "bite_face",
        "luck_start",
        "luck_crit_gain",
        "luck_cap",
        "luck_raise",
        "deaths_door_overflow",
        "critical_health_dice",
        "melee_wounds",
        "melee_crit_wounds",
        "oracle_reserve",
    ):
        setattr(native, key, int(getattr(s, key)))
    for key in ("bite_on", "factors", "exposed_conditions"):
        setattr(native, key, [str(v) for v in getattr(s, key)])
    for kind in ("soft", "hard"):
        move = getattr(native, kind)
        move.effect, move.amount = str(getattr(s, kind)[0]), int(getattr(s, kind)[1])
        setattr(native, kind, move)
    native.melee = [str(s.melee[band]) for band in INVICTUS_BANDS]
    native.cover_score = [(str(c), int(v)) for c, v in s.cover_score.items()]
    native.oracle_lifts_to = str(s.oracle_lifts_to)


def _native_new_world(native: Any, rules: RulesConfig) -> None:
    """Fill the core's ``NewWorldRules`` from the parsed ``[new_world]`` table (every key)."""
    from riven_env.rules.systems.new_world import settings_for

    s = settings_for(rules)
    for key in (
        "dice",
        "roll_limit",
        "modifier_limit",
        "characteristic_offset",
        "rank_default",
        "difficulty_offset",
        "critical_margin",
        "partial_within",
        "passive_base",
        "wound_margin",
        "melee_critical_margin",
        "helpers_max",
        "helper_bonus",
        "shared_risk_margin",
        "shared_risk_strain",
        "luck_default",
        "luck_per_point",
        "oracle_sure",
        "oracle_luck_max",
    ):
        setattr(native, key, int(getattr(s, key)))
    for key in ("snake_eyes_fails", "defender_strikes_back"):
        setattr(native, key, bool(getattr(s, key)))
    for key in ("shot_characteristic", "melee_characteristic"):
        setattr(native, key, str(getattr(s, key)))
    for key in ("rank_by_keyword", "cover_modifier", "luck_by_keyword"):
        setattr(native, key, _named_ints(getattr(s, key)))
    native.helper_kinds = [str(kind) for kind in s.helper_kinds]


def _native_riddle_of_steel(native: Any, target: Any, rules: RulesConfig) -> None:
    """Fill the core's ``RiddleOfSteelRules`` from the validated ``[riddle_of_steel]`` data
    (:class:`~riven_env.rules.systems.ros_data.RosData`: every key, tables in data order)."""
    from riven_env.rules.systems.ros_data import ros_data_for

    d = ros_data_for(rules)
    for key in (
        "faces",
        "stack_on",
        "max_stacks",
        "fumble_ones",
        "min_tn",
        "proficiency_base",
        "proficiency_min",
        "feint_min",
        "test_modifier_dice",
        "test_min_dice",
        "shot_atn",
        "exchanges",
        "modifier_dice",
        "feint_cost",
        "feint_die_cost_near",
        "feint_die_cost_far",
        "counter_fail_extra_successes",
        "stand_steal_cost",
        "knockdown_tn_per_margin",
        "max_wound_level",
    ):
        setattr(target, key, int(getattr(d, key)))
    for key in ("duck_weave_pool_loss", "fumble_pool_loss"):
        setattr(target, key, float(getattr(d, key)))
    for key in ("counter_bonus", "knockdown_condition", "bleeding_condition", "default_stance"):
        setattr(target, key, str(getattr(d, key)))
    target.attributes = [
        _filled(native.RosAttributeSpec(), name=name, from_=source, offset=int(offset))
        for name, source, offset in d.attributes
    ]
    target.test_attribute_for = [(str(k), str(v)) for k, v in d.test_attribute_for.items()]
    target.tn_for_riven_tn = [(int(k), int(v)) for k, v in d.tn_for_riven_tn]
    target.bands = [(str(band), int(least)) for band, least in d.bands]
    target.cover_tn = _named_ints(d.cover_tn)
    target.ignore_modifier_sources = [str(p) for p in d.ignore_modifier_sources]
    target.attacks = [
        _filled(
            native.RosAttack(), name=a.name, extra=a.extra, bonus_dice=a.bonus_dice, damage=a.damage
        )
        for a in d.attacks.values()
    ]
    target.defences = [
        _filled(
            native.RosDefence(),
            name=x.name,
            source=x.dtn if isinstance(x.dtn, str) else "number",
            dtn=0 if isinstance(x.dtn, str) else int(x.dtn),
            cost=x.cost,
            needs_shield=x.needs_shield,
        )
        for x in d.defences.values()
    ]
    # A zone's near zones and a shield's zones in the data's own order (the engine reads
    # membership only; the Oracle sorts near zones by the zones' order itself).
    raw = rules.raw.get("riddle_of_steel", {})
    target.zones = [
        _filled(
            native.RosZone(),
            zone=zone,
            name=d.zone_names[zone],
            near=_listed(raw, ("zones", zone, "near"), d.zones, d.zone_near[zone]),
        )
        for zone in d.zones
    ]
    target.weapons = [
        _filled(native.RosWeapon(), name=w.name, atn=w.atn, dtn=w.dtn, dr=w.dr, shield=w.shield)
        for w in d.weapons.values()
    ]
    target.weapon_traits = [
        _filled(
            native.RosWeaponTrait(),
            name=str(trait),
            dr=int(entry.get("dr", 0)),
            sets_shield="shield" in entry,
            shield=str(entry.get("shield", "")),
        )
        for trait, entry in d.weapon_traits.items()
    ]
    target.shields = [
        _filled(
            native.RosShield(),
            name=x.name,
            dtn=x.dtn,
            passive_av=x.passive_av,
            zones=_listed(raw, ("shields", x.name, "zones"), d.zones, x.zones),
        )
        for x in d.shields.values()
    ]
    target.damage = [
        _filled(
            native.RosDamageRow(),
            zone=str(row),
            levels=[
                _filled(
                    native.RosWound(),
                    shock=cell.shock,
                    pain=cell.pain,
                    bl=cell.bl,
                    wounds=cell.wounds,
                    effect=cell.effect,
                    text=cell.text,
                )
                for _, cell in sorted(cells.items())
            ],
        )
        for row, cells in d.damage.items()
    ]
    target.stances_by_profile = [(str(k), str(v)) for k, v in d.stances_by_profile.items()]
    target.stances = [
        _filled(
            native.RosStance(),
            name=x.name,
            first_attack_share=float(x.first_attack_share),
            defence_share=float(x.defence_share),
        )
        for x in d.stances.values()
    ]


def _listed(
    raw: Mapping[str, Any], path: tuple[str, ...], order: Sequence[str], members: Any
) -> list[str]:
    """The list at ``path`` of the raw table as written, else ``members`` in ``order``."""
    found: Any = raw
    for key in path:
        found = found.get(key) if isinstance(found, Mapping) else None
    if isinstance(found, list) and set(found) == set(members):
        return [str(z) for z in found]
    return [z for z in order if z in members]


def _filled(target: Any, **fields: Any) -> Any:
    """``target`` with ``fields`` set (the core's plain data structs have no keyword init)."""
    for key, value in fields.items():
        setattr(target, key, value)
    return target


def _named_ints(table: Mapping[str, Any]) -> list[tuple[str, int]]:
    return [(str(key), int(value)) for key, value in table.items()]


def _native_trigger(native: Any, trigger: MoraleTrigger) -> Any:
    out = native.MoraleTrigger()
    out.name = trigger.name
    out.enabled = trigger.enabled
    out.description = trigger.description
    out.radius = float(trigger.params.get("radius", 0.0))
    out.fraction = float(trigger.params.get("fraction", 0.0))
    out.keyword = str(trigger.params.get("keyword", ""))
    return out


def _native_condition(native: Any, spec: Any) -> Any:
    out = native.ConditionSpec()
    for key in (
        "name",
        "description",
        "test_modifier",
        "melee_modifier",
        "shot_modifier",
        "move_penalty",
        "max_actions",
        "max_dice",
        "cover_against_shots",
        "end_of_turn_wound_check",
        "expires",
    ):
        setattr(out, key, getattr(spec, key))
    out.forbids = sorted(spec.forbids)
    out.removed_by = sorted(spec.removed_by)
    return out


def _native_complication(native: Any, entry: Complication) -> Any:
    out = native.Complication()
    for key in ("roll", "name", "text", "effect", "amount", "condition"):
        setattr(out, key, getattr(entry, key))
    out.flavour = [(str(k), str(v)) for k, v in entry.flavour.items()]
    return out


def _native_trait(native: Any, trait: Any) -> Any:
    out = native.WeaponTrait()
    for key in (
        "name",
        "description",
        "melee_modifier",
        "charge_modifier",
        "defend_modifier",
        "shot_modifier",
        "cover_steps",
    ):
        setattr(out, key, getattr(trait, key))
    return out


def native_weapon(weapon: Weapon | None) -> Any:
    """The core's ``Weapon`` for a profile's weapon (``None`` stays ``None``)."""
    if weapon is None:
        return None
    return _weapon(weapon.name, weapon.kind, float(weapon.range), weapon.modifier, weapon.traits)


@functools.lru_cache(maxsize=256)
def _weapon(name: str, kind: str, reach: float, modifier: int, traits: frozenset[str]) -> Any:
    out = load().Weapon()
    out.name, out.kind, out.range, out.modifier = name, kind, reach, modifier
    out.traits = sorted(traits)
    return out


# ---------------------------------------------------------------- streams and errors


class _stream:  # noqa: N801 (used as a function: ``with _stream(rng) as stream``)
    """The core stream for ``rng``, and ``rng`` brought to where the core left it afterwards.

    A class rather than a generator context manager: it runs on every call, and the core's own
    streams pass straight through.
    """

    __slots__ = ("_faces", "_rng", "_stream")

    def __init__(self, rng: Any) -> None:
        self._rng = rng
        self._stream: Any = None
        self._faces: list[int] | None = None

    def __enter__(self) -> Any:
        rng, native = self._rng, _core()
        if type(rng) is native.Pcg64 or type(rng) is native.ScriptedDice:
            return rng
        if isinstance(rng, np.random.Generator):
            self._stream = native_stream(rng)
            return self._stream
        # The rule tests' stand-ins: ScriptedRng (tests/test_rules_engine.py) keeps its faces
        # in ``faces``, FixedDice (tests/conftest.py) in ``queue`` with a ``dealt`` record.
        faces = getattr(rng, "faces", getattr(rng, "queue", None))
        if isinstance(faces, list):
            self._faces = faces
            self._stream = native.ScriptedDice([int(f) for f in faces])
            return self._stream
        raise TypeError(
            "rng: expected a numpy Generator, a native Pcg64 or scripted faces, "
            f"got {type(rng).__name__}"
        )

    def __exit__(self, *_: object) -> None:
        if self._stream is None:
            return
        if self._faces is None:
            self._rng.bit_generator.state = numpy_state(self._stream)
            return
        used = self._stream.used
        dealt = getattr(self._rng, "dealt", None)
        if isinstance(dealt, list):
            dealt.extend(self._faces[:used])
        del self._faces[:used]


@functools.cache
def _core() -> Any:
    """The extension module (looked up once; :func:`riven_env.native.load` explains a failure)."""
    return load()


def _call(function: Callable[..., _T], *args: Any) -> _T:
    """Call the core, turning its errors into the project's (the message is the core's)."""
    native = _core()
    try:
        return function(*args)
    except native.RulesDataError as error:
        raise RulesDataError(str(error)) from None
    except native.ProfileError as error:
        raise ProfileError(str(error)) from None


def _mods(modifiers: Iterable[Modifier]) -> list[tuple[str, int]]:
    return [(m.source, m.value) for m in modifiers]


def _modifiers(pairs: Sequence[tuple[str, int]]) -> tuple[Modifier, ...]:
    return tuple(Modifier(source, value) for source, value in pairs)


def _head_fields(values: Sequence[Any]) -> dict[str, Any]:
    """The fields every pending roll starts with (``kind``, ``attribute``, ``attribute_value``,
    ``modifiers``, ``tn``) from the head of the core's roll tuple (RIVEN's and each ported
    system's)."""
    kind, attribute, value, mods, tn = values[:5]
    return {
        "kind": kind,
        "attribute": attribute,
        "attribute_value": value,
        "modifiers": _modifiers(mods),
        "tn": tn,
    }


def _head_values(roll: Any) -> tuple[Any, ...]:
    """The head of the core's roll tuple (see :func:`_head_fields`) of a pending roll."""
    return (
        roll.kind,
        roll.attribute,
        int(roll.attribute_value),
        _mods(roll.modifiers),
        int(roll.tn),
    )


def _conditions(conditions: Iterable[str]) -> list[str]:
    return [str(c) for c in conditions]


# ---------------------------------------------------------------- activation


def _activation(values: tuple[Any, ...]) -> ActivationResult:
    return ActivationResult(*values)


def classify_activation(
    dice_values: Sequence[int], mettle: int, rules: RulesConfig
) -> ActivationResult:
    """See :func:`riven_env.rules.activation.classify_activation`."""
    config = native_rules(rules)
    dice = [int(v) for v in dice_values]
    try:
        return _activation(_call(_core().classify_activation, dice, mettle, config))
    except _core().IllegalAction:
        raise IllegalActionError(
            f"activation with {len(dice)} dice",
            legal=range(1, config.activation.max_dice + 1),
            reason="activation.max_dice",
        ) from None


def roll_activation(mettle: int, dice: int, rng: Any, rules: RulesConfig) -> ActivationResult:
    """See :func:`riven_env.rules.activation.roll_activation`."""
    config = native_rules(rules)
    with _stream(rng) as stream:
        try:
            return _activation(_call(_core().roll_activation, mettle, dice, stream, config))
        except _core().IllegalAction:
            raise IllegalActionError(
                f"activate with {dice} dice",
                legal=range(1, config.activation.max_dice + 1),
                reason="activation.max_dice",
            ) from None


# ---------------------------------------------------------------- 2d6 tests


def _roll(values: tuple[Any, ...], modifiers: tuple[Modifier, ...] | None = None) -> TestRoll:
    """A TestRoll from the core's tuple.

    ``modifiers``: the caller's own Modifier records, which the core hands back unchanged
    (building them again would cost more than the roll itself).
    """
    kind, attribute, value, mods, tn, dice, rolled, result, spends, spent, taken, crit = values
    return TestRoll(
        kind,
        attribute,
        value,
        _modifiers(mods) if modifiers is None else modifiers,
        tn,
        tuple(dice),
        rolled,
        result,
        tuple(spends),
        spent,
        taken,
        crit,
    )


def _roll_tuple(roll: TestRoll) -> tuple[Any, ...]:
    return (
        *_head_values(roll),
        (int(roll.dice[0]), int(roll.dice[1])),
        roll.rolled_result,
        roll.result,
        list(roll.spends),
        int(roll.momentum_spent),
        int(roll.strain_taken),
        int(roll.critical_momentum),
    )


def band_for_margin(margin: int, rules: RulesConfig) -> str:
    """See :func:`riven_env.rules.tests_2d6.band_for_margin`."""
    return str(_core().band_for_margin(margin, native_rules(rules)))


def difficulty_tn(name: str, rules: RulesConfig) -> int:
    """See :func:`riven_env.rules.tests_2d6.difficulty_tn`."""
    return int(_call(_core().difficulty_tn, name, native_rules(rules)))


def make_test_roll(
    kind: str,
    attribute: str,
    attribute_value: int,
    tn: int,
    modifiers: Sequence[Modifier],
    dice: tuple[int, int],
    rules: RulesConfig,
) -> TestRoll:
    """See :func:`riven_env.rules.tests_2d6.make_test_roll`."""
    native = _core()
    return _roll(
        native.make_test_roll(
            kind,
            attribute,
            attribute_value,
            tn,
            _mods(modifiers),
            (int(dice[0]), int(dice[1])),
            native_rules(rules),
        )
    )


def roll_test(
    kind: str,
    attribute: str,
    attribute_value: int,
    tn: int,
    modifiers: Sequence[Modifier],
    rng: Any,
    rules: RulesConfig,
) -> TestRoll:
    """See :func:`riven_env.rules.tests_2d6.roll_test`."""
    config = native_rules(rules)
    mods = tuple(modifiers)
    with _stream(rng) as stream:
        values = _core().roll_test(
            kind, attribute, attribute_value, tn, _mods(mods), stream, config
        )
    return _roll(values, mods)


def spend_options(
    roll: TestRoll, *, momentum: int, strain: int, strain_max: int, rules: RulesConfig
) -> list[str]:
    """See :func:`riven_env.rules.tests_2d6.spend_options`."""
    return list(
        _core().spend_options(_roll_tuple(roll), momentum, strain, strain_max, native_rules(rules))
    )


def apply_spend(roll: TestRoll, option: str, rng: Any, rules: RulesConfig) -> TestRoll:
    """See :func:`riven_env.rules.tests_2d6.apply_spend`."""
    native = _core()
    config = native_rules(rules)
    values = _roll_tuple(roll)
    with _stream(rng) as stream:
        try:
            return _roll(
                _call(native.apply_spend, values, option, stream, config), tuple(roll.modifiers)
            )
        except native.IllegalAction:
            allowed = list(native.structural_options(values, config))
            raise IllegalActionError(
                option, allowed, reason=f"spend on a {roll.result} {roll.kind} test"
            ) from None


def finalise(roll: TestRoll) -> TestResult:
    """See :func:`riven_env.rules.tests_2d6.finalise`."""
    values = _core().finalise(_roll_tuple(roll))
    kind, attribute, value, _, tn, dice, total, result, rolled, spends, spent, taken, gained = (
        values
    )
    return TestResult(
        kind,
        attribute,
        value,
        tuple(roll.modifiers),  # handed back unchanged by the core
        tn,
        tuple(dice),
        total,
        result,
        rolled,
        tuple(spends),
        spent,
        taken,
        gained,
    )


# ---------------------------------------------------------------- melee


def _melee(
    values: tuple[Any, ...],
    attacker_modifiers: tuple[Modifier, ...] | None = None,
    defender_modifiers: tuple[Modifier, ...] | None = None,
) -> MeleeResult:
    """A MeleeResult from the core's tuple (the caller's modifiers, handed back unchanged)."""
    (
        a_dice,
        d_dice,
        a_mods,
        d_mods,
        a_total,
        d_total,
        outcome,
        winner,
        wounds,
        dazed,
        recoil,
        cond,
    ) = values
    return MeleeResult(
        attacker_dice=tuple(a_dice),
        defender_dice=tuple(d_dice),
        attacker_modifiers=_modifiers(a_mods) if attacker_modifiers is None else attacker_modifiers,
        defender_modifiers=_modifiers(d_mods) if defender_modifiers is None else defender_modifiers,
        attacker_total=a_total,
        defender_total=d_total,
        outcome=outcome,
        winner=winner,
        wounds=wounds,
        dazed=dazed,
        recoil_distance=recoil,
        condition=cond,
    )


def melee_modifiers(
    *,
    weapon: Weapon | None,
    charge_strike: bool,
    enemies_in_contact: int,
    conditions: Iterable[str],
    defending: bool,
    rules: RulesConfig,
) -> list[Modifier]:
    """See :func:`riven_env.rules.melee.melee_modifiers`."""
    pairs = _call(
        _core().melee_modifiers,
        native_weapon(weapon),
        charge_strike,
        enemies_in_contact,
        _conditions(conditions),
        defending,
        native_rules(rules),
    )
    return list(_modifiers(pairs))


def classify_melee(
    attacker_total: int, defender_total: int, rules: RulesConfig
) -> tuple[str, str | None]:
    """See :func:`riven_env.rules.melee.classify_melee`."""
    outcome, winner = _core().classify_melee(attacker_total, defender_total, native_rules(rules))
    return str(outcome), winner


def melee_from_dice(
    attacker_dice: tuple[int, int],
    defender_dice: tuple[int, int],
    attacker_might: int,
    defender_might: int,
    attacker_modifiers: Sequence[Modifier],
    defender_modifiers: Sequence[Modifier],
    rules: RulesConfig,
) -> MeleeResult:
    """See :func:`riven_env.rules.melee.melee_from_dice`."""
    return _melee(
        _core().melee_from_dice(
            (int(attacker_dice[0]), int(attacker_dice[1])),
            (int(defender_dice[0]), int(defender_dice[1])),
            attacker_might,
            defender_might,
            _mods(attacker_modifiers),
            _mods(defender_modifiers),
            native_rules(rules),
        )
    )


def resolve_melee(
    attacker_might: int,
    defender_might: int,
    attacker_modifiers: Sequence[Modifier],
    defender_modifiers: Sequence[Modifier],
    rng: Any,
    rules: RulesConfig,
) -> MeleeResult:
    """See :func:`riven_env.rules.melee.resolve_melee`."""
    config = native_rules(rules)
    attacker, defender = tuple(attacker_modifiers), tuple(defender_modifiers)
    with _stream(rng) as stream:
        values = _core().resolve_melee(
            attacker_might, defender_might, _mods(attacker), _mods(defender), stream, config
        )
    return _melee(values, attacker, defender)


# ---------------------------------------------------------------- shooting


def shot_tn(cover: str, rules: RulesConfig) -> int:
    """See :func:`riven_env.rules.shooting.shot_tn`."""
    return int(_call(_core().shot_tn, cover, native_rules(rules)))


def effective_cover(
    cover: str, target_conditions: Iterable[str], weapon: Weapon | None, rules: RulesConfig
) -> str:
    """See :func:`riven_env.rules.shooting.effective_cover`."""
    return str(
        _call(
            _core().effective_cover,
            cover,
            _conditions(target_conditions),
            native_weapon(weapon),
            native_rules(rules),
        )
    )


def shot_modifiers(
    *, weapon: Weapon | None, shooter_conditions: Iterable[str], rules: RulesConfig
) -> list[Modifier]:
    """See :func:`riven_env.rules.shooting.shot_modifiers`."""
    pairs = _call(
        _core().shot_modifiers,
        native_weapon(weapon),
        _conditions(shooter_conditions),
        native_rules(rules),
    )
    return list(_modifiers(pairs))


def in_range(weapon: Weapon, distance: float) -> bool:
    """See :func:`riven_env.rules.shooting.in_range`."""
    return bool(_core().in_range(native_weapon(weapon), float(distance)))


def may_shoot_into_melee(shooter_adjacent_to_friend_in_it: bool, rules: RulesConfig) -> bool:
    """See :func:`riven_env.rules.shooting.may_shoot_into_melee`."""
    return bool(_core().may_shoot_into_melee(shooter_adjacent_to_friend_in_it, native_rules(rules)))


def shot_effect(result_band: str, rules: RulesConfig) -> ShotEffect:
    """See :func:`riven_env.rules.shooting.shot_effect`."""
    config = native_rules(rules)
    try:
        wounds, push, exposed, complication = _core().shot_effect(result_band, config)
    except _core().RulesDataError:
        raise RulesDataError(
            f"shot band {result_band!r}: expected one of miss, partial, hit, critical"
        ) from None
    return ShotEffect(
        wounds=wounds, push_distance=push, shooter_exposed=exposed, complication=complication
    )


def shot_result(test: TestResult, cover: str, rules: RulesConfig) -> ShotResult:
    """See :func:`riven_env.rules.shooting.shot_result`."""
    return ShotResult(test=test, cover=cover, effect=shot_effect(test.result, rules))


# ---------------------------------------------------------------- Down and Out, morale


def out_check_from_die(mettle: int, die: int) -> OutCheckResult:
    """See :func:`riven_env.rules.casualties.out_check_from_die`."""
    return OutCheckResult(*_core().out_check_from_die(mettle, die))


def roll_out_check(mettle: int, rng: Any, rules: RulesConfig) -> OutCheckResult:
    """See :func:`riven_env.rules.casualties.roll_out_check`."""
    config = native_rules(rules)
    with _stream(rng) as stream:
        return OutCheckResult(*_core().roll_out_check(mettle, stream, config))


def stabilise_range(rules: RulesConfig) -> float:
    """See :func:`riven_env.rules.casualties.stabilise_range`."""
    return float(_core().stabilise_range(native_rules(rules)))


def roll_wound_check(mettle: int, rng: Any, rules: RulesConfig) -> tuple[int, bool]:
    """See :func:`riven_env.rules.casualties.roll_wound_check`."""
    config = native_rules(rules)
    with _stream(rng) as stream:
        die, wounded = _core().roll_wound_check(mettle, stream, config)
    return int(die), bool(wounded)


def flee_distance(flee_dice: tuple[int, ...], rules: RulesConfig) -> float:
    """See :func:`riven_env.rules.morale.flee_distance`."""
    return float(_core().flee_distance([int(d) for d in flee_dice], native_rules(rules)))


def enabled_morale_triggers(rules: RulesConfig) -> list[MoraleTrigger]:
    """See :func:`riven_env.rules.morale.enabled_morale_triggers` (names from the core)."""
    triggers = morale_triggers(rules)
    return [triggers[name] for name in _core().enabled_morale_trigger_names(native_rules(rules))]


def roll_morale(mettle: int, rng: Any, rules: RulesConfig) -> MoraleResult:
    """See :func:`riven_env.rules.morale.roll_morale`."""
    config = native_rules(rules)
    with _stream(rng) as stream:
        return MoraleResult(*_core().roll_morale(mettle, stream, config))


# ---------------------------------------------------------------- Momentum and Strain


def momentum_gain(source: str, rules: RulesConfig) -> int:
    """See :func:`riven_env.rules.momentum.momentum_gain`."""
    return int(_call(_core().momentum_gain, source, native_rules(rules)))


def momentum_cost(spend: str, rules: RulesConfig) -> int:
    """See :func:`riven_env.rules.momentum.momentum_cost`."""
    return int(_call(_core().momentum_cost, spend, native_rules(rules)))


def add_momentum(pool: int, amount: int, rules: RulesConfig) -> int:
    """See :func:`riven_env.rules.momentum.add_momentum`."""
    return int(_core().add_momentum(pool, amount, native_rules(rules)))


def can_afford(pool: int, spend: str, rules: RulesConfig) -> bool:
    """See :func:`riven_env.rules.momentum.can_afford`."""
    return bool(_call(_core().can_afford, pool, spend, native_rules(rules)))


def momentum_pool_owner(solo_hero: bool, rules: RulesConfig) -> str:
    """See :func:`riven_env.rules.momentum.momentum_pool_owner`."""
    return str(_core().momentum_pool_owner(solo_hero, native_rules(rules)))


def starting_momentum(rules: RulesConfig) -> int:
    """See :func:`riven_env.rules.momentum.starting_momentum`."""
    return int(_core().starting_momentum(native_rules(rules)))


def strain_max(wit: int, rules: RulesConfig) -> int:
    """See :func:`riven_env.rules.strain.strain_max`."""
    return int(_core().strain_max(wit, native_rules(rules)))


def strain_gain_amount(source: str, rules: RulesConfig) -> int:
    """See :func:`riven_env.rules.strain.strain_gain_amount`."""
    return int(_call(_core().strain_gain_amount, source, native_rules(rules)))


def overflow_condition(face: int, rules: RulesConfig) -> str:
    """See :func:`riven_env.rules.strain.overflow_condition`."""
    return str(_call(_core().overflow_condition, face, native_rules(rules)))


def gain_strain(
    current: int, amount: int, strain_max: int, rng: Any, rules: RulesConfig
) -> StrainChange:
    """See :func:`riven_env.rules.strain.gain_strain`."""
    config = native_rules(rules)
    with _stream(rng) as stream:
        return StrainChange(
            *_call(_core().gain_strain, current, amount, strain_max, stream, config)
        )


def rest_strain(current: int, rules: RulesConfig) -> StrainChange:
    """See :func:`riven_env.rules.strain.rest_strain`."""
    return StrainChange(*_core().rest_strain(current, native_rules(rules)))


def can_take_strain(current: int, amount: int, strain_max: int, rules: RulesConfig) -> bool:
    """See :func:`riven_env.rules.strain.can_take_strain`."""
    return bool(_core().can_take_strain(current, amount, strain_max, native_rules(rules)))


# ---------------------------------------------------------------- Conditions and complications


def condition_modifiers(conditions: Iterable[str], kind: str, rules: RulesConfig) -> list[Modifier]:
    """See :func:`riven_env.rules.conditions.condition_modifiers`."""
    pairs = _call(_core().condition_modifiers, _conditions(conditions), kind, native_rules(rules))
    return list(_modifiers(pairs))


def condition_limits(conditions: Iterable[str], rules: RulesConfig) -> ConditionLimits:
    """See :func:`riven_env.rules.conditions.condition_limits`."""
    max_actions, max_dice, move_penalty, forbids, steps, ignores, wound_check = _call(
        _core().condition_limits, _conditions(conditions), native_rules(rules)
    )
    return ConditionLimits(
        max_actions=max_actions,
        max_dice=max_dice,
        move_penalty=move_penalty,
        forbids=frozenset(forbids),
        cover_steps=steps,
        ignores_cover=ignores,
        end_of_turn_wound_check=wound_check,
    )


def conditions_removed_by(action: str, conditions: Iterable[str], rules: RulesConfig) -> list[str]:
    """See :func:`riven_env.rules.conditions.conditions_removed_by`."""
    return list(
        _call(_core().conditions_removed_by, action, _conditions(conditions), native_rules(rules))
    )


def conditions_expiring(when: str, conditions: Iterable[str], rules: RulesConfig) -> list[str]:
    """See :func:`riven_env.rules.conditions.conditions_expiring`."""
    return list(
        _call(_core().conditions_expiring, when, _conditions(conditions), native_rules(rules))
    )


def _complication(values: tuple[Any, ...]) -> Complication:
    face, name, text, effect, amount, condition, flavour = values
    return Complication(
        roll=face,
        name=name,
        text=text,
        effect=effect,
        amount=amount,
        condition=condition,
        flavour=dict(flavour),
    )


def roll_complication(rng: Any, rules: RulesConfig) -> Complication:
    """See :func:`riven_env.rules.complications.roll_complication`."""
    config = native_rules(rules)
    with _stream(rng) as stream:
        return _complication(_core().roll_complication(stream, config))


# ---------------------------------------------------------------- the resolution seam


class NativeRivenResolution:
    """RIVEN's dice engine on the core: the :class:`~riven_env.rules.resolution.RivenResolution`
    methods, each answered by the native function of the same name."""

    name = "riven"

    def __init__(self, rules: RulesConfig) -> None:
        from riven_env.rules.resolution import RivenResolution

        self.rules = rules
        self._python = RivenResolution(rules)  # the methods that roll nothing (no engine work)
        native_rules(rules)  # convert (and check) once, up front

    def __repr__(self) -> str:
        return f"NativeRivenResolution(rules={self.rules.source!r})"

    def roll_activation(self, mettle: int, dice: int, rng: Any) -> ActivationResult:
        """See :func:`roll_activation`."""
        return roll_activation(mettle, dice, rng, self.rules)

    def roll_test(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        rng: Any,
        context: Any = None,
    ) -> TestRoll:
        """See :func:`roll_test` (RIVEN reads no context)."""
        return roll_test(kind, attribute, attribute_value, tn, modifiers, rng, self.rules)

    def spend_options(
        self,
        roll: TestRoll,
        *,
        momentum: int,
        strain: int,
        strain_max: int,
        resources: Mapping[str, int] | None = None,
    ) -> list[str]:
        """See :func:`spend_options`."""
        return spend_options(
            roll, momentum=momentum, strain=strain, strain_max=strain_max, rules=self.rules
        )

    def apply_spend(self, roll: TestRoll, option: str, rng: Any) -> TestRoll:
        """See :func:`apply_spend`."""
        return apply_spend(roll, option, rng, self.rules)

    def accept(self, roll: Any) -> Any | None:
        """RIVEN's tests have one chooser: accepting closes the roll."""
        return None

    def finalise(self, roll: TestRoll) -> TestResult:
        """See :func:`finalise`."""
        return finalise(roll)

    def starting_wounds(self, profile: Any) -> int:
        """The profile's wounds."""
        return int(profile.wounds)

    def starting_resources(self, profile: Any) -> dict[str, int]:
        """RIVEN keeps no per-model resources."""
        return {}

    def start_melee(self, attacker: Any, defender: Any, rng: Any) -> MeleeResult:
        """RIVEN's opposed melee has no choices: resolved at once."""
        return self.resolve_melee(
            attacker.profile.might,
            defender.profile.might,
            attacker.modifiers,
            defender.modifiers,
            rng,
        )

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """RIVEN's spends (no roll involved: the Python engine's own list)."""
        return self._python.choice_vocabulary()

    def oracle_choice(self, roll: Any, options: Sequence[str], view: Any) -> Any:
        """None: the Oracle's profile spend rules decide RIVEN's spends."""
        return None

    def resolve_melee(
        self,
        attacker_might: int,
        defender_might: int,
        attacker_modifiers: Sequence[Modifier],
        defender_modifiers: Sequence[Modifier],
        rng: Any,
    ) -> MeleeResult:
        """See :func:`resolve_melee`."""
        return resolve_melee(
            attacker_might, defender_might, attacker_modifiers, defender_modifiers, rng, self.rules
        )

    def shot_tn(self, cover: str) -> int:
        """See :func:`shot_tn`."""
        return shot_tn(cover, self.rules)

    def shot_effect(self, result_band: str) -> ShotEffect:
        """See :func:`shot_effect`."""
        return shot_effect(result_band, self.rules)

    def roll_morale(self, mettle: int, rng: Any) -> MoraleResult:
        """See :func:`roll_morale`."""
        return roll_morale(mettle, rng, self.rules)

    def roll_out_check(self, mettle: int, rng: Any) -> OutCheckResult:
        """See :func:`roll_out_check`."""
        return roll_out_check(mettle, rng, self.rules)

    def roll_complication(self, rng: Any) -> Complication:
        """See :func:`roll_complication`."""
        return roll_complication(rng, self.rules)


def native_resolution(rules: RulesConfig) -> NativeRivenResolution:
    """The core's resolution system selected by ``meta.resolution``.

    Raises:
        NativeUnavailableError: The core is not built, or its dice engine for that system is
            not ported yet (only :data:`NATIVE_SYSTEMS` are); the Python engine has it.
    """
    name = str(rules.get("meta.resolution"))
    if name not in NATIVE_SYSTEMS:
        raise NativeUnavailableError(
            f"resolution system {name!r} (meta.resolution) is not in the native core yet; "
            f"native systems: {', '.join(NATIVE_SYSTEMS)} (use the Python engine for {name!r})"
        )
    if name in _SYSTEM_CLASSES:
        module, cls = _SYSTEM_CLASSES[name]
        return getattr(importlib.import_module(module), cls)(rules)
    return NativeRivenResolution(rules)


_SYSTEM_CLASSES: dict[str, tuple[str, str]] = {
    "invictus": ("riven_env.native.invictus", "NativeInvictusResolution"),
    "new-world": ("riven_env.native.new_world", "NativeNewWorldResolution"),
    "riddle-of-steel": ("riven_env.native.riddle_of_steel", "NativeRiddleOfSteelResolution"),
}
"""Each ported system's wrapper (a :class:`~riven_env.native.system_base.NativeSystemResolution`),
imported when first asked for: RIVEN's is :class:`NativeRivenResolution`."""
