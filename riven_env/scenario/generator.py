"""Procedural scenarios: open fields, dense ruins and dungeon crawls from a seed.

:func:`generate_scenario` builds a scenario document (the same nested dict a scenario
file parses to) from ``np.random.default_rng(seed)``; :func:`to_toml` writes it as a file.
The same ``(kind, seed, setting, models_per_side)`` always gives a byte-identical file.

Every document is checked before it is returned: the free space must connect the
deployment zones, the objectives and (in dungeons) every room for the widest base
(``common.connectivity_base``), and the document must pass the full scenario validation,
placement included. A layout that fails is drawn again from the same generator, so the
result stays deterministic. The tuning numbers live in ``data/generator.toml``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

import numpy as np
import shapely
import tomli_w

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from riven_env.errors import ScenarioError, did_you_mean
from riven_env.rules.config import RulesConfig, bundled_rules
from riven_env.scenario.layout import Draw, Layout, Room, connected, dungeon, piece_shape, scatter
from riven_env.scenario.schema import SCHEMA_VERSION, SETTINGS

GeneratorKind = Literal["field", "ruins", "dungeon"]
#: The kinds of scenario :func:`generate_scenario` makes.
GENERATOR_KINDS: tuple[str, ...] = ("field", "ruins", "dungeon")


@lru_cache(maxsize=1)
def generator_data() -> dict[str, Any]:
    """Return the generator tuning (``riven_env/scenario/data/generator.toml``), read once."""
    text = resources.files("riven_env.scenario.data").joinpath("generator.toml").read_text("utf-8")
    return tomllib.loads(text)


@lru_cache(maxsize=1)
def _impassable_types() -> frozenset[str]:
    from riven_env.table import terrain_types

    return frozenset(name for name, kind in terrain_types().items() if kind.impassable)


@dataclass
class _Draft:
    """A scenario document before its checks, with what the checks need.

    Attributes:
        doc: The document without its ``[scenario]`` header.
        layout: The terrain pieces and their footprints.
        checkpoints: Points that must all be reachable from each other.
        rounds: The round limit for the header.
    """

    doc: dict[str, Any]
    layout: Layout
    checkpoints: list[tuple[float, float]]
    rounds: int


def _roster(keys: list[str], count: int) -> list[dict[str, Any]]:
    """``count`` models cycling through ``keys``, grouped into entries with a count."""
    chosen = [keys[i % len(keys)] for i in range(count)]
    entries: list[dict[str, Any]] = []
    for key in chosen:
        if entries and entries[-1]["profile"] == key:
            entries[-1]["count"] = entries[-1].get("count", 1) + 1
        else:
            entries.append({"profile": key})
    return entries


def _side(name: str, oracle: str, roster: list[str], count: int) -> dict[str, Any]:
    return {"name": name, "oracle": oracle, "models": _roster(roster, count)}


def _objective(name: str, x: float, y: float, kind: str, points: int = 1) -> dict[str, Any]:
    return {"name": name, "x": x, "y": y, "kind": kind, "points": points}


def _open_battle(kind: str, draw: Draw, setting: str, models: int, rules: RulesConfig) -> _Draft:
    """Table, zones, objectives and sides of a field or ruins battle (not yet terrain-checked)."""
    data = generator_data()
    settings, common = data[kind], data["common"]
    width, height = float(settings["width"]), float(settings["height"])
    depth = float(common["deployment_depth"])
    zones = {"blue": [[0.0, 0.0, width, depth]], "red": [[0.0, height - depth, width, height]]}
    fractions = settings.get("objectives", [[0.5, 0.5]])
    names = ("centre", "west flank", "east flank")
    objectives = [
        _objective(
            names[i] if i < len(names) else f"objective {i + 1}",
            draw.round(fx * width),
            draw.round(fy * height),
            "hold",
        )
        for i, (fx, fy) in enumerate(fractions)
    ]
    radius = float(rules.get("distances.objective_radius"))
    keep_clear = [(shapely.box(*zone[0]), float(common["zone_gap"])) for zone in zones.values()]
    keep_clear += [
        (shapely.Point(o["x"], o["y"]).buffer(radius), float(common["objective_gap"]))
        for o in objectives
    ]
    layout = scatter(
        draw,
        (width, height),
        draw.integer(settings["pieces"]),
        settings["terrain"][setting],
        _impassable_types(),
        keep_clear,
        data,
    )
    names_by_side = data["side_names"][setting]
    doc = _document(width, height, layout)
    doc["deployment"] = zones
    doc["objectives"] = objectives
    doc["sides"] = {
        "blue": _side(
            names_by_side["blue"], data["oracles"]["blue"], data["rosters"]["blue"], models
        ),
        "red": _side(names_by_side["red"], data["oracles"]["red"], data["rosters"]["red"], models),
    }
    doc["victory"] = {
        "at_round_limit": "points",
        "conditions": [
            {"type": "eliminate"},
            {"type": "casualties", "points": 1},
            {"type": "hold", "from_round": 2},
        ],
    }
    checkpoints = [((z[0][0] + z[0][2]) / 2, (z[0][1] + z[0][3]) / 2) for z in zones.values()]
    checkpoints += [(o["x"], o["y"]) for o in objectives]
    return _Draft(doc, layout, checkpoints, int(settings["rounds"]))


def _dungeon_crawl(draw: Draw, setting: str, models: int) -> _Draft:
    """Rooms, props, loot and sides of a dungeon crawl (not yet terrain-checked)."""
    data = generator_data()
    settings = data["dungeon"]
    layout, rooms = dungeon(draw, setting, data)
    start, lair = rooms[0], rooms[-1]
    loot_rooms = [room for room in rooms if room not in (start, lair)]
    for number, room in enumerate(loot_rooms):
        _add_props(draw, layout, room, number, setting)
    objectives = [
        _objective(
            f"cache {i + 1}",
            draw.round(room.centre[0]),
            draw.round(room.centre[1]),
            "loot",
            int(settings["loot_points"]),
        )
        for i, room in enumerate(loot_rooms)
    ]
    names_by_side = data["side_names"][setting]
    doc = _document(float(settings["width"]), float(settings["height"]), layout)
    doc["deployment"] = {"blue": [list(start.floor)], "red": [list(lair.floor)]}
    doc["objectives"] = objectives
    doc["sides"] = {
        "blue": _side(
            names_by_side["party"], data["oracles"]["blue"], data["rosters"]["party"], models
        ),
        "red": _side(
            names_by_side["monsters"],
            data["oracles"]["monsters"],
            data["rosters"]["monsters"],
            models,
        ),
    }
    doc["victory"] = {
        "at_round_limit": "points",
        "conditions": [{"type": "eliminate"}, {"type": "casualties", "points": 1}],
    }
    return _Draft(doc, layout, [room.centre for room in rooms], int(settings["rounds"]))


def _add_props(draw: Draw, layout: Layout, room: Room, number: int, setting: str) -> None:
    """Put a few props (pillars, rubble ...) in the corners of a room's floor.

    Each prop is centred ``prop_gap`` plus its own reach in from a randomly chosen free
    corner, so it stands clear of the walls and leaves the middle of the room (the loot)
    open; a prop that would not fit is left out.
    """
    data = generator_data()
    settings = data["dungeon"]
    shapes = {**data["shapes"], **settings["prop_shapes"]}
    gap = float(settings["prop_gap"])
    reach = float(settings["prop_reach"])
    x0, y0, x1, y1 = room.floor
    floor = shapely.box(x0 + gap, y0 + gap, x1 - gap, y1 - gap)
    loot = shapely.Point(room.centre).buffer(gap)
    inset = gap + reach
    corners = [
        (x0 + inset, y0 + inset),
        (x1 - inset, y0 + inset),
        (x0 + inset, y1 - inset),
        (x1 - inset, y1 - inset),
    ]
    for count in range(draw.integer(settings["props_per_room"])):
        corner = corners.pop(int(draw.rng.integers(0, len(corners))))
        kind = draw.choice(settings["props"][setting])
        drawn = piece_shape(draw, kind, (draw.round(corner[0]), draw.round(corner[1])), shapes)
        if drawn is None:
            continue
        spec, shape = drawn
        if not floor.contains(shape) or shape.intersects(loot):
            continue
        if any(shape.distance(other) < gap for other in layout.shapes):
            continue
        layout.add(
            {"name": f"{kind} {number + 1}.{count + 1}", "type": kind, **spec},
            shape,
            kind in _impassable_types(),
        )


def _document(width: float, height: float, layout: Layout) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "table": {"width": width, "height": height, "terrain": layout.specs},
    }


def generate_scenario(
    kind: GeneratorKind,
    seed: int,
    *,
    setting: str = "fantasy",
    models_per_side: int = 5,
    rules: RulesConfig | None = None,
) -> dict[str, Any]:
    """Generate a valid scenario document.

    Args:
        kind: ``"field"`` (open ground, a few pieces, one objective), ``"ruins"`` (dense
            cover, three objectives) or ``"dungeon"`` (walled rooms with doors, corridors,
            loot, a party against monsters).
        seed: Seed of ``np.random.default_rng`` (``>= 0``).
        setting: ``"fantasy"`` or ``"scifi"`` (terrain types and names).
        models_per_side: Models on each side (1..12).
        rules: Rules data (objective radius, validation); the bundled rules when ``None``.

    Returns:
        The scenario document (write it with :func:`to_toml`).

    Raises:
        ScenarioError: A bad argument (naming it and the allowed values), or no valid layout
            was found in ``common.layout_attempts`` tries.
    """
    from riven_env.scenario.loader import validate_text

    if kind not in GENERATOR_KINDS:
        raise ScenarioError(
            f"unknown kind {kind!r}{did_you_mean(kind, GENERATOR_KINDS)} "
            f"(allowed: {', '.join(GENERATOR_KINDS)})",
            field="kind",
        )
    if setting not in SETTINGS:
        raise ScenarioError(
            f"unknown setting {setting!r}{did_you_mean(setting, SETTINGS)} "
            f"(allowed: {', '.join(SETTINGS)})",
            field="setting",
        )
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ScenarioError(f"bad seed {seed!r}; allowed: an integer >= 0", field="seed")
    if not 1 <= models_per_side <= 12:
        raise ScenarioError(
            f"bad models_per_side {models_per_side!r}; allowed: 1..12", field="models_per_side"
        )
    rules = rules or bundled_rules()
    data = generator_data()
    draw = Draw(np.random.default_rng(int(seed)), int(data["common"]["decimals"]))
    base = float(data["common"]["connectivity_base"])
    problems: list[str] = []
    for _ in range(int(data["common"]["layout_attempts"])):
        if kind == "dungeon":
            draft = _dungeon_crawl(draw, setting, models_per_side)
        else:
            draft = _open_battle(kind, draw, setting, models_per_side, rules)
        doc, layout = draft.doc, draft.layout
        size = (doc["table"]["width"], doc["table"]["height"])
        obstacles = [
            shape for shape, blocks in zip(layout.shapes, layout.impassable, strict=True) if blocks
        ]
        if not connected(size, obstacles, draft.checkpoints, base):
            continue
        doc["scenario"] = {
            "name": f"generated-{kind}-{setting}-{seed}",
            "title": f"Generated {kind} ({setting}, seed {seed})",
            "description": f"Procedurally generated by `riven scenarios generate --kind {kind} --seed {seed} "
            f"--setting {setting}`, {models_per_side} models a side.",
            "setting": setting,
            "mode": "warband",
            "rounds": draft.rounds,
            "first_side": "roll",
        }
        problems = validate_text(to_toml(doc), f"<generated {kind} seed {seed}>", rules=rules)
        if not problems:
            return _ordered(doc)
    raise ScenarioError(
        f"no valid {kind} layout in {data['common']['layout_attempts']} tries for seed {seed}"
        + (f"; last problems: {'; '.join(problems[:3])}" if problems else ""),
        field="seed",
    )


_KEY_ORDER = ("schema_version", "scenario", "table", "deployment", "objectives", "sides", "victory")


def _ordered(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document's sections in the order a designer reads a scenario file."""
    ordered = {key: doc[key] for key in _KEY_ORDER if key in doc}
    return {**ordered, **{key: value for key, value in doc.items() if key not in ordered}}


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else tomli_w.dumps({key: 0}).rsplit(" = ", 1)[0]


