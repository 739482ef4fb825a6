"""Shared fixtures: scripted dice and small hand-built games for the game-loop tests.

``script_dice(state, *faces)`` replaces a game's random stream with :class:`FixedDice`, so a
test decides every die the rules draw. ``mini_game(models, ...)`` builds a tiny scenario
from TOML text (models at fixed positions on an open 24" table unless terrain is given) and
starts it, so a test can set up the exact situation a rule is about.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest


class DiceExhaustedError(RuntimeError):
    """The code under test drew more dice than the test scripted."""


class FixedDice:
    """A stand-in for :class:`numpy.random.Generator` that deals scripted die faces.

    The rules draw every die with ``rng.integers(1, faces + 1)`` or
    ``rng.integers(1, faces + 1, size=n)`` (``riven_env/rules/dice.py``); this class answers
    those calls from a queue and refuses a face outside ``[low, high)``, so a script that
    does not fit the call fails loudly instead of dealing an impossible die.

    Attributes:
        queue: The faces not dealt yet.
        dealt: Every face dealt so far, in order.
    """

    def __init__(self, faces: Sequence[int]) -> None:
        self.queue = [int(f) for f in faces]
        self.dealt: list[int] = []

    def push(self, *faces: int) -> None:
        """Append more scripted faces."""
        self.queue.extend(int(f) for f in faces)

    @property
    def remaining(self) -> int:
        return len(self.queue)

    def _next(self, low: int, high: int) -> int:
        if not self.queue:
            raise DiceExhaustedError(
                f"the game drew a die in [{low}, {high}) after the script ran out; "
                f"dealt so far: {self.dealt}"
            )
        face = self.queue.pop(0)
        if not low <= face < high:
            raise ValueError(f"scripted face {face} is outside the drawn range [{low}, {high})")
        self.dealt.append(face)
        return face

    def integers(self, low: int, high: int | None = None, size: int | None = None, **_: Any):
        """Deal scripted faces as ``Generator.integers`` would (scalar or array)."""
        if high is None:
            low, high = 0, low
        if size is None:
            return np.int64(self._next(int(low), int(high)))
        count = int(np.prod(size))
        return np.array([self._next(int(low), int(high)) for _ in range(count)], dtype=np.int64)


_TEMPLATE = """
schema_version = 1

[scenario]
name = "mini-test"
title = "Scripted test"
setting = "{setting}"
mode = "{mode}"
rounds = {rounds}
first_side = "{first_side}"

[table]
width = {width}
height = {height}
{terrain}
[deployment]
blue = [[0, 0, {width}, {half}]]
red = [[0, {half}, {width}, {height}]]
{objectives}
{profiles}
[sides.blue]
name = "Blue"
oracle = "aggressive"
{blue}
[sides.red]
name = "Red"
oracle = "aggressive"
{red}
[victory]
at_round_limit = "{at_round_limit}"
{victory}
"""

ELIMINATE = '[[victory.conditions]]\ntype = "eliminate"\n'

# Plain profiles for scripted games: no weapon modifiers or traits, so every modifier in an
# event comes from the rule under test. "trooper": Mettle 4, 2 wounds, Wit 2 (Strain track 4),
# a bow (18"); "brawler": the same without a bow; "leader" and "horror" add the leader and
# terror keywords; "champion" is a legal starting hero (9 points, none above 4).
TEST_PROFILES = """
[profiles.trooper]
might = 2
agility = 2
wit = 2
resolve = 2
mettle = 4
wounds = 2
move = 5
melee = "sword"
ranged = "bow"
keywords = []

[profiles.brawler]
might = 2
agility = 2
wit = 2
resolve = 2
mettle = 4
wounds = 2
move = 5
melee = "sword"
keywords = []

[profiles.leader]
might = 2
agility = 2
wit = 2
resolve = 2
mettle = 4
wounds = 2
move = 5
melee = "sword"
keywords = ["leader"]

[profiles.horror]
might = 2
agility = 2
wit = 2
resolve = 2
mettle = 4
wounds = 2
move = 5
melee = "sword"
keywords = ["terror"]

