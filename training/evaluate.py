"""Matches between agents: win / draw / loss counts with 95% confidence intervals.

Game ``g`` of a match with seed ``s`` uses game seed ``s + g``; each agent's private seed
derives from the game seed (:func:`riven_env.game.runner.agent_seeds`), so a match is
reproducible and independent of how it is split over worker processes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from riven_env.game import new_game
from riven_env.game.runner import agent_seeds, play
from riven_env.game.state import SIDES

# z of a two-sided 95% interval.
Z95 = 1.959963984540054

# Scenarios loaded in this process, by name or path: loading builds the table and its
# navigation caches, which every game of a match then shares.
_LOADED: dict[str, Any] = {}


def loaded_scenario(scenario: Any) -> Any:
    """The loaded Scenario of a name or path (cached per process), or ``scenario`` itself."""
    from pathlib import Path

    if not isinstance(scenario, str | Path):
        return scenario
    key = str(scenario)
    if key not in _LOADED:
        from riven_env.scenario import load_scenario

        _LOADED[key] = load_scenario(scenario)
    return _LOADED[key]


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` for no trials)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class MatchResult:
    """Outcomes of a match from one player's point of view.

    Attributes:
        games: Games played.
        wins: Games the player won.
        draws: Drawn games.
        losses: Games the player lost.
    """

    games: int
    wins: int
    draws: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def rate_and_interval(self, outcome: str) -> tuple[float, float, float]:
        """``(rate, low, high)`` of ``"wins"``, ``"draws"`` or ``"losses"`` (95% Wilson)."""
        count = getattr(self, outcome)
        low, high = wilson_interval(count, self.games)
        return (count / self.games if self.games else 0.0, low, high)

    def __add__(self, other: MatchResult) -> MatchResult:
        return MatchResult(
            self.games + other.games,
            self.wins + other.wins,
            self.draws + other.draws,
            self.losses + other.losses,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": self.games}
        for outcome in ("wins", "draws", "losses"):
            rate, low, high = self.rate_and_interval(outcome)
            out[outcome] = {"count": getattr(self, outcome), "rate": rate, "ci95": [low, high]}
        return out


def _tally(winners: Sequence[str | None], sides: Sequence[str]) -> MatchResult:
    wins = sum(1 for w, s in zip(winners, sides, strict=True) if w == s)
    draws = sum(1 for w in winners if w is None)
    return MatchResult(len(winners), wins, draws, len(winners) - wins - draws)


def play_one(
    scenario: Any,
    agents: Mapping[str, Any],
    game_seed: int,
    overrides: Mapping[str, object] | None = None,
) -> str | None:
    """Play one game with ready agents (side -> Agent); return the winner (None: draw)."""
    state = new_game(loaded_scenario(scenario), game_seed, overrides=overrides)
    play(state, agents)
    return state.winner


def _play_specs(args: tuple[Any, str, str, int, Mapping[str, object] | None]) -> str | None:
    from agents.registry import make_agent

    scenario, blue, red, game_seed, overrides = args
    seeds = agent_seeds(game_seed)
    agents = {
        "blue": make_agent(blue, "blue", seeds["blue"]),
        "red": make_agent(red, "red", seeds["red"]),
    }
    return play_one(scenario, agents, game_seed, overrides)


def play_match(
    scenario: Any,
    blue: str,
    red: str,
    games: int,
    *,
    seed: int = 0,
    overrides: Mapping[str, object] | None = None,
    jobs: int = 1,
) -> MatchResult:
    """Play ``games`` games between two agent specs; the result is from blue's view.

    Args:
        scenario: A bundled name, a path or a loaded Scenario.
        blue: Agent spec of blue.
        red: Agent spec of red.
        games: Number of games.
        seed: Game ``g`` uses game seed ``seed + g``.
        overrides: Rules data overrides.
        jobs: Worker processes (1: play in this process).
    """
    tasks = [(scenario, blue, red, seed + g, overrides) for g in range(games)]
    if jobs > 1 and games > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            winners = list(pool.map(_play_specs, tasks, chunksize=max(1, games // (4 * jobs))))
    else:
        winners = [_play_specs(task) for task in tasks]
    return _tally(winners, ["blue"] * games)


def evaluate_agent(
    scenario: Any,
    make_subject: Callable[[str], Any],
    opponent: str,
    games: int,
    *,
    seed: int = 0,
    overrides: Mapping[str, object] | None = None,
) -> MatchResult:
    """Play an agent against ``opponent``, alternating sides; the result is the agent's view.

    Args:
        scenario: A bundled name, a path or a loaded Scenario.
        make_subject: ``side -> Agent`` for the agent under test (called once per side).
        opponent: Agent spec of the opponent.
        games: Number of games (even games: the subject plays blue; odd: red).
        seed: Game ``g`` uses game seed ``seed + g``.
        overrides: Rules data overrides.
    """
    from agents.registry import make_agent

    scenario = loaded_scenario(scenario)
    subjects = {side: make_subject(side) for side in SIDES}
    winners: list[str | None] = []
    sides: list[str] = []
    for g in range(games):
        game_seed = seed + g
        side = SIDES[g % 2]
        other = SIDES[1 - g % 2]
        agents = {
            side: subjects[side],
            other: make_agent(opponent, other, agent_seeds(game_seed)[other]),
        }
        winners.append(play_one(scenario, agents, game_seed, overrides))
        sides.append(side)
    return _tally(winners, sides)
