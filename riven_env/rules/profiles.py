"""Model profiles and weapons, parsed from data tables, and the hero creation check.

A model has four attributes rated 1-5 (numbers in ``[profiles]``):

- **Might**: melee (2d6 + Might, opposed).
- **Agility**: shooting (2d6 + Agility vs Evasion TN) and Disengage.
- **Wit**: Interact with objectives; the Strain track maximum is Wit x ``strain.track_per_wit``.
- **Resolve** (house rule; RAW names only three attributes): will, nerve and leadership.
  Rally tests (2d6 + Resolve) and Interact tests where the scenario data says so.

and a Mettle threshold (2-6, lower is better) for activation, morale and Out checks.

Data keys of a weapon table: ``kind`` (melee | ranged), ``range`` (inches; 0 for melee),
``modifier`` (default 0), ``traits`` (list of ``[weapons.traits.*]`` names), ``names``
(optional setting -> display name). Profile table: ``might``, ``agility``, ``wit``,
``resolve``, ``mettle``, ``wounds``, ``move``, ``base`` (default ``distances.base``),
``melee`` / ``ranged`` (weapon names; a profile without a melee weapon fights with
``[profiles.unarmed]``), ``keywords``, ``names``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from riven_env.errors import ProfileError, RivenError, RulesDataError
from riven_env.rules.datacheck import (
    read_float,
    read_int,
    read_str,
    read_str_list,
    read_table,
    refuse_unknown_keys,
)
from riven_env.rules.rules_data import RulesConfig, bundled_rules_data, default_rules_path

WEAPON_KINDS = frozenset({"melee", "ranged"})
ATTRIBUTES: tuple[str, ...] = ("might", "agility", "wit", "resolve")
_WEAPON_FIELDS = frozenset({"kind", "range", "modifier", "traits", "names"})
_PROFILE_FIELDS = frozenset(
    {*ATTRIBUTES, "mettle", "wounds", "move", "base", "melee", "ranged", "keywords", "names"}
)
_TRAIT_FIELDS = frozenset(
    {
        "description",
        "melee_modifier",
        "charge_modifier",
        "defend_modifier",
        "shot_modifier",
        "cover_steps",
    }
)


@dataclass(frozen=True)
class WeaponTrait:
    """A weapon trait's generic effects (``[weapons.traits.NAME]``).

    Attributes:
        melee_modifier: Added to every melee roll of the bearer.
        charge_modifier: Added to the bearer's charge strike only.
        defend_modifier: Added to the bearer's melee rolls in fights it did not start.
        shot_modifier: Added to every shot with the weapon.
        cover_steps: Steps of the target's cover the weapon ignores.
    """

    name: str
    description: str
    melee_modifier: int
    charge_modifier: int
    defend_modifier: int
    shot_modifier: int
    cover_steps: int


@dataclass(frozen=True)
class Weapon:
    """A melee or ranged weapon.

    Attributes:
        name: Data name (``"sword"``).
        kind: ``"melee"`` or ``"ranged"``.
        range: Reach in inches (0 for melee weapons: base contact).
        modifier: Added to every roll made with it.
        traits: Names of ``[weapons.traits.*]`` entries.
        display_names: Setting name to the name shown in that setting.
    """

    name: str
    kind: str
    range: float
    modifier: int
    traits: frozenset[str]
    display_names: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_dict(
        cls,
        name: str,
        data: Mapping[str, Any],
        where: str,
        *,
        error: type[RivenError] = ProfileError,
    ) -> Weapon:
        """Parse a weapon table; errors name ``where`` and the key."""
        refuse_unknown_keys(data, _WEAPON_FIELDS, where, error)
        kind = read_str(data, "kind", where, choices=WEAPON_KINDS, error=error)
        weapon_range = read_float(data, "range", where, low=0.0, high=200.0, error=error)
        if kind == "ranged" and weapon_range <= 0:
            raise error(f"{where}.range = {weapon_range!r}: a ranged weapon needs range > 0")
        names = read_table(data, "names", where, default={}, error=error)
        return cls(
            name=name,
            kind=kind,
            range=weapon_range,
            modifier=read_int(data, "modifier", where, low=-6, high=6, default=0, error=error),
            traits=frozenset(read_str_list(data, "traits", where, default=[], error=error)),
            display_names={
                str(k): read_str(names, k, f"{where}.names", error=error) for k in names
            },
        )

    def display_name(self, setting: str) -> str:
        """The weapon's name in a setting, falling back to its data name."""
        return self.display_names.get(setting, self.name)


