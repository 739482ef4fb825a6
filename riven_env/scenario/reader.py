"""The scenario reader: validates one scenario document and builds the :class:`Scenario`.

Validation runs in stages so that independent mistakes are all reported while a mistake
does not cause follow-on noise: the structure of every section first (keys, types,
choices), then the meaning (terrain geometry, zones and objectives on the table, profiles,
ids, references between sections), and placement only when everything else is valid.
Every problem is recorded with the file and the field path at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import shapely

from riven_env.errors import RivenError, ScenarioError
from riven_env.files import parse_toml
from riven_env.rules.config import RulesConfig, bundled_rules
from riven_env.scenario.balance import read_balance
from riven_env.scenario.checks import (
    FieldSpec,
    Problems,
    check_keys,
    convert,
    join_path,
    read_section,
    show,
)
from riven_env.scenario.defaults import loader_defaults
from riven_env.scenario.library import (
    HERO_KEYWORD,
    ProfileLibrary,
    library_profiles_raw,
    load_library,
    read_entries,
)
from riven_env.scenario.oracle_names import oracle_profile_names
from riven_env.scenario.placement import (
    PlacementSlot,
    impassable_overlap,
    off_table,
    place_models,
)
from riven_env.scenario.schema import (
    MAX_MODELS_PER_SIDE,
    MAX_ZONES,
    MODEL_FIELDS,
    OBJECTIVE_FIELDS,
    SCENARIO_FIELDS,
    SCHEMA_VERSION,
    SIDE_FIELDS,
    SIDES,
    TABLE_FIELDS,
    TOP_LEVEL_FIELDS,
    VICTORY_CONDITION_FIELDS,
    VICTORY_FIELDS,
    VICTORY_TYPES,
    ModelEntry,
    Objective,
    Point,
    Rect,
    Scenario,
    SideSpec,
    VictoryCondition,
    VictorySpec,
)
from riven_env.table import Table

#: Exceptions the rules and table engines may let slip on values of a wrong type; the
#: loader reports them as problems of the entry being read, so validation never crashes.
ENGINE_SLIPS: tuple[type[Exception], ...] = (TypeError, ValueError, AttributeError, KeyError)

#: Files in the bundled folder that are not missions.
NON_SCENARIO_FILES: frozenset[str] = frozenset({"profiles.toml"})

_RECT = FieldSpec("rect")


class ScenarioReader:
    """Validates one scenario document and builds the :class:`Scenario`.

    Every problem goes to :attr:`problems`; :meth:`read` returns ``None`` when the document
    cannot be built.
    """

    def __init__(self, source: str, rules: RulesConfig | None = None):
        self.source = source
        self.problems = Problems(source)
        self._rules = rules
        self.defaults = loader_defaults()
        # model id -> field path of the file entry that made it (for later messages)
        self._model_paths: dict[str, str] = {}
        # the spec handed to Table.from_spec, kept on the Scenario
        self._table_spec: dict[str, Any] = {}
        # names of the file's own [profiles.*] entries, valid or not
        self._inline_profiles: set[str] = set()

    @property
    def rules(self) -> RulesConfig:
        """The rules data (the bundled rules, loaded on first use, when none was given)."""
        if self._rules is None:
            self._rules = bundled_rules()
        return self._rules

    # -- entry point ----------------------------------------------------------------------

    def read(self, text: str) -> Scenario | None:
        """Validate ``text`` and build the scenario, or return ``None`` on any problem."""
        try:
            doc = parse_toml(text, self.source, what="scenario file", error=ScenarioError)
        except ScenarioError as exc:
            self.problems.errors.append(exc)
            return None
        top, _ = read_section(doc, TOP_LEVEL_FIELDS, "", self.problems)
        version = top.get("schema_version")
        if version is not None and version != SCHEMA_VERSION:
            self.problems.add(
                f"unsupported schema version {version!r}; this loader reads {SCHEMA_VERSION}",
                "schema_version",
            )
            return None
        header = self._header(top.get("scenario"))
        library = self._library(doc)
        table = self._table(top.get("table"))
        deployment = self._deployment(top.get("deployment"), table)
        objectives = self._objectives(top.get("objectives"), table)
        sides = self._sides(top.get("sides"), library, table)
        victory = self._victory(top.get("victory"), sides, table)
        if header is not None and sides is not None:
            self._check_mode(header, sides)
        balance = None
        if top.get("balance") is not None:
            balance = read_balance(top["balance"], doc, library_profiles_raw(), self.problems)
        sections = (header, table, deployment, objectives, sides, victory)
        if self.problems or any(section is None for section in sections):
            return None
        placed = self._place(table, deployment, sides)
        if placed is None:
            return None
        return Scenario(
            name=header["name"],
            title=header["title"],
            description=header["description"],
            setting=header["setting"],
            mode=header["mode"],
            rounds=header["rounds"],
            first_side=header["first_side"],
            table=table,
            table_spec=self._table_spec,
            deployment=deployment,
            sides=placed,
            objectives=objectives,
            victory=victory,
            source=self.source,
            raw=doc,
            balance=balance,
        )

    # -- sections -------------------------------------------------------------------------

    def _header(self, data: Any) -> dict[str, Any] | None:
        if data is None:
            return None
        values, ok = read_section(data, SCENARIO_FIELDS, "scenario", self.problems)
        for key in ("mode", "first_side"):
            if values.get(key) is None and key in values:
                values[key] = self.defaults["scenario"][key]
        return values if ok else None

    def _library(self, doc: Mapping[str, Any]) -> ProfileLibrary | None:
        try:
            base = load_library(rules=self.rules)
        except ScenarioError as exc:
            for error in getattr(exc, "errors", [exc]):
                self.problems.errors.append(error)
            return None
        inline = {
            key: doc[key] for key in ("weapons", "profiles") if isinstance(doc.get(key), dict)
        }
        self._inline_profiles = set(inline.get("profiles", {}))
        return read_entries(inline, self.problems, self.rules, base=base)

    def _table(self, data: Any) -> Table | None:
        if data is None:
            return None
        values, ok = read_section(data, TABLE_FIELDS, "table", self.problems)
        if not ok:
            return None
        spec = {key: values[key] for key in ("width", "height", "terrain")}
        if values["name"]:
            spec["name"] = values["name"]
        self._table_spec = spec
        try:
            return Table.from_spec(spec, where="table")
        except (RivenError, *ENGINE_SLIPS) as whole:
            self._blame_terrain(spec, whole)
            return None

    def _blame_terrain(self, spec: Mapping[str, Any], whole: Exception) -> None:
        """Report a table the engine refused against the terrain piece(s) at fault.

        Each piece is checked alone on the same table so that every bad piece is named by
        its index (``table.terrain[3]``); if no piece fails alone, the whole-table error is
        reported against ``table``.
        """
        before = self.problems.count()
        for index, piece in enumerate(spec["terrain"]):
            path = f"table.terrain[{index}]"
            single = {"width": spec["width"], "height": spec["height"], "terrain": [piece]}
            try:
                Table.from_spec(single, where="table")
            except ENGINE_SLIPS as exc:
                self.problems.add(f"malformed terrain piece {show(piece)} ({exc})", path)
            except RivenError as exc:
                # Checked alone, the piece is terrain[0]: give the message its real index.
                message = str(exc).replace(".terrain[0]", f".terrain[{index}]", 1)
                if message.startswith(path):
                    self.problems.add_verbatim(message, path)
                else:
                    self.problems.add(message, path)
        if self.problems.count() == before:
            message = str(whole)
            if message.startswith("table"):  # the engine named the field (table.terrain)
                self.problems.add_verbatim(message, message.split(":", 1)[0])
            else:
                self.problems.add(message, "table")

    def _rect_on_table(self, rect: Rect, table: Table, path: str) -> bool:
        tol = float(self.defaults["placement"]["tolerance"])
        x0, y0, x1, y1 = rect
        if x0 < -tol or y0 < -tol or x1 > table.width + tol or y1 > table.height + tol:
            self.problems.add(
                f"rectangle {list(rect)} extends off the {table.width:g} x {table.height:g} table "
                f"(allowed: 0 <= x <= {table.width:g}, 0 <= y <= {table.height:g})",
                path,
            )
            return False
        return True

    def _deployment(self, data: Any, table: Table | None) -> dict[str, tuple[Rect, ...]] | None:
        if data is None:
            return None
        if not isinstance(data, dict):
            self.problems.add(f"expected a table of sides, got {show(data)}", "deployment")
            return None
        before = self.problems.count()
        check_keys(data, SIDES, "deployment", self.problems)
        zones: dict[str, tuple[Rect, ...]] = {}
        for side in SIDES:
            path = join_path("deployment", side)
            rects = data.get(side)
            if not isinstance(rects, list) or not rects:
                self.problems.add(
                    f"expected a non-empty list of rectangles [[x0, y0, x1, y1], ...], got {show(rects)}",
                    path,
                )
                continue
            if len(rects) > MAX_ZONES:
                self.problems.add(
                    f"{len(rects)} rectangles; at most {MAX_ZONES} allowed "
                    "(scenario.max_zones in riven_env/data/limits.toml)",
                    path,
                )
                continue
            parsed: list[Rect] = []
            for index, raw in enumerate(rects):
                ok, rect, reason = convert(raw, _RECT)
                if not ok:
                    self.problems.add(
                        f"bad rectangle {show(raw)}; {reason}", join_path(path, index)
                    )
                elif table is None or self._rect_on_table(rect, table, join_path(path, index)):
                    parsed.append(rect)
            zones[side] = tuple(parsed)
        return zones if self.problems.count() == before else None

    def _objectives(self, data: Any, table: Table | None) -> tuple[Objective, ...] | None:
        if data is None:
            return None
        before = self.problems.count()
        defaults = self.defaults["objectives"]
        objectives: list[Objective] = []
        seen: dict[str, str] = {}
        for index, raw in enumerate(data):
            path = join_path("objectives", index)
            values, ok = read_section(raw, OBJECTIVE_FIELDS, path, self.problems)
            if not ok:
                continue
            name = values["name"]
            if name in seen:
                self.problems.add(
                    f"duplicate objective name {name!r} (also {seen[name]})",
                    join_path(path, "name"),
                )
                continue
            seen[name] = path
            if table is not None and not self._objective_on_table(values, table, path):
                continue
            radius = values["radius"]
            objectives.append(
                Objective(
                    name=name,
                    x=values["x"],
                    y=values["y"],
                    radius=float(self.rules.get("distances.objective_radius"))
                    if radius is None
                    else radius,
                    kind=values["kind"] or defaults["kind"],
                    points=defaults["points"] if values["points"] is None else values["points"],
                )
            )
        return tuple(objectives) if self.problems.count() == before else None

    def _objective_on_table(self, values: Mapping[str, Any], table: Table, path: str) -> bool:
        x, y = values["x"], values["y"]
        if not (0.0 <= x <= table.width and 0.0 <= y <= table.height):
            self.problems.add(
                f"objective {values['name']!r} at ({x:g}, {y:g}) is off the {table.width:g} x "
                f"{table.height:g} table (allowed: 0 <= x <= {table.width:g}, 0 <= y <= {table.height:g})",
                path,
            )
            return False
        point = shapely.Point(x, y)
        for piece in table.pieces:
            if piece.impassable and piece.polygon.covers(point):
                self.problems.add(
                    f"objective {values['name']!r} at ({x:g}, {y:g}) lies inside impassable "
                    f"terrain {piece.name!r}; models could never reach it",
                    path,
                )
                return False
        return True

    def _oracle(self, name: str, path: str) -> bool:
        allowed = oracle_profile_names()
        if name not in allowed:
            self.problems.add(
                f"unknown Enemy Oracle profile {name!r}; allowed: {', '.join(allowed)}", path
            )
            return False
        return True

    def _sides(
        self, data: Any, library: ProfileLibrary | None, table: Table | None
    ) -> dict[str, SideSpec] | None:
        if data is None:
            return None
        if not isinstance(data, dict):
            self.problems.add(
                f"expected a table with [sides.blue] and [sides.red], got {show(data)}", "sides"
            )
            return None
        before = self.problems.count()
        check_keys(data, SIDES, "sides", self.problems)
        sides: dict[str, SideSpec] = {}
        ids = self._model_paths
        for side in SIDES:
            path = join_path("sides", side)
            if side not in data:
                self.problems.add(f"required side [{path}] is missing", path)
                continue
            values, ok = read_section(data[side], SIDE_FIELDS, path, self.problems)
            if not ok:
                continue
            oracle = values["oracle"] or self.defaults["sides"]["oracle"]
            self._oracle(oracle, join_path(path, "oracle"))
            models = self._models(side, values["models"], library, ids)
            if not values["models"]:
                self.problems.add("a side needs at least one model", join_path(path, "models"))
            sides[side] = SideSpec(key=side, name=values["name"], oracle=oracle, models=models)
        if self.problems.count() != before:
            return None
        if table is not None:
            self._check_fixed_positions(sides, table)
        return sides if self.problems.count() == before else None

    def _models(
        self,
        side: str,
        entries: list[dict[str, Any]],
        library: ProfileLibrary | None,
        ids: dict[str, str],
    ) -> tuple[ModelEntry, ...]:
        models: list[ModelEntry] = []
        for index, raw in enumerate(entries):
            path = join_path(join_path(join_path("sides", side), "models"), index)
            values, ok = read_section(raw, MODEL_FIELDS, path, self.problems)
            if not ok:
                continue
            if values["oracle"] is not None:
                self._oracle(values["oracle"], join_path(path, "oracle"))
            if values["position"] is not None and values["count"] > 1:
                self.problems.add(
                    f"a position places one model but count = {values['count']}; "
                    "give each model its own entry, or drop the position",
                    join_path(path, "position"),
                )
                continue
            if len(models) + values["count"] > MAX_MODELS_PER_SIDE:
                self.problems.add(
                    f"side {side!r} would field {len(models) + values['count']} models; at most "
                    f"{MAX_MODELS_PER_SIDE} per side allowed (scenario.max_models_per_side in "
                    "riven_env/data/limits.toml)",
                    join_path(path, "count"),
                )
                break
            if library is None:
                continue
            profile = library.profiles.get(values["profile"])
            if profile is None and values["profile"] in self._inline_profiles:
                continue  # defined in this file but invalid: already reported there
            if profile is None:
                self.problems.add(
                    f"unknown profile {values['profile']!r}; known profiles: "
                    f"{', '.join(sorted(library.profiles))}",
                    join_path(path, "profile"),
                )
                continue
            for number in range(values["count"]):
                if values["id"] is None:
                    model_id = f"{side}-{len(models) + 1}"
                elif values["count"] > 1:
                    model_id = f"{values['id']}-{number + 1}"
                else:
                    model_id = values["id"]
                if model_id in ids:
                    self.problems.add(
                        f"duplicate model id {model_id!r} (also {ids[model_id]}); ids must be unique",
                        join_path(path, "id"),
                    )
                    continue
                ids[model_id] = path
                models.append(
                    ModelEntry(
                        id=model_id,
                        side=side,
                        profile=profile,
                        position=values["position"],  # filled by placement when None
                        oracle=values["oracle"],
                    )
                )
        return tuple(models)

    def _check_fixed_positions(self, sides: Mapping[str, SideSpec], table: Table) -> None:
        fixed = [
            entry for side in sides.values() for entry in side.models if entry.position is not None
        ]
        tol = float(self.defaults["placement"]["tolerance"])
        for number, entry in enumerate(fixed):
            path = join_path(self._model_paths[entry.id], "position")
            radius = entry.profile.base_diameter / 2
            if off_table(table, entry.position, radius):
                self.problems.add(
                    f'model {entry.id!r} at {list(entry.position)} (base {entry.profile.base_diameter:g}") '
                    f"is not wholly on the {table.width:g} x {table.height:g} table",
                    path,
                )
                continue
            piece = impassable_overlap(table, entry.position, radius)
            if piece is not None:
                self.problems.add(
                    f"model {entry.id!r} at {list(entry.position)} overlaps impassable terrain {piece!r}",
                    path,
                )
            for other in fixed[:number]:
                gap = (
                    float(
                        shapely.distance(
                            shapely.Point(entry.position), shapely.Point(other.position)
                        )
                    )
                    - radius
                    - other.profile.base_diameter / 2
                )
                if gap < -tol:
                    self.problems.add(
                        f"model {entry.id!r} at {list(entry.position)} overlaps model {other.id!r} "
                        f"at {list(other.position)}; bases may touch but not overlap",
                        path,
                    )

    def _check_mode(self, header: Mapping[str, Any], sides: Mapping[str, SideSpec]) -> None:
        if header["mode"] != "solo_hero":
            return
        solo = [
            side
            for side in sides.values()
            if len(side.models) == 1 and HERO_KEYWORD in side.models[0].profile.keywords
        ]
        if len(solo) != 1:
            self.problems.add(
                "mode 'solo_hero' needs exactly one side fielding a single model with the "
                f"'{HERO_KEYWORD}' keyword; sides have "
                + ", ".join(f"{s.key}: {len(s.models)} model(s)" for s in sides.values()),
                "scenario.mode",
            )

    def _victory(
        self, data: Any, sides: Mapping[str, SideSpec] | None, table: Table | None
    ) -> VictorySpec | None:
        if data is None:
            return None
        values, ok = read_section(data, VICTORY_FIELDS, "victory", self.problems)
        if not ok:
            return None
        if not values["conditions"]:
            self.problems.add(
                f"at least one victory condition is needed; types: {', '.join(VICTORY_TYPES)}",
                "victory.conditions",
            )
            return None
        before = self.problems.count()
        conditions = [
            self._condition(raw, join_path("victory.conditions", index), sides, table)
            for index, raw in enumerate(values["conditions"])
        ]
        if self.problems.count() != before:
            return None
        return VictorySpec(
            at_round_limit=values["at_round_limit"],
            conditions=tuple(c for c in conditions if c is not None),
        )

    def _condition(
        self,
        raw: Mapping[str, Any],
        path: str,
        sides: Mapping[str, SideSpec] | None,
        table: Table | None,
    ) -> VictoryCondition | None:
        kind = raw.get("type")
        if not isinstance(kind, str) or kind not in VICTORY_CONDITION_FIELDS:
            self.problems.add(
                f"bad condition type {show(kind)}; allowed: {', '.join(VICTORY_TYPES)}",
                join_path(path, "type"),
            )
            return None
        specs = {"type": FieldSpec("str", required=True), **VICTORY_CONDITION_FIELDS[kind]}
        values, ok = read_section(raw, specs, path, self.problems)
        if not ok:
            return None
        values.pop("type")
        if values.get("zone") is not None and table is not None:
            self._rect_on_table(values["zone"], table, join_path(path, "zone"))
        if values.get("models") and sides is not None:
            side = values["side"]
            own = {entry.id for entry in sides[side].models} if side in sides else set()
            for model_id in values["models"]:
                if model_id not in own:
                    self.problems.add(
                        f"model {model_id!r} is not a model of side {side!r}; its models: "
                        f"{', '.join(sorted(own)) or 'none'}",
                        join_path(path, "models"),
                    )
            if not values["models"]:
                self.problems.add("name at least one model", join_path(path, "models"))
        return VictoryCondition(type=kind, **values)

    # -- placement ------------------------------------------------------------------------

    def _place(
        self,
        table: Table,
        deployment: Mapping[str, tuple[Rect, ...]],
        sides: Mapping[str, SideSpec],
    ) -> dict[str, SideSpec] | None:
        entries = [entry for key in SIDES for entry in sides[key].models]
        slots = [
            PlacementSlot(entry.id, entry.side, entry.profile.base_diameter / 2, entry.position)
            for entry in entries
        ]
        try:
            positions = place_models(table, deployment, slots)
        except ScenarioError as exc:
            message = str(exc)
            if exc.field and message.startswith(f"{exc.field}: "):
                message = message[len(exc.field) + 2 :]
            self.problems.add(message, exc.field)
            return None
        placed: dict[str, list[ModelEntry]] = {key: [] for key in SIDES}
        for entry, position in zip(entries, positions, strict=True):
            placed[entry.side].append(_with_position(entry, position))
        return {
            key: SideSpec(sides[key].key, sides[key].name, sides[key].oracle, tuple(placed[key]))
            for key in SIDES
        }


def _with_position(entry: ModelEntry, position: Point) -> ModelEntry:
    return ModelEntry(entry.id, entry.side, entry.profile, position, entry.oracle)


__all__ = ["ENGINE_SLIPS", "ScenarioReader"]
