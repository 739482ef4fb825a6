"""Rosters (one side's warband) and scenarios derived by placing rosters on the colours.

A **roster file** holds one side in the scenario's side schema (``docs/scenario-schema.md``,
``[sides.<side>]``), under ``[roster]``, plus optional ``[profiles]`` / ``[weapons]`` of its
own (merged into the mission, the roster's entries winning)::

    schema_version = 1

    [roster]
    name = "Reaver Band"
    oracle = "aggressive"

    [[roster.models]]
    profile = "captain"
    id = "captain"

The **seat** (colour) keeps what the mission gives it: deployment zone, fixed first side and
objectives. A roster placed on a colour gets model ids ``<colour>-<id>`` (a leading
``blue-``/``red-`` is replaced), so the same roster can play both colours of one game.
Models with a fixed ``position`` belong to the seat, not the roster: such missions are
refused, as are victory conditions that name models when the rosters change
(``protect``, ``extract``).
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from riven_env.errors import did_you_mean
from riven_env.files import read_toml
from riven_env.playtest.errors import PlaytestError

SIDES = ("blue", "red")
ROSTER_KEYS = ("schema_version", "roster", "profiles", "weapons")
SIDE_KEYS = ("name", "oracle", "models")
# Derived scenario files are written here, below the results database's folder.
DERIVED_FOLDER = "derived"


def scenario_document(scenario: str | Path) -> dict[str, Any]:
    """The TOML document of a bundled scenario name or a scenario file."""
    from riven_env.scenario.loader import read_scenario_text, resolve_scenario

    path = resolve_scenario(scenario)
    return tomllib.loads(read_scenario_text(path))


def model_id(colour: str, old: str) -> str:
    """The id of model ``old`` once its roster plays ``colour``."""
    for side in SIDES:
        if old.startswith(f"{side}-"):
            old = old[len(side) + 1 :]
            break
    return f"{colour}-{old}"


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "roster"


def place_roster(side: Mapping[str, Any], colour: str, where: str) -> dict[str, Any]:
    """A copy of a side table for ``colour``: ids renamed, fixed positions refused.

    Raises:
        PlaytestError: A model has a fixed ``position`` (the message names it).
    """
    table = copy.deepcopy(dict(side))
    models = []
    for index, entry in enumerate(table.get("models", [])):
        entry = dict(entry)
        if "position" in entry:
            raise PlaytestError(
                f"{where}.models[{index}].position: a fixed position belongs to the seat, not "
                "the roster; swapping or replacing rosters needs models placed by deployment"
            )
        if "id" in entry:
            entry["id"] = model_id(colour, str(entry["id"]))
        models.append(entry)
    table["models"] = models
    return table


def roster_file(path: str | Path) -> Path:
    """The file a roster argument names: a path, or the name of a bundled roster
    (``wardens`` is ``scenarios/rosters/wardens.toml`` of the installed package)."""
    from riven_scenarios import ROSTERS_DIR

    file = Path(path)
    if file.exists() or len(file.parts) != 1 or file.suffix:
        return file
    bundled = ROSTERS_DIR / f"{file.name}.toml"
    if not bundled.is_file():
        names = bundled_rosters()
        raise PlaytestError(
            f"unknown roster {str(path)!r}{did_you_mean(str(path), names)} (not a file, nor a "
            f"bundled roster: {', '.join(names)})"
        )
    return bundled


def bundled_rosters() -> list[str]:
    """The names of the bundled rosters (``riven meta --rosters NAME ...``)."""
    from riven_scenarios import ROSTERS_DIR

    return sorted(p.stem for p in ROSTERS_DIR.glob("*.toml"))


def load_roster(path: str | Path) -> dict[str, Any]:
    """Read and check a roster file (keys only; the mission's validation does the rest).

    Returns:
        ``{"name", "side": side table, "profiles", "weapons", "path"}``.

    Args:
        path: A roster file, or the name of a bundled roster (:func:`bundled_rosters`).

    Raises:
        PlaytestError: Missing file, bad TOML, unknown keys or no ``[roster]``.
    """
    file = roster_file(path)
    doc = read_toml(file, what="roster file", error=PlaytestError)
    unknown = sorted(set(doc) - set(ROSTER_KEYS))
    if unknown:
        raise PlaytestError(
            f"roster file {file}: unknown key(s) {', '.join(unknown)}; allowed: "
            f"{', '.join(ROSTER_KEYS)}"
        )
    side = doc.get("roster")
    if not isinstance(side, dict):
        raise PlaytestError(f"roster file {file}: [roster] is missing (a side: name, models)")
    bad = sorted(set(side) - set(SIDE_KEYS))
    if bad:
        raise PlaytestError(
            f"roster file {file}: roster has unknown key(s) {', '.join(bad)}; allowed: "
            f"{', '.join(SIDE_KEYS)}"
        )
    if not side.get("models"):
        raise PlaytestError(f"roster file {file}: roster.models is empty; give at least one model")
    return {
        "name": str(side.get("name") or file.stem),
        "label": _slug(file.stem),
        "side": side,
        "profiles": doc.get("profiles", {}),
        "weapons": doc.get("weapons", {}),
        "path": str(file),
    }


def write_derived(doc: Mapping[str, Any], base: str, tag: str, folder: Path) -> Path:
    """Write a derived scenario document, named ``<base>-<tag>``, and return its path.

    The file name carries a hash of the content, so a changed roster never reuses a stale
    file, and the same inputs give the same path (runs can be resumed).
    """
    from riven_env.scenario.generator import to_toml

    doc = dict(doc)
    doc["scenario"] = {**doc["scenario"], "name": f"{_slug(base)}-{_slug(tag)}"}
    text = to_toml(doc)
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    folder.mkdir(parents=True, exist_ok=True)
    path = (folder / f"{doc['scenario']['name']}-{digest}.toml").resolve()
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path


def swapped_scenario(scenario: str | Path, folder: Path) -> Path:
    """The mission with the two rosters exchanged between the colours.

    Each colour keeps its deployment, objectives and fixed first side; the rosters (with their
    Oracle profiles) change colour. Victory conditions that belong to a side (``protect``,
    ``extract``, ``survive``) follow their roster: side swapped, model ids renamed.
    """
    doc = scenario_document(scenario)
    sides = doc.get("sides", {})
    if set(sides) != set(SIDES):
        raise PlaytestError(f"scenario {scenario}: sides must be blue and red to swap seats")
    new = copy.deepcopy(doc)
    new["sides"] = {
        "blue": place_roster(sides["red"], "blue", "sides.red"),
        "red": place_roster(sides["blue"], "red", "sides.blue"),
    }
    for condition in new.get("victory", {}).get("conditions", []):
        if condition.get("side") in SIDES:
            old = condition["side"]
            condition["side"] = SIDES[1 - SIDES.index(old)]
            if "models" in condition:
                condition["models"] = [model_id(condition["side"], m) for m in condition["models"]]
    drop_balance_knobs(new)
    return write_derived(new, str(doc["scenario"]["name"]), "swapped", folder)


def drop_balance_knobs(doc: dict[str, Any]) -> None:
    """Remove ``[[balance.knobs]]`` from a derived mission document (in place).

    The knobs point into the mission's own rosters as the file places them
    (``sides.red.models[3].count``); once rosters change colour or are replaced the paths
    name other models or none (a swapped ruins has three red entries, not four), and the
    loader would refuse the derived file. The declared target still stands; the knobs only
    matter to ``riven balance`` on the mission's own file.
    """
    balance = doc.get("balance")
    if isinstance(balance, dict):
        balance.pop("knobs", None)


def roster_scenario(
    scenario: str | Path, blue: Mapping[str, Any], red: Mapping[str, Any], folder: Path
) -> Path:
    """The mission with roster ``blue`` on blue and roster ``red`` on red (:func:`load_roster`).

    Raises:
        PlaytestError: A victory condition names models of the mission's own rosters.
    """
    doc = scenario_document(scenario)
    for index, condition in enumerate(doc.get("victory", {}).get("conditions", [])):
        if "models" in condition:
            raise PlaytestError(
                f"scenario {scenario}: victory.conditions[{index}] ({condition.get('type')}) "
                "names models of the mission's rosters; rosters cannot replace them"
            )
    new = copy.deepcopy(doc)
    new["sides"] = {
        "blue": place_roster(blue["side"], "blue", f"{blue['path']}: roster"),
        "red": place_roster(red["side"], "red", f"{red['path']}: roster"),
    }
    for key in ("profiles", "weapons"):
        merged = {**doc.get(key, {}), **blue.get(key, {}), **red.get(key, {})}
        if merged:
            new[key] = merged
    drop_balance_knobs(new)
    tag = f"{blue['label']}-vs-{red['label']}"
    return write_derived(new, str(doc["scenario"]["name"]), tag, folder)


def derived_folder(db_path: str | Path) -> Path:
    """Where derived scenarios of runs stored in ``db_path`` are written."""
    return Path(db_path).resolve().parent / DERIVED_FOLDER