@dataclass(frozen=True)
class ModelProfile:
    """The stat line of a kind of model. See the module docstring for the attributes' jobs."""

    name: str
    might: int
    agility: int
    wit: int
    resolve: int
    mettle: int
    wounds: int
    move: float
    base_diameter: float
    melee: Weapon | None
    ranged: Weapon | None
    keywords: frozenset[str]
    display_names: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_dict(
        cls,
        name: str,
        data: Mapping[str, Any],
        weapons: Mapping[str, Weapon],
        where: str,
        rules: RulesConfig | None = None,
    ) -> ModelProfile:
        """Parse and validate a profile table.

        Args:
            name: The profile's data name.
            data: The profile table (keys in the module docstring).
            weapons: Known weapons by name (``melee`` / ``ranged`` refer to them).
            where: File and path of the table, for error messages.
            rules: Rules giving attribute and Mettle ranges, allowed keywords, the unarmed
                weapon, default move and base; ``None`` uses the bundled rules.

        Raises:
            ProfileError: A bad value; the message names ``where`` and the key.
        """
        if rules is None:
            rules = _bundled_rules()
        refuse_unknown_keys(data, _PROFILE_FIELDS, where, ProfileError)
        low, high = (
            int(rules.get("profiles.attribute_min")),
            int(rules.get("profiles.attribute_max")),
        )
        attrs = {
            a: read_int(data, a, where, low=low, high=high, error=ProfileError) for a in ATTRIBUTES
        }
        melee = _weapon_ref(data, "melee", "melee", weapons, where, rules) or unarmed_weapon(rules)
        ranged = _weapon_ref(data, "ranged", "ranged", weapons, where, rules)
        names = read_table(data, "names", where, default={}, error=ProfileError)
        return cls(
            name=name,
            **attrs,
            mettle=read_int(
                data,
                "mettle",
                where,
                low=int(rules.get("profiles.mettle_min")),
                high=int(rules.get("profiles.mettle_max")),
                error=ProfileError,
            ),
            wounds=read_int(data, "wounds", where, low=1, high=20, error=ProfileError),
            move=read_float(
                data,
                "move",
                where,
                low=0.0,
                high=48.0,
                default=float(rules.get("distances.move")),
                error=ProfileError,
            ),
            base_diameter=read_float(
                data,
                "base",
                where,
                low=0.1,
                high=12.0,
                default=float(rules.get("distances.base")),
                error=ProfileError,
            ),
            melee=melee,
            ranged=ranged,
            keywords=frozenset(
                read_str_list(
                    data,
                    "keywords",
                    where,
                    choices=rules.get("profiles.keywords"),
                    default=[],
                    error=ProfileError,
                )
            ),
            display_names={
                str(k): read_str(names, k, f"{where}.names", error=ProfileError) for k in names
            },
        )

    def attribute(self, name: str) -> int:
        """The rating of an attribute by name (``"might"``, ``"agility"``, ``"wit"``, ``"resolve"``)."""
        if name not in ATTRIBUTES:
            raise ProfileError(
                f"{self.name}: unknown attribute {name!r}; allowed: {', '.join(ATTRIBUTES)}"
            )
        return int(getattr(self, name))

    def strain_max(self, rules: RulesConfig) -> int:
        """The Strain track maximum: Wit x ``strain.track_per_wit``."""
        return self.wit * int(rules.get("strain.track_per_wit"))

    def display_name(self, setting: str) -> str:
        """The profile's name in a setting, falling back to its data name."""
        return self.display_names.get(setting, self.name)


@functools.lru_cache(maxsize=1)
def _bundled_rules() -> RulesConfig:
    """The bundled rules without overrides: equal (one fingerprint) to
    :func:`riven_env.rules.config.bundled_rules`, built from the same data file without the
    loader, which validates profiles with this module and so stands above it."""
    return RulesConfig(raw=bundled_rules_data(), source=str(default_rules_path()))


