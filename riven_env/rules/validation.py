"""Validation of a whole rules data file, section by section.

:func:`validate_rules` checks every value's type and range, every enumerated choice, band
order, die-table coverage, and the cross references between sections (Conditions named by
actions, tables and melee; actions named by Conditions). The first bad value raises
:class:`RulesDataError` naming the file, the dotted key, the value and what was allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from riven_env.errors import RulesDataError, did_you_mean
from riven_env.rules.actions import parse_actions
from riven_env.rules.complications import parse_complication_table
from riven_env.rules.conditions import parse_conditions
from riven_env.rules.datacheck import (
    check_int_range,
    read_bool,
    read_die_table,
    read_float,
    read_int,
    read_str,
    read_str_list,
    read_table,
)
from riven_env.rules.momentum import MOMENTUM_POOL_OWNERS
from riven_env.rules.morale import FLIGHT_ROUTES, parse_morale_triggers
from riven_env.rules.profiles import ATTRIBUTES, Weapon, parse_weapon_traits
from riven_env.rules.rules_data import bundled_rules_data

TURNOVER_RULES = frozenset({"raw", "sbh"})
BONUS_MODES = ("extra", "replace")
BAND_ORDER: tuple[str, ...] = ("miss_max", "partial_max", "hit_max")
SHOT_BANDS: tuple[str, ...] = ("miss", "partial", "hit", "critical")


def validate_rules(raw: Mapping[str, Any], source: str) -> None:
    """Validate merged rules data.

    Raises:
        RulesDataError: The first bad value found.
    """
    check_known_keys(raw, source)
    where = f"{source}:"
    check_int_range(raw, where)
    faces = read_int(read_table(raw, "dice", source), "faces", f"{where} dice", low=2, high=20)
    settings = read_str_list(read_table(raw, "meta", source), "settings", f"{where} meta")
    from riven_env.rules.resolution import resolution_names

    read_str(
        read_table(raw, "meta", source),
        "resolution",
        f"{where} meta",
        choices=tuple(resolution_names()),
    )
    _check_activation(raw, where)
    _check_test(raw, where)
    _check_melee(raw, where)
    _check_shooting(raw, where)
    _check_casualties_and_morale(raw, where)
    _check_momentum(raw, where)
    _check_engagement(raw, where)
    _check_distances(raw, where)
    _check_profiles(raw, where)
    parse_weapon_traits(raw, source)

    conditions = parse_conditions(raw, source)
    actions = parse_actions(raw, source, conditions)
    for name, spec in conditions.items():
        for field_name, names in (("forbids", spec.forbids), ("removed_by", spec.removed_by)):
            for action in sorted(names - set(actions)):
                raise RulesDataError(
                    f"{source}: conditions.{name}.{field_name} contains {action!r}: "
                    f"expected action names ({', '.join(actions)})"
                )
    _check_condition_references(raw, source, conditions, faces)
    parse_complication_table(raw, source, conditions, settings)


#: Tables whose keys are names a designer chooses (a new Condition, action, difficulty,
#: die face ...) rather than fixed fields; their entries are checked by the parser that
#: owns them. Every other table may hold only the keys of the bundled rules file.
OPEN_TABLES: frozenset[str] = frozenset(
    {
        "test.difficulty",
        "shooting.cover_tn",
        "morale.triggers",
        "strain.overflow_table",
        "conditions",
        "complications.table",
        "actions",
        "weapons.traits",
    }
)
#: Open tables whose entries hold the same fields as the bundled file's entries.
TEMPLATE_TABLES: frozenset[str] = frozenset({"distances.tables"})


def check_known_keys(raw: Mapping[str, Any], source: str) -> None:
    """Refuse keys and sections the bundled rules file does not have (typos such as
    ``turnovr``), naming the closest known key.

    A new key in ``[distances]`` is allowed only when an action's ``range`` names it.

    Raises:
        RulesDataError: The first unknown key, with a suggestion and the known keys.
    """
    from riven_env.rules.resolution import resolution_names, system_spec

    # Each resolution system's own section is checked by that system's validator
    # (which refuses its unknown keys), so it is a known top-level table here.
    systems = {system_spec(name).section for name in resolution_names()} - {None}
    bundled = {**bundled_rules_data(), **{section: {} for section in systems}}
    actions = raw.get("actions")
    ranges = {
        spec.get("range")
        for spec in (actions.values() if isinstance(actions, Mapping) else ())
        if isinstance(spec, Mapping)
    }
    stack: list[tuple[str, Mapping[str, Any], Mapping[str, Any]]] = [("", raw, bundled)]
    while stack:
        path, table, known = stack.pop()
        if path in OPEN_TABLES or path in systems:
            continue
        if path in TEMPLATE_TABLES:
            fields = {
                key for entry in known.values() if isinstance(entry, Mapping) for key in entry
            }
            for name, entry in table.items():
                if isinstance(entry, Mapping):
                    _refuse_unknown(entry, fields, f"{path}.{name}", source)
            continue
        extra = {key for key in table if key not in known}
        if path == "distances":
            extra -= ranges
        _refuse_unknown({key: None for key in sorted(extra)}, set(known), path, source)
        for key, value in table.items():
            if isinstance(value, Mapping) and isinstance(known.get(key), Mapping):
                stack.append((f"{path}.{key}" if path else str(key), value, known[key]))


def _refuse_unknown(table: Mapping[str, Any], known: set[str], path: str, source: str) -> None:
    for key in table:
        if key in known:
            continue
        dotted = f"{path}.{key}" if path else str(key)
        kind = "section" if not path else "key"
        here = f"under [{path}]" if path else "at the top level"
        raise RulesDataError(
            f"{source}: {dotted}: unknown {kind}{did_you_mean(str(key), known)}; known {here}: "
            f"{', '.join(sorted(known))}"
        )


def _check_activation(raw: Mapping[str, Any], where: str) -> None:
    section = read_table(raw, "activation", where)
    here = f"{where} activation"
    max_dice = read_int(section, "max_dice", here, low=1, high=10)
    read_str(section, "turnover", here, choices=TURNOVER_RULES)
    read_int(section, "sbh_failures_to_pass", here, low=1, high=max_dice)
    read_bool(section, "sbh_no_success_passes", here)


def _check_test(raw: Mapping[str, Any], where: str) -> None:
    section = read_table(raw, "test", where)
    here = f"{where} test"
    read_int(section, "dice", here, low=2, high=2)
    bands = read_table(section, "bands", here)
    values = [read_int(bands, key, f"{here}.bands", low=-30, high=30) for key in BAND_ORDER]
    for index in range(1, len(BAND_ORDER)):
        low_key, low = BAND_ORDER[index - 1], values[index - 1]
        high_key, high = BAND_ORDER[index], values[index]
        if high <= low:
            raise RulesDataError(
                f"{here}.bands.{high_key} = {high}: must be greater than {low_key} = {low} "
                "(bands run miss < partial < hit < critical)"
            )
    difficulty = read_table(section, "difficulty", here)
    if not difficulty:
        raise RulesDataError(f"{here}.difficulty: at least one difficulty is required")
    for name in difficulty:
        read_int(difficulty, name, f"{here}.difficulty", low=2, high=30)
    read_str(section, "default_difficulty", here, choices=list(difficulty))


def _check_melee(raw: Mapping[str, Any], where: str) -> None:
    section = read_table(raw, "melee", where)
    here = f"{where} melee"
    read_int(section, "charge_bonus", here, low=0, high=6)
    read_int(section, "outnumbered_penalty", here, low=0, high=6)
    read_int(section, "wound_margin", here, low=1, high=20)
    read_float(section, "recoil_distance", here, low=0.0, high=24.0)
    read_int(section, "critical_ratio", here, low=2, high=5)
    read_int(section, "wound_wounds", here, low=1, high=5)
    read_int(section, "critical_wounds", here, low=1, high=5)
    read_str(section, "critical_condition", here)
    read_int(section, "critical_loser_floor", here, low=1, high=12)


def _check_shooting(raw: Mapping[str, Any], where: str) -> None:
    section = read_table(raw, "shooting", where)
    here = f"{where} shooting"
    read_str(section, "attribute", here, choices=ATTRIBUTES)
    order = read_str_list(section, "cover_order", here)
    cover_tn = read_table(section, "cover_tn", here)
    if set(order) != set(cover_tn):
        raise RulesDataError(
            f"{here}.cover_order = {list(order)!r}: must list exactly the keys of "
            f"shooting.cover_tn ({', '.join(cover_tn)})"
        )
    previous = None
    for name in order:
        tn = read_int(cover_tn, name, f"{here}.cover_tn", low=2, high=30)
        if previous is not None and tn < previous:
            raise RulesDataError(
                f"{here}.cover_tn.{name} = {tn}: better cover cannot have a lower TN than the "
                f"cover before it in cover_order ({previous})"
            )
        previous = tn
    read_bool(section, "into_melee_needs_adjacent_friend", here)
    read_bool(section, "down_models_in_melee", here)
    read_str(section, "exposed_condition", here)
    effects = read_table(section, "effects", here)
    for band in SHOT_BANDS:
        table = read_table(effects, band, f"{here}.effects")
        band_where = f"{here}.effects.{band}"
        read_int(table, "wounds", band_where, low=0, high=5)
        read_float(table, "push_distance", band_where, low=0.0, high=24.0)
        read_bool(table, "shooter_exposed", band_where)
        read_bool(table, "complication", band_where)
    extra = sorted(set(effects) - set(SHOT_BANDS))
    if extra:
        raise RulesDataError(
            f"{here}.effects.{extra[0]}: unknown band; allowed: {', '.join(SHOT_BANDS)}"
        )


def _check_casualties_and_morale(raw: Mapping[str, Any], where: str) -> None:
    casualties = read_table(raw, "casualties", where)
    read_int(casualties, "out_check_dice", f"{where} casualties", low=1, high=1)
    read_int(casualties, "stabilise_cost", f"{where} casualties", low=0, high=3)
    morale = read_table(raw, "morale", where)
    here = f"{where} morale"
    read_int(morale, "test_dice", here, low=1, high=1)
    read_int(morale, "flee_dice", here, low=0, high=6)
    read_float(morale, "flee_base", here, low=0.0, high=24.0)
    read_str(morale, "flight_route", here, choices=FLIGHT_ROUTES)
    parse_morale_triggers(raw, where.rstrip(":"))


def _check_momentum(raw: Mapping[str, Any], where: str) -> None:
    momentum = read_table(raw, "momentum", where)
    here = f"{where} momentum"
    # A warband shares one pool (RAW); a personal pool is the solo hero's (solo_hero_pool).
    read_str(momentum, "pool", here, choices=("side",))
    read_str(momentum, "solo_hero_pool", here, choices=MOMENTUM_POOL_OWNERS)
    cap = read_int(momentum, "cap", here, low=1, high=99)
    read_int(momentum, "start", here, low=0, high=cap)
    read_int(momentum, "max_rerolls_per_test", here, low=0, high=2)
    read_int(momentum, "max_boosts_per_test", here, low=0, high=3)
    read_str(momentum, "boost_ceiling", here, choices=("partial", "hit", "critical"))
    gain = read_table(momentum, "gain", here)
    for key in ("critical", "melee_critical", "objective", "objective_held", "focus"):
        read_int(gain, key, f"{here}.gain", low=0, high=cap)
    for key in gain:
        read_int(gain, key, f"{here}.gain", low=0, high=cap)
    cost = read_table(momentum, "cost", here)
    for key in ("reroll", "boost", "bonus_action"):
        read_int(cost, key, f"{here}.cost", low=0, high=cap)
    for key in cost:
        read_int(cost, key, f"{here}.cost", low=0, high=cap)
    mode = read_str(momentum, "bonus_mode", here, choices=BONUS_MODES)
    if mode == "extra":
        # An extra action can be given again and again: it must cost more than any one
        # action can gain back (a Focus, a Critical), or a chain of them might never end.
        most = max(gain.values())
        if cost["bonus_action"] <= most:
            raise RulesDataError(
                f"{here}.cost.bonus_action = {cost['bonus_action']}: with bonus_mode = "
                f"'extra' it must be greater than every momentum.gain value (the largest is "
                f"{most}), so that bonus actions cannot pay for themselves"
            )

    strain = read_table(raw, "strain", where)
    here = f"{where} strain"
    read_int(strain, "track_per_wit", here, low=1, high=10)
    read_int(strain, "spend_cost", here, low=0, high=20)
    read_bool(strain, "spend_may_overflow", here)
    read_int(strain, "rest_removes", here, low=0, high=50)
    gain = read_table(strain, "gain", here)
    for key in gain:
        read_int(gain, key, f"{here}.gain", low=0, high=20)


def _check_engagement(raw: Mapping[str, Any], where: str) -> None:
    section = read_table(raw, "engagement", where)
    here = f"{where} engagement"
    actions = read_table(raw, "actions", where)
    open_always = ("melee", "disengage", "end")
    allowed = [name for name in actions if name not in open_always]
    read_str_list(section, "forbids", here, choices=allowed)


def _check_distances(raw: Mapping[str, Any], where: str) -> None:
    distances = read_table(raw, "distances", where)
    here = f"{where} distances"
    for key, value in distances.items():
        if key == "tables":
            continue
        if isinstance(value, Mapping):
            raise RulesDataError(f"{here}.{key}: expected a distance in inches, found a table")
        read_float(distances, key, here, low=0.0, high=200.0)
    for key in ("move", "base", "stabilise_range", "rally_range", "objective_radius"):
        read_float(distances, key, here, low=0.0, high=200.0)
    read_float(distances, "charge_reach_factor", here, low=0.0, high=5.0)
    read_float(distances, "disengage_move_factor", here, low=0.0, high=5.0)
    tables = read_table(distances, "tables", here)
    if "standard" not in tables:
        raise RulesDataError(f"{here}.tables: a 'standard' table size is required")
    for name in tables:
        size = read_table(tables, name, f"{here}.tables")
        read_float(size, "width", f"{here}.tables.{name}", low=6.0, high=240.0)
        read_float(size, "height", f"{here}.tables.{name}", low=6.0, high=240.0)


def _check_profiles(raw: Mapping[str, Any], where: str) -> None:
    profiles = read_table(raw, "profiles", where)
    here = f"{where} profiles"
    attributes = read_str_list(profiles, "attributes", here)
    if tuple(attributes) != ATTRIBUTES:
        raise RulesDataError(
            f"{here}.attributes = {list(attributes)!r}: expected {list(ATTRIBUTES)!r} "
            "(the engine reads these four by name)"
        )
    low = read_int(profiles, "attribute_min", here, low=0, high=10)
    high = read_int(profiles, "attribute_max", here, low=low, high=10)
    mettle_low = read_int(profiles, "mettle_min", here, low=1, high=6)
    read_int(profiles, "mettle_max", here, low=mettle_low, high=7)
    keywords = read_str_list(profiles, "keywords", here)
    Weapon.from_dict(
        "unarmed", read_table(profiles, "unarmed", here), f"{here}.unarmed", error=RulesDataError
    )
    hero = read_table(profiles, "hero", here)
    read_str(hero, "keyword", f"{here}.hero", choices=keywords)
    cap = read_int(hero, "creation_max", f"{here}.hero", low=low, high=high)
    read_int(hero, "points", f"{here}.hero", low=low * len(ATTRIBUTES), high=cap * len(ATTRIBUTES))


def _check_condition_references(
    raw: Mapping[str, Any], source: str, conditions: Mapping[str, Any], faces: int
) -> None:
    names = sorted(conditions)
    melee = read_table(raw, "melee", source)
    read_str(melee, "critical_condition", f"{source}: melee", choices=names)
    shooting = read_table(raw, "shooting", source)
    read_str(shooting, "exposed_condition", f"{source}: shooting", choices=names)
    strain = read_table(raw, "strain", source)
    here = f"{source}: strain.overflow_table"
    table = read_die_table(read_table(strain, "overflow_table", f"{source}: strain"), here, faces)
    for face, name in table.items():
        read_str({str(face): name}, str(face), here, choices=names)
