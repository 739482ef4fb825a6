"""The scenario file schema (version 1) and the loaded, validated form of a scenario.

Two halves:

* the **file schema**: which keys each TOML table may hold (:class:`~riven_env.scenario.checks.FieldSpec`
  mappings such as :data:`SCENARIO_FIELDS`), checked by :mod:`riven_env.scenario.loader`;
* the **loaded form**: frozen dataclasses (:class:`Scenario`, :class:`SideSpec`,
  :class:`ModelEntry`, :class:`Objective`, :class:`VictorySpec`, :class:`VictoryCondition`)
  that the game loop codes against. Every field is filled: defaults are applied and every
  model has a position.

``docs/scenario-schema.md`` documents every field for designers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from riven_env.files import limit
from riven_env.scenario.checks import FieldSpec

if TYPE_CHECKING:
    from riven_env.rules.profiles import ModelProfile
    from riven_env.scenario.balance import BalanceSpec
    from riven_env.table import Table

#: The only schema version this loader reads.
SCHEMA_VERSION = 1

SETTINGS: tuple[str, ...] = ("fantasy", "scifi")
MODES: tuple[str, ...] = ("warband", "solo_hero")
SIDES: tuple[str, ...] = ("blue", "red")
FIRST_SIDES: tuple[str, ...] = (*SIDES, "roll")
OBJECTIVE_KINDS: tuple[str, ...] = ("hold", "loot", "extract")
ROUND_LIMIT_OUTCOMES: tuple[str, ...] = ("points", "draw", "side:blue", "side:red")

NAME_PATTERN = r"[a-z0-9]+(-[a-z0-9]+)*"
NAME_WORDS = "lower-case letters, digits and single hyphens, e.g. 'skirmish-5v5'"
MODEL_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]*"
MODEL_ID_WORDS = "letters, digits, '-' and '_', starting with a letter or digit"

Rect = tuple[float, float, float, float]
Point = tuple[float, float]

# Upper bounds of sizes (riven_env/data/limits.toml; docs/scenario-schema.md "Limits").
MAX_TABLE_SIZE = float(limit("table.max_size"))
MAX_PIECES = int(limit("table.max_pieces"))
MAX_ROUNDS = int(limit("scenario.max_rounds"))
MAX_MODELS_PER_SIDE = int(limit("scenario.max_models_per_side"))
MAX_OBJECTIVES = int(limit("scenario.max_objectives"))
MAX_ZONES = int(limit("scenario.max_zones"))
MAX_CONDITIONS = int(limit("scenario.max_conditions"))
MAX_POINTS = int(limit("scenario.max_points"))

# ---------------------------------------------------------------------------------------
# File schema: the keys each table may hold
# ---------------------------------------------------------------------------------------

TOP_LEVEL_FIELDS: dict[str, FieldSpec] = {
    "schema_version": FieldSpec("int", required=True),
    "scenario": FieldSpec("table", required=True),
    "table": FieldSpec("table", required=True),
    "deployment": FieldSpec("table", required=True),
    "objectives": FieldSpec(
        "tables", default=[], max_items=MAX_OBJECTIVES, limit_key="scenario.max_objectives"
    ),
    "sides": FieldSpec("table", required=True),
    "victory": FieldSpec("table", required=True),
    "weapons": FieldSpec("table", default={}),
    "profiles": FieldSpec("table", default={}),
    "balance": FieldSpec("table"),
}

#: ``[scenario]``. ``first_side`` and ``mode`` defaults come from ``data/defaults.toml``.
SCENARIO_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True, pattern=NAME_PATTERN, pattern_words=NAME_WORDS),
    "title": FieldSpec("str", required=True),
    "description": FieldSpec("str", default=""),
    "setting": FieldSpec("str", required=True, choices=SETTINGS),
    "mode": FieldSpec("str", choices=MODES),
    "rounds": FieldSpec(
        "int", required=True, minimum=1, maximum=MAX_ROUNDS, limit_key="scenario.max_rounds"
    ),
    "first_side": FieldSpec("str", choices=FIRST_SIDES),
}

#: ``[table]``: the size here; each ``[[table.terrain]]`` piece is checked by ``Table.from_spec``.
TABLE_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", default=""),
    "width": FieldSpec(
        "number", required=True, minimum=1.0, maximum=MAX_TABLE_SIZE, limit_key="table.max_size"
    ),
    "height": FieldSpec(
        "number", required=True, minimum=1.0, maximum=MAX_TABLE_SIZE, limit_key="table.max_size"
    ),
    "terrain": FieldSpec("tables", default=[], max_items=MAX_PIECES, limit_key="table.max_pieces"),
}

#: ``[[objectives]]``. ``radius`` defaults to the rules' ``distances.objective_radius``.
OBJECTIVE_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "x": FieldSpec("number", required=True),
    "y": FieldSpec("number", required=True),
    "radius": FieldSpec("number", minimum=0.0, maximum=MAX_TABLE_SIZE, limit_key="table.max_size"),
    "kind": FieldSpec("str", choices=OBJECTIVE_KINDS),
    "points": FieldSpec("int", minimum=0, maximum=MAX_POINTS, limit_key="scenario.max_points"),
}

#: ``[sides.blue]`` / ``[sides.red]``.
SIDE_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "oracle": FieldSpec("str"),
    "models": FieldSpec(
        "tables",
        required=True,
        max_items=MAX_MODELS_PER_SIDE,
        limit_key="scenario.max_models_per_side",
    ),
}

#: ``[[sides.<side>.models]]``.
MODEL_FIELDS: dict[str, FieldSpec] = {
    "profile": FieldSpec("str", required=True),
    "id": FieldSpec("str", pattern=MODEL_ID_PATTERN, pattern_words=MODEL_ID_WORDS),
    "count": FieldSpec(
        "int",
        default=1,
        minimum=1,
        maximum=MAX_MODELS_PER_SIDE,
        limit_key="scenario.max_models_per_side",
    ),
    "position": FieldSpec("point"),
    "oracle": FieldSpec("str"),
}

#: ``[victory]``.
VICTORY_FIELDS: dict[str, FieldSpec] = {
    "at_round_limit": FieldSpec("str", default="points", choices=ROUND_LIMIT_OUTCOMES),
    "conditions": FieldSpec(
        "tables", required=True, max_items=MAX_CONDITIONS, limit_key="scenario.max_conditions"
    ),
}

_SIDE = FieldSpec("str", required=True, choices=SIDES)
_MODELS = FieldSpec(
    "str_list",
    required=True,
    max_items=MAX_MODELS_PER_SIDE,
    limit_key="scenario.max_models_per_side",
)
_POINTS = FieldSpec(
    "int", default=1, minimum=0, maximum=MAX_POINTS, limit_key="scenario.max_points"
)

#: ``[[victory.conditions]]``: the keys each condition type may hold (besides ``type``).
VICTORY_CONDITION_FIELDS: dict[str, dict[str, FieldSpec]] = {
    # A side with no active models (all Down, Out or Fled) loses at once.
    "eliminate": {},
    # At the end of each round from `from_round`, each hold objective controlled scores its points.
    "hold": {
        "from_round": FieldSpec(
            "int", default=1, minimum=1, maximum=MAX_ROUNDS, limit_key="scenario.max_rounds"
        )
    },
    # Points per enemy model taken Out or Fled.
    "casualties": {"points": _POINTS},
    # Named models of `side` that reach `zone` leave the table: `points` each, or win at once.
    "extract": {
        "side": _SIDE,
        "models": _MODELS,
        "zone": FieldSpec("rect", required=True),
        "points": _POINTS,
        "win": FieldSpec("bool", default=False),
    },
    # `side` loses at once when any of `models` is Out or Fled.
    "protect": {"side": _SIDE, "models": _MODELS},
    # `side` scores `points` at the round limit if it has at least `min_models` active.
    "survive": {
        "side": _SIDE,
        "points": _POINTS,
        "min_models": FieldSpec(
            "int",
            default=1,
            minimum=1,
            maximum=MAX_MODELS_PER_SIDE,
            limit_key="scenario.max_models_per_side",
        ),
    },
}
VICTORY_TYPES: tuple[str, ...] = tuple(VICTORY_CONDITION_FIELDS)

# ---------------------------------------------------------------------------------------
# Loaded form
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelEntry:
    """One model of a side, ready to put on the table.

    Attributes:
        id: Unique model id across the scenario (``"blue-1"``, ``"red-captain"``).
        side: ``"blue"`` or ``"red"``.
        profile: The validated profile (stats and weapons).
        position: Centre of its base in inches; given in the file or placed in the side's
            deployment zone by :mod:`riven_env.scenario.placement`.
        oracle: The model's own Enemy Oracle profile, or ``None`` to use the side's.
    """

    id: str
    side: str
    profile: ModelProfile
    position: Point
    oracle: str | None = None


@dataclass(frozen=True)
class SideSpec:
    """One side of the scenario.

    Attributes:
        key: ``"blue"`` or ``"red"``.
        name: Display name of the warband.
        oracle: Default Enemy Oracle profile of the side's models when an oracle plays it.
        models: The side's models in file order (``count`` already expanded).
    """

    key: str
    name: str
    oracle: str
    models: tuple[ModelEntry, ...]


@dataclass(frozen=True)
class Objective:
    """A point on the table that models control, loot or extract through.

    Attributes:
        name: Unique objective name.
        x: Centre x (inches).
        y: Centre y (inches).
        radius: Control radius (inches): models within it of the centre contest it.
        kind: ``"hold"``, ``"loot"`` or ``"extract"``.
        points: Victory points the objective is worth.
    """

    name: str
    x: float
    y: float
    radius: float
    kind: str
    points: int


@dataclass(frozen=True)
class VictoryCondition:
    """One victory condition; fields a type does not use hold their neutral default.

    Attributes:
        type: One of :data:`VICTORY_TYPES`.
        side: The side the condition is about (extract, protect, survive), else ``None``.
        models: Model ids the condition names (extract, protect), else ``()``.
        zone: Extraction zone rectangle ``(x0, y0, x1, y1)`` (extract), else ``None``.
        points: Points the condition scores (0 when it scores none).
        win: Whether meeting the condition wins the game at once (extract).
        from_round: First round at whose end the condition scores (hold).
        min_models: Active models needed to score (survive).
    """

    type: str
    side: str | None = None
    models: tuple[str, ...] = ()
    zone: Rect | None = None
    points: int = 0
    win: bool = False
    from_round: int = 1
    min_models: int = 1


@dataclass(frozen=True)
class VictorySpec:
    """How the game is won.

    Attributes:
        at_round_limit: Outcome when the round limit is reached and nothing ended the game:
            ``"points"`` (most points wins; equal points is a draw), ``"draw"``,
            ``"side:blue"`` or ``"side:red"``.
        conditions: The victory conditions in file order.
    """

    at_round_limit: str
    conditions: tuple[VictoryCondition, ...]


@dataclass(frozen=True, eq=False)
class Scenario:
    """A loaded, validated scenario with every model placed.

    Attributes:
        name: Identifier (``"skirmish-5v5"``); what ``--scenario`` accepts.
        title: Display title.
        description: Briefing text.
        setting: ``"fantasy"`` or ``"scifi"``.
        mode: ``"warband"`` or ``"solo_hero"``.
        rounds: Round limit.
        first_side: ``"blue"``, ``"red"`` or ``"roll"``.
        table: The tabletop geometry (shared by every game on this scenario).
        table_spec: The spec the table was built from (``Table.from_spec`` input).
        deployment: Deployment rectangles per side.
        sides: ``{"blue": SideSpec, "red": SideSpec}``.
        objectives: Objectives in file order.
        victory: Victory conditions.
        source: The file the scenario came from (``"<string>"`` for text).
        raw: The parsed TOML document.
        balance: The declared balance (``[balance]``, ``docs/balance.md``), or ``None``.
    """

    name: str
    title: str
    description: str
    setting: str
    mode: str
    rounds: int
    first_side: str
    table: Table
    table_spec: dict[str, Any]
    deployment: dict[str, tuple[Rect, ...]]
    sides: dict[str, SideSpec]
    objectives: tuple[Objective, ...]
    victory: VictorySpec
    source: str
    raw: dict[str, Any]
    balance: BalanceSpec | None = None

    def models(self) -> tuple[ModelEntry, ...]:
        """Return every model of both sides, blue first, in file order."""
        return tuple(entry for key in SIDES for entry in self.sides[key].models)

    def model(self, model_id: str) -> ModelEntry:
        """Return the model with id ``model_id``.

        Raises:
            KeyError: No model has that id.
        """
        for entry in self.models():
            if entry.id == model_id:
                return entry
        raise KeyError(model_id)


@dataclass(frozen=True)
class ScenarioInfo:
    """A bundled scenario in a listing.

    Attributes:
        name: Identifier; what ``--scenario`` accepts.
        title: Display title.
        setting: ``"fantasy"`` or ``"scifi"``.
        mode: ``"warband"`` or ``"solo_hero"``.
        path: The mission file.
        balance: The declared balance in words (``[balance]``; ``"-"`` when none).
    """

    name: str
    title: str
    setting: str
    mode: str
    path: Path
    balance: str = "-"


__all__ = [
    "FIRST_SIDES",
    "MODEL_FIELDS",
    "MODES",
    "OBJECTIVE_FIELDS",
    "OBJECTIVE_KINDS",
    "ROUND_LIMIT_OUTCOMES",
    "SCENARIO_FIELDS",
    "SCHEMA_VERSION",
    "SETTINGS",
    "SIDES",
    "SIDE_FIELDS",
    "TABLE_FIELDS",
    "TOP_LEVEL_FIELDS",
    "VICTORY_CONDITION_FIELDS",
    "VICTORY_FIELDS",
    "VICTORY_TYPES",
    "ModelEntry",
    "Objective",
    "Point",
    "Rect",
    "Scenario",
    "ScenarioInfo",
    "SideSpec",
    "VictoryCondition",
    "VictorySpec",
]
