"""The ``[balance]`` table of a scenario: the intended balance and the knobs a tuner may turn.

A mission declares what balance it is meant to have and, optionally, which values of its
own file (or of the profiles it uses) ``riven balance`` may change to reach it::

    [balance]
    mode = "symmetric"            # or "target": side + win_rate
    draw_rate = 0.05              # optional target draw rate
    rounds = 6.0                  # optional target mean game length (rounds)

    [[balance.knobs]]
    path = "sides.red.models[1].profile"
    values = ["brute", "veteran"]

    [[balance.knobs]]
    path = "profiles.captain.wounds"
    range = [1, 3]

**Win rate** here is a side's share of the *decisive* games (games with a winner): a draw
(or a game cut short) counts for neither side and enters only the draw rate. In a symmetric
mission each side's share is meant to be 50%; in a ``target`` mission ``side`` is meant to
win ``win_rate`` of the decisive games. The defaults of the tolerances live in
``riven_env/scenario/data/defaults.toml`` (``[balance]``); ``docs/balance.md`` explains them.

A mission may also (or instead, ``mode = "matrix"``) declare a **target matrix**: win rates
between agents of different strength, as in TAG's game-balancing competition. Each
``[[balance.matrix]]`` cell puts agent ``row`` on the roster the file gives ``side`` (blue by
default) against agent ``column`` on the other roster, played with the same seat swap as
the mirror, and declares the row agent's share of the decisive games::

    [[balance.matrix]]
    row = "oracle"                # agent specs as `riven playtest --blue` takes them
    column = "random"
    win_rate = 0.9
    tolerance = 0.05              # optional: the table's tolerance / interval by default

This module is pure (no optimiser, no playtest): the scenario reader validates the table
with :func:`read_balance`, and ``riven_env.balance`` applies knob values with
:func:`resolve_path`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from riven_env.files import limit
from riven_env.scenario.checks import (
    FieldSpec,
    Problems,
    check_keys,
    is_number,
    join_path,
    read_section,
    show,
)
from riven_env.scenario.defaults import loader_defaults

BALANCE_MODES = ("symmetric", "target", "matrix")
#: The agent of both sides of the Oracle mirror: each side's own Oracle profile.
MIRROR_AGENT = "oracle"
SIDES = ("blue", "red")

#: One segment of a knob path: a key, then any list indices (``models[2]``).
_SEGMENT = re.compile(r"(?P<key>[A-Za-z_][A-Za-z0-9_-]*)(?P<index>(\[\d+\])*)")


def _defaults() -> dict[str, Any]:
    return dict(loader_defaults()["balance"])


BALANCE_FIELDS: dict[str, FieldSpec] = {
    "mode": FieldSpec("str", required=True, choices=BALANCE_MODES),
    "side": FieldSpec("str", choices=SIDES),
    "win_rate": FieldSpec("number", minimum=0.01, maximum=0.99),
    "draw_rate": FieldSpec("number", minimum=0.0, maximum=0.99),
    "rounds": FieldSpec("number", minimum=1.0),
    "tolerance": FieldSpec("number", minimum=0.005, maximum=0.5),
    "interval": FieldSpec("number", minimum=0.005, maximum=0.5),
    "note": FieldSpec("str", default=""),
    "knobs": FieldSpec(
        "tables",
        default=[],
        max_items=int(limit("balance.max_knobs")),
        limit_key="balance.max_knobs",
    ),
    "matrix": FieldSpec(
        "tables",
        default=[],
        max_items=int(limit("balance.max_cells")),
        limit_key="balance.max_cells",
    ),
}

#: Keys of one ``[[balance.matrix]]`` cell.
CELL_FIELDS: dict[str, FieldSpec] = {
    "row": FieldSpec("str", required=True, pattern=r"\S.*", pattern_words="an agent spec"),
    "column": FieldSpec("str", required=True, pattern=r"\S.*", pattern_words="an agent spec"),
    "win_rate": FieldSpec("number", required=True, minimum=0.01, maximum=0.99),
    "side": FieldSpec("str", choices=SIDES),
    "tolerance": FieldSpec("number", minimum=0.005, maximum=0.5),
    "interval": FieldSpec("number", minimum=0.005, maximum=0.5),
    "name": FieldSpec("str"),
}

KNOB_FIELDS: dict[str, FieldSpec] = {
    "path": FieldSpec("str", required=True),
    "name": FieldSpec("str"),
    "step": FieldSpec("number", minimum=0.0),
}
#: Every key of a ``[[balance.knobs]]`` entry; ``range`` and ``values`` are checked by hand.
KNOB_KEYS = ("path", "name", "range", "values", "step")


@dataclass(frozen=True)
class Knob:
    """One value ``riven balance`` may change.

    Attributes:
        path: Where the value lives: dotted keys with list indices, into the scenario
            document (``sides.red.models[1].count``, ``objectives[0].points``,
            ``deployment.blue[0][3]``, ``scenario.rounds``) or ``profiles.NAME.FIELD``
            (a library profile is copied into the file's ``[profiles]`` when changed).
        name: Short label for reports (default: the path).
        low: Lower end of a ``range`` (``None`` for a list of values).
        high: Upper end of a ``range``.
        step: Grid step of a range (integers: 1; floats: ``None`` = continuous).
        values: The allowed values of a list knob (``None`` for a range).
        integer: A range of whole numbers.
    """

    path: str
    name: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    values: tuple[Any, ...] | None = None
    integer: bool = False

    def grid(self) -> list[Any]:
        """Every value a grid search would try (a continuous range: ``grid_points`` of it).

        Returns:
            The list's values, or the range's grid from ``low`` to ``high``.
        """
        if self.values is not None:
            return list(self.values)
        low, high = float(self.low or 0), float(self.high or 0)  # a range sets both
        if self.integer:
            step = int(self.step or 1)
            return list(range(int(low), int(high) + 1, step))
        if self.step:
            count = int(round((high - low) / self.step))
            return [round(low + i * self.step, 10) for i in range(count + 1)]
        points = int(_defaults()["grid_points"])
        return [low + (high - low) * i / (points - 1) for i in range(points)]

    def describe(self) -> str:
        """``sides.red.models[1].count in 1..3`` / ``... in a, b`` for listings."""
        if self.values is not None:
            return f"{self.name} in {', '.join(str(v) for v in self.values)}"
        low, high = (int(self.low), int(self.high)) if self.integer else (self.low, self.high)
        return f"{self.name} in {low}..{high}"


@dataclass(frozen=True)
class MatrixCell:
    """One declared win rate between two agents (a cell of the target matrix).

    The Oracle mirror of a ``symmetric`` or ``target`` declaration is a cell too (``oracle``
    against ``oracle``, :meth:`BalanceSpec.cells`), so the check and the search treat every
    declared rate alike. ``distance``, ``verdict`` and ``clearly_off``
    (``riven_env.balance.objective``) read ``win_rate``, ``tolerance``, ``interval``,
    ``draw_rate`` and ``rounds`` of a cell as of a spec.

    Attributes:
        row: Agent spec of the measured agent (``oracle``: each side's own Oracle profile).
        column: Agent spec of its opponent.
        side: The roster the row agent plays: the one the file puts on this colour (in the
            swapped arm that roster, and the row agent with it, plays the other colour).
        win_rate: The row agent's intended share of the decisive games.
        tolerance: The estimate must lie within ``win_rate`` +/- this.
        interval: Its 95% interval must lie inside ``win_rate`` +/- this.
        draw_rate: Intended draw rate (the mirror only; ``None``: not declared).
        rounds: Intended mean length (the mirror only; ``None``: not declared).
        name: Label in reports (default ``ROW vs COLUMN``).
    """

    row: str
    column: str
    side: str
    win_rate: float
    tolerance: float
    interval: float
    draw_rate: float | None = None
    rounds: float | None = None
    name: str = ""

    @property
    def label(self) -> str:
        """``name``, or ``ROW vs COLUMN`` (``... (red roster)`` when the row plays red's)."""
        if self.name:
            return self.name
        text = f"{self.row} vs {self.column}"
        return text if self.side == "blue" else f"{text} ({self.side} roster)"

    @property
    def is_mirror(self) -> bool:
        """Whether this is the Oracle mirror (both sides the mission's own Oracle)."""
        return self.row == MIRROR_AGENT and self.column == MIRROR_AGENT

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``--json`` outputs)."""
        return {
            "name": self.label,
            "row": self.row,
            "column": self.column,
            "side": self.side,
            "win_rate": self.win_rate,
            "tolerance": self.tolerance,
            "interval": self.interval,
            "draw_rate": self.draw_rate,
            "rounds": self.rounds,
        }


@dataclass(frozen=True)
class BalanceSpec:
    """The declared balance of a mission.

    Attributes:
        mode: ``symmetric`` (each side wins half the decisive games), ``target`` or
            ``matrix`` (only the target matrix is declared, no Oracle mirror target).
        side: The side whose share is declared (``blue`` for a symmetric or matrix mission).
        win_rate: Its intended share of the decisive games (a matrix mission: its first
            cell's).
        draw_rate: Intended draw rate (``None``: not declared).
        rounds: Intended mean game length in rounds (``None``: not declared).
        tolerance: The estimate must lie within ``win_rate`` +/- this.
        interval: Its 95% interval must lie inside ``win_rate`` +/- this.
        note: Free text shown with the balance.
        knobs: What ``riven balance`` may change.
        matrix: The declared target matrix (``[[balance.matrix]]``), in file order.
    """

    mode: str
    side: str
    win_rate: float
    draw_rate: float | None
    rounds: float | None
    tolerance: float
    interval: float
    note: str = ""
    knobs: tuple[Knob, ...] = ()
    matrix: tuple[MatrixCell, ...] = ()

    def cells(self) -> tuple[MatrixCell, ...]:
        """Every declared rate: the Oracle mirror first (unless ``mode = "matrix"``), then the
        matrix cells in file order."""
        if self.mode == "matrix":
            return self.matrix
        mirror = MatrixCell(
            row=MIRROR_AGENT, column=MIRROR_AGENT, side=self.side, win_rate=self.win_rate,
            tolerance=self.tolerance, interval=self.interval, draw_rate=self.draw_rate,
            rounds=self.rounds, name="Oracle mirror",
        )  # fmt: skip
        return (mirror, *self.matrix)

    def describe(self) -> str:
        """``symmetric: each side 50%`` / ``red wins 35%`` plus the optional targets."""
        return describe_balance_table(
            {"mode": self.mode, "side": self.side, "win_rate": self.win_rate,
             "draw_rate": self.draw_rate, "rounds": self.rounds,
             "matrix": [{"row": c.row, "column": c.column, "win_rate": c.win_rate}
                        for c in self.matrix]}
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``--json`` outputs)."""
        return {
            "mode": self.mode,
            "side": self.side,
            "win_rate": self.win_rate,
            "draw_rate": self.draw_rate,
            "rounds": self.rounds,
            "tolerance": self.tolerance,
            "interval": self.interval,
            "note": self.note,
            "knobs": [k.describe() for k in self.knobs],
            "matrix": [c.to_dict() for c in self.matrix],
        }


def describe_balance_table(table: Any) -> str:
    """The declared balance in words from a raw ``[balance]`` table, without validating it
    (for listings: ``symmetric: each side 50%``, ``red wins 35%``; ``-`` when none)."""
    if not isinstance(table, dict):
        return "-"
    mode = table.get("mode")
    cells = table.get("matrix") if isinstance(table.get("matrix"), list) else []
    if mode == "symmetric":
        text = "symmetric: each side 50%"
    elif mode == "target" and is_number(table.get("win_rate")):
        text = f"{table.get('side', '?')} wins {table['win_rate'] * 100:.0f}%"
    elif mode == "matrix":
        text = ""
    else:
        return f"<invalid [balance]: mode {mode!r}>"
    if is_number(table.get("draw_rate")):
        text += f", draws {table['draw_rate'] * 100:.0f}%"
    if is_number(table.get("rounds")):
        text += f", {table['rounds']:g} rounds"
    if cells:
        shown = [
            f"{c.get('row', '?')} vs {c.get('column', '?')} {c['win_rate'] * 100:.0f}%"
            if isinstance(c, dict) and is_number(c.get("win_rate"))
            else "?"
            for c in cells
        ]
        text = (text + "; " if text else "") + "matrix: " + ", ".join(shown)
    return text or "matrix: no cells"


def parse_path(path: str) -> list[str | int] | None:
    """Split ``sides.red.models[1].count`` into ``["sides", "red", "models", 1, "count"]``.

    Returns:
        The keys and indices, or ``None`` when the text is not a path.
    """
    parts: list[str | int] = []
    for segment in path.split("."):
        match = _SEGMENT.fullmatch(segment)
        if match is None:
            return None
        parts.append(match["key"])
        parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", match["index"]))
    return parts


def resolve_path(doc: Any, parts: Sequence[str | int]) -> tuple[bool, Any, str]:
    """Follow a parsed path through a document.

    Returns:
        ``(found, value, reason)``: the value when found, otherwise where it stopped.
    """
    node = doc
    walked = ""
    for part in parts:
        if isinstance(part, int):
            if not isinstance(node, list) or part >= len(node):
                size = len(node) if isinstance(node, list) else 0
                return False, None, f"{walked or 'the file'} has no entry [{part}] ({size} entries)"
            node = node[part]
        else:
            if not isinstance(node, Mapping) or part not in node:
                keys = ", ".join(map(str, node)) if isinstance(node, Mapping) else "none"
                return False, None, f"{walked or 'the file'} has no key {part!r} (keys: {keys})"
            node = node[part]
        walked = join_path(walked, part)
    return True, node, ""


def _scalar(value: Any) -> bool:
    return isinstance(value, str | bool) or is_number(value)


def _read_knob(
    data: Mapping[str, Any],
    where: str,
    doc: Mapping[str, Any],
    library: Mapping[str, Any],
    problems: Problems,
) -> Knob | None:
    check_keys(data, KNOB_KEYS, where, problems)
    plain = {k: v for k, v in data.items() if k in KNOB_FIELDS}
    values, _ = read_section(plain, KNOB_FIELDS, where, problems)
    path = values.get("path")
    if path is None:
        return None
    parts = parse_path(path)
    if parts is None:
        problems.add(
            f"bad value {show(path)}; expected dotted keys with list indices, e.g. "
            "'sides.red.models[1].count' or 'profiles.captain.wounds'",
            join_path(where, "path"),
        )
        return None
    found, current, reason = resolve_path(doc, parts)
    if not found and len(parts) == 3 and parts[0] == "profiles":
        # A library profile the mission uses may be tuned: it is copied into the file.
        found, current, reason = resolve_path({"profiles": library}, parts)
    if not found and isinstance(parts[-1], str):
        # A key a table may leave out (a model's count) may be a knob: the tuner adds it.
        parent_found, parent, _ = resolve_path(doc, parts[:-1])
        if parent_found and isinstance(parent, Mapping):
            found, current = True, None
    if not found:
        problems.add(f"path {path!r} not found: {reason}", join_path(where, "path"))
        return None
    if current is not None and not _scalar(current):
        problems.add(
            f"path {path!r} holds {show(current)}; a knob must point at one number, string "
            "or boolean",
            join_path(where, "path"),
        )
        return None
    has_range, has_values = "range" in data, "values" in data
    if has_range == has_values:
        problems.add(
            "give exactly one of 'range' ([low, high]) or 'values' (a list)",
            where,
        )
        return None
    name = values.get("name") or path
    step = values.get("step")
    if has_values:
        options = data["values"]
        if (
            not isinstance(options, list)
            or not options
            or not all(_scalar(v) for v in options)
            or len({repr(v) for v in options}) != len(options)
        ):
            problems.add(
                f"bad value {show(options)}; expected a non-empty list of distinct numbers, "
                "strings or booleans",
                join_path(where, "values"),
            )
            return None
        if step is not None:
            problems.add("'step' goes with 'range', not 'values'", join_path(where, "step"))
            return None
        return Knob(path=path, name=name, values=tuple(options))
    bounds = data["range"]
    if (
        not isinstance(bounds, list)
        or len(bounds) != 2
        or not all(is_number(b) for b in bounds)
        or not bounds[0] < bounds[1]
    ):
        problems.add(
            f"bad value {show(bounds)}; expected [low, high], two numbers with low < high",
            join_path(where, "range"),
        )
        return None
    if current is not None and not is_number(current):
        problems.add(
            f"path {path!r} holds {show(current)}, not a number; a 'range' needs a number "
            "(use 'values' for a choice of strings)",
            join_path(where, "path"),
        )
        return None
    integer = all(isinstance(b, int) for b in bounds) and isinstance(current, int | None)
    if integer and step is not None and (step < 1 or step != int(step)):
        problems.add(
            f"bad value {show(step)}; a whole-number range needs a whole step of 1 or more",
            join_path(where, "step"),
        )
        return None
    return Knob(
        path=path,
        name=name,
        low=bounds[0],
        high=bounds[1],
        step=step,
        integer=integer,
    )


def read_balance(
    data: Any,
    doc: Mapping[str, Any],
    library: Mapping[str, Any],
    problems: Problems,
) -> BalanceSpec | None:
    """Validate a ``[balance]`` table.

    Args:
        data: The table as read from the file.
        doc: The whole scenario document (knob paths must resolve in it).
        library: The raw ``[profiles]`` of the profile library (``profiles.NAME.FIELD``
            knobs may name a library profile).
        problems: Where every problem is recorded (field paths ``balance.knobs[1].range``).

    Returns:
        The spec, or ``None`` when the table is invalid.
    """
    before = problems.count()
    values, _ = read_section(data, BALANCE_FIELDS, "balance", problems)
    if not isinstance(data, dict):
        return None
    defaults = _defaults()
    mode = values.get("mode")
    side, win_rate = values.get("side"), values.get("win_rate")
    if mode == "symmetric":
        for key in ("side", "win_rate"):
            if data.get(key) is not None:
                problems.add(
                    f"{key!r} is not allowed with mode = 'symmetric' (each side 50%); use "
                    "mode = 'target' to declare one side's win rate",
                    join_path("balance", key),
                )
        side, win_rate = "blue", 0.5
    elif mode == "matrix":
        for key in ("side", "win_rate", "draw_rate", "rounds"):
            if data.get(key) is not None:
                problems.add(
                    f"{key!r} is not allowed with mode = 'matrix' (only the cells of "
                    "[[balance.matrix]] are declared); use mode = 'symmetric' or 'target' "
                    "with [[balance.matrix]] cells to declare the Oracle mirror as well",
                    join_path("balance", key),
                )
        if not values.get("matrix"):
            problems.add(
                "mode = 'matrix' needs at least one [[balance.matrix]] cell (row, column, "
                "win_rate)",
                "balance.matrix",
            )
        side, win_rate = "blue", 0.5
    elif mode == "target":
        for key in ("side", "win_rate"):
            if key not in data:
                problems.add(
                    f"required key {key!r} is missing (mode = 'target' declares which side "
                    "wins how often: side = 'blue' or 'red', win_rate between 0.01 and 0.99)",
                    join_path("balance", key),
                )
    rounds = values.get("rounds")
    limit_rounds = doc.get("scenario", {}).get("rounds") if isinstance(doc, dict) else None
    if rounds is not None and is_number(limit_rounds) and rounds > limit_rounds:
        problems.add(
            f"bad value {show(rounds)}; the target length must be at most the round limit "
            f"scenario.rounds = {limit_rounds}",
            "balance.rounds",
        )
    tolerance = values.get("tolerance") or float(defaults["tolerance"])
    interval = values.get("interval") or float(defaults["interval"])
    if interval < tolerance:
        problems.add(
            f"bad value {show(interval)}; the interval bound must be at least the tolerance "
            f"({tolerance:g})",
            "balance.interval",
        )
    knobs: list[Knob] = []
    seen: set[str] = set()
    for index, entry in enumerate(values.get("knobs") or []):
        where = f"balance.knobs[{index}]"
        knob = _read_knob(entry, where, doc, library, problems)
        if knob is None:
            continue
        if knob.path in seen:
            problems.add(f"path {knob.path!r} is already a knob", join_path(where, "path"))
            continue
        seen.add(knob.path)
        knobs.append(knob)
    cells = _read_cells(values.get("matrix") or [], mode, side, tolerance, interval, problems)
    if problems.count() != before:
        return None
    if mode == "matrix" and cells:
        side, win_rate = cells[0].side, cells[0].win_rate
    return BalanceSpec(
        mode=str(mode),
        side=str(side),
        win_rate=float(win_rate),  # type: ignore[arg-type]
        draw_rate=values.get("draw_rate"),
        rounds=rounds,
        tolerance=tolerance,
        interval=interval,
        note=values.get("note") or "",
        knobs=tuple(knobs),
        matrix=tuple(cells),
    )


def _read_cells(
    entries: Sequence[Any],
    mode: Any,
    mirror_side: Any,
    tolerance: float,
    interval: float,
    problems: Problems,
) -> list[MatrixCell]:
    """Validate the ``[[balance.matrix]]`` cells (field paths ``balance.matrix[1].row``).

    Agent specs are checked for their form here (a non-empty string); whether an agent of
    that name exists is the balance tool's check (``riven_env.balance.objective``), since
    the scenario reader does not load agents.
    """
    cells: list[MatrixCell] = []
    seen: dict[tuple[str, str, str], int] = {}
    if mode in ("symmetric", "target") and isinstance(mirror_side, str):
        seen[(MIRROR_AGENT, MIRROR_AGENT, mirror_side)] = -1
    for index, entry in enumerate(entries):
        where = f"balance.matrix[{index}]"
        values, _ = read_section(entry, CELL_FIELDS, where, problems)
        if not {"row", "column", "win_rate"} <= set(values):
            continue
        cell_tol = values.get("tolerance") or tolerance
        cell_int = values.get("interval") or interval
        if cell_int < cell_tol:
            problems.add(
                f"bad value {show(cell_int)}; the interval bound must be at least the "
                f"tolerance ({cell_tol:g})",
                join_path(where, "interval"),
            )
            continue
        cell = MatrixCell(
            row=values["row"].strip(), column=values["column"].strip(),
            side=values.get("side") or "blue", win_rate=values["win_rate"],
            tolerance=cell_tol, interval=cell_int, name=values.get("name") or "",
        )  # fmt: skip
        key = (cell.row, cell.column, cell.side)
        if key in seen:
            other = (
                "the Oracle mirror of this [balance]"
                if seen[key] < 0
                else (f"balance.matrix[{seen[key]}]")
            )
            problems.add(
                f"cell {cell.row!r} vs {cell.column!r} on the {cell.side} roster is declared "
                f"twice (also {other}); allowed: one win rate per row agent, column agent and "
                "roster",
                where,
            )
            continue
        seen[key] = index
        cells.append(cell)
    return cells


__all__ = [
    "BALANCE_FIELDS",
    "BALANCE_MODES",
    "KNOB_FIELDS",
    "KNOB_KEYS",
    "CELL_FIELDS",
    "MIRROR_AGENT",
    "BalanceSpec",
    "MatrixCell",
    "Knob",
    "describe_balance_table",
    "parse_path",
    "read_balance",
    "resolve_path",
]
