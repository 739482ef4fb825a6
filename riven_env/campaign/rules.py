"""The campaign house rules (``riven_env/rules/data/campaign-v0.1.toml``), loaded and checked.

:func:`load_campaign_rules` reads the file into a frozen :class:`CampaignRules`; an unknown
key or a bad value raises :class:`~riven_env.campaign.errors.CampaignError` naming the file
and the key (``campaign-v0.1.toml: fate.down.difficulty: bad value 'harsh'; allowed: ...``).
The rules are data a designer edits; docs/campaigns.md documents each key and its reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from riven_env.campaign.errors import CampaignError, first_error
from riven_env.files import read_toml
from riven_env.scenario.checks import FieldSpec, Problems, check_keys, join_path, read_section

#: What a fate band may lead to.
FATE_OUTCOMES: tuple[str, ...] = ("recovered", "convalesce", "injury", "dead")
BANDS: tuple[str, ...] = ("miss", "partial", "hit", "critical")
DIFFICULTIES: tuple[str, ...] = ("easy", "standard", "hard", "brutal")
ATTRIBUTES: tuple[str, ...] = ("might", "agility", "wit", "resolve")
_BIG = 1000

_INT0 = FieldSpec("int", required=True, minimum=0, maximum=_BIG)
_DIFF = FieldSpec("str", required=True, choices=DIFFICULTIES)
_ATTR = FieldSpec("str", required=True, choices=ATTRIBUTES)
_OUTCOME = FieldSpec("str", required=True, choices=FATE_OUTCOMES)

_FATE_TABLE = {
    "difficulty": _DIFF,
    "stabilised_modifier": FieldSpec("int", required=True, minimum=-6, maximum=6),
    **{band: _OUTCOME for band in BANDS},
}
_SECTIONS: dict[str, dict[str, FieldSpec]] = {
    "meta": {"name": FieldSpec("str", required=True), "version": FieldSpec("str", required=True)},
    "fate": {
        "attribute": _ATTR,
        "down": FieldSpec("table", required=True),
        "out": FieldSpec("table", required=True),
        "fled": FieldSpec("table", required=True),
    },
    "injuries": {
        "move_min": FieldSpec("number", required=True, minimum=1.0, maximum=12.0),
        "retire_at": FieldSpec("int", required=True, minimum=1, maximum=_BIG),
        "below_minimum": FieldSpec("str", required=True, choices=("retired", "ignored")),
        "table": FieldSpec("table", required=True),
    },
    "experience": {
        "survived": _INT0,
        "objective": _INT0,
        "kill": _INT0,
        "critical": _INT0,
        "won": _INT0,
        "per_mission_max": _INT0,
    },
    "advances": {
        "per_mission": FieldSpec("int", required=True, minimum=0, maximum=4),
        "attribute": FieldSpec("table", required=True),
        "mettle": FieldSpec("table", required=True),
        "talent": FieldSpec("table", required=True),
    },
    "reset": {
        k: FieldSpec("bool", required=True) for k in ("wounds", "strain", "conditions", "momentum")
    },
    "rest": {
        "attribute": _ATTR,
        "difficulty": _DIFF,
        "min_fielded": FieldSpec("int", required=True, minimum=0, maximum=_BIG),
    },
    "recruitment": {"income": _INT0, "income_won": _INT0, "max_per_step": _INT0},
    "solo": {"out_difficulty": _DIFF, "momentum_to_fate": _INT0, "fate_bonus_max": _INT0},
}
_TOP = {name: FieldSpec("table", required=True) for name in (*_SECTIONS, "talents", "points")}
_COST = FieldSpec("int", required=True, minimum=1, maximum=_BIG)
#: What each advance costs, and its limit (``advances.attribute`` / ``.mettle`` / ``.talent``).
_ADVANCE_TABLES: dict[str, dict[str, FieldSpec]] = {
    "attribute": {"cost": _COST, "max": FieldSpec("int", required=True, minimum=1, maximum=5)},
    "mettle": {"cost": _COST, "best": FieldSpec("int", required=True, minimum=2, maximum=6)},
    "talent": {"cost": _COST},
}
_INJURY_FIELDS = {
    "name": FieldSpec("str", required=True),
    "attribute": FieldSpec("str", choices=ATTRIBUTES),
    "delta": FieldSpec("int", minimum=-4, maximum=4),
    "mettle": FieldSpec("int", minimum=-4, maximum=4),
    "move": FieldSpec("number", minimum=-6.0, maximum=6.0),
    "xp": FieldSpec("int", minimum=0, maximum=_BIG),
}
_TALENT_FIELDS = {
    "keyword": FieldSpec("str"),
    "melee": FieldSpec("str"),
    "ranged": FieldSpec("str"),
    "wounds": FieldSpec("int", minimum=1, maximum=4),
    "move": FieldSpec("number", minimum=0.5, maximum=6.0),
    "max": FieldSpec("number", minimum=1.0, maximum=12.0),
}


@dataclass(frozen=True)
class FateRule:
    """The fate test of one way of falling (``fate.down`` / ``fate.out``).

    Attributes:
        difficulty: Named difficulty of the test (its TN from the RIVEN rules).
        stabilised_modifier: Added when an ally stabilised the model.
        outcomes: Band -> outcome (one of :data:`FATE_OUTCOMES`).
    """

    difficulty: str
    stabilised_modifier: int
    outcomes: Mapping[str, str]


@dataclass(frozen=True)
class Injury:
    """One row of the lasting-injury table (exactly one effect is non-neutral)."""

    roll: int
    name: str
    attribute: str | None = None
    delta: int = 0
    mettle: int = 0
    move: float = 0.0
    xp: int = 0


@dataclass(frozen=True)
class Talent:
    """An advance from the profile library: a keyword, a weapon, or a step of wounds/move."""

    name: str
    keyword: str | None = None
    melee: str | None = None
    ranged: str | None = None
    wounds: int = 0
    move: float = 0.0
    max: float | None = None


@dataclass(frozen=True)
class CampaignRules:
    """The campaign house rules, every key of the data file (see docs/campaigns.md)."""

    source: str
    fate_attribute: str
    fate_down: FateRule
    fate_out: FateRule
    fate_fled: str
    injuries: Mapping[int, Injury]
    move_min: float
    retire_at: int
    below_minimum: str
    experience: Mapping[str, int]
    advances_per_mission: int
    attribute_cost: int
    attribute_max: int
    mettle_cost: int
    mettle_best: int
    talent_cost: int
    talents: Mapping[str, Talent]
    rest_attribute: str
    rest_difficulty: str
    rest_min_fielded: int
    income: int
    income_won: int
    recruits_per_step: int
    points: Mapping[str, int]
    solo_out_difficulty: str
    solo_momentum_to_fate: int
    solo_fate_bonus_max: int
    raw: Mapping[str, Any]


def default_campaign_rules_path() -> Path:
    """The bundled campaign rules file."""
    return Path(__file__).resolve().parent.parent / "rules" / "data" / "campaign-v0.1.toml"


def _fate(data: Any, path: str, problems: Problems) -> FateRule | None:
    values, ok = read_section(data, _FATE_TABLE, path, problems)
    if not ok:
        return None
    return FateRule(
        values["difficulty"], values["stabilised_modifier"], {b: values[b] for b in BANDS}
    )


def _injuries(data: Mapping[str, Any], problems: Problems) -> dict[int, Injury]:
    table: dict[int, Injury] = {}
    rolls = [str(k) for k in range(1, 7)]
    check_keys(data, rolls, "injuries.table", problems)
    for roll in rolls:
        path = join_path("injuries.table", roll)
        if roll not in data:
            problems.add("missing row (the table has one row per face of a d6: 1..6)", path)
            continue
        values, ok = read_section(data[roll], _INJURY_FIELDS, path, problems)
        if not ok:
            continue
        effects = [k for k in ("attribute", "mettle", "move", "xp") if values.get(k) is not None]
        if len(effects) != 1:
            problems.add(
                f"needs exactly one effect (attribute + delta, mettle, move or xp); got "
                f"{', '.join(effects) or 'none'}",
                path,
            )
            continue
        if (values.get("attribute") is None) != (values.get("delta") is None):
            problems.add("attribute and delta go together", join_path(path, "delta"))
            continue
        table[int(roll)] = Injury(
            int(roll),
            values["name"],
            values.get("attribute"),
            values.get("delta") or 0,
            values.get("mettle") or 0,
            values.get("move") or 0.0,
            values.get("xp") or 0,
        )
    return table


def _talents(data: Mapping[str, Any], problems: Problems) -> dict[str, Talent]:
    from riven_env.rules import bundled_rules
    from riven_env.scenario import load_library

    rules = bundled_rules()
    library = load_library(rules=rules)
    keywords = tuple(rules.get("profiles.keywords"))
    talents: dict[str, Talent] = {}
    for name, entry in data.items():
        path = join_path("talents", name)
        values, ok = read_section(entry, _TALENT_FIELDS, path, problems)
        if not ok:
            continue
        effects = [k for k in ("keyword", "melee", "ranged", "wounds", "move") if values.get(k)]
        if len(effects) != 1:
            problems.add(
                "needs exactly one of keyword, melee, ranged, wounds, move; got "
                f"{', '.join(effects) or 'none'}",
                path,
            )
            continue
        kind = effects[0]
        value = values[kind]
        if kind == "keyword" and value not in keywords:
            problems.add(
                f"bad value {value!r}; allowed: {', '.join(keywords)}", join_path(path, kind)
            )
            continue
        if kind in ("melee", "ranged"):
            weapon = library.weapons.get(value)
            if weapon is None or weapon.kind != kind:
                allowed = sorted(n for n, w in library.weapons.items() if w.kind == kind)
                problems.add(
                    f"bad value {value!r}; allowed: {kind} weapons of the profile library: "
                    f"{', '.join(allowed)}",
                    join_path(path, kind),
                )
                continue
        if kind in ("wounds", "move") and values.get("max") is None:
            problems.add("a wounds or move talent needs max", join_path(path, "max"))
            continue
        talents[name] = Talent(
            name,
            values.get("keyword"),
            values.get("melee"),
            values.get("ranged"),
            values.get("wounds") or 0,
            values.get("move") or 0.0,
            values.get("max"),
        )
    return talents


def _points(data: Mapping[str, Any], problems: Problems) -> dict[str, int]:
    from riven_env.rules import bundled_rules
    from riven_env.scenario import load_library

    profiles = load_library(rules=bundled_rules()).profiles
    spec = FieldSpec("int", minimum=1, maximum=_BIG)
    points: dict[str, int] = {}
    check_keys(data, sorted(profiles), "points", problems)
    for name, value in data.items():
        if name not in profiles:
            continue
        values, ok = read_section({name: value}, {name: spec}, "points", problems)
        if ok:
            points[name] = values[name]
    return points


def read_campaign_rules(doc: Mapping[str, Any], source: str) -> CampaignRules:
    """Check a parsed campaign rules document; raise the first problem as one line."""
    problems = Problems(source)
    top, ok = read_section(doc, _TOP, "", problems)
    if not ok:
        raise first_error(problems)
    sec: dict[str, dict[str, Any]] = {}
    for name, specs in _SECTIONS.items():
        sec[name], _ = read_section(top[name], specs, name, problems)
    if problems:
        raise first_error(problems)
    down = _fate(sec["fate"]["down"], "fate.down", problems)
    out = _fate(sec["fate"]["out"], "fate.out", problems)
    fled, _ = read_section(sec["fate"]["fled"], {"outcome": _OUTCOME}, "fate.fled", problems)
    injuries = _injuries(sec["injuries"]["table"], problems)
    adv = sec["advances"]
    attribute, mettle, talent = (
        read_section(adv[name], specs, join_path("advances", name), problems)[0]
        for name, specs in _ADVANCE_TABLES.items()
    )
    talents = _talents(top["talents"], problems)
    points = _points(top["points"], problems)
    for key, value in sec["reset"].items():
        if value is not True:
            problems.add(
                "only true is supported: every in-game track starts fresh each mission "
                "(carrying it is not implemented; docs/campaigns.md)",
                join_path("reset", key),
            )
    if problems:
        raise first_error(problems)
    assert down is not None and out is not None
    return CampaignRules(
        source=source,
        fate_attribute=sec["fate"]["attribute"],
        fate_down=down,
        fate_out=out,
        fate_fled=fled["outcome"],
        injuries=injuries,
        move_min=sec["injuries"]["move_min"],
        retire_at=sec["injuries"]["retire_at"],
        below_minimum=sec["injuries"]["below_minimum"],
        experience=dict(sec["experience"]),
        advances_per_mission=adv["per_mission"],
        attribute_cost=attribute["cost"],
        attribute_max=attribute["max"],
        mettle_cost=mettle["cost"],
        mettle_best=mettle["best"],
        talent_cost=talent["cost"],
        talents=talents,
        rest_attribute=sec["rest"]["attribute"],
        rest_difficulty=sec["rest"]["difficulty"],
        rest_min_fielded=sec["rest"]["min_fielded"],
        income=sec["recruitment"]["income"],
        income_won=sec["recruitment"]["income_won"],
        recruits_per_step=sec["recruitment"]["max_per_step"],
        points=points,
        solo_out_difficulty=sec["solo"]["out_difficulty"],
        solo_momentum_to_fate=sec["solo"]["momentum_to_fate"],
        solo_fate_bonus_max=sec["solo"]["fate_bonus_max"],
        raw=doc,
    )


@lru_cache(maxsize=8)
def _cached(path: str, mtime_ns: int) -> CampaignRules:
    del mtime_ns
    doc = read_toml(path, what="campaign rules file", error=CampaignError)
    return read_campaign_rules(doc, Path(path).name if _bundled(path) else path)


def _bundled(path: str) -> bool:
    return Path(path).resolve() == default_campaign_rules_path()


def load_campaign_rules(path: str | Path | None = None) -> CampaignRules:
    """Load and check a campaign rules file (default: the bundled ``campaign-v0.1.toml``).

    Raises:
        CampaignError: The file is missing or not TOML, or a key is unknown or bad: one line
            naming the file and the key.
    """
    file = Path(path) if path is not None else default_campaign_rules_path()
    try:
        stamp = file.stat().st_mtime_ns
    except OSError as exc:
        raise CampaignError(
            f"cannot read the campaign rules: {exc.strerror}", file=str(file)
        ) from None
    return _cached(str(file), stamp)


__all__ = [
    "ATTRIBUTES",
    "BANDS",
    "FATE_OUTCOMES",
    "CampaignRules",
    "FateRule",
    "Injury",
    "Talent",
    "default_campaign_rules_path",
    "load_campaign_rules",
    "read_campaign_rules",
]
