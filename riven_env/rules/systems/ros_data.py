"""The rules data of The Riddle of Steel engine (``riven_env/rules/data/riddle-of-steel.toml``).

:func:`parse_ros_data` validates the ``[riddle_of_steel]`` tables and returns a frozen
:class:`RosData`; every bad value raises :class:`RulesDataError` naming the file and the dotted
key. :func:`ros_data_for` finds the data of a game: the ``riddle_of_steel`` table of its rules
when they carry one (a rules file that merges the system's tables), else the bundled file.
The keys are documented in ``docs/resolution-riddle-of-steel.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from riven_env.errors import RulesDataError
from riven_env.rules.datacheck import (
    read_float,
    read_int,
    read_str,
    read_str_list,
    read_table,
    refuse_unknown_keys,
)
from riven_env.rules.profiles import ATTRIBUTES
from riven_env.rules.rules_data import RulesConfig

ROS_RULES_FILE = "riddle-of-steel.toml"
"""Name of the bundled data file inside ``riven_env/rules/data``."""
SECTION = "riddle_of_steel"
ROS_ATTRIBUTES: tuple[str, ...] = ("brawn", "agility", "wits", "presence")
EFFECTS: tuple[str, ...] = ("", "knockdown", "down", "out")
COUNTER_BONUS: tuple[str, ...] = ("attacker_successes", "attacker_dice")
RIVEN_COVERS: tuple[str, ...] = ("none", "soft", "hard")


@dataclass(frozen=True)
class RosWeapon:
    """A melee weapon in RoS numbers: ATN, parry DTN, damage Brawn + ``dr``, shield name."""

    name: str
    atn: int
    dtn: int
    dr: int
    shield: str = ""


@dataclass(frozen=True)
class RosShield:
    """A shield: its Block DTN and the passive armour it gives to ``zones``."""

    name: str
    dtn: int
    passive_av: int
    zones: frozenset[str]


@dataclass(frozen=True)
class Attack:
    """An offensive manoeuvre: CP paid before rolling, dice added, damage levels added."""

    name: str
    extra: int
    bonus_dice: int
    damage: int


@dataclass(frozen=True)
class Defence:
    """A defensive manoeuvre: ``dtn`` a number, ``"weapon"`` or ``"shield"``; CP ``cost``."""

    name: str
    dtn: int | str
    cost: int
    needs_shield: bool


@dataclass(frozen=True)
class Wound:
    """One cell of the Damage Table."""

    shock: int
    pain: int
    bl: int
    wounds: int
    effect: str
    text: str


@dataclass(frozen=True)
class Stance:
    """How the Oracle shares its Combat Pool (see ``[riddle_of_steel.oracle]``)."""

    name: str
    first_attack_share: float
    defence_share: float


@dataclass(frozen=True)
class RosData:
    """The validated RoS data. Field names follow the TOML keys."""

    source: str
    faces: int
    stack_on: int
    max_stacks: int
    fumble_ones: int
    min_tn: int
    attributes: tuple[tuple[str, str, int], ...]  # (ros name, RIVEN attribute, offset)
    proficiency_base: int
    proficiency_min: int
    feint_min: int
    test_attribute_for: Mapping[str, str]
    test_modifier_dice: int
    test_min_dice: int
    tn_for_riven_tn: tuple[tuple[int, int], ...]
    bands: tuple[tuple[str, int], ...]  # (band, min successes), best last
    shot_atn: int
    cover_tn: Mapping[str, int]
    exchanges: int
    modifier_dice: int
    ignore_modifier_sources: tuple[str, ...]
    feint_cost: int
    feint_die_cost_near: int
    feint_die_cost_far: int
    counter_bonus: str
    counter_fail_extra_successes: int
    stand_steal_cost: int
    duck_weave_pool_loss: float
    fumble_pool_loss: float
    knockdown_tn_per_margin: int
    knockdown_condition: str
    bleeding_condition: str
    max_wound_level: int
    attacks: Mapping[str, Attack]
    defences: Mapping[str, Defence]
    zones: tuple[str, ...]
    zone_names: Mapping[str, str]
    zone_near: Mapping[str, frozenset[str]]
    weapons: Mapping[str, RosWeapon]
    weapon_traits: Mapping[str, Mapping[str, Any]]
    shields: Mapping[str, RosShield]
    damage: Mapping[str, Mapping[int, Wound]]  # zone (or "default") -> level -> cell
    default_stance: str
    stances_by_profile: Mapping[str, str]
    stances: Mapping[str, Stance]

    def wound(self, zone: str, level: int) -> Wound:
        """The Damage Table cell for ``level`` (1..max) at ``zone`` (its row, else default)."""
        row = self.damage.get(zone) or self.damage["default"]
        return row[level]

    def stance_for(self, profile: str | None) -> Stance:
        """The stance of the Oracle profile ``profile`` (the default one when unnamed)."""
        return self.stances[self.stances_by_profile.get(profile or "", self.default_stance)]


def _int_keyed(table: Mapping[str, Any], where: str) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for key, value in table.items():
        try:
            out[int(key)] = value
        except ValueError:
            raise RulesDataError(f"{where}.{key}: expected an integer key") from None
    return out


def parse_ros_data(raw: Mapping[str, Any], source: str) -> RosData:
    """Validate the ``riddle_of_steel`` table of ``raw`` (the whole TOML document).

    Raises:
        RulesDataError: The first bad value, naming ``source`` and the dotted key.
    """
    w = f"{source}: {SECTION}"
    root = read_table(raw, SECTION, source)
    dice = read_table(root, "dice", w)
    wd = f"{w}.dice"
    faces = read_int(dice, "faces", wd, low=2, high=100)
    # Only the highest face stacks (RAW); the exact odds rely on it.
    stack_on = read_int(dice, "stack_on", wd, low=faces, high=faces)
    max_stacks = read_int(dice, "max_stacks", wd, low=0, high=10)
    fumble_ones = read_int(dice, "fumble_ones", wd, low=1, high=20)
    min_tn = read_int(dice, "min_tn", wd, low=2, high=faces)

    attrs = read_table(root, "attributes", w)
    refuse_unknown_keys(attrs, ROS_ATTRIBUTES, f"{w}.attributes")
    attributes = []
    for name in ROS_ATTRIBUTES:
        entry = read_table(attrs, name, f"{w}.attributes")
        here = f"{w}.attributes.{name}"
        attributes.append(
            (
                name,
                read_str(entry, "from", here, choices=ATTRIBUTES),
                read_int(entry, "offset", here, low=-5, high=10),
            )
        )

    prof = read_table(root, "proficiency", w)
    wp = f"{w}.proficiency"

    tests = read_table(root, "tests", w)
    wt = f"{w}.tests"
    attribute_for = read_table(tests, "attribute_for", wt)
    for riven_name, ros_name in attribute_for.items():
        read_str(attribute_for, riven_name, f"{wt}.attribute_for", choices=ROS_ATTRIBUTES)
        if riven_name not in ATTRIBUTES:
            raise RulesDataError(
                f"{wt}.attribute_for.{riven_name}: expected a RIVEN attribute "
                f"({', '.join(ATTRIBUTES)}) -> {ros_name!r}"
            )
    tn_table = _int_keyed(read_table(tests, "tn_for_riven_tn", wt), f"{wt}.tn_for_riven_tn")
    if not tn_table:
        raise RulesDataError(f"{wt}.tn_for_riven_tn: at least one entry is required")
    tn_map = []
    for riven_tn, value in sorted(tn_table.items()):
        tn_map.append(
            (riven_tn, read_int({"v": value}, "v", f"{wt}.tn_for_riven_tn.{riven_tn}", low=min_tn))
        )
    bands_table = read_table(tests, "bands", wt)
    refuse_unknown_keys(bands_table, ("partial", "hit", "critical"), f"{wt}.bands")
    bands = []
    last = 0
    for band in ("partial", "hit", "critical"):
        value = read_int(bands_table, band, f"{wt}.bands", low=1, high=50)
        if value <= last:
            raise RulesDataError(
                f"{wt}.bands.{band} = {value}: must be greater than the band below ({last})"
            )
        last = value
        bands.append((band, value))

    shooting = read_table(root, "shooting", w)
    ws = f"{w}.shooting"
    cover = read_table(shooting, "cover_tn", ws)
    cover_tn = {c: read_int(cover, c, f"{ws}.cover_tn", low=0, high=20) for c in RIVEN_COVERS}

    melee = read_table(root, "melee", w)
    wm = f"{w}.melee"
    attacks = {}
    for name, entry in read_table(melee, "attacks", wm).items():
        here = f"{wm}.attacks.{name}"
        refuse_unknown_keys(entry, ("extra", "bonus_dice", "damage"), here)
        attacks[name] = Attack(
            name,
            read_int(entry, "extra", here, low=0, high=10),
            read_int(entry, "bonus_dice", here, low=0, high=10),
            read_int(entry, "damage", here, low=-5, high=5),
        )
    if not attacks:
        raise RulesDataError(f"{wm}.attacks: at least one manoeuvre is required")
    defences = {}
    for name, entry in read_table(melee, "defences", wm).items():
        here = f"{wm}.defences.{name}"
        refuse_unknown_keys(entry, ("dtn", "cost", "needs_shield"), here)
        dtn = entry.get("dtn")
        if isinstance(dtn, str):
            dtn = read_str(entry, "dtn", here, choices=("weapon", "shield"))
        else:
            dtn = read_int(entry, "dtn", here, low=min_tn, high=10 * (1 + max_stacks))
        defences[name] = Defence(
            name,
            dtn,
            read_int(entry, "cost", here, low=0, high=10, default=0),
            bool(entry.get("needs_shield", False)),
        )
    for required in ("dodge_break", "dodge_stand", "duck_weave", "counter"):
        if required not in defences:
            raise RulesDataError(f"{wm}.defences.{required} is missing (a rule refers to it)")

    zones_table = read_table(root, "zones", w)
    zones = tuple(zones_table)
    zone_names, zone_near = {}, {}
    for zone, entry in zones_table.items():
        here = f"{w}.zones.{zone}"
        zone_names[zone] = read_str(entry, "name", here)
        zone_near[zone] = frozenset(read_str_list(entry, "near", here, choices=zones))

    weapons = {}
    for name, entry in read_table(root, "weapons", w).items():
        here = f"{w}.weapons.{name}"
        refuse_unknown_keys(entry, ("atn", "dtn", "dr", "shield"), here)
        weapons[name] = RosWeapon(
            name,
            read_int(entry, "atn", here, low=min_tn, high=20),
            read_int(entry, "dtn", here, low=min_tn, high=20),
            read_int(entry, "dr", here, low=-5, high=10),
            read_str(entry, "shield", here, default=""),
        )
    if "default" not in weapons:
        raise RulesDataError(f"{w}.weapons.default is missing (unlisted weapons use it)")
    shields = {}
    for name, entry in read_table(root, "shields", w).items():
        here = f"{w}.shields.{name}"
        shields[name] = RosShield(
            name,
            read_int(entry, "dtn", here, low=min_tn, high=20),
            read_int(entry, "passive_av", here, low=0, high=20),
            frozenset(read_str_list(entry, "zones", here, choices=zones)),
        )
    traits = dict(read_table(root, "weapon_traits", w, default={}))
    for weapon in weapons.values():
        if weapon.shield and weapon.shield not in shields:
            raise RulesDataError(
                f"{w}.weapons.{weapon.name}.shield = {weapon.shield!r}: expected one of "
                f"{', '.join(shields)}"
            )
    for trait, entry in traits.items():
        refuse_unknown_keys(entry, ("dr", "shield"), f"{w}.weapon_traits.{trait}")
        if "shield" in entry:
            read_str(entry, "shield", f"{w}.weapon_traits.{trait}", choices=tuple(shields))

    max_level = read_int(melee, "max_wound_level", wm, low=1, high=20)
    damage: dict[str, dict[int, Wound]] = {}
    for row, cells in read_table(root, "damage", w).items():
        if row != "default" and row not in zones:
            raise RulesDataError(
                f"{w}.damage.{row}: expected a zone ({', '.join(zones)}) or default"
            )
        levels = _int_keyed(cells, f"{w}.damage.{row}")
        if sorted(levels) != list(range(1, max_level + 1)):
            raise RulesDataError(
                f"{w}.damage.{row}: levels {sorted(levels)}; expected 1..{max_level} "
                "(melee.max_wound_level)"
            )
        damage[row] = {}
        for level, cell in levels.items():
            here = f"{w}.damage.{row}.{level}"
            refuse_unknown_keys(cell, ("shock", "pain", "bl", "wounds", "effect", "text"), here)
            damage[row][level] = Wound(
                read_int(cell, "shock", here, low=0, high=100),
                read_int(cell, "pain", here, low=0, high=100),
                read_int(cell, "bl", here, low=0, high=50),
                read_int(cell, "wounds", here, low=0, high=10),
                read_str(cell, "effect", here, choices=EFFECTS),
                read_str(cell, "text", here),
            )
    if "default" not in damage:
        raise RulesDataError(f"{w}.damage.default is missing (zones without a row use it)")

    oracle = read_table(root, "oracle", w)
    wo = f"{w}.oracle"
    stances = {}
    for name, entry in read_table(oracle, "stance", wo).items():
        here = f"{wo}.stance.{name}"
        stances[name] = Stance(
            name,
            read_float(entry, "first_attack_share", here, low=0.0, high=1.0),
            read_float(entry, "defence_share", here, low=0.0, high=1.0),
        )
    by_profile = read_table(oracle, "stances", wo)
    for profile in by_profile:
        read_str(by_profile, profile, f"{wo}.stances", choices=tuple(stances))
    default_stance = read_str(oracle, "default_stance", wo, choices=tuple(stances))

    return RosData(
        source=source,
        faces=faces,
        stack_on=stack_on,
        max_stacks=max_stacks,
        fumble_ones=fumble_ones,
        min_tn=min_tn,
        attributes=tuple(attributes),
        proficiency_base=read_int(prof, "base", wp, low=0, high=20),
        proficiency_min=read_int(prof, "min", wp, low=0, high=20),
        feint_min=read_int(prof, "feint_min", wp, low=0, high=20),
        test_attribute_for=dict(attribute_for),
        test_modifier_dice=read_int(tests, "modifier_dice", wt, low=0, high=5),
        test_min_dice=read_int(tests, "min_dice", wt, low=0, high=5),
        tn_for_riven_tn=tuple(tn_map),
        bands=tuple(bands),
        shot_atn=read_int(shooting, "atn", ws, low=min_tn, high=20),
        cover_tn=cover_tn,
        exchanges=read_int(melee, "exchanges", wm, low=1, high=4),
        modifier_dice=read_int(melee, "modifier_dice", wm, low=0, high=5),
        ignore_modifier_sources=read_str_list(melee, "ignore_modifier_sources", wm, default=[]),
        feint_cost=read_int(melee, "feint_cost", wm, low=0, high=10),
        feint_die_cost_near=read_int(melee, "feint_die_cost_near", wm, low=1, high=10),
        feint_die_cost_far=read_int(melee, "feint_die_cost_far", wm, low=1, high=10),
        counter_bonus=read_str(melee, "counter_bonus", wm, choices=COUNTER_BONUS),
        counter_fail_extra_successes=read_int(
            melee, "counter_fail_extra_successes", wm, low=0, high=10
        ),
        stand_steal_cost=read_int(melee, "stand_steal_cost", wm, low=0, high=10),
        duck_weave_pool_loss=read_float(melee, "duck_weave_pool_loss", wm, low=0.0, high=1.0),
        fumble_pool_loss=read_float(melee, "fumble_pool_loss", wm, low=0.0, high=1.0),
        knockdown_tn_per_margin=read_int(melee, "knockdown_tn_per_margin", wm, low=0, high=10),
        knockdown_condition=read_str(melee, "knockdown_condition", wm),
        bleeding_condition=read_str(melee, "bleeding_condition", wm),
        max_wound_level=max_level,
        attacks=attacks,
        defences=defences,
        zones=zones,
        zone_names=zone_names,
        zone_near=zone_near,
        weapons=weapons,
        weapon_traits=traits,
        shields=shields,
        damage=damage,
        default_stance=default_stance,
        stances_by_profile=dict(by_profile),
        stances=stances,
    )


@functools.lru_cache(maxsize=8)
def load_ros_data(path: str | None = None) -> RosData:
    """Load and validate an RoS data file (default: the bundled ``riddle-of-steel.toml``)."""
    if path is None:
        text = resources.files("riven_env.rules.data").joinpath(ROS_RULES_FILE).read_text("utf-8")
        source = f"riven_env/rules/data/{ROS_RULES_FILE}"
    else:
        try:
            text = Path(path).read_text("utf-8")
        except OSError as exc:
            raise RulesDataError(f"{path}: cannot read the RoS rules data: {exc}") from None
        source = str(path)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(f"{source}: not valid TOML: {exc}") from None
    return parse_ros_data(raw, source)


@functools.lru_cache(maxsize=32)
def ros_data_for(rules: RulesConfig) -> RosData:
    """The RoS data a game with ``rules`` plays by.

    Rules data that carry a ``riddle_of_steel`` table (merged from the system's file, with a
    designer's overrides) are read; otherwise the bundled file is.
    """
    if SECTION in rules.raw:
        return parse_ros_data(rules.raw, rules.source)
    return load_ros_data()


__all__ = [
    "Attack",
    "Defence",
    "ROS_RULES_FILE",
    "RosData",
    "RosShield",
    "RosWeapon",
    "Stance",
    "Wound",
    "load_ros_data",
    "parse_ros_data",
    "ros_data_for",
]