[profiles.champion]
might = 3
agility = 2
wit = 2
resolve = 2
mettle = 3
wounds = 3
move = 5
melee = "sword"
ranged = "bow"
keywords = ["hero"]
"""


def mini_scenario_text(
    models: Sequence[tuple[str, str, str, tuple[float, float]]],
    *,
    terrain: str = "",
    objectives: str = "",
    profiles: str = "",
    victory: str = ELIMINATE,
    at_round_limit: str = "points",
    rounds: int = 6,
    mode: str = "warband",
    first_side: str = "blue",
    setting: str = "fantasy",
    width: float = 24,
    height: float = 24,
) -> str:
    """A scenario document with every model at a fixed position.

    Args:
        models: ``(side, profile, id, (x, y))`` per model, in the order the game indexes them
            (blue models first, then red, as the scenario lists them).
        terrain, objectives, victory: TOML fragments pasted into the document.
        profiles: Extra ``[profiles.*]`` tables, added to :data:`TEST_PROFILES`.
        at_round_limit, rounds, mode, first_side, setting, width, height: Scenario fields.
    """
    blocks = {"blue": "", "red": ""}
    for side, profile, model_id, (x, y) in models:
        blocks[side] += (
            f'[[sides.{side}.models]]\nprofile = "{profile}"\nid = "{model_id}"\n'
            f"position = [{x}, {y}]\n"
        )
    return _TEMPLATE.format(
        setting=setting,
        mode=mode,
        rounds=rounds,
        first_side=first_side,
        width=width,
        height=height,
        half=height / 2,
        terrain=terrain,
        objectives=objectives,
        profiles=TEST_PROFILES + profiles,
        blue=blocks["blue"],
        red=blocks["red"],
        at_round_limit=at_round_limit,
        victory=victory,
    )


@pytest.fixture
def script_dice() -> Callable[..., FixedDice]:
    """``script_dice(state, *faces)``: deal ``faces`` as the game's next dice."""

    def install(state: Any, *faces: int) -> FixedDice:
        dice = FixedDice(faces)
        state.rng = dice
        return dice

    return install


@pytest.fixture
def mini_game() -> Callable[..., Any]:
    """``mini_game(models, seed=0, overrides=None, **fields)``: a started game, events drained.

    ``fields`` go to :func:`mini_scenario_text`. The start-of-game events stay readable on
    the returned state as ``state.start_events``.
    """
    from riven_env.engines import new_game
    from riven_env.scenario import load_scenario_text

    def build(
        models: Sequence[tuple[str, str, str, tuple[float, float]]],
        *,
        seed: int = 0,
        overrides: dict[str, object] | None = None,
        **fields: Any,
    ) -> Any:
        scenario = load_scenario_text(mini_scenario_text(models, **fields))
        state = new_game(scenario, seed, overrides=overrides)
        state.start_events = state.drain_events()
        return state

    return build


@pytest.fixture(autouse=True)
def _engine_default_is_per_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command run in-process with ``--engine`` sets ``RIVEN_ENGINE`` (for its workers);
    each test starts on the Python reference engine and leaves nothing behind.

    The rule tests read the reference's own state (``GameState`` fields), so games started
    without ``engine=`` are the Python engine's here; the tests of the native core ask for
    it by name, and those of the real default (``auto``) delete the variable
    (``tests/test_engine_default.py``, the README's usage block)."""
    from riven_env.engines import ENGINE_VARIABLE

    # setenv (not delenv) so that teardown puts back the value before the test, whatever a
    # command set in between.
    monkeypatch.setenv(ENGINE_VARIABLE, "python")


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_a_test_folder(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """stable-baselines3 makes a folder ``SB3-<date>`` in the system's temporary directory for
    every ``learn`` without a tensorboard folder (its logger's default); the tests that train a
    model directly put those in pytest's own temporary folder (``SB3_LOGDIR``)."""
    import os

    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
    yield
    if before is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = before


#: The ``meta.resolution`` of :func:`python_only_system`.
PYTHON_ONLY_SYSTEM = "house-dice"


@pytest.fixture
def python_only_system(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A resolution system registered in Python only (a designer's own, RIVEN's dice under
    another name), which the native core does not have now that it has every bundled one;
    returns the rules overrides that select it."""
    from riven_env.rules import resolution
    from riven_env.rules.resolution import RivenResolution, SystemSpec

    class HouseDice(RivenResolution):
        name = PYTHON_ONLY_SYSTEM

    monkeypatch.setitem(
        resolution._REGISTRY, PYTHON_ONLY_SYSTEM, SystemSpec(PYTHON_ONLY_SYSTEM, HouseDice)
    )
    return {"resolution": PYTHON_ONLY_SYSTEM}
