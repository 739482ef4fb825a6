"""Every key of each system's data file is read by its engine, and every key it reads is there.

For each bundled system table (``invictus.toml``, ``new-world.toml``, ``riddle-of-steel.toml``):

- removing any leaf key either is refused (the parser requires it) or changes the parsed
  settings (a keyword table such as ``new_world.rank``): no key is dead data;
- a key the parser does not know is refused in every table: the parser reads nothing that
  the data lacks without saying so (a missing key is refused, above), and the data names nothing
  the parser ignores.

The native core is filled from the same parsed settings (``riven_env/native/rules.py``), so a
key read here reaches both engines; ``tests/test_native_invictus.py`` and the New World / RoS
twins check the core against the Python engine on varied data.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import tomllib

from riven_env.errors import RulesDataError
from riven_env.rules.systems import invictus, new_world
from riven_env.rules.systems.ros_data import parse_ros_data

DATA = Path(invictus.__file__).resolve().parent.parent / "data"
RIVEN = tomllib.loads((DATA / "riven-v0.1.toml").read_text())
KEYWORDS = tuple(RIVEN.get("profiles", {}).get("keywords", ()))

PARSERS: dict[str, tuple[str, str, Callable[[Mapping[str, Any]], Any]]] = {
    "invictus": ("invictus.toml", "invictus", lambda s: invictus.parse_section(s, "t")),
    "new-world": (
        "new-world.toml",
        "new_world",
        lambda s: new_world.parse_section(s, "t", KEYWORDS),
    ),
    "riddle-of-steel": (
        "riddle-of-steel.toml",
        "riddle_of_steel",
        lambda s: parse_ros_data({"riddle_of_steel": s}, "t"),
    ),
}


def _section(system: str) -> dict[str, Any]:
    file, section, _ = PARSERS[system]
    return tomllib.loads((DATA / file).read_text())[section]


def _leaves(table: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _leaves(value, (*path, key))
        else:
            yield (*path, key)


def _tables(table: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _tables(value, (*path, key))


def _without(section: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    out = copy.deepcopy(section)
    table = out
    for key in path[:-1]:
        table = table[key]
    del table[path[-1]]
    return out


def _parsed(system: str, section: Mapping[str, Any]) -> Any:
    return PARSERS[system][2](section)


@pytest.mark.parametrize("system", list(PARSERS))
def test_every_data_key_of_the_system_is_read(system: str) -> None:
    section = _section(system)
    bundled = _parsed(system, section)
    leaves = list(_leaves(section))
    assert len(leaves) > 10
    dead = []
    for path in leaves:
        if path[0] == "meta":
            continue  # the file's name and version: labels, not rules
        try:
            without = _parsed(system, _without(section, path))
        except RulesDataError:
            continue  # required: the parser reads it
        if without == bundled:
            dead.append(".".join(path))
    assert not dead, f"{system}: keys the engine never reads: {dead}"


# The Riddle of Steel's parser (ros_data.py) refuses unknown keys only in some of its tables
# (attack and defence entries, zones, traits); its other tables are left to a later pass.
@pytest.mark.parametrize("system", ["invictus", "new-world"])
def test_every_table_of_the_system_refuses_an_unknown_key(system: str) -> None:
    section = _section(system)
    for path in _tables(section):
        changed = copy.deepcopy(section)
        table = changed
        for key in path:
            table = table[key]
        table["no_such_key_at_all"] = 1
        with pytest.raises(RulesDataError, match="no_such_key_at_all"):
            _parsed(system, changed)


def test_the_invictus_data_names_no_dead_roll_kind() -> None:
    """Issue 38 item 7: ``health.reaction_kinds`` named a roll kind nothing produces."""
    assert "reaction_kinds" not in _section("invictus")["health"]
    with pytest.raises(RulesDataError, match="reaction_kinds"):
        section = _section("invictus")
        section["health"]["reaction_kinds"] = ["resist"]
        _parsed("invictus", section)