def _weapon_ref(
    data: Mapping[str, Any],
    key: str,
    kind: str,
    weapons: Mapping[str, Weapon],
    where: str,
    rules: RulesConfig,
) -> Weapon | None:
    if key not in data:
        return None
    ref = read_str(data, key, where, error=ProfileError)
    if ref not in weapons:
        raise ProfileError(
            f"{where}.{key} = {ref!r}: unknown weapon; known: {', '.join(sorted(weapons)) or 'none'}"
        )
    weapon = weapons[ref]
    unknown = sorted(weapon.traits - set(weapon_traits(rules)))
    if unknown:
        raise ProfileError(
            f"{where}.{key} = {ref!r}: weapon trait(s) {', '.join(unknown)} unknown; "
            f"known: {', '.join(sorted(weapon_traits(rules)))} (weapons.traits)"
        )
    if weapon.kind != kind:
        raise ProfileError(
            f"{where}.{key} = {ref!r}: that weapon is {weapon.kind}, expected {kind}"
        )
    return weapon


def parse_weapon_traits(raw: Mapping[str, Any], source: str) -> dict[str, WeaponTrait]:
    """Parse ``[weapons.traits.*]``."""
    section = read_table(read_table(raw, "weapons", source), "traits", f"{source}: weapons")
    traits: dict[str, WeaponTrait] = {}
    for name, table in section.items():
        where = f"{source}: weapons.traits.{name}"
        if not isinstance(table, Mapping):
            raise RulesDataError(f"{where} = {table!r}: expected a table of trait effects")
        refuse_unknown_keys(table, _TRAIT_FIELDS, where)
        traits[name] = WeaponTrait(
            name=name,
            description=read_str(table, "description", where, default=""),
            melee_modifier=read_int(table, "melee_modifier", where, low=-6, high=6, default=0),
            charge_modifier=read_int(table, "charge_modifier", where, low=-6, high=6, default=0),
            defend_modifier=read_int(table, "defend_modifier", where, low=-6, high=6, default=0),
            shot_modifier=read_int(table, "shot_modifier", where, low=-6, high=6, default=0),
            cover_steps=read_int(table, "cover_steps", where, low=0, high=3, default=0),
        )
    return traits


@functools.lru_cache(maxsize=32)
def weapon_traits(rules: RulesConfig) -> Mapping[str, WeaponTrait]:
    """Every weapon trait of the rules, by name (cached per rules)."""
    return parse_weapon_traits(rules.raw, rules.source)


def trait_specs(weapon: Weapon | None, rules: RulesConfig) -> list[WeaponTrait]:
    """The trait records of a weapon, in name order.

    Raises:
        ProfileError: The weapon names a trait the rules do not define.
    """
    if weapon is None:
        return []
    known = weapon_traits(rules)
    specs = []
    for trait in sorted(weapon.traits):
        if trait not in known:
            raise ProfileError(
                f"weapon {weapon.name}: unknown trait {trait!r}; known: {', '.join(sorted(known))}"
            )
        specs.append(known[trait])
    return specs


def unarmed_weapon(rules: RulesConfig) -> Weapon:
    """The melee weapon of a profile that names none (``[profiles.unarmed]``)."""
    return Weapon.from_dict(
        "unarmed",
        rules.section("profiles.unarmed"),
        f"{rules.source}: profiles.unarmed",
        error=RulesDataError,
    )


def check_hero(profile: ModelProfile, rules: RulesConfig) -> None:
    """Check a hero against the creation rules: the attribute points and the creation cap.

    RAW: starting heroes distribute 9 points over the four attributes, none above 4
    (``profiles.hero.points``, ``profiles.hero.creation_max``).

    Raises:
        ProfileError: An attribute is above the cap (named), or the points do not add up.
    """
    cap = int(rules.get("profiles.hero.creation_max"))
    points = int(rules.get("profiles.hero.points"))
    for attribute in ATTRIBUTES:
        value = profile.attribute(attribute)
        if value > cap:
            raise ProfileError(
                f"hero {profile.name}: {attribute} = {value}: no attribute may be above {cap} "
                "at creation (profiles.hero.creation_max)"
            )
    spent = sum(profile.attribute(a) for a in ATTRIBUTES)
    if spent != points:
        detail = ", ".join(f"{a} {profile.attribute(a)}" for a in ATTRIBUTES)
        raise ProfileError(
            f"hero {profile.name}: attributes add up to {spent} ({detail}); a starting hero "
            f"distributes exactly {points} points (profiles.hero.points)"
        )
