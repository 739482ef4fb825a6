"""A FAKE game for ``riven balance`` tests: the mission's rosters set the odds, fast.

It reads the mission file it is given (a bundled name is not supported; the tests pass files)
and plays ``playtest_fake_game``'s synthetic duel with blue's edge set by how much stronger
blue's roster is than red's: each model is worth its profile's weight in :data:`WEIGHTS`
times its wounds (a mission's own ``[profiles]`` entry overrides the library's wounds).
Seat swaps therefore behave as in the real game: the stronger roster wins more on either
colour. The agents matter too, for target-matrix tests: each agent kind has a skill in
:data:`SKILL`, and the difference of the two agents' skills is added to blue's edge (the
fake duel plays ``random``, ``greedy`` and ``oracle[:PROFILE]``). Same seed, same events.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import playtest_fake_game as fake
import tomllib

from riven_env.scenario.library import library_profiles_raw

#: Worth of one wound of each profile (others: 1.0).
WEIGHTS = {"captain": 1.2, "veteran": 1.1, "marksman": 1.6, "brute": 1.0, "skirmisher": 0.8}
#: Blue's edge per point of strength difference (the fake duel's blue_edge).
EDGE_PER_POINT = 0.4
EDGE_BOUNDS = (-0.3, 0.6)
#: Skill of each agent kind, added to (blue) or taken from (red) blue's edge.
SKILL = {"random": -0.25, "oracle": 0.0, "greedy": 0.1}


def strength(side: Mapping[str, Any], profiles: Mapping[str, Any]) -> float:
    """Worth of one side's roster."""
    library = library_profiles_raw()
    total = 0.0
    for entry in side["models"]:
        name = entry["profile"]
        wounds = profiles.get(name, library.get(name, {})).get("wounds", 1)
        total += entry.get("count", 1) * WEIGHTS.get(name, 1.0) * wounds
    return total


def play_game(
    scenario: str,
    blue: str,
    red: str,
    seed: int,
    *,
    overrides: Mapping[str, object] | None = None,
    max_decisions: int | None = None,
) -> list[dict[str, Any]]:
    """Play the fake duel with blue's edge from the two rosters; arguments as ``play_game``."""
    doc = tomllib.loads(Path(scenario).read_text(encoding="utf-8"))
    profiles = doc.get("profiles", {})
    diff = strength(doc["sides"]["blue"], profiles) - strength(doc["sides"]["red"], profiles)
    skill = SKILL[blue.split(":")[0]] - SKILL[red.split(":")[0]]
    edge = min(max(diff * EDGE_PER_POINT + skill, EDGE_BOUNDS[0]), EDGE_BOUNDS[1])
    return fake.play_game(
        fake.FAKE_SCENARIO, blue, red, seed, overrides={"blue_edge": edge},
        max_decisions=max_decisions,
    )  # fmt: skip