def _is_table_array(value: Any) -> bool:
    return (
        isinstance(value, list) and bool(value) and all(isinstance(item, Mapping) for item in value)
    )


def _value(value: Any) -> str:
    """One TOML value; arrays of plain values stay on one line (``rect = [0, 0, 36, 6]``)."""
    if isinstance(value, list | tuple) and not any(isinstance(item, Mapping) for item in value):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    # tomli_w formats (and escapes) every scalar and inline table.
    return tomli_w.dumps({"v": value})[len("v = ") :].rstrip("\n")


def _table_lines(name: str, table: Mapping[str, Any], *, in_array: bool = False) -> list[str]:
    plain = [
        (k, v) for k, v in table.items() if not isinstance(v, Mapping) and not _is_table_array(v)
    ]
    nested = [(k, v) for k, v in table.items() if isinstance(v, Mapping)]
    arrays = [(k, v) for k, v in table.items() if _is_table_array(v)]
    lines: list[str] = []
    if name and (in_array or plain or not (nested or arrays)):
        lines.append(f"[[{name}]]" if in_array else f"[{name}]")
    lines += [f"{_key(k)} = {_value(v)}" for k, v in plain]
    for key, sub in nested:
        child = f"{name}.{_key(key)}" if name else _key(key)
        lines += ["", *_table_lines(child, sub)] if lines else _table_lines(child, sub)
    for key, items in arrays:
        child = f"{name}.{_key(key)}" if name else _key(key)
        for item in items:
            lines += ["", *_table_lines(child, item, in_array=True)]
    return lines


def to_toml(doc: Mapping[str, Any]) -> str:
    """Write a scenario document as TOML text (deterministic: same document, same bytes).

    The layout follows the hand-written mission files: one ``[table]`` header per table,
    ``[[array]]`` entries for lists of tables, and lists of numbers on one line; values are
    formatted by ``tomli_w``. ``tomllib.loads(to_toml(doc)) == doc``.

    Args:
        doc: A scenario document, for example from :func:`generate_scenario`.

    Returns:
        The file text, starting with a comment that says where it came from.
    """
    header = "# RIVEN scenario (schema in docs/scenario-schema.md), written by riven_env.scenario.generator.\n"
    return header + "\n".join(_table_lines("", _ordered(doc))) + "\n"


__all__ = ["GENERATOR_KINDS", "GeneratorKind", "generate_scenario", "generator_data", "to_toml"]
