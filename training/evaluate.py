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

from riven_env.engines import new_game
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
    from riven_agents.registry import make_agent

    scenario, blue, red, game_seed, overrides = args
    seeds = agent_seeds(game_seed)
    agents = {
        "blue": make_agent(blue, "blue", seeds["blue"]),
        "red": make_agent(red, "red", seeds["red"]),
    }
    return play_one(scenario, agents, game_seed, overrides)


def _play_chunk(args: tuple[Callable[[Any], Any], list[Any]]) -> list[Any]:
    play_task, tasks = args
    return [play_task(task) for task in tasks]


def run_tasks(
    play_task: Callable[[Any], Any],
    tasks: Sequence[Any],
    *,
    workers: int = 1,
    progress: bool = False,
    description: str = "games",
) -> list[Any]:
    """``[play_task(t) for t in tasks]``, in order, on ``workers`` processes, with a bar.

    The results do not depend on ``workers``: every task carries its own seeds. Workers are
    spawned (not forked: the parent may hold torch or progress-bar threads), and get the
    tasks in chunks so that each process start is paid for by several games.

    Args:
        play_task: A picklable function of one task (module level, or a partial of one).
        tasks: The tasks (picklable).
        workers: Worker processes (1: play in this process).
        progress: Show the shared progress bar (:mod:`riven_env.progress`) on stderr.
        description: The bar's label.
    """
    from riven_env.progress import tracked

    tasks = list(tasks)
    results: list[Any] = []
    with tracked(len(tasks), description, enabled=progress) as advance:
        if workers > 1 and len(tasks) > 1:
            import multiprocessing

            size = max(1, math.ceil(len(tasks) / (4 * workers)))
            chunks = [(play_task, tasks[i : i + size]) for i in range(0, len(tasks), size)]
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                for chunk in pool.map(_play_chunk, chunks):
                    results.extend(chunk)
                    advance(len(chunk))
        else:
            for task in tasks:
                results.append(play_task(task))
                advance(1)
    return results


def play_match(
    scenario: Any,
    blue: str,
    red: str,
    games: int,
    *,
    seed: int = 0,
    overrides: Mapping[str, object] | None = None,
    workers: int = 1,
    progress: bool = False,
) -> MatchResult:
    """Play ``games`` games between two agent specs; the result is from blue's view.

    Args:
        scenario: A bundled name, a path or a loaded Scenario.
        blue: Agent spec of blue.
        red: Agent spec of red.
        games: Number of games.
        seed: Game ``g`` uses game seed ``seed + g``.
        overrides: Rules data overrides.
        workers: Worker processes (1: play in this process); the result is the same.
        progress: Show a progress bar on stderr.
    """
    tasks = [(scenario, blue, red, seed + g, overrides) for g in range(games)]
    winners = run_tasks(
        _play_specs, tasks, workers=workers, progress=progress, description=f"{blue} vs {red}"
    )
    return _tally(winners, ["blue"] * games)


def play_subject_game(
    task: tuple[Any, Callable[[str], Any], str, int, str, Mapping[str, object] | None, bool],
) -> dict[str, Any]:
    """One game of a subject against an opponent spec (a task of :func:`subject_games`).

    ``task`` is ``(scenario, make_subject, opponent, game_seed, side, overrides,
    keep_events)``; the subject is made afresh (``make_subject(side)``) for every game.
    """
    from riven_agents.registry import make_agent

    scenario, make_subject, opponent, game_seed, side, overrides, keep_events = task
    other = SIDES[1 - SIDES.index(side)]
    state = new_game(loaded_scenario(scenario), game_seed, overrides=overrides)
    agents = {
        side: make_subject(side),
        other: make_agent(opponent, other, agent_seeds(game_seed)[other]),
    }
    events = play(state, agents)
    game = {"seed": game_seed, "side": side, "winner": state.winner}
    if keep_events:
        game["events"] = events
    return game


def subject_games(
    scenario: Any,
    make_subject: Callable[[str], Any],
    opponent: str,
    games: int,
    *,
    seed: int = 0,
    overrides: Mapping[str, object] | None = None,
    keep_events: bool = False,
    workers: int = 1,
    progress: bool = False,
    description: str | None = None,
) -> list[dict[str, Any]]:
    """Play a subject against ``opponent``, alternating sides (even games: blue).

    Returns one dict per game: ``seed``, ``side`` (the subject's), ``winner`` and, with
    ``keep_events``, the event log ``events``. ``make_subject`` must be picklable when
    ``workers > 1`` (a module-level function or a :func:`functools.partial` of one).
    """
    tasks = [
        (scenario, make_subject, opponent, seed + g, SIDES[g % 2], overrides, keep_events)
        for g in range(games)
    ]
    return run_tasks(
        play_subject_game,
        tasks,
        workers=workers,
        progress=progress,
        description=description or f"vs {opponent}",
    )


def evaluate_agent(
    scenario: Any,
    make_subject: Callable[[str], Any],
    opponent: str,
    games: int,
    *,
    seed: int = 0,
    overrides: Mapping[str, object] | None = None,
    workers: int = 1,
    progress: bool = False,
) -> MatchResult:
    """Play an agent against ``opponent``, alternating sides; the result is the agent's view.

    Args:
        scenario: A bundled name, a path or a loaded Scenario.
        make_subject: ``side -> Agent`` for the agent under test (called for every game;
            picklable when ``workers > 1``).
        opponent: Agent spec of the opponent.
        games: Number of games (even games: the subject plays blue; odd: red).
        seed: Game ``g`` uses game seed ``seed + g``.
        overrides: Rules data overrides.
        workers: Worker processes (1: play in this process); the result is the same.
        progress: Show a progress bar on stderr.
    """
    if workers <= 1:
        scenario = loaded_scenario(scenario)  # built once and shared by every game here
    played = subject_games(
        scenario, make_subject, opponent, games, seed=seed, overrides=overrides,
        workers=workers, progress=progress,
    )  # fmt: skip
    return _tally([g["winner"] for g in played], [g["side"] for g in played])
